"""The game library: the SQLite file that keeps every match, its commands, and `cinch play` saving into it."""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from cinch import Rules, Seat
from cinch.bots import make_bot
from cinch.cli import main
from cinch.cli import play as play_cli_module
from cinch.keep import KeepOptions
from cinch.library import (
    ABANDONED,
    FINISHED,
    IN_PROGRESS,
    SCHEMA_VERSION,
    DamagedRecord,
    Library,
    LibraryError,
    UnknownMatch,
    default_path,
    position_of,
)
from cinch.match import Match
from cinch.record import dumps, loads, replay, to_record
from cinch.table import Saver, Table

PLAYERS = {Seat.N: "basic", Seat.E: "random", Seat.S: "you", Seat.W: "basic"}


def bots_for(seed: int) -> dict:
    return {s: make_bot("basic" if s is Seat.S else PLAYERS[s], seed=seed + s) for s in Seat}


def step(match: Match, bots: dict) -> None:
    """One action (a new deal when none is going on)."""
    deal = match.current or match.start_deal()
    if deal.to_act is None:
        match.resolve_chance()
        return
    seat = deal.to_act
    match.apply(bots[seat].choose(match.view(seat)), seat)


def stored_match(lib: Library, actions: int, *, seed: int = 5, preset: str = "pagat") -> tuple[int, Match]:
    """A match in the library, saved after each of ``actions`` actions."""
    match = Match(Rules.preset(preset), players=PLAYERS, rng=seed)
    match_id = lib.new_match(match, human_seat=Seat.S, seed=seed, frontend="plain", players=PLAYERS)
    bots = bots_for(seed)
    for _ in range(actions):
        step(match, bots)
        lib.save(match_id, match)
    return match_id, match


def next_decision(match: Match) -> tuple:
    deal = match.current
    assert deal is not None
    return deal.to_act, deal.phase, [str(a) for a in deal.legal_actions()]


@pytest.fixture
def lib(tmp_path):
    with Library.open(tmp_path / "games.sqlite3") as library:
        yield library


def one_line(result) -> str:
    assert result.exit_code == 2, (result.exit_code, result.output)
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert "Traceback" not in result.output
    return lines[0]


# ---- the API ------------------------------------------------------------------------------------------
def test_save_list_get_and_export_round_trip(lib, tmp_path):
    first, m1 = stored_match(lib, 40)
    second, m2 = stored_match(lib, 3, seed=8, preset="official")
    got = lib.get(first)
    assert got.record == loads(dumps(to_record(m1)))
    assert got.record_text == dumps(to_record(m1))
    assert (got.rules, got.players, got.human_seat, got.seed, got.frontend) == ("pagat", PLAYERS, Seat.S, 5, "plain")
    assert got.status == IN_PROGRESS and got.winner is None
    assert got.position == position_of(m1) and got.deals == len(m1.deals) and got.score == m1.score
    assert got.created <= got.updated
    assert [m.id for m in lib.list()] == [second, first]  # the most recently saved first
    assert [m.id for m in lib.list(limit=1)] == [second]
    assert [m.id for m in lib.unfinished()] == [second, first]
    lib.abandon(first)
    assert [m.id for m in lib.list(status=ABANDONED)] == [first]
    assert [m.id for m in lib.unfinished()] == [second]

    runner = CliRunner()
    out = runner.invoke(main, ["export", str(first), "--db", str(lib.path)])
    assert out.exit_code == 0 and out.stdout == dumps(to_record(m1))
    target = tmp_path / "out.json"
    assert runner.invoke(main, ["export", f"#{second}", "--db", str(lib.path), "-o", str(target)]).exit_code == 0
    assert replay(loads(target.read_text(encoding="utf-8"))).match.score == m2.score

    lib.delete(second)
    with pytest.raises(UnknownMatch, match=f"no match {second} in the game library"):
        lib.get(second)


def test_resume_continues_at_the_exact_action_and_finishing_records_the_winner(lib):
    match_id, original = stored_match(lib, 57)
    resumed = lib.resume(match_id)
    assert next_decision(resumed) == next_decision(original)
    assert to_record(resumed) == to_record(original)
    # Resuming the same position twice continues the same way (rng and bots from the seed and the position).
    runs = []
    for _ in range(2):
        table = Table.resume(Saver(lib), match_id)
        bots = dict(table.bots)
        bots[Seat.S] = make_bot("basic", seed=99)
        table.match.play_out(lambda v, b=bots: b[v.seat].choose(v))
        runs.append(to_record(table.match))
        resumed = table.match
    assert runs[0] == runs[1]
    lib.finish(match_id, resumed)
    done = lib.get(match_id)
    assert done.status == FINISHED and done.winner == resumed.winner is not None
    assert done.score == resumed.score and done.deals == len(resumed.deals)
    with pytest.raises(LibraryError, match=f"match {match_id} is over"):
        lib.resume(match_id)


