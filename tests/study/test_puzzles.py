"""Puzzles (cinch.study.puzzles and `cinch puzzle`): mined from self-play, the answer best in every world,
no hidden card stored, the terminal's verdicts and its refusals."""

from __future__ import annotations

import json
import random
import re
from functools import cache

import pytest
from click.testing import CliRunner

from cinch.cards import Card, CardSet
from cinch.cli import main
from cinch.rules import Rules
from cinch.solver import Position, solve
from cinch.study.puzzles import (
    FORMAT,
    LEVELS,
    Puzzle,
    PuzzleError,
    dumps,
    judge,
    load_puzzles,
    loads,
    mine_deals,
    view_cards,
    view_json,
)
from cinch.worlds import sample_weighted

CARD = re.compile(r"\b[AKQJT98765432][SHDC]\b")
SEED, DEALS = 3, 4  # pagat: the first puzzle comes in these deals (every level kept)


@cache
def mined() -> list[tuple[Puzzle, dict, frozenset[int]]]:
    """The puzzles of a few pagat deals, each with its JSON and the cards the other seats held then."""
    out = []
    for puzzle, deal in mine_deals(Rules.preset("pagat"), deals=DEALS, seed=SEED, levels=LEVELS, worlds=12, lines=2):
        others = frozenset(c for s in range(4) if s != puzzle.view.seat for c in CardSet(deal.hands[s]))
        assert puzzle.view == deal.view(puzzle.view.seat)  # the seat's own view, nothing more
        out.append((puzzle, puzzle.to_json(), others))
    return out


def best_in_world(puzzle: Puzzle, rng: random.Random) -> bool:
    """Whether the answer beats every other legal card by a point in one freshly sampled world."""
    sample = sample_weighted(puzzle.view, rng)
    result = solve(Position.from_view(puzzle.view, sample.hands))
    team = puzzle.view.seat.team
    mine = result.points_after(puzzle.answer)[team]
    return all(mine - result.points_after(c)[team] >= 1 for c in puzzle.legal_cards if c != puzzle.answer)


# ---- mining ------------------------------------------------------------------------------------------------
def test_mining_finds_a_puzzle_and_its_answer_is_best_in_every_world_sampled_again():
    found = mined()
    assert found, "no puzzle in the first deals of the fixed seed"
    puzzle = Puzzle.from_json(json.loads(json.dumps(found[0][1])))  # the stored form, read back
    assert puzzle == found[0][0] and len(puzzle.legal_cards) > 1
    rng = random.Random(2024)  # other worlds than the miner's
    assert all(best_in_world(puzzle, rng) for _ in range(10))


def test_the_judge_refuses_a_position_where_no_card_is_clearly_best():
    from cinch import Deal, Seat
    from cinch.bots import make_bot

    deal = Deal.shuffled(Rules.preset("pagat"), Seat.W, rng=11)
    bot = make_bot("heuristic", seed=1)
    refused = 0
    while not deal.is_over:
        view = deal.view(deal.to_act)
        if refused < 3 and view.phase.value == "play" and len({a.card for a in view.legal}) > 1:
            found = judge(view, random.Random(1), worlds=6)
            if found is None:
                refused += 1
            else:  # a puzzle here must hold in each world it was judged in
                assert all(p[found.answer] > max(v for c, v in p.items() if c != found.answer) for p in found.points)
        deal.apply(bot.choose(view))
    assert refused, "every decision of the deal was a puzzle: the judge accepts too much"


def test_a_stored_puzzle_holds_no_card_hidden_from_its_seat():
    for puzzle, data, others in mined():
        shown = {Card.parse(c) for c in CARD.findall(json.dumps(data["view"]))}
        assert shown <= set(view_cards(puzzle.view))
        assert not shown & others  # no card of another seat's hand
        question = puzzle.question_json()
        assert not {"answer", "explanation", "figures", "bots"} & set(question)
        assert {Card.parse(c) for c in CARD.findall(json.dumps(question))} <= set(view_cards(puzzle.view))
        # The explanation names the seat's cards and the point cards by their rank in trumps, never a world's card.
        trump = puzzle.view.trump
        named = {Card.parse(c) for line in puzzle.explanation for c in CARD.findall(line)}
        fixed = {Card.of(r, trump) for r in "JT953"} | {Card.of("5", trump.partner)}
        assert named <= set(view_cards(puzzle.view)) | fixed


def test_the_level_says_which_rule_of_thumb_bots_miss_the_answer():
    for puzzle, _, _ in mined():
        missed = sum(card != puzzle.answer for card in puzzle.bots.values())
        assert puzzle.level == LEVELS[missed]


# ---- the bundled set ----------------------------------------------------------------------------------------
def test_the_bundled_set_has_puzzles_over_several_presets():
    puzzles = load_puzzles()
    assert 40 <= len(puzzles) <= 100
    assert len({p.rules.preset_name for p in puzzles}) >= 3
    assert len({p.id for p in puzzles}) == len(puzzles)
    assert all(p.level in ("medium", "hard") and p.worlds >= 24 for p in puzzles)
    for p in puzzles:  # the answer leads every card by a point in the worst world, by the stored figures
        assert all(f.lost_least >= 1 for c, f in p.figures.items() if c != p.answer)


def test_bundled_claims_hold_in_new_worlds():
    latest = sorted(load_puzzles(), key=lambda p: -p.trick_number)[:2]  # the cheapest to solve
    rng = random.Random(7)
    for puzzle in latest:
        assert all(best_in_world(puzzle, rng) for _ in range(6)), puzzle.id


