"""The scorekeeper's phone page's API (``cinch.server.scoresheet``), through Starlette's TestClient.

A whole match (with an undo, a revoke under 002 and under 003, the misdeals of both texts), the
refusals of impossible entries with the scorekeeper's own message, the owner's token, a restarted
server going on with a sheet, a failed save, and hostile input: every refusal is a 4xx with one
clear line, never a 500, and leaves the sheet as it was.
"""

from __future__ import annotations

import json
import warnings
from typing import Any

import pytest
from starlette.exceptions import StarletteDeprecationWarning

with warnings.catch_warnings():  # (Starlette 1.10 would rather have httpx2, which is not a dependency here)
    warnings.simplefilter("ignore", StarletteDeprecationWarning)
    from starlette.testclient import TestClient

from cinch.cards import Seat
from cinch.library import FINISHED, SCOREKEEPER, Library, LibraryError
from cinch.rules import Rules
from cinch.scorekeeper import DealEntry, ScoreSheet
from cinch.server.app import create_app


@pytest.fixture
def db(tmp_path):
    return tmp_path / "games.sqlite3"


@pytest.fixture
def client(db):
    with TestClient(create_app(db)) as c:
        yield c


def new_sheet(client: TestClient, **body: Any) -> tuple[int, dict[str, str], dict[str, Any]]:
    reply = client.post("/api/scoresheets", json=body)
    assert reply.status_code == 201, reply.text
    data = reply.json()
    assert len(data["token"]) >= 32
    return data["id"], {"Authorization": f"Bearer {data['token']}"}, data["sheet"]


def enter(client: TestClient, sheet: int, key: dict[str, str], **entry: Any) -> dict[str, Any]:
    reply = client.post(f"/api/scoresheets/{sheet}/deals", json=entry, headers=key)
    assert reply.status_code == 201, reply.text
    return reply.json()


def refused(reply: Any, status: int | None = None) -> str:
    """A refusal: a 4xx (``status`` if given) whose JSON says what was wrong in one line; that line."""
    assert 400 <= reply.status_code < 500, (reply.status_code, reply.text)
    if status is not None:
        assert reply.status_code == status, (reply.status_code, reply.text)
    data = reply.json()
    assert data["type"] == "error" and data["code"]
    message = data["message"]
    assert isinstance(message, str) and 10 < len(message) < 600 and "\n" not in message, message
    assert "Traceback" not in message and message.endswith("."), message
    return message


def state(client: TestClient, sheet: int, key: dict[str, str]) -> dict[str, Any]:
    reply = client.get(f"/api/scoresheets/{sheet}", headers=key)
    assert reply.status_code == 200, reply.text
    return reply.json()["sheet"]


# ---- a whole match -------------------------------------------------------------------------------------------
MATCH = [  # official (003) to 31, W deals first: each entry as the page sends it
    {"dealer": "W", "calls": ["p 6 p p"], "trump": "S", "points": {"NS": 6, "EW": 8}},
    {"dealer": "N", "maker": "E", "bid": 8, "took": {"High": "NS", "Low": "E", "Jack": None, "Game": "EW",
                                                     "Right Pedro": "S", "Left Pedro": "W"}},
    {"dealer": "E", "maker": "E", "bid": 9, "points": {"NS": 6, "EW": 8},
     "irregularity": {"kind": "revoke", "by": "N"}},
    {"dealer": "S", "irregularity": {"kind": "misdeal", "text": "002"}},
    {"dealer": "S", "maker": "W", "bid": 5, "irregularity": {"kind": "revoke", "by": "EW", "text": "002"}},
    {"dealer": "W", "irregularity": {"kind": "misdeal"}},
    {"dealer": "N", "maker": "S", "bid": 7, "trump": "H", "points": {"NS": 10, "EW": 4}},
]


