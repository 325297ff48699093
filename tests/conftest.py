"""Let the test modules import the table-building helpers in ``helpers.py``."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))


import os  # noqa: E402

import pytest  # noqa: E402
from hypothesis import settings  # noqa: E402

# Hypothesis draws its examples from a fixed seed unless asked to explore: `make test` (and CI) runs
# the same examples every time, so a red run is the code's doing, never the draw's.  `make explore`
# runs the properties on fresh examples, to look for what the fixed draw has not found.
settings.register_profile("fixed", derandomize=True, database=None, print_blob=True)
settings.register_profile("explore", derandomize=False, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "fixed"))


@pytest.fixture(autouse=True)
def _temporary_game_library(tmp_path_factory, monkeypatch):
    """Every test keeps its matches in a fresh game library of its own, never the user's (``CINCH_DB``)."""
    monkeypatch.setenv("CINCH_DB", str(tmp_path_factory.mktemp("library") / "games.sqlite3"))