def test_a_match_with_no_deal_yet_resumes_with_its_own_first_dealer(lib):
    match = Match(Rules.preset("pagat"), players=PLAYERS, rng=4)
    match_id = lib.new_match(match, human_seat=Seat.S, seed=4, frontend="tui", players=PLAYERS)
    resumed = lib.resume(match_id)
    assert resumed.first_dealer == match.first_dealer and not resumed.deals
    assert lib.get(match_id).frontend == "tui"


def test_a_failed_write_keeps_what_was_saved(tmp_path, monkeypatch):
    monkeypatch.setattr("cinch.library.BUSY_TIMEOUT_MS", 50)
    lib = Library.open(tmp_path / "g.sqlite3")
    match_id, match = stored_match(lib, 10)
    before = lib.get(match_id).record_text
    blocker = sqlite3.connect(lib.path, isolation_level=None)
    blocker.execute("BEGIN IMMEDIATE")  # another program holds the write lock
    step(match, bots_for(5))
    with pytest.raises(LibraryError, match="another program holds the library"):
        lib.save(match_id, match)
    blocker.execute("ROLLBACK")
    blocker.close()
    assert lib.get(match_id).record_text == before
    lib.save(match_id, match)
    assert lib.get(match_id).position == position_of(match)
    lib.close()


def test_schema_is_versioned_and_a_newer_or_foreign_file_is_refused(tmp_path):
    path = tmp_path / "g.sqlite3"
    Library.open(path).close()
    conn = sqlite3.connect(path)
    assert conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone() == (str(SCHEMA_VERSION),)
    assert conn.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    conn.execute("UPDATE meta SET value = '99' WHERE key = 'schema_version'")
    conn.commit()
    conn.close()
    with pytest.raises(LibraryError, match="newer than this cinch knows"):
        Library.open(path)
    other = tmp_path / "other.sqlite3"
    sqlite3.connect(other).execute("CREATE TABLE t (x)").connection.close()
    with pytest.raises(LibraryError, match="not a cinch game library"):
        Library.open(other)
    text = tmp_path / "notes.txt"
    text.write_text("hello " * 200)
    result = CliRunner().invoke(main, ["history", "--db", str(text)])
    assert "not a cinch game library" in one_line(result)


def test_cinch_db_is_honoured(tmp_path, monkeypatch):
    path = tmp_path / "deep" / "folder" / "mine.sqlite3"
    monkeypatch.setenv("CINCH_DB", str(path))
    assert default_path() == path
    result = CliRunner().invoke(main, ["play", "--seed", "3"], input="1\n1\n")
    assert result.exit_code == 0, result.output
    assert "This is match 1 of your game library" in result.stdout
    assert path.is_file()
    with Library.open() as lib:
        assert lib.path == path and [m.id for m in lib.list()] == [1]
    monkeypatch.delenv("CINCH_DB")
    assert default_path().name == "games.sqlite3" and default_path() != path


# ---- the commands -------------------------------------------------------------------------------------
def test_history_text_and_json(lib):
    match_id, match = stored_match(lib, 30)
    done, finished = stored_match(lib, 0, seed=2)
    bots = bots_for(2)
    while not finished.is_over:
        step(finished, bots)
    lib.finish(done, finished)
    runner = CliRunner()
    text = runner.invoke(main, ["history", "--db", str(lib.path)])
    assert text.exit_code == 0, text.output
    lines = text.stdout.splitlines()
    assert lines[0].split() == ["ID", "Date", "Rules", "You", "Bots", "Score", "Status", "Deals"]
    winner = finished.winner.name
    assert lines[1].split()[0] == str(done) and f"{winner} won" in lines[1]
    assert lines[2].split()[0] == str(match_id) and "in progress" in lines[2]
    assert "N basic, E random, W basic" in lines[2] and f"NS {match.score[0]} EW {match.score[1]}" in lines[2]
    data = [json.loads(line) for line in runner.invoke(main, ["history", "--json", "--db", str(lib.path)]).stdout
            .splitlines()]
    assert [d["id"] for d in data] == [done, match_id]
    assert data[0]["status"] == "finished" and data[0]["winner"] == winner
    assert data[1] == {**data[1], "rules": "pagat", "human_seat": "S", "seed": 5, "frontend": "plain",
                       "status": "in_progress", "winner": None, "deals": len(match.deals),
                       "players": {"N": "basic", "E": "random", "S": "you", "W": "basic"},
                       "position": {"deal": len(match.deals), "action": len(match.deals[-1].history)}}
    absent = Path(lib.path).with_name("absent.sqlite3")
    assert "no game library at" in one_line(runner.invoke(main, ["history", "--db", str(absent)]))
    assert not absent.exists()
    empty = Path(lib.path).with_name("empty.sqlite3")
    empty.touch()  # a file with no tables yet is an empty library, read as it is
    result = runner.invoke(main, ["history", "--db", str(empty)])
    assert result.exit_code == 0 and "No matches yet" in result.stdout
    assert empty.stat().st_size == 0


