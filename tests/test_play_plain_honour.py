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


# ---- the out-of-turn stops turned off and on -------------------------------------------------------------------
ASKED = "press Enter, or"  # the out-of-turn prompt before another player's turn


def test_stops_off_at_the_out_of_turn_prompt_lets_every_other_player_act_at_once():
    # E to bid: 'stops off' answers the question for good; S's own prompt is the next one.
    game, out = play(HONOUR_003, "stops off", "pass")
    assert out.count(ASKED) == 1
    assert "Out-of-turn stops are off: the other players act without asking you; 'stops on' asks again" in out
    assert "Your bid [" in out and "Trick 1: W leads A♥*." in out  # W and N bid and W led without a question
    assert not game.stops


def test_stops_on_at_your_own_prompt_brings_the_questions_back():
    _, out = play(HONOUR_003, "stops off", "stops", "stops on", "pass")
    assert "Out-of-turn stops are off" in out and "Out-of-turn stops are on: before each other player's bid" in out
    assert out.count(ASKED) == 2 and "W to bid — press Enter, or bid out of turn ('bid 8') [help]: " in out


def test_help_tells_the_stops_command():
    _, out = play(HONOUR_003, "help", "", "help")
    assert "stops off   no more of these questions this match" in out  # at the out-of-turn prompt
    assert "stops off, stops on   end these questions" in out  # at your own prompt


def test_stops_without_003_say_there_is_nothing_to_stop_for():
    _, out = play(HONOUR_002, "stops off", "pass")
    assert "There is nothing to stop for: acting out of turn needs the honour rule with 003's rulings" in out
    assert ASKED not in out


def test_the_opening_line_under_003_tells_the_stops_and_the_option_turns_them_off():
    from click.testing import CliRunner

    from cinch.cli import main

    args = ["play", "--plain", "--no-library", "--rules", "official", "-o", "honour_rule=true", "-o",
            "irregularities=003", "--seed", "3", "--seat", "W"]  # E deals: S bids before W
    asked = CliRunner().invoke(main, args, input="")
    assert "Honour rule (003): you may bid, lead or play out of turn. Out-of-turn stops are on" in asked.stdout
    assert ASKED in asked.stdout
    quiet = CliRunner().invoke(main, [*args, "--no-stops"], input="")
    assert "Honour rule (003): you may bid, lead or play out of turn. Out-of-turn stops are off" in quiet.stdout
    assert ASKED not in quiet.stdout and "Bidding so far: S " in quiet.stdout  # S bid without a question
    plain = CliRunner().invoke(main, ["play", "--plain", "--no-library", "--seed", "3"], input="")
    assert "Out-of-turn stops" not in plain.stdout  # no honour rule: nothing to tell


def test_the_stops_option_reaches_the_tables_setting(monkeypatch):
    from click.testing import CliRunner

    import cinch.cli.play as play_cli
    import cinch.tui.app as tui_app
    from cinch.cli import main

    settings = []
    monkeypatch.setattr(play_cli, "_stdin_is_terminal", lambda: True)
    monkeypatch.setattr(play_cli, "_isatty", lambda stream: True)
    monkeypatch.setattr(tui_app, "run", lambda *args, **kwargs: settings.append(kwargs["settings"]) or 0)
    for extra in ([], ["--stops"], ["--no-stops"]):
        CliRunner().invoke(main, ["play", "--table", "--no-library", *extra], input="")
    assert [s.stops for s in settings] == [False, True, False]  # the table starts without them
