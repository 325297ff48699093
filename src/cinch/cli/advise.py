"""``cinch advise HAND``: what each trump suit and bid level is worth to the seat about to bid.

The work is done by :mod:`cinch.study.advise`; this module reads the command line and
prints the advice: Rich tables in a terminal, plain text otherwise, one JSON object with
``--json``, and a Matplotlib plot with ``--plot FILE``.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import click

from cinch.cards import Seat
from cinch.cli.options import OneLineCommand, fail, make_rules, rules_options
from cinch.errors import CinchError
from cinch.library import refuse_overwriting_library
from cinch.rules import Rules
from cinch.study.advise import (
    DEFAULT_SECONDS,
    Advice,
    Estimate,
    SuitAdvice,
    advise,
    parse_calls,
    parse_hand,
    parse_score,
    plot,
    position,
)

if TYPE_CHECKING:
    from rich.console import Console


def _seat(rules: Rules, text: str, option: str) -> Seat:
    """A seat of the rules' table (``N E S W``, or ``1`` to ``n`` cut-throat); a bad one is a usage error."""
    table = rules.seating
    try:
        return Seat.parse(text) if table.partnership else table.parse_seat(text)
    except CinchError as e:
        raise click.BadParameter(str(e), param_hint=f"'{option}'") from None


@click.command("advise", cls=OneLineCommand)
@click.argument("hand", nargs=-1, required=True)
@rules_options
@click.option("--seat", "seat_name", default=None, metavar="SEAT",
              help="The seat about to bid: N, E, S or W (default S); 1 to n at a cut-throat table (default 1).")
@click.option("--dealer", "dealer_name", required=True, metavar="SEAT",
              help="The dealer: N, E, S or W, or 1 to n cut-throat (the bidding starts at the dealer's left).")
@click.option("--bids", "bids", default="", metavar="CALLS",
              help="The calls before yours, from the dealer's left, in record notation: 'pass, bid 7' (a bare "
                   "number is a bid).")
@click.option("--score", "score", default=None, metavar="NS-EW",
              help="The match score before the deal, e.g. 32-41: adds the chance to win the match, and the "
                   "calls are judged by it.  Cut-throat: one number per player, seat 1 first (12,-7,0); the "
                   "chance to win is given at two players only.")
@click.option("--worlds", type=click.IntRange(1, 5000), default=None,
              help="A fixed number of worlds (repeatable for the seed) instead of a time budget.")
@click.option("--time", "seconds", type=click.FloatRange(0.05, 600), default=DEFAULT_SECONDS, show_default=True,
              help="Seconds to think (without --worlds).")
@click.option("--seed", type=int, default=0, show_default=True, help="The seed of the worlds.")
@click.option("--prefilter", type=click.IntRange(1, 30), default=None, metavar="K",
              help="Search only the K calls the learned policy ranks best (and the pass); the others are ranked by "
                   "the model only (default: every call searched).")
@click.option("--weights", type=click.Path(file_okay=False), default=None, metavar="DIR",
              help="With --prefilter: the learned models' folder (cinch train's weights; default: those shipped).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--plot", "plot_file", type=click.Path(dir_okay=False), default=None, metavar="FILE",
              help="Write the distribution of your side's points per suit (PNG, SVG or PDF, by the extension).")
