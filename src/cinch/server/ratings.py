"""The players' ratings (docs/players.md): OpenSkill's Plackett–Luce model, per preset family, bots as anchors.

**The model** is OpenSkill's :class:`~openskill.models.PlackettLuce` (Weng and Lin, 2011) with its defaults
(a newcomer at mu 25, sigma 25/3; beta 25/6; tau 25/300).  Of the Weng–Lin models it is the one made for
a ranking of any number of sides, each of any number of players: a partnership match is two sides of two,
a cut-throat table three to six sides of one, and a daily session a ranking of everyone who finished the
day's deals.  Thurstone–Mosteller and Bradley–Terry are built from pairwise comparisons; Plackett–Luce
reads a ranking as the order in which the sides were drawn, which is what a table's final score and a
day's standings are.  What is shown is the **ordinal**, mu − 3 sigma: 0 for a newcomer, rising as the
games say more and as they are won (a rating the system is sure of).

**Families.**  A rating belongs to a *preset family* (:func:`family_of`): the preset a room's rules start
from (pagat, difference, additive, official, double-pedro), with a table of another size than four in
partnerships, and two-deck Cinch, families of their own (``pagat-cut-throat``, ``official-two-deck``).
Options changed within a preset (a target, Sancho, the follow rule) keep it in its family: the scoring and
the skill are the preset's; a cut-throat table or a doubled pack is another game.

**Anchors.**  Each bot level has a rating of its own (:data:`ANCHORS`), set and never updated: a bot's
rating goes into every rating call as a fixed input and what the model says of it afterwards is dropped.
The anchors keep the scale still as people come and go, and say what a number means ("above the
heuristic bot").  A person the server does not know (no guest, no account) counts as a newcomer whose
rating is not kept.

**Once.**  Every game rated has a key (``match:ID``, ``daily:FAMILY:DAY``) in ``rated_games``; it is
inserted in the same transaction as the new ratings, so a match reported twice, or by two processes of
a cluster at once, is rated once.  The ratings of the players of one game are locked (updated in the
order of their ids) before they are read, so two games rated at once never lose each other's change.

The tables are :data:`cinch.library.RATING_TABLES` (SQLite schema 6, PostgreSQL migration 0005); they hold
player ids, never names, so that a deleted player's ratings stay under no name.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from openskill.models import PlackettLuce
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from cinch.library import ACCOUNT, LibraryError, Run
from cinch.match import Match
from cinch.rules import PRESET_NAMES, Rules
from cinch.server.pages import page
from cinch.server.players import STATIC, PlayerStore, StoredPlayer, profile_path, profile_section
from cinch.server.players import day as date_of

log = logging.getLogger("cinch.server")

MODEL = PlackettLuce()
"""The rating model: OpenSkill's Plackett–Luce with its defaults (the module's docstring says why)."""
MINIMUM_GAMES = 5
"""Rated games a player needs in a family before the leaderboard lists it: by then sigma has come down from
8.3 to about 6, and one lucky win no longer tops the list."""
ANCHORS: Mapping[str, float] = {"random": 5.0, "basic": 17.0, "openspiel-ismcts": 20.0, "heuristic": 24.0,
                                "neural": 26.1, "expert": 26.5}
"""Each bot level's fixed mu, on the model's scale (a newcomer is 25).  The order is the arena's
(docs/strength.md); the expert's 2.5 above the heuristic is what its 68.8% of duplicate matches against
a heuristic pair comes to under this model; the wider gaps below stand for per-deal margins (+5.6 for the
heuristic over basic, +20 over random) too large to leave a match in doubt.  The neural bot's 2.1 above the
heuristic is its 65.8% of 4,000 duplicate matches against a heuristic pair (65.8% official and pagat, 1000
pairs each, seed 2701) on the expert's scale: 2.5 for the log-odds of 68.8%, so 2.1 for those of 65.8%."""
ANCHOR_SIGMA = 1.0
"""A bot's fixed sigma: small, since its strength is known, never zero (the model divides by the sides' spread)."""
UNKNOWN_BOT = 20.0
"""The mu of a bot the table has that :data:`ANCHORS` lacks (a bot added later, until it is given its own)."""
HISTORY_SHOWN = 60  # rating changes a profile shows per family, the latest
LEADERS_SHOWN = 100  # players a leaderboard lists
ROBOTS = "robots"  # (cinch.duplicate.ROBOTS) the entrant of a day's standings that is the robot table


