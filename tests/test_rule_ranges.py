"""The rules' counts of points have ranges (``cinch.rules.MAX_POINTS``): a target past 1000, or a negative floor
or bidder-goes-out threshold further below zero than -1000, is refused with one line wherever rules are made:
``-o`` on the command line, a record's rules, a room's body (tests/server/test_bad_clients.py)."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from cinch.cli import main
from cinch.errors import RulesError
from cinch.rules import MAX_POINTS, Rules

HUGE = 10**30


@pytest.mark.parametrize(("preset", "options", "words"), [
    ("pagat", {"target": HUGE}, "target of 31 digits is past the highest, 1000"),
    ("pagat", {"target": MAX_POINTS + 1}, "target 1001 is past the highest, 1000"),
    ("additive", {"negative_floor": -HUGE}, "negative_floor of 31 digits is further below zero than -1000"),
    ("official", {"bidder_goes_out": -(MAX_POINTS + 1)}, "bidder_goes_out -1001 is further below zero"),
])
def test_a_count_of_points_past_its_range_is_refused(preset, options, words):
    with pytest.raises(RulesError, match=words):
        Rules.preset(preset).with_options(**options)
    with pytest.raises(RulesError, match=words):
        Rules.from_json({"preset": preset, **options})


def test_the_ends_of_the_ranges_are_rules():
    rules = Rules.preset("additive").with_options(target=MAX_POINTS, negative_floor=-MAX_POINTS)
    assert (rules.target, rules.negative_floor) == (1000, -1000)


@pytest.mark.parametrize("option", [f"target={HUGE}", f"negative_floor=-{HUGE}", "target=1001"])
def test_the_command_lines_option_is_checked_the_same_way(option):
    result = CliRunner().invoke(main, ["rules", "additive", "-o", option])
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and "1000" in lines[0] and "add -o" in lines[0], result.output
