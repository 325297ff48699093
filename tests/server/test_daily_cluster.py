"""A daily session on two real ``cinch serve`` processes over one PostgreSQL database and one Redis.

A guest signs in on the first process and plays the day's set there; in the middle of board 1, while a bot is
about to play at the table the first process drives, that process is killed with SIGKILL.  The guest's page
reconnects to the second process with the same token and finds the same board at the same action; the second
process claims the table and plays the bot's turn; the set plays on to its end.  Each board's result is in the
field once, the actions log holds every seq once, and the guest's session is finished and ranked.  PostgreSQL
and Redis come from the ``postgres`` and ``redis_server`` fixtures (conftest.py); without them this is skipped.
"""

from __future__ import annotations

import contextlib
from typing import Any

from playerkit import Browser
from serverkit import LEASE, Player, cluster_options, pg_rows, play_boards, processes

WAIT = 15.0
DEALS = 2


DAILY = ("--daily", "official", "--daily-bots", "basic", "--daily-deals", str(DEALS), "--daily-pace", "0.5")
"""The processes' daily deals: those of ``official``, two boards, basic bots."""


def bot_to_play(state: dict[str, Any] | None) -> bool:
    return bool(state and state["deal"] and state["deal"]["phase"] == "play" and state["deal"]["to_act"] != "S"
                and state["room"]["status"] == "playing" and state["deal"]["tricks"])


def test_a_daily_session_outlives_a_process_killed_mid_deal_and_counts_each_result_once(
        database_url, redis_server, tmp_path):
    with processes(tmp_path / "serve.log", *cluster_options(database_url, redis_server.url), *DAILY,
                   ready="/api/daily", wait=WAIT) as ((a, b), clients):
        guest = Browser(a.url)
        guest.guest("Ann")
        seat = guest.change("POST", "/api/daily/official/play").json()
        assert seat["board"] == 1, seat
        first = Player(a.ws, seat["code"], token=seat["token"])
        clients.append(first)
        travellers: dict[int, Any] = {}
        play_boards(first, "daily", travellers, lambda: bot_to_play(first.state))
        before = first.state
        assert before is not None
        owner = pg_rows(database_url, "SELECT owner FROM rooms WHERE code = %s", seat["code"])[0][0]
        assert f":{a.process.pid}:" in str(owner)  # (the first process drives the table: its bots play there)
        a.kill()  # (while a bot waits before it plays, on the process that is gone)
        first.ws.close_timeout = 1.0
        with contextlib.suppress(Exception):
            first.close()
        # The page reconnects to the other process: the same board at the same action, then the bot plays there.
        again = Player(b.ws, seat["code"], token=seat["token"])
        clients.append(again)
        state = again.until(lambda m: m["type"] == "state", WAIT)
        assert state["seq"] >= before["seq"] and state["room"]["daily"]["board"] == 1
        if state["seq"] == before["seq"]:
            assert state["deal"]["hand"] == before["deal"]["hand"]
        again.until(lambda m: m["type"] == "state" and m["seq"] > before["seq"], LEASE + 15)
        play_boards(again, "daily", travellers,
                    lambda: DEALS in travellers and travellers[DEALS]["session"] is not None)
        assert sorted(travellers) == list(range(1, DEALS + 1))
        for t in travellers.values():
            names = sorted(line["name"] for line in t["traveller"]["results"])
            assert names == ["Ann", "Robot table (basic)"]
        assert travellers[DEALS]["session"]["of"] == 2
        # Each result counted once, and every seq of the table's actions once.
        fid = f"daily/{seat['day']}/official"
        counted = pg_rows(database_url, "SELECT entrant, board FROM duplicate_results WHERE field_id = %s ORDER BY "
                                     "entrant, board", fid)
        people = [board for entrant, board in counted if entrant != "robots"]
        assert people == list(range(1, DEALS + 1))
        assert [board for entrant, board in counted if entrant == "robots"] == list(range(1, DEALS + 1))
        entry = pg_rows(database_url, "SELECT status, boards FROM duplicate_entries WHERE field_id = %s AND "
                                   "entrant <> 'robots'", fid)
        assert entry == [("finished", DEALS)]
        seqs = [r[0] for r in pg_rows(database_url, "SELECT seq FROM actions WHERE room = %s ORDER BY seq",
                                      seat["code"])]
        assert seqs == sorted(set(seqs)) and len(seqs) > 20
        late = Browser(b.url)
        late.http.cookies.update(dict(guest.http.cookies))
        assert late.change("POST", "/api/daily/official/play").status_code == 409  # (played: once a day)


