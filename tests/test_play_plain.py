"""`cinch play --plain`: whole matches driven by scripted lines of input."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from cinch import PRESET_NAMES, TRUMP_TABLES, Card, CardSet, Keep, Rules, Seat, Suit
from cinch.bots import make_bot
from cinch.cli import main
from cinch.keep import KeepOptions
from cinch.play_plain import (
    Choice,
    Command,
    PlainGame,
    Problem,
    card_text,
    hand_text,
    interpret,
    new_game,
)
from cinch.record import loads, replay
from cinch.table import save_record
from cinch.view import Phase
from helpers import table


class Always:
    """Input that answers every prompt with the same line, up to a limit, then ends."""

    def __init__(self, line: str = "1", limit: int = 5000):
        self.line, self.left = line, limit

    def readline(self) -> str:
        if self.left <= 0:
            return ""
        self.left -= 1
        return self.line + "\n"


class Lines:
    """Given lines, then the end of input."""

    def __init__(self, *lines: str):
        self.lines = list(lines)

    def readline(self) -> str:
        return self.lines.pop(0) + "\n" if self.lines else ""


def game(preset: str = "pagat", inp=None, *, seed: int = 7, seat: Seat = Seat.S, save: Path | None = None,
         **options) -> tuple[PlainGame, io.StringIO]:
    rules = Rules.preset(preset).with_options(**options) if options else Rules.preset(preset)
    out = io.StringIO()
    g = new_game(rules, seat=seat, seed=seed, inp=inp or Always(), out=out, save_path=save, hints="heuristic")
    return g, out


def replayed(path: Path):
    return replay(loads(path.read_text(encoding="utf-8")))


# ---- whole matches ----------------------------------------------------------------------------------
@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_a_whole_match_entering_1_every_time(preset, tmp_path):
    save = tmp_path / "match.json"
    g, out = game(preset, Always("1"), seed=11, save=save)
    assert g.run() == "over"
    text = out.getvalue()
    m = g.match
    assert m.winner is not None
    # The hand with suit symbols, the numbered legal list, the trick, the settlement, the winner.
    assert "Your hand: " in text and any(s in text for s in "♠♥♦♣")
    assert "'bid 8' bids 8):\n  1) pass" in text or "'bid 8' bids 8):\n  1) bid" in text
    assert "You may play:  (* = trump)\n  1) " in text
    assert "Trick 1: " in text and " wins trick 6 with " in text
    assert "Point cards:" in text and "Points taken: NS " in text
    assert any(s.result.describe() in text for s in m.summaries)
    assert f"*** {m.winner} win the match, NS {m.score[0]} to EW {m.score[1]}." in text
    # The record replays to the same end.
    r = replayed(save).to_json()
    assert r["score"] == {"NS": m.score[0], "EW": m.score[1]}
    assert r["winner"] == m.winner.name and r["next"] is None
    assert len(r["deals"]) == len(m.deals)


class Typist:
    """Types what a careful player would, in every input form, with a bad line before most decisions.

    Each bad line is kept with the words its refusal must contain.
    """

    def __init__(self):
        self.game: PlainGame | None = None
        self.queue: list[str] = []
        self.expect: list[tuple[str, str]] = []
        self.decisions = 0
        self.calls = 0

    def bad(self, line: str, reason: str) -> None:
        self.queue.append(line)
        self.expect.append((line, reason))

    def readline(self) -> str:
        self.calls += 1
        assert self.calls < 20000, "the typist is stuck"
        if not self.queue:
            self.plan()
        return self.queue.pop(0) + "\n"

    def plan(self) -> None:
        assert self.game is not None
        seat = self.game.seat
        v = self.game.match.view(seat)
        assert v.to_act == seat and v.legal
        self.decisions += 1
        n = self.decisions
        trump = v.trump
        if v.phase is Phase.BIDDING:
            bids = [a for a in v.legal if str(a).startswith("bid")]
            self.bad("bid 99", "bid 99 is illegal: bids run from")
            if n % 3 == 0:
                self.queue += ["hand", "score", "rules", "hint", "tricks", "list", "help"]
            if bids and (v.deal_number or 0) % 2 == 1:
                self.queue.append(str(bids[0]))  # "bid 7"
            else:
                self.queue.append("pass" if any(str(a) == "pass" for a in v.legal) else str(v.legal[0]))
        elif v.phase is Phase.TRUMP:
            self.bad("pass", "pass is illegal: the maker")
            best = max(Suit, key=lambda s: len(v.hand & s.mask))
            self.queue.append([best.name.lower(), best.letter.lower(), best.symbol, f"trump {best.name}"][n % 4])
        elif isinstance(v.legal, KeepOptions):
            outside = next(c for c in range(52) if not v.legal.pool >> c & 1)
            self.bad(f"keep {Card(outside)}", "is illegal:")
            self.queue.append(["", " ".join(str(c).lower() for c in make_bot("basic").choose(v).cards)][n % 2])
        else:
            plays = v.legal
            cards = {int(p.card) for p in plays}
            not_held = next(c for c in range(52) if c not in v.hand)
            self.bad(Card(not_held).symbol, f"{Card(not_held)} is illegal: {seat} does not hold {Card(not_held)}")
            self.bad("99", "There is no choice 99")
            self.bad("zz", "'zz' is not a card")
            if v.current_trick and trump is not None and TRUMP_TABLES[trump].is_trump(v.current_trick[0].card):
                wrong = [c for c in v.hand if c not in cards]
                if wrong:
                    self.bad(str(Card(wrong[0])).lower(),
                             f"{Card(wrong[0])} is illegal: a trump was led ({Card(v.current_trick[0].card)}) and"
                             f" {seat} holds trumps, so must play a trump")
            first = plays[0]
            if first.bury:
                self.queue.append(str(first))
            else:
                self.queue.append([Card(first.card).symbol, str(Card(first.card)).lower(), str(first)][n % 3])


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_a_whole_match_typed_in_every_form_with_bad_lines_refused(preset, tmp_path):
    typist = Typist()
    save = tmp_path / "m.json"
    g, out = game(preset, typist, seed=5, save=save)
    typist.game = g
    assert g.run() == "over"
    text = out.getvalue()
    assert "Traceback" not in text
    lines = text.splitlines()
    for bad, reason in typist.expect:
        # The echoed bad line is followed by its one-line reason, then the prompt again.
        hits = [i for i, line in enumerate(lines) if line.endswith(": " + bad) and i + 1 < len(lines)]
        assert any(reason in lines[i + 1] for i in hits), (bad, reason)
    assert any("a trump was led" in reason for _, reason in typist.expect) or preset != "pagat"
    assert "Commands, at any prompt:" in text and "The heuristic bot would choose:" in text
    assert "Rules: " + preset in text
    r = replayed(save).to_json()
    assert r["score"] == {"NS": g.match.score[0], "EW": g.match.score[1]}


@pytest.mark.parametrize("preset, options", [
    ("pagat", {"bidding": "auction", "sancho": True}),
    ("additive", {"no_draw": True}),
    ("difference", {"sancho": True, "dom_pedro": True}),
    ("official", {"follow": "strict", "target": 21}),
])
def test_options_on_top_of_a_preset(preset, options):
    typist = Typist()
    g, out = game(preset, typist, seed=2, **options)
    typist.game = g
    assert g.run() == "over"
    text = out.getvalue()
    assert ("The draw from the stock" in text) is not options.get("no_draw", False)
    assert "Traceback" not in text and "win the match" in text


def test_a_match_is_the_same_for_the_same_seed_and_input():
    a, out_a = game("difference", Always("1"), seed=3)
    b, out_b = game("difference", Always("1"), seed=3)
    a.run(), b.run()
    assert out_a.getvalue() == out_b.getvalue()
    c, out_c = game("difference", Always("1"), seed=4)
    c.run()
    assert out_c.getvalue() != out_a.getvalue()


def test_bots_get_only_their_own_view():
    class Spy:
        def __init__(self, seat):
            self.seat, self.bot, self.calls = seat, make_bot("basic", seed=1), 0

        def choose(self, view):
            assert view.seat == self.seat and view.to_act == self.seat
            self.calls += 1
            return self.bot.choose(view)

    g, _ = game("official", Always("1"), seed=2)
    g.table.bots = {s: Spy(s) for s in Seat if s != g.seat}
    assert g.run() == "over"
    assert all(spy.calls for spy in g.table.bots.values())


# ---- stopping: EOF, quit ---------------------------------------------------------------------------------
def test_end_of_input_mid_match_saves_the_pending_decision(tmp_path):
    save = tmp_path / "part.json"
    g, out = game("pagat", Lines("1", "1", "1", "1"), seed=9, save=save)
    assert g.run() == "eof"
    assert "End of input." in out.getvalue() and str(save) in out.getvalue()
    r = replayed(save)
    nxt = r.to_json()["next"]
    assert nxt is not None and nxt["seat"] == "S"
    v = g.match.view(Seat.S)
    assert nxt["phase"] == v.phase.value and v.to_act == Seat.S
    if not isinstance(v.legal, KeepOptions):
        assert nxt["legal"] == [str(a) for a in v.legal]


def test_quit_stops_and_keeps_the_record(tmp_path):
    save = tmp_path / "q.json"
    g, out = game("additive", Lines("1", "quit", "1"), seed=1, save=save)
    assert g.run() == "quit"
    assert "You quit." in out.getvalue()
    assert replayed(save).to_json()["next"]["seat"] == "S"


def test_the_record_is_written_atomically(tmp_path):
    g, _ = game("pagat", Always("1"), seed=1)
    g.run()
    path = tmp_path / "r.json"
    path.write_text("old", encoding="utf-8")
    save_record(g.match, path)
    assert json.loads(path.read_text(encoding="utf-8"))["format"] == "cinch/1"
    assert [p.name for p in tmp_path.iterdir()] == ["r.json"]  # no temporary file left behind


# ---- particular decisions ------------------------------------------------------------------------------
NINE_HEARTS = table("W", S="AH KH QH JH TH 9H 8H 7H 6H", N="AS KS QS JS TS 9S 8S 7S 6S",
                    E="5S 4S 3S 2S AD KD QD JD TD", W="9D 8D 7D 6D 4D 3D 2D AC KC")


def started(preset: str, lines: list[str]) -> tuple[PlainGame, io.StringIO]:
    g, out = game(preset, Lines(*lines), seed=1)
    g.match.first_dealer = Seat.W
    g.match.start_deal(deck=NINE_HEARTS, dealer=Seat.W)
    return g, out


def test_burying_the_excess_on_trick_1():
    g, out = started("pagat", ["bid 14", "h", "kh", "play KH bury 9H 8H AH", "play KH bury 9H 8H 7H"])
    assert g.run() == "eof"
    text = out.getvalue()
    assert "You hold 9 cards: play one and bury 3 under it" in text
    assert "1) A♥*, bury 8♥* 7♥* 6♥*" in text
    assert "KH is illegal: S holds 9 cards and must bury 3 under the first card played." in text
    assert "For example: play KH bury 8H 7H 6H" in text
    assert "play KH bury AH 9H 8H is illegal: burying a point card (AH) is forbidden." in text
    assert "Trick 1: S (you) leads K♥*, burying 9♥* 8♥* 7♥*." in text


def test_keeping_six_of_seven_trumps_shows_the_rest():
    g, out = started("difference", ["bid 14", "hearts", "keep AH", "", "1"])
    assert g.run() == "eof"
    text = out.getvalue()
    assert "The choice: keep 6 of AH KH QH JH TH 9H 8H 7H 6H (84 possible hands)." in text
    assert "keep AH is illegal: a player with more than six trumps keeps exactly six" in text
    assert "S (you) shows the trumps thrown out (dead): 8♥* 7♥* 6♥*." in text
    assert "N (partner) throws face up: A♠ K♠ Q♠ J♠ 10♠ 9♠ 8♠ 7♠ 6♠." in text
    assert "The draw from the stock: N (partner) 6, E 6, S (you) 0." in text
    assert "Cards held" not in text  # the stock ran out: the dealer robs a new stock up to six
    assert "The dealer, W, robs the pack, taking 6 cards." in text
    assert "Contract: S (you) for NS (you), bid 14, trumps hearts ♥." in text


def test_the_dealer_robs_the_pack(tmp_path):
    # S deals; the first three pass under pagat, so S is stuck with 7 and robs.
    save = tmp_path / "rob.json"
    g, out = game("pagat", Lines("1", "h", "", "1"), seed=1, save=save)
    g.match.first_dealer = Seat.S
    deck = table("S", S="AH KH 2C 3C 4C 6C 7C 8C 9C", N="AS KS QS JS TS 9S 8S 7S 6S",
                 W="5S 4S 3S 2S AD KD QD JD TD", E="9D 8D 7D 6D 4D 3D 2D AC KC", stock="QH JH TH 2H 3H")
    g.match.start_deal(deck=deck, dealer=Seat.S)
    g.table.bots = {s: _Passer(make_bot("basic", seed=1)) for s in Seat if s != Seat.S}
    assert g.run() == "eof"
    text = out.getvalue()
    assert "Your bid [1, Enter = the only choice, help]: 1" in text
    assert "You are the dealer: rob the pack, saying which cards to keep." in text
    assert "The choice: keep " in text and "Suggested: keep " in text
    assert "The dealer, S (you), robs the pack, taking " in text and "S (you) took " in text
    # The draw is told before the dealer is asked; here the stock ran out and was rebuilt.
    assert text.index("The draw from the stock: W 6, N (partner) 6, E 6.") < text.index("You are the dealer")
    assert "The stock ran out: the non-trump discards were shuffled into a new stock." in text
    record = json.loads(save.read_text(encoding="utf-8"))
    assert "restock" in record["deals"][0]
    assert replayed(save).to_json()["next"]["seat"] == "S"


class _Passer:
    """A bot that always passes in the bidding (so the dealer is stuck)."""

    def __init__(self, bot):
        self.bot = bot

    def choose(self, view):
        if view.phase is Phase.BIDDING and any(str(a) == "pass" for a in view.legal):
            return next(a for a in view.legal if str(a) == "pass")
        return self.bot.choose(view)


def test_a_thrown_in_deal_is_told():
    g, out = game("difference", Lines("pass"), seed=1)
    g.table.bots = {s: _Passer(make_bot("basic", seed=1)) for s in Seat if s != Seat.S}
    g.run()
    assert "All passed: the deal is thrown in, no score." in out.getvalue()
    assert "=== Deal 2:" in out.getvalue()


# ---- reading input ---------------------------------------------------------------------------------------
def test_interpret_reads_numbers_commands_notation_and_shortcuts():
    g, _ = game("pagat", Always("1"), seed=1)
    m = g.match
    m.start_deal()
    seat = m.current.to_act
    v = m.view(seat)
    listed = list(v.legal)
    assert interpret("2", v, listed, None) == Choice(listed[1])
    assert interpret(" 9 ", v, listed, None) == Choice(listed[8])
    assert isinstance(interpret("10", v, listed, None), Problem)  # 10 is a list number, not a bid
    assert interpret("bid 10", v, listed, None) == Choice(listed[4])
    assert interpret("PASS", v, listed, None) == Choice(listed[0])
    assert interpret("Help", v, listed, None) == Command("help")
    assert interpret("?", v, listed, None) == Command("help")
    assert isinstance(interpret("", v, listed, None), Problem)
    assert "not understood" in interpret("hearts", v, listed, None).message

    d = m.current
    for _ in range(4):
        if d.phase is Phase.BIDDING:
            d.apply(d.legal_actions()[-1])
    v = m.view(d.to_act)
    assert v.phase is Phase.TRUMP
    for text in ("h", "H", "hearts", "heart", "♥", "trump hearts"):
        assert interpret(text, v, list(v.legal), None) == Choice(v.legal[1]), text

    g2, _ = game("additive", Always("1"), seed=1)
    m2 = g2.match
    m2.start_deal()
    d2 = m2.current
    while d2.phase is not Phase.PLAY:
        d2.apply(make_bot("basic").choose(m2.view(d2.to_act)))
    v = m2.view(d2.to_act)
    card = next(iter(v.hand))
    for text in (str(card).lower(), card.symbol, card.symbol.replace("10", "T"), f"play {card}"):
        assert interpret(text, v, [], None) == Choice(interpret(f"play {card}", v, [], None).action), text


def test_interpret_reads_keeps():
    g, _ = game("additive", Always("1"), seed=1)
    m = g.match
    m.start_deal()
    d = m.current
    while not isinstance(d.legal_actions(), KeepOptions):
        d.apply(make_bot("basic").choose(m.view(d.to_act)))
    v = m.view(d.to_act)
    default = make_bot("basic").choose(v)
    assert interpret("", v, [default], default) == Choice(default)
    assert interpret("1", v, [default], default) == Choice(default)
    cards = " ".join(str(c) for c in v.hand)
    assert interpret(cards.lower(), v, [default], default) == Choice(Keep(CardSet.parse(cards)))
    assert interpret("keep " + cards, v, [default], default) == Choice(Keep(CardSet.parse(cards)))
    assert "is not a card" in interpret("AH XX", v, [default], default).message


def test_cards_are_shown_with_symbols_and_trumps_marked():
    hand = CardSet.parse("AS TH 5D 2C 3H")
    assert hand_text(hand, None) == "A♠;  10♥ 3♥;  5♦;  2♣"
    assert hand_text(hand, Suit.HEARTS) == "trumps: 10♥ 5♦ 3♥;  others: A♠;  2♣"
    assert hand_text(hand, Suit.HEARTS, symbols=False) == "trumps: TH 5D 3H;  others: AS;  2C"
    assert card_text(Card.parse("5D"), Suit.HEARTS) == "5♦*"


# ---- the command line -----------------------------------------------------------------------------------
def test_cli_plays_a_whole_match_and_the_record_replays_to_the_same_score(tmp_path):
    save = tmp_path / "cli.json"
    runner = CliRunner()
    result = runner.invoke(main, ["play", "--plain", "--rules", "official", "--seed", "4", "--save", str(save),
                                  "--seat", "e", "-o", "target=21"], input="1\n" * 3000)
    assert result.exit_code == 0, result.output
    assert "You sit E; your partner W" in result.output
    assert "first side to 21 wins" in result.output
    assert "win the match, NS " in result.output
    replay_result = runner.invoke(main, ["replay", "--json", str(save)])
    assert replay_result.exit_code == 0
    data = json.loads(replay_result.output)
    line = next(s for s in result.output.splitlines() if "win the match" in s)
    assert f"NS {data['score']['NS']} to EW {data['score']['EW']}" in line
    assert data["rules"] == {"preset": "official", "target": 21}


def test_cli_end_of_input_exits_0_and_saves(tmp_path):
    save = tmp_path / "eof.json"
    result = CliRunner().invoke(main, ["play", "--seed", "8", "--save", str(save)], input="1\n1\n")
    assert result.exit_code == 0
    assert "End of input." in result.output
    nxt = replayed(save).to_json()["next"]
    assert nxt["seat"] == "S"


def test_cli_refuses_an_unknown_preset_bot_or_option():
    runner = CliRunner()
    for args, words in ((["--rules", "bridge"], "unknown preset 'bridge'"),
                        (["--bots", "genius"], "unknown bot 'genius'"),
                        (["-o", "target=x"], "target cannot be 'x'")):
        result = runner.invoke(main, ["play", *args], input="1\n")
        assert result.exit_code == 2, args
        assert words in result.output
        assert "Traceback" not in result.output


def test_cli_refuses_a_save_file_in_a_missing_folder(tmp_path):
    result = CliRunner().invoke(main, ["play", "--save", str(tmp_path / "no" / "such.json")], input="1\n")
    assert result.exit_code == 2
    assert "cannot save to" in result.output


def test_a_short_stock_shared_out_is_told():
    deck = table("W", S="AH TC 2C 3C 4C 6C 7C 8C 9C", N="2S 3S 4S 5S 6S 7S 8S 9S TS",
                 E="2D 3D 4D 6D 7D 8D 9D TD JD", W="JS QS KS AS QD KD AD QH KH")
    g, out = game("additive", Lines("bid 14", "h", "1"), seed=1)
    g.match.first_dealer = Seat.W
    g.match.start_deal(deck=deck, dealer=Seat.W)
    assert g.run() == "eof"
    text = out.getvalue()
    assert "The draw from the stock: N (partner) 6, E 5, S (you) 5." in text
    assert "The stock ran out: what was left was shared out one card at a time." in text
    assert "Cards held: N (partner) 6, E 5, S (you) 6, W 6" in text


def test_partner_and_opponents_are_chosen_apart(tmp_path):
    save = tmp_path / "m.json"
    result = CliRunner().invoke(main, ["play", "--plain", "--seed", "3", "--no-library", "--save", str(save),
                                       "--partner", "basic", "--opponents", "random"], input="quit\n")
    assert result.exit_code == 0, result.output
    assert "your partner N is played by the basic bot, the opponents W and E by the random bot." in result.output
    players = loads(save.read_text(encoding="utf-8"))["players"]
    assert players == {"N": "basic", "E": "random", "S": "you", "W": "random"}


@pytest.mark.parametrize("args, message", [
    (["--plain", "--table"], "--plain and --table ask for two front ends: choose one"),
    (["--pause", "nan"], "--pause takes a number of seconds from 0 to 10, not nan"),
    (["--partner", "nobody"], "unknown bot 'nobody'"),
])
def test_cli_refuses_contradictory_or_meaningless_play_options(args, message):
    result = CliRunner().invoke(main, ["play", "--no-library", *args], input="quit\n")
    assert result.exit_code == 2 and message in result.output
    assert "Traceback" not in result.output


def test_the_documented_options_example_plays_on_the_default_preset():
    help_text = CliRunner().invoke(main, ["play", "--help"]).output
    example = help_text[help_text.index("e.g.") + 4:help_text.index("(see")].split()
    assert example and example[0] == "-o"
    result = CliRunner().invoke(main, ["rules", *example])
    assert result.exit_code == 0, result.output


def test_a_hint_names_its_bot_speaks_as_a_player_and_why_shows_the_figures():
    out = io.StringIO()
    g = new_game(Rules.preset("difference"), seed=4, inp=Lines("why", "hint", "why", "quit"), out=out)
    assert g.run() == "quit"
    text = out.getvalue()
    assert "Ask for a hint first; why then shows the figures behind it." in text
    assert "The expert bot would choose: " in text and "Type why for the figures." in text
    assert "The expert bot's figures: " in text and "worlds)." in text


@pytest.mark.skipif(not Path("/proc/self").exists(), reason="needs /proc, a folder nobody may write a file in")
def test_a_record_that_cannot_be_saved_is_never_said_to_be_saved():
    # (`cinch play` refuses such a --save before the first deal: tests/test_output_guard.py; a game given one
    # anyway, as a file that stops being writable mid-match would be, says so and claims no save.)
    out = io.StringIO()
    game = new_game(Rules.preset("pagat"), seed=1, inp=Lines("1", "1", "quit"), out=out, save_path="/proc/cinch.json")
    assert game.run() == "quit"
    assert "Cannot save the game record to /proc/cinch.json" in out.getvalue()
    assert game.saver.saved_to is None
    assert "saved in /proc/cinch.json" not in out.getvalue() and "saved to /proc/cinch.json" not in out.getvalue()