# ---- reading files and guesses ---------------------------------------------------------------------------------
def test_a_puzzle_file_round_trips_and_bad_files_get_one_line():
    puzzles = [p for p, _, _ in mined()]
    assert loads(dumps(puzzles, "cinch puzzle ...")) == puzzles
    with pytest.raises(PuzzleError, match="not JSON"):
        loads("{")
    with pytest.raises(PuzzleError, match=f"not a puzzle file.*{FORMAT}"):
        loads('{"format": "cinch/1"}')
    data = puzzles[0].to_json()
    del data["answer"]
    with pytest.raises(PuzzleError, match="the field 'answer' is missing"):
        Puzzle.from_json(data)
    data = puzzles[0].to_json()
    data["view"]["hand"] = "ZZ"
    with pytest.raises(PuzzleError, match="is not a card"):
        Puzzle.from_json(data)
    with pytest.raises(PuzzleError, match="used twice"):
        loads(dumps(puzzles[:1] * 2))


def test_a_guess_is_a_legal_card_or_a_clear_refusal():
    puzzle = next(p for p in load_puzzles() if len(p.view.hand) > len(p.legal_cards))
    legal = puzzle.legal_cards
    assert puzzle.read_guess(str(legal[0]).lower()) == legal[0]
    assert puzzle.read_guess("play " + legal[0].symbol) == legal[0]
    with pytest.raises(PuzzleError, match="is not a card"):
        puzzle.read_guess("11x")
    outside = next(Card(c) for c in range(52) if Card(c) not in puzzle.view.hand)
    with pytest.raises(PuzzleError, match="not in your hand; the cards you may play are"):
        puzzle.read_guess(str(outside))
    illegal = next(c for c in puzzle.view.hand if c not in legal)
    with pytest.raises(PuzzleError, match="in your hand but may not be played here"):
        puzzle.read_guess(str(illegal))


def test_the_verdict_tells_right_and_wrong():
    puzzle = load_puzzles()[0]
    right = puzzle.verdict(puzzle.answer)
    assert right.correct and right.lines == puzzle.explanation
    other = next(c for c in puzzle.legal_cards if c != puzzle.answer)
    wrong = puzzle.verdict(other)
    assert not wrong.correct and wrong.lines[0].startswith(f"Your card, {other}, gives away")


def test_view_json_keeps_every_field_of_the_view():
    puzzle = load_puzzles()[0]
    assert Puzzle.from_json(puzzle.to_json()).view == puzzle.view
    assert set(view_json(puzzle.view)) >= {"hand", "auction", "tricks", "current_trick", "legal", "own_discards"}


# ---- the command ----------------------------------------------------------------------------------------------
def run(args: list[str], text: str = ""):
    return CliRunner().invoke(main, ["puzzle", *args], input=text)


def test_the_command_says_right_and_shows_why():
    puzzle = load_puzzles()[0]
    result = run(["--id", puzzle.id, "--plain"], f"{puzzle.answer}\n")
    assert result.exit_code == 0, result.output
    assert f"Puzzle {puzzle.id}" in result.output and "Your hand:" in result.output
    assert "Right:" in result.output and "is the best card in all" in result.output
    assert result.output.index("Your card:") < result.output.index("is the best card in all")  # the answer after


def test_the_command_says_wrong_after_a_bad_card_and_another_try():
    puzzle = load_puzzles()[0]
    other = next(c for c in puzzle.legal_cards if c != puzzle.answer)
    result = run(["--id", puzzle.id, "--plain"], f"zz\n{other}\n")
    assert result.exit_code == 0, result.output
    assert "'zz' is not a card" in result.output and "the cards you may play are" in result.output
    assert "Not the best card: the answer is" in result.output and "gives away" in result.output


def test_the_command_in_rich_mode_and_quitting():
    puzzle = load_puzzles()[-1]
    result = run(["--id", puzzle.id], "show\nquit\n")
    assert result.exit_code == 1
    assert result.output.count(f"Puzzle {puzzle.id}") == 2 and "stays unsolved" in result.output


def test_the_command_lists_filters_and_refuses():
    puzzles = load_puzzles()
    listed = run(["--list", "--rules", "pagat"])
    assert listed.exit_code == 0 and listed.output.count("\n") == sum(p.rules.preset_name == "pagat" for p in puzzles)
    unknown = run(["--rules", "nope"])
    assert unknown.exit_code == 2 and "unknown preset 'nope'" in unknown.output
    missing = run(["--id", "pagat-999"])
    assert missing.exit_code == 2 and "there is no puzzle 'pagat-999'" in missing.output
    assert run(["--mine", "2"]).exit_code == 2  # no --out
    assert "go with --mine" in run(["--out", "x.json"]).output


def test_the_command_mines_a_file_it_can_then_play(tmp_path):
    out = tmp_path / "mine.json"
    result = run(["--mine", str(DEALS), "--rules", "pagat", "--seed", str(SEED), "--easy", "--worlds", "12",
                  "--out", str(out)])
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["command"] == f"cinch puzzle --mine {DEALS} --rules pagat --seed {SEED} --worlds 12 --easy --out {out}"
    puzzles = load_puzzles(out)
    assert [p.answer for p in puzzles] == [p.answer for p, _, _ in mined()]
    first = puzzles[0]
    played = run(["--file", str(out), "--id", first.id, "--plain"], f"{first.answer}\n")
    assert played.exit_code == 0 and "Right:" in played.output
    broken = tmp_path / "broken.json"
    broken.write_text("[]", encoding="utf-8")
    refused = run(["--file", str(broken)])
    assert refused.exit_code == 2 and refused.output.count("\n") == 1 and "not a puzzle file" in refused.output
