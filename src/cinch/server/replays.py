"""The replay viewer of the browser table: a ``cinch/1`` record as frames, and its routes.

:func:`frames` replays a record with the engine and gives, for every deal, one frame
before the first action and one after each action, every hand open (it is a replay),
with the narration in words and, beside each deal's result, the par of the double-dummy
solver.  :func:`add_replay_routes` adds the page (``GET /replay``), the upload
(``POST /api/replay``) and the game library (``GET /api/library`` ...) to the server.

The analysis of a deal (:mod:`cinch.study.analysis`: every decision judged by the expert,
marked by the points it cost) is asked for one deal at a time, when a viewer wants it
(``POST /api/replay/analysis?deal=N`` with the record, ``GET /api/library/ID/analysis?deal=N``):
the decisions are judged one after another in the server's process pool (:func:`analyse`), so
the event loop never waits and a bot's move waits for one decision at most; the viewer hangs
each judgement on the frame just after that action.

>>> from cinch.deal import EXAMPLE_DECK
>>> record = {"format": "cinch/1", "rules": "pagat",
...           "deals": [{"dealer": "W", "deck": EXAMPLE_DECK, "actions": ["bid 7", "pass", "pass", "pass"]}]}
>>> data = frames(record, solve=False)
>>> deal = data["deals"][0]
>>> len(deal["frames"]), deal["frames"][1]["action"]["words"], deal["frames"][1]["narration"]
(5, 'bid 7', 'N bids 7.')
>>> deal["frames"][0]["hands"]["N"][:3], deal["frames"][-1]["to_act"], deal["result"] is None
(['9S', '8S', '7S'], 'N', True)
"""

from __future__ import annotations

import asyncio
import functools
import logging
import time
import weakref
from collections.abc import Awaitable, Sequence
from concurrent.futures import Executor
from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from cinch.actions import Action, Keep
from cinch.cards import CardSet, Seat
from cinch.deal import Deal
from cinch.errors import CinchError, RecordError, json_kind
from cinch.library import FINISHED, IN_PROGRESS, LibraryError, StoredMatch, UnknownMatch, table_of
from cinch.match import DealSummary, Match, teams_json
from cinch.record import FORMAT, dumps, finished_deals, replay
from cinch.rules import Rules
from cinch.server.pages import BadBody, error_json, page_routes, read_json
from cinch.study.analysis import DealAnalysis, DealSpec, Judgement, decision_steps, judge
from cinch.study.analysis import Settings as AnalysisSettings
from cinch.table.narrate import Narrator, Trump, action_words, cards_text, hand_order, result_lines
from cinch.view import Phase, PlayedCard, Trick

log = logging.getLogger("cinch.server")

MAX_UPLOAD = 2 * 1024 * 1024  # bytes: the largest record POST /api/replay takes
A_RECORD = 'a cinch/1 record, as {"format": "cinch/1", "rules": "pagat", "deals": [...]}'
MAX_DEALS = 200  # deals in one record, at most: a real match has a few dozen
PAR_TIMEOUT = 5.0  # seconds the solver may take on one deal before its par is "not computed"
PAR_BUDGET = 30.0  # seconds all the deals of one request may take together
LIBRARY_LIMIT = 50  # matches GET /api/library lists by default ...
LIBRARY_MAX = 200  # ... and at most
ANALYSIS_SETTINGS = AnalysisSettings()  # the viewer's analysis searches as `cinch analyze` does by default
ANALYSIS_TIMEOUT = 30.0  # seconds one decision may take before the analysis of its deal stops there
ANALYSIS_BUDGET = 300.0  # seconds the analysis of one deal may take in all
STATIC = Path(__file__).parent / "static" / "replay"

