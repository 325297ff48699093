"""`cinch play --plain -o decks=2`: two-deck Cinch at the line prompt, hands of 18 with cards held twice."""

from __future__ import annotations

import io
import json
import re

import pytest
from click.testing import CliRunner

from cinch import Card, CardSet, Keep, Rules, Seat
from cinch.cards import CARDS
from cinch.cli import main
from cinch.keep import KeepOptions
from cinch.play_plain import Choice, PlainGame, hands_count, interpret, keeps_as_read, new_game
from cinch.record import loads, replay
from cinch.seating import seating
from cinch.table import Saver, Table
from cinch.view import Phase

HEARTS_TWICE = "AH AH KH KH QH QH JH JH TH TH 9H 9H 8H 8H 2C 3C 4C 6C"
"""S's 18 cards: fourteen hearts, seven of them twice; with hearts trumps S keeps twelve and shows two."""


def two_deck_deck(dealer: Seat, *, hands: dict[Seat, str]) -> str:
    """The 104-card deck order that deals these hands (18 cards each at four; a hand not given gets cards
    nobody was given), then the stock: each card's text twice, the second its twin."""
    order = [Seat((dealer + 1 + k) % 4) for k in range(4)]
    words = {s: hands.get(s, "").split() for s in Seat}
    left = [str(c) for c in CARDS] * 2
    for word in sum(words.values(), []):
        left.remove(str(Card.parse(word)))
    for s in Seat:
        while len(words[s]) < 18:
            words[s].append(left.pop(0))
    deck = [words[order[k]][3 * r + i] for r in range(6) for k in range(4) for i in range(3)]
    return " ".join(deck + left)


def two_deck_rules(preset: str = "official", **options) -> Rules:
    return Rules.preset(preset).with_options(decks=2, **options)


def hearts_table(saver: Saver | None = None) -> Table:
    """E deals; S, first to bid, holds HEARTS_TWICE."""
    table = Table.new(two_deck_rules(), people={Seat.S: "you"}, bots="random", seed=2, saver=saver)
    table.match.first_dealer = Seat.E
    table.match.start_deal(deck=two_deck_deck(Seat.E, hands={Seat.S: HEARTS_TWICE}), dealer=Seat.E)
    return table


class Player:
    """Answers the prompts of S's first deal: bid 28, hearts, keep a hand that names cards twice (typed
    without the verb), lead the ace of hearts by name while holding both, then the first choice."""

    def __init__(self):
        self.game: PlainGame | None = None
        self.lines: list[str] = []
        self.keep_view = None
        self.led: CardSet | None = None  # the hand just before the ace was led

    def readline(self) -> str:
        assert self.game is not None
        match = self.game.match
        if match.summaries:
            return ""  # the first deal is over: stop here
        view = match.view(Seat.S)
        if view.to_act != Seat.S:
            line = ""
        elif view.phase is Phase.BIDDING:
            line = "bid 28"
        elif view.phase is Phase.TRUMP:
            line = "hearts"
        elif isinstance(view.legal, KeepOptions):
            self.keep_view = view
            line = "AH AH KH KH QH QH JH JH TH TH 9H 8H"  # a card named twice keeps both copies
        elif view.phase is Phase.PLAY and self.led is None:
            self.led = view.hand
            line = "ah"
        else:
            line = "1"
        self.lines.append(line)
        return line + "\n"


def play_hearts_deal() -> tuple[PlainGame, Player, str]:
    player = Player()
    out = io.StringIO()
    game = PlainGame(hearts_table(), Seat.S, inp=player, out=out, symbols=False)
    player.game = game
    assert game.run() == "eof"
    return game, player, out.getvalue()


def test_a_whole_two_deck_deal_at_the_prompt_with_cards_held_twice():
    game, player, text = play_hearts_deal()
    # The hand of 18 reads by suit, each card held twice written twice, side by side.
    assert "Your hand: AH AH KH KH QH QH JH JH TH TH 9H 9H 8H 8H;  6C 4C 3C 2C\n" in text
    assert "Bids 2 to 28." in text and "S (you) bids 28." in text
    # Fourteen trumps: keep twelve, the typed keep naming cards twice, and show the two thrown.
    assert "(28 possible hands)" in text  # the hands as they read: the copies of a card are one hand
    assert "A card named twice keeps both copies, as 'keep AH AH ...'." in text
    assert "S (you) shows the trumps thrown out (dead): 9H* 8H*." in text
    deal = game.match.deals[0]
    kept = next(a for s, a in zip(deal.actors, deal.history, strict=True) if s == Seat.S and isinstance(a, Keep))
    assert str(kept) == "keep AH AH KH KH QH QH JH JH TH TH 9H 8H"
    assert len(kept.cards) == 12
    # Holding both aces, 'ah' plays one of them; the other stays in the hand.
    assert player.led is not None and len(player.led) == 12
    assert "Trick 1: S (you) leads AH*." in text
    assert "Trick 2 of 12" in text and "Your hand: trumps: AH KH KH QH QH" in text
    # The deal is played to its end, and the point cards counted copy by copy.
    assert "Deal 1 is over." in text
    summary = game.match.summaries[0]
    result = summary.result
    assert result.points is not None and sum(result.points) <= 28
    block = text.split("Point cards:\n")[1].split("Points taken:")[0]
    lines = [line for line in block.splitlines() if not line.startswith("  Not in play")]
    assert len(lines) == len(result.awards)  # one line per copy
    jacks = [a for a in result.awards if a.name == "Jack"]
    assert len(jacks) == 2 and {int(a.card) for a in jacks} == {Card.parse("JH"), Card.parse("JH").twin}
    assert block.count("  Jack JH*: 1 to ") == 2


