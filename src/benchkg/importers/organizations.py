"""Organisations as the importers write them: name, and kind from benchkg's reviewed table.

The table (``organizations.json`` beside this module) says what each organisation is in the field
(cloud provider, chip maker, system builder…), with why. A superlative "among cloud providers"
ranks among the results of the organisations the table calls cloud providers; an organisation the
table lists with no kind, or does not list, is unclassified, never guessed.
"""

from __future__ import annotations

import functools
import json

from benchkg.importers.common import TABLES


@functools.cache
def organization_kinds() -> dict[str, list[str]]:
    """The reviewed table: organisation id -> its kinds (empty: not identified yet).

    >>> organization_kinds()["coreweave"], organization_kinds()["google"]
    (['cloud-provider'], ['cloud-provider', 'chip-maker'])
    """
    table = json.loads((TABLES / "organizations.json").read_text(encoding="utf-8"))
    table.pop("_comment", None)
    return {org_id: entry["kind"] for org_id, entry in table.items()}


def organization_record(org_id: str, name: str, **fields) -> dict:
    """A new organisation record, with its kinds when the reviewed table has them.

    >>> organization_record("oracle", "Oracle")
    {'id': 'oracle', 'name': 'Oracle', 'kind': ['cloud-provider']}
    >>> organization_record("someone-new", "Someone New")
    {'id': 'someone-new', 'name': 'Someone New'}
    """
    record = {"id": org_id, "name": name, **fields}
    kinds = organization_kinds().get(org_id)
    if kinds:
        record["kind"] = list(kinds)
    return record
