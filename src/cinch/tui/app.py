"""``cinch play``: the match at a card table drawn in the terminal (Textual).

You sit at the bottom, your partner at the top and the opponents left and right.
The screen shows only what your seat may know (``Match.view`` of your seat); the
bots think in worker threads, so the table stays responsive, and pause between
plays so a person can follow them.
"""

from __future__ import annotations

import contextlib
from functools import partial
from typing import Any

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Footer, Static

from cinch.actions import TRUMPS, Action, Bid, Keep, Pass, Play
from cinch.bots import DEFAULT_BOT
from cinch.cards import TRUMP_TABLES, Card, CardSet, Seat, Suit, Team
from cinch.errors import IllegalAction
from cinch.keep import KeepOptions
from cinch.play_plain import Narrator
from cinch.tui.game import (
    Hint,
    TableGame,
    TableSetup,
    action_words,
    ask_hint,
    available_bots,
    card_words,
    cheapest_bury,
    describe_par,
    hint_bot,
    keep_words,
    par_of,
    points_so_far,
    suggest,
)
from cinch.tui.render import PALETTES, THEME_ORDER, Palette, chip, chips
from cinch.tui.screens import (
    DealOverScreen,
    KeysScreen,
    NewMatchScreen,
    ResumeScreen,
    RulesScreen,
    Settings,
    SettingsScreen,
    TricksScreen,
)
from cinch.tui.storage import Saver
from cinch.tui.theme import CSS, THEMES
from cinch.tui.widgets import (
    CenterModel,
    EventLog,
    HandModel,
    HandView,
    Position,
    PromptBar,
    PromptModel,
    SeatPanel,
    TrickView,
)
from cinch.view import Phase, SeatView
from cinch.words import hand_order
from cinch.words import seat_name as seat_label
from cinch.words import team_name as team_label

DECIDING = ("bid", "trump", "keep", "play", "bury")
SUIT_KEYS = {"s": Suit.SPADES, "h": Suit.HEARTS, "d": Suit.DIAMONDS, "c": Suit.CLUBS}


