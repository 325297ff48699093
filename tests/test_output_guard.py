"""No command writes a record, a plot, a dataset, a puzzle file or a report over the game library or any
other SQLite file, however the library is named; a database refused as a library is left byte for byte;
and a --save that cannot be written is refused before the first deal (issue 23, items 1 to 3).

Every check compares the file's bytes before and after the command.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from cinch import Rules, Seat
from cinch.cli import main
from cinch.library import SCHEMA_VERSION, Library, LibraryError, refuse_overwriting_library
from cinch.match import Match
from cinch.scorekeeper import ScoreSheet

HAND = ["AS", "KS", "QS", "JS", "5S", "2H", "3D", "4C", "7C"]


@pytest.fixture
def library(tmp_path, monkeypatch) -> Path:
    """A game library with one match in it, in the current folder, and ``CINCH_DB`` naming it."""
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "games.sqlite3"
    with Library.open(path) as lib:
        match = Match(Rules.preset("pagat"), rng=3)
        match_id = lib.new_match(match, human_seat=Seat.S, seed=3, frontend="plain", players=match.players)
        match.start_deal()
        lib.save(match_id, match)
    (tmp_path / "link.sqlite3").symlink_to(path)
    monkeypatch.setenv("CINCH_DB", str(path))
    return path


def refused(args: list[str], *, names: tuple[str, ...], stdin: str = "1\n" * 5) -> str:
    """Exit status 2 and one line on standard error that names every one of ``names``."""
    result = CliRunner().invoke(main, args, input=stdin)
    assert result.exit_code == 2, (args, result.exit_code, result.output)
    lines = result.stderr.splitlines()
    assert len(lines) == 1, (args, result.stderr)
    for name in names:
        assert name in lines[0], (name, lines[0])
    assert "Your bid" not in result.stdout and "Bidding" not in result.stdout  # nothing was played or asked
    return lines[0]


def unchanged(path: Path, before: bytes) -> None:
    assert path.read_bytes() == before
    assert not path.is_symlink()


# ---- item 1: nothing is written over the library --------------------------------------------------------------
SAVES = [
    # (the command, the out path as given, the library as the message names it, how the library is named)
    (["export", "1", "-o", "{lib}", "--db", "{lib}"], "{lib}", "{lib}"),
    (["export", "1", "-o", "games.sqlite3", "--db", "{lib}"], "games.sqlite3", "{lib}"),
    (["export", "1", "-o", "link.sqlite3", "--db", "{lib}"], "link.sqlite3", "{lib}"),
    (["export", "1", "-o", "./link.sqlite3"], "./link.sqlite3", "{lib}"),  # CINCH_DB
    (["export", "1", "-o", "{lib}-wal"], "{lib}-wal", "{lib}"),
    (["play", "--plain", "--seed", "1", "--save", "{lib}", "--db", "{lib}"], "{lib}", "{lib}"),
    (["play", "--plain", "--seed", "1", "--save", "games.sqlite3", "--db", "link.sqlite3"], "games.sqlite3",
     "link.sqlite3"),
    (["play", "--plain", "--seed", "1", "--save", "link.sqlite3"], "link.sqlite3", "{lib}"),
    (["play", "--plain", "--seed", "1", "--no-library", "--save", "games.sqlite3"], "games.sqlite3", "{lib}"),
    (["score", "--plain", "--save", "{lib}", "--db", "{lib}"], "{lib}", "{lib}"),
    (["score", "--plain", "--save", "link.sqlite3"], "link.sqlite3", "{lib}"),
    (["score", "--plain", "--no-library", "--save", "games.sqlite3"], "games.sqlite3", "{lib}"),
    (["resume", "1", "--plain", "--save", "./games.sqlite3"], "./games.sqlite3", "{lib}"),
    (["puzzle", "--mine", "1", "--out", "link.sqlite3"], "link.sqlite3", "{lib}"),
    (["export-dataset", "games.sqlite3", "--self-play", "1", "--seed", "1"], "games.sqlite3", "{lib}"),
    (["export-dataset", "link.sqlite3", "--library", "all", "--db", "{lib}"], "link.sqlite3", "{lib}"),
    (["advise", *HAND, "--dealer", "W", "--plot", "link.sqlite3"], "link.sqlite3", "{lib}"),
]


@pytest.mark.parametrize(("args", "out", "named"), SAVES, ids=lambda v: " ".join(v) if isinstance(v, list) else None)
def test_no_command_writes_over_the_library_however_it_is_named(library, args, out, named):
    before = library.read_bytes()
    fill = [a.replace("{lib}", str(library)) for a in args]
    line = refused(fill, names=(out.replace("{lib}", str(library)), named.replace("{lib}", str(library))))
    assert "will not write" in line
    unchanged(library, before)
    assert CliRunner().invoke(main, ["history"]).exit_code == 0  # and it still reads


def other_database(path: Path) -> bytes:
    """Another program's SQLite file (journal mode DELETE, as most are)."""
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE notes (text TEXT)")
    conn.execute("INSERT INTO notes VALUES ('keep me')")
    conn.commit()
    conn.close()
    return path.read_bytes()


