"""Every way of stopping ``cinch serve`` stops all it started: the real server as a subprocess, an expert
thinking in its worker pool, then SIGTERM (or SIGKILL, or Ctrl-C); within a few seconds no process it
started (the worker, the multiprocessing resource tracker) is left.  And ``scripts/serve-cluster.py``
stopped with SIGTERM stops PostgreSQL, Redis and both servers.

Processes are looked up in ``/proc``: a process is alive while ``/proc/PID/stat`` shows it, started at the
time it was first seen, and not a zombie (an orphan's zombie waits for PID 1 to reap it).
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from serverkit import Player

ROOT = Path(__file__).resolve().parents[2]
WAIT = 30.0  # seconds the server may take to start, or its pool to appear
GONE = 8.0  # seconds every process it started has to be gone after the signal

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc (Linux)")


def stat(pid: int) -> tuple[int, str, int] | None:
    """(parent pid, state, start time) of a process, from /proc; None when there is none."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text.rsplit(")", 1)[1].split()
    return int(fields[1]), fields[0], int(fields[19])


def descendants(pid: int) -> dict[int, int]:
    """Every process below ``pid``, with its start time."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and (info := stat(int(entry.name))) is not None:
            children.setdefault(info[0], []).append(int(entry.name))
    found: dict[int, int] = {}
    todo = [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            info = stat(child)
            if info is not None and child not in found:
                found[child] = info[2]
                todo.append(child)
    return found


def alive(pid: int, started: int) -> bool:
    info = stat(pid)
    return info is not None and info[2] == started and info[1] != "Z"


def command(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def survivors(processes: dict[int, int], within: float = GONE) -> list[str]:
    """The processes still alive ``within`` seconds from now (their command lines); [] as soon as none is."""
    deadline = time.monotonic() + within
    while True:
        left = [f"{pid}: {command(pid)}" for pid, started in processes.items() if alive(pid, started)]
        if not left or time.monotonic() > deadline:
            return left
        time.sleep(0.1)


def end(processes: dict[int, int]) -> None:
    """(After a failure.)  Kill what this test started and left, by pid."""
    for pid, started in processes.items():
        if alive(pid, started):
            os.kill(pid, signal.SIGKILL)


@pytest.fixture
def serve(tmp_path: Path) -> Iterator[tuple[subprocess.Popen[str], str]]:
    """``cinch serve --port 0`` as a subprocess: the process and its address (from its greeting)."""
    process = subprocess.Popen([sys.executable, "-m", "cinch", "serve", "--port", "0", "--db",
                                str(tmp_path / "games.sqlite3"), "--log-level", "warning"],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, text=True)
    assert process.stdout is not None
    greeting = process.stdout.readline()
    found = re.search(r"http://127\.0\.0\.1:(\d+)/", greeting)
    assert found, f"no address in the greeting: {greeting!r}"
    seen: dict[int, int] = {}
    try:
        yield process, found.group(0).rstrip("/")
    finally:
        seen = descendants(process.pid)
        if process.poll() is None:
            process.kill()
        process.wait(WAIT)
        end(seen)


def experts_thinking(url: str, pid: int) -> dict[int, int]:
    """A room of four experts playing, so that the pool of workers thinks; the server's processes then."""
    http = httpx.Client(base_url=url, timeout=WAIT)
    room = http.post("/api/rooms", json={"rules": "pagat", "bot_delay": 0, "between_deals": 0}).json()
    host = Player(url.replace("http", "ws") + "/ws", room["code"], host_token=room["host_token"])
    for seat in "NESW":
        host.send({"type": "fill", "seat": seat, "bot": "expert"})
    host.send({"type": "start"})
    host.until(lambda m: m["type"] == "state" and m["room"]["status"] == "playing" and m["seq"] >= 2)
    deadline = time.monotonic() + WAIT
    while True:
        processes = descendants(pid)
        commands = [command(p) for p in processes]
        if any("resource_tracker" in c for c in commands) and any("multiprocessing.spawn" in c and
                                                                   "resource_tracker" not in c for c in commands):
            break
        assert time.monotonic() < deadline, f"no worker pool under the server: {commands}"
        time.sleep(0.1)
    time.sleep(0.5)  # (the expert is in the middle of a move)
    host.close()
    http.close()
    return processes


@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGKILL, signal.SIGINT], ids=lambda s: s.name)
def test_stopping_cinch_serve_while_an_expert_thinks_leaves_no_process_behind(serve, how):
    process, url = serve
    started = experts_thinking(url, process.pid)
    os.kill(process.pid, how)
    process.wait(WAIT)
    left = survivors(started)
    end(started)
    assert not left, f"after {how.name} these outlived cinch serve: {left}"


# ---- make serve-cluster ---------------------------------------------------------------------------------------
def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def postmaster(data: Path) -> dict[int, int]:
    """PostgreSQL's server process (it runs apart from the script: ``pg_ctl`` starts it)."""
    try:
        pid = int((data / "postgres" / "data" / "postmaster.pid").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return {}
    info = stat(pid)
    return {} if info is None else {pid: info[2], **descendants(pid)}


@pytest.fixture
def data() -> Iterator[Path]:
    """A folder for the cluster's data that PostgreSQL, run as its own user under root, can reach."""
    folder = Path(tempfile.mkdtemp(prefix="cinch-cluster-"))
    folder.chmod(0o755)
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def test_sigterm_to_serve_cluster_stops_postgres_redis_and_both_servers(data):
    from services import Unavailable, postgres_bin

    try:
        postgres_bin()
    except Unavailable as e:
        pytest.skip(str(e))
    if not any(Path(folder, "redis-server").exists() for folder in os.environ.get("PATH", "").split(os.pathsep)):
        pytest.skip("Redis is not installed (no redis-server on the PATH)")
    for attempt in range(3):  # a free port another test takes before the server binds it: again, on others
        port = free_port()
        script = subprocess.Popen(
            [sys.executable, str(ROOT / "scripts" / "serve-cluster.py"), "--port", str(port), "--data", str(data),
             "--postgres-port", str(free_port()), "--redis-port", str(free_port())],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, text=True)
        assert script.stdout is not None
        lines: list[str] = []
        deadline = time.monotonic() + 120
        while not any("Ctrl-C stops it all" in line for line in lines):
            line = script.stdout.readline()
            if not line and attempt < 2 and any("Address already in use" in seen for seen in lines):
                break
            assert line and time.monotonic() < deadline, f"serve-cluster did not start: {''.join(lines)}"
            lines.append(line)
        else:
            break
        script.wait(60)
    started: dict[int, int] = {}
    try:
        reader = threading.Thread(target=lambda: lines.extend(script.stdout), daemon=True)  # type: ignore[arg-type]
        reader.start()  # (the servers write their logs here too: a full pipe would stop them)
        started = {**descendants(script.pid), **postmaster(data)}
        names = " ".join(command(pid) for pid in started)
        assert "redis-server" in names and names.count("cinch serve") == 2 and "postgres" in names, names
        assert httpx.get(f"http://127.0.0.1:{port}/api/rooms", timeout=WAIT).status_code == 200  # through the proxy
        script.send_signal(signal.SIGTERM)
        try:
            script.wait(120)
        except subprocess.TimeoutExpired:
            raise AssertionError(f"serve-cluster did not stop on SIGTERM: {''.join(lines)}") from None
        left = survivors(started, within=15)
        assert not left, f"after SIGTERM these outlived serve-cluster: {left}"
    finally:
        if script.poll() is None:
            script.kill()
            script.wait()
        end({**started, **postmaster(data)})
