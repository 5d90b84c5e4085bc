"""A process that ends while a model loads in the background ends cleanly.

Python stops a daemon thread that is inside a C++ call when the interpreter ends, and the C++ runtime
then aborts the process ("terminate called without an active exception", exit -6): a script that
checked a section whose vectors were cached, stored the result and ended while the encoder was still
loading, died so. The loads are waited for instead.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

# the exit handler runs once the interpreter has waited for the threads it must wait for: a thread
# still going then is one the interpreter would stop wherever it is
_ENDS_AT_ONCE = """
import atexit, sys, threading

def still_going() -> None:
    names = [t.name for t in threading.enumerate() if t is not threading.main_thread()]
    print("going:" + ",".join(names), flush=True)

atexit.register(still_going)
{start}
sys.exit(0)
"""

_LOADS = {
    "encoder": "from bidcheck.semantic import preload_encoder\npreload_encoder('use')",
    "ocr engine": "from bidcheck.ingest.scan import load_engine_soon\nload_engine_soon('rapidocr', 1)",
}


@pytest.mark.parametrize("load", sorted(_LOADS))
def test_a_process_ending_while_a_model_loads_waits_for_it_and_ends_cleanly(load: str) -> None:
    script = _ENDS_AT_ONCE.format(start=_LOADS[load])
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "going:"
    assert "terminate called" not in done.stderr
