"""Saving the match as it is played: the game library (``cinch.library``) and a ``--save`` record file.

The library is optional: when ``cinch.library`` is not installed, or cannot open its
database, the table plays on and says so once.  Nothing here raises into the game.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from typing import Any

from cinch.cards import Seat
from cinch.match import Match


@dataclass
class Unfinished:
    """A match the library holds that has not ended, as the resume offer shows it."""

    ident: Any
    text: str
    human_seat: Seat | None = None
    seed: int | None = None
    players: dict[Seat, str] | None = None
    raw: Any = None


class Saver:
    """Saves after every action: into the library (``db`` or its default place) and/or ``save_path``."""

    def __init__(self, *, db: str | None = None, save_path: str | None = None, use_library: bool = True):
        self.db = db
        self.save_path = save_path
        self.use_library = use_library
        self.lib: Any = None
        self.match_id: Any = None
        self.problem: str | None = None  # the last thing that went wrong, for the status line
        self._finished = False

    # ---- the library ------------------------------------------------------------------------------------
    def library(self) -> Any:
        if not self.use_library:
            return None
        if self.lib is None:
            try:
                from cinch.library import Library
            except ImportError:
                self.use_library = False
                return None
            try:
                self.lib = Library.open(self.db)
            except Exception as e:  # a bad path, a locked or damaged database: play on unsaved
                self.use_library = False
                self.problem = f"The game library cannot be opened ({e}); this match is not kept there."
                return None
        return self.lib

    def _call(self, what: str, fn, *args, **kwargs) -> Any:
        try:
            return fn(*args, **kwargs)
        except Exception as e:
            self.problem = f"The game library could not {what} ({e}); the match goes on."
            return None

    def unfinished(self) -> list[Unfinished]:
        lib = self.library()
        if lib is None:
            return []
        items = self._call("list unfinished matches", lib.unfinished) or []
        return [_unfinished(item) for item in items]

    def resume(self, entry: Unfinished) -> Match | None:
        lib = self.library()
        if lib is None:
            return None
        match = self._call("resume the match", lib.resume, entry.ident)
        if match is not None:
            self.match_id = entry.ident
            self._finished = False
        return match

    def start(self, match: Match, *, human_seat: Seat, seed: int | None, players: dict[Seat, str]) -> None:
        """A new match: it gets its library entry, and the record file is written."""
        self.match_id = None
        self._finished = False
        lib = self.library()
        if lib is not None:
            names = {s.name: n for s, n in players.items()}
            self.match_id = self._call("start the match", lib.new_match, match, human_seat=human_seat, seed=seed,
                                       frontend="table", players=names)
        self._write_record(match)

    def save(self, match: Match) -> None:
        lib = self.library()
        if lib is not None and self.match_id is not None:
            self._call("save the match", lib.save, self.match_id, match)
        self._write_record(match)

    def finish(self, match: Match) -> None:
        self.save(match)
        lib = self.library()
        if lib is not None and self.match_id is not None and not self._finished:
            self._finished = True
            self._call("mark the match finished", lib.finish, self.match_id, match)

    def _write_record(self, match: Match) -> None:
        if self.save_path is None:
            return
        from cinch.play_plain import save_record

        try:
            save_record(match, self.save_path)
        except OSError as e:
            self.problem = f"Cannot save the game record to {self.save_path}: {e.strerror or e}."
            self.save_path = None


def _unfinished(item: Any) -> Unfinished:
    """Read one entry of ``Library.unfinished()``: an id, a mapping or an object with fields."""
    def field(*names: str) -> Any:
        for name in names:
            if isinstance(item, dict) and name in item:
                return item[name]
            value = getattr(item, name, None)
            if value is not None and not callable(value):
                return value
        return None

    if isinstance(item, (int, str)):
        return Unfinished(item, f"match {item}", raw=item)
    ident = field("id", "match_id", "ident", "key")
    seat = field("human_seat", "seat")
    with contextlib.suppress(Exception):
        seat = Seat.parse(seat) if isinstance(seat, str) else (Seat(seat) if seat is not None else None)
    if not isinstance(seat, Seat):
        seat = None
    seed = field("seed")
    players = field("players")
    if isinstance(players, dict):
        with contextlib.suppress(Exception):
            players = {Seat.parse(k) if isinstance(k, str) else Seat(k): str(v) for k, v in players.items()}
    else:
        players = None
    parts = [f"match {ident}"]
    rules = field("rules", "preset", "rules_name")
    if rules is not None:
        parts.append(f"{rules if isinstance(rules, str) else getattr(rules, 'name', rules)} rules")
    deals = field("deals", "deal_count", "deal_number")
    if isinstance(deals, int):
        parts.append(f"deal {deals}")
    score = field("score")
    if isinstance(score, (tuple, list)) and len(score) == 2:
        parts.append(f"NS {score[0]}, EW {score[1]}")
    elif isinstance(score, dict):
        parts.append(", ".join(f"{k} {v}" for k, v in score.items()))
    when = field("updated", "updated_at", "saved", "saved_at", "started", "started_at", "created_at")
    if when is not None:
        parts.append(f"saved {when}")
    if seat is not None:
        parts.append(f"you sit {seat}")
    return Unfinished(ident, ", ".join(parts), seat, seed if isinstance(seed, int) else None, players, item)
