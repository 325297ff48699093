"""``cinch solve FILE``: the double-dummy par of the position a game record stops at.

FILE is a record file, ``-`` for standard input, or a match id of the game library, as
for ``cinch replay``.
"""

from __future__ import annotations

import json
from typing import Any

import click

from cinch.cli.options import db_option, fail
from cinch.errors import CinchError
from cinch.record import loads, replay
from cinch.solver import Position, SolveResult, solve
from cinch.view import Phase

_PHASE_WORDS = {
    Phase.BIDDING: "the bidding",
    Phase.TRUMP: "the naming of trumps",
    Phase.DISCARD: "the discard",
    Phase.RESTOCK: "the forming of a new stock",
    Phase.ROB: "the dealer's rob",
}


class SolveError(Exception):
    """A record that cannot be solved: one line for the user."""


def solve_record(text: str) -> dict[str, Any]:
    """Replay a record and solve the play position it stops at, as a JSON-ready dict."""
    try:
        match = replay(loads(text)).match  # (a record of real cards has no match: its RecordError says so)
    except CinchError as e:
        raise SolveError(str(e)) from None
    deal = match.current
    number = len(match.deals)
    if deal is None:
        if not match.deals:
            raise SolveError("the record has no deals: solve needs a record that stops inside the play of a deal")
        if match.winner is not None:
            where = f"the match is over ({match.winner} won; {match.table.score_text(match.score)})"
        else:
            where = f"the record stands between deals (deal {number} is over; {match.next_dealer} deals next)"
        raise SolveError(f"{where}: solve needs a record that stops inside the play of a deal")
    if deal.phase is not Phase.PLAY:
        who = f", {deal.to_act} to act" if deal.to_act is not None else ""
        raise SolveError(
            f"the record stops in {_PHASE_WORDS.get(deal.phase, deal.phase.value)} of deal {number}{who}: "
            "solve needs a record that stops inside the play (after the draw and the rob)"
        )
    pos = Position.from_deal(deal)
    res = solve(pos)
    return _to_json(number, deal, pos, res)


def _teams(pair: tuple[int, ...]) -> dict[str, int]:
    return {"NS": pair[0], "EW": pair[1]}


def _maker_others(pair: tuple[int, ...]) -> dict[str, int]:
    return {"maker": pair[0], "others": pair[1]}


def _to_json(number: int, deal, pos: Position, res: SolveResult) -> dict[str, Any]:
    """The solve as JSON.  At a cut-throat table ``par`` and ``score_change`` are by player, ``difference``
    and each card's ``value`` are the maker's points less the others' together, and each card's
    ``points`` are ``{"maker": .., "others": ..}``: the solver plays the others as one side."""
    table = pos.rules.seating
    sides = _teams if table.partnership else table.side_json
    after = _teams if table.partnership else _maker_others
    cards = []
    for card, value in res.card_values.items():
        entry: dict[str, Any] = {"card": str(card), "value": value, "points": after(res.points_after(card))}
        if card in res.buries:
            entry["bury"] = str(res.buries[card])
        cards.append(entry)
    best = [str(c) for c in res.best_cards]
    change = res.score_change
    return {
        "deal": number,
        "players": table.players,
        "dealer": deal.dealer.name,
        "trick": pos.tricks_done + 1,
        "to_act": res.to_act.name if res.to_act is not None else None,
        "maker": pos.maker.name,
        "makers": res.makers.name,
        "bid": res.bid,
        "trump": pos.trump.letter,
        "par": sides(res.points),
        "difference": res.value,
        "made": res.made,
        "score_change": None if change is None else sides(change),
        "best": best,
        "cards": cards,
        "nodes": res.nodes,
    }


def _signed(v: int) -> str:
    return f"{v:+d}" if v else "0"


