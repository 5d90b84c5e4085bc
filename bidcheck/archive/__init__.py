"""Archives beyond one machine: whole-document groups and near-duplicate pairs as a Spark job.

The same fingerprints as the library (``bidcheck.library``): each document's 64-bit SimHash, split into
``hamming + 1`` bands for the groups (pigeonhole: documents at most ``hamming`` bits apart agree in a
band), and the set of its winnowed 8-character k-gram hashes for near duplicates (the share of the larger
of two sets that both hold, counted exactly through a join on the hashes). Only this package imports
PySpark, an optional extra (``bidcheck[archive]``); ``bidcheck archive`` says so when it is missing.
"""

from bidcheck.archive.job import ArchiveFigures, ArchiveInput, run_archive

__all__ = ["ArchiveFigures", "ArchiveInput", "run_archive"]