# ---- families ----------------------------------------------------------------------------------------------------
def family_of(rules: Rules) -> str:
    """The preset family a game under ``rules`` is rated in.

    >>> family_of(Rules.preset("pagat").with_options(target=72, sancho=True))
    'pagat'
    >>> official = Rules.preset("official")
    >>> family_of(official.with_options(players=3)), family_of(official.with_options(decks=2))
    ('official-cut-throat', 'official-two-deck')
    """
    family = rules.preset_name
    if rules.decks == 2:
        family += "-two-deck"
    if not rules.seating.partnership:
        family += "-cut-throat"
    return family


FAMILIES = tuple(f"{preset}{decks}{table}" for preset in PRESET_NAMES for decks in ("", "-two-deck")
                 for table in ("", "-cut-throat"))
"""Every family there is, the plain presets first."""


def family_words(family: str) -> str:
    """A family as the pages say it: "pagat", "official, two decks, cut-throat".

    >>> family_words("double-pedro-two-deck-cut-throat")
    'double-pedro, two decks, cut-throat'
    """
    words = family.replace("-two-deck", ", two decks").replace("-cut-throat", ", cut-throat")
    return words


def check_family(text: Any) -> str:
    """A family named by a client; a :class:`ValueError` that lists them if it is none."""
    if text in FAMILIES:
        return str(text)
    raise ValueError(f"there is no family {str(text)[:40]!r}; the families are the presets "
                     f"({', '.join(PRESET_NAMES)}), each also with -two-deck and -cut-throat")


# ---- who played --------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Entrant:
    """One player of a rated game: a known player (its id), a bot (its level: an anchor), or neither (a person
    the server does not know, a newcomer whose rating is not kept)."""

    player: str | None = None
    bot: str | None = None

    def rating(self, known: Mapping[str, Any]) -> Any:
        if self.player is not None:
            return known[self.player]
        if self.bot is not None:
            return MODEL.rating(mu=ANCHORS.get(self.bot, UNKNOWN_BOT), sigma=ANCHOR_SIGMA)
        return MODEL.rating()


def match_sides(match: Match, entrants: Mapping[Any, Entrant]) -> tuple[list[list[Entrant]], list[int]]:
    """A finished match as sides and their ranks (0 the best): two partnerships, the winners first; or at a
    cut-throat table each seat its own side, the winner first and the others by their final score (equal
    scores share a rank).  ``entrants``: who answers for each seat."""
    table = match.table
    sides = [[entrants[seat] for seat in table.seats if table.side_of[seat] == index]
             for index in range(table.sides)]
    score = match.score
    winner = None if match.winner is None else table.side_list.index(match.winner)
    ranks = []
    for index in range(table.sides):
        if index == winner:
            ranks.append(0)
        else:
            ranks.append(1 + sum(1 for other in range(table.sides)
                                 if other != winner and other != index and score[other] > score[index]))
    return sides, ranks


def _once(sides: Sequence[Sequence[Entrant]]) -> list[list[Entrant]]:
    """The sides with each known player counted once (a person who played two seats of one match answers for the
    first; the other counts as a newcomer not kept)."""
    seen: set[str] = set()
    out = []
    for side in sides:
        members = []
        for entrant in side:
            if entrant.player is not None and entrant.player in seen:
                entrant = Entrant()
            elif entrant.player is not None:
                seen.add(entrant.player)
            members.append(entrant)
        out.append(members)
    return out


# ---- the storage ---------------------------------------------------------------------------------------------------
class RatingStore(Protocol):
    """Where the ratings are kept: the players' store (:class:`cinch.library.PlayerTables`: the SQLite game
    library or PostgreSQL), whose SQL runs alike in both."""

    def _player_rows(self, sql: str, args: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]: ...

    def _player_change(self) -> contextlib.AbstractContextManager[Run]: ...


@dataclass(frozen=True)
class Change:
    """One player's rating before and after a game."""

    player: str
    place: int
    mu_before: float
    sigma_before: float
    mu: float
    sigma: float

    @property
    def before(self) -> float:
        return ordinal(self.mu_before, self.sigma_before)

    @property
    def after(self) -> float:
        return ordinal(self.mu, self.sigma)