def test_replay_takes_a_match_id_as_well_as_a_file(lib, tmp_path, monkeypatch):
    match_id, match = stored_match(lib, 25)
    runner = CliRunner()
    expected = replay(to_record(match)).to_json()
    for name in (str(match_id), f"#{match_id}"):
        result = runner.invoke(main, ["replay", "--json", "--db", str(lib.path), name])
        assert result.exit_code == 0, result.output
        assert json.loads(result.stdout) == json.loads(json.dumps(expected))
    # A file of that name wins over the library.
    monkeypatch.chdir(tmp_path)
    Path(str(match_id)).write_text(dumps(to_record(Match(Rules.preset("official"), rng=1))), encoding="utf-8")
    result = runner.invoke(main, ["replay", "--json", "--db", str(lib.path), str(match_id)])
    assert json.loads(result.stdout)["rules"] == "official"
    assert "no match 77 in the game library" in one_line(runner.invoke(main, ["replay", "--db", str(lib.path), "77"]))


def test_damaged_record_and_unknown_id_give_exit_2_and_one_line(lib):
    match_id, _ = stored_match(lib, 12)
    illegal_id, _ = stored_match(lib, 12, seed=6)
    conn = sqlite3.connect(lib.path)
    conn.execute("UPDATE matches SET record = '{\"format\": \"cinch/1\", \"rules\": ' WHERE id = ?", (match_id,))
    record = lib.get(illegal_id).record
    record["deals"][0]["actions"][0] = "bid 99"
    conn.execute("UPDATE matches SET record = ? WHERE id = ?", (json.dumps(record), illegal_id))
    conn.commit()
    conn.close()
    db = ["--db", str(lib.path)]
    runner = CliRunner()
    for args in (["resume", str(match_id)], ["replay", str(match_id)], ["export", str(match_id)]):
        line = one_line(runner.invoke(main, [*args, *db]))
        assert f"match {match_id}: the stored record is damaged: not valid JSON" in line, args
    line = one_line(runner.invoke(main, ["resume", str(illegal_id), *db]))
    assert f"match {illegal_id}: the stored record does not replay: deal 1, action 1: 'bid 99' is illegal" in line
    for args in (["resume", "404"], ["export", "404"], ["replay", "404"]):
        assert "no match 404 in the game library" in one_line(runner.invoke(main, [*args, *db])), args
    assert "'x1' is not a match id" in one_line(runner.invoke(main, ["resume", "x1", *db]))
    with pytest.raises(DamagedRecord):
        lib.resume(match_id)
    assert [m.id for m in lib.list()] == [illegal_id, match_id]  # the rest of the library still reads