# A par job: what the solver needs of a deal, in plain (picklable, hashable) values:
# (rules as the record writes them, dealer, deck, restock or None, the actions up to the first lead).
ParJob = tuple[Any, str, str, str | None, tuple[str, ...]]
# A par as the solver gives it: points by side (NS, EW; cut-throat by player), made, settlement by side or None.
ParValue = tuple[tuple[int, ...], bool | None, tuple[int, ...] | None]


# ---- frames ----------------------------------------------------------------------------------------------
def frames(record: dict[str, Any], *, solve: bool = True) -> dict[str, Any]:
    """The viewer's JSON of a record: every deal's frames, its result and (``solve``) its par.

    Raises :class:`RecordError` (deal and action number, what was wrong, what was legal) for a
    record that does not replay.  Without ``solve`` each par is ``{"status": "pending"}``; the
    server fills them in its process pool (:func:`fill_pars`).
    """
    data, jobs = build(record)
    if solve:
        for deal, job in zip(data["deals"], jobs, strict=True):
            if job is not None:
                deal["par"] = par_json(solve_par(job), deal)
    return data


def build(record: dict[str, Any]) -> tuple[dict[str, Any], list[ParJob | None]]:
    """The frames of a record with every par pending, and each deal's par job (None: no par, and the deal
    already says why)."""
    deals = record.get("deals") if isinstance(record, dict) else None
    if isinstance(deals, list) and len(deals) > MAX_DEALS:
        raise RecordError(f"the record holds {len(deals)} deals; the viewer shows records of at most {MAX_DEALS}")
    match = replay(record).match
    rules = match.rules
    table = match.table
    names = tuple(match.players.get(s, "") for s in table.seats) if match.players else None
    out: dict[str, Any] = {
        "format": FORMAT,
        "rules": {"name": rules.name, "record": rules.to_json(), "target": rules.target, "bowers": rules.bowers,
                  "decks": rules.decks},
        # The table: its seats clockwise (N E S W, or 1 to n each for himself) and the sides that score.
        "seats": list(table.names),
        "sides": list(table.side_names),
        "partnership": table.partnership,
        "players": {s.name: match.players.get(s, "") for s in table.seats},
        "metadata": {k: v for k, v in record.items() if k not in ("format", "rules", "players", "deals")},
        "score": teams_json(match.score, table),
        "winner": None if match.winner is None else match.winner.name,
        "deals": [],
    }
    jobs: list[ParJob | None] = []
    for index, played in enumerate(match.deals):
        summary = match.summaries[index] if index < len(match.summaries) else None
        before = match.summaries[index - 1].score if index else (0,) * table.sides
        bgo = summary.bidder_goes_out if summary is not None else match.bidder_goes_out_applies()
        context = {"score": before, "target": rules.target, "deal_number": index + 1, "bidder_goes_out": bgo,
                   "players": names}
        deal = _deal_json(match, played, summary, before, context)
        job = _par_job(played)
        if job is not None and rules.decks == 2:
            # Twelve tricks of two packs: far past what the solver searches in a few seconds.
            deal["par"] = no_par(deal, "the solver does not search two-deck deals (twelve tricks)")
            job = None
        elif job is None:
            deal["par"] = no_par(deal)
        out["deals"].append(deal)
        jobs.append(job)
    return out, jobs


