"""The project's documents stand alone: every link in the README and docs/ leads to a file of the project."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_local_link_leads_to_a_file_of_the_project(document):
    for target in LINK.findall(document.read_text(encoding="utf-8")):
        if re.match(r"[a-z]+:", target) or target.startswith("#"):
            continue  # a web address or an anchor in the same page
        path = (document.parent / target.split("#")[0]).resolve()
        assert path.is_relative_to(ROOT), f"{document.name} links {target}, outside the project"
        assert path.exists(), f"{document.name} links {target}, which does not exist"
