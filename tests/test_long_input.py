"""An error that quotes bad input quotes a readable piece of it, and says how long it was (issue 24):
a megabyte of input never makes a megabyte (or two) of error.

The places that quote input: the record notation and record reading (``cinch replay``), the command line's
options (Click's own messages too), the plain prompt of ``cinch play`` and the scorekeeper's questions.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from cinch.actions import parse_action
from cinch.cli import main
from cinch.errors import QUOTE_LIMIT, CinchError, cut_quotes, quoted
from cinch.record import loads

MEGABYTE = 1_000_000
READABLE = 400  # the longest an error line may be, whatever it quotes
RECORD = Path(__file__).parent / "records" / "pagat-restock.json"


def test_quoted_cuts_long_text_and_says_its_length():
    assert quoted("bid 7") == "'bid 7'"
    long = quoted("play " + "X" * MEGABYTE)
    assert long.startswith("'play XXX") and long.endswith("...' (1,000,005 characters)")
    assert len(long) <= QUOTE_LIMIT + len(" (1,000,005 characters)")
    assert len(quoted("\x00" * MEGABYTE)) <= QUOTE_LIMIT + 30  # escapes count as what they show
    assert quoted("ab", length=True) == "'ab' (2 characters)"
    assert cut_quotes("x 'short' y", ["short"]) == "x 'short' y"  # arguments of a readable length stay whole


@pytest.mark.parametrize("text", ["play " + "X" * MEGABYTE, "X" * MEGABYTE, "bid " + "1" * MEGABYTE,
                                  "keep " + "AH " * (MEGABYTE // 3), "trump " + "Q" * MEGABYTE,
                                  "claim " + "x" * MEGABYTE, "N out of turn: " + "x" * MEGABYTE])
def test_the_notation_quotes_a_piece_of_a_huge_action(text):
    with pytest.raises(CinchError) as caught:
        parse_action(text)
    assert len(str(caught.value)) < READABLE and "characters)" in str(caught.value)


def one_line(result, prefix: str) -> str:
    """Exit status 2 and one readable line on standard error after ``prefix`` (the file's name)."""
    assert result.exit_code == 2, (result.exit_code, result.output[:500])
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and "Traceback" not in result.output
    assert lines[0].startswith(prefix) and len(lines[0]) - len(prefix) < READABLE, lines[0][:500]
    return lines[0]


@pytest.mark.parametrize("where", ["action", "field", "dealer", "format"])
def test_replay_of_a_record_with_a_huge_value_is_one_short_line(tmp_path, where):
    record = loads(RECORD.read_text(encoding="utf-8"))
    huge = "X" * MEGABYTE
    if where == "action":
        record["deals"][0]["actions"][0] = "play " + huge
    elif where == "field":
        record["deals"][0][huge] = 1
    elif where == "dealer":
        record["deals"][0]["dealer"] = huge
    else:
        record["format"] = huge
    path = tmp_path / "big.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    line = one_line(CliRunner().invoke(main, ["replay", str(path)]), prefix=f"{path}: ")
    assert "characters)" in line


@pytest.mark.parametrize("args", [
    ["play", "--theme", "{big}"],  # Click's own message quotes the value
    ["play", "--rules", "{big}"],
    ["play", "-o", "target={big}"],
    ["play", "-o", "{big}"],
    ["play", "--seat", "{big}", "--no-library"],
    ["play", "--bots", "{big}", "--no-library"],
    ["arena", "random", "random", "--score", "{big}"],
    ["arena", "random", "random", "--deals", "{big}"],
    ["arena", "random", "random", "--bot-option", "{big}"],
    ["score", "--player", "{big}", "--no-library"],
    ["score", "--dealer", "{big}", "--no-library"],
    ["resume", "{big}"],
    ["rules", "{big}"],
    ["study", "--rules", "{big}"],
    ["advise", "{big}", "--dealer", "W"],
    ["export-dataset", "out.jsonl", "--library", "{big}"],
], ids=lambda v: " ".join(a for a in v if a != "{big}"))
def test_a_huge_command_line_value_is_quoted_in_part(args, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    big = "X" * (MEGABYTE // 10)
    result = CliRunner().invoke(main, [a.replace("{big}", big) for a in args], input="")
    assert result.exit_code == 2, result.output[:300]
    assert "Traceback" not in result.output
    assert all(len(line) < READABLE for line in result.output.splitlines()), result.output[:500]
    assert "characters)" in result.output


@pytest.mark.parametrize("answer", ["X" * MEGABYTE, "1" * MEGABYTE, "bid " + "1" * MEGABYTE, "7" + "c" * MEGABYTE])
def test_the_plain_prompt_quotes_a_piece_of_a_huge_answer(answer):
    result = CliRunner().invoke(main, ["play", "--plain", "--no-library", "--seed", "3"], input=answer + "\nquit\n")
    assert result.exit_code == 0 and result.exception is None, result.output[:500]
    said = [line for line in result.output.splitlines() if not line.startswith("Your bid")]  # (the echo of it)
    assert "Your bid" in result.output
    assert max(len(line) for line in said) < READABLE


@pytest.mark.parametrize("answers", ["{big}\n", "W 8\n\n{big}\n", "W 8\n\n9 {digits}\n", "W {digits}\n",
                                     "W 8\n\nNS {digits} EW 3\n"])
def test_the_scorekeeper_quotes_a_piece_of_a_huge_answer(answers):
    text = answers.format(big="x" * MEGABYTE, digits="5" * MEGABYTE)
    result = CliRunner().invoke(main, ["score", "--plain", "--no-library", "--rules", "pagat", "--dealer", "W"],
                                input=text)
    assert result.exit_code == 0 and result.exception is None, repr(result.exception)
    said = [line for line in result.output.splitlines() if "x" * 1000 not in line and "5" * 1000 not in line]
    assert len(said) < len(result.output.splitlines())  # (only the echoes of the answers are left out)
    assert max(len(line) for line in said) < READABLE
