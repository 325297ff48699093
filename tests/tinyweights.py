"""Tiny neural weights for tests: networks of 16 units, seeded and untrained, made in a blink.

They play as the heuristic does at first (the networks start from its choice: :func:`cinch.study.learning.new_network`)
and their scores differ from one action to another, which is all a test of the pipes needs; the strength of the
shipped weights is measured by the benchmarks (docs/strength.md), never by a test.  :func:`use_weights` makes them the
package's weights for a test (what ``make_bot("neural")`` and ``Models.load()`` read), in this process only: a bot
that thinks in a spawned process would read the package's own.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from cinch.neural import models
from cinch.neural.features import KINDS
from cinch.study.learning import new_network
from cinch.table import advice


def tiny_weights(folder: Path, seed: int = 1) -> Path:
    """Write tiny weights into ``folder``: the folder."""
    rng = np.random.default_rng(seed)
    models.save(folder, {kind: new_network(kind, (16,), rng) for kind in KINDS}, {"data": "none: tests only"})
    return folder


def use_weights(monkeypatch: Any, folder: Path) -> None:
    """Make ``folder`` the package's weights for the test, and the bots this installation offers counted again."""
    monkeypatch.setattr(models, "WEIGHTS_DIR", Path(folder))
    monkeypatch.setattr(advice, "_AVAILABLE", None)
