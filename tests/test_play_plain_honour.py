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
