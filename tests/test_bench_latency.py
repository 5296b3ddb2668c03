"""benchmarks/ui_latency.py's reading of a program on a pty: when its screen has settled."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent.parent / "benchmarks" / "ui_latency.py"


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("ui_latency", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("ui_latency", module)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("marked", [False, True])
def test_a_first_frame_with_or_without_its_end_mark_settles_before_later_output(bench, tmp_path, marked):
    """A first frame drawn before the terminal's answer about synchronized output has no end
    mark: its last row drawn ends it all the same, and output a second later (a pointer shape
    written as kept screens are set up) is not waited for."""
    end = "\\x1b[?2026l" if marked else ""
    program = (
        "import sys, time; sys.stdout.write('\\x1b[1;1Htop\\x1b[6;1Hbottom" + end + "'); "
        "sys.stdout.flush(); time.sleep(1.5); sys.stdout.write('late'); sys.stdout.flush(); time.sleep(5)"
    )
    child = bench.Child([sys.executable, "-c", program], (20, 6), {"PATH": "/usr/bin:/bin"})
    try:
        child.read_until_quiet(0.3, limit=10)
        first, settled = child.frames(0, child.t_start, whole=True)
    finally:
        child.close()
    assert not any(b"late" in data for _, data in child.chunks), "the reading waited for output after the frame"
    assert first is not None and first == settled
