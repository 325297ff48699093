"""Build the compiled modules of :mod:`cinch.native` with mypyc: ``python -m cinch.native_build``.

    python -m cinch.native_build [build] [--force]    compile the current sources (make compile)
    python -m cinch.native_build status               which build runs, and where its folder is

Without mypyc (it comes with mypy, a test dependency) or without a working C compiler the build
says why and exits with status 0: the pure-Python modules stay in use, and everything works as
before, more slowly.  ``--strict`` makes that an error (exit status 1) instead.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from cinch.native import (
    COMPILED,
    FINISHED,
    GROUP,
    SUFFIX,
    build_dir,
    cache_dir,
    describe,
    extension_files,
    finished_build,
    read_sources,
    source_key,
    source_path,
)

__all__ = ["build", "main"]

# What running without the build costs, said in the one line that tells why there is none.
PURE_PYTHON_COST = ("the pure-Python modules stay in use: everything works, but the solver runs about ten times "
                    "slower and the expert searches about half as many worlds (install a C compiler, as "
                    "`apt-get install gcc`, then `make compile`)")


def build(*, force: bool = False, log: Path | None = None) -> Path | None:
    """Compile :data:`COMPILED` for the current sources into the cache; the build folder, or None.

    Returns at once when a finished build of these sources exists (``force``: build again).
    Without mypyc or a C compiler, or when the compilation fails, it prints why and returns None:
    the pure-Python modules stay in use.  The build is named after the sources read before it
    starts and kept only if they read the same after it ends, so an edit made while it compiles
    cannot end up in a build named after other sources.
    """
    sources = read_sources()
    folder = Path(cache_dir()) / source_key(sources)
    if not force and finished_build(sources) is not None:
        print(f"cinch: the compiled build of these sources is up to date ({folder})")
        return folder
    try:
        import mypyc  # noqa: F401 - only whether it is installed
    except ImportError:
        print(f"cinch: mypyc is not installed (it comes with mypy: pip install mypy); {PURE_PYTHON_COST}")
        return None
    started = time.monotonic()
    work = Path(tempfile.mkdtemp(prefix="cinch-native-"))
    log = log or work / "build.log"
    try:
        why = _probe_compiler(work / "probe", log)
        if why:
            print(f"cinch: no working C compiler ({why}); {PURE_PYTHON_COST}")
            return None
        print("cinch: compiling the engine with mypyc (about a minute, once for these sources) ...", flush=True)
        built = _compile(work, log)
        if isinstance(built, str):
            print(f"cinch: the compilation failed ({built}); the pure-Python modules stay in use\n"
                  + _tail(log))
            return None
        if read_sources() != sources:
            print("cinch: a source changed while it compiled; the build is dropped (run it again)")
            return None
        folder = _store(built, folder)
        print(f"cinch: compiled {', '.join(COMPILED)} with mypyc in {time.monotonic() - started:.0f} s ({folder})")
        _prune(folder)
        return folder
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _run_quietly(log: Path, fn: Callable[..., object], *args: object) -> str | None:
    """Run ``fn(*args)`` with its output (and the C compiler's) in ``log``; why it failed, or None."""
    log.parent.mkdir(parents=True, exist_ok=True)
    with open(log, "a", encoding="utf-8") as out:
        out.flush()
        saved = os.dup(1), os.dup(2)
        sys.stdout.flush()
        sys.stderr.flush()
        os.dup2(out.fileno(), 1)
        os.dup2(out.fileno(), 2)
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
                fn(*args)
        except SystemExit as e:  # mypyc exits on a type error
            return f"mypyc stopped (exit status {e.code})"
        except Exception as e:
            return f"{type(e).__name__}: {e}".strip().splitlines()[0]
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            os.dup2(saved[0], 1)
            os.dup2(saved[1], 2)
            os.close(saved[0])
            os.close(saved[1])
    return None


def _build_ext(extensions: list[object], work: Path, lib: Path) -> None:
    """setuptools' build_ext, into ``lib``."""
    from setuptools import Distribution

    dist = Distribution({"name": "cinch-native", "ext_modules": extensions})
    dist.script_name = "cinch.native_build"
    cmd = dist.get_command_obj("build_ext")
    cmd.build_lib = str(lib)
    cmd.build_temp = str(work / "temp")
    cmd.inplace = False
    dist.run_command("build_ext")


def _probe_compiler(work: Path, log: Path) -> str | None:
    """Why no extension can be built here (no compiler, CC set to something else, no Python headers), or None."""
    from setuptools import Extension

    work.mkdir(parents=True)
    probe = work / "cinch_probe.c"
    probe.write_text('#include <Python.h>\nPyMODINIT_FUNC PyInit_cinch_probe(void) { return NULL; }\n')
    return _run_quietly(log, _build_ext, [Extension("cinch_probe", [str(probe)])], work, work / "lib")


def _compile(work: Path, log: Path) -> Path | str:
    """mypyc over the package's sources; the folder of the built extensions, or why it failed.

    mypyc reads the sources where they are, so that a compiled function's traceback names its
    source file (the same text, line for line, whenever the build is in use)."""
    # mypy reads no configuration of the project or the user: its defaults, for the Python running.
    config = work / "mypy.ini"
    config.write_text(f"[mypy]\npython_version = {sys.version_info[0]}.{sys.version_info[1]}\n")
    lib = work / "lib"
    extensions: list[object] = []

    def generate() -> None:
        import setuptools  # noqa: F401 - mypyc.build uses setuptools when it is imported first
        from mypyc.build import mypycify

        extensions.extend(mypycify(
            ["--config-file", str(config), *(source_path(name) for name in COMPILED)],
            opt_level="3", group_name=GROUP, target_dir=str(work / "c"),
        ))

    cwd = os.getcwd()
    os.chdir(work)  # mypy's cache and the C files go to the work folder, not the checkout
    try:
        why = _run_quietly(log, generate) or _run_quietly(log, _build_ext, extensions, work, lib)
    finally:
        os.chdir(cwd)
    return why or lib


def _store(lib: Path, folder: Path) -> Path:
    """Move the built extensions into ``folder`` (made whole elsewhere, then renamed into place)."""
    folder.parent.mkdir(parents=True, exist_ok=True)
    staging = folder.with_name(f"{folder.name}.{os.getpid()}.tmp")
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir()
    for module, target in extension_files(str(staging)).items():
        *package, name = module.split(".")
        shutil.copy2(lib.joinpath(*package, name + SUFFIX), target)
    (staging / FINISHED).write_text(", ".join(COMPILED) + "\n")
    if folder.exists():  # a build of the same sources, from another run: the older one goes
        shutil.rmtree(folder, ignore_errors=True)
    try:
        staging.rename(folder)
    except OSError:  # another run put its build in place meanwhile: keep that one
        shutil.rmtree(staging, ignore_errors=True)
    return folder


def _prune(keep: Path, spare: int = 2) -> None:
    """Remove all but the newest few builds of other sources (each is a few megabytes)."""
    others = sorted((p for p in keep.parent.iterdir() if p.is_dir() and p != keep and not p.name.endswith(".tmp")),
                    key=lambda p: p.stat().st_mtime, reverse=True)
    for old in others[spare:]:
        shutil.rmtree(old, ignore_errors=True)


def _tail(log: Path, lines: int = 15) -> str:
    try:
        text = log.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return ""
    return "\n".join("    " + line for line in text[-lines:])


def main(argv: Sequence[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(prog="python -m cinch.native_build", description=__doc__.splitlines()[0])
    parser.add_argument("command", nargs="?", choices=("build", "status"), default="build",
                        help="build: compile the current sources (the default); status: which build runs")
    parser.add_argument("--force", action="store_true", help="build even if a build of these sources exists")
    parser.add_argument("--strict", action="store_true", help="exit with status 1 when no build can be made")
    args = parser.parse_args(argv)
    if args.command == "status":
        print(f"cinch: {describe()}")
        print(f"the build of these sources: {build_dir()}" + ("" if finished_build(read_sources()) else " (not built)"))
        return 0
    built = build(force=args.force)
    return 1 if built is None and args.strict else 0


if __name__ == "__main__":
    sys.exit(main())
