"""The server seats the learned ``neural`` bot and chooses its own bot by the CPU a deployment allows.

A room seats ``neural`` bots that play a legal deal over the websocket (on the event loop: they decide in a
millisecond or two); the daily deals take ``--daily-bots neural``; a bad bot's name is one line listing the bots,
neural among them; the server's bot, where nobody names one, is the strongest that ``--bot-time`` allows
(:func:`cinch.server.bots.strongest_bot`); neural is a reserved name and has a rating anchor.  The neural bots here
read tiny seeded weights (``tests/tinyweights.py``), never the shipped ones.
"""

from __future__ import annotations

import asyncio
import json
import socket
from typing import Any

import pytest
from click.testing import CliRunner
from playerkit import Browser, serve_app
from serverkit import Secrets, play_until, served

import cinch.server.daily as daily_module
from cinch.bots import make_bot
from cinch.cli import main
from cinch.cli import serve as serve_cli
from cinch.record import replay
from cinch.server import bots as server_bots
from cinch.server.app import create_app
from cinch.server.bots import BOT_COSTS, DEFAULT_BOT_TIME, SLOW_BOTS, BotCost, strongest_bot
from cinch.server.daily import DailyOptions
from cinch.server.players import account_name
from cinch.server.ratings import ANCHORS
from cinch.server.security import Refused
from cinch.table.advice import available_bots
from helpers import one_line_error
from tinyweights import tiny_weights, use_weights


@pytest.fixture(scope="module")
def weights(tmp_path_factory):
    return tiny_weights(tmp_path_factory.mktemp("weights"))


@pytest.fixture
def neural(weights, monkeypatch):
    """The tiny weights as the package's, for this test."""
    use_weights(monkeypatch, weights)
    assert "neural" in available_bots()


class InProcess:
    """The server's pool of processes, in this process (so that a bot reads the test's weights): each decision in
    a thread.  It has no ``_pool``: the robot table's boards are worked out in threads too."""

    async def think(self, bot: str, seed: int, view: Any) -> tuple[Any, Exception | None]:
        return await asyncio.to_thread(make_bot(bot, seed=seed).choose, view), None

    async def hint(self, bot: str, view: Any) -> tuple[str, str, str]:
        return str(view.legal[0]), "", ""

    def close(self) -> None:
        pass


# ---- a room --------------------------------------------------------------------------------------------------------
def test_a_room_seats_neural_bots_that_play_a_legal_deal(tmp_path, neural):
    with served(tmp_path / "games.sqlite3", seed=26) as srv:
        assert "neural" in srv.http.get("/api/presets").json()["bots"]  # (what the room page offers)
        room, host, me = srv.started_with_bots("neural", bot_delay=0, between_deals=30)
        play_until([me], lambda: me.state["room"]["status"] == "between-deals", timeout=60)
        seats = {s["seat"]: s for s in me.state["room"]["seats"]}
        assert all(seats[s]["kind"] == "bot" and seats[s]["bot"] == "neural" for s in "NEW")
        record = json.loads(srv.http.get(f"/rooms/{room['code']}/record").text)
        assert record["players"]["N"] == "neural" and len(record["deals"]) == 1
        deal = replay(record).match.deals[0]  # (every action replayed through the rules: none was illegal)
        assert deal.result is not None and len(deal.tricks) == 6


def test_a_bot_that_is_not_one_is_refused_in_one_line_naming_neural(tmp_path, neural):
    with served(tmp_path / "games.sqlite3", seed=26) as srv:
        room = srv.create()
        host = srv.player(room["code"], host_token=room["host_token"])
        error = host.error({"type": "fill", "seat": "N", "bot": "nerual"})
        assert error["code"] == "unknown-bot" and "\n" not in error["message"]
        assert "'nerual'" in error["message"] and "neural" in error["message"].split("the bots are")[1]


# ---- the daily deals -------------------------------------------------------------------------------------------------
def one_error(result: Any) -> str:
    return one_line_error(result, prefix="cinch serve: ")


def test_serve_takes_daily_bots_neural_and_refuses_a_bad_name_listing_neural(neural):
    bad = one_error(CliRunner().invoke(main, ["serve", "--daily-bots", "nerual"]))
    assert bad.startswith("cinch serve: --daily-bots 'nerual' is not a bot; the bots are ") and "neural" in bad
    with socket.socket() as taken:  # (a port in use: the server stops there, after the daily's options are taken)
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        line = one_error(CliRunner().invoke(main, ["serve", "--daily-bots", "neural", "--port", str(port)]))
    assert line.startswith(f"cinch serve: cannot listen on 127.0.0.1:{port}"), line