def advise_command(hand: tuple[str, ...], preset: str, options: tuple[str, ...], seat_name: str | None,
                   dealer_name: str, bids: str, score: str | None, worlds: int | None, seconds: float, seed: int,
                   prefilter: int | None, weights: str | None, as_json: bool, plot_file: str | None) -> None:
    """Advise the seat about to bid: every trump suit and level, every call, the best call.

    HAND is the seat's nine cards (six at five or six players; with -o decks=2 eighteen or twelve,
    a card held twice written twice, AH AH), e.g. AS KS 5S 2H 3D 4C 7C 9H TD (quoted or not). The
    worlds are deals consistent with what the seat knows, weighted by the calls before it, played
    out by the expert's playouts (the heuristic bot in every seat).
    Prints, per suit and level, the chance to make the bid and the score change (yours less
    theirs; cut-throat, yours less the others' average; 95% intervals), the value of each call
    with the others answering as the heuristic bids, and the recommended call with its margin
    over the runner-up.

    \b
    e.g. cinch advise AS KS QS JS 5S 2H 3D 4C 7C --rules pagat --dealer W --bids 'pass, pass'
         cinch advise AS KS QS JS 5S 2H 3D 4C 7C --rules official -o players=3 --seat 1 --dealer 3
    """
    try:
        rules = make_rules(preset, options)
    except CinchError as e:
        fail(f"cinch advise: {e}")
    table = rules.seating
    seat = _seat(rules, seat_name or ("S" if table.partnership else table.names[0]), "--seat")
    dealer = _seat(rules, dealer_name, "--dealer")
    try:
        if plot_file is not None:
            refuse_overwriting_library(plot_file, what="the plot")
        cards = parse_hand(" ".join(hand), table.dealt, table.decks)
        view = position(rules, cards, seat, dealer, parse_calls(bids),
                        None if score is None else parse_score(score, table))
        advice = advise(view, worlds=worlds, seconds=seconds, seed=seed, prefilter=prefilter, weights=weights)
        if plot_file is not None:
            _plot(advice, plot_file)
    except CinchError as e:
        fail(f"cinch advise: {e}")
    if as_json:
        click.echo(json.dumps(advice.json(), ensure_ascii=False))
        return
    from rich.console import Console

    console = Console()
    if console.is_terminal:
        _show_rich(console, advice)
    else:
        click.echo(describe(advice))
    if plot_file is not None:
        click.echo(f"The plot is in {plot_file}.")


def _plot(advice: Advice, path: str) -> None:
    try:
        plot(advice, path)
    except OSError as e:
        raise CinchError(f"cannot write the plot to {path}: {e.strerror or e}") from None
    except ValueError as e:  # an extension Matplotlib has no format for
        raise CinchError(f"cannot write the plot to {path}: {e} (use .png, .svg or .pdf)") from None


# ---- the text -------------------------------------------------------------------------------------

def _half(e: Estimate) -> float:
    return (e.high - e.low) / 2


def _cell(advice: Advice, suit: SuitAdvice, bid: int) -> str:
    level = next(lv for lv in suit.levels if lv.bid == bid)
    made = f"{round(100 * level.make.mean):>3}%"
    if level.win is not None:
        return f"{level.win.mean:3.0f}% ±{_half(level.win):2.0f} {made}"
    return f"{level.change.mean:+5.1f} ±{_half(level.change):3.1f} {made}"


def _call_value(advice: Advice, e: Estimate, signed: bool = False) -> str:
    if advice.unit == "%":
        return f"{e.mean:{'+' if signed else ''}.0f}% ±{_half(e):.0f}"
    return f"{e.mean:+.1f} ±{_half(e):.1f}"


def heading(advice: Advice) -> list[str]:
    view = advice.view
    calls = ", ".join(f"{s} {a}" for s, a in view.auction) or "none"
    table = view.rules.seating
    score = "" if view.score is None else f"; score {table.score_text(view.score)} (to {view.target})"
    players = "" if table.partnership else f", {table.players} players each for himself"
    lines = [
        f"Hand of {view.seat}: {view.hand.symbols()}   ({view.rules.name} rules{players}, dealer {view.dealer}; "
        f"calls before: {calls}{score})",
        f"{advice.worlds} worlds (worth {advice.effective:.0f} unweighted) in {advice.seconds:.2f} s; "
        "figures are means with 95% intervals.",
    ]
    if advice.note is not None:
        lines.append(f"With a score, {advice.note}.")
    return lines


def suit_rows(advice: Advice) -> tuple[list[str], list[list[str]]]:
    """The suit-by-level table: a row per bid level, a column per suit (best suit first)."""
    header = ["bid"] + [f"{s.suit.symbol} {s.suit.name.lower()}" for s in advice.suits]
    rows = []
    for level in (lv.bid for lv in advice.suits[0].levels) if advice.suits else ():
        rows.append([str(level)] + [_cell(advice, s, level) for s in advice.suits])
    return header, rows


