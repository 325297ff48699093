"""Where the arena's and the study's chunks of work run: a process pool on this machine, or Ray.

A *job* is a function and a list of argument tuples, one per chunk; :meth:`Backend.run`
returns the chunks' results in the order of the list, whichever worker played which
chunk and in whatever order they finished.  A chunk's result may depend only on its
arguments (the arena and the study derive every seed from the run's seed and the
chunk's own numbers), so the same seed gives the same results on any backend and any
number of workers.

``process`` (the default) forks a :class:`~concurrent.futures.ProcessPoolExecutor` for
each run, or plays in this process with one worker or one chunk.  ``ray`` sends the
chunks to Ray: a local Ray started for the run (``num_cpus`` = the workers), or an
existing cluster with ``address="ray://head:10001"`` or ``"auto"``.  Ray is optional
(``pip install 'cinch[cluster]'``) and imported only when asked for.

>>> with make_backend("process", workers=1) as backend:
...     backend.run(pow, [(2, 3), (3, 2)])
[8, 9]
"""

from __future__ import annotations

import logging
import os
import socket
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from contextlib import contextmanager
from types import ModuleType, TracebackType
from typing import Any, TypeVar

from cinch.errors import CinchError, quoted

__all__ = ["BACKENDS", "Backend", "ProcessBackend", "RayBackend", "backend_for", "default_workers", "make_backend"]

BACKENDS = ("process", "ray")
TICK_S = 0.5  # how often a waiting run calls ``tick`` (a progress display keeps its clock moving)
CONNECT_S = 5.0  # how long to wait for a Ray cluster's head to answer
INSTALL_RAY = "pip install 'cinch[cluster]'"

R = TypeVar("R")
Done = Callable[[int, Any], None]
"""``done(index, result)``: chunk ``index`` of the job list has finished with ``result``."""


