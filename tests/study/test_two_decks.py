"""The study tools with two packs (``-o decks=2``, two-deck Cinch): the bid advisor and the game analysis take
it, the variant study runs it (counting each copy of a point card), the puzzle miner and the dataset export
refuse it in one line.  Small fixed numbers of worlds keep the file to a few seconds."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from cinch import Rules, Seat
from cinch.bots import make_bot
from cinch.cli import main
from cinch.errors import CinchError, NotationError
from cinch.match import Match
from cinch.record import dumps, to_record
from cinch.study.advise import AdviceError, advise, parse_hand, position
from cinch.study.analysis import Settings, deal_specs, decision_steps, judge, load_match, par_tricks
from cinch.study.dataset import DatasetError, SelfPlay, match_rows
from cinch.study.puzzles import Puzzle, PuzzleError, load_puzzles, mine_deals
from cinch.study.variants import report_blocks, run_study

TWO = Rules.preset("official").with_options(decks=2)
HAND = "AH AH KH QH JH TH 5H 5H 5D 2H 3S 4S 7C 8C 9D TD 6S 6D"  # eighteen, three cards twice: hearts


def played_deal(rules: Rules = TWO, seed: int = 3) -> Match:
    """A two-deck match of one deal, played by the heuristic in every seat."""
    match = Match(rules, rng=seed)
    bot = make_bot("heuristic", seed=1)
    match.start_deal()
    for seat in match.turns():
        match.apply(bot.choose(match.view(seat)), seat)
    return match


# ---- the bid advisor ---------------------------------------------------------------------------------------
def test_a_two_deck_hand_is_eighteen_cards_with_a_card_held_twice_written_twice():
    hand = parse_hand(HAND, TWO.seating.dealt, TWO.decks)
    assert len(hand) == 18 and str(hand).startswith("6S 4S 3S AH AH KH QH JH TH 5H 5H 2H")
    with pytest.raises(NotationError, match="card AH is written three times"):
        parse_hand("AH " + HAND, 18, 2)
    with pytest.raises(AdviceError, match="a hand is the 18 cards dealt; 'AH AH KH' has 3"):
        position(TWO, "AH AH KH", Seat.S, Seat.W)
    view = position(TWO, HAND, Seat.S, Seat.W, ["pass", "pass"])
    assert view.hand == hand and view.hand_sizes == (18,) * 4  # each copy where the hand holds it


def test_the_advisor_judges_every_suit_and_level_of_a_two_deck_deal():
    view = position(TWO, HAND, Seat.S, Seat.W, ["pass", "pass"])
    advice = advise(view, worlds=3, seed=1)
    hearts = next(s for s in advice.suits if s.suit.letter == "H")
    assert [lv.bid for lv in hearts.levels] == list(range(2, 29))  # bids double: 2 to 28 under official
    assert len(hearts.distribution) == 29 and 0 <= hearts.points.mean <= 28  # a deal holds 28 points
    assert advice.best in view.legal
    result = CliRunner().invoke(main, ["advise", *HAND.split(), "--rules", "official", "-o", "decks=2",
                                       "--dealer", "W", "--bids", "pass, pass", "--worlds", "2", "--json"])
    assert result.exit_code == 0, result.output
    got = json.loads(result.stdout)
    assert "AH AH KH" in got["hand"] and got["rules"] == "official+"
    refused = CliRunner().invoke(main, ["advise", "AH", *HAND.split(), "--rules", "official", "-o", "decks=2",
                                        "--dealer", "W", "--worlds", "2"])
    assert refused.exit_code != 0 and refused.stderr.strip().splitlines() == [
        f"cinch advise: card AH is written three times in 'AH {HAND}'"]


# ---- the analysis ------------------------------------------------------------------------------------------
def test_the_analysis_judges_a_two_deck_deal_with_the_par_of_its_last_tricks():
    """The expert searches two-deck positions; the par names cards by their text, whichever copy was played."""
    match = played_deal()
    spec = deal_specs(load_match(to_record(match)))[0]
    steps = decision_steps(spec)
    first = judge(spec, steps[0], Settings(worlds=2))
    assert first.phase == "bid" and first.searched
    late = [judge(spec, step, Settings(worlds=2)) for step in steps[-8:]]
    assert TWO.tricks - par_tricks(TWO) < min(j.trick or 0 for j in late)
    tricks = match.deals[0].tricks
    twins = [j for j in late if j.trick is not None
             and any(p.seat == j.seat and p.card >= 52 for p in tricks[j.trick - 1].plays)]
    assert twins, "no second-pack card among the last plays"  # (half of a two-deck pack is second-pack cards)
    assert all(j.phase == "play" and j.searched and j.par is not None for j in late), [j.text() for j in late]
    assert all(j.par.best_cards and j.par.played <= j.par.best for j in late if j.par is not None)


def test_cinch_analyze_reads_a_two_deck_record(tmp_path):
    match = Match(TWO, rng=2)
    deal = match.start_deal()
    for _ in range(2):  # a deal in progress: two calls, each judged
        match.apply(deal.legal_actions()[0])
    path = tmp_path / "two-decks.json"
    path.write_text(dumps(to_record(match)), encoding="utf-8")
    result = CliRunner().invoke(main, ["analyze", str(path), "--worlds", "2", "--workers", "1", "--json"])
    assert result.exit_code == 0, result.output
    assert list(json.loads(result.stdout)["seats"]) == ["N", "E", "S", "W"]


# ---- what keeps one pack -----------------------------------------------------------------------------------
def test_the_puzzle_miner_and_a_puzzle_file_refuse_two_decks():
    with pytest.raises(CinchError, match=r"these rules play two packs \(two-deck Cinch\): the puzzle miner keeps "
                                         r"one-pack games for now \(leave out decks=2\)"):
        next(mine_deals(TWO, deals=1, seed=1))
    written = load_puzzles(None)[0].to_json()
    written["view"]["rules"] = {"preset": written["view"]["rules"], "decks": 2}
    with pytest.raises(PuzzleError, match="its rules play two packs"):
        Puzzle.from_json(written)
    result = CliRunner().invoke(main, ["puzzle", "--mine", "1", "--rules", "pagat", "-o", "decks=2", "--out",
                                       "never.json"])
    assert result.exit_code == 2 and result.stderr.strip().endswith("keeps one-pack games for now (leave out "
                                                                     "decks=2)")


def test_the_dataset_export_refuses_two_decks_in_one_line(tmp_path):
    with pytest.raises(DatasetError, match=r"self-play: the dataset export takes one pack only \(52 cards, 2 to 6 "
                                           r"players\): the 188 action ids"):
        SelfPlay(rules=TWO, bots=("random",), seed=1)
    with pytest.raises(DatasetError, match="record/x: the dataset export takes one pack only"):
        next(match_rows(played_deal(), source="record", game="record/x"))
    result = CliRunner().invoke(main, ["export-dataset", str(tmp_path / "rows.jsonl"), "--self-play", "1",
                                       "--rules", "official", "-o", "decks=2", "--seed", "1"])
    assert result.exit_code == 2, result.output
    assert len(result.stderr.strip().splitlines()) == 1 and "leave out decks=2" in result.stderr
    assert not (tmp_path / "rows.jsonl").exists()


# ---- the variant study -------------------------------------------------------------------------------------
def test_the_variant_study_counts_each_copy_of_a_point_card():
    study = run_study([Rules.preset("pagat"), Rules.preset("pagat").with_options(decks=2, players=3)], deals=6,
                      seed=2, bot="basic", workers=1)
    one, two = study.figures
    assert two.to_json()["points_per_deal"]["points_in_a_deal"] == 28
    for figures, copies in ((one, 1), (two, 2)):
        for name, card in figures.card_figures().items():
            assert card["copies"] == copies
            assert card["scored"] + card["not_scored"] == copies * len(figures.contracts), name
    blocks = report_blocks(study)
    assert any("every point card is there twice" in str(text) for kind, text in blocks if kind == "p")
    shares = [cell for kind, body in blocks if kind == "table" and body[0][:2] == ["card", "scored"]
              for row in body[1] for cell in row[1:]]
    assert shares and all(cell == "-" or float(cell.rstrip("%")) <= 100 for cell in shares)
