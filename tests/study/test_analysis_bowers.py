"""The analysis under all-hands Pedro (``bowers``): a judgement names the cards by the deal's own trumps,
the left bower starred as a trump and the other five plain, in its text, its JSON and in another process."""

from __future__ import annotations

import json
import pickle
from pathlib import Path

from cinch.actions import parse_action
from cinch.cards import Seat, Suit
from cinch.record import loads
from cinch.study.analysis import Judgement, Par, Settings, deal_specs, judge, load_match

RECORDS = Path(__file__).parent.parent / "records"


def judged(bowers: bool) -> Judgement:
    """S plays the JD on a heart lead (the left bower under bowers), where the 5D would have been better."""
    played, best = parse_action("play JD"), parse_action("play 5D")
    return Judgement(deal=1, step=11, seat=Seat.S, phase="play", trick=2, trump=Suit.HEARTS, played=played, best=best,
                     played_value=-6.0, best_value=2.0, loss=8.0, error=0.5, worlds=16, candidates=2,
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
