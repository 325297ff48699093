"""Saving a match as it is played: the game library and a ``--save`` record file.

Nothing here raises into the game: a save that fails leaves a message (``problem``) for
the front end to show and the match goes on.  A front end may claim a save only where
:attr:`Saver.saved_to` says one happened.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cinch.cards import Seat
from cinch.match import Match
from cinch.record import dumps, to_record

if TYPE_CHECKING:
    from collections.abc import Callable

    from cinch.library import Library, StoredMatch


def save_record(match: Match, path: str | os.PathLike[str]) -> None:
    """Write the match as a ``cinch/1`` record, atomically (a temporary file, then a rename)."""
    target = Path(path)
    text = dumps(to_record(match))
    directory = target.parent if str(target.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.chmod(tmp, _file_mode(target))
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def _file_mode(target: Path) -> int:
    """The mode the record keeps: the old file's, or what a newly created file would get."""
    try:
        return target.stat().st_mode & 0o777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


class Saver:
    """Saves after every action: into ``library`` (an open :class:`~cinch.library.Library`, or None)
    and/or the record file ``save_path``.

    ``saved_to`` is the record file only while its last write succeeded, and ``match_id``
    the library's id only while the library takes the saves: what a front end may tell
    the player was saved.
    """

    def __init__(self, library: Library | None = None, *, save_path: str | os.PathLike[str] | None = None,
                 frontend: str = "table"):
        self.library = library
        self.save_path = None if save_path is None else str(save_path)
        self.frontend = frontend
        self.match_id: int | None = None
        self.saved_to: str | None = None  # the record file, once a write has succeeded
        self.problem: str | None = None  # the last thing that went wrong, for the front end to show

    def take_problem(self) -> str | None:
        """The message of the last failure, once (None when all went well)."""
        problem, self.problem = self.problem, None
        return problem

    def _call(self, what: str, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except Exception as e:  # LibraryError, or anything else: the match goes on without the library
            self.problem = f"The game library could not {what} ({e}); the match goes on without it."
            if what not in ("list the unfinished matches", "read the match"):
                self.library = None
                self.match_id = None
            return None

    # ---- the library ----------------------------------------------------------------------------------
    def unfinished(self) -> list[StoredMatch]:
        if self.library is None:
            return []
        return self._call("list the unfinished matches", self.library.unfinished) or []

    def attach(self, match_id: int, match: Match) -> None:
        """Go on saving a stored match (one that is being resumed)."""
        self.match_id = match_id
        self._write_record(match)

    def abandon(self, match_id: int) -> None:
        """Mark a match the player declined to resume as abandoned (it is not offered again)."""
        if self.library is not None:
            self._call("mark the match abandoned", self.library.abandon, match_id)

    def start(self, match: Match, *, human_seat: Seat | None, seed: int | None, players: dict[Seat, str]) -> None:
        """A new match: it gets its library entry, and the record file is written."""
        self.match_id = None
        if self.library is not None:
            self.match_id = self._call("store the new match", self.library.new_match, match, human_seat=human_seat,
                                       seed=seed, frontend=self.frontend, players=players)
        self._write_record(match)

    def save(self, match: Match) -> None:
        """After every action (the library's row says finished, with the winner, once the match is won)."""
        if self.library is not None and self.match_id is not None:
            self._call("save the match", self.library.save, self.match_id, match)
        self._write_record(match)

    def stopped_words(self, match: Match) -> str:
        """Where a match is kept when the player stops, and how to go on with it, as every front end says
        it after its own first words ("You quit."): the deal it stops in, the record file, the library's id.

        >>> from cinch.rules import Rules
        >>> saver = Saver()
        >>> saver.match_id = 12
        >>> saver.stopped_words(Match(Rules.preset("pagat"), rng=1))  # (before its first deal)
        ' `cinch resume 12` continues it.'
        """
        text = ""
        if match.current is not None:
            text += f" The match stops in deal {len(match.deals)}."
        if self.saved_to:
            text += f" The game record is saved in {self.saved_to}; `cinch replay {self.saved_to}` shows it."
        if self.match_id is not None:
            text += (f" It is match {self.match_id} of your game library (`cinch history`)." if match.is_over
                     else f" `cinch resume {self.match_id}` continues it.")
        return text

    def _write_record(self, match: Match) -> None:
        if self.save_path is None:
            return
        try:
            save_record(match, self.save_path)
        except OSError as e:
            self.problem = (f"Cannot save the game record to {self.save_path}: {e.strerror or e}."
                            " The match goes on without it.")
            self.save_path = None
            self.saved_to = None
        else:
            self.saved_to = self.save_path