def test_a_whole_match_with_an_undo_and_a_revoke_under_each_text(client, db):
    sheet, key, first = new_sheet(client, rules="official", target=31, first_dealer="W",
                                  players={"N": "Ann", "S": "Cy", "E": "Bo", "W": ""})
    assert first["rules"]["name"] == "official+" and first["rules"]["target"] == 31
    assert first["rules"]["penalty_text"] == "003" and first["next_dealer"] == "W" and first["next_number"] == 1
    assert first["sides"] == {"NS": "NS (Ann & Cy)", "EW": "EW (Bo)"}
    assert [c["name"] for c in first["rules"]["point_cards"]] == ["High", "Low", "Jack", "Game", "Right Pedro",
                                                                  "Left Pedro"]
    # The same entries on a ScoreSheet of the terminal's: the page must settle every deal exactly so.
    mirror = ScoreSheet(Rules.preset("official").with_options(target="31"), first_dealer=Seat.W)
    rulings = []
    for number, body in enumerate(MATCH, start=1):
        if number == 3:  # a mistyped deal first, taken back
            wrong = enter(client, sheet, key, number=3, dealer="E", maker="S", bid=14, points={"NS": 14, "EW": 0})
            assert wrong["sheet"]["score"] == {"NS": 29, "EW": 2}
            undone = client.post(f"/api/scoresheets/{sheet}/undo", json={"deals": 3}, headers=key)
            assert undone.status_code == 200, undone.text
            assert undone.json()["undone"]["entry"] == {"maker": "S", "bid": 14, "points": {"NS": 14, "EW": 0}}
            assert undone.json()["sheet"]["score"] == {"NS": 15, "EW": 2} and len(undone.json()["sheet"]["deals"]) == 2
        got = enter(client, sheet, key, number=number, **body)
        dealer = Seat.parse(body["dealer"])
        settled = mirror.add(DealEntry.from_json(dealer, {k: v for k, v in body.items() if k != "dealer"}))
        deal = got["deal"]
        assert deal["number"] == number and deal["ruling"] == list(settled.ruling)
        assert got["sheet"]["score"] == {"NS": mirror.score[0], "EW": mirror.score[1]}
        assert got["sheet"]["next_dealer"] == (None if mirror.next_dealer is None else mirror.next_dealer.name)
        rulings.append(deal["ruling"])
    # What the texts say, in the scorekeeper's words (docs/scorekeeper.md has the same examples).
    assert rulings[0][1] == "Difference scoring: the side that took more scores the difference, 8 - 6: EW +2."
    assert rulings[1][0] == "E bid 8: EW took 7, NS 6: set."
    assert rulings[2][:4] == ["E bid 9: EW took 8, NS 6.",
                              "NS revoked (003): play went on, and NS score nothing for the deal.",
                              "A defender revoked, so EW cannot be set: they took 8 of their bid of 9 and score as if "
                              "they had made it.", "Settled: EW +2 (made)."]
    assert rulings[3][0] == "Misdeal: the same dealer deals again (002); no score. S deals again."
    assert rulings[4][1].startswith("EW revoked (002): the other side scores the deal's 14 points")
    assert rulings[4][2] == "Revoke: NS +14, EW -5."
    assert rulings[5][0] == "Misdeal: the dealer loses the deal (003); no score. N deals next."
    final = state(client, sheet, key)
    assert final["winner"] == "NS" and final["score"] == {"NS": 35, "EW": -1}
    assert final["winner_words"] == "NS (Ann & Cy) win the match, 35 to -1."
    assert "NS reach 31, the target: NS win the match, 35 to -1." in final["deals"][-1]["ruling"]
    late = {"number": 8, "dealer": "E", "maker": "N", "bid": 7, "points": {"NS": 7, "EW": 7}}
    assert "The match is over: NS won, 35 to -1" in refused(
        client.post(f"/api/scoresheets/{sheet}/deals", json=late, headers=key), 409)
    # Undo works after the end too; the same deal entered again wins again.
    undone = client.post(f"/api/scoresheets/{sheet}/undo", json={"deals": 7}, headers=key).json()
    assert undone["sheet"]["winner"] is None and undone["sheet"]["score"] == {"NS": 29, "EW": -1}
    assert enter(client, sheet, key, number=7, **MATCH[-1])["sheet"]["winner"] == "NS"
    # Saved in the library as `cinch score` saves it: the same record, the same sheet when read again.
    with Library.open(db) as library:
        stored = library.get(sheet)
        assert stored.frontend == SCOREKEEPER and stored.status == FINISHED and stored.score == (35, -1)
        again = library.sheet(sheet)
    assert [d.ruling for d in again.deals] == [d.ruling for d in mirror.deals]
    assert again.players == {Seat.N: "Ann", Seat.S: "Cy", Seat.E: "Bo"}


