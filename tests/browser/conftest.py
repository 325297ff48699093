"""Browser tests: Playwright for Python driving Debian's Chromium (never a downloaded browser).

The browser is the ``chromium`` package's (``apt-get install chromium``; ``.ci/run`` installs it),
or ``$CINCH_CHROMIUM``; without one these tests are skipped, saying why.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parent.parent / "server"))


def chromium_path() -> str | None:
    for candidate in (os.environ.get("CINCH_CHROMIUM"), "/usr/lib/chromium/chromium", shutil.which("chromium")):
        if candidate and Path(candidate).exists():
            return candidate
    return None


@pytest.fixture(scope="module")
def browser():
    # Module-scoped: Playwright's sync API keeps an event loop running while it is open, and the other
    # test modules (the Textual table, the server) run loops of their own in the same worker.
    path = chromium_path()
    if path is None:
        pytest.skip("no Chromium: `apt-get install chromium` (Debian) or set CINCH_CHROMIUM")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=path, args=["--no-sandbox"])
        yield browser
        browser.close()


@pytest.fixture
def pages(browser):
    """The pages a test opens (it appends them); none may have thrown by the test's end."""
    made: list = []
    yield made
    errors = [e for p in made for e in p.errors]
    for p in made:
        p.context.close()
    assert not errors, f"a page threw: {errors}"
