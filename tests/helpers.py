"""Build positions the way a table deals them, so tests read like the table.

``table(dealer, N=..., E=..., S=..., W=..., stock=...)`` turns four 9-card
hands and a stock into the 52-card deck order of RECORD.md: cards 1-3 to the
dealer's left, 4-6 to the next seat, 7-9 to the next, 10-12 to the dealer,
round again until each holds nine; cards 37-52 are the stock, card 37 on top.
A stock given short is completed with the cards nobody was given, in
canonical order (spades, hearts, diamonds, clubs; ace to two).
"""

from __future__ import annotations

from cinch import CARDS, Card, CardSet, Deal, Rules, Seat, parse_action

# The example deck of RECORD.md.
RECORD_EXAMPLE_DECK = (
    "AH KH QH 5D JH TH 6H 9H 8H 5H 2H 3H 7S 8S 9S 2S 3S 4S TS JS QS KS AS 6S 7D 8D 9D 2C 3C 4C TC JC QC 6D "
    "7C 8C KC 9C 2D AC 6C 3D 5C 4D JD 7H 4H 5S AD KD QD TD"
)

__all__ = [
    "RECORD_EXAMPLE_DECK", "RESTOCK", "STUCK_N", "TABLE_SHORT", "CARDS", "Card", "CardSet", "Deal", "Rules", "Seat",
    "cards", "deal", "play", "roles", "rules", "scripted", "table",
]


def cards(text: str) -> CardSet:
    return CardSet.parse(text)


def table(dealer: str | Seat = "N", *, N: str, E: str, S: str, W: str, stock: str = "") -> str:
    """The deck order that deals these hands (each exactly nine cards) and this stock."""
    dealer = Seat.parse(dealer) if isinstance(dealer, str) else Seat(dealer)
    hands = {Seat.N: N, Seat.E: E, Seat.S: S, Seat.W: W}
    words = {seat: text.split() for seat, text in hands.items()}
    for seat, hand in words.items():
        if len(hand) != 9:
            raise ValueError(f"{seat} must be dealt nine cards, not {len(hand)}: {hands[seat]!r}")
    order = [Seat((dealer + 1 + k) % 4) for k in range(4)]
    deck = [words[order[k]][3 * r + i] for r in range(3) for k in range(4) for i in range(3)]
    deck += stock.split()
    named = [Card.parse(c) for c in deck]
    if len(set(named)) != len(named):
        raise ValueError("a card is given twice")
    deck += [str(c) for c in CARDS if c not in named]
    assert len(deck) == 52
    return " ".join(str(Card.parse(c)) for c in deck)


def rules(preset: str, **options) -> Rules:
    rules = Rules.preset(preset)
    return rules.with_options(**options) if options else rules


def deal(preset: str | Rules, dealer: str | Seat, deck: str, *actions: str, restock: str | None = None) -> Deal:
    """A deal under ``preset`` (a name or Rules), with ``actions`` (record notation) applied."""
    r = rules(preset) if isinstance(preset, str) else preset
    d = Deal(r, Seat.parse(dealer) if isinstance(dealer, str) else dealer, deck,
             restock=None if restock is None else restock.split())
    play(d, *actions)
    return d


def play(d: Deal, *actions: str) -> Deal:
    """Apply actions in record notation, one after another."""
    for text in actions:
        for one in text.split(",") if "," in text else [text]:
            d.apply(parse_action(one.strip()))
    return d