def test_the_preset_chooses_the_penalty_text_and_a_revoke_002_needs_no_points(client):
    sheet, key, first = new_sheet(client, rules="additive", first_dealer="N")
    assert first["rules"]["penalty_text"] == "002" and first["rules"]["throw_in"] is True
    got = enter(client, sheet, key, number=1, dealer="N", maker="E", bid=8, irregularity={"kind": "revoke", "by": "EW"})
    assert got["deal"]["ruling"][:2] == [
        "E bid 8.",
        "EW revoked (002): the other side scores the deal's 14 points and EW score nothing; EW were the makers, so "
        "they lose their bid of 8 as a set."]
    assert got["deal"]["irregularity"] == {"kind": "revoke", "by": "EW", "text": "002"}
    assert got["sheet"]["score"] == {"NS": 14, "EW": -8}
    got = enter(client, sheet, key, number=2, dealer="E", maker="N", bid=5, points={"NS": 6, "EW": 8},
                irregularity={"kind": "revoke", "by": "E", "text": "003"})
    assert got["deal"]["ruling"][1] == "EW revoked (003): play went on, and EW score nothing for the deal."
    assert got["sheet"]["score"] == {"NS": 20, "EW": -8}
    thrown = enter(client, sheet, key, number=3, dealer="S", maker=None)
    assert thrown["deal"]["ruling"][0] == "All passed: the deal is thrown in, no score. W deals next."


def test_an_incorrect_hand_is_noted_with_its_ruling_and_changes_no_score(client, db):
    sheet, key, first = new_sheet(client, rules="official", first_dealer="N")
    assert first["rules"]["penalties"]["003"]["incorrect_hand"].startswith("003: too few cards, play goes on")
    assert first["rules"]["penalties"]["002"]["incorrect_hand"].startswith("002 has no ruling on an incorrect hand")
    hands = [{"seat": "E", "too_many": 2}, {"seat": "N", "too_few": 1, "text": "002"}]
    got = enter(client, sheet, key, number=1, dealer="N", maker="E", bid=7, points={"NS": 6, "EW": 8},
                incorrect_hands=hands)
    deal = got["deal"]
    assert deal["ruling"][1:3] == [
        "E held 2 cards too many (003): an opponent drew the excess face down and it went back to the pack; play "
        "went on, and the score is not changed by it.",
        "N held 1 card too few: 002 has no ruling on an incorrect hand, so the deal is settled as entered."]
    assert got["sheet"]["score"] == {"NS": 0, "EW": 2}  # settled from the points, as without them
    # The entry keeps each hand with the text whose ruling applied (the preset's when none was given).
    assert deal["entry"]["incorrect_hands"] == [{"seat": "E", "too_many": 2, "text": "003"},
                                                {"seat": "N", "too_few": 1, "text": "002"}]
    with Library.open(db) as library:
        again = library.sheet(sheet)
    assert list(again.deals[0].ruling) == deal["ruling"]  # read again from the library, the same ruling
    assert [h.describe() for h in again.deals[0].entry.incorrect_hands] == ["E 2 too many (003)", "N 1 too few (002)"]


INCORRECT = [  # an incorrect hand the scorekeeper refuses, and the start of its message
    ({"maker": "E", "bid": 7, "points": {"NS": 6, "EW": 8},
      "incorrect_hands": [{"seat": "E", "too_many": 1}, {"seat": "E", "too_few": 1}]},
     "E's incorrect hand is given twice"),
    ({"maker": "E", "bid": 7, "points": {"NS": 6, "EW": 8}, "incorrect_hands": [{"seat": "E", "too_many": 10}]},
     "An incorrect hand holds 1 to 9 cards too many or too few"),
    ({"irregularity": {"kind": "misdeal"}, "incorrect_hands": [{"seat": "E", "too_many": 1}]},
     "A misdeal is dealt again: it has no bidding, trumps, points or incorrect hand"),
]