def describe(data: dict[str, Any]) -> str:
    """The solve in words, for people."""
    if data.get("players", 4) != 4:
        return _describe_cut_throat(data)
    makers = data["makers"]
    trump = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}[data["trump"]]
    par = data["par"]
    lines = [
        f"Deal {data['deal']} (dealer {data['dealer']}), trick {data['trick']}: {data['to_act']} to play; "
        f"{data['maker']} bid {data['bid']} in {trump} (makers {makers}).",
    ]
    verdict = "make" if data["made"] else "fall short of"
    change = data["score_change"]
    settle = ""
    if change is not None:
        settle = f"; the settlement gives NS {_signed(change['NS'])}, EW {_signed(change['EW'])}"
    lines.append(
        f"Par with best play: NS {par['NS']}, EW {par['EW']} (NS-EW {_signed(data['difference'])}): "
        f"{makers} {verdict} their bid of {data['bid']}{settle}."
    )
    best = data["best"]
    bury = {c["card"]: c.get("bury") for c in data["cards"]}
    shown = [b + (f" bury {bury[b]}" if bury.get(b) else "") for b in best]
    lines.append(f"Best for {data['to_act']}: {', '.join(shown)}")
    lines.append("Each card, best first (NS-EW after it, then best play; the points it leaves):")
    sign = 1 if data["to_act"] in ("N", "S") else -1
    for c in sorted(data["cards"], key=lambda c: -sign * c["value"]):
        mark = "*" if c["card"] in best else " "
        extra = f"  bury {c['bury']}" if c.get("bury") else ""
        pts = c["points"]
        lines.append(f" {mark} {c['card']:<3} {_signed(c['value']):>4}   NS {pts['NS']:>2}, EW {pts['EW']:>2}{extra}")
    return "\n".join(lines)


def _describe_cut_throat(data: dict[str, Any]) -> str:
    """The solve in words at a cut-throat table: the maker alone against the others together."""
    trump = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}[data["trump"]]
    maker = data["maker"]
    scores = ", ".join(f"{k}: {v}" for k, v in data["par"].items())
    lines = [
        f"Deal {data['deal']} (dealer {data['dealer']}, {data['players']} players), trick {data['trick']}: "
        f"{data['to_act']} to play; {maker} bid {data['bid']} in {trump}, alone against the others together.",
        f"Par with best play: {scores} (the maker less the others {_signed(data['difference'])}): "
        f"{maker} {'makes' if data['made'] else 'falls short of'} the bid of {data['bid']}.",
    ]
    change = data["score_change"]
    if change is not None:
        lines.append("The settlement gives " + ", ".join(f"{k}: {_signed(v)}" for k, v in change.items()) + ".")
    best = data["best"]
    bury = {c["card"]: c.get("bury") for c in data["cards"]}
    shown = [b + (f" bury {bury[b]}" if bury.get(b) else "") for b in best]
    lines.append(f"Best for {data['to_act']}: {', '.join(shown)}")
    lines.append("Each card, best first (the maker less the others after it, then best play):")
    sign = 1 if data["to_act"] == maker else -1
    for c in sorted(data["cards"], key=lambda c: -sign * c["value"]):
        mark = "*" if c["card"] in best else " "
        extra = f"  bury {c['bury']}" if c.get("bury") else ""
        pts = c["points"]
        lines.append(f" {mark} {c['card']:<3} {_signed(c['value']):>4}   maker {pts['maker']:>2}, "
                     f"others {pts['others']:>2}{extra}")
    return "\n".join(lines)


@click.command("solve")
@click.argument("file", metavar="FILE")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@db_option
def solve_command(file: str, as_json: bool, db: str | None) -> None:
    """Solve the play position a game record stops at, with every hand open.

    FILE is a record, - for standard input, or a match id of the game library (12 or #12).
    Prints the par (the points each side takes with best play from here, their NS-EW
    difference, whether the makers make their bid and the settlement), and the value of
    each legal card of the player to act, best first (the best marked with *).
    """
    from cinch.cli.library import read_record

    try:
        text = read_record(file, db)
    except CinchError as e:
        fail(f"{file}: {e}")
    try:
        data = solve_record(text)
    except SolveError as e:
        fail(f"{file}: {e}")
    except RecursionError:
        fail(f"{file}: the record is nested too deeply to read")
    except Exception as e:  # a bug: still one line, no traceback
        fail(f"{file}: internal error while solving ({type(e).__name__}: {e}); please report it with this record")
    if as_json:
        click.echo(json.dumps(data, ensure_ascii=False))
    else:
        click.echo(describe(data))


__all__ = ["solve_command", "solve_record", "describe", "SolveError"]
