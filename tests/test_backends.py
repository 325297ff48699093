"""The backends (``cinch.backends``): a process pool and Ray give the arena and the study the same results."""

from __future__ import annotations

import json
import logging
import sys

import pytest
from click.testing import CliRunner

from cinch import Rules
from cinch.arena import run_duplicate
from cinch.backends import INSTALL_RAY, ProcessBackend, RayBackend, _check_reachable, make_backend
from cinch.cli import main
from cinch.errors import CinchError
from cinch.study.variants import parse_rule_set, run_study

ARENA_RUN_DEPENDENT = ("think_time_ms", "elapsed_s", "workers", "out_dir", "backend")
STUDY_RUN_DEPENDENT = ("elapsed_s", "workers", "backend")


def without(data: dict, keys: tuple[str, ...]) -> dict:
    return {k: v for k, v in data.items() if k not in keys}


@pytest.fixture(scope="module")
def ray():
    """One local Ray for the module (two CPUs), shut down after it."""
    ray = pytest.importorskip("ray")
    started = not ray.is_initialized()
    if started:
        ray.init(num_cpus=2, include_dashboard=False, logging_level=logging.ERROR, log_to_driver=False)
    yield ray
    if started:
        ray.shutdown()


# ---------------------------------------------------------------------------
# The interface
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("workers", [1, 2])
def test_process_results_come_back_in_the_jobs_order(workers):
    seen: list[int] = []
    ticks: list[int] = []
    with make_backend("process", workers) as backend:
        assert isinstance(backend, ProcessBackend) and backend.workers == workers
        out = backend.run(pow, [(x, 2) for x in range(6)], done=lambda i, r: seen.append(i),
                          tick=lambda: ticks.append(1))
    assert out == [0, 1, 4, 9, 16, 25]
    assert sorted(seen) == list(range(6)) and ticks


def test_a_chunks_error_reaches_the_caller_as_itself():
    with pytest.raises(CinchError, match="unknown preset 'nosuch'"):
        make_backend("process", 2).run(Rules.preset, [("pagat",), ("nosuch",)])


@pytest.mark.parametrize("name, workers, address, message", [
    ("spark", None, None, "unknown backend 'spark'; the backends are process, ray"),
    ("process", 0, None, "at least 1"),
    ("process", None, "auto", "add --backend ray"),
])
def test_bad_backends_are_refused(name, workers, address, message):
    with pytest.raises(CinchError, match=message):
        make_backend(name, workers, address)


def test_without_ray_the_error_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray now fails
    with pytest.raises(CinchError, match=r"needs Ray, which is not installed; pip install 'cinch\[cluster\]'"):
        make_backend("ray", 2)
    assert INSTALL_RAY == "pip install 'cinch[cluster]'"
    result = CliRunner().invoke(main, ["arena", "basic", "random", "--deals", "2", "--backend", "ray", "--no-records"])
    assert result.exit_code == 2 and "pip install 'cinch[cluster]'" in result.stderr


def test_an_unreachable_cluster_is_refused_at_once():
    with pytest.raises(CinchError, match="cannot reach the Ray cluster at 127.0.0.1:1"):
        _check_reachable("127.0.0.1:1")
    with pytest.raises(CinchError, match="HOST:PORT"):
        _check_reachable("ray://head:port")


# ---------------------------------------------------------------------------
# On a local Ray
# ---------------------------------------------------------------------------
def test_ray_runs_the_chunks_in_order(ray):
    seen: list[int] = []
    backend = make_backend("ray", 2)
    assert isinstance(backend, RayBackend) and not backend.owned  # the test's Ray, left running
    assert backend.run(pow, [(x, 2) for x in range(5)], done=lambda i, r: seen.append(i)) == [0, 1, 4, 9, 16]
    assert sorted(seen) == list(range(5))
    with pytest.raises(CinchError, match="unknown preset 'nosuch'"):
        backend.run(Rules.preset, [("pagat",), ("nosuch",)])
    backend.close()
    assert ray.is_initialized()
    assert backend.describe() == "2 workers on Ray"


@pytest.mark.parametrize("matches", [False, True])
def test_the_arena_gives_the_same_results_on_ray(ray, matches):
    pairs = 2 if matches else 6
    local = run_duplicate("basic", "random", "pagat", pairs, seed=4, workers=1, matches=matches)
    remote = run_duplicate("basic", "random", "pagat", pairs, seed=4, workers=2, matches=matches, backend="ray",
                           chunk_size=1)
    assert remote.backend == "ray" and local.backend == "process"
    assert without(remote.to_json(), ARENA_RUN_DEPENDENT) == without(local.to_json(), ARENA_RUN_DEPENDENT)


def test_the_study_gives_the_same_figures_on_ray(ray):
    rule_sets = [parse_rule_set("pagat"), parse_rule_set("difference,target=62")]
    local = run_study(rule_sets, deals=12, seed=2, bot="basic", workers=1)
    remote = run_study(rule_sets, deals=12, seed=2, bot="basic", workers=2, backend="ray")
    assert remote.backend == "ray"
    assert without(remote.to_json(), STUDY_RUN_DEPENDENT) == without(local.to_json(), STUDY_RUN_DEPENDENT)


def test_the_commands_take_backend_ray(ray, tmp_path):
    runner = CliRunner()
    common = ["--deals", "4", "--seed", "8", "--json"]
    arena = [runner.invoke(main, ["arena", "basic", "random", *common, "--no-records", "--out", str(tmp_path / b),
                                  *extra]) for b, extra in (("p", ["--workers", "1"]), ("r", ["--backend", "ray"]))]
    for result in arena:
        assert result.exit_code == 0, result.output
    a, b = (json.loads(r.stdout) for r in arena)
    assert (a["backend"], b["backend"]) == ("process", "ray")
    assert without(a, ARENA_RUN_DEPENDENT) == without(b, ARENA_RUN_DEPENDENT)
    study = [runner.invoke(main, ["study", "--bot", "basic", *common, "--out", str(tmp_path / f"s{b}"), *extra])
             for b, extra in (("p", ["--workers", "1"]), ("r", ["--backend", "ray"]))]
    for result in study:
        assert result.exit_code == 0, result.output
    a, b = (json.loads(r.stdout) for r in study)
    assert without(a, STUDY_RUN_DEPENDENT) == without(b, STUDY_RUN_DEPENDENT)
