"""A match at a table (cinch.table.session): turns, legality, the bots, undo, saving before telling."""

from __future__ import annotations

import random

import pytest

from cinch import Card, Rules, Seat
from cinch.actions import WAIVE, Bid, Claim, OutOfTurn, Pass, Play
from cinch.bots.base import Bot
from cinch.errors import IllegalAction
from cinch.keep import KeepOptions
from cinch.library import Library
from cinch.record import replay, to_record
from cinch.table import Pending, Saver, Table, answer_choices
from cinch.table.narrate import Narrator, result_lines
from cinch.view import Phase
from helpers import TRUMP_LEAD, dealt_table, rules


def test_why_illegal_names_the_rule_and_leaves_the_deal_alone():
    game = dealt_table("pagat", TRUMP_LEAD, Seat.N)
    assert game.why_illegal(Pass()) == "it is E's turn, not S's"
    game.match.apply(Bid(7), Seat.E)
    assert game.why_illegal(Bid(3)) == "bids run from 7 to 14 under pagat"
    assert game.why_illegal(Bid(7)) == "each bid must beat the one before (E bid 7)"
    assert game.why_illegal(Pass()) is None
    assert len(game.deal.history) == 1 and game.deal.to_act == Seat.S


def test_act_refuses_another_seats_turn_a_bots_seat_and_an_illegal_action():
    game = dealt_table("pagat", TRUMP_LEAD, Seat.N)
    assert game.advance() is Pending.BOT and game.to_act == Seat.E
    with pytest.raises(IllegalAction, match="it is E's turn, not S's"):
        game.act(Seat.S, Pass())
    with pytest.raises(IllegalAction, match="E is played by the heuristic bot"):
        game.act(Seat.E, Pass())
    game.play_bots()
    assert game.advance() is Pending.HUMAN and game.to_act == Seat.S
    with pytest.raises(IllegalAction, match="bids run from 7 to 14"):
        game.act(Seat.S, Bid(2))
    game.act(Seat.S, Pass())
    assert game.deal.actors[-1] == Seat.S


class Failing(Bot):
    name = "failing"

    def choose(self, view):
        raise RuntimeError("out of ideas")


class Cheating(Bot):
    name = "cheating"

    def choose(self, view):
        return Bid(99)


@pytest.mark.parametrize("bot, why", [(Failing, "out of ideas"), (Cheating, "no legal action")])
def test_a_broken_bot_plays_its_first_legal_choice_and_the_table_says_so(bot, why):
    game = Table.new(Rules.preset("difference"), people={Seat.S: "you"}, seed=5,
                     bot_factory=lambda name, seed: bot(seed))
    assert game.advance() is Pending.BOT
    seat = game.to_act
    turn = game.bot_turn()
    assert game.play_bot(turn, *turn.decide())
    assert game.deal.history[0] == turn.view.legal[0] and game.deal.actors[0] == seat
    notes = game.take_notes()
    assert notes == [f"{seat}'s bot failed ({why}): it takes the first legal choice."]
    assert game.take_notes() == []


def test_a_stale_bot_turn_is_not_played():
    game = Table.new(Rules.preset("pagat"), people={Seat.S: "you"}, seed=0, bots="basic")
    assert game.advance() is Pending.BOT
    turn = game.bot_turn()
    game.play_bot(turn, *turn.decide())
    assert not game.play_bot(turn, *turn.decide())  # answered already: the table moved on
    assert len(game.deal.history) == 1


def test_a_deal_ends_with_its_summary_before_the_next_is_dealt():
    game = Table.new(Rules.preset("difference"), people={Seat.S: "you"}, seed=3, bots="basic")
    while True:
        pending = game.advance()
        if pending is Pending.DEAL_OVER:
            break
        if pending is Pending.HUMAN:
            game.act(Seat.S, game.view().legal[0])
        else:
            game.play_bots()
    assert game.pending() is Pending.DEAL_OVER and len(game.match.deals) == 1 and game.deal.is_over
    game.acknowledge()
    assert game.advance() in (Pending.HUMAN, Pending.BOT) and len(game.match.deals) == 2