# ---- whole deals with a known outcome, for match tests ----------------------------
# Hearts are trumps.  Roles by seat: L the dealer's left (bids first and is the maker),
# A across from the dealer, R the dealer's right (L's partner), D the dealer.  Each
# script lists the hands dealt, the stock, the hand each player keeps where the rules
# give a choice, and the six tricks, each from its leader.
SCRIPTS = {
    # The makers take all 14 points: L leads the six top trumps, R drops his points under them.
    "sweep": dict(
        hands=dict(L="AH KH QH JH TH 9H 2C 3C 4C", A="AS KS QS JS TS 9S 8S 7S 6S",
                   R="8H 7H 6H 5H 5D 2H 5C 6C 7C", D="4H 3H AD KD QD JD TD 9D 8D"),
        stock="5S 4S 3S 2S 7D 6D 4D 3D 2D 8C 9C TC JC QC KC AC",
        keep=dict(L="AH KH QH JH TH 9H", A="", R="8H 7H 6H 5H 5D 2H", D="4H 3H 4D 3D 2D 8C"),
        tricks=["AH 5S 8H 4H", "KH 4S 7H 3H", "QH 3S 6H 4D", "JH 2S 5H 3D", "TH 7D 5D 2D", "9H 6D 2H 8C"],
    ),
    # The defenders take all 14: A holds the six top trumps, the dealer the other points.
    "set": dict(
        hands=dict(L="4H 3H AD KD QD JD TD 9D 8D", A="AH KH QH JH TH 9H 2C 3C 4C",
                   R="AS KS QS JS TS 9S 8S 7S 6S", D="8H 7H 6H 5H 5D 2H 5C 6C 7C"),
        stock="7D 6D 4D 3D 5S 4S 3S 2S 2D 8C 9C TC JC QC KC AC",
        keep=dict(L="4H 3H", A="AH KH QH JH TH 9H", R="", D="8H 7H 6H 5H 5D 2H"),
        tricks=["4H AH 5S 8H", "KH 4S 7H 3H", "QH 3S 6H 7D", "JH 2S 5H 6D", "TH 2D 5D 4D", "9H 8C 2H 3D"],
    ),
    # 7 points each: the makers take High, Jack and the right Pedro; the defenders the left
    # Pedro, Game and Low (the 2, held, played and captured by the dealer).
    "split": dict(
        hands=dict(L="AH JH AD KD QD JD TD 9D 8D", A="8H 4H KH QH 7D 6D 4D 3D 2D",
                   R="5H 6H AS KS QS JS TS 9S 8S", D="3H 7H 5D TH 9H 2H 7S 6S 5S"),
        stock="2C 3C 4C 6C 2S 3S 7C 8C 9C TC JC QC KC AC 5C 4S",
        keep=dict(L="AH JH", A="KH QH 8H 4H", R="6H 5H", D="TH 9H 7H 3H 2H 5D"),
        tricks=["AH 4H 5H 3H", "JH 8H 6H 7H", "2C KH 7C 5D", "QH 8C TH 3C", "2S 9C 9H 4C", "2H 6C 3S TC"],
    ),
}


def roles(dealer: Seat) -> dict[str, Seat]:
    return {"L": dealer.left, "A": dealer.partner, "R": dealer.left.partner, "D": dealer}


def scripted(preset: str | Rules, dealer: str | Seat, kind: str, bid: int = 7) -> tuple[str, list[str]]:
    """Deck and actions of a deal in which L bids ``bid`` and the script ``kind`` is played."""
    from cinch import Phase

    r = rules(preset) if isinstance(preset, str) else preset
    dealer = Seat.parse(dealer) if isinstance(dealer, str) else Seat(dealer)
    script = SCRIPTS[kind]
    seat_of = roles(dealer)
    deck = table(dealer, stock=script["stock"], **{seat_of[k].name: v for k, v in script["hands"].items()})
    role_of = {seat: role for role, seat in seat_of.items()}
    d = Deal(r, dealer, deck)
    actions = [f"bid {bid}", "pass", "pass", "pass", "trump H"]
    play(d, *actions)
    cards_played = " ".join(script["tricks"]).split()
    while not d.is_over:
        if d.phase in (Phase.DISCARD, Phase.ROB):
            text = ("keep " + script["keep"][role_of[d.to_act]]).strip()
        else:
            text = "play " + cards_played[len(d.history) - len(actions) - _keeps(d)]
            excess = len(d.hand(d.to_act)) - (6 - len(d.tricks))
            if excess > 0:
                raise ValueError("the scripts never bury")
        play(d, text)
    return deck, [str(a) for a in d.history]