def call_rows(advice: Advice) -> tuple[list[str], list[list[str]]]:
    unit = "chance to win" if advice.unit == "%" else "score change"
    header = ["call", unit, "over passing", "you are maker", "trumps"]
    rows = []
    for c in advice.calls:
        mark = "*" if c.call == advice.best else " "
        over = "" if c.over_pass is None else _call_value(advice, c.over_pass, signed=True)
        trump = "" if c.trump is None else c.trump.name.lower()
        rows.append([f"{mark}{c.call}", _call_value(advice, c.value), over, f"{round(100 * c.makers)}%", trump])
    return header, rows


def points_line(advice: Advice) -> str:
    parts = [f"{s.suit.symbol} {s.points.text('{:.1f}')}" for s in advice.suits]
    who = "Points your side takes as makers" if advice.you == "your side" else "Points you take as the maker"
    return f"{who}: " + ";  ".join(parts)


def verdict(advice: Advice) -> str:
    words = advice.words()
    margin = ""
    if advice.margin is not None and advice.runner_up is not None:
        fmt = "{:+.0f}" if advice.unit == "%" else "{:+.1f}"
        margin = f" Margin over {advice.runner_up}: {advice.margin.text(fmt)}{'%' * (advice.unit == '%')}."
    heuristic = f" (The heuristic bot would {advice.heuristic}.)"
    return f"Advice: {advice.best}. {words[0].upper()}{words[1:]}.{margin}{heuristic}"


def _table_text(header: list[str], rows: list[list[str]]) -> list[str]:
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    lines = ["  ".join(h.ljust(w) for h, w in zip(header, widths)).rstrip()]
    for r in rows:
        lines.append("  ".join(c.rjust(w) if i else c.ljust(w) for i, (c, w) in enumerate(zip(r, widths))).rstrip())
    return lines


def _grid_title(advice: Advice) -> str:
    lone = advice.view.rules.seating.sides > 2
    what = ("chance to win the match" if advice.unit == "%" else
            "score change (yours less the others' average)" if lone else "score change (yours less theirs)")
    return f"If you are the maker: {what} ± its 95% interval, then the chance to make the bid"


def describe(advice: Advice) -> str:
    """The advice in plain text (standard output that is not a terminal)."""
    lines = heading(advice)
    if advice.suits:
        lines += ["", points_line(advice), "", _grid_title(advice) + ":"]
        lines += ["  " + line for line in _table_text(*suit_rows(advice))]
    lines += ["", "Each call, the others answering as the heuristic bot bids (* the advice):"]
    lines += ["  " + line for line in _table_text(*call_rows(advice))]
    if advice.prefilter_line() is not None:
        lines.append(str(advice.prefilter_line()))
    lines += ["", verdict(advice)]
    return "\n".join(lines)


def _show_rich(console: Console, advice: Advice) -> None:
    from rich.table import Table

    for line in heading(advice):
        console.print(line, highlight=False)
    if advice.suits:
        console.print()
        console.print(points_line(advice), highlight=False)
        console.print()
        header, rows = suit_rows(advice)
        grid = Table(title=_grid_title(advice), title_justify="left")
        for i, h in enumerate(header):
            grid.add_column(h, justify="left" if i == 0 else "right")
        for r in rows:
            grid.add_row(*r)
        console.print(grid)
    console.print()
    header, rows = call_rows(advice)
    calls = Table(title="Each call, the others answering as the heuristic bot bids", title_justify="left")
    for i, h in enumerate(header):
        calls.add_column(h, justify="left" if i in (0, 4) else "right")
    for r in rows:
        calls.add_row(*r, style="bold" if r[0].startswith("*") else None)
    console.print(calls)
    if advice.prefilter_line() is not None:
        console.print(advice.prefilter_line(), highlight=False)
    console.print()
    console.print(verdict(advice), highlight=False)


__all__ = ["advise_command", "describe"]
