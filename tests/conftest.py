"""Let the test modules import the table-building helpers in ``helpers.py``."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))


import pytest  # noqa: E402


@pytest.fixture(autouse=True)
def _temporary_game_library(tmp_path_factory, monkeypatch):
    """Every test keeps its matches in a fresh game library of its own, never the user's (``CINCH_DB``)."""
    monkeypatch.setenv("CINCH_DB", str(tmp_path_factory.mktemp("library") / "games.sqlite3"))
