"""``make serve-cluster``, its script and ``benchmarks/server.py``: every option says what it does and its
default, docs/cluster.md lists them as they are, make passes them on, and the benchmark can be told its port
and says which extra it needs."""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "serve-cluster.py"
BENCHMARK = ROOT / "benchmarks" / "server.py"
DOC = (ROOT / "docs" / "cluster.md").read_text()


def helped(program: Path) -> dict[str, str]:
    """Each long option of a script's ``--help``, with the words that follow it."""
    text = subprocess.run([sys.executable, str(program), "--help"], capture_output=True, text=True, timeout=60,
                          check=True).stdout
    options = text.split("options:", 1)[1]
    parts = re.split(r"\n  (--[a-z-]+)", "\n" + options)
    return {name: " ".join(words.split()) for name, words in zip(parts[1::2], parts[2::2]) if name != "--help"}


def test_every_option_of_serve_cluster_says_what_it_does_and_its_default():
    options = helped(SCRIPT)
    assert set(options) == {"--port", "--processes", "--data", "--postgres-port", "--redis-port"}
    for name, words in options.items():
        found = re.search(r"\(default ([^)]+)\)", words)
        assert found, f"{name} does not say its default: {words!r}"


def test_docs_list_the_scripts_options_with_their_defaults_and_how_make_passes_them():
    section = DOC.split("## `make serve-cluster`", 1)[1].split("\n## ", 1)[0]
    for name, words in helped(SCRIPT).items():
        default = re.search(r"\(default ([^)]+)\)", words).group(1)  # type: ignore[union-attr]
        row = next((line for line in section.splitlines() if line.startswith(f"| `{name} ")), None)
        assert row is not None, f"docs/cluster.md does not list {name}"
        assert default.strip() in row, f"docs/cluster.md gives {name} another default than {default}: {row}"
    assert 'make serve-cluster CLUSTER_ARGS="' in section


@pytest.mark.skipif(shutil.which("make") is None, reason="no make")
def test_make_serve_cluster_passes_the_options_on():
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL")}  # under make test
    done = subprocess.run(["make", "-n", "--no-print-directory", "serve-cluster",
                           "CLUSTER_ARGS=--port 9000 --processes 3"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=60, check=True)
    assert done.stdout.strip().splitlines()[-1].endswith("scripts/serve-cluster.py --port 9000 --processes 3")


def test_the_benchmark_says_it_needs_the_test_extra_when_httpx_is_missing(tmp_path):
    blocker = tmp_path / "httpx"
    blocker.mkdir()
    (blocker / "__init__.py").write_text('raise ModuleNotFoundError("No module named \'httpx\'", name="httpx")\n')
    done = subprocess.run([sys.executable, str(BENCHMARK), "--tables", "1"], capture_output=True, text=True,
                          timeout=60, env={**os.environ, "PYTHONPATH": str(tmp_path)})
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.strip().splitlines() == [
        "benchmarks/server.py needs httpx, from the test extra: pip install -e '.[test]' (make test installs it)"]


def test_the_benchmark_serves_on_the_port_it_is_told():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    assert "(default: a free one)" in helped(BENCHMARK)["--port"]
    done = subprocess.run([sys.executable, str(BENCHMARK), "--tables", "1", "--seconds", "0.5", "--client-procs", "1",
                           "--spread", "0", "--port", str(port), "--json"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["ports"] == [port] and result["tables_ready"] == 1
