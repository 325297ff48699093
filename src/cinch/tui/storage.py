"""Saving the match as it is played: the game library (:mod:`cinch.library`) and a ``--save`` record file.

Nothing here raises into the game: a save that fails leaves a message for the status
line (``problem``) and the match goes on.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cinch.cards import Seat
from cinch.match import Match

if TYPE_CHECKING:
    from cinch.library import Library, StoredMatch


class Saver:
    """Saves after every action: into ``library`` (an open :class:`~cinch.library.Library`, or None)
    and/or the record file ``save_path``."""

    def __init__(self, library: Library | None = None, *, save_path: str | None = None):
        self.library = library
        self.save_path = save_path
        self.match_id: int | None = None
        self.problem: str | None = None  # the last thing that went wrong, for the status line
        self._finished = False

    def _call(self, what: str, fn, *args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except Exception as e:  # LibraryError, or anything else: the match goes on
            self.problem = f"The game library could not {what} ({e}); the match goes on."
            return None

    # ---- the library ----------------------------------------------------------------------------------
    def unfinished(self) -> list[StoredMatch]:
        if self.library is None:
            return []
        return self._call("list the unfinished matches", self.library.unfinished) or []

    def resume(self, match_id: int) -> tuple[Match, dict] | None:
        """The stored match at the action where it stopped, and its bots (None if it cannot be resumed)."""
        lib = self.library
        if lib is None:
            return None
        match = self._call("resume the match", lib.resume, match_id)
        if match is None:
            return None
        bots = self._call("make the match's bots", lib.resume_bots, match_id, match)
        if bots is None:
            return None
        self.match_id = match_id
        self._finished = False
        self._write_record(match)
        return match, bots

    def abandon(self, match_id: int) -> None:
        """Mark a match the player declined to resume as abandoned (it is not offered again)."""
        if self.library is not None:
            self._call("mark the match abandoned", self.library.abandon, match_id)

    def start(self, match: Match, *, human_seat: Seat, seed: int | None, players: dict[Seat, str]) -> None:
        """A new match: it gets its library entry, and the record file is written."""
        self.match_id = None
        self._finished = False
        if self.library is not None:
            self.match_id = self._call("store the new match", self.library.new_match, match, human_seat=human_seat,
                                       seed=seed, frontend="table", players=players)
        self._write_record(match)

    def save(self, match: Match) -> None:
        if self.library is not None and self.match_id is not None:
            self._call("save the match", self.library.save, self.match_id, match)
        self._write_record(match)

    def finish(self, match: Match) -> None:
        if self.library is not None and self.match_id is not None and not self._finished:
            self._finished = True
            self._call("mark the match finished", self.library.finish, self.match_id, match)
        self._write_record(match)

    def _write_record(self, match: Match) -> None:
        if self.save_path is None:
            return
        from cinch.play_plain import save_record

        try:
            save_record(match, self.save_path)
        except OSError as e:
            self.problem = f"Cannot save the game record to {self.save_path}: {e.strerror or e}."
            self.save_path = None