def test_every_action_is_saved_before_act_returns(tmp_path):
    lib = Library.open(tmp_path / "games.sqlite3")
    saver = Saver(lib, save_path=tmp_path / "m.json")
    game = Table.new(Rules.preset("pagat"), people={Seat.S: "you"}, seed=4, bots="basic", saver=saver)
    game.play_bots()
    game.act(Seat.S, game.view().legal[0])
    stored = lib.get(saver.match_id)
    assert stored.position == (1, len(game.deal.history))
    from cinch.record import loads

    on_disk = replay(loads((tmp_path / "m.json").read_text(encoding="utf-8"))).match
    assert on_disk.deals[-1].history == game.deal.history
    assert saver.saved_to == str(tmp_path / "m.json")
    lib.close()


def test_undo_replays_the_record_and_the_same_decks_follow():
    rules = Rules.preset("difference").with_options(target=200)
    game = Table.new(rules, people={Seat.S: "you"}, seed=17)
    plain = Table.new(rules, people={Seat.S: "you"}, seed=17)
    for g in (game, plain):
        g.start_deal()
    rng = random.Random(3)

    def step(g: Table, choice: int) -> None:
        deal = g.deal
        seat = deal.to_act
        if seat is None:
            g.match.resolve_chance()
            return
        view = g.match.view(seat)
        action = view.legal[choice % len(view.legal)] if seat == g.human else g.bots[seat].choose(view)
        g.match.apply(action, seat)

    choices = [rng.randrange(100) for _ in range(400)]
    i = 0
    while game.deal.phase is not Phase.PLAY:
        step(game, choices[i])
        step(plain, choices[i])
        i += 1
    history = list(game.deal.history)
    target = game.undo_target()
    assert target is not None and game.deal.actors[target] == Seat.S
    assert game.undo()
    assert game.deal.history == history[:target]
    assert game.deal.deck == plain.deal.deck
    # The rebuilt match deals the next deck the first one would have dealt.
    for g in (game, plain):
        while not g.deal.is_over:
            deal = g.deal
            seat = deal.to_act
            if seat is None:
                g.match.resolve_chance()
                continue
            g.match.apply(g.match.view(seat).legal[0], seat)
        g.start_deal()
    assert game.deal.deck == plain.deal.deck


def test_nothing_to_undo_before_your_first_decision_nor_when_undo_is_off():
    game = Table.new(Rules.preset("pagat"), people={Seat.S: "you"}, seed=5)
    game.start_deal()
    assert game.undo_target() is None and not game.undo()
    game = Table.new(Rules.preset("pagat"), people={Seat.S: "you"}, seed=2, undo=False)
    game.play_bots()
    game.act(Seat.S, game.view().legal[0])
    assert game.undo_target() is None and not game.undo()


def test_undo_never_takes_back_another_persons_decision():
    game = Table.new(Rules.preset("difference"), people={Seat.S: "Ann", Seat.N: "Bo"}, seed=6, bots="basic")
    while game.advance() is not Pending.HUMAN or game.to_act != Seat.S:
        if game.advance() is Pending.HUMAN:
            game.act(game.to_act, game.view(game.to_act).legal[0])
        else:
            game.play_bots()
    game.act(Seat.S, game.view(Seat.S).legal[0])
    assert game.undo_target(Seat.S) is not None
    game.play_bots()
    while game.to_act != Seat.N:
        game.play_bots() if game.advance() is Pending.BOT else game.act(game.to_act, game.view(game.to_act).legal[0])
    game.act(Seat.N, game.view(Seat.N).legal[0])  # N decided after S's last decision
    assert game.undo_target(Seat.S) is None and not game.undo(Seat.S)
    assert game.undo_target(Seat.N) is not None


def test_a_table_resumed_from_the_library_has_the_same_bots_and_position(tmp_path):
    lib = Library.open(tmp_path / "games.sqlite3")
    first = Table.new(Rules.preset("official"), people={Seat.E: "you"}, bots="basic", seed=8, saver=Saver(lib))
    first.play_bots()
    first.act(Seat.E, first.view().legal[0])
    first.play_bots()
    match_id = first.saver.match_id
    again = Table.resume(Saver(lib), match_id)
    assert again.human == Seat.E and again.bot_names == {s: "basic" for s in Seat if s != Seat.E}
    assert again.deal.history == first.deal.history and again.to_act == first.to_act
    lib.close()


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
