"""Comparing all pairs: candidate index, alignment into passages, the pairwise runner, scoring."""

from bidcheck.compare.align import AlignInput, RawPassage, align_pair
from bidcheck.compare.candidates import candidate_window_pairs
from bidcheck.compare.runner import compare_pairs
from bidcheck.compare.score import judge_pair

__all__ = ["AlignInput", "RawPassage", "align_pair", "candidate_window_pairs", "compare_pairs", "judge_pair"]
