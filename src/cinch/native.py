"""The compiled build: the engine's hot modules compiled with mypyc, used only for the sources they came from.

``python -m cinch.native_build`` (``make compile``) compiles :data:`COMPILED` with mypyc into
a folder of the cache named by a hash of every source the compilation read (:data:`INPUTS`,
the compiled modules and the ``cinch`` modules they import) and of the Python it ran under.
Nothing is written beside the sources, so Python's own import never finds a compiled module.
When ``cinch`` is imported, :func:`install` hashes the same sources as they are now; only if a
folder of that name holds a finished build does it put a finder on ``sys.meta_path`` that
loads those modules from it.  An edited source (or an edited module they import) changes the
hash, so the pure modules are imported until the build is run again: a compiled module never
stands in for a source other than its own.

Without mypyc or a working C compiler the build says so and leaves the pure-Python modules
in use; ``CINCH_PURE=1`` forces pure Python; :func:`compiled_modules` (``cinch.compiled_modules()``)
and ``python -m cinch.native_build status`` tell which build runs.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import os
import sys
from collections.abc import Sequence
from types import ModuleType

# The loader runs at every ``import cinch``: it uses only what Python has loaded by then (no pathlib,
# no importlib.abc or importlib.util, which pull in dozens of modules).

__all__ = ["COMPILED", "INPUTS", "build_dir", "cache_dir", "compiled_modules", "describe",
           "finished_build", "install", "read_sources", "source_key", "source_path"]

COMPILED = ("masks", "keep", "scoring", "deal", "solver", "worlds", "bots.knowledge", "bots.card_play",
            "bots.play_history")
"""The modules compiled, as names in ``cinch``."""

INPUTS = ("errors", "constants", "masks", "cards", "seating", "rules", "actions", "keep", "scoring", "view",
          "irregularities", "deal", "solver", "worlds", "bots.knowledge", "bots.card_play", "bots.play_history")
"""Every ``cinch`` module whose source the compilation reads: the compiled ones and all they import
(mypyc takes the imported modules' types, and inlines their ``Final`` constants).  A test keeps this
list equal to the compiled modules' imports."""

GROUP = "cinch.compiled"  # mypyc's name for the build: its shared library is cinch.compiled__mypyc
LIBRARY = GROUP + "__mypyc"
PACKAGE = os.path.dirname(os.path.abspath(__file__))
FORMAT = "1"  # bumped when the layout of a build folder changes
FINISHED = "finished"  # the file written last: a folder without it is a build that did not finish
SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]


def cache_dir() -> str:
    """Where builds are kept: ``$CINCH_NATIVE_DIR``, or ``_native`` in the package folder."""
    return os.environ.get("CINCH_NATIVE_DIR") or os.path.join(PACKAGE, "_native")


def source_path(name: str, package: str = PACKAGE) -> str:
    """The source file of ``cinch.<name>`` (``bots.knowledge``: the ``bots`` folder's ``knowledge.py``)."""
    return os.path.join(package, *name.split(".")) + ".py"


def read_sources(package: str = PACKAGE) -> dict[str, bytes]:
    """The current text of every input, by module name."""
    out = {}
    for name in INPUTS:
        with open(source_path(name, package), "rb") as f:
            out[name] = f.read()
    return out


def source_key(sources: dict[str, bytes]) -> str:
    """The name of the build for these sources under this Python (its ABI and extension suffix)."""
    h = hashlib.sha256()
    for part in (FORMAT, sys.implementation.cache_tag or "", SUFFIX, GROUP, *COMPILED):
        h.update(part.encode() + b"\0")
    for name in INPUTS:
        h.update(name.encode() + b"\0" + sources[name] + b"\0")
    return h.hexdigest()[:32]


def build_dir(sources: dict[str, bytes] | None = None) -> str:
    """The folder of the build for these sources (by default the current ones), finished or not."""
    return os.path.join(cache_dir(), source_key(read_sources() if sources is None else sources))


def extension_files(folder: str) -> dict[str, str]:
    """The extension module of each compiled module, and of mypyc's shared library, in a build folder."""
    files = {f"cinch.{name}": os.path.join(folder, name + SUFFIX) for name in COMPILED}
    files[LIBRARY] = os.path.join(folder, LIBRARY.rpartition(".")[2] + SUFFIX)
    return files


def finished_build(sources: dict[str, bytes]) -> dict[str, str] | None:
    """The extension files of a finished build of exactly these sources, or None."""
    folder = os.path.join(cache_dir(), source_key(sources))
    if not os.path.isfile(os.path.join(folder, FINISHED)):
        return None
    files = extension_files(folder)
    return files if all(os.path.isfile(f) for f in files.values()) else None


class _Finder:
    """A finder of ``sys.meta_path``: the compiled modules (and mypyc's shared library) from one
    build folder, and nothing else."""

    def __init__(self, files: dict[str, str]):
        self.files = files

    def find_spec(self, fullname: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        file = self.files.get(fullname)
        if file is None:
            return None
        loader = importlib.machinery.ExtensionFileLoader(fullname, file)
        spec = importlib.machinery.ModuleSpec(fullname, loader, origin=file)
        spec.has_location = True  # so the module's __file__ is the extension
        return spec

    def invalidate_caches(self) -> None:
        pass


_state = "pure Python: cinch.native.install() has not run"
_finder: _Finder | None = None


def install() -> None:
    """Serve the compiled modules if a finished build of the current sources exists (``cinch`` calls
    this before it imports any of them)."""
    global _state, _finder
    if _finder is not None:
        return
    if os.environ.get("CINCH_PURE", "") not in ("", "0"):
        _state = "pure Python: CINCH_PURE is set"
        return
    if any(f"cinch.{name}" in sys.modules for name in COMPILED):
        _state = "pure Python: the modules were imported before cinch.native.install()"
        return
    try:
        files = finished_build(read_sources())
    except OSError as e:  # a source that cannot be read: nothing to compare a build with
        _state = f"pure Python: {e}"
        return
    if files is None:
        _state = "pure Python: no compiled build of these sources (make compile builds one)"
        return
    _finder = _Finder(files)
    sys.meta_path.insert(0, _finder)
    _state = "compiled"


def compiled_modules() -> tuple[str, ...]:
    """The ``cinch`` modules that run compiled in this process (empty: pure Python throughout).

    A module served by the compiled build counts once it is imported, or if it has not been
    imported yet (it will be compiled when it is)."""
    if _finder is None:
        return ()
    out = []
    for name in COMPILED:
        module = sys.modules.get(f"cinch.{name}")
        loader = getattr(module, "__loader__", None)
        if module is None or isinstance(loader, importlib.machinery.ExtensionFileLoader):
            out.append(name)
    return tuple(out)


def describe() -> str:
    """Which build runs, in words: ``compiled with mypyc: scoring, deal, solver`` or why not."""
    compiled = compiled_modules()
    if compiled:
        return "compiled with mypyc: " + ", ".join(compiled)
    return _state