@pytest.mark.parametrize(("entry", "says"), INCORRECT, ids=range(len(INCORRECT)))
def test_an_impossible_incorrect_hand_is_refused(client, entry, says):
    sheet, key, _ = new_sheet(client, rules="official", first_dealer="N")
    message = refused(client.post(f"/api/scoresheets/{sheet}/deals", json={"number": 1, "dealer": "N", **entry},
                                  headers=key), 400)
    assert message.startswith(says), message
    assert state(client, sheet, key)["deals"] == []


# ---- refusals ------------------------------------------------------------------------------------------------
IMPOSSIBLE = [  # (rules, entry, the start of the scorekeeper's message)
    ("official", {"dealer": "N", "maker": "E", "bid": 20, "points": {"NS": 6, "EW": 8}},
     "A bid of 20 is out of range: bids run from 1 to 14 under official."),
    ("official", {"dealer": "N", "maker": "E", "bid": 7, "points": {"NS": 9, "EW": 9}},
     "NS 9 and EW 9 make 18, but the point cards hold only 14 under official"),
    ("pagat", {"dealer": "N", "maker": "E", "bid": 7, "points": {"NS": 9, "EW": 4}},
     "NS 9 and EW 4 make 13, but under pagat every point card scores for a side"),
    ("pagat", {"dealer": "N", "maker": "E", "bid": 7, "took": {"High": "NS", "Low": "NS", "Jack": None, "Game": "EW",
                                                                "Right Pedro": "EW", "Left Pedro": "EW"}},
     "Jack cannot go to nobody under pagat"),
    ("official", {"dealer": "S", "maker": "E", "bid": 7, "points": {"NS": 7, "EW": 7}},
     "S cannot deal deal 1: the deal passes to the left, and N deals now."),
    ("official", {"dealer": "N", "calls": ["p 8 p 7"], "points": {"NS": 7, "EW": 7}},
     "Call 4 (N's), bid 7, is illegal"),
    ("official", {"dealer": "N", "maker": "E", "bid": 7, "took": {"High": "NS"}},
     "Say who took Low, Jack, Game, Right Pedro and Left Pedro"),
    ("official", {"dealer": "N", "maker": "E", "bid": 7}, "Say who took the points"),
    ("pagat", {"dealer": "N", "maker": None}, "Under pagat a deal is never thrown in"),
    ("official", {"dealer": "N", "maker": "E", "bid": 7, "points": {"NS": 7, "EW": 7},
                  "irregularity": {"kind": "misdeal"}}, "A misdeal is dealt again"),
]


@pytest.mark.parametrize(("rules", "entry", "says"), IMPOSSIBLE, ids=[m[:24] for _, _, m in IMPOSSIBLE])
def test_an_impossible_entry_is_refused_with_the_scorekeepers_message(client, rules, entry, says):
    sheet, key, _ = new_sheet(client, rules=rules, first_dealer="N")
    message = refused(client.post(f"/api/scoresheets/{sheet}/deals", json={"number": 1, **entry}, headers=key), 400)
    assert message.startswith(says), message
    after = state(client, sheet, key)
    assert after["deals"] == [] and after["score"] == {"NS": 0, "EW": 0}


def test_a_form_sent_twice_and_an_undo_of_nothing_are_refused(client):
    sheet, key, _ = new_sheet(client, rules="official", first_dealer="N")
    body = {"number": 1, "dealer": "N", "maker": "E", "bid": 6, "points": {"NS": 6, "EW": 8}}
    enter(client, sheet, key, **body)
    message = refused(client.post(f"/api/scoresheets/{sheet}/deals", json=body, headers=key), 409)
    assert "This is deal 1, but the sheet holds 1 deal and waits for deal 2" in message
    refused(client.post(f"/api/scoresheets/{sheet}/undo", json={"deals": 2}, headers=key), 409)
    assert client.post(f"/api/scoresheets/{sheet}/undo", json={"deals": 1}, headers=key).status_code == 200
    message = refused(client.post(f"/api/scoresheets/{sheet}/undo", json={}, headers=key), 409)
    assert message == "There is no deal to take back yet."