def _deal_json(match: Match, played: Deal, summary: DealSummary | None, before: tuple[int, ...],
               context: dict[str, Any]) -> dict[str, Any]:
    rules = match.rules
    deal = Deal(rules, played.dealer, played.deck, restock=played.restock)
    table = match.table
    first = table.seats[0]  # (a spectator's narration: any seat's view gives the public lines)
    narrator = Narrator(None)
    header = [line.strip("= ") for line in narrator.update(deal.view(first, **context)) if line]
    shown = [_frame(deal, 0, None, None, " ".join(header), before)]
    for step, action in enumerate(played.history, start=1):
        seat = deal.to_act
        assert seat is not None
        lead = _keep_words(deal, seat, action)
        deal.apply(action)
        lines = [line for line in narrator.update(deal.view(first, **context)) if line]
        if lead:
            lines = [lead] + [line for line in lines if not line.startswith(f"{seat} throws face up")]
        lines = [line if line.endswith((".", "!", "?", ":")) else line + "." for line in lines]
        score = before
        if deal.is_over and summary is not None:
            assert deal.result is not None
            lines.append(deal.result.describe().rstrip(".") + ".")
            score = summary.score
            if match.winner is not None and summary is match.summaries[-1]:
                w = match.winner
                if table.partnership:
                    lines.append(f"{w} win the match, {score[w]} to {score[w.other]}.")
                else:
                    lines.append(f"{w} wins the match: {table.score_text(score)}.")
        shown.append(_frame(deal, step, seat, action, " ".join(lines), score))
    result = None
    if summary is not None:
        result = summary.to_json()
        result["number"] = summary.number
        result["bidder_goes_out"] = summary.bidder_goes_out
        result["lines"] = result_lines(summary, None, rules, summary.score)
    return {
        "number": context["deal_number"],
        "dealer": played.dealer.name,
        "bidder_goes_out": context["bidder_goes_out"],
        "restock": None if played.restock is None else [str(c) for c in played.restock],
        "sides": list(table.side_names),  # (the par's words name them)
        "frames": shown,
        "result": result,
        "par": {"status": "pending", "text": "Par: being worked out."},
    }


def _keep_words(deal: Deal, seat: Seat, action: Action) -> str:
    """A keep in words, for a replay where every card is open: what was kept and what was thrown."""
    if not isinstance(action, Keep) or deal.phase not in (Phase.DISCARD, Phase.ROB):
        return ""
    legal = deal.legal_actions()
    pool = int(getattr(legal, "pool", deal.hands[seat]))
    kept = int(action.cards)
    thrown = pool & ~kept
    trump = deal.tables  # the deal's trump tables, which know the bowers of all-hands Pedro
    text = f"{seat} keeps {cards_text(kept, trump)}"
    if deal.phase is Phase.ROB:
        text += " of the hand and the stock"
    return text + (f", throwing {cards_text(thrown, trump)}." if thrown else ".")


def _frame(deal: Deal, step: int, seat: Seat | None, action: Action | None, narration: str,
           score: tuple[int, ...]) -> dict[str, Any]:
    tables = deal.tables  # (the bowers' under all-hands Pedro: the left bower sorts and stars as a trump)
    trump = deal.trump
    table = deal.rules.seating
    seats = table.seats
    last = deal.tricks[-1] if deal.tricks else None
    won = [0] * table.sides  # tricks won by side
    for t in deal.tricks:
        won[table.side_of[t.winner]] += 1
    return {
        "step": step,
        "phase": deal.phase.value,
        "to_act": None if deal.to_act is None else deal.to_act.name,
        "hands": {s.name: [str(c) for c in hand_order(deal.hands[s], tables)] for s in seats},
        "auction": [{"seat": s.name, "call": str(c)} for s, c in deal.auction],
        "maker": None if deal.maker is None or deal.phase is Phase.BIDDING else deal.maker.name,
        "bid": deal.high_bid if deal.maker is not None and deal.phase is not Phase.BIDDING else None,
        "trump": None if trump is None else trump.letter,
        "discards": {s.name: _cards(deal.discards[s] & ~deal.shown[s], tables) for s in seats},
        "shown": {s.name: _cards(deal.shown[s], tables) for s in seats},
        "stock": len(deal.stock),
        "trick": {"number": len(deal.tricks) + 1, "leader": None if not deal.trick else deal.trick[0].seat.name,
                  "plays": _plays(deal.trick)},
        "tricks": len(deal.tricks),
        "won": teams_json(won, table),
        "last_trick": None if last is None else _trick(last, len(deal.tricks)),
        "action": None if action is None or seat is None else {
            "seat": seat.name, "text": str(action),
            "words": action_words(action, tables),
        },
        "narration": narration,
        "score": teams_json(score, table),
    }


