"""Datasets for learning: one row per decision of self-play or recorded games (``cinch export-dataset``).

A row holds what the deciding seat knew (its :class:`~cinch.view.SeatView` only, both as
named columns and as the OpenSpiel adapter's flat observation vector), what it could do
(the legal actions in record notation and as the adapters' action ids), what it chose,
and how the deal (and the match) ended.  The other hands never enter a row.

Every game, whatever its source, goes through the same replay: a match is rebuilt deal by
deal from its decks and its actions, and the view is taken before each action, exactly as
the table showed it.  Self-play first plays its matches with bots (deterministic for the
seed), then replays them the same way.

Every table size is exported: the partnership game of four (seats ``N E S W``, sides ``NS``
and ``EW``) and the cut-throat tables of 2, 3, 5 and 6 (seats and sides ``1`` to ``n``, each
player his own side).  The per-seat columns and the vector are sized for the table, so one
file holds one table size: an export that would mix them is refused.  The vector and the action
ids are the adapters' (:mod:`cinch.adapters._core`), one pack's: two-deck Cinch (``decks=2``) is
refused in one line, and ``--library all`` leaves its matches out.

>>> spec = SelfPlay(rules=Rules.preset("pagat"), bots=("random",) * 4, count=1, seed=7)
>>> rows = list(self_play_rows(spec))
>>> first = rows[0]
>>> first["game"], first["deal"], first["decision"], first["phase"], first["choice"] in first["legal"]
('self-play/7/0', 1, 0, 'bidding', True)
>>> len(first["vector"]) == VECTOR_SIZE
True
>>> from cinch.adapters._core import obs_size
>>> three = SelfPlay(rules=Rules.preset("official").with_options(players=3), bots=("random",), seed=7)
>>> row = next(self_play_rows(three))
>>> row["seat"], row["side"], len(row["hand_sizes"]), len(row["vector"]) == obs_size(3)
('2', '2', 3, True)
"""

from __future__ import annotations

import gzip
import importlib
import json
import math
import os
import random
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Protocol, cast

import orjson

from cinch.actions import Action, Call, parse_action
from cinch.adapters._core import OBS_SIZE, Turn, check_one_pack, encode_view, make_buffers, pieces
from cinch.arena import MAX_MATCH_DEALS, BotSpec, bot_class, bot_options, check_bot_option, derive_seed, seeded_deck
from cinch.bots.base import DEFAULT_BOT
from cinch.bots.expert import Evaluation, ExpertBot
from cinch.cards import Card, CardSet, Seat, Suit, Team
from cinch.deal import Deal, DealResult
from cinch.errors import CinchError, quoted
from cinch.keep import KeepOptions
from cinch.library import SCOREKEEPER, Library, LibraryError, parse_match_id
from cinch.match import Match
from cinch.record import loads, replay
from cinch.rules import Rules
from cinch.view import Phase, PlayedCard, SeatView, Trick

__all__ = [
    "COLUMNS", "FORMATS", "MAX_LISTED_KEEPS", "VECTOR_SIZE", "DatasetError", "ExportSummary", "SelfPlay",
    "arrow_schema", "choice_columns", "decision_rows", "export", "format_of", "library_rows", "match_rows",
    "labelling_expert", "parse_bots", "parse_library_ids", "play_self", "read_rows", "record_rows",
    "result_columns", "row_view", "self_play_game_rows", "self_play_rows", "value_columns", "vector_layout",
    "view_columns",
]

FORMATS = ("jsonl", "parquet")
VECTOR_SIZE = OBS_SIZE  # the adapters' observation at four players: 1480 numbers (obs_size(n) at n)
MAX_LISTED_KEEPS = 64  # a keep with more legal hands is described by its rule (the "keep" column), not listed
PARQUET_BATCH = 1024  # rows per Parquet row group: the memory a Parquet export holds at once
PYARROW_MISSING = "writing Parquet needs pyarrow, which comes with the rl extra: pip install 'cinch[rl]'"

