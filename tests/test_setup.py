"""The set-up a new user runs (issue 23): `make play` and `make serve` build the compiled engine first, where
a C compiler is present, and say in one line what running without it costs when none is."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.skipif(shutil.which("make") is None, reason="needs make")
@pytest.mark.parametrize(("target", "runs"), [("play", "cinch play"), ("serve", "cinch serve"),
                                              ("serve-cluster", "scripts/serve-cluster.py")])
def test_the_targets_that_play_build_the_compiled_engine_first(target, runs):
    steps = subprocess.run(["make", "-n", target], cwd=ROOT, capture_output=True, text=True, check=True,
                           timeout=60).stdout.splitlines()
    build = next(i for i, step in enumerate(steps) if "-m cinch.native_build" in step)
    start = next(i for i, step in enumerate(steps) if runs in step)
    assert build < start, steps


def test_without_a_c_compiler_the_build_says_in_one_line_what_that_costs(tmp_path):
    pytest.importorskip("mypyc")
    env = {k: v for k, v in os.environ.items() if k not in ("CINCH_PURE", "PYTHONPATH")}
    env.update({"CC": "/bin/false", "CINCH_NATIVE_DIR": str(tmp_path), "PYTHONPATH": str(ROOT / "src")})
    done = subprocess.run([sys.executable, "-m", "cinch.native_build", "--force"], capture_output=True, text=True,
                          env=env, timeout=600)
    assert done.returncode == 0  # `make play` goes on, in pure Python
    lines = done.stdout.splitlines()
    assert len(lines) == 1, done.stdout
    assert lines[0].startswith("cinch: no working C compiler")
    assert "solver runs about ten times slower" in lines[0] and "make compile" in lines[0]
