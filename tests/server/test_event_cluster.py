"""A private event's table on two real ``cinch serve`` processes over one PostgreSQL database and one Redis.

The host creates an event of one table (two boards, and a robot table of basic bots) on the first process; Ann, a
guest, takes South there, the host fills the other seats with bots and starts it.  In the middle of board 1, while a
bot is about to play at the table the first process drives, that process is killed with SIGKILL.  Ann's page
reconnects to the second process with her seat's token and finds the same board at the same action; the second
process claims the table, plays the bot's turn, and the event plays on to its end there.  Every pair's result on each
board is in the field once (the table's two pairs and the robot table's), each pair has played each board once, the
actions log holds every seq once, the event is final with its ranking, and it is rated once.  PostgreSQL and Redis
come from the ``postgres`` and ``redis_server`` fixtures (conftest.py); without them this is skipped.
"""

from __future__ import annotations

import contextlib
from typing import Any

from playerkit import Browser, browser_headers
from serverkit import LEASE, Player, cluster_options, pg_rows, play_boards, processes

WAIT = 15.0
DEALS = 2


def bot_to_play(state: dict[str, Any] | None) -> bool:
    """A bot's turn in the play of board 1, a trick or more played: the moment to kill the driving process."""
    return bool(state and state["deal"] and state["deal"]["phase"] == "play" and state["deal"]["to_act"] != "S"
                and state["room"]["status"] == "playing" and state["deal"]["tricks"]
                and state["room"]["event"]["board"] == 1)


def test_an_events_table_outlives_the_process_that_drove_it_and_counts_each_result_once(
        database_url, redis_server, tmp_path):
    with processes(tmp_path / "serve.log", *cluster_options(database_url, redis_server.url), wait=WAIT) as (
            (a, b), clients):
        host, ann = Browser(a.url), Browser(a.url)
        made = host.change("POST", "/api/events", {"rules": "official", "deals": DEALS, "tables": 1,
                                                   "robots": "basic", "bot_delay": 0.5, "trick_pause": 0})
        assert made.status_code == 201, made.text
        eid, [code], host_token = made.json()["id"], made.json()["tables"], made.json()["host_token"]
        ann.guest("Ann")
        first = Player(a.ws, code, headers=browser_headers(a.url, ann))
        clients.append(first)
        token = first.join("S", "Ann")
        filled = host.change("POST", f"/api/events/{eid}/fill", {"host_token": host_token, "bot": "basic"})
        assert filled.json() == {"filled": 3}, filled.text
        assert host.change("POST", f"/api/events/{eid}/start", {"host_token": host_token}).status_code == 200
        travellers: dict[int, Any] = {}
        play_boards(first, "event", travellers, lambda: bot_to_play(first.state))
        before = first.state
        assert before is not None
        [(owner,)] = pg_rows(database_url, "SELECT owner FROM rooms WHERE code = %s", code)
        assert f":{a.process.pid}:" in str(owner)  # (the first process drives the table: its bots play there)
        a.kill()  # (while a bot waits before it plays, on the process that is gone)
        first.ws.close_timeout = 1.0
        with contextlib.suppress(Exception):
            first.close()

        # Ann's page reconnects to the other process: the same board at the same action, then the bot plays there.
        again = Player(b.ws, code, headers=browser_headers(b.url, ann), token=token)
        clients.append(again)
        assert again.seat == "S"
        state = again.until(lambda m: m["type"] == "state", WAIT)
        assert state["seq"] >= before["seq"] and state["room"]["event"]["board"] == 1
        if state["seq"] == before["seq"]:
            assert state["deal"]["hand"] == before["deal"]["hand"]
        again.until(lambda m: m["type"] == "state" and m["seq"] > before["seq"], LEASE + 15)
        [(owner,)] = pg_rows(database_url, "SELECT owner FROM rooms WHERE code = %s", code)
        assert f":{b.process.pid}:" in str(owner)  # (the survivor drives it now)
        play_boards(again, "event", travellers, lambda: DEALS in travellers and travellers[DEALS]["final"])
        assert sorted(travellers) == list(range(1, DEALS + 1))
        for t in travellers.values():
            assert sorted(line["table"] or 0 for line in t["traveller"]["results"]) == [0, 1]  # (table 1, robots)

        # The event is over, and every result was counted once.
        shown = Browser(b.url).get(f"/api/events/{eid}").json()
        assert shown["status"] == "over" and shown["final"] and shown["ranking"]["final"]
        fid = f"event/{eid}"
        counted = pg_rows(database_url, "SELECT entrant, board FROM duplicate_results WHERE field_id = %s ORDER BY "
                                        "entrant, board", fid)
        assert counted == [(entrant, board) for entrant in ("T1:EW", "T1:NS", "robots:EW", "robots:NS")
                           for board in range(1, DEALS + 1)]
        entries = pg_rows(database_url, "SELECT entrant, status, boards, rank FROM duplicate_entries WHERE "
                                        "field_id = %s ORDER BY entrant", fid)
        assert [(e, status, boards) for e, status, boards, _ in entries] == [
            (entrant, "finished", DEALS) for entrant in ("T1:EW", "T1:NS", "robots:EW", "robots:NS")]
        assert all(rank is not None for *_, rank in entries)
        seqs = [r[0] for r in pg_rows(database_url, "SELECT seq FROM actions WHERE room = %s ORDER BY seq", code)]
        assert seqs == sorted(set(seqs)) and len(seqs) > 20
        assert pg_rows(database_url, "SELECT count(*) FROM rated_games WHERE key = %s", f"event:{eid}") == [(1,)]