@pytest.mark.parametrize("args", [
    ["export", "1", "-o", "other-app.sqlite"],
    ["play", "--plain", "--save", "other-app.sqlite"],
    ["score", "--plain", "--save", "other-app.sqlite"],
    ["puzzle", "--mine", "1", "--out", "other-app.sqlite"],
    ["export-dataset", "other-app.sqlite", "--self-play", "1", "--seed", "1"],
    ["advise", *HAND, "--dealer", "W", "--plot", "other-app.sqlite"],
], ids=lambda v: v[0])
def test_no_command_writes_over_any_sqlite_file(library, args):
    other = library.parent / "other-app.sqlite"
    before = other_database(other)
    line = refused(args, names=("other-app.sqlite", str(library)))
    assert "SQLite database" in line
    unchanged(other, before)


def test_the_arena_and_the_study_write_no_file_of_their_folder_over_the_library(library, tmp_path):
    before = library.read_bytes()
    arena = tmp_path / "arena"
    arena.mkdir()
    (arena / "summary.json").symlink_to(library)
    refused(["arena", "random", "random", "--deals", "1", "--out", str(arena)],
            names=(str(arena / "summary.json"), str(library)))
    study = tmp_path / "study"
    study.mkdir()
    (study / "figures.json").symlink_to(library)
    refused(["study", "--deals", "1", "--out", str(study)], names=(str(study / "figures.json"), str(library)))
    (study / "figures.json").unlink()
    (study / "bidding.png").symlink_to(library)  # a plot
    refused(["study", "--deals", "1", "--out", str(study)], names=(str(study / "bidding.png"), str(library)))
    for command in (["arena", "random", "random", "--deals", "1"], ["study", "--deals", "1"]):
        refused([*command, "--out", str(library)], names=(library.name,))  # the library named as the folder
    unchanged(library, before)


def test_the_arena_writes_no_record_into_a_folder_that_holds_the_library(tmp_path, monkeypatch):
    out = tmp_path / "out"
    inside = out / "records" / "games.sqlite3"
    inside.parent.mkdir(parents=True)
    Library.open(inside).close()
    before = inside.read_bytes()
    monkeypatch.setenv("CINCH_DB", str(inside))
    line = refused(["arena", "random", "random", "--deals", "1", "--out", str(out)],
                   names=(str(out / "records"), str(inside)))
    assert "will not write" in line
    unchanged(inside, before)


