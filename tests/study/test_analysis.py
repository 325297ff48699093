"""Game analysis (``cinch.study.analysis``) and ``cinch analyze``.

- A deliberate blunder (a trump thrown under the opponents' trick, 21 points double-dummy) is
  marked a blunder with the better card; the best card in the same spot is not marked.
- A reckless bid is marked; the action played is always among the expert's candidates.
- Forced decisions are not judged; the analysis repeats exactly, in one process or a pool.
- The command: text, ``--json``, a match of the library, and one clear line for bad input.

Small searches (2 to 8 worlds) and fixed seeds keep the whole file to a few seconds.
"""

from __future__ import annotations

import json
import pickle
from pathlib import Path

import pytest
from click.testing import CliRunner

from cinch.actions import Keep, Play, parse_action
from cinch.bots import make_bot
from cinch.bots.expert import ExpertBot
from cinch.cards import Card, Seat, Suit
from cinch.cli import main
from cinch.errors import RecordError
from cinch.library import Library
from cinch.record import dumps, loads, replay
from cinch.study.analysis import (
    BLUNDER,
    INACCURACY,
    MISTAKE,
    AnalysisError,
    Judgement,
    Mark,
    Par,
    Settings,
    analyze,
    deal_specs,
    decision_accuracy,
    decision_steps,
    judge,
    load_match,
    mark_of,
    summarise,
)

# A pagat deal (N deals, E bids 7 in spades) stopped on trick 3, W last to play, with K♠ (a trump) and 9♥
# among W's cards: the K♠ gives the other side 21 points more than the 9♥, double-dummy.
DECK = ("2S AS AH 3D QH KC TH 8H AC JC 4S 2H QS 6S TD JS KH 3S 3H TS KD JD 7H 9S AD QC 7C 2D 5S 5D KS 5H 8D 9D "
        "7S 6C 6D 4D 6H 5C 4C 9H 2C 8C TC 4H 9C 3C 8S JH 7D QD")
BEFORE = ["bid 7", "pass", "pass", "pass", "trump S", "keep 9S 8S 7S 4S JH QD", "play AS", "play 3S", "play TS",
          "play 4S", "play 4D", "play 4C", "play 2C", "play QD", "play JH", "play 6D", "play 6H"]
STEP = len(BEFORE) + 1
SMALL = Settings(worlds=4, widening=1)  # (no wider searches: the tests of widening say so)


def record(actions: list[str], players: dict[str, str] | None = None) -> dict:
    out: dict = {"format": "cinch/1", "rules": "pagat", "deals": [{"dealer": "N", "deck": DECK, "actions": actions}]}
    if players:
        out["players"] = players
    return out


def spec_of(actions: list[str]):
    return deal_specs(load_match(record(actions)))[0]


# ---- the judgement of one decision ------------------------------------------------------------------------
def test_a_deliberate_blunder_is_marked_a_blunder_with_the_better_card():
    j = judge(spec_of(BEFORE + ["play KS"]), STEP, SMALL)
    assert j.seat == Seat.W and j.phase == "play" and j.trick == 3 and j.searched
    assert j.mark is Mark.BLUNDER and j.loss >= BLUNDER and j.loss >= 2 * j.error
    assert j.best == Play(Card.parse("9H")) and j.best_value > j.played_value
    assert j.par is not None and j.par.best - j.par.played >= BLUNDER and j.par.best_cards == ("9H",)
    assert "a blunder" in j.text() and "better: play 9♥" in j.text()


# An official deal (N deals, E bids 7 in clubs): on trick 1 E leads the A♣, S plays the 3♣, W the K♣, and N,
# last with 5♠ 9♣ 6♣ (the 5♠ is the left Pedro), throws the Pedro under the opponents' trick: 20 points
# double-dummy.  Searched in 16 worlds only, seed 1 rates it 3.3 points, no mark; seeds 2 to 5 a blunder.
PEDRO_DECK = ("JC 9S 7S 9H 6S 2C 4D AD TH 8H 6D 4S QD 7D AC TD 5C 3C KH 2D QH QS 3D 9C JS 4C 7C QC 3H 7H 4H JD "
              "5H JH 6C KD 8S TC 8C 3S KC KS 2S 9D AH TS AS 8D 5D 6H 5S 2H")
