"""Saving as the match is played (cinch.table.storage): never stopping the match, never claiming a save
that did not happen."""

from __future__ import annotations

from cinch import Rules, Seat
from cinch.match import Match
from cinch.record import loads
from cinch.table import Saver, save_record


class Broken:
    def new_match(self, *a, **k):
        raise OSError("disk full")

    def save(self, *a, **k):
        raise OSError("disk full")

    def unfinished(self):
        raise OSError("locked")


def test_a_library_that_fails_never_stops_the_match(tmp_path):
    saver = Saver(Broken(), save_path=str(tmp_path / "m.json"))
    assert saver.unfinished() == [] and "locked" in saver.take_problem()
    match = Match(Rules.preset("pagat"), rng=1)
    saver.start(match, human_seat=Seat.S, seed=1, players={s: "basic" for s in Seat})
    assert "could not store the new match (disk full)" in saver.take_problem()
    assert saver.match_id is None  # nothing claims a library entry
    saver.save(match)
    assert (tmp_path / "m.json").exists() and saver.saved_to == str(tmp_path / "m.json")


def test_a_record_that_cannot_be_written_is_never_called_saved(tmp_path):
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder")
    saver = Saver(save_path=blocked / "m.json")
    saver.start(Match(Rules.preset("pagat"), rng=1), human_seat=Seat.S, seed=1, players={})
    assert saver.saved_to is None
    assert "Cannot save the game record to" in saver.take_problem()


def test_a_record_is_written_atomically_and_keeps_its_mode(tmp_path):
    path = tmp_path / "m.json"
    path.write_text("old")
    path.chmod(0o600)
    match = Match(Rules.preset("pagat"), rng=1)
    match.start_deal()
    save_record(match, path)
    assert loads(path.read_text())["format"] == "cinch/1"
    assert path.stat().st_mode & 0o777 == 0o600
    assert [p.name for p in tmp_path.iterdir()] == ["m.json"]  # no temporary file left behind