# ---- whose sheet it is ---------------------------------------------------------------------------------------
def test_only_the_holder_of_the_key_reads_or_changes_a_sheet(client, db):
    ann, ann_key, _ = new_sheet(client, rules="official", first_dealer="N")
    bo, bo_key, _ = new_sheet(client, rules="official", first_dealer="N")
    deal = {"number": 1, "dealer": "N", "maker": "E", "bid": 6, "points": {"NS": 6, "EW": 8}}
    assert "needs its key" in refused(client.post(f"/api/scoresheets/{ann}/deals", json=deal), 401)
    assert "not score sheet" in refused(client.post(f"/api/scoresheets/{ann}/deals", json=deal, headers=bo_key), 403)
    refused(client.get(f"/api/scoresheets/{ann}", headers={"Authorization": "Bearer " + "x" * 32}), 403)
    refused(client.get(f"/api/scoresheets/{ann}", headers={"Authorization": "Bearer ../etc"}), 403)
    refused(client.post(f"/api/scoresheets/{ann}/undo", json={}, headers=bo_key), 403)
    assert state(client, ann, ann_key)["deals"] == []
    # A sheet kept by `cinch score` in the terminal has no key: the page may not change it.
    with Library.open(db) as library:
        terminal = library.new_sheet(ScoreSheet(Rules.preset("pagat")))
    assert "cinch score --resume" in refused(client.get(f"/api/scoresheets/{terminal}", headers=ann_key), 403)
    assert "no score sheet 999" in refused(client.get("/api/scoresheets/999", headers=ann_key), 404)
    refused(client.get("/api/scoresheets/12abc", headers=ann_key), 404)
    refused(client.get("/api/scoresheets/" + "9" * 30, headers=ann_key), 404)
    # The library keeps only the key's hash.
    with Library.open(db) as library:
        record = library.get(ann).record
    assert record["server"]["owner"] != ann_key["Authorization"].split()[1] and len(record["server"]["owner"]) == 64


def test_a_restarted_server_goes_on_with_each_sheet_by_its_id(db):
    with TestClient(create_app(db)) as c:
        sheet, key, _ = new_sheet(c, rules="difference", first_dealer="S", players={"N": "Ann"})
        empty, empty_key, _ = new_sheet(c, rules="official")
        enter(c, sheet, key, number=1, dealer="S", calls=["p p p 4"], trump="C", points={"NS": 5, "EW": 9})
    with TestClient(create_app(db)) as c:
        again = state(c, sheet, key)
        assert again["score"] == {"NS": 0, "EW": 4} and again["next_dealer"] == "W" and again["players"] == {"N": "Ann"}
        assert again["deals"][0]["ruling"][1] == ("Difference scoring: the side that took more scores the difference, "
                                                   "9 - 5: EW +4.")
        enter(c, sheet, key, number=2, dealer="W", maker=None)
        refused(c.get(f"/api/scoresheets/{empty}", headers=key), 403)  # (one sheet's key opens no other)
        assert state(c, empty, empty_key)["next_dealer"] is None  # a sheet with no deal keeps its key too
        enter(c, empty, empty_key, number=1, dealer="E", maker="N", bid=5, points={"NS": 14, "EW": 0})
    with TestClient(create_app(db)) as c:
        assert len(state(c, sheet, key)["deals"]) == 2 and state(c, empty, empty_key)["next_dealer"] == "S"


def test_a_deal_that_cannot_be_saved_is_not_kept(client, monkeypatch):
    sheet, key, _ = new_sheet(client, rules="official", first_dealer="N")
    library = client.app.state.server.library

    def broken(*args: Any) -> None:
        raise LibraryError("the disk is full")

    monkeypatch.setattr(library, "save_sheet", broken)
    reply = client.post(f"/api/scoresheets/{sheet}/deals", json={"dealer": "N", "maker": "E", "bid": 6,
                                                                   "points": {"NS": 6, "EW": 8}}, headers=key)
    assert reply.status_code == 503 and "the disk is full" in reply.json()["message"]
    monkeypatch.undo()
    assert state(client, sheet, key)["deals"] == []


# ---- hostile input -------------------------------------------------------------------------------------------
def nested(depth: int) -> Any:
    value: Any = 1
    for _ in range(depth):
        value = {"NS": value}
    return value


