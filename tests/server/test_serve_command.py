"""``cinch serve`` from the command line: it listens before it announces itself, a port in use or an address
that is not this machine's is one line, and ``--database-url`` without the cluster extra says which to install.
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys

import pytest


def serve(*args: str, env: dict[str, str] | None = None, timeout: float = 30) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "cinch", "serve", *args], capture_output=True, text=True,
                          timeout=timeout, stdin=subprocess.DEVNULL, env=env)


def one_line(done: subprocess.CompletedProcess[str]) -> str:
    assert done.returncode == 2, (done.returncode, done.stdout, done.stderr)
    assert done.stdout == "", f"it announced itself first: {done.stdout!r}"
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    return lines[0]


def test_a_port_in_use_is_one_line_and_nothing_is_announced(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        line = one_line(serve("--port", str(port), "--db", str(tmp_path / "games.sqlite3")))
    assert line.startswith(f"cinch serve: cannot listen on 127.0.0.1:{port}: ") and "in use" in line, line
    assert "--port" in line  # (what to do about it)


@pytest.mark.parametrize("host", ["999.1.1.1", "192.0.2.77"])  # not an address at all; not this machine's
def test_a_host_that_is_not_this_machines_is_one_line(tmp_path, host):
    line = one_line(serve("--host", host, "--port", "0", "--db", str(tmp_path / "games.sqlite3")))
    assert line.startswith("cinch serve: ") and host in line, line


def test_the_greeting_names_the_port_listened_on(tmp_path):
    process = subprocess.Popen([sys.executable, "-m", "cinch", "serve", "--port", "0", "--db",
                                str(tmp_path / "games.sqlite3"), "--log-level", "warning"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True)
    try:
        assert process.stdout is not None
        greeting = process.stdout.readline()
        found = re.match(r"cinch serve: http://127\.0\.0\.1:(\d+)/ \(game library ", greeting)
        assert found and found.group(1) != "0", greeting
        # Announced only once it listens: a connection made at once is taken, never refused.
        with socket.create_connection(("127.0.0.1", int(found.group(1))), timeout=10) as sock:
            sock.sendall(b"GET /api/rooms HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            assert sock.recv(100).startswith(b"HTTP/1.1 200")
    finally:
        process.terminate()
        process.wait(30)


def test_database_url_without_the_cluster_extra_says_which_to_install(tmp_path):
    """(As on a machine where ``pip install cinch`` left out the extra: psycopg cannot be imported.)"""
    blocker = tmp_path / "blocked" / "psycopg"
    blocker.mkdir(parents=True)
    (blocker / "__init__.py").write_text('raise ModuleNotFoundError("No module named \'psycopg\'", name="psycopg")\n')
    path = os.pathsep.join([str(blocker.parent), *filter(None, [os.environ.get("PYTHONPATH")])])
    line = one_line(serve("--port", "0", "--database-url", "postgresql://cinch@127.0.0.1:1/cinch",
                          env={**os.environ, "PYTHONPATH": path}))
    assert "psycopg" in line and "pip install 'cinch[cluster]'" in line, line