def _cards(mask: int, trump: Trump | None) -> list[str]:
    return [str(c) for c in hand_order(mask, trump)]


def _plays(plays: Sequence[PlayedCard]) -> list[dict[str, Any]]:
    out = []
    for p in plays:
        entry: dict[str, Any] = {"seat": p.seat.name, "card": str(p.card)}
        if p.buried:
            entry["buried"] = [str(c) for c in CardSet(p.buried)]
        out.append(entry)
    return out


def _trick(trick: Trick, number: int) -> dict[str, Any]:
    return {"number": number, "leader": trick.leader.name, "plays": _plays(trick.plays),
            "winner": trick.winner.name}


# ---- the par -------------------------------------------------------------------------------------------
def _par_job(played: Deal) -> ParJob | None:
    """What the solver needs to find the par of a deal from its first lead (None: the play never began)."""
    if played.trump is None:
        return None
    probe = Deal(played.rules, played.dealer, played.deck, restock=played.restock)
    upto: list[str] = []
    for action in played.history:
        if probe.phase is Phase.PLAY:
            break
        probe.apply(action)
        upto.append(str(action))
    if probe.phase is not Phase.PLAY:
        return None
    restock = None if played.restock is None else " ".join(str(c) for c in played.restock)
    return (_key(played.rules.to_json()), played.dealer.name, " ".join(str(c) for c in played.deck), restock,
            tuple(upto))


@functools.lru_cache(maxsize=512)
def solve_par(job: ParJob) -> ParValue | None:
    """(Also in a worker process.)  The par of a deal from its first lead, or None if the solver fails."""
    from cinch.table.summary import par_of

    rules_key, dealer, deck, restock, actions = job
    rules = Rules.from_json(_unkey(rules_key))
    start = Deal.from_actions(rules, rules.seating.parse_seat(dealer), deck, actions, restock=restock)
    par = par_of(start)
    if par is None:
        return None
    return par.points, par.made, par.score_change


def _key(value: Any) -> Any:
    """The rules' JSON (a preset name or an object of options) as a hashable value."""
    if isinstance(value, dict):
        return tuple(sorted(value.items()))
    return value


def _unkey(value: Any) -> Any:
    """The rules' JSON back from :func:`_key`."""
    if isinstance(value, tuple):
        return dict(value)
    return value


def par_json(par: ParValue | None, deal: dict[str, Any], status: str = "") -> dict[str, Any]:
    """The par of a deal, next to what each side took, in words."""
    if par is None:
        why = status or "the solver could not solve the deal"
        return {"status": "not computed", "text": f"Par not computed: {why}."}
    points, made, change = par
    sides = tuple(deal.get("sides") or ("NS", "EW"))
    if len(points) != len(sides):
        return {"status": "not computed", "text": "Par not computed: the solver's answer does not fit this table."}
    sep = " " if sides == ("NS", "EW") else ": "  # (cut-throat sides are seat numbers: "2: 5", not "2 5")
    shown = ", ".join(f"{side}{sep}{p}" for side, p in zip(sides, points, strict=True))
    text = f"Par with every card open, from the first lead: {shown}"
    if made is not None:
        text += f" (the bid {'is made' if made else 'is set'})"
    text += "."
    result = deal.get("result")
    took = None
    if result is not None and result.get("points") is not None:
        took = result["points"]
        parts = []
        for i, team in enumerate(sides):
            diff = took[team] - points[i]
            parts.append(f"{team} took {took[team]}" + (" (par)" if diff == 0 else
                                                         f" ({abs(diff)} {'above' if diff > 0 else 'below'} par)"))
        text += " " + "; ".join(parts) + "."
    return {"status": "solved", "points": dict(zip(sides, points, strict=True)), "made": made,
            "score_change": None if change is None else dict(zip(sides, change, strict=True)), "took": took,
            "text": text}