# ---- cinch play and cinch resume ------------------------------------------------------------------------
def test_play_saves_every_action_and_resume_finishes_the_match(tmp_path):
    db = tmp_path / "g.sqlite3"
    runner = CliRunner()
    first = runner.invoke(main, ["play", "--plain", "--db", str(db), "--seed", "21", "--save",
                                 str(tmp_path / "m.json")], input="1\n" * 9)
    assert first.exit_code == 0, first.output
    assert "`cinch resume 1` continues it." in first.stdout
    with Library.open(db) as lib:
        stored = lib.get(1)
        assert stored.record_text == (tmp_path / "m.json").read_text(encoding="utf-8")
        assert stored.status == IN_PROGRESS and stored.seed == 21
        assert stored.players == {Seat.N: "heuristic", Seat.E: "heuristic", Seat.S: "you", Seat.W: "heuristic"}
        before = next_decision(lib.replay(1))
    assert before[0] is Seat.S
    second = runner.invoke(main, ["resume", "1", "--db", str(db), "--plain"], input="1\n" * 3000)
    assert second.exit_code == 0, second.output
    assert second.stdout.startswith("Resuming match 1: pagat rules")
    assert "win the match" in second.stdout and "match 1 of your game library" in second.stdout
    with Library.open(db) as lib:
        done = lib.get(1)
        match = lib.replay(1)
    assert done.status == FINISHED and done.winner == match.winner is not None
    # The resumed match goes on from the action where the first run stopped.
    old, new = stored.record["deals"], to_record(match)["deals"]
    assert len(old) == stored.position[0] and len(old[-1]["actions"]) == stored.position[1]
    for before_deal, after_deal in zip(old, new):
        assert after_deal["deck"] == before_deal["deck"]
        assert after_deal["actions"][:len(before_deal["actions"])] == before_deal["actions"]
    assert "is over" in one_line(runner.invoke(main, ["resume", "1", "--db", str(db)]))
    none = runner.invoke(main, ["play", "--no-library", "--db", str(db)], input="1\n")
    assert none.exit_code == 0 and "game library" not in none.stdout
    with Library.open(db) as lib:
        assert lib.count() == 1


def test_play_offers_to_resume_the_latest_unfinished_match(tmp_path, monkeypatch):
    db = str(tmp_path / "g.sqlite3")
    runner = CliRunner()
    assert runner.invoke(main, ["play", "--db", db, "--seed", "4"], input="1\n" * 5).exit_code == 0
    # Standard input is not a terminal here: no question, a new match.
    assert "Resume match" not in runner.invoke(main, ["play", "--db", db, "--seed", "5"], input="1\n").stdout
    monkeypatch.setattr(play_cli_module, "_stdin_is_terminal", lambda: True)
    yes = runner.invoke(main, ["play", "--db", db], input="\n1\n")
    assert yes.stdout.startswith("Resume match 2 (pagat, deal 1, NS 0 EW 0)? [Y/n] \nResuming match 2:")
    no = runner.invoke(main, ["play", "--db", db, "--seed", "6"], input="n\n1\n")
    assert no.stdout.startswith("Resume match 2 (pagat, deal 1, NS 0 EW 0)? [Y/n] n\nCinch, pagat rules")
    assert "This is match 3 of your game library" in no.stdout
    skip = runner.invoke(main, ["play", "--db", db, "--new", "--seed", "7"], input="1\n")
    assert "Resume match" not in skip.stdout and "This is match 4" in skip.stdout
    with Library.open(db) as lib:
        assert lib.get(2).status == ABANDONED  # declined: not offered again, `cinch resume 2` still works
        assert lib.resume(2) is not None and lib.get(2).status == IN_PROGRESS


def _read_until(proc: subprocess.Popen, needle: bytes, count: int, deadline: float) -> bytes:
    seen = b""
    while seen.count(needle) < count:
        assert time.monotonic() < deadline, seen[-2000:]
        chunk = os.read(proc.stdout.fileno(), 65536)
        assert chunk, seen[-2000:]
        seen += chunk
    return seen


def test_a_killed_match_is_in_the_library_up_to_its_last_action_and_resumes(tmp_path):
    db = tmp_path / "g.sqlite3"
    env = {**os.environ, "CINCH_DB": str(tmp_path / "not-this.sqlite3"), "PYTHONUNBUFFERED": "1"}
    command = [sys.executable, "-c", "from cinch.cli import main; main()",
               "play", "--plain", "--db", str(db), "--seed", "13"]
    proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    try:
        answers = 7
        proc.stdin.write(b"1\n" * answers)
        proc.stdin.flush()
        # Wait for the prompt after the last answer: every action before it is applied and saved.
        _read_until(proc, b", help]: ", answers + 1, time.monotonic() + 60)
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            stream.close()
    assert proc.returncode == -signal.SIGKILL
    # The same answers in this process: the library holds exactly the match up to the pending decision.
    from cinch.play_plain import new_game

    class Answers:
        def __init__(self, n):
            self.n = n

        def readline(self):
            self.n -= 1
            return "1\n" if self.n >= 0 else ""

    import io

    game = new_game(Rules.preset("pagat"), seed=13, inp=Answers(answers), out=io.StringIO())
    assert game.run() == "eof"
    with Library.open(db) as lib:
        stored = lib.get(1)
        assert stored.status == IN_PROGRESS
        assert stored.record == to_record(game.match)
        assert next_decision(lib.replay(1))[0] is Seat.S
    result = CliRunner().invoke(main, ["resume", "1", "--db", str(db)], input="1\n" * 3000)
    assert result.exit_code == 0, result.output
    with Library.open(db) as lib:
        assert lib.get(1).status == FINISHED and lib.get(1).winner is not None
    assert not (tmp_path / "not-this.sqlite3").exists()


