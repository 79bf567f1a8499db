"""Records: the JSON record format (schema), reading a record file byte-exactly, the layout of a data
folder or data repository, names and aliases, drafts from a vendor's text, and `benchkg init`."""