def no_par(deal: dict[str, Any], why: str | None = None) -> dict[str, Any]:
    """A deal without a par, and why: thrown in, not yet played, or ``why``."""
    result = deal.get("result")
    if result is not None and result.get("thrown_in"):
        why = "the deal was thrown in"
    elif why is None:
        why = "the play has not begun"
    return {"status": "none", "text": f"No par: {why}."}


async def fill_pars(data: dict[str, Any], jobs: Sequence[ParJob | None], executor: Executor | None,
                    timeout: float = PAR_TIMEOUT, budget: float = PAR_BUDGET) -> None:
    """Work out each deal's par, one deal at a time (so a bot's move waits for at most one), in
    ``executor`` (a process pool) or a thread; a deal that takes longer than ``timeout`` seconds, or
    comes after ``budget`` seconds in all, says "not computed"."""
    loop = asyncio.get_running_loop()
    if executor is not None and any(job is not None and _cached(job) is _MISSING for job in jobs):
        executor = await _warm(executor)
    deadline = time.monotonic() + budget
    for deal, job in zip(data["deals"], jobs, strict=True):
        if job is None:
            continue  # (build said why there is no par)
        cached = _cached(job)
        if cached is not _MISSING:
            deal["par"] = par_json(cached, deal)  # type: ignore[arg-type]
            continue
        left = deadline - time.monotonic()
        if left <= 0:
            deal["par"] = par_json(None, deal, f"the solver had no time left ({budget:g} s for the whole game)")
            continue
        try:
            if executor is not None:
                value = await asyncio.wait_for(loop.run_in_executor(executor, solve_par, job), min(timeout, left))
            else:
                value = await asyncio.wait_for(asyncio.to_thread(solve_par, job), min(timeout, left))
        except TimeoutError:
            deal["par"] = par_json(None, deal, f"the solver took longer than {min(timeout, left):g} s")
            continue
        except Exception as e:  # a broken pool, a solver bug: the replay shows without the par
            log.warning("par of a replayed deal failed: %r", e)
            deal["par"] = par_json(None, deal, "the solver failed")
            continue
        _remember(job, value)
        deal["par"] = par_json(value, deal)


_MISSING = object()
_WARM: weakref.WeakSet[Executor] = weakref.WeakSet()  # the pools whose worker has loaded the solver


async def _warm(executor: Executor) -> Executor | None:
    """The pool, once a worker has started and loaded the solver (a spawned worker takes seconds, which
    must not count against a deal's par); None, for a thread, if it does not start within a minute."""
    if executor in _WARM:
        return executor
    try:
        await asyncio.wait_for(asyncio.get_running_loop().run_in_executor(executor, _load_solver), 60)
    except Exception as e:
        log.warning("the process pool did not start for the par: %r", e)
        return None
    _WARM.add(executor)
    return executor


def _load_solver() -> None:
    """(In a worker process.)  Import the solver before the first par is timed."""
    import cinch.solver  # noqa: F401
    import cinch.table.summary  # noqa: F401


_PARS: dict[ParJob, ParValue | None] = {}  # the pars worked out in a pool, by deal (a process's cache)


def _cached(job: ParJob) -> object:
    return _PARS.get(job, _MISSING)


def _remember(job: ParJob, value: ParValue | None) -> None:
    if len(_PARS) >= 2048:
        _PARS.pop(next(iter(_PARS)))
    _PARS[job] = value