def test_a_daily_set_is_played_with_neural_bots(tmp_path, neural, monkeypatch):
    from test_daily import DAY, Clock, play, sit

    monkeypatch.setattr(daily_module, "secrets", Secrets(2026))
    app = create_app(tmp_path / "games.sqlite3", thinker=InProcess(),  # type: ignore[arg-type]
                     daily=DailyOptions(presets=("official",), bots="neural", deals=1, pace=0, clock=Clock(DAY)))
    with serve_app(app) as url:
        ann = Browser(url)
        ann.guest("Ann")
        assert Browser(url).get("/api/daily/today").json()["bots"] == "neural"
        travellers, p = play(url, sit(ann))
        assert {s["bot"] for s in p.state["room"]["seats"] if s["seat"] != "S"} == {"neural"}
        names = sorted(line["name"] for line in travellers[1]["traveller"]["results"])
        assert names == ["Ann", "Robot table (neural)"]  # (the robot table's four neural bots played the board too)
        p.close()


# ---- the server's own choice ----------------------------------------------------------------------------------------
def test_the_server_chooses_the_strongest_bot_its_cpu_allows():
    costs = (BotCost("heuristic", 0.0, 0.1), BotCost("neural", 1.6, 2.0), BotCost("expert", 1.4, 250.0))
    every = ["random", "basic", "heuristic", "neural", "expert"]
    assert [strongest_bot(ms, every, costs) for ms in (1, 2, 249, 250)] == ["heuristic", "neural", "neural", "neural"]
    weaker = (BotCost("heuristic", 0.0, 0.1), BotCost("neural", -0.5, 2.0), BotCost("expert", 1.4, 250.0))
    assert [strongest_bot(ms, every, weaker) for ms in (5, 250)] == ["heuristic", "expert"]
    unmeasured = (BotCost("heuristic", 0.0, 0.1), BotCost("neural", None, 2.0))
    assert strongest_bot(5, every, unmeasured) == "heuristic"  # (never seated unasked before it is measured)
    assert strongest_bot(250, ["random", "basic", "heuristic"]) == "heuristic"  # (only what is installed)
    assert strongest_bot(0.001, every) == "heuristic"  # (the floor, whatever the budget)
    # The table as shipped: the default budget keeps the expert (unless neural is measured stronger still); a budget
    # of a few ms never seats the expert, and seats neural only if the table measures it stronger than the heuristic.
    neural_strength = {b.name: b.strength for b in BOT_COSTS}["neural"]
    expert = {b.name: b.strength for b in BOT_COSTS}["expert"]
    assert expert is not None
    stronger = neural_strength is not None and neural_strength > expert
    assert strongest_bot(DEFAULT_BOT_TIME, every) == ("neural" if stronger else "expert")
    assert serve_cli.chosen_bot(DEFAULT_BOT_TIME) == strongest_bot(DEFAULT_BOT_TIME, available_bots())
    assert strongest_bot(5, every) == ("neural" if neural_strength is not None and neural_strength > 0 else "heuristic")
    assert serve_cli.DEFAULT_BOT_TIME == server_bots.DEFAULT_BOT_TIME


def test_bot_time_sets_the_pages_first_bot_and_the_daily_bots(tmp_path, neural):
    app = create_app(tmp_path / "games.sqlite3", bot_time=5)
    with serve_app(app) as url:
        presets = Browser(url).get("/api/presets").json()
        assert presets["default_bot"] == strongest_bot(5, presets["bots"]) != "expert"
        assert Browser(url).get("/api/daily/today").json()["bots"] == presets["default_bot"]
    with served(tmp_path / "other.sqlite3") as srv:  # (the default budget: the expert, as before)
        assert srv.http.get("/api/presets").json()["default_bot"] == strongest_bot(DEFAULT_BOT_TIME, available_bots())
        assert strongest_bot(DEFAULT_BOT_TIME, ["heuristic", "expert"]) == "expert"


def test_an_event_without_robots_named_gets_the_servers_bot(tmp_path, neural):
    app = create_app(tmp_path / "games.sqlite3", bot_time=5, daily=DailyOptions(presets=()))
    with serve_app(app) as url:
        host = Browser(url)
        made = host.change("POST", "/api/events", {"rules": "official", "deals": 1, "tables": 1})
        assert made.status_code == 201, made.text
        event = host.get(f"/api/events/{made.json()['id']}").json()
        assert event["robots"] == strongest_bot(5, available_bots()) != "expert"
        named = host.change("POST", "/api/events", {"rules": "official", "deals": 1, "tables": 1, "robots": "neural"})
        assert host.get(f"/api/events/{named.json()['id']}").json()["robots"] == "neural"


def test_neural_thinks_on_the_event_loop_and_the_expert_in_the_pool():
    assert "expert" in SLOW_BOTS and "openspiel-ismcts" in SLOW_BOTS
    assert "neural" not in SLOW_BOTS and "heuristic" not in SLOW_BOTS


def test_neural_is_a_reserved_name_and_is_rated_between_the_heuristic_and_the_expert():
    with pytest.raises(Refused) as refused:
        account_name("Neural")
    assert refused.value.code == "name-unavailable"
    assert ANCHORS["heuristic"] < ANCHORS["neural"] < ANCHORS["expert"]
