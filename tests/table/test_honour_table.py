"""The honour rule at the table (cinch.table.session): a person revokes or bids out of turn on purpose,
is asked to claim another seat's irregularity, and the ruling lands in the result, the record and the log."""

from __future__ import annotations

import pytest

from cinch import Card, Seat
from cinch.actions import WAIVE, Bid, Claim, OutOfTurn, Pass, Play
from cinch.errors import IllegalAction
from cinch.keep import KeepOptions
from cinch.record import replay, to_record
from cinch.table import Pending, Table, answer_choices
from cinch.table.narrate import Narrator, result_lines
from helpers import TRUMP_LEAD, dealt_table, rules

HONOUR_002 = {"honour_rule": True, "irregularities": "002"}
AC = Play(Card.parse("AC"))


def to_revoke(game: Table) -> None:
    """pagat, TRUMP_LEAD: S passes, and W leads A♥ to trick 1, where S holds the 2♥ and the clubs."""
    game.play_bots()
    game.act(Seat.S, Pass())
    game.play_bots()


def play_on(game: Table, stop=lambda g: False) -> Pending:
    """Bots play, people take their first choice (the suggestion in a keep), until ``stop`` or a deal's end."""
    while True:
        pending = game.advance()
        if pending is Pending.BOT:
            turn = game.bot_turn()
            game.play_bot(turn, *turn.decide())
        elif pending is Pending.HUMAN and not stop(game):
            view = game.view(game.to_act)
            legal = view.legal
            game.act(game.to_act, game.suggestion(game.to_act) if isinstance(legal, KeepOptions) else legal[0])
        else:
            return pending


def test_a_revoke_is_refused_as_a_slip_and_taken_on_purpose_and_the_bot_claims_it():
    game = dealt_table("pagat", TRUMP_LEAD, Seat.N, options=HONOUR_002)
    to_revoke(game)
    assert game.revokes(Seat.S)[0] == AC and Play(Card.parse("2H")) not in game.revokes(Seat.S)
    assert game.why_illegal(AC) == "a trump was led (AH) and S holds trumps: playing AC is a revoke"
    with pytest.raises(IllegalAction, match="only on purpose"):
        game.act(Seat.S, AC)
    narrator = Narrator(Seat.E, symbols=False)  # E learns of the revoke only when it shows
    narrator.update(game.view(Seat.E))
    game.act(Seat.S, AC, irregular=True)
    assert not any("revoked" in line for line in narrator.update(game.view(Seat.E)))
    assert play_on(game) is Pending.DEAL_OVER
    told = narrator.update(game.view(Seat.E))
    assert "S revoked on trick 1 (played AC): claimed." in told and "Revoke: EW +14." in told
    summary = game.last_summary
    assert summary.result.points is None and summary.score == (0, 14)
    assert result_lines(summary, Seat.S, game.rules, summary.score)[1].startswith("NS revoked (002)")
    record = to_record(game.match)
    assert record["deals"][0]["actions"][-1] == "claim revoke"
    assert replay(record).match.summaries[0].result.ruling == summary.result.ruling


def test_undo_takes_back_a_revoke_and_the_claim_that_ended_the_deal():
    game = dealt_table("pagat", TRUMP_LEAD, Seat.N, options=HONOUR_002)
    to_revoke(game)
    game.act(Seat.S, AC, irregular=True)
    assert play_on(game) is Pending.DEAL_OVER
    assert game.undo(Seat.S)  # S's last decision, the 2♥ that showed the revoke: the claim goes with it
    assert game.match.summaries == [] and game.advance() is Pending.HUMAN and len(game.deal.tricks) == 1
    assert not game.deal.irregularities  # the revoke is played but not shown yet
    assert game.undo(Seat.S)  # and the revoke itself
    assert game.advance() is Pending.HUMAN and AC in game.revokes(Seat.S)
    game.act(Seat.S, Play(Card.parse("2H")))  # this time S follows
    assert not game.deal.irregularities


def test_a_person_asked_about_anothers_revoke_claims_or_waives_and_undo_stops_at_the_answer():
    game = Table.new(rules("pagat", **HONOUR_002), people={Seat.S: "Sue", Seat.W: "Wes"}, bots="basic", seed=3)
    game.match.first_dealer = Seat.N
    game.match.start_deal(deck=TRUMP_LEAD, dealer=Seat.N)
    play_on(game, lambda g: g.to_act == Seat.S and bool(g.revokes(Seat.S)))
    revoke = game.revokes(Seat.S)[0]
    game.act(Seat.S, revoke, irregular=True)
    assert play_on(game, lambda g: bool(answer_choices(g.view(g.to_act)))) is Pending.HUMAN
    assert game.to_act == Seat.W and answer_choices(game.view(Seat.W)) == [Claim("revoke"), WAIVE]
    with pytest.raises(IllegalAction, match="W is asked"):
        game.act(Seat.S, Claim("revoke"))  # (S is a person too, but not the one asked)
    game.act(Seat.W, WAIVE)
    assert f"S revoked on trick 1 (played {revoke.card}): waived." in game.deal.irregularities
    assert game.undo_target(Seat.S) is None  # W answered since: S's revoke is not S's to take back
    assert game.undo(Seat.W) and answer_choices(game.view(Seat.W))  # W is asked again
    game.act(Seat.W, Claim("revoke"))
    assert play_on(game) is Pending.DEAL_OVER and "NS revoked (002)" in game.last_summary.result.describe()


def test_a_bid_out_of_turn_under_003_is_the_persons_own_and_bars_the_side_once_claimed():
    game = dealt_table("pagat", TRUMP_LEAD, Seat.N, options={"honour_rule": True, "irregularities": "003"})
    assert game.advance() is Pending.BOT and game.to_act == Seat.E
    with pytest.raises(IllegalAction, match="for his own seat only"):
        game.act(Seat.S, OutOfTurn(Seat.N, Bid(8)))
    with pytest.raises(IllegalAction, match="out of turn is made on purpose"):
        game.act(Seat.S, Bid(8))  # a bare bid out of turn is a slip, not an offence
    generation = game.generation
    game.act(Seat.S, OutOfTurn(Seat.S, Bid(8)))
    assert game.generation > generation  # E's bot turn, if being thought, is stale: W is asked now
    assert game.to_act == Seat.W and game.advance() is Pending.BOT
    play_on(game, lambda g: g.to_act == Seat.S)
    assert "Bid out of turn (003)" in " ".join(game.deal.irregularities)
    assert [str(a) for a in game.view(Seat.S).legal] == ["pass"]  # NS may not bid again this deal