PEDRO_ACTIONS = ["bid 7", "pass", "pass", "pass", "trump C", "keep AS QS 5S KD 9C 6C", "play AC", "play 3C",
                 "play KC", "play 5S"]


def test_a_verdict_in_doubt_is_searched_again_and_marked_the_same_whatever_the_seed():
    pedro = {"format": "cinch/1", "rules": "official",
             "deals": [{"dealer": "N", "deck": PEDRO_DECK, "actions": PEDRO_ACTIONS}]}
    spec = deal_specs(load_match(pedro))[0]
    step = len(PEDRO_ACTIONS)
    assert judge(spec, step, Settings(seed=1, widening=1)).mark is None  # 16 worlds: the interval straddles 5
    judged = [judge(spec, step, Settings(seed=seed)) for seed in range(1, 6)]
    assert [j.mark for j in judged] == [Mark.BLUNDER] * 5
    assert max(j.worlds for j in judged) > 16  # more worlds where the first 16 left the mark in doubt
    for j in judged:
        low, high = j.interval
        assert low < j.loss < high
        assert f"a blunder, about {j.loss:.1f} points lost ({low:.1f} to {high:.1f} in {j.worlds} worlds)" in j.text()
        assert j.to_json()["interval"] == [round(low, 3), round(high, 3)]


def test_the_command_searches_a_mark_in_doubt_again_unless_told_not_to(tmp_path):
    path = tmp_path / "pedro.json"
    path.write_text(json.dumps({"format": "cinch/1", "rules": "official",
                                "deals": [{"dealer": "N", "deck": PEDRO_DECK, "actions": PEDRO_ACTIONS}]}))
    result = CliRunner().invoke(main, ["analyze", str(path), "--seed", "1", "--widening", "1", "--workers", "1"])
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())  # (the lines as Rich wraps them, joined)
    assert "16 worlds a card, 32 playouts a call, trump or keep; seed 1" in text
    assert "trick 1, N: play 5♠*" not in text  # 16 worlds only: no mark (the mark in doubt)


def test_the_best_card_is_not_marked():
    j = judge(spec_of(BEFORE + ["play 9H"]), STEP, SMALL)
    assert j.searched and j.mark is None and j.loss == 0 and j.best == j.played
    assert j.par is not None and j.par.played == j.par.best
    assert j.accuracy == 100


def test_a_reckless_bid_is_marked():
    j = judge(spec_of(["bid 14"]), 1, Settings(worlds=8))  # E's first bid, on a hand worth about 7
    assert j.phase == "bid" and j.seat == Seat.E and j.par is None
    assert j.mark is Mark.BLUNDER and j.best != parse_action("bid 14")


def test_the_action_played_is_always_among_the_candidates():
    spec = spec_of(BEFORE)
    for _, deal, action in spec.positions():
        if isinstance(action, Keep):
            legal = deal.legal_actions()
            odd = next(k for k in legal if k != action)  # a keep the heuristic would hardly make
            view = deal.view(deal.to_act, **spec.context())
            evaluation = ExpertBot(seed=0, worlds=1, playouts=4, match_equity=False).evaluate(view, [odd])
            i = evaluation.index(odd)
            assert i is not None and len(evaluation.values[i]) >= 1
            assert evaluation.decision.unit == "points"
            return
    raise AssertionError("the record has a keep")


def finished(actions: list[str]) -> list[str]:
    """The deal played on to its end by the heuristic bot in every seat."""
    deal = spec_of(actions).start()
    for text in actions:
        deal.apply(parse_action(text))
    bot = make_bot("heuristic", seed=0)
    out = list(actions)
    while not deal.is_over:
        action = bot.choose(deal.view(deal.to_act))
        deal.apply(action)
        out.append(str(action))
    return out


