"""PostgreSQL and Redis from Debian's packages, started on loopback for a cluster of ``cinch serve``.

Used by the cluster tests (``tests/server/conftest.py``: each test session, each xdist worker,
starts its own, in temporary folders on free ports, and each test takes a database of its own),
by ``benchmarks/server.py --cluster`` and by ``scripts/serve-cluster.py`` (``make serve-cluster``,
which keeps its data in a folder so that the games outlive it).  PostgreSQL is a cluster of our
own made by ``initdb``; run as root, it runs as the ``postgres`` user, since it refuses to run as
root.  Both listen on 127.0.0.1 only.  :class:`Unavailable` says what is missing and how to
install it.
"""

from __future__ import annotations

import contextlib
import glob
import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

INSTALL = "`.ci/run` installs them (apt-get install postgresql redis-server)"


class Unavailable(Exception):
    """A service could not be started: the message says why (the tests skip with it)."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait_port(port: int, proc: subprocess.Popen[bytes] | None, what: str, log: Path, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise Unavailable(f"{what} exited at once: {log.read_text(errors='replace')[-800:]}")
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return
        time.sleep(0.05)
    raise Unavailable(f"{what} did not listen on 127.0.0.1:{port} within {timeout:.0f} s: "
                      f"{log.read_text(errors='replace')[-800:] if log.exists() else ''}")


def postgres_bin() -> Path:
    """The folder of PostgreSQL's server programs (Debian keeps them out of the PATH)."""
    found = shutil.which("pg_config")
    if found:
        with contextlib.suppress(subprocess.SubprocessError, OSError):
            done = subprocess.run([found, "--bindir"], capture_output=True, text=True, check=True)
            folder = Path(done.stdout.strip())
            if (folder / "initdb").exists():
                return folder
    candidates = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(p.split("/")[4])
                        if p.split("/")[4].isdigit() else 0)
    if candidates:
        return Path(candidates[-1]).parent
    initdb = shutil.which("initdb")
    if initdb:
        return Path(initdb).parent
    raise Unavailable("PostgreSQL is not installed (no initdb under /usr/lib/postgresql/*/bin or on the PATH); "
                      + INSTALL)


class Postgres:
    """A PostgreSQL cluster of our own: ``initdb`` into a folder (a temporary one unless ``folder`` is given;
    a folder already made is started again as it is), ``pg_ctl start`` on 127.0.0.1.

    ``durable=False`` (the tests) turns fsync off: fast, and lost in a crash of the machine, which a test
    does not care about.  The benchmark and ``make serve-cluster`` keep PostgreSQL's defaults."""

    def __init__(self, folder: Path | None = None, port: int | None = None, durable: bool = True) -> None:
        self.bin = postgres_bin()
        self.temporary = folder is None
        self.folder = Path(tempfile.mkdtemp(prefix="cinch-pg-")) if folder is None else Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.data = self.folder / "data"
        self.log = self.folder / "postgres.log"
        self.port = free_port() if port is None else port
        self.user = "cinch"
        self._as: list[str] = []
        self._names = itertools.count(1)
        if os.geteuid() == 0:  # PostgreSQL will not run as root: as the postgres user (Debian's package makes it)
            try:
                owner = pwd.getpwnam("postgres")
            except KeyError:
                raise Unavailable(f"running as root and there is no postgres user to run PostgreSQL as; {INSTALL}") \
                    from None
            os.chown(self.folder, owner.pw_uid, owner.pw_gid)
            runuser = shutil.which("runuser")
            self._as = [runuser, "-u", "postgres", "--"] if runuser else ["su", "postgres", "-s", "/bin/sh", "-c"]
        if not (self.data / "PG_VERSION").exists():
            self._run([str(self.bin / "initdb"), "-D", str(self.data), "-U", self.user, "-A", "trust", "-E", "UTF8",
                       *([] if durable else ["--no-sync"]), "--no-instructions"], "initdb")
        options = (f"-c listen_addresses=127.0.0.1 -c port={self.port} -c unix_socket_directories='' "
                   "-c max_connections=200" + ("" if durable else " -c fsync=off -c full_page_writes=off"))
        self._run([str(self.bin / "pg_ctl"), "-D", str(self.data), "-l", str(self.log), "-o", options, "-w", "-t",
                   "60", "start"], "pg_ctl start")
        _wait_port(self.port, None, "PostgreSQL", self.log)

    def _run(self, command: list[str], what: str) -> None:
        if self._as and self._as[0] == "su":
            import shlex

            full = [*self._as, " ".join(shlex.quote(c) for c in command)]
        else:
            full = [*self._as, *command]
        try:
            done = subprocess.run(full, capture_output=True, text=True, timeout=120, cwd=self.folder)
        except (OSError, subprocess.SubprocessError) as e:
            raise Unavailable(f"PostgreSQL's {what} could not run: {e}") from None
        if done.returncode != 0:
            raise Unavailable(f"PostgreSQL's {what} failed: {(done.stderr or done.stdout).strip()[-800:]}")

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://{self.user}@127.0.0.1:{self.port}/{database}"

    def database(self, name: str | None = None) -> str:
        """A database: a fresh, empty one, or ``name`` (made if it is missing); its URL."""
        import psycopg

        name = name or f"cinch_{os.getpid()}_{next(self._names)}"
        with psycopg.connect(self.url(), autocommit=True) as conn:
            if conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone() is None:
                conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def stop(self) -> None:
        mode = "immediate" if self.temporary else "fast"
        with contextlib.suppress(Unavailable):
            self._run([str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", mode, "-w", "stop"], "pg_ctl stop")
        if self.temporary:
            shutil.rmtree(self.folder, ignore_errors=True)


class Redis:
    """``redis-server`` on a loopback port, nothing saved to disk (it holds only what is passing through)."""

    def __init__(self, port: int | None = None) -> None:
        program = shutil.which("redis-server")
        if program is None:
            raise Unavailable(f"Redis is not installed (no redis-server on the PATH); {INSTALL}")
        self.folder = Path(tempfile.mkdtemp(prefix="cinch-redis-"))
        self.port = free_port() if port is None else port
        self.log = self.folder / "redis.log"
        with open(self.log, "wb") as out:
            self.proc = subprocess.Popen(
                [program, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
                 "--dir", str(self.folder), "--protected-mode", "yes"],
                stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                start_new_session=True)  # (a Ctrl-C meant for the caller must not stop it first)
        try:
            _wait_port(self.port, self.proc, "redis-server", self.log)
        except Unavailable:
            self.stop()
            raise

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        shutil.rmtree(self.folder, ignore_errors=True)