def test_a_keep_names_a_card_twice_in_every_input_form():
    _, player, _ = play_hearts_deal()
    view = player.keep_view
    assert view is not None and view.rules.decks == 2
    both = CardSet.parse("AH AH KH KH QH QH JH JH TH TH 9H 8H", decks=2)
    for typed in ("keep AH AH KH KH QH QH JH JH TH TH 9H 8H", "ah ah kh kh qh qh jh jh 10h th 9h 8h",
                  "A♥ A♥ K♥ K♥ Q♥ Q♥ J♥ J♥ 10♥ 10♥ 9♥ 8♥"):
        reading = interpret(typed, view, [], None)
        assert isinstance(reading, Choice) and reading.action == Keep(both), typed
    reading = interpret("AH AH AH KH", view, [], None)
    assert not isinstance(reading, Choice) and "three times" in reading.message


def test_the_keep_list_shows_each_hand_once_as_it_reads():
    twins = CardSet.parse("AH AH KH", decks=2)
    options = KeepOptions(pool=int(twins), must=0, trumps=int(twins), lo=2, hi=2)
    assert len(options) == 2  # AH AH, AH KH: the options list each hand once, whichever copy of AH
    assert sorted(str(k) for k in keeps_as_read(options)) == ["keep AH AH", "keep AH KH"]
    assert hands_count(options) == 2
    one = KeepOptions(pool=int(CardSet.parse("AH KH QH")), must=0, trumps=0, lo=2, hi=2)
    assert hands_count(one) == len(one) == 3 and len(keeps_as_read(one)) == 3


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_a_two_deck_match_at_every_table_size(players):
    rules = two_deck_rules(players=players, target=30)
    out = io.StringIO()

    class Enter:
        def __init__(self):
            self.left = 2000

        def readline(self) -> str:
            self.left -= 1
            return "1\n" if self.left > 0 else ""

    game = new_game(rules, bots="random", seed=players, inp=Enter(), out=out, symbols=True)
    assert game.run() == "over"
    text = out.getvalue()
    table = seating(players, 2)
    hands = re.findall(r"Your turn to bid .*\nYour hand: (.*)", text)
    assert hands, "a bid was asked"
    assert all(len(hand.replace(";", " ").split()) == table.dealt for hand in hands)  # 18, or 12 at 5-6
    assert "Trick 12 of 12" in text
    assert game.match.winner is not None and "***" in text


def test_the_cli_plays_two_decks_and_the_record_replays(tmp_path):
    save = tmp_path / "two.json"
    result = CliRunner().invoke(main, ["play", "--plain", "--no-library", "--seed", "4", "--rules", "official",
                                       "-o", "decks=2", "-o", "target=20", "--bots", "random", "--save", str(save)],
                                input="1\n" * 3000)
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output
    assert "first side to 20 wins" in result.output
    record = json.loads(save.read_text(encoding="utf-8"))
    assert record["rules"]["decks"] == 2
    replayed = replay(loads(save.read_text(encoding="utf-8"))).to_json()
    assert replayed["winner"] is not None and len(replayed["deals"]) == len(record["deals"])
    assert len(record["deals"][0]["deck"].split()) == 104
    final = replayed["score"]
    assert f"NS {final['NS']} to EW {final['EW']}" in result.output  # the match the prompt played, replayed


def test_a_stock_too_short_for_hands_of_twelve_is_told_shared_out():
    # Nobody but S holds a heart, and S only one: after hearts are named the three before the dealer want
    # 11, 12 and 12 cards from a stock of 32 (the official preset throws every plain card).
    plain = [str(c) for c in CARDS if c.suit.name != "HEARTS" and str(c) != "5D"] * 2
    hands = {Seat.S: " ".join(["AH", *plain[:17]])}
    for k, seat in enumerate((Seat.W, Seat.N, Seat.E)):
        hands[seat] = " ".join(plain[17 + 18 * k: 35 + 18 * k])
    rules = two_deck_rules("official", stock_out="share")
    table = Table.new(rules, people={Seat.S: "you"}, bots="random", seed=1)
    table.match.first_dealer = Seat.E
    table.match.start_deal(deck=two_deck_deck(Seat.E, hands=hands), dealer=Seat.E)
    out = io.StringIO()

    class Lines:
        def __init__(self, *lines: str):
            self.lines = list(lines)

        def readline(self) -> str:
            return self.lines.pop(0) + "\n" if self.lines else ""

    game = PlainGame(table, Seat.S, inp=Lines(f"bid {rules.highest_bid}", "h", "", ""), out=out, symbols=False)
    assert game.run() == "eof"
    text = out.getvalue()
    assert "The draw from the stock: S (you) 11, W 11, N (partner) 10." in text  # 32 cards, one at a time
    assert "The stock ran out: what was left was shared out one card at a time." in text


def test_a_two_deck_match_stopped_mid_deal_resumes_from_the_library(tmp_path):
    from cinch.library import Library
    from cinch.play_plain import resume_game

    library = Library.open(tmp_path / "games.db")

    class Lines:
        def __init__(self, n: int):
            self.left = n

        def readline(self) -> str:
            self.left -= 1
            return "1\n" if self.left > 0 else ""

    first = new_game(two_deck_rules(), bots="random", seed=5, inp=Lines(15), out=io.StringIO(), library=library,
                     symbols=False)
    assert first.run() == "eof"
    stopped_at = len(first.match.current.history) if first.match.current is not None else 0
    out = io.StringIO()
    again = resume_game(library, first.saver.match_id, inp=Lines(3000), out=out, symbols=False)
    assert again.match.rules.decks == 2 and again.match.rules.target == 102
    assert again.match.current is not None and len(again.match.current.history) == stopped_at
    assert again.run() == "over"
    assert "Resuming match 1: official+ rules, first side to 102 wins" in out.getvalue()