def test_forced_decisions_are_not_judged():
    spec = spec_of(finished(BEFORE + ["play KS"]))
    forced = [step for step, deal, _ in spec.positions() if len(deal.legal_actions()) == 1]
    assert forced  # the last tricks' cards, at least
    steps = decision_steps(spec)
    assert not set(steps) & set(forced) and len(steps) + len(forced) == len(spec.actions)


# ---- marks, accuracy, the summary ---------------------------------------------------------------------------
def test_the_marks_follow_the_thresholds_and_the_noise():
    assert mark_of(INACCURACY - 0.01, 0) is None
    assert mark_of(INACCURACY, 0) is Mark.INACCURACY and mark_of(MISTAKE, 0) is Mark.MISTAKE
    assert mark_of(BLUNDER, 0) is Mark.BLUNDER and mark_of(BLUNDER, BLUNDER / 1.9) is None  # within the noise
    assert decision_accuracy(0, 0) == 100 and decision_accuracy(0.5, 1) == 100  # no loss beyond its error
    assert 100 > decision_accuracy(1, 0) > decision_accuracy(3, 0) > decision_accuracy(8, 0) > 0


def fake(seat: Seat, loss: float, searched: bool = True) -> Judgement:
    a = parse_action("pass")
    return Judgement(a, 0.0, loss, loss, 0.0, 8, 3, searched, deal=1, step=1, seat=seat, phase="bid", trick=None,
                     trump=None, played=a)


def test_a_seat_summary_counts_its_marks_and_averages_its_accuracy():
    judged = [fake(Seat.N, 0), fake(Seat.N, 6), fake(Seat.N, 1.5), fake(Seat.N, 9, searched=False), fake(Seat.E, 3)]
    s = summarise(Seat.N, "Ann", judged)
    assert s.decisions == 3 and s.marks == {Mark.INACCURACY: 1, Mark.MISTAKE: 0, Mark.BLUNDER: 1}
    assert s.accuracy == pytest.approx((100 + decision_accuracy(6, 0) + decision_accuracy(1.5, 0)) / 3)
    assert s.average_loss == pytest.approx(2.5)
    assert summarise(Seat.S, "", judged).accuracy is None


# ---- a whole game ---------------------------------------------------------------------------------------------
def test_the_analysis_repeats_exactly_in_one_process_or_a_pool():
    match = load_match(record(BEFORE + ["play KS"]))
    one = analyze(match, SMALL, workers=1).to_json()
    two = analyze(match, SMALL, workers=2).to_json()
    one.pop("seconds"), two.pop("seconds")
    assert one == two
    (deal,) = one["deals"]
    assert [j["step"] for j in deal["judgements"]] == decision_steps(spec_of(BEFORE + ["play KS"]))
    assert deal["judgements"][-1]["mark"] == "blunder" and one["seats"]["W"]["blunders"] == 1


def test_a_bad_record_or_deal_is_refused_in_words():
    with pytest.raises(RecordError, match="illegal"):
        load_match(record(["bid 7", "bid 7"]))
    with pytest.raises(AnalysisError, match="there is no deal 2: the game has deals 1 to 1"):
        analyze(load_match(record(BEFORE)), SMALL, deals={2})
    with pytest.raises(AnalysisError, match="worlds must be at least 1"):
        Settings(worlds=0)


# ---- the command --------------------------------------------------------------------------------------------
@pytest.fixture
def blunder_file(tmp_path):
    path = tmp_path / "blunder.json"
    path.write_text(dumps(record(BEFORE + ["play KS"], {"N": "Ann", "E": "Bo", "S": "Cy", "W": "Di"})))
    return path


def test_the_command_lists_the_blunder_and_each_players_accuracy(blunder_file):
    result = CliRunner().invoke(main, ["analyze", str(blunder_file), "--worlds", "4", "--workers", "1"])
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Deal 1: N dealt; E bid 7 in spades; in progress." in out
    assert "trick 3, W: play K♠*: a blunder" in out and "better: play 9♥" in out
    assert "Each player" in out and "Di" in out


