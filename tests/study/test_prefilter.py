"""``--prefilter K``: the advisor and the analysis search only the K calls the learned policy ranks best.

The advisor plays out only the K calls the policy ranks best (and the pass) and names the others as ranked by
the model only; in the analysis the expert compares only the K calls it ranks best (and the pass and the call
played), each judgement saying how many it left to the model, and a card is searched whole.  Rules the models
do not cover are searched whole, saying so; missing weights are one line.  The models here are tiny seeded
weights (``tests/tinyweights.py``): their choices are a test's, not the shipped weights'.
"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from cinch.actions import PASS, parse_action
from cinch.cards import Seat
from cinch.cli import main
from cinch.neural.models import Models
from cinch.record import dumps
from cinch.rules import Rules
from cinch.study.advise import advise, position
from cinch.study.analysis import Settings, deal_specs, judge, load_match
from tinyweights import tiny_weights

HAND = "AS KS QS JS 5S 2H 3D 4C 7C"
CALLS = ["pass", "pass"]
# test_analysis.py's pagat deal: E bids 7 in spades; on trick 3 W, last to play, holds K♠ and 9♥ among six cards.
DECK = ("2S AS AH 3D QH KC TH 8H AC JC 4S 2H QS 6S TD JS KH 3S 3H TS KD JD 7H 9S AD QC 7C 2D 5S 5D KS 5H 8D 9D "
        "7S 6C 6D 4D 6H 5C 4C 9H 2C 8C TC 4H 9C 3C 8S JH 7D QD")
BEFORE = ["bid 7", "pass", "pass", "pass", "trump S", "keep 9S 8S 7S 4S JH QD", "play AS", "play 3S", "play TS",
          "play 4S", "play 4D", "play 4C", "play 2C", "play QD", "play JH", "play 6D", "play 6H"]
STEP = len(BEFORE) + 1


def record(actions: list[str]) -> dict:
    return {"format": "cinch/1", "rules": "pagat", "deals": [{"dealer": "N", "deck": DECK, "actions": actions}]}


def spec_of(actions: list[str]):
    return deal_specs(load_match(record(actions)))[0]


@pytest.fixture(scope="module")
def weights(tmp_path_factory):
    return str(tiny_weights(tmp_path_factory.mktemp("weights")))


def opening(rules: Rules | None = None, seat: Seat = Seat.S, dealer: Seat = Seat.W, calls=CALLS):
    return position(rules or Rules.preset("pagat"), HAND, seat, dealer, calls)


def cinch(*args: str):
    result = CliRunner().invoke(main, list(args))
    assert "Traceback" not in result.output
    return result


# ---- the advisor -------------------------------------------------------------------------------------------------
def test_the_advisor_plays_out_only_the_k_calls_the_policy_ranks_best_and_names_the_others(weights):
    view = opening()
    ranking = [a for a, _ in Models.load(weights).policy(view)]
    advice = advise(view, worlds=6, seed=3, prefilter=2, weights=weights)
    searched = [c.call for c in advice.calls]
    assert set(searched) == set(ranking[:2]) | {PASS}  # the policy's two best, and the pass (every call's yardstick)
    assert len(searched) <= 3 < len(view.legal)
    ranked = [call for call, _ in advice.ranked]
    assert ranked == [a for a in ranking if a not in searched]  # the rest, the likeliest first
    assert set(searched) | set(ranked) == set(view.legal) and not set(searched) & set(ranked)
    assert advice.best in searched
    line = advice.prefilter_line()
    assert line is not None and "ranked by the model only, not searched: " in line and str(ranked[-1]) in line
    whole = advise(view, worlds=6, seed=3)
    assert whole.prefilter_line() is None and len(whole.calls) == len(view.legal)  # (without one: every call)


def test_a_prefilter_as_wide_as_the_calls_leaves_none_out_and_uncovered_rules_are_searched_whole(weights):
    view = opening()
    advice = advise(view, worlds=4, seed=1, prefilter=len(view.legal), weights=weights)
    assert advice.ranked == () and len(advice.calls) == len(view.legal)
    assert "all were searched" in (advice.prefilter_line() or "")
    three = Rules.preset("official").with_options(players=3)
    cut = position(three, "AS KS QS JS 5S 2H 3D 4C 7C", three.seating.parse_seat("1"), three.seating.parse_seat("3"))
    advice = advise(cut, worlds=4, seed=1, prefilter=1, weights=weights)
    assert len(advice.calls) == len(cut.legal) and advice.ranked == ()
    assert advice.prefilter_line() == ("Prefilter: the models do not cover three players (the models know four): "
                                       "every choice was searched.")


def test_cinch_advise_prefilter_says_which_calls_the_model_alone_ranked(weights):
    args = ["advise", *HAND.split(), "--rules", "pagat", "--dealer", "W", "--bids", "pass, pass", "--worlds", "4",
            "--prefilter", "2", "--weights", weights]
    text = cinch(*args)
    assert text.exit_code == 0, text.output
    assert "were searched; ranked by the model only, not searched: bid " in text.output
    data = json.loads(cinch(*args, "--json").output)
    ranked = [r["call"] for r in data["prefilter"]["ranked_only"]]
    assert data["prefilter"]["k"] == 2 and ranked and not set(ranked) & {c["call"] for c in data["calls"]}
    missing = cinch(*args[:-1], weights + "-none")
    assert missing.exit_code == 2 and missing.output.count("\n") == 1
    assert missing.output.startswith("cinch advise: no trained weights in ") and "cinch train" in missing.output


# ---- the analysis ------------------------------------------------------------------------------------------------
def test_the_analysis_compares_only_the_k_calls_the_policy_ranks_best_and_the_call_played(weights):
    spec = spec_of(BEFORE + ["play KS"])
    deal = spec.start()  # (E's opening call, step 1: nine legal calls)
    view = deal.view(deal.to_act, **spec.context())
    j = judge(spec, 1, Settings(worlds=4, widening=1, prefilter=2, weights=weights))
    best_two = [a for a, _ in Models.load(weights).policy(view)[:2]]
    searched = set(best_two) | {PASS, parse_action("bid 7")}  # (and the pass, and the call played)
    assert j.searched and j.candidates == len(searched) < len(view.legal)  # only these were searched
    assert set(j.ranked) == set(view.legal) - searched and str(j.played) == "bid 7"
    assert f"{len(j.ranked)} other choices ranked by the model only, not searched" in j.text()
    assert j.to_json()["ranked_only"] == [str(a) for a in j.ranked]
    plain = judge(spec, 1, Settings(worlds=4, widening=1))
    assert plain.ranked == () and "ranked by the model" not in plain.text()
    card = judge(spec, STEP, Settings(worlds=4, widening=1, prefilter=1, weights=weights))
    assert card.ranked == () and card.candidates == 2  # (a card is searched whole: the solver values every one)


def test_cinch_analyze_prefilter_says_so_in_its_heading_and_its_json(tmp_path, weights):
    path = tmp_path / "blunder.json"
    path.write_text(dumps(record(BEFORE + ["play KS"])))
    base = ["analyze", str(path), "--worlds", "4", "--workers", "1", "--widening", "1", "--deal", "1"]
    text = cinch(*base, "--prefilter", "2", "--weights", weights, "--all")
    assert text.exit_code == 0, text.output
    assert "Prefilter 2: in the bidding, the expert compared only the 2 calls the learned policy ranks best" \
        in text.output
    assert "ranked by the model only, not searched" in text.output
    data = json.loads(cinch(*base, "--prefilter", "2", "--weights", weights, "--json").output)
    assert data["settings"]["prefilter"] == 2
    assert any(j.get("ranked_only") for j in data["deals"][0]["judgements"])
    missing = cinch(*base, "--prefilter", "2", "--weights", weights + "-none")
    assert missing.exit_code == 2 and "no trained weights" in missing.output and missing.output.count("\n") == 1