WRITER = """
import sys
from cinch import Rules, Seat
from cinch.bots import make_bot
from cinch.library import Library
from cinch.match import Match
path, seed = sys.argv[1], int(sys.argv[2])
lib = Library.open(path)
for n in range(3):
    m = Match(Rules.preset("pagat"), rng=seed + n)
    i = lib.new_match(m, human_seat=None, seed=seed + n, frontend="test", players={s: "basic" for s in Seat})
    bots = {s: make_bot("basic", seed=seed + s) for s in Seat}
    while not m.is_over:
        deal = m.current or m.start_deal()
        s = deal.to_act
        m.apply(bots[s].choose(m.view(s)), s)
        lib.save(i, m)
        lib.list(limit=5)
        if len(m.deals) > 2 and m.current is None:
            break
    print(i, len(m.deals), sum(len(d.history) for d in m.deals), flush=True)
"""


def test_two_processes_writing_at_once_leave_a_consistent_library(tmp_path):
    db = tmp_path / "g.sqlite3"
    Library.open(db).close()
    procs = [subprocess.Popen([sys.executable, "-c", WRITER, str(db), str(seed)], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for seed in (100, 200)]
    outs = [p.communicate(timeout=120) for p in procs]
    for p, (_, err) in zip(procs, outs):
        assert p.returncode == 0, err
    written = {int(i): (int(d), int(a)) for out, _ in outs for i, d, a in (line.split() for line in out.splitlines())}
    assert sorted(written) == list(range(1, 7))
    conn = sqlite3.connect(db)
    assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    conn.close()
    with Library.open(db) as lib:
        for match_id, (deals, actions) in written.items():
            stored = lib.get(match_id)
            match = lib.replay(match_id)
            assert (len(match.deals), sum(len(d.history) for d in match.deals)) == (deals, actions)
            assert stored.position == position_of(match) and stored.score == match.score


# ---- paths that cannot be used, libraries that cannot be written ------------------------------------------
LONG = "a" * 300  # longer than any file system allows for one name


@pytest.mark.parametrize("command", [["history"], ["export", "1"], ["replay", "1"], ["solve", "1"],
                                     ["resume", "1"], ["play", "--plain"]])
def test_a_name_too_long_for_the_file_system_is_one_line(tmp_path, command):
    db = str(tmp_path / LONG / "lib.sqlite")
    result = CliRunner().invoke(main, [*command, "--db", db], input="")
    line = one_line(result)
    assert f"game library {db}" in line and "File name too long" in line


@pytest.mark.parametrize("command", [["history"], ["export", "1"], ["replay", "1"], ["play", "--plain"]])
def test_a_folder_that_cannot_be_entered_is_one_line(tmp_path, monkeypatch, command):
    # As a user without the right to enter the folder (tests may run as root, who may enter any folder).
    locked = tmp_path / "locked"
    locked.mkdir()
    real_stat = Path.stat

    def stat(self, *args, **kwargs):
        if str(self).startswith(str(locked) + os.sep):
            raise PermissionError(13, "Permission denied", str(self))
        return real_stat(self, *args, **kwargs)

    monkeypatch.setattr(Path, "stat", stat)
    db = locked / "lib.sqlite"
    line = one_line(CliRunner().invoke(main, [*command, "--db", str(db)], input=""))
    assert f"cannot open the game library {db}: Permission denied" in line


@pytest.mark.parametrize("command", [["history"], ["export", "1"], ["replay", "1"], ["solve", "1"],
                                     ["resume", "1"]])
def test_commands_that_do_not_play_never_create_a_library(tmp_path, command):
    db = tmp_path / "nowhere" / "lib.sqlite"
    line = one_line(CliRunner().invoke(main, [*command, "--db", str(db)]))
    assert f"no game library at {db} yet; `cinch play` makes one" in line
    assert not (tmp_path / "nowhere").exists()


@pytest.mark.parametrize("command", [["history"], ["export", "1"], ["replay", "1"], ["solve", "1"],
                                     ["resume", "1"], ["play", "--plain"]])
def test_an_empty_db_option_is_refused(tmp_path, monkeypatch, command):
    fallback = tmp_path / "fallback.sqlite3"
    monkeypatch.setenv("CINCH_DB", str(fallback))
    line = one_line(CliRunner().invoke(main, [*command, "--db", ""], input=""))
    assert "--db needs a path" in line
    assert not fallback.exists()


def _unwritable_folder(monkeypatch, error_name: str, message: str) -> None:
    """SQLite as a user sees it who may not write the library's folder (tests may run as root, who may).

    A WAL library needs its -shm file: where none can be made, SQLite refuses every read with
    ``error_name`` (SQLITE_READONLY for folder permissions, SQLITE_CANTOPEN on a read-only mount)
    unless the file is opened read-only and immutable.
    """
    real = sqlite3.connect

    class Refusing(sqlite3.Connection):
        def execute(self, *args, **kwargs):
            error = sqlite3.OperationalError(message)
            error.sqlite_errorname = error_name
            raise error

    def connect(database, *args, uri=False, **kwargs):
        if uri and "mode=ro" in str(database) and "immutable=1" in str(database):
            return real(database, *args, uri=uri, **kwargs)
        return real(":memory:", *args, factory=Refusing, **kwargs)

    monkeypatch.setattr(sqlite3, "connect", connect)


@pytest.mark.parametrize("error_name, message", [
    ("SQLITE_READONLY", "attempt to write a readonly database"),  # the folder's permissions (mode 555)
    ("SQLITE_CANTOPEN", "unable to open database file"),  # a read-only mount
])
def test_reading_commands_read_a_library_in_a_folder_that_cannot_be_written(lib, monkeypatch, error_name,
                                                                             message):
    match_id, match = stored_match(lib, 30)
    lib.close()
    _unwritable_folder(monkeypatch, error_name, message)
    db = ["--db", str(lib.path)]
    runner = CliRunner()
    history = runner.invoke(main, ["history", *db])
    assert history.exit_code == 0, history.output
    assert history.stdout.splitlines()[1].split()[0] == str(match_id)
    exported = runner.invoke(main, ["export", str(match_id), *db])
    assert exported.exit_code == 0, exported.output
    assert exported.stdout == dumps(to_record(match))
    replayed = runner.invoke(main, ["replay", "--json", str(match_id), *db])
    assert replayed.exit_code == 0, replayed.output
    assert json.loads(replayed.stdout) == json.loads(json.dumps(replay(to_record(match)).to_json()))
    # writing fails, in one line that names the library and says why
    line = one_line(runner.invoke(main, ["resume", str(match_id), "--plain", *db]))
    assert line.startswith(f"cinch: cannot use the game library {lib.path}: ") and message in line


def test_a_library_that_cannot_be_written_is_refused_before_a_match_starts(lib, monkeypatch):
    # SQLite opens a file its user may not write (mode 444) read-only without a word; root writes it anyway,
    # so the test opens every file read-only itself.  A match must not start, to fail at its first save.
    match_id, _ = stored_match(lib, 30)
    lib.close()
    before = lib.path.read_bytes()
    real = sqlite3.connect

    def connect(database, *args, uri=False, **kwargs):
        if not uri:
            database, uri = Path(database).absolute().as_uri() + "?mode=ro", True
        return real(database, *args, uri=uri, **kwargs)

    monkeypatch.setattr(sqlite3, "connect", connect)
    runner = CliRunner()
    for command in (["resume", str(match_id), "--plain"], ["play", "--plain"]):
        line = one_line(runner.invoke(main, [*command, "--db", str(lib.path)], input="1\n" * 20))
        assert f"game library {lib.path}" in line and "the library cannot be written" in line, command
    assert runner.invoke(main, ["history", "--db", str(lib.path)]).exit_code == 0
    assert lib.path.read_bytes() == before


def test_a_library_opened_read_only_is_never_written(lib):
    match_id, match = stored_match(lib, 5)
    lib.close()
    before = lib.path.read_bytes()
    with Library.open(lib.path, readonly=True) as reader:
        assert reader.readonly and reader.get(match_id).position == position_of(match)
        with pytest.raises(LibraryError, match="opened read-only"):
            reader.abandon(match_id)
    assert lib.path.read_bytes() == before
    with pytest.raises(LibraryError, match="no game library at"):
        Library.open(lib.path.with_name("absent.sqlite3"), readonly=True)


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0,
                    reason="root writes a mode 444 file and a mode 555 folder anyway; the simulated "
                           "read-only tests above cover it")