# ---- the analysis ------------------------------------------------------------------------------------------
def analysis_spec(record: dict[str, Any], number: Any) -> DealSpec:
    """Deal ``number`` (from 1) of a record, as the analysis takes it; a :class:`RecordError` says what is wrong."""
    deals = record.get("deals") if isinstance(record, dict) else None
    if isinstance(deals, list) and len(deals) > MAX_DEALS:
        raise RecordError(f"the record holds {len(deals)} deals; the viewer shows records of at most {MAX_DEALS}")
    text = str(number)
    match = replay(record).match
    count = len(match.deals)
    if not text.isdigit() or not 1 <= int(text) <= count:
        raise RecordError(f"deal must be a deal's number, 1 to {count}, not {text!r}" if count else
                          "the record holds no deals to analyse")
    return DealSpec.of(match, int(text) - 1)


_ANALYSES: dict[tuple[DealSpec, AnalysisSettings], dict[str, Any]] = {}  # finished analyses, by deal
_RUNNING: dict[tuple[DealSpec, AnalysisSettings], asyncio.Future[dict[str, Any]]] = {}


async def analyse(spec: DealSpec, executor: Executor | None, settings: AnalysisSettings | None = None,
                  timeout: float = ANALYSIS_TIMEOUT, budget: float = ANALYSIS_BUDGET) -> dict[str, Any]:
    """The analysis of one deal as JSON, its decisions judged one at a time in ``executor`` (or a thread).

    Two viewers asking for the same deal share one analysis; a finished one is kept.  A viewer
    that leaves does not stop it (the next one gets it).  A decision slower than ``timeout``, or
    the deal's ``budget`` spent, ends the analysis there: ``"status": "partial"``.
    """
    settings = settings or ANALYSIS_SETTINGS
    key = (spec, settings)
    done = _ANALYSES.get(key)
    if done is not None:
        return done
    running = _RUNNING.get(key)
    if running is None:
        running = _RUNNING[key] = asyncio.ensure_future(_analyse(spec, executor, settings, timeout, budget))
        running.add_done_callback(lambda _: _RUNNING.pop(key, None))
    return await asyncio.shield(running)


async def _analyse(spec: DealSpec, executor: Executor | None, settings: AnalysisSettings, timeout: float,
                   budget: float) -> dict[str, Any]:
    loop = asyncio.get_running_loop()
    steps = await asyncio.to_thread(decision_steps, spec)
    if executor is not None and steps:
        executor = await _warm(executor)
    deadline = time.monotonic() + budget
    judged: list[Judgement] = []
    why = ""
    for step in steps:
        left = deadline - time.monotonic()
        if left <= 0:
            why = f"the analysis had no time left ({budget:g} s for a deal)"
            break
        try:
            job: Awaitable[Judgement] = (loop.run_in_executor(executor, judge, spec, step, settings)
                                         if executor is not None else asyncio.to_thread(judge, spec, step, settings))
            judged.append(await asyncio.wait_for(job, min(timeout, left)))
        except TimeoutError:
            why = f"a decision took longer than {min(timeout, left):g} s"
            break
        except Exception as e:  # a broken pool, a bug in a search: what was judged still shows
            log.warning("analysis of a replayed deal failed: %r", e)
            why = "the search failed"
            break
    analysis = DealAnalysis(spec.number, spec.dealer_seat, len(spec.actions), judged, spec.headline())
    seats = spec.table.seats
    names = dict(zip(seats, spec.players or ("",) * len(seats), strict=True))
    data = {**analysis.to_json(), "status": "partial" if why else "done", "settings": settings.to_json(),
            "seats": {s.seat.name: s.to_json() for s in analysis.summaries(names)},
            "text": _analysis_words(analysis, len(steps), why)}
    if not why:
        if len(_ANALYSES) >= 256:
            _ANALYSES.pop(next(iter(_ANALYSES)))
        _ANALYSES[spec, settings] = data
    return data


def _analysis_words(analysis: DealAnalysis, total: int, why: str) -> str:
    marked = analysis.marked
    head = (f"{len(analysis.judgements)} decisions with a choice judged" if not why else
            f"{len(analysis.judgements)} of {total} decisions judged ({why})")
    marks = f"{len(marked)} marked" if marked else "none marked"
    accuracy = ", ".join(f"{s.seat} {s.accuracy:.0f}%" for s in analysis.summaries() if s.accuracy is not None)
    return f"{head}, {marks}." + (f" Accuracy: {accuracy}." if accuracy else "")