HOSTILE_DEALS: list[Any] = [
    [], "deal", 7, None, True,
    {"dealer": "N", "maker": "E", "bid": 6, "points": {"NS": 6, "EW": 8}, "cheat": 1},
    {"maker": "E", "bid": 6, "points": {"NS": 6, "EW": 8}},
    {"dealer": 5}, {"dealer": ["N"]}, {"dealer": "North-ish"}, {"dealer": "\u202eN"},
    {"dealer": "N", "number": "1"}, {"dealer": "N", "number": -1}, {"dealer": "N", "number": 10**20},
    {"dealer": "N", "maker": "E", "bid": "six", "points": {"NS": 6, "EW": 8}},
    {"dealer": "N", "maker": "E", "bid": True, "points": {"NS": 6, "EW": 8}},
    {"dealer": "N", "maker": "E", "bid": 6.5, "points": {"NS": 6, "EW": 8}},
    {"dealer": "N", "maker": "E", "bid": 10**30, "points": {"NS": 6, "EW": 8}},
    {"dealer": "N", "maker": "E", "bid": -(10**400), "points": {"NS": 6, "EW": 8}},
    {"dealer": "N", "maker": "E", "bid": 6, "points": {"NS": 10**12, "EW": -(10**12)}},
    {"dealer": "N", "maker": "E", "bid": 6, "points": [6, 8]},
    {"dealer": "N", "maker": "E", "bid": 6, "points": {"NS": "6", "EW": 8}},
    {"dealer": "N", "maker": "E", "bid": 6, "points": {"NS": 6, "EW": 8, "XX": 0}},
    {"dealer": "N", "maker": 3, "bid": 6, "points": {"NS": 6, "EW": 8}},
    {"dealer": "N", "maker": "E", "bid": 6, "trump": "X", "points": {"NS": 6, "EW": 8}},
    {"dealer": "N", "maker": "E", "bid": 6, "trump": {"S": 1}, "points": {"NS": 6, "EW": 8}},
    {"dealer": "N", "maker": "E", "bid": 6, "took": ["NS"] * 6},
    {"dealer": "N", "maker": "E", "bid": 6, "took": {"High": 5}},
    {"dealer": "N", "maker": "E", "bid": 6, "took": {"Ace": "NS"}},
    {"dealer": "N", "maker": "E", "bid": 6, "took": {"High": "ns and ew"}},
    {"dealer": "N", "calls": "p 6 p p", "points": {"NS": 6, "EW": 8}},
    {"dealer": "N", "calls": [1, 2, 3], "points": {"NS": 6, "EW": 8}},
    {"dealer": "N", "calls": ["p 6 p p 9 9 9"], "points": {"NS": 6, "EW": 8}},
    {"dealer": "N", "calls": ["bid 99999999"], "points": {"NS": 6, "EW": 8}},
    {"dealer": "N", "calls": ["p"] * 3000, "points": {"NS": 6, "EW": 8}},
    {"dealer": "N", "maker": "E", "bid": 6, "points": {"NS": 6, "EW": 8}, "irregularity": "revoke"},
    {"dealer": "N", "maker": "E", "bid": 6, "points": {"NS": 6, "EW": 8}, "irregularity": {"kind": "revoke"}},
    {"dealer": "N", "maker": "E", "bid": 6, "points": {"NS": 6, "EW": 8},
     "irregularity": {"kind": "revoke", "by": "NS", "text": "004"}},
    {"dealer": "N", "maker": "E", "bid": 6, "points": {"NS": 6, "EW": 8},
     "irregularity": {"kind": "revoke", "by": "NS", "text": 2}},
    {"dealer": "N", "irregularity": {"kind": "misdeal", "by": "N"}},
    {"dealer": "N", "irregularity": {"kind": ["misdeal"], "why": "x"}},
    {"dealer": "N", "maker": "E", "bid": 6, "points": {"NS": nested(12), "EW": 8}},
]


@pytest.mark.parametrize("body", HOSTILE_DEALS, ids=range(len(HOSTILE_DEALS)))
def test_a_hostile_entry_gets_a_clear_4xx_and_changes_nothing(client, body):
    sheet, key, _ = new_sheet(client, rules="official", first_dealer="N")
    refused(client.post(f"/api/scoresheets/{sheet}/deals", content=json.dumps(body), headers=key))
    assert state(client, sheet, key)["deals"] == []