def test_a_read_only_file_in_a_read_only_folder_reads(lib):
    match_id, match = stored_match(lib, 20)
    lib.close()
    folder = lib.path.parent
    lib.path.chmod(0o444)
    folder.chmod(0o555)
    try:
        runner = CliRunner()
        db = ["--db", str(lib.path)]
        assert runner.invoke(main, ["history", *db]).exit_code == 0
        assert runner.invoke(main, ["export", str(match_id), *db]).stdout == dumps(to_record(match))
        assert runner.invoke(main, ["replay", str(match_id), *db]).exit_code == 0
    finally:
        folder.chmod(0o755)
        lib.path.chmod(0o644)


def test_solve_takes_a_match_id_as_replay_does(lib, tmp_path):
    match = Match(Rules.preset("pagat"), players=PLAYERS, rng=5)
    match_id = lib.new_match(match, human_seat=Seat.S, seed=5, frontend="plain", players=PLAYERS)
    bots = bots_for(5)
    while match.current is None or match.current.phase.value != "play" or len(match.current.tricks) < 2:
        step(match, bots)
    lib.save(match_id, match)
    runner = CliRunner()
    by_id = runner.invoke(main, ["solve", "--json", "--db", str(lib.path), f"#{match_id}"])
    assert by_id.exit_code == 0, by_id.output
    path = tmp_path / "m.json"
    path.write_text(dumps(to_record(match)), encoding="utf-8")
    by_file = runner.invoke(main, ["solve", "--json", str(path)])
    assert json.loads(by_id.stdout) == json.loads(by_file.stdout)
    assert json.loads(by_id.stdout)["trick"] == 3
    line = one_line(runner.invoke(main, ["solve", "--db", str(lib.path), "404"]))
    assert line.startswith("404: no match 404 in the game library")


