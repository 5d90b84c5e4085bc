"""Candidate window pairs read out of one LSH index over every window of every bid."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from datasketch import LeanMinHash, MinHashLSH

__all__ = ["WindowPairs", "candidate_window_pairs"]

WindowPairs = dict[tuple[int, int], list[tuple[int, int]]]


def candidate_window_pairs(
    windows: Sequence[Sequence[LeanMinHash]], threshold: float, num_perm: int
) -> WindowPairs:
    """For each pair of documents ``(i, j)``, ``i < j``: the window pairs whose MinHashes collide.

    Every window is inserted once and queried once; no pair of documents is looped over.
    """
    lsh = MinHashLSH(threshold=threshold, num_perm=num_perm)
    with lsh.insertion_session() as session:
        for doc, doc_windows in enumerate(windows):
            for index, signature in enumerate(doc_windows):
                session.insert((doc, index), signature, check_duplication=False)
    pairs: defaultdict[tuple[int, int], set[tuple[int, int]]] = defaultdict(set)
    for doc, doc_windows in enumerate(windows):
        for index, signature in enumerate(doc_windows):
            for other, other_index in lsh.query(signature):
                if other > doc:
                    pairs[(doc, other)].add((index, other_index))
    return {key: sorted(value) for key, value in sorted(pairs.items())}
