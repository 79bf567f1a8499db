"""Checks: validation findings located at file, line and pointer, the incremental re-check, the report
formats, and the reference set prepared (store and findings) for a data repository."""
