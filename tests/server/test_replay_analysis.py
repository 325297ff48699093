"""The replay viewer's analysis: a deal's decisions judged in the server's pool, asked for one deal at a time."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from serverkit import served

from cinch.library import Library
from cinch.record import replay
from cinch.server import replays
from cinch.study.analysis import Settings, deal_specs, decision_steps, load_match

# A pagat deal stopped just after W threw a trump (K♠) under the other side's trick, a blunder.
DECK = ("2S AS AH 3D QH KC TH 8H AC JC 4S 2H QS 6S TD JS KH 3S 3H TS KD JD 7H 9S AD QC 7C 2D 5S 5D KS 5H 8D 9D "
        "7S 6C 6D 4D 6H 5C 4C 9H 2C 8C TC 4H 9C 3C 8S JH 7D QD")
ACTIONS = ["bid 7", "pass", "pass", "pass", "trump S", "keep 9S 8S 7S 4S JH QD", "play AS", "play 3S", "play TS",
           "play 4S", "play 4D", "play 4C", "play 2C", "play QD", "play JH", "play 6D", "play 6H", "play KS"]
RECORD = {"format": "cinch/1", "rules": "pagat", "deals": [{"dealer": "N", "deck": DECK, "actions": ACTIONS}]}


@pytest.fixture
def small(monkeypatch):
    monkeypatch.setattr(replays, "ANALYSIS_SETTINGS", Settings(worlds=4, widening=1))  # quick: a test of the route
    monkeypatch.setattr(replays, "_ANALYSES", {})


def test_a_deal_is_analysed_on_request_and_each_judgement_names_its_frame(tmp_path: Path, small):
    db = tmp_path / "games.sqlite3"
    with Library.open(db) as lib:
        match = replay(RECORD).match
        match_id = lib.new_match(match, human_seat=None, seed=None, frontend="plain")
        lib.save(match_id, match)
        lib.abandon(match_id)  # nobody plays it now: its last deal shows (a live deal's cards never would)
    with served(db) as srv:
        reply = srv.http.post("/api/replay/analysis", params={"deal": "1"}, content=json.dumps(RECORD))
        assert reply.status_code == 200, reply.text
        data = reply.json()
        assert data["status"] == "done" and data["number"] == 1 and data["settings"]["worlds"] == 4
        steps = [j["step"] for j in data["judgements"]]
        assert steps == decision_steps(deal_specs(load_match(RECORD))[0])
        last = data["judgements"][-1]
        assert last["step"] == len(ACTIONS) and last["seat"] == "W" and last["mark"] == "blunder"
        assert last["best"] == "play 9H" and data["seats"]["W"]["blunders"] == 1 and "1 marked" in data["text"]
        again = srv.http.get(f"/api/library/{match_id}/analysis", params={"deal": "1"})  # the same deal: kept
        assert again.status_code == 200 and again.json() == data
        for params in ({"deal": "2"}, {"deal": "x"}, {}):
            bad = srv.http.post("/api/replay/analysis", params=params, content=json.dumps(RECORD))
            assert bad.status_code == 400 and bad.json()["message"].startswith("deal must be a deal's number, 1 to 1")
        bad = srv.http.post("/api/replay/analysis", params={"deal": "1"}, content=b'{"format": "cinch/1",')
        assert bad.status_code == 400 and bad.json()["message"].startswith("not valid JSON")
        assert srv.http.get("/api/library/999/analysis", params={"deal": "1"}).status_code == 404


def test_the_viewer_has_the_analysis_panel(tmp_path: Path):
    with served(tmp_path / "games.sqlite3") as srv:
        page = srv.http.get("/replay").text
        assert 'data-testid="analyse"' in page and 'data-testid="analysis-mark"' in page
        script = srv.http.get("/replay/replay.js").text
        assert "/api/replay/analysis?" in script and "/analysis?" in script
