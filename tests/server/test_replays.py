"""The replay viewer: a record as frames (``cinch.server.replays.frames``) and its HTTP routes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from serverkit import served

from cinch.errors import RecordError
from cinch.library import Library
from cinch.record import dumps, loads, replay, to_record
from cinch.server.replays import MAX_UPLOAD, frames
from cinch.table.narrate import result_lines

RECORDS = Path(__file__).parent.parent / "records"
GOLDEN = ["official-match", "pagat-restock", "difference-thrown-in", "pagat-unfinished-play"]


def golden(name: str) -> dict:
    return loads((RECORDS / f"{name}.json").read_text(encoding="utf-8"))


def hand_cards(frame: dict) -> int:
    return sum(len(cards) for cards in frame["hands"].values())


@pytest.mark.parametrize("name", GOLDEN)
def test_every_deal_has_a_frame_before_each_action_and_after_the_last(name):
    record = golden(name)
    data = frames(record)
    assert len(data["deals"]) == len(record["deals"])
    for number, (deal, entry) in enumerate(zip(data["deals"], record["deals"], strict=True), start=1):
        assert deal["number"] == number and deal["dealer"] == entry["dealer"]
        shown = deal["frames"]
        assert len(shown) == len(entry["actions"]) + 1
        assert [f["step"] for f in shown] == list(range(len(shown)))
        assert shown[0]["action"] is None and shown[0]["narration"].startswith(f"Deal {number}:")
        assert all(len(cards) == 9 for cards in shown[0]["hands"].values())  # every hand open, as dealt
        for frame, text in zip(shown[1:], entry["actions"], strict=True):
            assert frame["action"]["text"] == text and frame["action"]["words"] and frame["narration"]


@pytest.mark.parametrize("name", GOLDEN)
def test_hands_shrink_as_cards_are_played(name):
    data = frames(golden(name))
    for deal in data["deals"]:
        shown = deal["frames"]
        for before, after in zip(shown, shown[1:]):
            if after["action"]["text"].startswith("play"):
                gone = 1 + len((after["trick"]["plays"] or after["last_trick"]["plays"])[-1].get("buried", []))
                assert hand_cards(after) == hand_cards(before) - gone
                card = after["action"]["text"].split()[1]
                seat = after["action"]["seat"]
                assert card in before["hands"][seat] and card not in after["hands"][seat]


@pytest.mark.parametrize("name", GOLDEN)
def test_the_score_and_the_results_are_the_engines(name):
    record = golden(name)
    match = replay(record).match
    data = frames(record)
    assert data["score"] == {"NS": match.score[0], "EW": match.score[1]}
    assert data["deals"][-1]["frames"][-1]["score"] == data["score"]
    if match.winner is not None:
        w = match.winner
        assert data["deals"][-1]["frames"][-1]["narration"].endswith(
            f"{w} win the match, {match.score[w]} to {match.score[w.other]}.")
    assert data["winner"] == (None if match.winner is None else match.winner.name)
    for deal, summary in zip(data["deals"], match.summaries):  # the finished deals
        assert deal["result"]["lines"] == result_lines(summary, None, match.rules, summary.score)
        assert deal["result"]["points"] == (None if summary.result.points is None else
                                            {"NS": summary.result.points[0], "EW": summary.result.points[1]})
        assert deal["frames"][-1]["score"] == {"NS": summary.score[0], "EW": summary.score[1]}
        assert deal["frames"][-1]["phase"] == "done"
    for deal in data["deals"][len(match.summaries):]:  # a deal the record stops inside
        assert deal["result"] is None and deal["frames"][-1]["to_act"] is not None


def test_a_restock_and_a_buried_trick_replay_as_the_record_says():
    data = frames(golden("pagat-restock"))
    deal = data["deals"][0]
    assert deal["restock"] is not None
    trump = next(f for f in deal["frames"] if f["action"] and f["action"]["text"] == "trump H")
    assert "new stock" in trump["narration"] and trump["trump"] == "H" and trump["maker"] == "N"
    lead = deal["frames"][trump["step"] + 1]
    assert lead["trick"]["plays"][0]["buried"] and "burying" in lead["narration"]
    assert lead["action"]["words"].startswith("play A♥*")
    last = deal["frames"][-1]
    assert last["tricks"] == 6 and last["last_trick"]["winner"] == "N" and all(not h for h in last["hands"].values())
    assert "made" in last["narration"] and last["score"] == {"NS": 14, "EW": 0}


def test_the_par_is_beside_each_result_and_a_thrown_in_deal_has_none():
    data = frames(golden("official-match"))
    for deal in data["deals"]:
        par = deal["par"]
        assert par["status"] == "solved" and par["text"].startswith("Par with every card open")
        assert par["took"] == deal["result"]["points"] and f"NS took {par['took']['NS']}" in par["text"]
    thrown = frames(golden("difference-thrown-in"))["deals"]
    assert thrown[0]["result"]["thrown_in"] and thrown[0]["par"] == {"status": "none",
                                                                      "text": "No par: the deal was thrown in."}
    assert "thrown in" in thrown[0]["frames"][-1]["narration"]
    assert thrown[1]["par"]["status"] == "none"  # stops in the bidding
    assert frames(golden("pagat-unfinished-play"))["deals"][0]["par"]["status"] == "solved"  # from the first lead
    assert frames(golden("official-match"), solve=False)["deals"][0]["par"]["status"] == "pending"


def test_a_keep_is_told_with_what_was_thrown():
    data = frames(golden("official-match"))
    keep = next(f for f in data["deals"][0]["frames"] if f["action"] and f["action"]["text"].startswith("keep"))
    seat = keep["action"]["seat"]
    assert keep["narration"].startswith(f"{seat} keeps ") and len(keep["hands"][seat]) == 6


def test_a_bad_record_says_where_and_why():
    record = golden("official-match")
    record["deals"][0]["actions"][1] = "bid 6"
    with pytest.raises(RecordError, match=r"deal 1, action 2: 'bid 6' is illegal: .*Legal there: pass"):
        frames(record)
    with pytest.raises(RecordError, match="format"):
        frames({"format": "cinch/2", "rules": "pagat", "deals": []})


# ---- over HTTP ------------------------------------------------------------------------------------------
@pytest.fixture
def db(tmp_path):
    return tmp_path / "games.sqlite3"


def store(db: Path, record: dict, frontend: str = "plain") -> int:
    with Library.open(db) as lib:
        match = replay(record).match
        match_id = lib.new_match(match, human_seat=None, seed=None, frontend=frontend)
        lib.save(match_id, match)
    return match_id


def test_a_record_posted_comes_back_as_frames(db):
    text = (RECORDS / "official-match.json").read_text(encoding="utf-8")
    with served(db) as srv:
        reply = srv.http.post("/api/replay", content=text.encode())
        assert reply.status_code == 200, reply.text
        data = reply.json()
        assert data == {**frames(loads(text)), "deals": data["deals"]}
        assert [len(d["frames"]) for d in data["deals"]] == [len(d["actions"]) + 1 for d in loads(text)["deals"]]
        assert all(d["par"]["status"] == "solved" for d in data["deals"])  # worked out in the server's pool


def test_a_bad_record_gets_a_clear_400(db):
    record = golden("official-match")
    record["deals"][0]["actions"][1] = "bid 6"
    with served(db) as srv:
        reply = srv.http.post("/api/replay", content=json.dumps(record))
        assert reply.status_code == 400
        error = reply.json()
        assert error["type"] == "error" and error["code"] == "bad-record"
        assert error["message"].startswith("deal 1, action 2: 'bid 6' is illegal") and "Legal there" in error["message"]
        assert "Traceback" not in reply.text
        reply = srv.http.post("/api/replay", content=b'{"format": "cinch/1",')
        assert reply.status_code == 400 and reply.json()["message"].startswith("not valid JSON")
        reply = srv.http.post("/api/replay", content=b"\xff\xfe{}")
        assert reply.status_code == 400 and "UTF-8" in reply.json()["message"]
        reply = srv.http.post("/api/replay", content=b" " * (MAX_UPLOAD + 1))
        assert reply.status_code == 413 and reply.json()["code"] == "too-large"


def test_the_page_and_its_files_are_served(db):
    with served(db) as srv:
        page = srv.http.get("/replay")
        assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
        assert 'data-ready="false"' in page.text and 'data-testid="step-next"' in page.text
        for name, kind in (("replay.js", "text/javascript"), ("replay.css", "text/css")):
            reply = srv.http.get(f"/replay/{name}")
            assert reply.status_code == 200 and reply.headers["content-type"].startswith(kind)
            assert f"/replay/{name}" in page.text


def test_the_library_lists_matches_and_replays_them(db):
    finished = store(db, golden("official-match"))
    unfinished = store(db, golden("pagat-unfinished-play"), frontend="tui")
    with Library.open(db) as lib:
        lib.abandon(unfinished)  # nobody plays it now: its last deal shows, as `cinch replay` shows it
    with served(db) as srv:
        listing = srv.http.get("/api/library").json()["matches"]
        assert [m["id"] for m in listing] == [unfinished, finished]  # newest first
        first = listing[1]
        assert first["status"] == "finished" and first["rules"] == "official" and first["deals"] == 3
        assert first["score"] == {"NS": 56, "EW": 0} and first["winner"] == "NS" and not first["live"]
        assert len(srv.http.get("/api/library", params={"limit": 1}).json()["matches"]) == 1
        data = srv.http.get(f"/api/library/{finished}/replay").json()
        assert [len(d["frames"]) for d in data["deals"]] == [len(d["actions"]) + 1
                                                             for d in golden("official-match")["deals"]]
        assert loads(srv.http.get(f"/api/library/{finished}/record").text)["deals"] == golden("official-match")["deals"]
        assert len(srv.http.get(f"/api/library/{unfinished}/replay").json()["deals"]) == 1
        for path in ("/api/library/999/replay", "/api/library/999/record", "/api/library/nine/replay"):
            reply = srv.http.get(path)
            assert reply.status_code == 404 and reply.json()["code"] == "unknown-match"


def test_a_match_being_played_shows_only_its_finished_deals(db):
    match = replay(golden("pagat-worked-examples")).match
    deal = match.start_deal()  # a third deal, running
    for _ in range(3):
        match.apply(deal.legal_actions()[0])
    match.metadata["server"] = {"room": "SECRET"}  # a private room's code is its invitation
    running = to_record(match)["deals"][-1]
    with Library.open(db) as lib:
        match_id = lib.new_match(match, human_seat=None, seed=None, frontend="server")
        lib.save(match_id, match)
    with served(db) as srv:
        listed = srv.http.get("/api/library").json()["matches"][0]
        assert listed["id"] == match_id and listed["live"] and listed["status"] == "in_progress"
        reply = srv.http.get(f"/api/library/{match_id}/replay")
        assert reply.status_code == 200 and len(reply.json()["deals"]) == 2
        record = srv.http.get(f"/api/library/{match_id}/record").text
        assert len(loads(record)["deals"]) == 2 and running["deck"] not in record
        assert running["deck"] not in reply.text
        assert "SECRET" not in record and "SECRET" not in reply.text and loads(record)["server"] == {}
        assert dumps(loads(record)) == record


def test_a_server_that_does_not_share_the_library_shows_only_its_rooms_matches(db):
    record = json.loads((RECORDS / "official-match.json").read_text(encoding="utf-8"))
    local = store(db, record, frontend="plain")
    online = store(db, record, frontend="server")
    with served(db, share_library=False) as srv:
        listed = [m["id"] for m in srv.http.get("/api/library").json()["matches"]]
        assert listed == [online]
        refused = srv.http.get(f"/api/library/{local}/record")
        assert refused.status_code == 404 and "share-library" in refused.json()["message"]
        assert srv.http.get(f"/api/library/{online}/record").status_code == 200
