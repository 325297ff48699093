"""``cinch duplicate`` at the line prompt: a set played with scripted input, its travellers, leaving and resuming,
export (never over the game library), and bad input refused in one line.  Cheap bots, fixed seeds."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from cinch import Rules
from cinch.cli import main
from cinch.duplicate import FINISHED, IN_PROGRESS, DealSet, LibraryStore
from cinch.duplicate_plain import play_set
from cinch.library import Library
from cinch.record import loads, replay
from cinch.table.duplicate import DuplicateSession

SET = ["--plain", "--deals", "2", "--seed", "7", "--rules", "official", "--bots", "basic"]
ANSWERS = "1\n" * 400  # the first choice at every prompt (Enter would do for the keeps)


def run(*args: str, input: str | None = None):
    result = CliRunner().invoke(main, list(args), input=input)
    assert "Traceback" not in result.output, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result


def one_line(result) -> str:
    assert result.exit_code == 2, (result.exit_code, result.output)
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    return lines[0]


def stored(db: Path):
    with Library.open(db, readonly=True) as lib:
        return LibraryStore(lib).attempts()


def test_a_set_of_two_boards_at_the_prompt_shows_each_traveller_against_the_robot_table(tmp_path):
    db = str(tmp_path / "g.sqlite3")
    result = run("duplicate", *SET, "--db", db, input=ANSWERS)
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert out.startswith("Duplicate Cinch, official rules: set 'seed 7', 2 boards, dealt by N E S W in turn.")
    assert "=== Board 1 of 2: N (partner) deals. ===" in out and "=== Board 2 of 2: E deals. ===" in out
    assert "Board 1 is over." in out and "Score:" not in out  # a board stands alone: no match score
    for board, dealer in ((1, "N"), (2, "E")):
        head = f"Board {board} of 'seed 7', dealt by {dealer}: 2 results, best for NS first."
        assert head in out
        traveller = out[out.index(head):].split("\n")
        rows = traveller[2:4]
        assert sorted(r[:8] for r in rows) == ["  robots", "> you   "]  # the robot table, and yours marked
        assert "Hands as dealt:" in traveller[5]
    assert "Ranking over 2 boards (matchpoints %, then total points):" in out
    assert out.rstrip().endswith("Every board of the set is played. `cinch duplicate export 1` writes the set.")
    [attempt] = stored(Path(db))
    assert attempt.status == FINISHED and len(attempt.results) == 2 and attempt.playing is None


def test_a_second_attempt_at_the_same_set_meets_the_first_on_each_traveller(tmp_path):
    db = str(tmp_path / "g.sqlite3")
    run("duplicate", *SET, "--db", db, input=ANSWERS)
    second = run("duplicate", *SET, "--db", db, input="2\n1\n" * 300)  # the second choice where there is one
    out = second.stdout
    assert "Board 1 of 'seed 7', dealt by N: 3 results" in out, out
    assert "  attempt 1" in out and "> you" in out and "  robots" in out
    ranking = out[out.index("Ranking over 2 boards"):].split("\n")[1:4]  # three entrants, this attempt marked
    assert sum(" attempt 1 " in r for r in ranking) == sum(" robots " in r for r in ranking) == 1
    assert [r.startswith(">") for r in ranking].count(True) == 1 and any(" you " in r for r in ranking)
    other = run("duplicate", *SET[:-4], "--rules", "pagat", "--bots", "basic", "--db", db, input=ANSWERS)
    assert "attempt 1" not in other.stdout  # another set (other rules): no earlier attempt at it


def test_leaving_mid_board_and_resuming_goes_on_at_the_same_action(tmp_path):
    db = str(tmp_path / "g.sqlite3")
    first = run("duplicate", *SET, "--db", db, input="1\n" * 6 + "quit\n")
    assert first.exit_code == 0
    assert first.stdout.rstrip().endswith("You quit. The set 'seed 7' stops at board 1 of 2. "
                                          "`cinch duplicate --resume 1` goes on with it.")
    [attempt] = stored(Path(db))
    kept = loads(attempt.playing)["deals"][0]["actions"]
    assert attempt.status == IN_PROGRESS and attempt.results == () and len(kept) >= 4
    second = run("duplicate", "--plain", "--resume", "--db", db, input=ANSWERS)
    assert second.exit_code == 0, second.output
    assert second.stdout.startswith("Resuming attempt 1, official rules: set 'seed 7', 2 boards")
    [done] = stored(Path(db))
    assert done.status == FINISHED
    assert loads(done.results[0].record_text)["deals"][0]["actions"][:len(kept)] == kept  # nothing lost


def test_ctrl_c_loses_nothing(tmp_path):
    class Interrupting(io.StringIO):
        """Answers 1 a few times, then Ctrl-C."""

        def __init__(self) -> None:
            super().__init__()
            self.left = 5

        def readline(self, *args) -> str:
            self.left -= 1
            if self.left < 0:
                raise KeyboardInterrupt
            return "1\n"

    db = tmp_path / "g.sqlite3"
    with Library.open(db) as lib:
        store = LibraryStore(lib)
        session = DuplicateSession.start(store, DealSet.from_seed(7, Rules.preset("official"), 2, bots="basic"))
        out = io.StringIO()
        with pytest.raises(KeyboardInterrupt):
            play_set(session, inp=Interrupting(), out=out)
        made = session.attempt.playing
        assert made is not None and store.attempt(session.attempt.id).playing == made
        # Every action up to the interruption is kept: the board replays to where it stood.
        actions = loads(made)["deals"][0]["actions"]
        assert len(actions) >= 5 and replay(loads(made)).match.current is not None


def test_a_finished_set_is_exported_and_each_board_replays_with_its_shuffle_checked(tmp_path):
    db = str(tmp_path / "g.sqlite3")
    out = tmp_path / "set.json"
    played = run("duplicate", *SET, "--db", db, "--export", str(out), input=ANSWERS)
    assert played.exit_code == 0 and f"The set is written to {out}." in played.stdout
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["format"] == "cinch/1 duplicate" and data["attempt"] == 1 and len(data["results"]) == 2
    assert "secret" not in data["set"] and len(data["set"]["salts"]) == 2
    assert DealSet.from_json(data["set"]).commitments == DealSet.from_seed(7, Rules.preset("official"), 2).commitments
    assert [r["player"] for r in data["robots"]] == ["robots", "robots"]
    again = run("duplicate", "export", "1", "--db", db)
    assert json.loads(again.stdout) == data
    board = tmp_path / "board2.json"
    assert run("duplicate", "export", "1", "--board", "2", "--db", db, "-o", str(board)).exit_code == 0
    replayed = run("replay", "--json", str(board))  # cinch replay checks the deck against the commitment
    assert replayed.exit_code == 0 and json.loads(replayed.stdout)["deals"][0]["dealer"] == "E"


def test_export_never_writes_over_the_game_library(tmp_path):
    db = tmp_path / "g.sqlite3"
    run("duplicate", *SET, "--db", str(db), input=ANSWERS)
    before = db.read_bytes()
    line = one_line(run("duplicate", "export", "1", "--db", str(db), "-o", str(db)))
    assert "will not write the duplicate set to" in line and "it is the game library" in line
    line = one_line(run("duplicate", *SET, "--db", str(db), "--export", str(db), input=ANSWERS))
    assert "will not write the duplicate set to" in line
    assert db.read_bytes() == before and len(stored(db)) == 1  # refused before anything was played


def test_an_unfinished_set_is_not_exported(tmp_path):
    db = str(tmp_path / "g.sqlite3")
    out = tmp_path / "set.json"
    first = run("duplicate", *SET, "--db", db, "--export", str(out), input="quit\n")
    assert "The set is not finished, so nothing is written" in first.stdout and not out.exists()
    line = one_line(run("duplicate", "export", "1", "--db", db))
    assert line == "cinch: attempt 1 is not finished (board 1 of 2 is to play): only a finished set is exported"
    assert "board 1 of attempt 1 is not played yet" in one_line(run("duplicate", "export", "1", "--board", "1",
                                                                     "--db", db))


@pytest.mark.parametrize(("args", "words"), [
    (["-o", "players=3"], "four players in two partnerships"),
    (["-o", "honour_rule=true"], "the honour rule"),
    (["--bots", "nobody"], "unknown bot 'nobody'"),
    (["--rules", "nonesuch"], "nonesuch"),
    (["--resume", "--seed", "3"], "--resume goes on with a set as it was begun"),
    (["--resume", "12"], "no duplicate attempt 12"),
    (["--resume", "x"], "'x' is not an attempt id"),
    (["--deals", "0"], "--deals"),
    (["--plain", "--table"], "choose one"),
    (["--resume", "--no-library"], "leave out --no-library"),
    (["--set", "x" * 200], "at most 100 characters"),
])
def test_bad_input_is_one_line(tmp_path, args, words):
    line = one_line(run("duplicate", "--plain", "--db", str(tmp_path / "g.sqlite3"), *args, input=ANSWERS))
    assert line.startswith("cinch: ") and words in line


def test_the_list_of_attempts(tmp_path):
    db = str(tmp_path / "g.sqlite3")
    run("duplicate", *SET, "--db", db, input=ANSWERS)
    run("duplicate", *SET, "--db", db, input="quit\n")
    lines = run("duplicate", "list", "--db", db).stdout.splitlines()
    assert lines[0].split() == ["ID", "Date", "Set", "Rules", "Boards", "Status", "vs", "robots"]
    assert "2/2" in lines[2] and "finished" in lines[2] and lines[2].endswith("%")
    assert "0/2" in lines[1] and "in progress" in lines[1]


def test_starting_again_offers_to_resume_the_unfinished_set(tmp_path, monkeypatch):
    from cinch.cli import duplicate as cli_duplicate

    db = str(tmp_path / "g.sqlite3")
    run("duplicate", *SET, "--db", db, input="1\nquit\n")
    monkeypatch.setattr(cli_duplicate, "_terminal", lambda: True)  # (a person at a terminal is asked)
    yes = run("duplicate", *SET, "--db", db, input="\nquit\n")
    assert yes.stdout.startswith("Resume attempt 1 (set 'seed 7', official, board 1 of 2)? [Y/n] \n"
                                 "Resuming attempt 1, official rules"), yes.stdout
    no = run("duplicate", *SET, "--db", db, input="n\nquit\n")
    assert "\nDuplicate Cinch, official rules" in no.stdout and "This is attempt 2" in no.stdout
    assert [(a.id, a.status) for a in stored(Path(db))] == [(2, IN_PROGRESS), (1, "abandoned")]
    assert run("duplicate", "--plain", "--resume", "1", "--db", db, input="quit\n").stdout.startswith(
        "Resuming attempt 1")  # an abandoned attempt still goes on when asked for by its id
