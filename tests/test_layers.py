"""The layout shows the architecture: every module imports only its own layer or the layers below it.

The layers, bottom up, are listed in ``LAYERS``; docs/architecture.md draws the same map.
A lazy import inside a function counts like one at the top of the module.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src" / "cinch"

LAYERS = [
    ["errors", "constants", "masks", "native", "native_build"],
    ["cards", "seating"],
    ["rules", "actions", "shuffle"],
    ["keep"],
    ["scoring", "view", "irregularities"],
    ["deal"],
    ["match", "scorekeeper"],
    ["record"],
    ["library"],
    ["worlds", "solver"],
    ["bots", "neural"],
    ["arena", "backends", "duplicate"],
    ["adapters"],
    ["study"],
    ["table"],
    ["play_plain", "score_plain", "duplicate_plain", "tui", "server"],
    ["cli", "__main__"],
]
LAYER = {name: i for i, names in enumerate(LAYERS) for name in names}


def part(module: str) -> str:
    """The layer name of ``cinch.x.y``: ``x``."""
    return module.split(".")[1] if module.count(".") else "__init__"


def modules() -> list[Path]:
    return sorted(p for p in SRC.rglob("*.py") if p.name != "__init__.py" or p.parent != SRC)


def imports(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("cinch."):
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.startswith("cinch.")}
    return found


@pytest.mark.parametrize("path", modules(), ids=lambda p: str(p.relative_to(SRC)))
def test_a_module_imports_only_its_own_layer_and_the_layers_below(path):
    rel = path.relative_to(SRC)
    name = rel.parts[0].removesuffix(".py")
    assert name in LAYER, f"{rel} is in no layer: add it to LAYERS and docs/architecture.md"
    for target in imports(path):
        other = part(target)
        assert other in LAYER, f"{rel} imports {target}, which is in no layer"
        assert LAYER[other] <= LAYER[name], f"{rel} ({name}) imports {target} ({other}), a layer above it"


FRONT_ENDS = {"play_plain": "the line prompt", "score_plain": "the line prompt",
              "duplicate_plain": "the line prompt", "tui": "the Textual screens",
              "server": "the server"}
"""The front ends (the top layer but one), by the front end each module belongs to: they share the layers
below them, never one another (the plain prompt's two commands share its line reading)."""


@pytest.mark.parametrize("path", [p for p in modules() if p.relative_to(SRC).parts[0].removesuffix(".py")
                                  in FRONT_ENDS], ids=lambda p: str(p.relative_to(SRC)))
def test_a_front_end_imports_no_other_front_end(path):
    rel = path.relative_to(SRC)
    mine = FRONT_ENDS[rel.parts[0].removesuffix(".py")]
    for target in imports(path):
        theirs = FRONT_ENDS.get(part(target))
        assert theirs in (None, mine), f"{rel} ({mine}) imports {target} ({theirs}): move what both need below them"


def module_name(path: Path) -> str:
    rel = path.relative_to(SRC.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def top_level_imports(path: Path) -> set[str]:
    """The imports run when the module loads: at module level, outside ``if TYPE_CHECKING:``."""
    found = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("cinch"):
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.startswith("cinch")}
    return found


def test_no_module_imports_itself_in_a_loop():
    graph = {module_name(p): top_level_imports(p) for p in SRC.rglob("*.py")}
    done: set[str] = set()

    def visit(module: str, trail: list[str]) -> None:
        if module in trail:
            loop = trail[trail.index(module):] + [module]
            raise AssertionError("import loop: " + " -> ".join(loop))
        if module in done or module not in graph:
            return
        for target in sorted(graph[module]):
            visit(target, trail + [module])
        done.add(module)

    for module in sorted(graph):
        visit(module, [])