# Every column, in the order written, with its meaning; docs/datasets.md gives the types and the details.
COLUMNS: dict[str, str] = {
    # identifiers
    "source": "where the game came from: self-play, library or record",
    "game": "the game's id: self-play/SEED/N, library/ID or record/PATH (the path as given)",
    "rules": "the rules: a preset name, or its rules object as JSON text",
    "deal": "the deal's number in its game, from 1",
    "decision": "the decision's index in its deal, from 0, forced ones counted",
    "seat": "the seat deciding: N, E, S or W (1 to n at a cut-throat table)",
    "side": "its side: NS or EW (cut-throat: the seat itself, 1 to n)",
    "player": "who sat there: the bot's name in self-play, the record's player name otherwise",
    "phase": "bidding, trump, discard, rob or play",
    "forced": "only one legal action",
    # the seat's view
    "dealer": "the dealer's seat",
    "dealer_position": "where the dealer sits from the deciding seat, counted to the left: 0 itself, 1 its left, ...",
    "hand": "the seat's hand, cards in record notation",
    "hand_mask": "the same hand as a 52-bit mask (bit i: card index i)",
    "hand_sizes": "how many cards each seat holds, in seat order (N E S W, or 1 to n)",
    "auction": "the calls so far: seat and call",
    "maker": "the seat that won the auction (null during the bidding)",
    "bid": "the winning bid (null during the bidding)",
    "trump": "the trump suit's letter (null until named)",
    "own_discards": "the cards this seat discarded",
    "face_up_discards": "the discards shown face up, per seat in seat order",
    "shown_trumps": "trumps each seat had to show (discarded or buried face up), per seat in seat order",
    "drawn_counts": "how many cards each seat drew, in seat order",
    "own_drawn": "the cards this seat drew",
    "stock_seen": "the stock cards the robbing dealer saw (empty for everyone else)",
    "tricks": "the finished tricks: leader, plays (seat, card, buried cards), winner",
    "trick_leader": "who led the trick in progress (null outside the play)",
    "current_trick": "the trick in progress: seat, card, buried cards",
    "score_us": "the deciding side's match score before this deal",
    "score_them": "the other side's (cut-throat: the highest of the other players')",
    "target": "the score that wins the match",
    "bidder_goes_out": "this deal is played under bidder goes out",
    "vector": "the view as the adapters' flat observation (1480 float32 at four players, obs_size(n) at n)",
    # what could be done, and what was
    "legal": "every legal action in record notation (null for a keep of more than 64 hands)",
    "legal_count": "how many legal actions (legal hands for a keep)",
    "legal_ids": "the adapters' action ids legal as the first step of this decision",
    "keep": "a keep's rule: pool, must, size_min, size_max, min_trumps (null for other decisions)",
    "choice": "the action taken, in record notation",
    "choice_index": "its index in legal (null when legal is null)",
    "choice_ids": "the adapters' action ids that make it, in order",
    # labels for learning (cinch train data): null unless the self-play asked for them
    "expert_choice": "the labelling expert's own choice, in record notation",
    "candidates": "the actions the labelling expert searched, in record notation",
    "values": "each candidate's mean value over the expert's worlds, in value_unit",
    "value_unit": "points (the deal's change, ours less theirs) or % (the chance to win the match)",
    "value_worlds": "how many worlds the expert searched",
    "hidden_hands": "every seat's hand at the decision, by seat: hidden from the deciding seat, a label only",
    # how it ended
    "thrown_in": "everyone passed: the deal scored nothing",
    "makers_us": "the deciding side bid the deal (null if thrown in)",
    "made": "the makers made their bid (null if thrown in)",
    "points_us": "the points the deciding side took in the deal (null if thrown in)",
    "points_them": "the points the other side took (cut-throat: the other players together)",
    "score_change_us": "the deciding side's score change from the deal",
    "score_change_them": "the other side's (cut-throat: the other players' together)",
    "match_winner": ("the winning side (NS or EW; cut-throat 1 to n) when the game is a whole match that was won; "
                     "else null"),
    "match_won": "the deciding side won that match (null when match_winner is)",
}


class DatasetError(CinchError):
    """An export that cannot be made as asked: a bad source, format or file."""


# ---------------------------------------------------------------------------
# One row
# ---------------------------------------------------------------------------
def _cards(mask: int) -> list[str]:
    return [str(c) for c in CardSet(mask)]


def _play(p: PlayedCard) -> dict[str, Any]:
    return {"seat": p.seat.name, "card": str(p.card), "buried": _cards(p.buried)}


def _vector(view: SeatView) -> list[float]:
    """The adapters' observation of this view, with 0 and 1 written as ints (half the size in JSON)."""
    tensor, named = make_buffers(view.players_count)
    encode_view(named, view, view.seat)  # from the view alone: only this seat's private cards
    return [v if v % 1 else int(v) for v in tensor.tolist()]


def view_columns(view: SeatView, *, vector: bool = True) -> dict[str, Any]:
    """The columns of the seat's view: every one comes from ``view`` and nothing else."""
    me = view.seat
    table = view.rules.seating
    side = table.side_of[me]
    score = view.score or (0,) * table.sides
    others = [s for i, s in enumerate(score) if i != side]
    out: dict[str, Any] = {
        "dealer": view.dealer.name,
        "dealer_position": (view.dealer - me) % table.players,
        "hand": _cards(view.hand),
        "hand_mask": int(view.hand),
        "hand_sizes": list(view.hand_sizes),
        "auction": [{"seat": s.name, "call": str(call)} for s, call in view.auction],
        "maker": None if view.maker is None else view.maker.name,
        "bid": view.bid,
        "trump": None if view.trump is None else view.trump.letter,
        "own_discards": _cards(view.own_discards),
        "face_up_discards": [_cards(m) for m in view.face_up_discards],
        "shown_trumps": [_cards(m) for m in view.shown_trumps],
        "drawn_counts": list(view.drawn_counts),
        "own_drawn": _cards(view.own_drawn),
        "stock_seen": _cards(view.stock_seen),
        "tricks": [{"leader": t.leader.name, "plays": [_play(p) for p in t.plays], "winner": t.winner.name}
                   for t in view.tricks],
        "trick_leader": None if view.trick_leader is None else view.trick_leader.name,
        "current_trick": [_play(p) for p in view.current_trick],
        "score_us": score[side],
        "score_them": max(others),
        "target": view.target if view.target is not None else view.rules.target,
        "bidder_goes_out": view.bidder_goes_out,
    }
    if vector:
        out["vector"] = _vector(view)
    return out