# ---- every table size ----------------------------------------------------------------------------------------
def cut_throat_match(players: int = 3, deals: int = 2) -> Match:
    rules = Rules.preset("official").with_options(players=players)
    seats = rules.seating.seats
    match = Match(rules, players={s: "you" if s == seats[0] else "random" for s in seats}, rng=4)
    rng = random.Random(4)
    while len(match.summaries) < deals:
        deal = match.current
        if deal is None:
            match.start_deal()
        elif deal.to_act is None:
            match.resolve_chance()
        else:
            legal = deal.legal_actions()
            match.apply(next(iter(legal)) if isinstance(legal, KeepOptions) else rng.choice(list(legal)))
    return match


def test_a_cut_throat_match_is_saved_and_listed_with_the_score_by_player(lib):
    match = cut_throat_match(3)
    seats = match.table.seats
    match_id = lib.new_match(match, human_seat=seats[0], seed=4, frontend="plain", players=match.players)
    stored = lib.get(match_id)
    assert stored.score == match.score and len(stored.score) == 3
    assert stored.human_seat == seats[0] and str(stored.human_seat) == "1"
    assert stored.players[seats[2]] == "random"
    assert stored.to_json()["score"] == {"1": match.score[0], "2": match.score[1], "3": match.score[2]}
    assert stored.to_json()["players"] == {"1": "you", "2": "random", "3": "random"}
    assert stored.describe().endswith(f"{match.table.score_text(match.score)})")
    history = one_history(lib)
    assert match.table.score_text(match.score) in history
    assert lib.resume(match_id).score == match.score


def one_history(lib) -> str:
    result = CliRunner().invoke(main, ["history", "--db", str(lib.path)])
    assert result.exit_code == 0, result.output
    return result.output


def test_a_version_2_library_is_migrated_and_its_matches_keep_their_score(tmp_path):
    path = tmp_path / "old.sqlite3"
    with Library.open(path) as library:
        match_id, match = stored_match(library, 30)
    conn = sqlite3.connect(path)  # as cinch with schema 2 left it: no scores column
    conn.execute("ALTER TABLE matches DROP COLUMN scores")
    conn.execute("UPDATE meta SET value = '2' WHERE key = 'schema_version'")
    conn.commit()
    conn.close()
    with Library.open(path, readonly=True) as reader:  # a reader reads it as it is, changing nothing
        assert reader.get(match_id).score == match.score
    with Library.open(path) as writer:  # a writer brings it up to date
        assert writer.get(match_id).score == match.score
        writer.save(match_id, match)
    conn = sqlite3.connect(path)
    assert conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone() == (str(SCHEMA_VERSION),)
    assert json.loads(conn.execute("SELECT scores FROM matches").fetchone()[0]) == {"NS": match.score[0],
                                                                                    "EW": match.score[1]}
    conn.close()


