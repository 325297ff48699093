"""The compiled build (cinch.native, cinch.native_build): used only for its own sources, never in
the way, and the same game as the pure-Python modules.

Tests that need a compiled build of the current sources (``make compile``; ``make test`` makes it)
say so when they skip: without a C compiler there is only the pure-Python build to test.
"""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import cinch
from cinch import native

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src"
TESTS = ROOT / "tests"


def run(code: str, *, env: dict[str, str] | None = None, path: Path = SRC, cwd: Path | None = None,
        timeout: float = 600) -> str:
    """Run Python code in a fresh process importing cinch from ``path``; its output.  ``CINCH_PURE`` is
    not passed on: ``env`` says which build to run."""
    full = {k: v for k, v in os.environ.items() if k not in ("CINCH_PURE", "PYTHONPATH")}
    full["PYTHONPATH"] = str(path)
    full.update(env or {})
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=full, timeout=timeout,
                          cwd=cwd or path)
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-3000:]
    return done.stdout


def built() -> bool:
    """Whether a finished compiled build of the current sources is in the cache."""
    return native.finished_build(native.read_sources()) is not None


needs_build = pytest.mark.skipif(not built(), reason="no compiled build of these sources (make compile; a C "
                                                      "compiler and mypyc are needed)")
WHICH = "import cinch, cinch.deal, cinch.solver; print(cinch.compiled_modules(), cinch.deal.__file__)"