def row_view(row: Mapping[str, Any]) -> SeatView:
    """The seat's view a row was written from, rebuilt from the row's own columns alone (one pack).

    What a model reads goes through here, so it can hold nothing the row does not: never a card another
    seat holds unseen.  The match score is rebuilt for two sides when it is not 0 to 0 (a single deal has none;
    a cut-throat row keeps only the highest of the others' scores, so there it is not rebuilt); a keep's
    legal hands are its rule (:class:`~cinch.keep.KeepOptions`), as the table gives them.
    """
    rules = Rules.from_json(json.loads(row["rules"]) if row["rules"].startswith("{") else row["rules"])
    table = rules.seating
    seat = table.parse_seat(row["seat"])
    cards = _card_set

    def seat_of(name: str | None) -> Seat | None:
        return None if name is None else table.parse_seat(name)

    def plays(listed: Sequence[Mapping[str, Any]]) -> tuple[PlayedCard, ...]:
        return tuple(PlayedCard(table.parse_seat(p["seat"]), Card.parse(p["card"]), cards(p["buried"]))
                     for p in listed)

    trump = None if row["trump"] is None else Suit.parse(row["trump"])
    legal: Sequence[Action]
    keep = row["keep"]
    if keep is not None:  # the rule, as the table gives it (the hands listed or not)
        assert trump is not None  # a keep comes after the trump
        legal = KeepOptions(cards(keep["pool"]), cards(keep["must"]), rules.trump_tables[trump].trumps,
                            keep["size_min"], keep["size_max"], keep["min_trumps"])
    else:
        legal = [parse_action(a) for a in row["legal"]]
    side = table.side_of[seat]
    score = None
    if table.sides == 2 and (row["score_us"] or row["score_them"]):  # a row holds two sides' scores, no more
        score = (row["score_us"], row["score_them"]) if side == 0 else (row["score_them"], row["score_us"])
    return SeatView(
        seat=seat, rules=rules, dealer=table.parse_seat(row["dealer"]), phase=Phase(row["phase"]), to_act=seat,
        hand=CardSet(row["hand_mask"]), hand_sizes=tuple(row["hand_sizes"]),
        auction=tuple((table.parse_seat(a["seat"]), cast(Call, parse_action(a["call"]))) for a in row["auction"]),
        maker=seat_of(row["maker"]), bid=row["bid"], trump=trump, own_discards=cards(row["own_discards"]),
        face_up_discards=tuple(cards(c) for c in row["face_up_discards"]),
        shown_trumps=tuple(cards(c) for c in row["shown_trumps"]), drawn_counts=tuple(row["drawn_counts"]),
        own_drawn=cards(row["own_drawn"]), stock_seen=cards(row["stock_seen"]),
        tricks=tuple(Trick(table.parse_seat(t["leader"]), plays(t["plays"]), table.parse_seat(t["winner"]))
                     for t in row["tricks"]),
        trick_leader=seat_of(row["trick_leader"]), current_trick=plays(row["current_trick"]), legal=legal,
        score=score, target=row["target"], deal_number=row["deal"], bidder_goes_out=row["bidder_goes_out"],
    )


def _card_set(texts: Sequence[str]) -> CardSet:
    return CardSet.parse(" ".join(texts))


def choice_columns(deal: Deal, view: SeatView, choice: Action) -> dict[str, Any]:
    """The legal actions and the choice, from the seat's own legal actions.

    ``deal`` only carries the adapters' :class:`Turn`, which reads the legal actions (public to
    the seat deciding) to number them; it reads no hand.
    """
    legal = view.legal
    turn = Turn(deal)
    keep = None
    listed: list[str] | None
    if isinstance(legal, KeepOptions):
        count = len(legal)
        listed = [str(k) for k in legal] if count <= MAX_LISTED_KEEPS else None
        keep = {"pool": _cards(legal.pool), "must": _cards(legal.must), "size_min": legal.lo,
                "size_max": legal.hi, "min_trumps": legal.min_trumps}
    else:
        count = len(legal)
        listed = [str(a) for a in legal]
    text = str(choice)
    return {
        "legal": listed,
        "legal_count": count,
        "legal_ids": turn.legal_ids(),
        "keep": keep,
        "choice": text,
        "choice_index": None if listed is None else listed.index(text),
        "choice_ids": turn.ids_for(choice),
    }


def result_columns(result: DealResult, seat: Seat, winner: Team | None) -> dict[str, Any]:
    """How the deal (and the match, when ``winner`` is known) ended, from the deciding seat's side.

    The other sides count together: at four players that is the one other side; at a cut-throat
    table, every other player.
    """
    table = result.seating
    side = table.side_of[seat]
    points = result.points
    makers = None if result.maker is None else table.side_of[result.maker]
    change = result.score_change
    return {
        "thrown_in": result.thrown_in,
        "makers_us": None if makers is None else makers == side,
        "made": result.made,
        "points_us": None if points is None else points[side],
        "points_them": None if points is None else sum(points) - points[side],
        "score_change_us": change[side],
        "score_change_them": sum(change) - change[side],
        "match_winner": None if winner is None else winner.name,
        "match_won": None if winner is None else int(winner) == side,  # a side's value is its index
    }