def test_the_command_reads_the_library_and_prints_json(tmp_path, blunder_file):
    db = tmp_path / "games.sqlite3"
    with Library.open(db) as lib:
        match = replay(json.loads(blunder_file.read_text())).match
        match_id = lib.new_match(match, human_seat=None, seed=None, frontend="plain")
        lib.save(match_id, match)
    result = CliRunner().invoke(main, ["analyze", f"#{match_id}", "--db", str(db), "--json", "--worlds", "4",
                                       "--workers", "1"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["format"] == "cinch-analysis/1" and data["unit"] == "points"
    assert data["settings"] == {"seconds": None, "worlds": 4, "playouts": 8, "seed": 0, "widening": 4}
    blunder = data["deals"][0]["judgements"][-1]
    assert blunder["step"] == STEP and blunder["mark"] == "blunder" and blunder["best"] == "play 9H"
    assert blunder["par"]["best_cards"] == ["9H"] and data["seats"]["W"]["name"] == "Di"


@pytest.mark.parametrize(("args", "words"), [
    (["--worlds", "2", "--time", "1"], "give --worlds or --time, not both"),
    (["--deal", "3"], "there is no deal 3"),
])
def test_the_command_refuses_bad_options_in_one_line(blunder_file, args, words):
    result = CliRunner().invoke(main, ["analyze", str(blunder_file), *args])
    assert result.exit_code == 2 and words in result.output and "Traceback" not in result.output


def test_a_malformed_record_gets_one_clear_line(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "cinch/1", "rules": "pagat", "deals": [{"dealer": "N", "deck": "AS"}]}')
    result = CliRunner().invoke(main, ["analyze", str(bad)])
    assert result.exit_code == 2 and "Traceback" not in result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"{bad}: deal 1") and 'has no "actions"' in lines[0]


RECORDS = Path(__file__).parent.parent / "records"


def judged(bowers: bool) -> Judgement:
    """S plays the JD on a heart lead (the left bower under bowers), where the 5D would have been better."""
    played, best = parse_action("play JD"), parse_action("play 5D")
    return Judgement(deal=1, step=11, seat=Seat.S, phase="play", trick=2, trump=Suit.HEARTS, played=played, best=best,
                     played_value=-6.0, best_value=2.0, loss=8.0, error=0.5, worlds=16, candidates=2, searched=True,
                     par=Par(-5, 1, ("5D",)), bowers=bowers)


def test_a_judgement_stars_the_left_bower_not_the_other_five():
    j = judged(bowers=True)
    text = j.text()
    assert "S: play J♦*: a blunder" in text and "better: play 5♦ (" in text and "the best +1 with 5♦" in text
    data = j.to_json()
    assert data["played_words"] == "play J♦*" and data["best_words"] == "play 5♦"
    # (the same judgement without bowers: the five is the left Pedro, the Jack a plain diamond)
    plain = judged(bowers=False).to_json()
    assert plain["played_words"] == "play J♦" and plain["best_words"] == "play 5♦*"
    # a judgement travels between processes with its flag, not with the tables
    assert pickle.loads(pickle.dumps(j)).to_json()["played_words"] == "play J♦*"


def test_a_judged_decision_of_a_bowers_record_knows_the_bowers():
    record = loads((RECORDS / "official-bowers.json").read_text(encoding="utf-8"))
    spec = deal_specs(load_match(record))[0]
    j = judge(spec, 11, Settings(worlds=2, seed=1))  # action 11: S's left bower on E's ace of trumps
    assert j.bowers and j.trump is Suit.HEARTS and j.seat is Seat.S
    assert str(j.played) == "play JD" and j.to_json()["played_words"] == "play J♦*"
    assert json.dumps(j.to_json())  # (plain JSON, as the replay viewer gets it)
