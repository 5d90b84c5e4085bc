"""Text of a tender nobody handed in: what bidders quote clause by clause, each in changing company.

Checked without its tender, a section's bids still share the tender's clauses: every bidder quotes the
requirements it answers, a different selection each, so each clause is held by its own set of bidders,
often fewer than the share that makes text common. Colluders share a draft the other way: a block held
by the same few bidders throughout. So a stretch of a bid whose shared clauses, one after another, are
held by changing sets of bidders — as many in all as make text common (at most ``common_alone_bids``),
and more than any one clause has — holds quoted clauses: no evidence whoever shares them, rings
included. Quoted is what three bids or more hold word for word, at least half of them in such stretches
of their own: a clause two bids alone share is theirs, and so is a copy pasted right after a quoted clause
(one run of shared text with it), or a ring's draft that one member pasted among its quoted clauses and
the others elsewhere.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from bidcheck.arrays import distinct
from bidcheck.config import Settings
from bidcheck.evidence.flags import bids_for_common, long_gram_hashes, spans_mask, true_runs
from bidcheck.ready import Ready

__all__ = ["changing_company_masks"]

Mask = npt.NDArray[np.bool_]


@dataclass(frozen=True)
class _Holders:
    """Which bids hold each stretch that two or more bids hold: ``bids[starts[i]:ends[i]]`` hold the
    stretch hashed ``hashes[i]`` (hashes sorted)."""

    hashes: npt.NDArray[np.uint64]
    starts: npt.NDArray[np.int64]
    ends: npt.NDArray[np.int64]
    bids: npt.NDArray[np.int64]

    @classmethod
    def of(cls, grams: Sequence[npt.NDArray[np.uint64]]) -> _Holders:
        held = [distinct(g) for g in grams]
        hashes = np.concatenate([*held, np.zeros(0, dtype=np.uint64)])
        owners = np.repeat(np.arange(len(grams), dtype=np.int64), [len(d) for d in held])
        order = np.argsort(hashes, kind="stable")
        hashes, owners = hashes[order], owners[order]
        first = (
            np.flatnonzero(np.r_[True, hashes[1:] != hashes[:-1]]) if len(hashes) else np.zeros(0, np.int64)
        )
        last = np.r_[first[1:], len(hashes)].astype(np.int64)
        shared = last - first >= 2
        return cls(hashes[first[shared]], first[shared], last[shared], owners)

    def groups(self, grams: npt.NDArray[np.uint64]) -> npt.NDArray[np.int64]:
        """For each stretch of a bid, the index of its holders (-1: no other bid holds it)."""
        if not len(self.hashes):
            return np.full(len(grams), -1, dtype=np.int64)
        at = np.minimum(np.searchsorted(self.hashes, grams), len(self.hashes) - 1)
        return np.where(self.hashes[at] == grams, at, -1).astype(np.int64)

    def company(
        self, positions: npt.NDArray[np.int64], groups: npt.NDArray[np.int64], least: int
    ) -> tuple[int, int]:
        """(bids holding a run of at least ``least`` consecutive of these stretches, most bids holding one
        of them), the stretches given by their ``positions`` in the bid and their ``groups``: a bid that
        meets the others on stock phrases here and there is no company."""
        lengths = self.ends[groups] - self.starts[groups]
        offsets = np.repeat(self.starts[groups] - np.r_[0, np.cumsum(lengths)[:-1]], lengths)
        members = self.bids[offsets + np.arange(int(lengths.sum()))]
        at = np.repeat(positions, lengths)
        order = np.lexsort((at, members))
        members, at = members[order], at[order]
        starts = np.r_[True, (members[1:] != members[:-1]) | (at[1:] != at[:-1] + 1)]
        run = np.cumsum(starts) - 1
        run_lengths = np.bincount(run)
        longest = np.zeros(int(members.max()) + 1, dtype=np.int64)
        np.maximum.at(longest, members[starts], run_lengths)
        return int((longest >= least).sum()), int(lengths.max())


def _long_runs(covered: Mask, min_chars: int) -> Mask:
    """The runs of covered characters at least ``min_chars`` long: a quoted clause, not two bids' prose
    meeting on a stock phrase for a few words."""
    out = np.zeros_like(covered)
    for lo, hi in true_runs(covered):
        out[lo:hi] = hi - lo >= min_chars
    return out


def _regions(covered: Mask, gap: int) -> list[tuple[int, int]]:
    """Runs of covered characters, joined across gaps of at most ``gap``."""
    runs: list[tuple[int, int]] = []
    for lo, hi in true_runs(covered):
        if runs and lo - runs[-1][1] <= gap:
            runs[-1] = (runs[-1][0], hi)
        else:
            runs.append((lo, hi))
    return runs


@dataclass(frozen=True)
class _Regions:
    """One bid's shared stretches (``groups``: each one's holders, -1 where none or common) and its
    regions of clauses held in changing company (``inside``, by character)."""

    groups: npt.NDArray[np.int64]
    inside: Mask


def _regions_in(
    groups: npt.NDArray[np.int64], holders: _Holders, common: Mask, needed: int, settings: Settings
) -> _Regions:
    """One bid's shared text outside its common text, and the stretches of it that hold clauses in
    changing company."""
    span = settings.template_min_chars
    groups = np.where(common[: len(groups)], -1, groups)
    covered = _long_runs(spans_mask(groups >= 0, span, len(common)), settings.min_passage_chars)
    groups = np.where(covered[: len(groups)], groups, -1)
    inside = np.zeros(len(common), dtype=bool)
    least = settings.min_passage_chars - span + 1  # stretches that make one passage
    for lo, hi in _regions(covered, settings.max_gap_chars):
        positions = lo + np.flatnonzero(groups[lo : max(lo, hi - span + 1)] >= 0)
        if not len(positions):
            continue
        company, largest = holders.company(positions, groups[positions], least)
        if company >= needed and company > largest:
            inside[lo:hi] = covered[lo:hi]
    return _Regions(groups, inside)


def _quoted(regions: Sequence[_Regions], holders: _Holders) -> npt.NDArray[np.bool_]:
    """By stretch held by two bids or more: whether it is quoted, that is three bids or more hold it and
    at least half of them in their regions of clauses held in changing company. A clause two bids
    alone share is theirs, even among clauses that many quote; a draft a ring pasted next to the quoted
    tender in one member's bid lies elsewhere in the others'."""
    counts = holders.ends - holders.starts
    quoting = np.zeros(len(counts), dtype=np.int64)
    for bid in regions:
        at = np.flatnonzero(bid.groups >= 0)
        quoting[np.unique(bid.groups[at[bid.inside[at]]])] += 1
    return (counts >= 3) & (2 * quoting >= counts)


def _public_in(bid: _Regions, quoted: npt.NDArray[np.bool_], span: int) -> Mask:
    """One bid's text in its regions of clauses held in changing company that is quoted (``_quoted``):
    only that, not a copy pasted right next to it (with no sentence end between them the two are one
    run of shared text)."""
    stretches = np.zeros(len(bid.groups), dtype=bool)
    shared = bid.groups >= 0
    stretches[shared] = quoted[bid.groups[shared]]
    return spans_mask(stretches, span, len(bid.inside)) & bid.inside


def changing_company_masks(bids: Sequence[Ready], common: Sequence[Mask], settings: Settings) -> list[Mask]:
    """For each bid, by comparable character: text it shares clause by clause in changing company (see
    the module's docstring), beside its ``common`` text. Meant for checks without a tender: where the
    tender is given, its clauses are template text already."""
    span = settings.template_min_chars
    grams = [long_gram_hashes(b.fingerprint.kgrams, settings.seed_chars, span) for b in bids]
    holders = _Holders.of(grams)
    needed = min(settings.common_alone_bids, bids_for_common(len(bids), settings))
    regions = [
        _regions_in(holders.groups(g), holders, c, needed, settings)
        for g, c in zip(grams, common, strict=True)
    ]
    quoted = _quoted(regions, holders)
    return [_public_in(r, quoted, span) for r in regions]