def _keeps(d: Deal) -> int:
    return sum(1 for a in d.history if str(a).startswith("keep"))


# ---- a stock that runs out -------------------------------------------------------
# N deals holding nine hearts; nobody else holds a trump, so E, S and W need 18 cards
# from a stock of 16.  The five trumps left are in the stock.
TABLE_SHORT = table(
    "N",
    N="AH KH QH JH TH 9H 8H 7H 6H",
    E="AS KS QS JS TS 9S 8S 7S 6S",
    S="AD KD QD JD TD 9D 8D 7D 6D",
    W="AC KC QC JC TC 9C 8C 7C 6C",
    stock="5D 5S 4S 3S 2S 4D 5H 2H 3D 2D 5C 4C 4H 3H 3C 2C",
)
STUCK_N = "pass", "pass", "pass", "bid 7", "trump H"
RESTOCK = "AS AD AC KS KD KC QS QD QC JS JD JC TS TD TC 9S 9D 9C 8S 8D 8C 7S 7D 7C 6S 6D 6C"


# Hearts are trumps, N deals, E makes it (the bots' card-play deal).  After the draw (all
# non-trumps thrown face up, refills from the top of the stock):  E  AH KH 9H and three
# diamonds;  S (a defender) 5D 7H and four;  W (E's partner) 5H 3H and four;  N robs QH JH TH
# 8H 6H 4H.
PLAY_DECK = table(
    "N",
    E="AH KH 9H 2S 3S 4S 2C 3C 4C",
    S="5D 7H 5S 6S 7S 5C 6C 7C 8C",
    W="5H 3H 8S 9S TS 9C TC JC QC",
    N="QH JH JS QS KS AS KC AC 2D",
    stock="AD KD QD JD TD 9D 8D 7D 6D 4D 3D TH 8H 6H 4H 2H",
)
PLAY_START = ("bid 6", "pass", "pass", "pass", "trump H", "keep QH JH TH 8H 6H 4H")


# W makes hearts and leads the ace; S, after passing, holds 2H and five clubs and must follow with the 2.
TRUMP_LEAD = table("N", W="AH KH QH JH TH 9H 2S 3S 4S", S="2H 2C 3C 4C 6C 7C 8C 9C TC",
                   E="JS QS KS 9D TD JD 9S TS 5S", N="6S 7S 8S 2D 3D 4D 6D 7D 8D",
                   stock="AS 8H 7H 6H 5H 4H AC KC QC JC 5C 3H 5D QD KD AD")


def dealt_table(preset: str, deck: str, dealer: Seat, *, seed: int = 1, options: dict | None = None,
                bots: str = "heuristic", saver=None):
    """A table where S is the one person, whose first deal is dealt from ``deck`` (the next ones from the seed)."""
    from cinch.table import Table

    r = rules(preset, **(options or {}))
    t = Table.new(r, people={Seat.S: "you"}, bots=bots, seed=seed, saver=saver)
    t.match.first_dealer = dealer
    t.match.start_deal(deck=deck, dealer=dealer)
    return t


def run_cinch(*args: str):
    """``cinch ARGS`` through Click's runner, asserting that nothing ends in a traceback."""
    from click.testing import CliRunner

    from cinch.cli import main

    result = CliRunner().invoke(main, list(args))
    assert "Traceback" not in result.stderr and "Traceback" not in result.stdout
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result


def one_line_error(result, prefix: str = "cinch: ") -> str:
    """The one line a refused command writes on standard error (exit status 2), starting ``prefix``."""
    assert result.exit_code == 2, (result.exit_code, result.stdout, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith(prefix), lines[0]
    return lines[0]
