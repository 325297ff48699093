"""A puzzle file is checked as ``cinch replay`` checks a record, ``cinch puzzle --mine`` checks its output
path before it mines, and an explanation says when a card changes made into set and never tells the solver's
choice between cards of equal worth as forced."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from typing import Any

import pytest
from click.testing import CliRunner

from cinch.cli import main
from cinch.study.puzzles import FORMAT, Puzzle, PuzzleError, explain, find, judge, load_puzzles

# pagat-002: N to play to trick 3 (S led 8H, W played 5D, hearts trumps), holding AH 6H JD 7D; it may play AH 6H.
PUZZLE = "pagat-002"


def written() -> dict[str, Any]:
    return copy.deepcopy(find(load_puzzles(), PUZZLE).to_json())


def changed(change: Callable[[dict[str, Any]], Any]) -> dict[str, Any]:
    data = written()
    change(data)
    return data


def played_first(data: dict[str, Any]) -> str:
    return data["view"]["tricks"][0]["plays"][0][1]  # 7S, S's lead to trick 1


BAD = [
    # every card in one place; the sizes agree
    (lambda d: d["view"].update(hand=d["view"]["hand"] + " " + played_first(d)),
     "view.tricks[0] holds 7S, which is also in view.hand"),
    (lambda d: d["view"].update(hand="AH 6H JD"), "view.hand holds 3 cards, but view.hand_sizes gives N 4"),
    (lambda d: d["view"]["hand_sizes"].__setitem__(1, 2), "view.hand_sizes[1] gives E 2 cards, but E holds 4 after 2"),
    (lambda d: d["view"].update(own_discards=d["view"]["own_discards"] + " JD"),
     "view.own_discards holds JD, which is also in view.hand"),
    # the cards offered are those the rules let the hand play
    (lambda d: d["view"]["legal"].append("play 2C"), "view.legal offers 2C, which is not in view.hand"),
    (lambda d: d["view"]["legal"].append("play JD"), "view.legal offers JD, which may not be played (trumps were led"),
    (lambda d: d["view"]["legal"].remove("play 6H"), "view.legal leaves out 6H, which may be played"),
    (lambda d: d.update(answer="JD"), "answer is JD, which is not a card the seat may play (AH 6H)"),
    (lambda d: d["bots"].update(basic="2C"), "bots.basic is 2C, which is not a card the seat may play"),
    # wrong kinds of value: the field and what it should be, never Python's words
    (lambda d: d["view"].update(hand=["AH", "6H", "JD", "7D"]), 'view.hand must be a string, as "AS 5D 2C"'),
    (lambda d: d["view"].update(auction=None), "view.auction must be a list of calls"),
    (lambda d: d["view"]["tricks"][0].update(winner=3), "view.tricks[0].winner must be a string"),
    (lambda d: d["view"].update(seat="X"), "view.seat is 'X': 'X' is not a seat"),
    (lambda d: d["view"].pop("trump"), "the field 'view.trump' is missing"),
    (lambda d: d.update(worlds="24"), "worlds must be a whole number, not a string"),
    (lambda d: d.update(explanation="5D is best"), "explanation must be a list of lines, not a string"),
    (lambda d: d.update(figures=[]), "figures must be a JSON object, not a list"),
    (lambda d: d["figures"]["AH"].update(mean=None), "figures.AH.mean must be a number, not null"),
    (lambda d: d.update(level="easyish"), "level is 'easyish'; it must be one of easy, medium, hard"),
]


@pytest.mark.parametrize(("change", "message"), BAD)
def test_a_broken_puzzle_is_refused_naming_the_puzzle_and_the_field(change, message):
    with pytest.raises(PuzzleError) as caught:
        Puzzle.from_json(changed(change))
    text = str(caught.value)
    assert text.startswith(f"puzzle '{PUZZLE}': ") and message in text, text
    assert "attribute" not in text and "not iterable" not in text  # never Python's own words


def test_the_bundled_puzzles_pass_every_check():
    assert len(load_puzzles()) == 82


def test_cinch_puzzle_refuses_a_file_offering_a_card_not_held_in_one_line(tmp_path):
    # Once 2C, not in the hand, was offered and judged "Right"; and 6H, a legal trump, refused with a false reason.
    for change, words in ((lambda d: (d["view"]["legal"].append("play 2C"), d.update(answer="2C"),
                                      d["figures"].update({"2C": d["figures"]["AH"]})), "view.legal offers 2C"),
                          (lambda d: d["view"]["legal"].remove("play 6H"), "view.legal leaves out 6H")):
        path = tmp_path / "mine.json"
        path.write_text(json.dumps({"format": FORMAT, "command": "", "puzzles": [changed(change)]}))
        result = CliRunner().invoke(main, ["puzzle", "--file", str(path), "--id", PUZZLE, "--plain"], input="2C\n")
        assert result.exit_code == 2 and "Right" not in result.output
        lines = result.output.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith(f"cinch: puzzle '{PUZZLE}': {words}"), lines


def test_mining_refuses_an_output_path_it_cannot_write_before_it_mines(tmp_path):
    missing = tmp_path / "no" / "such" / "folder" / "m.json"
    result = CliRunner().invoke(main, ["puzzle", "--mine", "200", "--out", str(missing)])
    assert result.exit_code == 2 and f"cannot write {missing}" in result.output
    assert "deals," not in result.output  # refused at once: no rule set was mined
    out = tmp_path / "m.json"
    done = CliRunner().invoke(main, ["puzzle", "--mine", "2", "--out", str(out)])
    assert done.exit_code == 0 and out.exists() and [p.name for p in tmp_path.iterdir()] == ["m.json"]


def explained(puzzle_id: str) -> list[str]:
    puzzle = find(load_puzzles(), puzzle_id)
    found = judge(puzzle.view, random.Random(1), worlds=8)
    assert found is not None and found.answer == puzzle.answer
    return explain(puzzle.view, found, lines=2)


def test_an_explanation_says_when_a_card_turns_a_made_contract_into_a_set():
    # pagat-004: S, whose side bid 7, plays 5D and makes it; QH gives away 4 points and with them the contract.
    lines = explained("pagat-004")
    assert "ends the deal with 7 points, making its bid of 7" in lines[0]
    assert "QH gives away 4 points in every world, and turns your made contract into a set in every world." in lines


def test_an_explanation_gives_the_choice_between_cards_of_equal_worth_as_a_choice():
    # official-002: after 5D the others may give up Low or the Game (TS) for the same points; once "5D wins Low".
    lines = explained("official-002")
    text = " ".join(lines)
    assert "wins Low" not in text and "wins the Game" not in text
    assert ("Which of the Game (TS) and Low your side takes is the players' choice between cards of equal worth, "
            "for the same points") in text
    assert "Low in 0 to 2 of 2 after 5D" in text
