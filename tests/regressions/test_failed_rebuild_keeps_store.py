"""Regression: when the mapping changed (a full rebuild is due) and a record is broken, the build
used to clear the store before it found the broken record. Now it reads everything first."""

from __future__ import annotations

import gc

import pytest

import benchkg.graph.store as store_module
from benchkg.graph.opening import open_store, store_dir_for
from benchkg.graph.store import build_graph
from benchkg.kernel.errors import InputError


def test_full_rebuild_with_a_bad_record_leaves_the_store(data_copy, monkeypatch):
    build_graph(data_copy)
    gc.collect()
    before = {str(q) for q in open_store((store_dir_for(data_copy)))}
    gc.collect()
    monkeypatch.setattr(store_module, "MAPPING_VERSION", "a-newer-mapping")
    (data_copy / "models" / "broken.json").write_text("{ not json")
    with pytest.raises(InputError):
        build_graph(data_copy)
    gc.collect()
    assert {str(q) for q in open_store((store_dir_for(data_copy)))} == before
