"""Comparing all pairs: candidate index, alignment into passages, the pairwise runner, scoring."""

from bidcheck.compare.align import align_pair
from bidcheck.compare.candidates import candidate_window_pairs
from bidcheck.compare.inputs import AlignInput, align_inputs
from bidcheck.compare.passage import RawPassage
from bidcheck.compare.runner import compare_pairs
from bidcheck.compare.score import Score, score_pair

__all__ = [
    "AlignInput",
    "RawPassage",
    "Score",
    "align_inputs",
    "align_pair",
    "candidate_window_pairs",
    "compare_pairs",
    "score_pair",
]
