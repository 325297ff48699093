"""The table layer at cut-throat tables: seats 1 to n, each his own side, in every word it says."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from cinch import Rules, Seat
from cinch.actions import parse_action
from cinch.errors import CinchError
from cinch.keep import KeepOptions
from cinch.match import Match
from cinch.record import loads, replay
from cinch.table import Pending, Table
from cinch.table.narrate import Narrator, result_lines
from cinch.table.summary import points_so_far


def three_player_table(seed: int = 6) -> Table:
    rules = Rules.preset("official").with_options(players=3)
    return Table.new(rules, people={rules.seating.seats[0]: "you"}, bots="random", seed=seed)


def play_one_deal(table: Table, seat: Seat) -> list[str]:
    """Play the person's turns with a seeded random choice until the first deal ends; the narration."""
    rng = random.Random(1)
    narrator = Narrator(seat, symbols=False)
    lines: list[str] = []
    while True:
        pending = table.advance()
        lines += narrator.update(table.match.view(seat))
        if pending is Pending.DEAL_OVER:
            return lines
        if pending is Pending.BOT:
            turn = table.bot_turn()
            assert turn is not None
            table.play_bot(turn, *turn.decide())
        else:
            legal = table.view(seat).legal
            table.act(seat, rng.choice(list(legal)) if not isinstance(legal, KeepOptions) else next(iter(legal)))


def test_a_cut_throat_deal_is_told_by_seat_number_with_the_score_by_player():
    table = three_player_table()
    me = table.human
    assert str(me) == "1" and [str(s) for s in table.people] == ["1"]
    lines = play_one_deal(table, me)
    text = "\n".join(lines)
    assert "Score 1: 0, 2: 0, 3: 0; target 51." in text
    assert "3 players, each for himself: the maker plays alone against all the others." in text
    assert "(partner)" not in text and "NS" not in text
    assert table.deal.maker is not None  # (this seed's deal has a contract)
    assert f"Contract: {Narrator(me).who(table.deal.maker)} alone against all the others" in text
    assert "robs the pack" not in text  # at three the dealer draws like the others
    summary = table.last_summary
    words = "\n".join(result_lines(summary, me, table.rules, summary.score, symbols=False))
    assert f"Score: {table.match.table.score_text(summary.score)}; target 51." in words
    assert summary.result.points is not None
    assert f"Points taken: {table.match.table.score_text(summary.result.points)}." in words


def test_the_sure_points_so_far_are_counted_for_every_player():
    table = three_player_table(seed=9)
    me = table.human
    play_one_deal(table, me)
    view = table.view(me)
    points = points_so_far(view)
    assert view.trump is not None  # (this seed's deal is played)
    assert points is not None and len(points.awards) == 3
    for side, awards in enumerate(points.awards):
        for name, card, _points in awards:  # what is sure by the end matches the deal's awards
            assert any(a.name == name and a.card == card and a.team == side for a in table.last_summary.result.awards)


def test_a_seat_that_is_not_at_the_table_is_refused_in_words():
    rules = Rules.preset("official").with_options(players=3)
    with pytest.raises(CinchError, match="seat S is not at this table; the seats are 1 2 3"):
        Table.new(rules, people={Seat.S: "you"}, bots="random", seed=1)
    table = Table.new(rules, people={2: "you"}, bots="random", seed=1)  # a number is the seat's index
    assert str(table.human) == "3"


RECORDS = Path(__file__).resolve().parent.parent / "records"


def cut_throat_records() -> list[Path]:
    found = []
    for path in sorted(RECORDS.glob("*.json")):
        record = None if path.name.endswith(".expected.json") else loads(path.read_text(encoding="utf-8"))
        if record is not None and Rules.from_json(record["rules"]).cut_throat:
            found.append(path)
    return found


@pytest.mark.parametrize("path", cut_throat_records(), ids=lambda p: p.stem)
def test_every_cut_throat_golden_record_is_told_from_each_seat_by_number(path):
    record = loads(path.read_text(encoding="utf-8"))
    full = replay(record).match
    table = full.table
    for me in table.seats:
        narrator = Narrator(me, symbols=False)
        partial = Match(full.rules, players=dict(full.players))  # the match again, told action by action
        partial.first_dealer = table.parse_seat(record["deals"][0]["dealer"])
        lines: list[str] = []
        for entry in record["deals"]:
            deal = partial.start_deal(entry["deck"], restock=entry.get("restock", "").split() or None,
                                      dealer=table.parse_seat(entry["dealer"]))
            lines += narrator.update(partial.view(me))
            for text in entry["actions"]:
                while deal.to_act is None and not deal.is_over:
                    partial.resolve_chance()
                partial.apply(parse_action(text))
                lines += narrator.update(partial.view(me))
            if deal.is_over:
                summary = partial.summaries[-1]
                lines += result_lines(summary, me, full.rules, summary.score, symbols=False)
        text = "\n".join(lines)
        assert f"{me} (you)" in text and "NS" not in text and "(partner)" not in text
        assert f"Score {table.score_text((0,) * table.sides)}; target" in text


def test_a_deciding_deal_names_only_the_players_at_the_target_as_going_out():
    # pagat-three-players-bidder-goes-out: deal 2 takes 1 and 2 to the target together; on deal 3
    # only they may go out by making their bid, and 3, far behind, may not.
    record = loads((Path(__file__).parents[1] / "records" / "pagat-three-players-bidder-goes-out.json").read_text())
    record["deals"] = record["deals"][:3]
    record["deals"][2] = {**record["deals"][2], "actions": []}
    match = replay(record).match
    me = match.table.seats[2]
    text = "\n".join(Narrator(me, symbols=False).update(match.view(me)))
    assert "1 and 2 win the match by making their bid this deal" in text
    assert "any other maker scores his bid and wins nothing" in text
    assert "makers who make their bid this deal win the match" not in text
