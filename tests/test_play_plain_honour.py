"""`cinch play --plain` under the honour rule: a revoke typed on purpose, a misdeal claimed, help."""

from __future__ import annotations

import io

from cinch import Card, Seat
from cinch.actions import Pass
from cinch.play_plain import Choice, PlainGame, interpret
from helpers import TRUMP_LEAD, dealt_table

HONOUR_002 = {"honour_rule": True, "irregularities": "002"}


class Lines:
    def __init__(self, *lines: str):
        self.lines = list(lines)

    def readline(self) -> str:
        return self.lines.pop(0) + "\n" if self.lines else ""


def play(options: dict | None, *lines: str) -> tuple[PlainGame, str]:
    table = dealt_table("pagat", TRUMP_LEAD, Seat.N, options=options)
    out = io.StringIO()
    game = PlainGame(table, Seat.S, inp=Lines(*lines), out=out, symbols=True)
    game.run()
    return game, out.getvalue()


def test_a_revoke_is_typed_on_purpose_and_the_ruling_is_told():
    game, out = play(HONOUR_002, "pass", "ac", "help", "ac!", "1")
    assert "playing AC is a revoke; the honour rule lets it be played only on purpose. To play it anyway, type " \
           "'play AC!' (or 'revoke AC')." in out
    assert "Honour rule: another card may be played on purpose as a revoke, as 'play AC!'." in out
    assert "claim revoke, claim bid, claim lead" in out  # help lists the commands under the honour rule
    assert "S (you) plays A♣." in out and "S revoked on trick 1 (played A♣): claimed." in out
    assert "Revoke: EW +14." in out and "Score: NS 0, EW 14; target 62." in out
    assert game.match.summaries[0].result.ruling


def test_without_the_honour_rule_a_card_typed_on_purpose_is_still_refused():
    game, out = play(None, "pass", "revoke ac", "ac!", "help")
    assert out.count("AC is illegal: a trump was led (AH) and S holds trumps, so must play a trump.") == 2
    assert "To play it anyway" not in out and "claim revoke" not in out
    assert Card.parse("AC") in game.table.view(Seat.S).hand


def test_a_misdeal_is_claimed_before_the_first_call():
    table = dealt_table("pagat", TRUMP_LEAD, Seat.E, options={"honour_rule": True, "irregularities": "003"})
    out = io.StringIO()
    PlainGame(table, Seat.S, inp=Lines("claim misdeal"), out=out).run()  # S bids first: E deals
    text = out.getvalue()
    assert "Misdeal: the dealer loses the deal (003); no score. S deals next." in text
    assert "Deal 2: S (you) deals" in text


def test_interpret_reads_the_honour_rule_forms():
    table = dealt_table("pagat", TRUMP_LEAD, Seat.N, options=HONOUR_002)
    table.play_bots()
    table.act(Seat.S, Pass())
    table.play_bots()
    view = table.view(Seat.S)  # trick 1: W led A♥
    for text in ("revoke 7c", "play 7C!", "7c!"):
        reading = interpret(text, view, [], None)
        assert isinstance(reading, Choice) and reading.irregular and str(reading.action) == "play 7C"
    assert str(interpret("claim lead trumps", view, [], None).action) == "claim lead trumps"
    assert str(interpret("waive", view, [], None).action) == "waive"
    assert "only a card is played as a revoke" in interpret("pass!", view, [], None).message


HONOUR_003 = {"honour_rule": True, "irregularities": "003"}


def test_a_lead_out_of_turn_is_offered_before_the_bot_leads_and_the_claim_takes_it_back():
    # E bids, S passes, W and N bid; then W is to lead and S leads the 2♥ before him, on purpose.
    game, out = play(HONOUR_003, "", "pass", "", "", "2h", "n", "2h", "y", "")
    assert "E to bid — press Enter, or bid out of turn ('bid 8') [help]: " in out
    assert "W to lead — press Enter, or lead out of turn (a card, as '7c') [help]: 2h" in out
    assert ("Leading 2♥* now is a lead out of turn (003): it is W's lead. If W, on your left, claims it, the card "
            "is taken back and W leads.") in out
    assert "Nothing done out of turn; press Enter to let W lead." in out  # the first 'n' kept the card
    assert "S led 2♥* out of turn to trick 1: claimed." in out
    assert "Lead out of turn (003): 2♥* is taken back, and W leads." in out
    assert out.index("claimed.") < out.index("Trick 1: W leads A♥*.")  # W claims at once, then leads
    deal = game.match.current
    assert Card.parse("2H") in game.table.view(Seat.S).hand
    assert [str(a) for a in deal.history].count("S out of turn: play 2H") == 1


def test_a_bid_out_of_turn_is_claimed_and_bars_the_side():
    game, out = play(HONOUR_003, "bid 9", "y")
    assert "Bidding 9 now is a bid out of turn (003): it is E's turn to bid." in out
    assert "Bid out of turn (003): the bid is void, earlier bids stand, and NS may not bid again this deal." in out
    # S's own turn comes next: only a pass is left to him.
    assert "Your turn to bid" in out and "1) pass\n" in out


def test_the_out_of_turn_prompt_takes_only_a_bid_or_a_card_and_the_usual_commands():
    _, out = play(HONOUR_003, "8", "pass", "score", "hint", "help", "")
    assert "Type 'bid 8' to bid out of turn, or press Enter." in out
    assert "'pass': out of turn only a bid ('bid 8') or a card ('7c') is made; press Enter to let E act." in out
    assert "Score: NS 0, EW 0; target 62" in out
    assert "It is E's turn: hint is for your own decisions." in out
    assert "Enter       let him act (the usual answer)" in out


def test_without_003_nothing_is_asked_before_the_bots_act():
    for options in (None, HONOUR_002):
        _, out = play(options, "pass")
        assert "press Enter, or" not in out and "out of turn" not in out
        assert "Your bid [1-8, help]: pass" in out