# ---- what the build reads ---------------------------------------------------------------------------
def cinch_imports(name: str) -> set[str]:
    """The cinch modules ``cinch.<name>`` imports, at the top or inside a function."""
    found = set()
    for node in ast.walk(ast.parse(Path(native.source_path(name, str(SRC / "cinch"))).read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("cinch."):
            found.add(node.module.removeprefix("cinch."))
        elif isinstance(node, ast.Import):
            found |= {a.name.removeprefix("cinch.") for a in node.names if a.name.startswith("cinch.")}
    return found


def test_the_inputs_are_the_compiled_modules_and_everything_they_import():
    # The key must change when any source mypyc read changes (types, inlined Final constants).
    closure: set[str] = set()
    todo = list(native.COMPILED)
    while todo:
        name = todo.pop()
        if name not in closure:
            closure.add(name)
            todo += cinch_imports(name)
    assert set(native.INPUTS) == closure
    assert len(native.INPUTS) == len(set(native.INPUTS))


def test_the_key_names_exactly_the_sources():
    sources = native.read_sources()
    key = native.source_key(sources)
    assert native.source_key(dict(sources)) == key
    for name in native.INPUTS:
        edited = dict(sources, **{name: sources[name] + b"\n"})
        assert native.source_key(edited) != key, name


def test_a_build_is_used_only_for_the_sources_it_was_made_from(tmp_path, monkeypatch):
    # The decision, without a compiler: a finished build folder (stand-in files) named after the sources.
    monkeypatch.setenv("CINCH_NATIVE_DIR", str(tmp_path))
    sources = native.read_sources()
    assert native.finished_build(sources) is None
    folder = Path(native.build_dir(sources))
    folder.mkdir()
    for file in native.extension_files(str(folder)).values():
        Path(file).write_bytes(b"")
    assert native.finished_build(sources) is None, "a build is finished only once its last file is written"
    (folder / native.FINISHED).write_text("")
    found = native.finished_build(sources)
    assert found is not None and set(found) == {f"cinch.{m}" for m in native.COMPILED} | {native.LIBRARY}
    for name in native.INPUTS:
        assert native.finished_build(dict(sources, **{name: sources[name] + b"# edited\n"})) is None, name


# ---- the build as it runs ---------------------------------------------------------------------------
def test_this_process_runs_the_build_it_says():
    compiled = cinch.compiled_modules()
    for name in native.COMPILED:
        module = sys.modules.get(f"cinch.{name}")
        if module is not None:
            assert str(module.__file__).endswith(".py") != (name in compiled), name
    assert native.describe().startswith("compiled" if compiled else "pure Python")


def test_cinch_pure_forces_the_pure_modules():
    out = run(WHICH, env={"CINCH_PURE": "1"})
    assert out.startswith("() ") and out.strip().endswith("deal.py")


@needs_build
def test_the_compiled_build_serves_its_own_sources():
    out = run(WHICH)
    assert out.startswith(str(native.COMPILED)) and native.SUFFIX in out


@needs_build
@pytest.mark.parametrize("edited", ["deal", "cards"])
def test_an_edited_source_is_imported_pure_until_built_again(tmp_path, edited):
    # A copy of the package beside the same cache: as it is, it runs compiled; with one source edited
    # (a compiled module, or one they import), the compiled modules are stale and none is used.
    copy = tmp_path / "src"
    shutil.copytree(SRC / "cinch", copy / "cinch", ignore=shutil.ignore_patterns("_native", "__pycache__"))
    env = {"CINCH_NATIVE_DIR": native.cache_dir()}
    assert run(WHICH, env=env, path=copy).startswith(str(native.COMPILED))
    source = copy / "cinch" / f"{edited}.py"
    source.write_text(source.read_text(encoding="utf-8").replace("from __future__ import annotations",
                                                                 "from __future__ import annotations  # edited", 1),
                      encoding="utf-8")
    out = run(WHICH + "; print(cinch.native.describe())", env=env, path=copy)
    assert out.startswith("() ") and str(copy / "cinch" / "deal.py") in out
    assert "no compiled build of these sources" in out


def test_without_a_c_compiler_the_build_falls_back_to_pure_python(tmp_path):
    pytest.importorskip("mypyc")
    env = {"CC": "/bin/false", "CINCH_NATIVE_DIR": str(tmp_path)}
    out = run("from cinch.native_build import main; raise SystemExit(main(['--force']))", env=env)
    assert "no working C compiler" in out and "pure-Python modules stay in use" in out
    assert list(tmp_path.iterdir()) == []
    assert run(WHICH, env=env).startswith("() ")
    code = "from cinch.native_build import main; print('status', main(['--force', '--strict']))"
    assert "status 1" in run(code, env=env)


def test_without_mypyc_the_build_falls_back_to_pure_python(tmp_path):
    code = ("import sys; sys.modules['mypyc'] = None\n"  # as if mypy were not installed
            "from cinch.native_build import main; raise SystemExit(main(['--force']))")
    out = run(code, env={"CINCH_NATIVE_DIR": str(tmp_path)})
    assert "mypyc is not installed" in out and list(tmp_path.iterdir()) == []


# ---- both builds, one game ----------------------------------------------------------------------------
GAME = r"""
import hashlib, pickle, random
import cinch
from cinch import PRESET_NAMES, Deal, Phase, Rules, Seat
from cinch.bots import make_bot
from cinch.keep import KeepOptions
from cinch.solver import Position, par, solve
from cinch.worlds import sample_weighted

# What a compiled class could lose: an abstract class's isinstance, pickling (checked below).  Weak
# references it does lose (mypyc would leave them dangling): a compiled Deal refuses them.
assert not isinstance((), KeepOptions)
h = hashlib.sha256()
heuristic = make_bot("heuristic", seed=0)
for name in PRESET_NAMES:
    rules = Rules.preset(name)
    rng = random.Random(name)
    for i in range(40):
        deal = Deal.shuffled(rules, Seat(i & 3), rng)
        while not deal.is_over:
            if deal.phase is Phase.PLAY and i % 4 == 0:
                position = Position.from_deal(deal)
                result = solve(position)
                h.update(repr((result.value, sorted(result.card_values.items()), par(position))).encode())
                h.update(repr(deal.random_playout(random.Random(i))).encode())
                copy = pickle.loads(pickle.dumps(deal))
                assert copy.history == deal.history and copy.legal_play_mask() == deal.legal_play_mask()
                assert pickle.loads(pickle.dumps(position)) == position
            legal = deal.legal_actions()
            if i % 4 == 1 and len(legal) > 1:  # the sampler's worlds: its shuffles and draws
                world = sample_weighted(deal.view(deal.to_act), random.Random(i), verify=False).world
                h.update(repr((world.hands, world.deck)).encode())
            h.update(str(len(legal)).encode())
            if i % 4 == 2 and deal.phase is Phase.PLAY and len(legal) > 1:  # the heuristic's card play and card tracker
                card = heuristic.choose(deal.view(deal.to_act))
                h.update(str(card).encode())
                deal.apply(card)
                continue
            deal.apply(legal[rng.randrange(len(legal))])
        h.update(repr((deal.history, deal.result)).encode())
print(cinch.compiled_modules(), h.hexdigest())
"""


@needs_build
def test_both_builds_play_the_same_game():
    pure = run(GAME, env={"CINCH_PURE": "1"})
    compiled = run(GAME)
    assert pure.startswith("() ") and compiled.startswith(str(native.COMPILED))
    assert pure.split()[-1] == compiled.split()[-1]


@needs_build
@pytest.mark.slow
def test_the_engine_tests_pass_in_the_other_build():
    # The session runs one build (the compiled one when it is there; CINCH_PURE=1 for pure Python):
    # the engine's own tests and doctests run here again in the other.
    pure_session = os.environ.get("CINCH_PURE", "") not in ("", "0")
    env = {} if pure_session else {"CINCH_PURE": "1"}
    files = ["tests/test_perft.py", "tests/test_deal.py", "tests/test_keep.py", "tests/test_scoring.py",
             "tests/test_solver.py", "tests/test_worlds.py", "tests/test_masks.py", "tests/bots/test_heuristic.py",
             "src/cinch/deal.py", "src/cinch/keep.py", "src/cinch/scoring.py", "src/cinch/solver.py",
             "src/cinch/worlds.py", "src/cinch/masks.py", "src/cinch/bots/knowledge.py",
             "src/cinch/bots/card_play.py", "src/cinch/bots/play_history.py", "tests/bots/test_play_history.py"]
    code = ("import sys, pytest, cinch; print('build', cinch.compiled_modules(), flush=True); "
            f"sys.exit(pytest.main(['-q', '-p', 'no:cacheprovider', *{files!r}]))")
    out = run(code, env=env, cwd=ROOT, timeout=1200)
    assert out.startswith(f"build {'()' if env else native.COMPILED}")