# ---- the resume offer and the history of score sheets (issue 23) ------------------------------------------------
def match_between_deals(lib: Library, seed: int = 5) -> tuple[int, Match]:
    """A match saved right after its first deal ended, before the second is dealt."""
    match = Match(Rules.preset("pagat"), players=PLAYERS, rng=seed)
    match_id = lib.new_match(match, human_seat=Seat.S, seed=seed, frontend="plain", players=PLAYERS)
    bots = bots_for(seed)
    while not match.deals or not match.deals[-1].is_over:
        step(match, bots)
    lib.save(match_id, match)
    return match_id, match


def test_the_resume_offer_of_play_names_the_deal_that_is_played_next(tmp_path, monkeypatch):
    db = tmp_path / "g.sqlite3"
    with Library.open(db) as lib:
        match_id, match = match_between_deals(lib)
        assert lib.get(match_id).position[0] == 1 and len(match.deals) == 1  # saved at the end of deal 1
        score = f"NS {match.score[0]} EW {match.score[1]}"
        assert lib.get(match_id).describe() == f"match {match_id} (pagat, deal 2, {score})"
    monkeypatch.setattr(play_cli_module, "_stdin_is_terminal", lambda: True)
    result = CliRunner().invoke(main, ["play", "--plain", "--db", str(db)], input="\nquit\n")
    assert result.stdout.startswith(f"Resume match {match_id} (pagat, deal 2, {score})? [Y/n] \n"), result.stdout
    with Library.open(db) as lib:
        assert lib.get(match_id).position[0] == 2  # and deal 2 is what went on
    with Library.open(db) as lib:
        during, _ = stored_match(lib, 3, seed=6)
        assert lib.get(during).describe().startswith(f"match {during} (pagat, deal 1, ")  # in deal 1: deal 1


def test_the_resume_offer_of_score_names_the_deal_to_enter_next(tmp_path, monkeypatch):
    db = str(tmp_path / "g.sqlite3")
    first = CliRunner().invoke(main, ["score", "--plain", "--rules", "pagat", "--dealer", "W", "--db", db],
                               input="W 8\n\n9 5\n")
    assert first.exit_code == 0 and "Deal 2, N deals" in first.stdout, first.output
    monkeypatch.setattr(play_cli_module, "_stdin_is_terminal", lambda: True)
    again = CliRunner().invoke(main, ["score", "--plain", "--db", db], input="\n")
    assert again.stdout.startswith("Go on with the score sheet of match 1 (pagat, deal 2, NS 9 EW -8)? [Y/n] \n")
    assert "Deal 2, N deals" in again.stdout


def test_history_lists_a_score_sheet_by_its_players_not_question_marks(tmp_path):
    db = str(tmp_path / "g.sqlite3")
    runner = CliRunner()
    for names in ([], ["--player", "N=Ann", "--player", "S=Cy"]):
        result = runner.invoke(main, ["score", "--plain", "--rules", "pagat", "--dealer", "W", "--db", db, *names],
                               input="W 8\n\n9 5\n")
        assert result.exit_code == 0, result.output
    history = runner.invoke(main, ["history", "--db", db]).stdout
    assert "?" not in history
    rows = history.splitlines()[1:]
    assert "  -    real cards: N Ann, S Cy  NS 9 EW -8  in progress" in rows[0]
    assert "  -    real cards               NS 9 EW -8  in progress" in rows[1]


# ---- the players of `cinch serve` (issue 25) ----------------------------------------------------------------------
def test_a_version_3_library_gains_the_players_tables_and_keeps_its_matches(tmp_path):
    path = tmp_path / "old.sqlite3"
    with Library.open(path) as library:
        match_id, match = stored_match(library, 12)
    conn = sqlite3.connect(path)  # as cinch with schema 3 left it: no players
    for table in ("players", "player_sessions", "player_limits", "player_games"):
        conn.execute(f"DROP TABLE {table}")
    conn.execute("UPDATE meta SET value = '3' WHERE key = 'schema_version'")
    conn.commit()
    conn.close()
    with Library.open(path, readonly=True) as reader:  # a reader reads it as it is
        assert reader.get(match_id).position == position_of(match)
    with Library.open(path) as writer:  # a writer adds the players' tables
        writer.new_guest("id-1", "Cy", "device-hash", 1.0)
        writer.add_player_game("id-1", match_id, "S")
        assert writer.player_games("id-1") == [(match_id, "S")]
        assert writer.get(match_id).position == position_of(match)
    conn = sqlite3.connect(path)
    assert conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone() == (str(SCHEMA_VERSION),)
    assert SCHEMA_VERSION >= 4
    conn.close()
