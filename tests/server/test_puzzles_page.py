"""The puzzle page (cinch.server.puzzles): the page, the list, a question that hides its answer, the guess."""

from __future__ import annotations

import warnings

import pytest

with warnings.catch_warnings():  # (Starlette would rather have httpx2, which is not a dependency here)
    warnings.simplefilter("ignore")  # (StarletteDeprecationWarning is not a DeprecationWarning)
    from starlette.testclient import TestClient

from cinch.server.app import create_app
from cinch.study.puzzles import load_puzzles


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    with TestClient(create_app(tmp_path_factory.mktemp("puzzles") / "games.sqlite3")) as c:
        yield c


def test_the_page_and_its_script_are_served(client):
    page = client.get("/puzzles")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert "/puzzles/puzzles.js" in page.text and "/static/style.css" in page.text
    script = client.get("/puzzles/puzzles.js")
    assert script.status_code == 200 and "/api/puzzles/" in script.text
    assert client.get("/puzzles/puzzles.css").status_code == 200


def test_the_list_and_a_question_never_hold_the_answer(client):
    listed = client.get("/api/puzzles").json()["puzzles"]
    puzzles = {p.id: p for p in load_puzzles()}
    assert [p["id"] for p in listed] == list(puzzles)
    for entry in listed[:10]:
        puzzle = puzzles[entry["id"]]
        question = client.get(f"/api/puzzles/{puzzle.id}").json()
        assert not {"answer", "explanation", "figures", "bots"} & (set(question) | set(entry))
        assert question["legal"] == [str(c) for c in puzzle.legal_cards] and question["story"]
        assert question["view"]["hand"] == str(puzzle.view.hand)
        # no line shown before the guess tells the answer's figures or the bots' cards
        shown = str(question)
        assert "best card" not in shown and "gives away" not in shown


def test_a_guess_gets_the_verdict_and_the_explanation(client):
    puzzle = load_puzzles()[0]
    right = client.post(f"/api/puzzles/{puzzle.id}/guess", json={"card": str(puzzle.answer)}).json()
    assert right["correct"] is True and right["answer"] == str(puzzle.answer)
    assert len(right["explanation"]) == len(puzzle.explanation) and "best card in all" in right["explanation"][0]
    other = next(c for c in puzzle.legal_cards if c != puzzle.answer)
    wrong = client.post(f"/api/puzzles/{puzzle.id}/guess", json={"card": str(other).lower()}).json()
    assert wrong["correct"] is False and wrong["guess"] == str(other) and "gives away" in wrong["explanation"][0]


def test_bad_guesses_and_unknown_puzzles_get_one_clear_line(client):
    puzzle = load_puzzles()[0]
    url = f"/api/puzzles/{puzzle.id}/guess"
    for body, words in [({"card": "ZZ"}, "is not a card"), ({"card": "2S 3S"}, "type one card"),
                        ({"cards": "2S"}, "must name a card")]:
        answer = client.post(url, json=body)
        assert answer.status_code == 400 and words in answer.json()["message"], answer.json()
        assert "answer" not in answer.json()
    not_json = client.post(url, content=b"{", headers={"content-type": "application/json"})
    assert not_json.status_code == 400 and "must be JSON" in not_json.json()["message"]
    outside = next(c for c in ("AS", "2C", "KH", "7D") if c not in str(puzzle.view.hand).split())
    assert "not in your hand" in client.post(url, json={"card": outside}).json()["message"]
    missing = client.get("/api/puzzles/nope-001")
    assert missing.status_code == 404 and "there is no puzzle 'nope-001'" in missing.json()["message"]
    assert client.post("/api/puzzles/nope-001/guess", json={"card": "AS"}).status_code == 404