def test_the_guard_itself(tmp_path):
    lib = tmp_path / "games.sqlite3"
    Library.open(lib).close()
    for same in (lib, tmp_path / "." / "games.sqlite3", Path(f"{lib}-shm"), Path(f"{lib}-journal")):
        with pytest.raises(LibraryError, match="will not write the record to .*games.sqlite3"):
            refuse_overwriting_library(same, lib, what="the record")
    with pytest.raises(LibraryError, match="will not write"):  # a library not made yet is protected too
        refuse_overwriting_library(tmp_path / "new.sqlite3", tmp_path / "new.sqlite3")
    hard = tmp_path / "hard-link"
    os.link(lib, hard)
    with pytest.raises(LibraryError, match="it is the game library"):
        refuse_overwriting_library(hard, lib)
    for fine in (tmp_path / "match.json", tmp_path / "games.sqlite3.json"):
        refuse_overwriting_library(fine, lib)  # no error: a new file, or one that is not SQLite
    (tmp_path / "match.json").write_text("{}")
    refuse_overwriting_library(tmp_path / "match.json", lib)


# ---- item 2: a database refused as a library is not changed --------------------------------------------------------
def newer_library(path: Path) -> bytes:
    """A cinch library from a newer cinch, in rollback-journal mode (as a copy may be)."""
    Library.open(path).close()
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA journal_mode = DELETE")
    conn.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'", (str(SCHEMA_VERSION + 1),))
    conn.commit()
    conn.close()
    return path.read_bytes()


@pytest.mark.parametrize("make", [other_database, newer_library], ids=["another program's", "a newer cinch's"])
@pytest.mark.parametrize("args", [["play", "--plain"], ["score", "--plain"], ["resume", "1", "--plain"]],
                         ids=lambda v: v[0])
def test_a_refused_database_is_left_byte_for_byte(tmp_path, make, args):
    path = tmp_path / "other-app.sqlite"
    before = make(path)
    assert before[18:20] == b"\x01\x01"  # the header's rollback-journal mode, which WAL would change to 2 2
    line = refused([*args, "--db", str(path)], names=(str(path),))
    assert "not a cinch game library" in line or "newer than this cinch knows" in line
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["other-app.sqlite"]  # no -wal or -shm left either


@pytest.mark.parametrize("make", [other_database, newer_library], ids=["another program's", "a newer cinch's"])
def test_serve_refuses_a_database_without_changing_it(tmp_path, make):
    from cinch.server.app import create_app  # what `cinch serve --db` opens the library with

    path = tmp_path / "other-app.sqlite"
    before = make(path)
    with pytest.raises(LibraryError, match="not a cinch game library|newer than this cinch knows"):
        create_app(path)
    assert path.read_bytes() == before


# ---- item 3: a record that cannot be saved is refused before the first deal --------------------------------------
@pytest.mark.skipif(not Path("/proc/self").exists(), reason="needs /proc, a folder nobody may write a file in")
@pytest.mark.parametrize("args", [["play", "--plain", "--no-library", "--seed", "1"], ["play", "--plain"],
                                  ["score", "--plain", "--no-library"]], ids=lambda v: " ".join(v))
def test_an_unwritable_save_is_refused_before_the_first_deal(args):
    line = refused([*args, "--save", "/proc/x.json"], names=("/proc/x.json",))
    assert line.startswith("cinch: cannot save to /proc/x.json: /proc is not a writable folder")


def test_a_writable_save_is_not_refused_and_leaves_no_stray_file(tmp_path):
    save = tmp_path / "match.json"
    result = CliRunner().invoke(main, ["play", "--plain", "--no-library", "--seed", "1", "--save", str(save)],
                                input="1\nquit\n")
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["match.json"]


def test_score_resume_refuses_a_save_over_the_library_it_goes_on_in(tmp_path):
    path = tmp_path / "games.sqlite3"
    with Library.open(path) as lib:
        lib.new_sheet(ScoreSheet(Rules.preset("pagat")))
    before = path.read_bytes()
    refused(["score", "--plain", "--resume", "1", "--db", str(path), "--save", str(path)], names=(str(path),))
    unchanged(path, before)