RAW_BODIES = [b"", b"{", b"\xff\xfe", b"[" * 5000 + b"]" * 5000, b'{"dealer": "N", "bid": 1' + b"0" * 5000 + b"}",
              b'{"dealer": "N", "pad": "' + b"x" * 20_000 + b'"}', b"NaN", b'{"dealer": "N", "bid": Infinity}']


@pytest.mark.parametrize("raw", RAW_BODIES, ids=range(len(RAW_BODIES)))
def test_a_body_that_is_not_a_small_json_object_is_refused(client, raw):
    sheet, key, _ = new_sheet(client, rules="official", first_dealer="N")
    refused(client.post(f"/api/scoresheets/{sheet}/deals", content=raw, headers=key))
    refused(client.post("/api/scoresheets", content=raw))
    refused(client.post(f"/api/scoresheets/{sheet}/undo", content=raw if raw else b"[]", headers=key))


HOSTILE_SHEETS: list[Any] = [
    [], "official", {"rules": 5}, {"rules": "nope"}, {"rules": ["official"]}, {"rules": {"preset": "official", "x": 1}},
    {"options": [1]}, {"options": {"sancho": [1]}}, {"options": {"nonsense": "1"}}, {"options": {"target": "many"}},
    {"target": "x"}, {"target": 10**12}, {"target": 0}, {"target": 1.5}, {"players": ["Ann"]},
    {"players": {"X": "Ann"}}, {"players": {"N": 5}}, {"players": {"N": "a" * 41}}, {"players": {"N": "\u202eAnn"}},
    {"players": {"N": {"name": "Ann"}}}, {"first_dealer": "Q"}, {"first_dealer": 1}, {"colour": "green"},
    {"rules": "pagat", "target": 21},
]


@pytest.mark.parametrize("body", HOSTILE_SHEETS, ids=range(len(HOSTILE_SHEETS)))
def test_a_hostile_new_sheet_gets_a_clear_4xx(client, body):
    refused(client.post("/api/scoresheets", content=json.dumps(body)), 400)


def test_a_hostile_undo_gets_a_clear_4xx(client):
    sheet, key, _ = new_sheet(client, rules="official", first_dealer="N")
    enter(client, sheet, key, number=1, dealer="N", maker="E", bid=6, points={"NS": 6, "EW": 8})
    for body in ({"deals": "1"}, {"deals": True}, {"deals": 10**40}, {"deal": 1}, [1], "undo"):
        refused(client.post(f"/api/scoresheets/{sheet}/undo", content=json.dumps(body), headers=key))
    assert len(state(client, sheet, key)["deals"]) == 1


def test_new_sheets_are_rate_limited(client):
    book = client.app.state.server.sheets
    book.tokens = 0.0
    assert "Too many new score sheets" in refused(client.post("/api/scoresheets", json={"rules": "official"}), 429)


def test_the_page_and_its_assets_are_served(client):
    page = client.get("/score")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    assert 'src="/score/score.js"' in page.text and "Content-Security-Policy" in page.headers
    assert client.get("/score/score.js").headers["content-type"].startswith("text/javascript")
    assert client.get("/score/score.css").headers["content-type"].startswith("text/css")


def test_a_sheet_let_go_from_memory_is_read_again_from_the_library(client, monkeypatch):
    book = client.app.state.server.sheets
    # The globals the server's own SheetBook reads: a doctest run may have imported the module a second time.
    monkeypatch.setitem(type(book)._keep.__globals__, "KEEP_SHEETS", 2)
    first, key, _ = new_sheet(client, rules="official", first_dealer="N")
    enter(client, first, key, number=1, dealer="N", maker="E", bid=6, points={"NS": 6, "EW": 8})
    for _ in range(2):
        new_sheet(client, rules="pagat")
    assert first not in book.held and len(book.held) == 2
    again = state(client, first, key)
    assert again["score"] == {"NS": 0, "EW": 2} and first in book.held and len(book.held) == 2
    enter(client, first, key, number=2, dealer="E", maker="S", bid=7, points={"NS": 10, "EW": 4})


def test_a_server_whose_library_keeps_no_sheets_says_so():
    import asyncio
    from types import SimpleNamespace

    from cinch.server.scoresheet import Refused, SheetBook

    book = SheetBook(SimpleNamespace(library=object()))  # (as PostgreSQL's library: no score sheets)
    with pytest.raises(Refused) as refusal:
        asyncio.run(book.create({"rules": "official"}))
    assert refusal.value.status == 501 and "PostgreSQL" in refusal.value.message


