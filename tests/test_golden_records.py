"""Golden records: each record in tests/records, replayed by `cinch replay --json`, must print
its sibling NAME.expected.json.

The expected replays were worked out by hand from the rule texts (each record's "comment"
says which text and rule it illustrates), not copied from the engine, so a difference is an
engine mistake until shown otherwise.  RECORD.md does not fix the order of the legal actions
in "next", so that list is compared as a set.
"""

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from cinch.cli import main

RECORDS = Path(__file__).parent / "records"
NAMES = sorted(p.name[: -len(".expected.json")] for p in RECORDS.glob("*.expected.json"))


def normalised(out: dict) -> dict:
    if out.get("next"):
        out = {**out, "next": {**out["next"], "legal": sorted(out["next"]["legal"])}}
    return out


def test_every_record_has_its_expected_replay():
    records = sorted(p.stem for p in RECORDS.glob("*.json") if not p.name.endswith(".expected.json"))
    assert records == NAMES and len(NAMES) >= 12


@pytest.mark.parametrize("name", NAMES)
def test_golden_record(name):
    record = RECORDS / f"{name}.json"
    assert json.loads(record.read_text())["comment"]  # which text and rule it illustrates
    result = CliRunner().invoke(main, ["replay", "--json", str(record)])
    assert result.exit_code == 0, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1  # one JSON object per file, one per line
    expected = json.loads((RECORDS / f"{name}.expected.json").read_text())
    assert normalised(json.loads(lines[0])) == normalised(expected)


def test_several_files_in_one_call_print_one_line_each_in_order():
    # RECORD.md: "With --json it prints one JSON object per file, one per line, in the order given".
    files = [str(RECORDS / f"{name}.json") for name in NAMES[:3]]
    result = CliRunner().invoke(main, ["replay", "--json", *files])
    assert result.exit_code == 0
    got = [json.loads(line) for line in result.output.strip().splitlines()]
    want = [json.loads((RECORDS / f"{name}.expected.json").read_text()) for name in NAMES[:3]]
    assert [normalised(g) for g in got] == [normalised(w) for w in want]


def test_a_bad_record_exits_2_with_one_message_and_later_files_still_replay(tmp_path):
    # RECORD.md: "An illegal or malformed record: exit status 2, and one message on standard error that
    # names the file, the deal and action number, what was wrong, and what was legal there. No traceback.
    # A later file in the same call is still replayed."
    good = RECORDS / f"{NAMES[0]}.json"
    record = json.loads((RECORDS / "pagat-restock.json").read_text())
    record["deals"][0]["actions"][3] = "bid 8"  # the stuck dealer must bid exactly 7
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(record))
    result = CliRunner().invoke(main, ["replay", "--json", str(bad), str(good)])
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert result.stderr.startswith(f"{bad}: deal 1, action 4: 'bid 8' is illegal: a stuck dealer must bid 7")
    assert "Legal there: bid 7" in result.stderr
    assert normalised(json.loads(result.stdout)) == normalised(
        json.loads((RECORDS / f"{NAMES[0]}.expected.json").read_text()))
