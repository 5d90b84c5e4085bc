"""What a check remembers, behind one API: everything computed once and read back, not computed again.

- ``keys``: what names an entry. A key hashes everything its entry was made from: a file's bytes, an
  input's parts, the code that made it, the settings (``settings_key``, the same text in every key).
- ``store``: the entries on disk, written whole, each verified by a keyed hash under its folder's
  secret, pruned least recently used first (``load_blob``, ``store_blob``, ``prune_cache``).
- ``running``: entries read through the running check's memory (``ReadMemo``: the app checks a section
  again when a file is added), and values kept there only (``keep_in_memo``;
  a computation of one inputs value kept there: ``memoised_in_memory``).
- ``stages``: each stage's result after reading, under one key for everything the stages start from.
- ``inputs``: a computation of one frozen inputs value remembered by all of it (``memoised``; a value
  for each key asked, in one entry growing with the keys: ``memoised_per_key``): the key is derived
  from the inputs (``key_of``), never written beside them by hand.

What each computation remembers, and by which inputs, is the computation's own (verified pairs in
``compare.memo``, candidate pairs in ``compare.kept``, judged pairs in ``judged``, the hashes most bids
hold in ``evidence.frequent``, OCR lines in ``ingest.ocr_cache``, sentence vectors in
``semantic.cache``); each keeps its entries here, keyed here.
"""

from __future__ import annotations

from bidcheck.memo.inputs import (
    COMPUTATIONS,
    Keyed,
    PerKey,
    key_of,
    memoised,
    memoised_in_memory,
    memoised_per_key,
)
from bidcheck.memo.keys import (
    code_digest,
    file_digest,
    package_code,
    parts_digest,
    settings_key,
    source_key,
)
from bidcheck.memo.running import (
    ReadMemo,
    forget_unused,
    keep_in_memo,
    kept_in_memo,
    load_entry,
    memo_running,
    put_entry,
    store_entry,
)
from bidcheck.memo.stages import STAGES_FORMAT, inputs_key, is_remembered, library_said, remembered
from bidcheck.memo.store import (
    CACHE_ENV,
    ENTRY_OVERHEAD,
    cache_folders,
    cache_roots,
    has_blob,
    load_blob,
    prune_cache,
    store_blob,
    stored_table,
)

__all__ = [
    "CACHE_ENV",
    "COMPUTATIONS",
    "ENTRY_OVERHEAD",
    "STAGES_FORMAT",
    "Keyed",
    "PerKey",
    "ReadMemo",
    "cache_folders",
    "cache_roots",
    "code_digest",
    "file_digest",
    "forget_unused",
    "has_blob",
    "inputs_key",
    "is_remembered",
    "keep_in_memo",
    "kept_in_memo",
    "key_of",
    "library_said",
    "load_blob",
    "load_entry",
    "memo_running",
    "memoised",
    "memoised_in_memory",
    "memoised_per_key",
    "package_code",
    "parts_digest",
    "prune_cache",
    "put_entry",
    "remembered",
    "settings_key",
    "source_key",
    "store_blob",
    "store_entry",
    "stored_table",
]