# ---- a cut-throat table: seats 1 to n, each player's points ---------------------------------------------------
def test_a_three_player_sheet_through_the_api(client, db):
    sheet, key, first = new_sheet(client, rules="additive", options={"players": 3}, target=21,
                                  players={"1": "Ann", "3": "Cy"}, first_dealer="2")
    rules = first["rules"]
    assert (rules["players"], rules["partnership"], rules["seats"], rules["side_names"]) == (
        3, False, ["1", "2", "3"], ["1", "2", "3"])
    assert rules["irregularities"] is False and first["sides"] == {"1": "1 (Ann)", "2": "2", "3": "3 (Cy)"}
    assert first["score"] == {"1": 0, "2": 0, "3": 0} and first["next_dealer"] == "2"

    made = enter(client, sheet, key, number=1, dealer="2", maker="1", bid=6, trump="H",
                 took={"High": "1", "Low": "2", "Jack": "1", "Game": "1", "Right Pedro": "1", "Left Pedro": "3"})
    assert made["deal"]["ruling"][:2] == ["1 bid 6 in hearts: 1 took 8, 2 1, 3 5: made.",
                                          "Cut-throat scoring: every player adds the points he took: 1 +8, 2 +1, 3 +5."]
    assert made["sheet"]["score"] == {"1": 8, "2": 1, "3": 5} and made["sheet"]["next_dealer"] == "3"
    refusals = [
        ({"dealer": "N", "maker": "1", "bid": 6}, '"dealer" must be one of 1 2 3, not \'N\''),
        ({"dealer": "3", "maker": "4", "bid": 6}, '"maker" must be one of 1 2 3 or null, not \'4\''),
        ({"dealer": "3", "maker": "1", "bid": 6, "points": {"1": 5, "2": 5, "3": 5}},
         "1: 5, 2: 5 and 3: 5 make 15, but the point cards hold only 14"),
        ({"dealer": "3", "maker": "1", "bid": 6, "points": {"NS": 9, "EW": 5}},
         '"points" must be {"1": n, "2": n, "3": n} with whole numbers'),
        ({"dealer": "3", "irregularity": {"kind": "misdeal"}},
         "Misdeals, revokes and incorrect hands are ruled on only at four players in partnerships"),
    ]
    for body, message in refusals:
        assert message in refused(client.post(f"/api/scoresheets/{sheet}/deals", json={"number": 2, **body},
                                              headers=key), 400)
    set_back = enter(client, sheet, key, number=2, dealer="3", maker="2", bid=8, points={"1": 14, "2": 0, "3": 0})
    assert set_back["deal"]["score_change"] == {"1": 14, "2": -8, "3": 0}
    assert set_back["sheet"]["winner"] == "1"
    assert set_back["sheet"]["winner_words"] == "1 (Ann) wins the match with 22 (1: 22, 2: -7, 3: 5)."
    undone = client.post(f"/api/scoresheets/{sheet}/undo", json={"deals": 2}, headers=key)
    assert undone.status_code == 200 and undone.json()["sheet"]["winner"] is None

    with Library.open(db, readonly=True) as lib:
        stored = lib.get(sheet)
        assert stored.frontend == SCOREKEEPER and stored.score == (8, 1, 5)
        assert {str(seat): name for seat, name in stored.players.items()} == {"1": "Ann", "3": "Cy"}


def test_a_cut_throat_sheet_s_names_and_first_dealer_are_by_its_own_seats(client):
    for body, message in (({"options": {"players": 5}, "players": {"N": "Ann"}}, "A player's seat must be one of "
                                                                                 "1 2 3 4 5, not 'N'"),
                          ({"options": {"heasly": True}, "first_dealer": "7"}, '"first_dealer" must be one of '
                                                                                "1 2 3 4 5 6, not '7'")):
        assert message in refused(client.post("/api/scoresheets", json=body), 400)
    _, _, two = new_sheet(client, rules="official", options={"players": 2})
    assert two["rules"]["seats"] == ["1", "2"] and two["score"] == {"1": 0, "2": 0}