# ---------------------------------------------------------------------------
# Games to rows
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class _Decision:
    view: SeatView
    head: dict[str, Any]  # everything but the result


def _rules_text(rules: Rules) -> str:
    spec = rules.to_json()
    return spec if isinstance(spec, str) else json.dumps(spec, sort_keys=True)


def _replay_deal(match: Match, played: Deal, head: dict[str, Any], names: Mapping[Seat, str], vector: bool,
                 labels: Sequence[Mapping[str, Any]] | None = None, hidden: bool = False) -> list[_Decision]:
    """Deal ``played`` again in ``match`` and take every decision's view before its action.

    ``labels``: the expert's values of each decision (:func:`value_columns`), in order; ``hidden``:
    write every seat's hand at each decision (``hidden_hands``), a label never read as part of the view.
    """
    deal = match.start_deal(deck=played.deck, restock=played.restock, dealer=played.dealer)
    out = []
    for index, (seat, action) in enumerate(zip(played.actors, played.history, strict=True)):
        if deal.phase is Phase.RESTOCK:  # a given new stock is dealt by the deal itself; never reached
            raise DatasetError(f"{head['game']}: deal {len(match.deals)} waits for a new stock it does not hold")
        view = match.view(seat)
        row = dict(head)
        row.update({"deal": len(match.deals), "decision": index, "seat": seat.name, "side": seat.team.name,
                    "player": names.get(seat), "phase": view.phase.value})
        choices = choice_columns(deal, view, action)
        row["forced"] = choices["legal_count"] == 1
        row.update(view_columns(view, vector=vector))
        row.update(choices)
        row.update(NO_LABELS if labels is None else labels[index])
        row["hidden_hands"] = [_cards(h) for h in deal.hands] if hidden else None
        out.append(_Decision(view, row))
        match.apply(action, seat)
    return out


def match_rows(match: Match, *, source: str, game: str, whole_match: bool = True, vector: bool = True,
               skip_forced: bool = False, names: Mapping[Seat, str] | None = None,
               labels: Sequence[Sequence[Mapping[str, Any]]] | None = None,
               hidden: bool = False) -> Iterator[dict[str, Any]]:
    """The rows of every finished deal of ``match`` (an unfinished last deal has no result: it gives none).

    ``whole_match``: the game is a whole match, so ``match_winner`` is filled once it is won.  The rows
    of a whole match wait for its end (its winner is in every row); otherwise each deal's rows go as
    soon as it is replayed.  ``labels[k][i]``: the expert's values of decision ``i`` of deal ``k``
    (from 0); ``hidden``: every seat's hand at each decision, for learning where the cards lie.
    """
    if match.rules.honour_rule:  # claims and waivers have no action ids in the adapters' numbering
        raise DatasetError(f"{game}: played under the honour rule, whose claims and rulings the dataset's "
                           "action ids cannot number yet; it is not exported")
    _one_pack(match.rules, game)
    head = {"source": source, "game": game, "rules": _rules_text(match.rules)}
    names = names if names is not None else match.players
    again = Match(match.rules, first_dealer=match.first_dealer, players=match.players)
    winner = match.winner if whole_match else None
    pending: list[tuple[Deal, list[_Decision]]] = []
    for k, played in enumerate(match.deals):
        if not played.is_over:
            continue
        decisions = _replay_deal(again, played, head, names, vector, None if labels is None else labels[k], hidden)
        pending.append((played, decisions))
        if not whole_match:
            yield from _finish(pending, winner, skip_forced)
            pending = []
    yield from _finish(pending, winner, skip_forced)


def _finish(pending: list[tuple[Deal, list[_Decision]]], winner: Team | None,
            skip_forced: bool) -> Iterator[dict[str, Any]]:
    for played, decisions in pending:
        result = played.result
        assert result is not None  # only finished deals are replayed
        for d in decisions:
            row = d.head
            if skip_forced and row["forced"]:
                continue
            row.update(result_columns(result, d.view.seat, winner))
            yield row