def default_workers() -> int:
    """The cores this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


class Backend:
    """Runs a job's chunks and hands back their results in the job's order."""

    name = "serial"

    def __init__(self, workers: int):
        if workers < 1:
            raise CinchError(f"workers must be at least 1, not {workers}")
        self.workers = workers

    def run(self, fn: Callable[..., R], jobs: Sequence[tuple[Any, ...]], *, done: Done | None = None,
            tick: Callable[[], None] | None = None) -> list[R]:
        """``[fn(*args) for args in jobs]``, the chunks spread over the workers.

        ``done`` is called in this process as each chunk finishes; ``tick`` once the workers
        exist (a display may then start its threads without them being forked) and then
        every half second while no chunk finishes.
        """
        results: list[R] = []
        if tick is not None:
            tick()
        for i, args in enumerate(jobs):
            results.append(fn(*args))
            if done is not None:
                done(i, results[-1])
        return results

    def describe(self) -> str:
        """``2 workers``, ``4 workers on Ray``: for a report."""
        return f"{self.workers} worker{'s' if self.workers != 1 else ''}"

    def close(self) -> None:
        """Let go of whatever the backend started."""

    def __enter__(self) -> Backend:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()


class ProcessBackend(Backend):
    """A pool of processes forked for each run; one worker, or one chunk, plays in this process."""

    name = "process"

    def run(self, fn: Callable[..., R], jobs: Sequence[tuple[Any, ...]], *, done: Done | None = None,
            tick: Callable[[], None] | None = None) -> list[R]:
        if self.workers == 1 or len(jobs) <= 1:
            return super().run(fn, jobs, done=done, tick=tick)
        results: dict[int, R] = {}
        pool = ProcessPoolExecutor(max_workers=min(self.workers, len(jobs)))
        try:
            pending: dict[Future[R], int] = {pool.submit(fn, *args): i for i, args in enumerate(jobs)}
            if tick is not None:
                tick()  # the processes exist now
            while pending:
                finished, _ = wait(pending, timeout=TICK_S, return_when=FIRST_COMPLETED)
                for future in finished:
                    i = pending.pop(future)
                    results[i] = future.result()
                    if done is not None:
                        done(i, results[i])
                if not finished and tick is not None:
                    tick()
        except BaseException:
            pool.shutdown(wait=False, cancel_futures=True)
            raise
        pool.shutdown()
        return [results[i] for i in range(len(jobs))]


class RayBackend(Backend):
    """Ray tasks, one chunk each, on a local Ray or an existing cluster.

    A Ray already initialised in this process (a test's, a notebook's) is used as it is and
    left running; one started here is shut down by :meth:`close`.  On a cluster the workers
    must have cinch installed, and records are written on the node that plays them.
    """

    name = "ray"

    def __init__(self, workers: int | None = None, address: str | None = None):
        ray = _import_ray()
        self.ray = ray
        self.address = address
        self.owned = not ray.is_initialized()
        if self.owned:
            if address is None:
                workers = default_workers() if workers is None else workers
                if workers < 1:
                    raise CinchError(f"workers must be at least 1, not {workers}")
            _start_ray(ray, address, workers)
        if workers is None:
            workers = max(1, int(ray.cluster_resources().get("CPU", 1)))
        super().__init__(workers)

    def run(self, fn: Callable[..., R], jobs: Sequence[tuple[Any, ...]], *, done: Done | None = None,
            tick: Callable[[], None] | None = None) -> list[R]:
        ray = self.ray
        # Any picklable callable (a builtin, a bound method) runs through one plain function, as Ray asks.
        remote = ray.remote(num_cpus=1, max_retries=0)(_call)
        pending = {remote.remote(fn, args): i for i, args in enumerate(jobs)}
        results: dict[int, R] = {}
        if tick is not None:
            tick()
        try:
            while pending:
                finished, _ = ray.wait(list(pending), num_returns=1, timeout=TICK_S)
                for ref in finished:
                    i = pending.pop(ref)
                    results[i] = _ray_get(ray, ref)
                    if done is not None:
                        done(i, results[i])
                if not finished and tick is not None:
                    tick()
        except BaseException:
            for ref in pending:
                ray.cancel(ref, force=True)
            raise
        return [results[i] for i in range(len(jobs))]

    def describe(self) -> str:
        where = "on Ray" if self.address is None else f"on the Ray cluster at {self.address}"
        return f"{super().describe()} {where}"

    def close(self) -> None:
        if self.owned and self.ray.is_initialized():
            self.ray.shutdown()
            self.owned = False


def _call(fn: Callable[..., R], args: tuple[Any, ...]) -> R:
    return fn(*args)


def _import_ray() -> ModuleType:
    try:
        import ray
    except ImportError:
        raise CinchError(f"--backend ray needs Ray, which is not installed; {INSTALL_RAY}") from None
    return ray


def _start_ray(ray: ModuleType, address: str | None, workers: int | None) -> None:
    # Ray reports its usage to its makers unless told not to; a run of games should not phone home.
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    options: dict[str, Any] = {"include_dashboard": False, "logging_level": logging.ERROR,
                               "log_to_driver": False, "configure_logging": True}
    if address is not None:
        _check_reachable(address)
    try:
        if address is None:
            ray.init(num_cpus=workers, **options)
        else:
            ray.init(address=address, **options)
    except (ConnectionError, RuntimeError, ValueError) as e:
        where = "start a local Ray" if address is None else f"reach the Ray cluster at {address}"
        first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        raise CinchError(f"cannot {where}: {first}") from None


def _check_reachable(address: str) -> None:
    """Refuse at once a cluster whose head does not answer: Ray itself would retry for minutes."""
    where = address.strip().removeprefix("ray://")
    if where.lower() == "auto" or ":" not in where:
        return  # Ray finds a local cluster itself, and says at once when there is none
    host, _, port = where.rpartition(":")
    if not port.isdigit():
        raise CinchError(f"--address {address}: write the Ray head as HOST:PORT, ray://HOST:PORT or auto")
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=CONNECT_S).close()
    except OSError as e:
        raise CinchError(f"cannot reach the Ray cluster at {address}: {e.strerror or e}") from None


def _ray_get(ray: ModuleType, ref: Any) -> Any:
    """The task's result; a task's own error is raised as itself (a CinchError stays one)."""
    try:
        return ray.get(ref)
    except ray.exceptions.RayTaskError as e:
        cause = e.cause if isinstance(getattr(e, "cause", None), BaseException) else None
        if cause is not None:
            raise cause from None
        raise


def make_backend(name: str = "process", workers: int | None = None, address: str | None = None) -> Backend:
    """The backend called ``name`` (``process`` or ``ray``) with ``workers`` workers (None: every core).

    ``address`` is Ray's (``auto``, ``ray://head:10001``); it is refused with ``process``.
    """
    key = name.strip().lower()
    if key not in BACKENDS:
        raise CinchError(f"unknown backend {quoted(name)}; the backends are {', '.join(BACKENDS)}")
    if workers is not None and workers < 1:
        raise CinchError(f"workers must be at least 1, not {workers}")
    if key == "process":
        if address is not None:
            raise CinchError(f"an address ({address}) is for a Ray cluster: add --backend ray, or leave out --address")
        return ProcessBackend(default_workers() if workers is None else workers)
    return RayBackend(workers, address)


@contextmanager
def backend_for(backend: str | Backend, workers: int | None, address: str | None = None) -> Iterator[Backend]:
    """A backend by name (made here, closed after), or a backend already made (left open)."""
    if isinstance(backend, Backend):
        yield backend
        return
    made = make_backend(backend, workers, address)
    try:
        yield made
    finally:
        made.close()

