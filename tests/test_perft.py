"""The perft oracle: exact counts of the game tree from fixed positions (tests/perft/counts.txt).

The counts were written from the engine by ``tests/perft.py --write``; each test replays one
position (bidding, discard and rob, the start of the play, the last tricks walked to the end
with their points summed) and compares every number.  A difference means a rule changed
somewhere: if the change is deliberate, regenerate the file and review its diff.
"""

import dataclasses
from enum import Enum

import pytest

from cinch.rules import PRESET_NAMES, Rules
from perft import DATA, POSITIONS, ReplayError, compute, differences, header, read

EXPECTED = read(DATA)


@pytest.mark.parametrize("position", POSITIONS, ids=lambda p: p.name)
def test_perft(position):
    expected = EXPECTED.data.get(position.name)
    assert expected, f"{position.name}: no counts in {DATA}; run `.venv/bin/python tests/perft.py --write`"
    try:
        got = compute(position)
    except ReplayError as exc:  # the actions that lead to the position are no longer legal
        got, refused = [], str(exc)
    if not got:
        pytest.fail(refused, pytrace=False)
    problems = differences(position, expected, got)
    if problems:
        pytest.fail("\n".join(problems), pytrace=False)


def test_the_data_file_holds_exactly_the_positions_and_their_descriptions():
    names = [p.name for p in POSITIONS]
    assert len(set(names)) == len(names), "position names must be unique"
    assert set(EXPECTED.data) == set(names), f"{DATA.name} is out of date: regenerate it with perft.py --write"
    for position in POSITIONS:
        assert EXPECTED.headers.get(position.name) == header(position), (
            f"{position.name}: its definition in perft.py differs from its description in {DATA.name}"
        )


def test_the_oracle_reaches_over_a_million_leaves():
    leaves = 0
    for lines in EXPECTED.data.values():
        for line in lines:
            kind, *rest = line.split()
            if kind == "perft":
                leaves += int(rest[1])
            elif kind == "end":
                leaves += int(rest[0].removeprefix("leaves="))
    assert leaves > 1_000_000


def test_every_value_of_every_rules_option_is_played_somewhere():
    rules = [p.rules() for p in POSITIONS]
    missing = []
    for f in dataclasses.fields(Rules):
        values = {getattr(r, f.name) for r in rules}
        sample = getattr(rules[0], f.name)
        if isinstance(sample, Enum):
            missing += [f"{f.name}={v.value}" for v in type(sample) if v not in values]
        elif isinstance(sample, bool):
            missing += [f"{f.name}={v}" for v in (True, False) if v not in values]
    assert not missing, "no position plays " + ", ".join(missing)


def test_each_phase_is_a_start_position_for_every_preset():
    starts = {line.split(",")[0].removeprefix("start ") for lines in EXPECTED.data.values() for line in lines
              if line.startswith("start ")}
    assert {"bidding", "trump", "discard", "rob", "play"} <= starts
    for preset in PRESET_NAMES:
        mine = [p for p in POSITIONS if p.preset == preset]
        assert any(not p.actions for p in mine), preset  # the start of the bidding
        assert any(p.end for p in mine), preset  # the last tricks, walked to the end