def ordinal(mu: float, sigma: float) -> float:
    """The rating shown: mu − 3 sigma (0 for a newcomer)."""
    return mu - 3 * sigma


class Ratings:
    """The ratings over a players' store: games rated once, the leaderboard, a player's history."""

    def __init__(self, store: RatingStore, clock: Callable[[], float] = time.time):
        self.store = store
        self.clock = clock

    # ---- rating a game ------------------------------------------------------------------------------------------
    def record_match(self, match_id: int, family: str, sides: Sequence[Sequence[Entrant]], ranks: Sequence[int],
                     when: float | None = None) -> list[Change] | None:
        """Rate a room's finished match (:func:`match_sides` gives its sides and ranks), once: the changes, or
        None if it was rated already or had no known player."""
        return self._rate(f"match:{int(match_id)}", family, "match", int(match_id), None, sides, ranks, when)

    def record_daily(self, preset_family: str, day: str, standings: Iterable[Any], *, robots: str = "expert",
                     when: float | None = None) -> list[Change] | None:
        """Rate a day's session of ``preset_family`` once its results are final: ``standings`` are everyone who
        finished the day's set, each with ``.entrant`` (a player id, or ``"robots"``: the robot table, an
        anchor at the level of ``robots``) and ``.rank`` (1 the best; equal ranks tie), as
        :func:`cinch.duplicate.standings` gives them (or ``(entrant, rank)`` pairs).  Each entrant is a side of
        one: everyone had the same bots beside them.  The changes, or None if the day was rated already."""
        sides, ranks = [], []
        for row in standings:
            entrant, rank = (row.entrant, row.rank) if hasattr(row, "entrant") else row
            sides.append([Entrant(bot=robots) if entrant == ROBOTS else Entrant(player=str(entrant))])
            ranks.append(int(rank))
        return self._rate(f"daily:{preset_family}:{day}", preset_family, "daily", None, day, sides, ranks, when)

    def record_event(self, event_id: str, family: str, sides: Sequence[Sequence[Entrant]], places: Sequence[int],
                     when: float | None = None) -> list[Change] | None:
        """Rate a private event once its results are final (cinch.server.events): ``sides`` its pairs (each its two
        players, a bot's seat an anchor), ``places`` each pair's place in one order of every pair by its final
        percentage (1 the best; equal places tie).  The changes, or None if it was rated already."""
        return self._rate(f"event:{event_id}", family, "event", None, None, sides, places, when)

    def _rate(self, key: str, family: str, kind: str, match_id: int | None, day_: str | None,
              sides: Sequence[Sequence[Entrant]], ranks: Sequence[int], when: float | None) -> list[Change] | None:
        check_family(family)
        sides = _once(sides)
        people = sorted({e.player for side in sides for e in side if e.player is not None})
        if not people or len(sides) < 2:
            return None  # (a game of bots alone, or a day of one entrant, says nothing of anyone)
        now = self.clock() if when is None else when
        with self.store._player_change() as run:
            if not run("INSERT INTO rated_games (key, family, kind, match_id, day, played, sides) VALUES "
                       "(?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING key",
                       (key, family, kind, match_id, day_, now, len(sides))):
                return None  # rated already (here, or by another process a moment ago)
            known = self._lock(run, family, people, now)
            teams = [[e.rating(known) for e in side] for side in sides]
            rated = MODEL.rate(teams, ranks=[float(r) for r in ranks])
            places = _places(ranks)
            changes = []
            for side, new_side, place in zip(sides, rated, places, strict=True):
                for entrant, new in zip(side, new_side, strict=True):
                    if entrant.player is None:
                        continue  # a bot's anchor, or a person not known: nothing kept
                    old = known[entrant.player]
                    changes.append(Change(entrant.player, place, old.mu, old.sigma, new.mu, new.sigma))
            for c in changes:
                run("UPDATE ratings SET mu = ?, sigma = ?, games = games + 1, updated = ? WHERE family = ? AND "
                    "player_id = ?", (c.mu, c.sigma, now, family, c.player))
                run("INSERT INTO rating_history (game, player_id, family, played, place, sides, mu_before, "
                    "sigma_before, mu, sigma) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (key, c.player, family, now, c.place, len(sides), c.mu_before, c.sigma_before, c.mu, c.sigma))
        return changes

    @staticmethod
    def _lock(run: Run, family: str, people: list[str], now: float) -> dict[str, Any]:
        """The players' ratings in the family (a newcomer's made), each row locked for the rest of the transaction
        (in the order of the ids, so that two games rated at once wait for each other, never deadlock)."""
        known = {}
        for player in people:
            run("INSERT INTO ratings (family, player_id, mu, sigma, games, updated) VALUES (?, ?, ?, ?, 0, ?) "
                "ON CONFLICT DO NOTHING", (family, player, MODEL.mu, MODEL.sigma, now))
            rows = run("UPDATE ratings SET games = games WHERE family = ? AND player_id = ? RETURNING mu, sigma",
                       (family, player))
            known[player] = MODEL.rating(mu=float(rows[0][0]), sigma=float(rows[0][1]))
        return known

    # ---- what is shown ----------------------------------------------------------------------------------------------
    def leaderboard(self, family: str, minimum: int = MINIMUM_GAMES,
                    limit: int = LEADERS_SHOWN) -> list[dict[str, Any]]:
        """The accounts rated in the family with at least ``minimum`` games, best first (by the ordinal)."""
        rows = self.store._player_rows(
            "SELECT p.name, r.mu, r.sigma, r.games FROM ratings r JOIN players p ON p.id = r.player_id "
            "WHERE r.family = ? AND p.kind = ? AND r.games >= ? ORDER BY r.mu - 3 * r.sigma DESC, p.name_key "
            "LIMIT ?", (check_family(family), ACCOUNT, int(minimum), int(limit)))
        out: list[dict[str, Any]] = []
        for name, mu, sigma, games in rows:
            rating = round(ordinal(float(mu), float(sigma)), 1)
            place = out[-1]["place"] if out and out[-1]["rating"] == rating else len(out) + 1
            out.append({"place": place, "name": name, "profile": profile_path(str(name)), "rating": rating,
                        "mu": round(float(mu), 2), "sigma": round(float(sigma), 2), "games": int(games)})
        return out

    def families(self) -> list[str]:
        """The families with a rated game, in the order of :data:`FAMILIES`."""
        found = {str(row[0]) for row in self.store._player_rows("SELECT DISTINCT family FROM ratings")}
        return [f for f in FAMILIES if f in found]

    def of_player(self, player_id: str, shown: int = HISTORY_SHOWN) -> list[dict[str, Any]]:
        """A player's rating in every family it was rated in (the most games first), each with its latest
        changes, oldest first: what the profile draws."""
        out = []
        for family, mu, sigma, games in self.store._player_rows(
                "SELECT family, mu, sigma, games FROM ratings WHERE player_id = ? AND games > 0 "
                "ORDER BY games DESC, family", (player_id,)):
            history = self.store._player_rows(
                "SELECT h.played, h.place, h.sides, h.mu_before, h.sigma_before, h.mu, h.sigma, g.kind, g.match_id, "
                "g.day FROM rating_history h JOIN rated_games g ON g.key = h.game WHERE h.player_id = ? AND "
                "h.family = ? ORDER BY h.played DESC, h.game DESC LIMIT ?", (player_id, family, int(shown)))
            out.append({"family": family, "words": family_words(family),
                        "rating": round(ordinal(float(mu), float(sigma)), 1), "mu": round(float(mu), 2),
                        "sigma": round(float(sigma), 2), "games": int(games), "listed": int(games) >= MINIMUM_GAMES,
                        "leaderboard": f"/ratings?family={family}",
                        "history": [_history_json(row) for row in reversed(history)]})
        return out


def _places(ranks: Sequence[int]) -> list[int]:
    """Ranks (any numbers, lower better) as places from 1, equal ranks sharing one: [0, 2, 2, 5] -> [1, 2, 2, 4]."""
    return [1 + sum(1 for other in ranks if other < rank) for rank in ranks]


def _history_json(row: tuple[Any, ...]) -> dict[str, Any]:
    played, place, sides, mu_before, sigma_before, mu, sigma, kind, match_id, day_ = row
    after = ordinal(float(mu), float(sigma))
    entry: dict[str, Any] = {"date": date_of(float(played)), "kind": str(kind), "place": int(place),
                             "sides": int(sides), "rating": round(after, 1),
                             "change": round(after - ordinal(float(mu_before), float(sigma_before)), 1)}
    if match_id is not None:
        entry["match"] = int(match_id)
        entry["replay"] = f"/replay?game={int(match_id)}"
    if day_ is not None:
        entry["day"] = str(day_)
    return entry


def bots_json() -> list[dict[str, Any]]:
    """The bots' anchors, strongest first, as the leaderboard shows them beside the people."""
    return [{"bot": bot, "rating": round(ordinal(mu, ANCHOR_SIGMA), 1)}
            for bot, mu in sorted(ANCHORS.items(), key=lambda item: -item[1])]


@profile_section("ratings")
def ratings_section(store: PlayerStore, player: StoredPlayer) -> dict[str, Any]:
    """The profile's ratings: each family's rating, games and latest changes (the page draws them as a line)."""
    return {"minimum": MINIMUM_GAMES, "families": Ratings(store).of_player(player.id)}  # type: ignore[arg-type]


# ---- what the rooms report ------------------------------------------------------------------------------------------
class Ledger:
    """What the rooms tell of their people, written in worker threads once the room's change is durable (the
    event loop never waits on it): a known player seated in a match (the match joins the player's games),
    and a match over (it is rated).  A failure is logged; the room goes on."""

    def __init__(self, store: PlayerStore, ratings: Ratings):
        self.store = store
        self.ratings = ratings
        self.pending: set[Any] = set()

    def seated(self, player_id: str, match_id: int, seat: str) -> None:
        self._run("a player's game", self.store.add_player_game, player_id, match_id, seat)

    def match_over(self, match_id: int, rules: Rules, sides: list[list[Entrant]], ranks: list[int]) -> None:
        if any(e.player is not None for side in sides for e in side):
            self._run("a match's ratings", self.ratings.record_match, match_id, family_of(rules), sides, ranks)

    def _run(self, what: str, fn: Callable[..., Any], *args: Any) -> None:
        def run() -> None:
            try:
                fn(*args)
            except Exception:  # (the database is away: the game stands, unrated or unlisted)
                log.exception("%s could not be written", what)

        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            run()  # (no event loop: a test driving a room by hand)
            return
        future = loop.run_in_executor(None, run)
        self.pending.add(future)
        future.add_done_callback(self.pending.discard)

    async def settled(self) -> None:
        """(Tests, and the server as it stops.)  Wait for what is being written."""
        while self.pending:
            await asyncio.gather(*list(self.pending), return_exceptions=True)


# ---- the leaderboard's page and API ------------------------------------------------------------------------------
def leaderboard_json(ratings: Ratings, family: str | None) -> dict[str, Any]:
    """A family's leaderboard (the first family with ratings, or pagat, if none is named), the families there are,
    the minimum of games and the bots' anchors."""
    rated = ratings.families()
    chosen = check_family(family) if family is not None else (rated[0] if rated else FAMILIES[0])
    return {"family": chosen, "words": family_words(chosen), "minimum": MINIMUM_GAMES,
            "families": [{"family": f, "words": family_words(f), "rated": f in rated} for f in FAMILIES],
            "players": ratings.leaderboard(chosen), "bots": bots_json()}


def add_rating_routes(routes: list[Any], ratings: Ratings) -> None:
    """The leaderboard: its page at ``/ratings`` and ``GET /api/ratings?family=pagat``."""

    async def api(request: Request) -> Response:
        try:
            data = await asyncio.to_thread(leaderboard_json, ratings, request.query_params.get("family"))
        except ValueError as e:
            return JSONResponse({"type": "error", "code": "no-family", "message": str(e)}, status_code=404)
        except LibraryError as e:
            log.warning("ratings: the store failed: %s", e)
            return JSONResponse({"type": "error", "code": "storage", "message": "The ratings could not be reached "
                                 "just now; try again."}, status_code=503)
        return JSONResponse(data, headers={"Cache-Control": "no-cache"})

    routes.extend([Route("/ratings", page(STATIC / "ratings.html")), Route("/api/ratings", api, methods=["GET"])])


__all__ = ["ANCHORS", "FAMILIES", "MINIMUM_GAMES", "MODEL", "Change", "Entrant", "Ledger", "Ratings",
           "add_rating_routes", "bots_json", "check_family", "family_of", "family_words", "leaderboard_json",
           "match_sides", "ordinal"]