# ---------------------------------------------------------------------------
# Self-play
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class SelfPlay:
    """Games between bots: ``count`` single deals (or whole matches), each seat's bot by name in seat
    order (N E S W, or 1 to n at a cut-throat table); one name seats that bot everywhere.

    Deal (or match) ``i`` is dealt first by seat ``i % n`` (n players); its decks, new stocks and bots'
    seeds come from ``seed`` and ``i`` alone, so the same spec plays the same games.
    """

    rules: Rules
    bots: tuple[str, ...] = (DEFAULT_BOT,) * 4
    count: int = 1
    seed: int = 0
    matches: bool = False
    options: tuple[tuple[str, Any], ...] = ()  # bot options, each given to the bots that take it
    values: int = 0  # the labelling expert's worlds per play decision (0: no labels; :func:`value_columns`)
    value_playouts: int | None = None  # and its playouts for the other decisions (None: its default)
    hidden: bool = False  # write every seat's hand at each decision (``hidden_hands``): a label for learning
    specs: tuple[BotSpec, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        n = self.rules.players
        if len(self.bots) == 1:
            object.__setattr__(self, "bots", self.bots * n)
        if len(self.bots) != n:
            seats = " ".join(self.rules.seating.names)
            raise DatasetError(f"self-play at {n} players needs one bot for every seat, or one for each of the "
                               f"{n} seats ({seats}), not {len(self.bots)}")
        if self.count < 1:
            raise DatasetError(f"--self-play must be at least 1 (deals or matches), not {self.count}")
        if self.values < 0:
            raise DatasetError(f"the labelling expert's worlds must be 1 or more (0: no labels), not {self.values}")
        _one_pack(self.rules, "self-play")
        object.__setattr__(self, "specs", _bot_specs(self.bots, dict(self.options)))

    @property
    def kind(self) -> str:
        return "match" if self.matches else "deal"


def parse_bots(text: str, players: int = 4) -> tuple[str, ...]:
    """``heuristic`` (every seat) or ``expert,basic,expert,basic`` (N E S W; 1 to n cut-throat) to a bot
    name for each of the ``players`` seats.

    >>> parse_bots("basic"), parse_bots(" expert , basic,expert,basic")
    (('basic', 'basic', 'basic', 'basic'), ('expert', 'basic', 'expert', 'basic'))
    >>> parse_bots("expert,basic,random", players=3)
    ('expert', 'basic', 'random')
    """
    names = tuple(n.strip().lower() for n in text.split(","))
    if any(not n for n in names) or len(names) not in (1, players):
        order = "N E S W" if players == 4 else f"seats 1 to {players}"
        example = ",".join((["expert", "basic"] * 3)[:players])
        count = ("two", "three", "four", "five", "six")[players - 2]
        raise DatasetError(f"--bots {quoted(text)}: give one bot for every seat (as heuristic) or {count}, for "
                           f"{order}, separated by commas (as {example})")
    return names * players if len(names) == 1 else names


def _bot_specs(names: Sequence[str], options: Mapping[str, Any]) -> tuple[BotSpec, ...]:
    """Each seat's bot with the options it declares; an option no bot takes is refused (a typo, most likely)."""
    given: list[dict[str, Any]] = [{} for _ in names]
    for key, value in options.items():
        if key == "seed":
            raise DatasetError("bot option seed: self-play seeds every bot from --seed")
        takers = [i for i, name in enumerate(names) if key in bot_options(bot_class(name))]
        if not takers:
            raise DatasetError(f"bot option {quoted(key)} is taken by none of the bots "
                               f"({', '.join(sorted(set(names)))})")
        for i in takers:
            check_bot_option(names[i], key, value)
            given[i][key] = value
    specs = tuple(BotSpec.of(name, opts) for name, opts in zip(names, given))
    for spec in dict.fromkeys(specs):
        spec.check()
    return specs


def play_self(spec: SelfPlay, index: int) -> Match:
    """Game ``index`` of ``spec``, played by its bots from start to end (a deal, or a match to its winner)."""
    return _play_self(spec, index)[0]


def _play_self(spec: SelfPlay, index: int) -> tuple[Match, list[list[dict[str, Any]]]]:
    """Game ``index`` of ``spec`` and, with ``spec.values``, the expert's values of every decision, by deal.

    A seat whose bot is the labelling expert itself (:func:`labelling_expert`) plays the choice of the
    search that values it, so that search is made once; any other seat's decisions are valued by an
    expert of their own, seeded like the bots.
    """
    seed, kind = spec.seed, spec.kind
    table = spec.rules.seating
    bots = {seat: spec.specs[seat].make(derive_seed(seed, "dataset", kind, "bot", index, int(seat)))
            for seat in table.seats}
    labellers: dict[Seat, tuple[ExpertBot, bool]] = {}
    if spec.values:
        own = labelling_expert(spec.values, spec.value_playouts)
        for seat in table.seats:
            bot = bots[seat]
            mine = spec.specs[seat]
            if mine.name == own.name and dict(mine.options) == dict(own.options) and isinstance(bot, ExpertBot):
                labellers[seat] = (bot, True)
            else:
                labeller = own.make(derive_seed(seed, "dataset", kind, "labeller", index, int(seat)))
                assert isinstance(labeller, ExpertBot)
                labellers[seat] = (labeller, False)
    match = Match(spec.rules, first_dealer=table.seats[index % table.players], rng=0,
                  players={seat: spec.specs[seat].name for seat in table.seats})
    labels: list[list[dict[str, Any]]] = []
    while not match.is_over and len(match.deals) < (MAX_MATCH_DEALS if spec.matches else 1):
        k = len(match.deals)
        match.rng = random.Random(derive_seed(seed, "dataset", kind, "restock", index, k))
        deal = match.start_deal(deck=seeded_deck(spec.rules.decks, seed, "dataset", kind, "deck", index, k))
        labels.append([])
        for seat in match.turns():
            view = match.view(seat)
            if labellers:
                labeller, plays = labellers[seat]
                evaluation = labeller.evaluate(view)
                labels[-1].append(value_columns(evaluation))
                action = evaluation.decision.action if plays else bots[seat].choose(view)
            else:
                action = bots[seat].choose(view)
            if not _is_legal(deal, action):
                raise DatasetError(f"bot {spec.specs[seat].name} at {seat} chose {action}, which is not legal "
                                   f"({kind} {index}, deal {k + 1}, action {len(deal.history) + 1})")
            match.apply(action, seat)
    return match, labels


# ---------------------------------------------------------------------------
# Labels for learning: the expert's values of each decision
# ---------------------------------------------------------------------------
LABEL_SECONDS = 600.0  # the labelling expert's cap on one decision: far beyond any, so a busy machine changes nothing
NO_LABELS: dict[str, Any] = dict.fromkeys(("expert_choice", "candidates", "values", "value_unit", "value_worlds"))


def labelling_expert(worlds: int, playouts: int | None = None) -> BotSpec:
    """The expert that values every decision: ``worlds`` worlds per play decision and ``playouts`` elsewhere
    (by default four times as many, at least 16), so it searches the same worlds on any machine, however busy."""
    options: dict[str, Any] = {"worlds": worlds, "max_seconds": LABEL_SECONDS}
    if playouts is not None:
        options["playouts"] = playouts
    return BotSpec.of("expert", options)


def value_columns(evaluation: Evaluation) -> dict[str, Any]:
    """One decision as the labelling expert searched it: its choice, the candidates and each one's mean value.

    A decision it did not search (a single sensible choice) has its choice and no candidates.

    >>> from cinch.bots.expert import Decision
    >>> from cinch.actions import PASS
    >>> value_columns(Evaluation(Decision(PASS, None, 0, "the only legal action")))["candidates"]
    []
    """
    decision = evaluation.decision
    values = [round(m, 4) if math.isfinite(m) else None for m in evaluation.means()] if evaluation.candidates else []
    return {
        "expert_choice": str(decision.action),
        "candidates": [str(a) for a in evaluation.candidates],
        "values": values,
        "value_unit": decision.unit,
        "value_worlds": len(evaluation.weights),
    }


def _one_pack(rules: Rules, game: str) -> None:
    """Refuse two-deck Cinch: the vector and the action ids of a row are the adapters', one pack's."""
    try:
        check_one_pack(rules, "the dataset export")
    except CinchError as e:
        raise DatasetError(f"{game}: {e}") from None


def _is_legal(deal: Deal, action: object) -> bool:
    try:
        return isinstance(action, Action) and deal.is_legal(action)
    except Exception:  # a bot's odd answer is refused in words below, not with its traceback
        return False


def self_play_rows(spec: SelfPlay, *, vector: bool = True, skip_forced: bool = False) -> Iterator[dict[str, Any]]:
    """The rows of every game of ``spec``, one game at a time."""
    for index in range(spec.count):
        yield from self_play_game_rows(spec, index, vector=vector, skip_forced=skip_forced)


def self_play_game_rows(spec: SelfPlay, index: int, *, vector: bool = True,
                        skip_forced: bool = False) -> Iterator[dict[str, Any]]:
    """The rows of game ``index`` of ``spec`` alone (a chunk of a run shared among workers)."""
    match, labels = _play_self(spec, index)
    yield from match_rows(match, source="self-play", game=f"self-play/{spec.seed}/{index}",
                          whole_match=spec.matches, vector=vector, skip_forced=skip_forced,
                          labels=labels if spec.values else None, hidden=spec.hidden)


# ---------------------------------------------------------------------------
# The library and record files
# ---------------------------------------------------------------------------
def parse_library_ids(text: str) -> list[int] | None:
    """``all`` -> None (every match); ``3,7,#12`` -> [3, 7, 12].

    >>> parse_library_ids("all"), parse_library_ids("3, #7")
    (None, [3, 7])
    """
    if text.strip().lower() == "all":
        return None
    ids = []
    for part in text.split(","):
        match_id = parse_match_id(part.strip())
        if match_id is None:
            raise DatasetError(f"--library {quoted(text)}: {quoted(part.strip())} is not a match id; give all, or "
                               "match ids separated by commas (as 3,7,12; `cinch history` lists them)")
        ids.append(match_id)
    return ids


def library_rows(ids: list[int] | None, db: str | os.PathLike[str] | None = None, *, vector: bool = True,
                 skip_forced: bool = False) -> Iterator[dict[str, Any]]:
    """The rows of the library's matches: every one (``ids`` None; those kept by `cinch score`, which have no
    cards, those under the honour rule and those of two packs, left out) or those named, in the order given
    (all: oldest first).  Read only: the library is never changed.  The library and the ids are checked now,
    before any row is asked for.
    """
    with Library.open(db, readonly=True) as lib:
        if ids is None:
            chosen = sorted(m.id for m in lib.list() if m.frontend != SCOREKEEPER)
        else:
            for match_id in ids:
                if lib.get(match_id).frontend == SCOREKEEPER:
                    raise DatasetError(f"library match {match_id} was played with real cards (kept by `cinch "
                                       "score`): it holds no hands nor decisions to learn from")
            chosen = list(ids)
    return _library_rows(chosen, db, vector, skip_forced, every=ids is None)


def _library_rows(chosen: list[int], db: str | os.PathLike[str] | None, vector: bool,
                  skip_forced: bool, every: bool) -> Iterator[dict[str, Any]]:
    with Library.open(db, readonly=True) as lib:
        for match_id in chosen:
            try:
                match = lib.replay(match_id)
            except LibraryError as e:
                raise DatasetError(f"library match {match_id}: {e}") from None
            if every and (match.rules.honour_rule or match.rules.decks != 1):  # `--library all` leaves them
                continue  # out, as it does real cards
            yield from match_rows(match, source="library", game=f"library/{match_id}", vector=vector,
                                  skip_forced=skip_forced)


def record_rows(path: str | os.PathLike[str], *, vector: bool = True,
                skip_forced: bool = False) -> Iterator[dict[str, Any]]:
    """The rows of a ``cinch/1`` record file (from ``cinch play --save``, ``cinch export`` or the arena).

    The file is read and replayed now, so a bad record is refused before any row is asked for.
    """
    name = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8-sig")
    except OSError as e:
        raise DatasetError(f"{name}: cannot read the record: {e.strerror or e}") from None
    except UnicodeDecodeError:
        raise DatasetError(f"{name}: not a text file (a record is UTF-8 JSON)") from None
    try:
        played = replay(loads(text))
    except CinchError as e:
        raise DatasetError(f"{name}: {e}") from None
    if played.sheet is not None:
        raise DatasetError(f"{name}: the match was played with real cards (kept by `cinch score`): it holds no "
                           "hands nor decisions to learn from")
    return match_rows(played.match, source="record", game=f"record/{name}", vector=vector,
                      skip_forced=skip_forced)


def decision_rows(sources: Iterable[Iterable[dict[str, Any]]]) -> Iterator[dict[str, Any]]:
    """The rows of several sources, one after the other."""
    for rows in sources:
        yield from rows


# ---------------------------------------------------------------------------
# Writing
# ---------------------------------------------------------------------------
def format_of(path: str, fmt: str | None) -> str:
    """The format asked for, else the one the file name says (``.parquet``), else JSONL."""
    if fmt is None:
        return "parquet" if path.lower().endswith(".parquet") else "jsonl"
    key = fmt.strip().lower()
    if key not in FORMATS:
        raise DatasetError(f"unknown format {quoted(fmt)}; the formats are {', '.join(FORMATS)}")
    if key == "parquet" and path.lower().endswith(".gz"):
        raise DatasetError(f"{path}: Parquet compresses its own columns; name the file .parquet, not .gz "
                           "(.gz is for --format jsonl)")
    if key == "parquet" and path == "-":
        raise DatasetError("Parquet cannot go to standard output (-); give a file name")
    return key


def _pyarrow(module: str) -> Any:
    """pyarrow (or one of its modules), which only Parquet needs; without it, what to install."""
    try:
        return importlib.import_module(module)
    except ImportError:
        raise DatasetError(PYARROW_MISSING) from None


def arrow_schema(vector: bool = True) -> Any:
    """The Parquet schema: one field per column of :data:`COLUMNS` (``vector`` left out if asked)."""
    pa = _pyarrow("pyarrow")
    cards = pa.list_(pa.string())
    play = pa.struct([("seat", pa.string()), ("card", pa.string()), ("buried", cards)])
    types: dict[str, Any] = {
        "source": pa.string(), "game": pa.string(), "rules": pa.string(), "deal": pa.int32(),
        "decision": pa.int32(), "seat": pa.string(), "side": pa.string(), "player": pa.string(),
        "phase": pa.string(), "forced": pa.bool_(),
        "dealer": pa.string(), "dealer_position": pa.int8(), "hand": cards, "hand_mask": pa.int64(),
        "hand_sizes": pa.list_(pa.int8()), "auction": pa.list_(pa.struct([("seat", pa.string()),
                                                                          ("call", pa.string())])),
        "maker": pa.string(), "bid": pa.int16(), "trump": pa.string(), "own_discards": cards,
        "face_up_discards": pa.list_(cards), "shown_trumps": pa.list_(cards), "drawn_counts": pa.list_(pa.int8()),
        "own_drawn": cards, "stock_seen": cards,
        "tricks": pa.list_(pa.struct([("leader", pa.string()), ("plays", pa.list_(play)), ("winner", pa.string())])),
        "trick_leader": pa.string(), "current_trick": pa.list_(play), "score_us": pa.int32(),
        "score_them": pa.int32(), "target": pa.int32(), "bidder_goes_out": pa.bool_(),
        "vector": pa.list_(pa.float32()),
        "legal": cards, "legal_count": pa.int32(), "legal_ids": pa.list_(pa.int16()),
        "keep": pa.struct([("pool", cards), ("must", cards), ("size_min", pa.int8()), ("size_max", pa.int8()),
                           ("min_trumps", pa.int8())]),
        "choice": pa.string(), "choice_index": pa.int32(), "choice_ids": pa.list_(pa.int16()),
        "expert_choice": pa.string(), "candidates": cards, "values": pa.list_(pa.float32()),
        "value_unit": pa.string(), "value_worlds": pa.int32(), "hidden_hands": pa.list_(cards),
        "thrown_in": pa.bool_(), "makers_us": pa.bool_(), "made": pa.bool_(), "points_us": pa.int16(),
        "points_them": pa.int16(), "score_change_us": pa.int16(), "score_change_them": pa.int16(),
        "match_winner": pa.string(), "match_won": pa.bool_(),
    }
    assert list(types) == list(COLUMNS), "every column has one Parquet type"
    return pa.schema([(name, types[name]) for name in COLUMNS if vector or name != "vector"])


class _Sink(Protocol):
    def write(self, data: bytes, /) -> object: ...

    def close(self) -> None: ...


class _JsonlWriter:
    """One JSON object a line; gzip when the file name ends with .gz."""

    def __init__(self, stream: _Sink):
        self.stream = stream

    def write(self, row: dict[str, Any]) -> None:
        self.stream.write(orjson.dumps(row) + b"\n")

    def close(self) -> None:
        self.stream.close()


class _ParquetWriter:
    """Rows in row groups of :data:`PARQUET_BATCH`: a big export never holds more than one group."""

    def __init__(self, path: str, vector: bool):
        self._pa = _pyarrow("pyarrow")
        pq = _pyarrow("pyarrow.parquet")
        self.schema = arrow_schema(vector)
        self.writer = pq.ParquetWriter(path, self.schema, compression="zstd")
        self.batch: list[dict[str, Any]] = []

    def write(self, row: dict[str, Any]) -> None:
        self.batch.append(row)
        if len(self.batch) >= PARQUET_BATCH:
            self._flush()

    def _flush(self) -> None:
        if self.batch:
            self.writer.write_table(self._pa.Table.from_pylist(self.batch, schema=self.schema))
            self.batch = []

    def close(self) -> None:
        self._flush()
        self.writer.close()


def _open_writer(target: str, fmt: str, vector: bool, *, gz: bool) -> _JsonlWriter | _ParquetWriter:
    if fmt == "parquet":
        return _ParquetWriter(target, vector)
    if target == "-":
        return _JsonlWriter(_Unclosed(sys.stdout.buffer))
    # mtime=0: the same rows make the same bytes, so two runs of one seed compare equal as files
    return _JsonlWriter(gzip.GzipFile(target, mode="wb", mtime=0) if gz else open(target, "wb"))  # noqa: SIM115


class _Unclosed:
    """Standard output, flushed but left open when the writer closes."""

    def __init__(self, stream: IO[bytes]):
        self.stream = stream

    def write(self, data: bytes, /) -> object:
        return self.stream.write(data)

    def close(self) -> None:
        self.stream.flush()


@dataclass
class ExportSummary:
    """What an export wrote."""

    rows: int = 0
    games: int = 0
    deals: int = 0
    path: str = ""
    format: str = "jsonl"


def export(rows: Iterable[dict[str, Any]], path: str, fmt: str | None = None, *, vector: bool = True,
           on_row: Callable[[dict[str, Any]], None] | None = None) -> ExportSummary:
    """Write ``rows`` to ``path`` (``-``: standard output, JSONL only) as they come.

    The file appears whole or not at all: the rows go to ``PATH.partial``, renamed to ``path`` once the
    last is written, and removed if the export fails.
    """
    fmt = format_of(path, fmt)
    if fmt == "parquet":
        arrow_schema(vector)  # says what to install before any game is played
    summary = ExportSummary(path=path, format=fmt)
    target = path if path == "-" else path + ".partial"
    try:
        writer = _open_writer(target, fmt, vector, gz=path.endswith(".gz"))
    except OSError as e:
        raise DatasetError(f"cannot write {path}: {e.strerror or e}") from None
    seen_games: set[str] = set()
    seen_deals: set[tuple[str, int]] = set()
    players: int | None = None  # the table size of the file: its per-seat columns and vector have that size
    ok = False
    try:
        for row in rows:
            size = len(row["hand_sizes"])
            if players is None:
                players = size
            elif size != players:
                raise DatasetError(f"{row['game']} is a {size}-player game but {path} already holds "
                                   f"{players}-player games: export each table size to its own file")
            writer.write(row)
            summary.rows += 1
            seen_games.add(row["game"])
            seen_deals.add((row["game"], row["deal"]))
            if on_row is not None:
                on_row(row)
        ok = True
    except OSError as e:
        raise DatasetError(f"cannot write {path}: {e.strerror or e}") from None
    finally:
        try:
            writer.close()
        finally:
            if target != path:
                if ok:
                    os.replace(target, path)
                else:
                    Path(target).unlink(missing_ok=True)
    summary.games, summary.deals = len(seen_games), len(seen_deals)
    return summary


def read_rows(path: str) -> list[dict[str, Any]]:
    """Every row of a dataset file, JSONL (gzipped or not) or Parquet, as dicts (for tests and small files)."""
    if path.lower().endswith(".parquet"):
        pq = _pyarrow("pyarrow.parquet")
        return list(pq.read_table(path).to_pylist())
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rb") as f:
        return [orjson.loads(line) for line in f if line.strip()]


def vector_layout(players: int = 4) -> list[tuple[str, int, tuple[int, ...]]]:
    """The pieces of ``vector`` at a table of ``players``: name, first index and shape (the adapters'
    observation, docs/adapters.md).

    >>> vector_layout()[:2], vector_layout(3)[:2]
    ([('seat', 0, (4,)), ('dealer', 4, (4,))], [('seat', 0, (3,)), ('dealer', 3, (3,))])
    """
    out = []
    start = 0
    for name, shape in pieces(players):
        out.append((name, start, shape))
        size = 1
        for n in shape:
            size *= n
        start += size
    return out

