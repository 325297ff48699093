"""A mistake on the command line of a study tool is one line on standard error, as `cinch study` gives it:
never Click's three lines of usage, a hint and the error."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from cinch.cli import main

HAND = "AS KS QS JS TS 5S 2H 3D 4C"


@pytest.mark.parametrize(("args", "words"), [
    (["advise", HAND, "--dealer", "W", "--worlds", "x"], "Invalid value for '--worlds'"),
    (["advise", HAND], "Missing option '--dealer'"),
    (["advise", HAND, "--dealer", "X"], "'X' is not a seat; seats are N E S W"),  # found by the command itself
    (["analyze", "game.json", "--worlds", "0"], "Invalid value for '--worlds'"),
    (["analyze", "game.json", "--worlds", "2", "--time", "1"], "give --worlds or --time, not both"),
    (["puzzle", "--level", "nope"], "Invalid value for '--level'"),
    (["puzzle", "--mine", "1", "--id", "pagat-001", "--out", "m.json"], "--mine writes a puzzle file"),
    (["puzzle", "--mine", "1"], "--mine needs --out FILE"),
    (["export-dataset"], "Missing argument 'OUT'"),
    (["export-dataset", "out.jsonl", "--format", "csv"], "Invalid value for '--format'"),
    (["study", "--deals", "x"], "Invalid value for '--deals'"),
])
def test_an_option_error_is_one_line(args, words):
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1, result.output
    assert lines[0].startswith("cinch: ") and words in lines[0] and f"(see `cinch {args[0]} --help`)" in lines[0]
    assert "Usage:" not in result.output and "Try '" not in result.output