# ---- the routes ------------------------------------------------------------------------------------------
def add_replay_routes(routes: list[Any], server: Any) -> None:
    """Add the replay viewer's routes to ``routes`` (the app's route list), over ``server``'s library."""

    def executor() -> Executor | None:
        pool = getattr(getattr(server, "thinker", None), "_pool", None)
        if not callable(pool):
            return None
        try:
            made = pool()
        except Exception:
            return None
        return made if isinstance(made, Executor) else None

    async def answer(record: dict[str, Any]) -> Response:
        try:
            data, jobs = await asyncio.to_thread(build, record)
        except CinchError as e:
            return error_json("bad-record", str(e), 400)
        except Exception as e:  # a record no check foresaw: still one clear line, never a traceback
            log.exception("a replayed record failed")
            return error_json("bad-record", f"the record could not be replayed ({type(e).__name__}: {e})", 400)
        await fill_pars(data, jobs, executor())
        return JSONResponse(data)

    async def analysis_answer(record: dict[str, Any], request: Request) -> Response:
        try:
            spec = await asyncio.to_thread(analysis_spec, record, request.query_params.get("deal", ""))
        except CinchError as e:
            return error_json("bad-record", str(e), 400)
        except Exception as e:
            log.exception("a record to analyse failed")
            return error_json("bad-record", f"the record could not be replayed ({type(e).__name__}: {e})", 400)
        return JSONResponse(await analyse(spec, executor()))

    async def uploaded(request: Request) -> dict[str, Any] | Response:
        """The record a request posts, or the error response that says why there is none."""
        try:
            record = await read_json(request, MAX_UPLOAD, A_RECORD)
        except BadBody as e:
            return e.response()
        if not isinstance(record, dict):
            return error_json("bad-record", f"a record is a JSON object with format, rules and deals, not "
                                            f"{json_kind(record)}", 400)
        return record

    async def upload(request: Request) -> Response:
        record = await uploaded(request)
        return record if isinstance(record, Response) else await answer(record)

    async def upload_analysis(request: Request) -> Response:
        record = await uploaded(request)
        return record if isinstance(record, Response) else await analysis_answer(record, request)

    def stored(request: Request) -> tuple[StoredMatch, dict[str, Any]] | Response:
        """The match the path names and its record, without a running deal of a live match."""
        raw = request.path_params["id"]
        text = raw[1:] if raw.startswith("#") else raw
        if not text.isdigit() or len(text) > 18:
            return error_json("unknown-match", f"{raw!r} is not a match id (a number, as 12)", 404)
        try:
            match = server.library.get(int(text))
            record = match.record
        except UnknownMatch:
            return error_json("unknown-match", f"there is no match {text} in the game library", 404)
        except LibraryError as e:
            return error_json("damaged-record", str(e), 500)
        if not _shared(server, match):
            return error_json("unknown-match", f"match {text} is not one this server shares (only its rooms' matches: "
                                          "`cinch serve --share-library` shares the whole library)", 404)
        if _may_be_running(server, match):
            record = finished_deals(record)
        return match, _without_room_code(record)

    async def library(request: Request) -> Response:
        raw = request.query_params.get("limit", "")
        limit = int(raw) if raw.isdigit() else LIBRARY_LIMIT
        limit = max(1, min(limit, LIBRARY_MAX))
        try:
            matches = [m for m in server.library.list(limit=limit) if _shared(server, m)]
            rooms = _listed_rooms(server) if any(m.frontend == "server" for m in matches) else {}
        except LibraryError as e:
            return error_json("library", str(e), 500)
        return JSONResponse({"matches": [_listing(server, m, rooms.get(m.id)) for m in matches], "limit": limit})

    async def library_replay(request: Request) -> Response:
        found = stored(request)
        if isinstance(found, Response):
            return found
        return await answer(found[1])

    async def library_analysis(request: Request) -> Response:
        found = stored(request)
        if isinstance(found, Response):
            return found
        return await analysis_answer(found[1], request)

    async def library_record(request: Request) -> Response:
        found = stored(request)
        if isinstance(found, Response):
            return found
        return Response(dumps(found[1]), media_type="application/json")

    routes.extend([
        *page_routes("/replay", STATIC, "replay.js", "replay.css"),
        Route("/api/replay", upload, methods=["POST"]),
        Route("/api/replay/analysis", upload_analysis, methods=["POST"]),
        Route("/api/library", library),
        Route("/api/library/{id}/replay", library_replay),
        Route("/api/library/{id}/record", library_record),
        Route("/api/library/{id}/analysis", library_analysis),
    ])