class TableScreen(Screen):
    """The card table: four seats, the trick, your hand, the decision in front of you."""

    BINDINGS = [
        Binding("enter", "confirm", "OK"),
        Binding("space", "toggle", "Keep/bury", show=False),
        Binding("left", "move(-1)", "Move", show=False),
        Binding("right", "move(1)", "Move", show=False),
        Binding("up", "move(-1)", "Move", show=False),
        Binding("down", "move(1)", "Move", show=False),
        Binding("home", "move_end(0)", "First", show=False),
        Binding("end", "move_end(1)", "Last", show=False),
        Binding("question_mark", "hint", "Hint", key_display="?"),
        Binding("u", "undo", "Undo"),
        Binding("l", "last_trick", "Trick"),
        Binding("r", "rules", "Rules"),
        Binding("o", "settings", "Settings"),
        Binding("t", "theme", "Colours", show=False),
        Binding("n", "new_match", "New", show=False),
        Binding("f1", "keys", "Keys"),
        Binding("escape", "back", "Back", show=False),
        Binding("q", "app.quit", "Quit"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.game: TableGame | None = None
        self.view: SeatView | None = None
        self.narrator: Narrator | None = None
        self.generation = 0  # a rebuilt or new match makes older bot results stale
        self.thinking: Seat | None = None
        self.hinting = False
        self.par_pending = False
        self.scheduled = 0
        self.mode = "wait"
        self.decision_key: Any = None
        self.options: list[Action] = []  # the bids or the suits offered
        self.cards: list[Card] = []  # the cards the cursor may rest on
        self.cursor = 0
        self.keep_sel = 0
        self.bury_card: Card | None = None
        self.bury_sets: list[int] = []
        self.suggested: Action | None = None
        self.hint: Hint | None = None
        self.bid_buf = ""
        self.acked = 0  # deal summaries already shown
        self.status_text: Text = Text()
        self._shown: dict[str, Text] = {}

    # ---- layout ------------------------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Static(id="topbar")
        with Horizontal(id="upper"):
            with Vertical(id="felt"):
                yield SeatPanel(id="seat-top", classes="seat")
                with Horizontal(id="middle"):
                    yield SeatPanel(id="seat-left", classes="seat")
                    yield TrickView(id="center")
                    yield SeatPanel(id="seat-right", classes="seat")
                yield SeatPanel(id="seat-bottom", classes="seat")
            with Vertical(id="side"):
                yield Static(id="info")
                yield EventLog(id="log", wrap=True, markup=False, max_lines=400, min_width=10)
        yield PromptBar(id="prompt")
        yield HandView(id="hand")
        yield Static(id="status")
        yield Footer()

    @property
    def cinch(self) -> CinchApp:
        return self.app  # type: ignore[return-value]

    @property
    def palette(self) -> Palette:
        return self.cinch.palette

    @property
    def settings(self) -> Settings:
        return self.cinch.settings

    def on_mount(self) -> None:
        self.call_after_refresh(self.begin)
        # Which bots are installed (for the new-match screen) takes an import or two: find out off the UI thread.
        self.run_worker(available_bots, thread=True, group="warm-up", exit_on_error=False)

    # ---- starting and resuming -------------------------------------------------------------------------------
    def begin(self) -> None:
        app = self.cinch
        if app.game is not None:
            self.start_game(app.game)
            return
        if app.resume_id is not None:
            self.resume(app.resume_id)
            return
        entries = app.saver.unfinished() if app.offer_resume else []
        if entries:
            self.app.push_screen(ResumeScreen(entries), partial(self._resume_chosen, entries[0].id))
            return
        self.new_game(app.setup)

    def _resume_chosen(self, offered: int, match_id: int | None) -> None:
        if match_id is None:
            self.cinch.saver.abandon(offered)  # as at the prompt: a declined match is not offered again
            self.new_game(self.cinch.setup)
            return
        self.resume(match_id)

    def resume(self, match_id: int) -> None:
        """Go on with a match of the library at the exact action where it stopped."""
        app = self.cinch
        saver = app.saver
        stored = saver._call("read the match", saver.library.get, match_id) if saver.library is not None else None
        got = saver.resume(match_id) if stored is not None else None
        if got is None or stored is None or stored.human_seat is None:
            problem = saver.problem or (f"match {match_id} has no seat for you to play" if stored is not None
                                        else "no game library is open")
            saver.problem = None
            self.new_game(app.setup)
            self.say(f"Match {match_id} could not be resumed ({problem}); a new match begins.")
            return
        match, bots = got
        names = tuple(stored.players.get(s, DEFAULT_BOT) for s in Seat)
        setup = TableSetup(match.rules, stored.human_seat, names, stored.seed)  # type: ignore[arg-type]
        self.start_game(TableGame(setup, match, bots=bots, seed_known=False))
        self.say(f"Resumed {stored.describe()}.")

    def new_game(self, setup: TableSetup) -> None:
        game = TableGame(setup)
        self.cinch.setup = setup
        players = {s: ("you" if s == game.seat else setup.bots[s]) for s in Seat}
        self.cinch.saver.start(game.match, human_seat=game.seat, seed=game.seed, players=players)
        self.start_game(game)

    def start_game(self, game: TableGame) -> None:
        self.cinch.game = game
        self.game = game
        self.generation += 1
        self.thinking = None
        self.mode = "wait"
        self.decision_key = None
        self.acked = len(game.match.summaries)
        self.narrator = Narrator(game.seat)
        log = self.query_one(EventLog)
        log.clear()
        rules = game.rules
        others = ", ".join(f"{s} {game.setup.bots[s]}" for s in Seat if s != game.seat)
        log.write(f"Cinch, {rules.name} rules, first to {rules.target}. Seed {game.seed}. You sit {game.seat},"
                  f" partner {game.seat.partner}. Bots: {others}.")
        self.status_text = Text()
        view = game.view()
        if view is not None:  # a resumed match: the deal so far, told again
            for line in self.narrator.update(view):
                if line:
                    log.write(line)
        if self.cinch.saver.problem:
            self.say(self.cinch.saver.problem)
            self.cinch.saver.problem = None
        self.advance()

    # ---- the flow of the match ------------------------------------------------------------------------------
    def schedule(self, delay: float) -> None:
        self.scheduled += 1
        gen = self.generation
        if delay > 0:
            self.set_timer(delay, partial(self._advance_if, gen))
        else:
            self.call_later(self._advance_if, gen)

    def _advance_if(self, gen: int) -> None:
        self.scheduled -= 1
        if gen == self.generation:
            self.advance()

    def advance(self) -> None:
        """Move the match on until it waits for you, a bot or a screen."""
        game = self.game
        if game is None or self.thinking is not None:
            return
        while True:
            state = game.pending()
            if state in ("deal-over", "match-over") and self.acked < len(game.match.summaries):
                self.refresh_all()
                self.show_deal_over()
                return
            if state == "match-over":
                self.mode = "over"
                self.refresh_all()
                return
            if state in ("new-deal", "deal-over"):
                game.start_deal()
                self.changed()
                continue
            if state == "chance":
                game.resolve_chance()
                self.changed()
                continue
            if state == "human":
                self.begin_decision()
                self.refresh_all()
                return
            self.think()
            return

    def changed(self) -> None:
        """After every action: save, tell the log, redraw."""
        game = self.game
        assert game is not None
        saver = self.cinch.saver
        if game.match.is_over:
            saver.finish(game.match)
        else:
            saver.save(game.match)
        if saver.problem:
            self.say(saver.problem)
            saver.problem = None
        view = game.view()
        if view is not None and self.narrator is not None:
            log = self.query_one(EventLog)
            for line in self.narrator.update(view):
                if line:
                    log.write(line)
        self.refresh_all()

    def think(self) -> None:
        game = self.game
        assert game is not None
        seat, bot, view = game.bot_turn()
        self.thinking = seat
        self.mode = "wait"
        self.refresh_all()
        gen = self.generation
        self.run_worker(partial(self._bot_thread, gen, seat, bot, view), thread=True, group="bots",
                        exit_on_error=False)

    def _bot_thread(self, gen: int, seat: Seat, bot, view: SeatView) -> None:
        try:
            action, error = bot.choose(view), None
        except Exception as e:  # a broken bot must not stop the match
            action, error = None, e
        with contextlib.suppress(RuntimeError):  # the app has closed
            self.app.call_from_thread(self._bot_done, gen, seat, view, action, error)

    def _bot_done(self, gen: int, seat: Seat, view: SeatView, action: Action | None, error: Exception | None) -> None:
        if gen != self.generation:
            return
        self.thinking = None
        game = self.game
        assert game is not None
        if error is not None or action is None or action not in view.legal:
            self.say(f"{seat}'s bot failed ({error or 'no legal action'}): it takes the first legal choice.")
            action = view.legal[0]
        deal = game.deal
        tricks = len(deal.tricks) if deal is not None else 0
        try:
            game.apply(action, seat)
        except IllegalAction as e:
            self.say(f"{seat}'s bot chose an illegal {action} ({e.rule}): it takes the first legal choice.")
            game.apply(view.legal[0], seat)
        self.changed()
        deal = game.deal
        trick_done = deal is not None and len(deal.tricks) > tricks
        self.schedule(self.settings.pause * (2 if trick_done or (deal is not None and deal.is_over) else 1))

    # ---- your decisions --------------------------------------------------------------------------------------
    def begin_decision(self) -> None:
        game = self.game
        assert game is not None and game.deal is not None
        view = game.view()
        assert view is not None
        key = (id(game.match), len(game.match.deals), len(game.deal.history), view.phase)
        self.view = view
        if key == self.decision_key and self.mode in DECIDING:
            return
        self.decision_key = key
        self.hint = None
        self.bid_buf = ""
        self.bury_card = None
        self.suggested = None
        phase = view.phase
        legal = view.legal
        if phase is Phase.BIDDING:
            self.mode = "bid"
            self.options = list(legal)
            self.cursor = next((i for i, a in enumerate(self.options) if isinstance(a, Pass)), 0)
        elif phase is Phase.TRUMP:
            self.mode = "trump"
            self.options = list(TRUMPS)
            lengths = [len(view.hand & s.mask) for s in Suit]
            self.cursor = lengths.index(max(lengths))
        elif isinstance(legal, KeepOptions):
            self.mode = "keep"
            self.suggested = suggest(view)
            self.keep_sel = int(self.suggested.cards) if isinstance(self.suggested, Keep) else legal.must
            self.cards = [c for c in self.keep_order(view) if (legal.pool & ~legal.must) >> c & 1]
            self.cursor = 0
        else:
            self.mode = "play"
            legal_cards = {int(a.card) for a in legal if isinstance(a, Play)}
            self.cards = [c for c in hand_order(view.hand, view.trump) if c in legal_cards]
            self.cursor = 0

    def keep_order(self, view: SeatView) -> list[Card]:
        if view.phase is Phase.ROB:
            return hand_order(view.hand, view.trump) + hand_order(view.stock_seen, view.trump)
        return hand_order(view.hand, view.trump)

    @property
    def bury_due(self) -> bool:
        return self.mode == "play" and self.view is not None and any(
            isinstance(a, Play) and a.bury for a in self.view.legal)

    def act(self, action: Action) -> None:
        """Apply your action (the engine has the last word on legality)."""
        game = self.game
        if game is None or game.pending() != "human":
            return
        trump = self.view.trump if self.view is not None else None
        try:
            game.apply(action, game.seat)
        except IllegalAction as e:
            self.say(f"{action_words(action, trump)} is not allowed: {e.rule}.")
            return
        self.mode = "wait"
        self.decision_key = None
        self.status_text = Text()
        self.changed()
        nxt = game.pending()
        self.schedule(self.settings.pause if nxt == "bot" else 0)

    def say(self, text: str | Text) -> None:
        self.status_text = text if isinstance(text, Text) else Text(text)
        if self.is_mounted:
            self._update("#status", self.status_text)

    def explain_card(self, card: Card) -> None:
        """Why a card cannot be picked now, in the rule's words."""
        view = self.view
        game = self.game
        if view is None or game is None:
            return
        trump = view.trump
        if self.mode == "play":
            why = game.why_illegal(Play(card))
            if why is None and self.bury_due:
                why = "with more than six cards, choose the card to play first: Enter, then mark the cards to bury"
            self.say(f"{card_words(card, trump)} cannot be played: {why}." if why else "")
        elif self.mode == "keep" and isinstance(view.legal, KeepOptions):
            opts = view.legal
            if opts.must >> card & 1:
                why = opts.rules_text.get("must", "it cannot be thrown")
                self.say(f"{card_words(card, trump)} must be kept: {why}.")
            else:
                self.say(f"{card_words(card, trump)} cannot be kept: "
                         f"{opts.rules_text.get('pool', 'you may keep only cards you can choose from')}.")
        elif self.mode == "bury":
            if card == self.bury_card:
                self.say(f"{card_words(card, trump)} is the card you play; Escape chooses another.")
            else:
                why = game.why_illegal(Play(self.bury_card, CardSet(1 << card))) if self.bury_card is not None else None
                self.say(f"{card_words(card, trump)} cannot be buried"
                         + (f": {why}." if why and "point card" in why else ": burying a point card is forbidden."))

    # ---- keys ---------------------------------------------------------------------------------------------------
    def on_key(self, event) -> None:
        ch = (event.character or "").lower()
        if not ch or not (ch.isdigit() or ch in "shdcpa"):
            return
        if self.mode not in DECIDING:
            if self.game is not None and self.mode == "wait" and self.thinking is not None:
                self.say(f"Wait: {seat_label(self.thinking, self.game.seat)} is thinking.")
            event.stop()
            return
        event.stop()
        event.prevent_default()
        if self.mode == "bid":
            if ch.isdigit():
                self.bid_digit(ch)
            elif ch == "p":
                self.pick_pass()
        elif self.mode == "trump":
            if ch in SUIT_KEYS:
                self.cursor = int(SUIT_KEYS[ch])
                self.say("")
        elif self.mode == "keep":
            if ch == "a":
                self.take_suggestion()
            elif ch in SUIT_KEYS:
                self.jump_suit(SUIT_KEYS[ch])
            elif ch.isdigit():
                self.say("In the discard, ←/→ move and Space keeps or throws the card under the cursor.")
        elif self.mode in ("play", "bury"):
            if ch in SUIT_KEYS:
                self.jump_suit(SUIT_KEYS[ch])
            elif ch.isdigit() and self.mode == "play":
                self.pick_number(int(ch))
        self.refresh_all()

    def bid_digit(self, d: str) -> None:
        amounts = {a.amount: i for i, a in enumerate(self.options) if isinstance(a, Bid)}

        def prefix(buf: str) -> bool:
            return any(str(n).startswith(buf) and str(n) != buf for n in amounts)

        for buf in ((self.bid_buf + d, d) if self.bid_buf else (d,)):
            n = int(buf)
            if n in amounts:
                self.cursor = amounts[n]
                self.bid_buf = buf if prefix(buf) else ""
                self.say(f"Bid {n}: Enter bids" + (" (or type another digit)" if self.bid_buf else "") + ".")
                return
            if prefix(buf):
                self.bid_buf = buf
                self.say(f"Bid {buf}…: type the next digit.")
                return
        n = int(self.bid_buf + d if self.bid_buf else d)
        self.bid_buf = ""
        why = self.game.why_illegal(Bid(n)) if self.game is not None else None
        self.say(f"You cannot bid {n}: {why or 'it is not a legal bid'}.")

    def pick_pass(self) -> None:
        self.bid_buf = ""
        for i, a in enumerate(self.options):
            if isinstance(a, Pass):
                self.cursor = i
                self.say("Pass: Enter passes (a pass is final).")
                return
        why = self.game.why_illegal(Pass()) if self.game is not None else None
        self.say(f"You cannot pass: {why}.")

    def pick_number(self, n: int) -> None:
        view = self.view
        assert view is not None
        hand = hand_order(view.hand, view.trump)
        if n == 0:
            n = 10
        if not 1 <= n <= len(hand):
            self.say(f"There is no card {n}: you hold {len(hand)}.")
            return
        card = hand[n - 1]
        if card in self.cards:
            self.cursor = self.cards.index(card)
            self.say("")
        else:
            self.explain_card(card)

    def jump_suit(self, suit: Suit) -> None:
        view = self.view
        assert view is not None
        t = TRUMP_TABLES[view.trump] if view.trump is not None else None

        def effective(c: Card) -> int:
            return t.effective_suit[c] if t is not None else c.suit

        n = len(self.cards)
        for step in range(1, n + 1):
            i = (self.cursor + step) % n
            if effective(self.cards[i]) == suit:
                self.cursor = i
                self.say("")
                return
        held = [c for c in self.keep_order(view) if effective(c) == suit] if self.mode == "keep" else [
            c for c in hand_order(view.hand, view.trump) if effective(c) == suit]
        if held:
            self.explain_card(held[0])
        else:
            what = "trumps" if view.trump == suit else suit.name.lower()
            self.say(f"You hold no {what}.")

    def take_suggestion(self) -> None:
        choice = self.hint.action if self.hint is not None and isinstance(self.hint.action, Keep) else self.suggested
        if isinstance(choice, Keep):
            self.keep_sel = int(choice.cards)
            who = f"the {self.hint.bot} bot's" if choice is not self.suggested and self.hint else "the suggested"
            self.say(f"Back to {who} hand: Enter keeps it.")

    # ---- actions (bindings) -----------------------------------------------------------------------------------------
    def _not_yours(self) -> bool:
        if self.mode in DECIDING:
            return False
        game = self.game
        if game is None:
            return True
        if self.mode == "over" or game.match.is_over:
            self.say("The match is over: n starts a new match, q quits.")
        elif self.thinking is not None:
            self.say(f"Wait: {seat_label(self.thinking, game.seat)} is thinking.")
        return True

    def action_move(self, step: int) -> None:
        if self._not_yours():
            return
        items = self.options if self.mode in ("bid", "trump") else self.cards
        if items:
            self.cursor = (self.cursor + step) % len(items)
        self.bid_buf = ""
        self.say("")
        self.refresh_all()

    def action_move_end(self, last: int) -> None:
        if self._not_yours():
            return
        items = self.options if self.mode in ("bid", "trump") else self.cards
        if items:
            self.cursor = len(items) - 1 if last else 0
        self.refresh_all()

    def action_confirm(self) -> None:
        if self._not_yours():
            return
        view = self.view
        assert view is not None
        if self.mode in ("bid", "trump"):
            self.act(self.options[self.cursor])
        elif self.mode == "keep":
            opts = view.legal
            assert isinstance(opts, KeepOptions)
            why = opts.violation(self.keep_sel)
            if why:
                self.say(f"Not yet: {why}.")
                self.refresh_all()
                return
            self.act(Keep(CardSet(self.keep_sel)))
        elif self.mode == "play":
            if not self.cards:
                return
            card = self.cards[self.cursor]
            if self.bury_due:
                self.start_bury(card)
            else:
                self.act(Play(card))
        elif self.mode == "bury":
            assert self.bury_card is not None
            self.act(Play(self.bury_card, CardSet(self.keep_sel)))
        if self.mode in DECIDING:
            self.refresh_all()

    def start_bury(self, card: Card) -> None:
        view = self.view
        assert view is not None and view.trump is not None
        plays = [a for a in view.legal if isinstance(a, Play) and a.card == card]
        sets = sorted({int(p.bury) for p in plays})
        if len(sets) == 1:
            self.act(plays[0])
            return
        self.mode = "bury"
        self.bury_card = card
        self.bury_sets = sets
        hinted = self.hint.action if self.hint is not None else None
        if isinstance(hinted, Play) and hinted.card == card and int(hinted.bury) in sets:
            self.keep_sel = int(hinted.bury)
        else:
            self.keep_sel = int(cheapest_bury(plays, view.trump)[card].bury)
        union = 0
        for s in sets:
            union |= s
        self.cards = [c for c in hand_order(view.hand, view.trump) if union >> c & 1]
        self.cursor = 0
        n = int(plays[0].bury).bit_count()
        self.say(f"Now bury {n} card{'s' * (n != 1)} under {card_words(card, view.trump)}: the cheapest are marked.")
        self.refresh_all()

    def action_toggle(self) -> None:
        if self._not_yours():
            return
        if self.mode in ("keep", "bury") and self.cards:
            card = self.cards[self.cursor]
            self.keep_sel ^= 1 << card
            self.say("")
            self.refresh_all()
        elif self.mode in ("bid", "trump", "play"):
            self.say("Enter confirms; Space keeps or throws a card in a discard.")

    def action_back(self) -> None:
        if self.mode == "bury":
            self.mode = "play"
            view = self.view
            assert view is not None
            legal_cards = {int(a.card) for a in view.legal if isinstance(a, Play)}
            card = self.bury_card
            self.cards = [c for c in hand_order(view.hand, view.trump) if c in legal_cards]
            self.cursor = self.cards.index(card) if card in self.cards else 0
            self.bury_card = None
            self.say("Choose the card to play.")
        else:
            self.say("")
        self.refresh_all()

    def on_hand_view_clicked(self, message: HandView.Clicked) -> None:
        card = message.card
        if self._not_yours():
            return
        if self.mode in ("bid", "trump"):
            self.say("Click a choice above your hand, or use the keys.")
            return
        if card not in self.cards:
            self.explain_card(card)
            self.refresh_all()
            return
        index = self.cards.index(card)
        if self.mode == "play":
            if self.cursor == index:
                self.action_confirm()
                return
            self.cursor = index
            self.say("Click it again (or press Enter) to play it.")
        else:
            self.cursor = index
            self.action_toggle()
            return
        self.refresh_all()

    def on_prompt_bar_clicked(self, message: PromptBar.Clicked) -> None:
        if self._not_yours() or self.mode not in ("bid", "trump"):
            return
        index = message.key
        if self.cursor == index:
            self.action_confirm()
            return
        self.cursor = index
        self.say("Click it again (or press Enter) to confirm.")
        self.refresh_all()

    # ---- hint, undo, screens ---------------------------------------------------------------------------------------
    def action_hint(self) -> None:
        game = self.game
        if not self.settings.hints:
            self.say("Hints are off (o: settings).")
            return
        if self._not_yours() or game is None or self.view is None:
            return
        if self.hinting:
            return
        self.hinting = True
        name, bot = hint_bot()
        view = game.view()
        self.say(f"Asking the {name} bot…")
        gen = self.generation
        key = self.decision_key
        self.run_worker(partial(self._hint_thread, gen, key, name, bot, view), thread=True, group="hint",
                        exit_on_error=False)

    def _hint_thread(self, gen: int, key: Any, name: str, bot, view: SeatView) -> None:
        try:
            hint, error = ask_hint(name, bot, view), None
        except Exception as e:
            hint, error = None, e
        with contextlib.suppress(RuntimeError):  # the app has closed
            self.app.call_from_thread(self._hint_done, gen, key, hint, error)

    def _hint_done(self, gen: int, key: Any, hint: Hint | None, error: Exception | None) -> None:
        self.hinting = False
        if gen != self.generation or key != self.decision_key or self.view is None:
            return
        if hint is None:
            self.say(f"No hint this time ({error}).")
            return
        self.hint = hint
        trump = self.view.trump
        action = hint.action
        text = f"Hint from the {hint.bot} bot: {action_words(action, trump)}"
        if hint.estimate:
            text += f" ({hint.estimate})"
        if self.mode in ("bid", "trump") and action in self.options:
            self.cursor = self.options.index(action)
            text += ". The cursor is on it: Enter takes it."
        elif self.mode == "play" and isinstance(action, Play) and action.card in self.cards:
            self.cursor = self.cards.index(action.card)
            text += ". The cursor is on it: Enter takes it."
        elif self.mode == "keep":
            text += ". Press a to take it."
        self.say(text + ("" if text.endswith(".") else "."))
        self.refresh_all()

    def action_undo(self) -> None:
        game = self.game
        if game is None:
            return
        if not self.settings.undo:
            self.say("Undo is off (o: settings).")
            return
        index = game.undo_target()
        if index is None:
            self.say("Nothing of yours to take back in this deal." if not game.match.is_over
                     else "The match is over: nothing to take back.")
            return
        deal = game.deal
        assert deal is not None
        taken = deal.history[index]
        trump = deal.trump if deal.phase is not Phase.BIDDING else None
        self.generation += 1
        self.thinking = None
        self.mode = "wait"
        self.decision_key = None
        game.undo()
        self.acked = min(self.acked, len(game.match.summaries))
        self.cinch.saver.save(game.match)
        self.narrator = Narrator(game.seat)
        log = self.query_one(EventLog)
        log.clear()
        view = game.view()
        if view is not None:
            for line in self.narrator.update(view):
                if line:
                    log.write(line)
        self.advance()
        more = game.deal is not None and len(game.deal.history) < len(deal.history) - 1
        self.say(f"Taken back: your {action_words(taken, trump)}{' and what followed' if more else ''}.")

    def show_deal_over(self) -> None:
        game = self.game
        assert game is not None
        summary = game.last_summary
        assert summary is not None
        self.acked = len(game.match.summaries)
        self.mode = "wait"
        m = game.match
        show_par = self.settings.par and not summary.result.thrown_in
        par_text = "Par: working it out…" if show_par else ""
        screen = DealOverScreen(summary, game.seat, game.rules, self.palette, winner=m.winner, final=m.score,
                                can_undo=self.settings.undo and game.undo_target() is not None,
                                par=par_text, view=game.view())
        self.app.push_screen(screen, self._deal_over_closed)
        if show_par:
            start = game.play_start()
            self.par_pending = True
            gen = self.generation
            self.run_worker(partial(self._par_thread, gen, screen, summary, start), thread=True, group="par",
                            exit_on_error=False)

    def _par_thread(self, gen: int, screen: DealOverScreen, summary, start) -> None:
        try:
            par = par_of(start)
        except Exception:
            par = None
        with contextlib.suppress(RuntimeError):  # the app has closed
            self.app.call_from_thread(self._par_done, gen, screen, summary, par)

    def _par_done(self, gen: int, screen: DealOverScreen, summary, par) -> None:
        self.par_pending = False
        if gen != self.generation or not screen.is_attached or self.game is None:
            return
        screen.set_par(describe_par(par, summary, self.game.seat) if par is not None else "")

    def _deal_over_closed(self, result: str | None) -> None:
        if result == "undo":
            self.action_undo()
            return
        game = self.game
        if game is not None and game.match.is_over:
            self.mode = "over"
            self.refresh_all()
            self.action_new_match()
            return
        self.advance()

    def action_last_trick(self) -> None:
        view = self.game.view() if self.game is not None else None
        if view is None or (not view.tricks and not view.current_trick):
            self.say("No trick has been played yet in this deal.")
            return
        self.app.push_screen(TricksScreen(view, self.game.seat, self.palette))

    def action_rules(self) -> None:
        rules = self.game.rules if self.game is not None else self.cinch.setup.rules
        self.app.push_screen(RulesScreen(rules))

    def action_keys(self) -> None:
        self.app.push_screen(KeysScreen())

    def action_settings(self) -> None:
        self.app.push_screen(SettingsScreen(self.settings), lambda _: self.refresh_all())

    def action_theme(self) -> None:
        order = list(THEME_ORDER)
        self.settings.theme = order[(order.index(self.settings.theme) + 1) % len(order)]
        self.cinch.apply_theme()
        self.say(f"Colours: {PALETTES[self.settings.theme].label}.")

    def action_new_match(self) -> None:
        setup = self.game.setup if self.game is not None else self.cinch.setup
        self.app.push_screen(NewMatchScreen(setup, can_cancel=self.game is not None), self._new_match_chosen)

    def _new_match_chosen(self, setup: TableSetup | None) -> None:
        if setup is not None:
            self.new_game(setup)

    # ---- drawing ---------------------------------------------------------------------------------------------------
    @property
    def ready(self) -> bool:
        """Nothing is moving: the table waits for a key (for tests and scripts)."""
        return (self.thinking is None and not self.hinting and not self.par_pending and self.scheduled == 0
                and (self.mode in DECIDING or self.mode == "over" or self.app.screen is not self))

    def refresh_all(self) -> None:
        if not self.is_mounted or self.game is None:
            return
        game = self.game
        view = game.view()
        if view is None:
            return
        if self.mode in DECIDING:
            self.view = view
        self._update("#topbar", self.topbar(view))
        for seat in Seat:
            pos = Position.of(seat, game.seat)
            panel = self._update(f"#seat-{pos}", self.seat_text(view, seat, pos))
            to_act = self.is_to_act(view, seat)
            if panel.has_class("to-act") != to_act:
                panel.set_class(to_act, "to-act")
        self.query_one(TrickView).show(self.center(view))
        self._update("#info", self.info(view))
        self.query_one(PromptBar).show(self.prompt(view))
        self.query_one(HandView).show(self.hand_model(view))
        self._update("#status", self.status_text)

    def _update(self, selector: str, text: Text) -> Static:
        """Update a Static only when its text changes (a redraw costs more than a comparison), and lay
        the screen out again only when its height may change."""
        widget = self.query_one(selector, Static)
        old = self._shown.get(selector)
        if old != text:
            self._shown[selector] = text
            if selector in ("#info", "#status"):
                width = max(widget.content_region.width, 10)
                layout = old is None or _lines(old, width) != _lines(text, width)
            else:
                layout = False
            widget.update(text, layout=layout)
        return widget

    def repaint(self) -> None:
        """Draw everything again (the colours changed)."""
        self._shown.clear()
        self.refresh_all()
        if self.is_mounted:
            for widget in (self.query_one(HandView), self.query_one(PromptBar), self.query_one(TrickView)):
                widget.refresh()

    def is_to_act(self, view: SeatView, seat: Seat) -> bool:
        return view.phase is not Phase.DONE and view.to_act == seat

    def topbar(self, view: SeatView) -> Text:
        game = self.game
        assert game is not None
        rules = view.rules
        score = view.score or (0, 0)
        me = game.seat
        out = Text()
        out.append("Cinch ", style="bold")
        out.append(f"{rules.name} · deal {view.deal_number} · dealer {view.dealer} · ")
        out.append(f"{team_label(Team.NS, me)} {score[0]}", style=f"bold {self._team_colour(Team.NS)}")
        out.append(" – ")
        out.append(f"{team_label(Team.EW, me)} {score[1]}", style=f"bold {self._team_colour(Team.EW)}")
        out.append(f" · to {rules.target}")
        if view.bidder_goes_out:
            out.append(" · bidder goes out", style="bold")
        return out

    def _team_colour(self, team: Team) -> str:
        assert self.game is not None
        return self.palette.mine if team == self.game.seat.team else self.palette.theirs

    def seat_text(self, view: SeatView, seat: Seat, pos: str) -> Text:
        game = self.game
        assert game is not None
        me = game.seat
        role = "you" if seat == me else "partner" if seat == me.partner else "opponent"
        name = (view.players[seat] if view.players else "") or ("you" if seat == me else "")
        items: list[str | Text] = []
        items.append(Text(f"{seat} {role}", style=f"bold {self._team_colour(seat.team)}"))
        if seat == view.dealer:
            items.append(Text("dealer", style="italic"))
        if seat != me and name:
            items.append(name)
        n = view.hand_sizes[seat]
        if seat != me:
            items.append(f"{n} card{'s' * (n != 1)}")
        last = next((a for s, a in reversed(view.auction) if s == seat), None)
        if view.maker == seat and view.trump is not None:
            items.append(Text(f"bid {view.bid} {view.trump.symbol}", style="bold"))
        elif view.maker == seat and view.bid is not None:
            items.append(Text(f"bid {view.bid}", style="bold"))
        elif isinstance(last, Bid):
            items.append(f"bid {last.amount}")
        elif isinstance(last, Pass):
            items.append("passed")
        if self.is_to_act(view, seat):
            if seat == me:
                items.append(Text("▶ your turn", style=f"bold {self.palette.cursor}"))
            else:
                items.append(Text("▶ thinking" if self.thinking == seat else "▶ to play",
                                  style=f"bold {self.palette.cursor}"))
        sep = " · " if pos in ("top", "bottom") else "\n"
        out = Text()
        for i, item in enumerate(items):
            if i:
                out.append(sep)
            out.append_text(item if isinstance(item, Text) else Text(item))
        return out

    def center(self, view: SeatView) -> CenterModel:
        game = self.game
        assert game is not None
        me = game.seat
        palette = self.palette
        trump = view.trump
        slots: dict[str, Text] = {}
        phase = view.phase
        if phase in (Phase.BIDDING, Phase.TRUMP) or (phase is Phase.DONE and view.trump is None):
            for seat in Seat:
                last = next((a for s, a in reversed(view.auction) if s == seat), None)
                if last is not None:
                    word = "pass" if isinstance(last, Pass) else str(last.amount)  # type: ignore[attr-defined]
                    slots[Position.of(seat, me)] = Text(f"{seat} {word}", style=f"bold {palette.felt_text}")
            high = max((a.amount for _, a in view.auction if isinstance(a, Bid)), default=None)
            title = f"Bidding, {view.rules.min_bid} to {view.rules.highest_bid}"
            if phase is Phase.TRUMP:
                footer = f"{seat_label(view.maker, me)} won at {view.bid}: naming trumps" if view.maker else ""
            elif phase is Phase.DONE:
                footer = "all passed: thrown in"
            else:
                footer = f"high bid {high}" if high else "no bid yet"
            return CenterModel(title, slots, footer)
        if phase in (Phase.DISCARD, Phase.ROB, Phase.RESTOCK):
            for seat in Seat:
                if view.drawn_counts[seat]:
                    slots[Position.of(seat, me)] = Text(f"{seat} drew {view.drawn_counts[seat]}",
                                                        style=palette.felt_text)
            footer = f"{seat_label(view.dealer, me)} robs the pack" if phase is Phase.ROB else "discarding"
            return CenterModel("Discard and draw", slots, footer)
        # the play (or its end)
        total = view.rules.tricks
        if view.current_trick:
            plays = view.current_trick
            number = len(view.tricks) + 1
            leader = plays[0].seat
            t = TRUMP_TABLES[trump] if trump is not None else None
            winner = None
            if t is not None:
                strength = t.strength[t.effective_suit[plays[0].card]]
                winner = max(plays, key=lambda p: strength[p.card]).seat
            title = Text(f"Trick {number} of {total}, {leader} led")
            footer = Text(f"{seat_label(winner, me)} winning" if winner is not None else "")
        elif view.tricks:
            last = view.tricks[-1]
            plays = last.plays
            number = len(view.tricks)
            title = Text(f"Trick {number} of {total}, won by {last.winner}")
            footer = Text("the deal is over" if phase is Phase.DONE else
                          ("your lead" if view.to_act == me else f"{seat_label(last.winner, me)} leads"),
                          style=palette.muted)
            winner = last.winner
        else:
            plays = ()
            title = Text(f"Trick 1 of {total}")
            leader = view.trick_leader
            footer = Text("your lead" if leader == me else f"{seat_label(leader, me)} leads" if leader else "")
            winner = None
        for p in plays:
            slot = Text(f"{p.seat} ", style=f"bold {palette.felt_text}")
            slot.append_text(chip(p.card, trump, palette))
            if p.buried:
                slot.append(f" +{len(p.buried)} buried", style=palette.muted)
            if p.seat == winner:
                slot.append(" ◆", style=f"bold {palette.cursor}")
            slots[Position.of(p.seat, me)] = slot
        return CenterModel(title, slots, footer)

    def info(self, view: SeatView) -> Text:
        """The side panel: the contract, the points surely taken, the tricks, the bids, the draw."""
        game = self.game
        assert game is not None
        me = game.seat
        palette = self.palette
        trump = view.trump
        out = Text()
        if view.maker is not None and trump is not None:
            left = Card.of("5", trump.partner)
            out.append("Contract ", style="bold")
            out.append(f"{view.maker} bid {view.bid}, {trump.name.lower()} {trump.symbol}; ")
            out.append_text(chip(left, trump, palette))
            out.append(" is a trump\n")
        pts = points_so_far(view)
        if pts is not None:
            out.append("Points so far", style="bold")
            out.append(" (sure ones)\n", style=palette.muted)
            for team in (me.team, me.team.other):
                out.append(f" {team_label(team, me)} {pts.total(team)}", style=f"bold {self._team_colour(team)}")
                for name, card, _ in pts.awards[team]:
                    out.append(f" {name} ")
                    out.append_text(chip(card, trump, palette))
                out.append("\n")
            if pts.pending:
                out.append(" " + " and ".join(pts.pending) + ": known at the end\n", style=palette.muted)
        if view.tricks:
            won = [sum(1 for t in view.tricks if t.winner.team == team) for team in Team]
            out.append("Tricks ", style="bold")
            out.append(f"{team_label(Team.NS, me)} {won[0]}, {team_label(Team.EW, me)} {won[1]}\n")
        if view.auction:
            out.append("Bids ", style="bold")
            out.append(", ".join(f"{s} {'pass' if isinstance(a, Pass) else a.amount}"  # type: ignore[attr-defined]
                                 for s, a in view.auction) + "\n")
        if trump is not None and not view.rules.no_draw:
            thrown = view.own_discards - view.shown_trumps[me]
            if thrown:
                out.append("You threw ")
                out.append_text(chips(hand_order(thrown, trump), trump, palette))
                out.append("\n")
            if view.own_drawn:
                out.append("You took " if me == view.dealer else "You drew ")
                out.append_text(chips(hand_order(view.own_drawn, trump), trump, palette))
                out.append("\n")
            if view.phase in (Phase.ROB, Phase.PLAY, Phase.DONE):
                order = [view.dealer.left, view.dealer.partner, view.dealer.left.partner]
                out.append("Drew " + ", ".join(f"{s} {view.drawn_counts[s]}" for s in order))
                if view.phase is not Phase.ROB:
                    out.append(f"; dealer {view.dealer} took {view.drawn_counts[view.dealer]}")
                out.append("\n")
            for s in Seat:
                if view.shown_trumps[s]:
                    out.append(f"{s} showed, dead ")
                    out.append_text(chips(hand_order(view.shown_trumps[s], trump), trump, palette))
                    out.append("\n")
            for s in Seat:
                if view.face_up_discards[s] and s != me:
                    out.append(f"{s} threw face up ")
                    out.append_text(chips(hand_order(view.face_up_discards[s], trump), trump, palette))
                    out.append("\n")
        out.rstrip()
        return out

    def prompt(self, view: SeatView) -> PromptModel:
        game = self.game
        assert game is not None
        me = game.seat
        palette = self.palette
        trump = view.trump
        mode = self.mode
        key_style = f"bold {palette.cursor}"
        if mode == "bid":
            prompt = Text("Your bid: ", style=key_style)
            prompt.append("type digits, or p to pass; ←/→ move; Enter bids.")
            options = [(i, "Pass" if isinstance(a, Pass) else str(a.amount))  # type: ignore[attr-defined]
                       for i, a in enumerate(self.options)]
            return PromptModel(prompt, options, self.cursor)
        if mode == "trump":
            prompt = Text(f"You won at {view.bid}: name trumps ", style=key_style)
            prompt.append("with s h d c or ←/→, then Enter. The other 5 of the colour is a trump.")
            options = []
            for i, a in enumerate(self.options):
                suit = a.suit  # type: ignore[attr-defined]
                left = Card.of("5", suit.partner)
                n = len(view.hand & TRUMP_TABLES[suit].trumps)
                options.append((i, f"{suit.symbol} {suit.name.lower()} +{left.symbol} ({n})"))
            return PromptModel(prompt, options, self.cursor)
        if mode == "keep":
            opts = view.legal
            assert isinstance(opts, KeepOptions)
            what = "Rob the pack" if view.phase is Phase.ROB else "Your discard"
            prompt = Text(f"{what}: ", style=key_style)
            prompt.append("←/→ move, Space keeps/throws, a suggested hand, Enter confirms.")
            kept = self.keep_sel.bit_count()
            why = opts.violation(self.keep_sel)
            note = Text(f"Rule: {keep_words(opts, trump)}.\n", style=palette.muted)
            if why:
                note.append(f"Keeping {kept}: not yet legal: {why}.", style=f"bold {palette.cursor}")
            else:
                note.append(f"Keeping {kept}: legal. Enter keeps these.", style="bold")
            return PromptModel(prompt, note=note)
        if mode in ("play", "bury"):
            number = len(view.tricks) + 1
            if mode == "bury":
                n = int(next(iter(self.bury_sets))).bit_count() if self.bury_sets else 0
                prompt = Text("Bury ", style=key_style)
                prompt.append(f"{n} card{'s' * (n != 1)} under {card_words(self.bury_card, trump)}: Space marks,"
                              " Enter plays, Escape goes back. Point cards may not be buried.")
                return PromptModel(prompt)
            if view.current_trick:
                lead = view.current_trick[0]
                prompt = Text(f"Trick {number}: your turn ", style=key_style)
                prompt.append(f"({lead.seat} led {card_words(lead.card, trump)}). ")
            else:
                prompt = Text(f"Trick {number}: your lead. ", style=key_style)
            prompt.append("←/→ or 1-9 choose, Enter plays.")
            if self.bury_due:
                prompt.append(" You then bury your extra cards.")
            return PromptModel(prompt)
        # not your turn
        if game.match.is_over:
            winner = game.match.winner
            assert winner is not None
            return PromptModel(Text(f"The match is over: {winner} won, NS {game.match.score[0]} to EW "
                                    f"{game.match.score[1]}. n starts a new match, q quits.", style=key_style))
        if self.thinking is not None:
            return PromptModel(Text(f"{seat_label(self.thinking, me)} is thinking…", style=palette.muted))
        if view.phase is Phase.DONE:
            return PromptModel(Text("The deal is over.", style=palette.muted))
        return PromptModel(Text("…", style=palette.muted))

    def hand_model(self, view: SeatView) -> HandModel:
        mode = self.mode
        trump = view.trump
        if mode == "trump":
            preview = self.options[self.cursor].suit  # type: ignore[attr-defined]
            return HandModel([("", hand_order(view.hand, preview))], preview)
        if mode == "keep" and isinstance(view.legal, KeepOptions):
            opts = view.legal
            marks = {}
            dim = set()
            for c in self.keep_order(view):
                kept = bool(self.keep_sel >> c & 1)
                marks[int(c)] = "✓" if kept else "✗"
                if not kept:
                    dim.add(int(c))
            if view.phase is Phase.ROB:
                groups = [("your hand", hand_order(view.hand, trump)),
                          ("the stock", hand_order(view.stock_seen, trump))]
            else:
                groups = [("", hand_order(view.hand, trump))]
            del opts
            cursor = self.cards[self.cursor] if self.cards else None
            return HandModel(groups, trump, cursor, frozenset(dim), marks)
        hand = hand_order(view.hand, trump)
        if mode == "play":
            legal = set(self.cards)
            labels = {int(c): str(i) for i, c in enumerate(hand, start=1) if i <= 9}
            cursor = self.cards[self.cursor] if self.cards else None
            return HandModel([("", hand)], trump, cursor, frozenset(int(c) for c in hand if c not in legal),
                             labels=labels)
        if mode == "bury":
            labels = {int(self.bury_card): "play"} if self.bury_card is not None else {}
            marks = {}
            for c in hand:
                if self.keep_sel >> c & 1:
                    labels[int(c)] = "bury"
                    marks[int(c)] = "✗"
            cursor = self.cards[self.cursor] if self.cards else None
            dim = frozenset(int(c) for c in hand if c not in self.cards and c != self.bury_card)
            return HandModel([("", hand)], trump, cursor, dim, marks, labels)
        return HandModel([("", hand)], trump)


def _lines(text: Text, width: int) -> int:
    """Roughly the lines a text wraps to (enough to tell whether a height changes)."""
    return sum(max(1, -(-len(line) // width)) for line in text.plain.split("\n")) if text.plain else 0


class CinchApp(App):
    """The Textual table for ``cinch play``."""

    CSS = CSS
    TITLE = "Cinch"
    ENABLE_COMMAND_PALETTE = False

    def __init__(self, setup: TableSetup, *, saver: Saver | None = None, settings: Settings | None = None,
                 offer_resume: bool = True, resume_id: int | None = None, game: TableGame | None = None) -> None:
        super().__init__()
        self.setup = setup
        self.saver = saver if saver is not None else Saver()
        self.settings = settings if settings is not None else Settings()
        self.offer_resume = offer_resume
        self.resume_id = resume_id
        self.game: TableGame | None = game
        for theme in THEMES:
            self.register_theme(theme)
        self.palette: Palette = PALETTES.get(self.settings.theme, PALETTES["classic"])
        self.table = TableScreen()

    def get_default_screen(self) -> Screen:
        return self.table

    def on_mount(self) -> None:
        self.theme = self.palette.theme

    def apply_theme(self) -> None:
        self.palette = PALETTES.get(self.settings.theme, PALETTES["classic"])
        self.theme = self.palette.theme
        self.table.repaint()


def run(setup: TableSetup, *, saver: Saver | None = None, settings: Settings | None = None,
        offer_resume: bool = True, resume_id: int | None = None) -> int:
    """Play at the table until the player quits; the exit status."""
    app = CinchApp(setup, saver=saver, settings=settings, offer_resume=offer_resume, resume_id=resume_id)
    app.run()
    return 0
