"""``make serve-cluster``: ``cinch serve`` as a cluster on this machine, to try it or to run a small site.

    .venv/bin/python scripts/serve-cluster.py [--port 8000] [--processes 2] [--data build/cluster]
                                              [--postgres-port 55432] [--redis-port 56379]
    make serve-cluster CLUSTER_ARGS="--port 9000 --processes 3"    # the same options through make

Starts, all on 127.0.0.1:

- PostgreSQL (Debian's ``postgresql`` package: a cluster of its own made by ``initdb`` in
  ``DATA/postgres``, kept between runs, so the games stay) with a database ``cinch``;
- Redis (Debian's ``redis-server``), holding nothing on disk;
- ``--processes`` server processes (``cinch serve --database-url ... --redis-url ...``) on the
  ports after ``--port``;
- a small proxy on ``--port`` that hands each new connection (a websocket or an HTTP one) to the
  next process in turn, skipping one that does not answer: open http://127.0.0.1:8000/.

Ctrl-C stops everything, and so does SIGTERM (or SIGHUP, the terminal closed).  A process may be
stopped or killed meanwhile (its clients reconnect
through the proxy to another, and its rooms' bots and timers are taken over within the lease);
docs/cluster.md has the design and a proxy for production (nginx).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))

from services import Postgres, Redis, Unavailable  # noqa: E402


async def pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    try:
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()
        if writer.can_write_eof():
            writer.write_eof()
    except (ConnectionError, OSError):
        pass
    finally:
        with contextlib.suppress(Exception):
            writer.close()


class Proxy:
    """Round robin over the server processes, one TCP connection at a time (websockets pass through whole)."""

    def __init__(self, backends: list[int]):
        self.backends = backends
        self.turn = itertools.cycle(range(len(backends)))

    async def handle(self, client_reader: asyncio.StreamReader, client_writer: asyncio.StreamWriter) -> None:
        for _ in self.backends:
            port = self.backends[next(self.turn)]
            try:
                reader, writer = await asyncio.open_connection("127.0.0.1", port)
            except OSError:
                continue  # that process is down: the next one
            await asyncio.gather(pipe(client_reader, writer), pipe(reader, client_writer))
            return
        client_writer.close()


def wait_ready(port: int, proc: subprocess.Popen[bytes], timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"cinch serve on port {port} exited with {proc.returncode}")
        with contextlib.suppress(OSError), urllib.request.urlopen(f"http://127.0.0.1:{port}/api/rooms", timeout=2):
            return
        time.sleep(0.1)
    raise SystemExit(f"cinch serve on port {port} did not answer within {timeout:.0f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=8000, help="the proxy's port (default 8000); the processes "
                                                                "take the ports after it")
    parser.add_argument("--processes", type=int, default=2, help="server processes (default 2)")
    parser.add_argument("--data", type=Path, default=ROOT / "build" / "cluster",
                        help="where PostgreSQL keeps its data (default build/cluster)")
    parser.add_argument("--postgres-port", type=int, default=55432,
                        help="the port PostgreSQL listens on, on 127.0.0.1 (default 55432)")
    parser.add_argument("--redis-port", type=int, default=56379,
                        help="the port Redis listens on, on 127.0.0.1 (default 56379)")
    args = parser.parse_args()
    if args.processes < 1:
        parser.error("--processes must be at least 1")
    stop_on_signals()
    with contextlib.ExitStack() as stack:
        try:
            postgres = Postgres(folder=args.data / "postgres", port=args.postgres_port, durable=True)
            stack.callback(postgres.stop)
            redis = Redis(port=args.redis_port)
            stack.callback(redis.stop)
        except Unavailable as e:
            raise SystemExit(f"serve-cluster: {e}") from None
        database = postgres.database("cinch")
        print(f"PostgreSQL {database} (data in {args.data / 'postgres'}), Redis {redis.url}")
        ports = [args.port + 1 + i for i in range(args.processes)]
        procs: list[subprocess.Popen[bytes]] = []
        stack.callback(stop, procs)
        for port in ports:
            proc = subprocess.Popen(
                [sys.executable, "-m", "cinch", "serve", "--host", "127.0.0.1", "--port", str(port),
                 "--database-url", database, "--redis-url", redis.url, "--public-url", f"http://127.0.0.1:{args.port}"],
                stdin=subprocess.DEVNULL, start_new_session=True)
            procs.append(proc)
        for port, proc in zip(ports, procs, strict=True):
            wait_ready(port, proc)
        print(f"cinch serve: {args.processes} processes (ports {', '.join(map(str, ports))}, pids "
              f"{', '.join(str(p.pid) for p in procs)}) behind http://127.0.0.1:{args.port}/ ; Ctrl-C stops it all.")
        proxy = Proxy(ports)

        async def serve() -> None:
            # Inside the event loop SIGTERM and SIGHUP are the loop's to handle: a KeyboardInterrupt raised by
            # the signal handler in the middle of the loop's own bookkeeping could leave it hung, never stopping.
            stopping = asyncio.Event()
            loop = asyncio.get_running_loop()
            for sig in (signal.SIGTERM, signal.SIGHUP):
                loop.add_signal_handler(sig, stopping.set)
            server = await asyncio.start_server(proxy.handle, "127.0.0.1", args.port)
            async with server:
                await stopping.wait()

        with contextlib.suppress(KeyboardInterrupt):
            asyncio.run(serve())
        for sig in (signal.SIGTERM, signal.SIGHUP):
            signal.signal(sig, signal.SIG_IGN)  # (a second signal must not cut the stopping short)
        print("stopping")


def stop_on_signals() -> None:
    """SIGTERM (a service manager, ``kill``) and SIGHUP (the terminal closed) stop everything as Ctrl-C does:
    each raises ``KeyboardInterrupt`` where the script stands, and the way out stops what was started."""
    def stopped(signum: int, frame: object) -> None:
        for sig in (signal.SIGTERM, signal.SIGHUP):
            signal.signal(sig, signal.SIG_IGN)  # (a second signal must not cut the stopping short)
        raise KeyboardInterrupt

    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, stopped)


def stop(procs: list[subprocess.Popen[bytes]]) -> None:
    """Stop the server processes as Ctrl-C does (each lets its clients go and its bot workers end), all at
    once; one that has not stopped in 10 seconds is killed."""
    for proc in procs:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGINT)
    deadline = time.monotonic() + 10
    for proc in procs:
        try:
            proc.wait(max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:  # (stopped while starting: what had started is stopped already)
        sys.exit("serve-cluster: stopped")