def _shared(server: Any, stored: StoredMatch) -> bool:
    """Whether the server shows this match: its rooms' matches always; the terminal's own games only when
    the library is shared (by default only on this machine's loopback address).  A daily table's boards, and an
    event table's, never: a board is shown only to those who have played it, by its traveller (cinch.server.daily,
    cinch.server.events)."""
    if stored.frontend in ("daily", "event"):
        return False
    return stored.frontend == "server" or bool(getattr(server, "share_library", True))


def _may_be_running(server: Any, stored: StoredMatch) -> bool:
    """Whether someone may be playing the match's last deal now: a server room's match, or any match
    stored in progress (its running deal's cards are never shown)."""
    if stored.status == FINISHED:
        return False
    if stored.status == IN_PROGRESS or stored.frontend == "server":
        return True
    rooms = getattr(server, "rooms", {})
    return any(getattr(room, "match_id", None) == stored.id for room in rooms.values())


def _without_room_code(record: dict[str, Any]) -> dict[str, Any]:
    """The record without the code of the server room it was played in: the code of a private room is its
    invitation, not for whoever browses the library."""
    meta = record.get("server")
    if isinstance(meta, dict) and "room" in meta:
        return {**record, "server": {k: v for k, v in meta.items() if k != "room"}}
    return record


def _listed_rooms(server: Any) -> dict[int, str]:
    """The code of the room each match of a listed room was played in (the lobby shows those codes to
    anyone); a private room's code is its invitation, and its matches go without one."""
    codes: dict[int, str] = {}
    for row in server.library.rooms():
        data = row.get("data") or {}
        settings = data.get("settings") if isinstance(data, dict) else None
        if not isinstance(settings, dict) or settings.get("listed") is not True:
            continue
        for match_id in data.get("matches") or ():
            if isinstance(match_id, int):
                codes[match_id] = str(row["code"])
    return codes


def _listing(server: Any, stored: StoredMatch, room: str | None = None) -> dict[str, Any]:
    live = _may_be_running(server, stored)
    table = table_of(stored.rules_json)
    score = tuple(stored.score)
    return {
        "id": stored.id,
        "date": stored.created.isoformat(),
        "updated": stored.updated.isoformat(),
        "rules": stored.rules,
        "players": {s.name: stored.players[s] for s in table.seats if s in stored.players},
        # By side ({"NS", "EW"}, or by player at a cut-throat table); None if the library kept no such score.
        "score": table.side_json(score) if len(score) == table.sides else None,
        "winner": None if stored.winner is None else stored.winner.name,
        "status": stored.status,
        "frontend": stored.frontend,
        "deals": stored.deals,
        "live": live,
        "room": room,  # the code of the (listed) room it was played in, else None
    }


__all__ = ["MAX_UPLOAD", "add_replay_routes", "analyse", "analysis_spec", "build", "fill_pars", "frames", "par_json",
           "solve_par"]
