"""``cinch play``: the match at a card table drawn in the terminal (Textual).

You sit at the bottom, your partner at the top and the opponents left and right.  At a
cut-throat table (two, three, five or six players, each for himself) the others sit round
you clockwise: across at two, left and right at three, one on each side and two across the
top at five (three across at six), each seat in a box of its own.
The match is a :class:`~cinch.table.Table`; this screen shows only your seat's view,
turns keys into the :class:`~cinch.tui.decision.Decision` in front of you, lets the
bots think in worker threads (so the table stays responsive), and pauses between
their plays so a person can follow them.
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

from cinch.actions import Action, Bid, OutOfTurn, Pass, Play
from cinch.cards import Card, CardSet, Seat
from cinch.errors import CinchError, IllegalAction
from cinch.irregularities import penalty_text
from cinch.keep import KeepOptions
from cinch.table import BotTurn, Pending, Saver, Table
from cinch.table.advice import Hint, ask_hint, available_bots
from cinch.table.narrate import (
    Narrator,
    action_words,
    card_text,
    hand_order,
    out_of_turn_words,
    rule_words,
    view_trump,
)
from cinch.table.narrate import seat_name as seat_label
from cinch.table.summary import describe_par, par_of, play_start
from cinch.tui.decision import SUIT_KEYS, Decision, Mode
from cinch.tui.game import TableSetup
from cinch.tui.panels import TableLook
from cinch.tui.render import PALETTES, THEME_ORDER, Palette
from cinch.tui.screens import (
    ConfirmScreen,
    DealOverScreen,
    KeysScreen,
    NewMatchScreen,
    OutOfTurnScreen,
    ResumeScreen,
    RulesScreen,
    Settings,
    SettingsScreen,
    TricksScreen,
)
from cinch.tui.theme import CSS, THEMES
from cinch.tui.widgets import EventLog, HandView, Position, PromptBar, SeatPanel, TopBar, TrickView
from cinch.view import Phase, SeatView


class TableScreen(Screen):
    """The card table: the seats round it (two to six), the trick, your hand, the decision in front of you."""

    BINDINGS = [
        Binding("enter", "confirm", "OK"),
        Binding("space", "toggle_mark", "Keep/bury", show=False),
        Binding("left", "move(-1)", "Move", show=False),
        Binding("right", "move(1)", "Move", show=False),
        Binding("up", "move(-1)", "Move", show=False),
        Binding("down", "move(1)", "Move", show=False),
        Binding("home", "move_end(0)", "First", show=False),
        Binding("end", "move_end(1)", "Last", show=False),
        Binding("question_mark", "hint", "Hint", key_display="?"),
        Binding("x", "out_of_turn", "Out of turn", show=False),
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
        self.game: Table | None = None
        self.seat = Seat.S
        self.decision = Decision()
        self.narrator: Narrator | None = None
        self.generation = 0  # a rebuilt or new match makes older timers and worker results stale
        self.thinking: Seat | None = None
        self.hinting = False
        self.par_pending = False
        self.scheduled = 0
        self.status_text: Text = Text()
        self._shown: dict[str, Text] = {}
        # Honour rule (003): a bot's choice held while the table stops for you to act out of turn, and
        # whether x asked for a stop before the next bot acts.
        self.held: tuple[BotTurn, Action | None, Exception | None] | None = None
        self.stop_wanted = False

    # ---- layout ------------------------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield TopBar(id="topbar")
        with Horizontal(id="upper"):
            with Vertical(id="felt"):
                with Horizontal(id="across"):  # one box across at two and four, two at five, three at six
                    for name in Position.ACROSS:
                        yield SeatPanel(id=f"seat-{name}", classes="seat")
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

    @property
    def mode(self) -> Mode:
        return self.decision.mode

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
        try:
            game = Table.resume(app.saver, match_id)
        except CinchError as e:
            self.new_game(app.setup)
            self.say(f"Match {match_id} could not be resumed ({e}); a new match begins.")
            return
        if game.human is None:
            self.new_game(app.setup)
            self.say(f"Match {match_id} could not be resumed (it has no seat for you to play); a new match begins.")
            return
        bots = tuple(game.bot_names.get(s, "") for s in game.match.table.seats)
        app.setup = TableSetup(game.rules, game.human, bots, None)
        self.start_game(game)
        # Told from the table as it now stands: a match saved between deals resumes with the next one.
        table = game.match.table
        score = (f"NS {game.match.score[0]} EW {game.match.score[1]}" if table.partnership
                 else table.score_text(game.match.score))
        self.say(f"Resumed match {match_id} ({game.rules.name}, deal {len(game.match.deals)}, {score}).")

    def new_game(self, setup: TableSetup) -> None:
        self.cinch.setup = setup
        self.start_game(setup.table(self.cinch.saver))

    def start_game(self, game: Table) -> None:
        assert game.human is not None
        self.cinch.game = game
        self.game = game
        self.seat = game.human
        self.generation += 1
        self.thinking = None
        self.held, self.stop_wanted = None, False
        self.decision.stop()
        self.narrator = Narrator(self.seat)
        log = self.query_one(EventLog)
        log.clear()
        rules = game.rules
        others = ", ".join(f"{s} {game.bot_names[s]}" for s in game.match.table.seats if s != self.seat)
        partner = (f", partner {self.seat.partner}" if rules.seating.partnership
                   else f", each for himself ({rules.seating.players} players)")
        log.write(f"Cinch, {rules.name} rules, first to {rules.target}. Seed {game.seed}. You sit {self.seat}"
                  f"{partner}. Bots: {others}.")
        if rules.honour_rule and penalty_text(rules) == "003":
            log.write("Honour rule (003): x acts out of turn while another player is to bid, lead or play "
                      "(F1: keys).")
        self.status_text = Text()
        self.narrate()  # a resumed match: the deal so far, told again
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
        """Let the table move the match on until it waits for you, a bot or the end of a deal."""
        game = self.game
        if game is None or self.thinking is not None or self.held is not None:
            return
        pending = game.advance()
        self.narrate()
        if pending is not Pending.BOT:
            self.stop_wanted = False  # a stop asked for with x lasts until the next bot's turn only
        if pending is Pending.DEAL_OVER:
            self.refresh_all()
            self.show_deal_over()
        elif pending is Pending.MATCH_OVER:
            self.decision.stop(Mode.OVER)
            self.refresh_all()
        elif pending is Pending.HUMAN:
            self.begin_decision()
            self.refresh_all()
        else:
            turn = game.bot_turn()
            assert turn is not None
            self.think(turn)

    def narrate(self) -> None:
        """Tell the log what happened since it last looked, and any problem (a save that failed)."""
        game = self.game
        if game is None or self.narrator is None:
            return
        lines = self.narrator.update(game.match.view(self.seat)) if game.match.deals else []
        log = self.query_one(EventLog)
        for line in lines:
            if line:
                log.write(line)
        notes = game.take_notes()
        if notes:
            self.say(notes[-1])

    def changed(self) -> None:
        """After every action (the table has saved it): tell the log, redraw."""
        self.narrate()
        self.refresh_all()

    def think(self, turn: BotTurn) -> None:
        self.thinking = turn.seat
        self.decision.stop()
        self.refresh_all()
        gen = self.generation
        self.run_worker(partial(self._bot_thread, gen, turn), thread=True, group="bots", exit_on_error=False)

    def _bot_thread(self, gen: int, turn: BotTurn) -> None:
        action, error = turn.decide()
        with contextlib.suppress(RuntimeError):  # the app has closed
            self.app.call_from_thread(self._bot_done, gen, turn, action, error)

    def _bot_done(self, gen: int, turn: BotTurn, action: Action | None, error: Exception | None) -> None:
        if gen != self.generation or self.game is None:
            return
        self.thinking = None
        if (self.settings.stops or self.stop_wanted) and self.game.irregular_actions(self.seat):
            self.stop_ahead(turn, action, error)
            return
        self.apply_bot(turn, action, error)

    def apply_bot(self, turn: BotTurn, action: Action | None, error: Exception | None) -> None:
        """Apply a bot's choice, tell it, and move on after the pause."""
        game = self.game
        assert game is not None
        deal = game.deal
        tricks = len(deal.tricks) if deal is not None else 0
        game.play_bot(turn, action, error)
        self.changed()
        deal = game.deal
        trick_done = deal is not None and len(deal.tricks) > tricks
        self.schedule(self.settings.pause * (2 if trick_done or (deal is not None and deal.is_over) else 1))

    # ---- your decisions --------------------------------------------------------------------------------------
    def begin_decision(self) -> None:
        game = self.game
        assert game is not None and game.deal is not None
        view = game.view(self.seat)
        assert view is not None
        key = (id(game.match), len(game.match.deals), len(game.deal.history), view.phase)
        self.decision.begin(view, key, partial(game.suggestion, self.seat))

    def act(self, action: Action, irregular: bool = False) -> None:
        """Apply your action (the table has the last word on legality); ``irregular``: a revoke you confirmed."""
        game = self.game
        if game is None or game.pending() is not Pending.HUMAN:
            return
        trump = view_trump(self.decision.view) if self.decision.view is not None else None  # (bowers: tables)
        try:
            game.act(self.seat, action, irregular=irregular)
        except IllegalAction as e:
            self.say(f"{action_words(action, trump)} is not allowed: {rule_words(e.rule, trump)}.")
            return
        self.decision.stop()
        self.status_text = Text()
        self.changed()
        self.schedule(self.settings.pause if game.pending() is Pending.BOT else 0)

    def offer_revoke(self, card: Card) -> None:
        """A greyed card under the honour rule: it may be played on purpose, as a revoke, once confirmed."""
        view = self.decision.view
        trump = view_trump(view) if view is not None else None
        shown = card_text(card, trump)
        self.say(f"{shown} does not follow suit: y plays it as a revoke, n keeps it.")
        question = (f"Playing the {shown} does not follow suit: that is a revoke under the honour rule. "
                    "Play it anyway?")
        self.app.push_screen(ConfirmScreen(question), partial(self._revoke_answered, card, self.decision.key))

    def _revoke_answered(self, card: Card, key: Any, yes: bool | None) -> None:
        if key != self.decision.key or self.decision.mode is not Mode.PLAY:
            return  # the decision moved on (an undo, a new match) while the question was open
        if yes:
            self.act(Play(card), irregular=True)
        else:
            self.say(f"{card_text(card, view_trump(self.decision.view) if self.decision.view else None)} stays "
                     "in your hand.")
        self.refresh_all()

    # ---- out of turn (honour rule, 003) -------------------------------------------------------------------------
    def stop_ahead(self, turn: BotTurn, action: Action | None, error: Exception | None) -> None:
        """Stop before the bot's choice is applied, for you to act out of turn (it is held, unseen)."""
        self.held = (turn, action, error)
        self.decision.stop(Mode.AHEAD)
        self.say(f"{self.ahead_words()} Enter lets him; x acts out of turn.")
        self.refresh_all()
        if self.stop_wanted:
            self.stop_wanted = False
            self.offer_out_of_turn()

    def ahead_words(self) -> str:
        """``W is to lead.``: the turn the table stopped before."""
        view = self.game.view(self.seat) if self.game is not None else None
        if view is None or view.to_act is None:
            return ""
        doing = "bid" if view.phase is Phase.BIDDING else ("play" if view.current_trick else "lead")
        return f"{seat_label(view.to_act, self.seat)} is to {doing}."

    def release(self) -> None:
        """Let the player the table stopped before act: his held choice is applied."""
        held, self.held = self.held, None
        self.decision.stop()
        self.say("")
        if held is None or self.game is None:
            return
        self.apply_bot(*held)

    def action_out_of_turn(self) -> None:
        game = self.game
        if game is None:
            return
        if self.decision.mode is Mode.AHEAD:
            self.offer_out_of_turn()
            return
        rules = game.rules
        if not rules.honour_rule or penalty_text(rules) != "003":
            self.say("Acting out of turn needs the honour rule with 003's rulings "
                     "(-o honour_rule=true -o irregularities=003).")
        elif game.pending() is Pending.BOT and game.irregular_actions(self.seat):
            self.stop_wanted = True  # the bot's choice is held when it comes
            self.say("Out of turn: the table stops before the next player acts.")
        elif self.decision.mode.deciding:
            self.say("It is your turn: act as usual (x is for another player's turn).")
        else:
            self.say("There is nothing to do out of turn now.")

    def offer_out_of_turn(self) -> None:
        """The box of the bids or cards you may put forward out of turn, under the irregularity's name."""
        game = self.game
        view = game.view(self.seat) if game is not None else None
        if game is None or view is None or view.to_act is None:
            return
        trump = view_trump(view)
        actions = [a for a in game.irregular_actions(self.seat) if isinstance(a, OutOfTurn)]
        if not actions:
            return
        choices: list[tuple[str, Any]] = []
        for a in actions:
            inner = a.action
            label = f"bid {inner.amount}" if isinstance(inner, Bid) else card_text(inner.card, trump) \
                if isinstance(inner, Play) else str(inner)
            choices.append((label, a))
        if view.phase is not Phase.BIDDING:  # the cards as drawn in your hand
            order = [c.printed for c in hand_order(view.hand, trump)]  # (two decks: either copy names the card)
            choices.sort(key=lambda c: order.index(c[1].action.card.printed))
        question = f"{out_of_turn_words(view)} Choose what to do out of turn, or Escape for nothing."
        self.app.push_screen(OutOfTurnScreen(question, choices), partial(self._out_of_turn_chosen, self.generation))

    def _out_of_turn_chosen(self, gen: int, action: OutOfTurn | None) -> None:
        game = self.game
        if gen != self.generation or game is None or self.decision.mode is not Mode.AHEAD:
            return  # the table moved on (an undo, a new match) while the box was open
        if action is None:
            self.say(f"Nothing done out of turn. {self.ahead_words()} Enter lets him; x acts out of turn.")
            return
        trump = view_trump(self.decision.view) if self.decision.view is not None else None
        try:
            game.act(self.seat, action)  # the held choice goes stale: the turn passes to the claim
        except IllegalAction as e:
            self.say(f"{action_words(action, trump)} is not allowed: {rule_words(e.rule, trump)}.")
            return
        self.held = None
        self.decision.stop()
        self.status_text = Text()
        self.changed()
        self.schedule(self.settings.pause)

    def say(self, text: str | Text) -> None:
        self.status_text = text if isinstance(text, Text) else Text(text)
        if self.is_mounted:
            self._update("#status", self.status_text)

    def explain_card(self, card: Card) -> None:
        """Why a card cannot be picked now, in the rule's words."""
        d = self.decision
        view = d.view
        game = self.game
        if view is None or game is None:
            return
        trump = view_trump(view)  # the deal's tables: the left bower starred under all-hands Pedro
        if d.mode is Mode.PLAY and Play(card) in game.revokes(self.seat):
            self.offer_revoke(card)
        elif d.mode is Mode.PLAY:
            why = game.why_illegal(Play(card), self.seat)
            if why is None and d.bury_due:
                why = "with more than six cards, choose the card to play first: Enter, then mark the cards to bury"
            self.say(f"{card_text(card, trump)} cannot be played: {rule_words(why, trump)}." if why else "")
        elif d.mode is Mode.KEEP and isinstance(view.legal, KeepOptions):
            opts = view.legal
            if opts.must >> card & 1:
                why = opts.rules_text.get("must", "it cannot be thrown")
                self.say(f"{card_text(card, trump)} must be kept: {why}.")
            else:
                self.say(f"{card_text(card, trump)} cannot be kept: "
                         f"{opts.rules_text.get('pool', 'you may keep only cards you can choose from')}.")
        elif d.mode is Mode.BURY:
            if card == d.bury_card:
                self.say(f"{card_text(card, trump)} is the card you play; Escape chooses another.")
            else:
                why = game.why_illegal(Play(d.bury_card, CardSet(1 << card)), self.seat) if d.bury_card is not None \
                    else None
                self.say(f"{card_text(card, trump)} cannot be buried"
                         + (f": {rule_words(why, trump)}." if why and "point card" in why
                            else ": burying a point card is forbidden."))

    # ---- keys ---------------------------------------------------------------------------------------------------
    def on_key(self, event) -> None:
        ch = (event.character or "").lower()
        if not ch or not (ch.isdigit() or ch in "shdcpa"):
            return
        d = self.decision
        if not d.mode.deciding:
            if self.game is not None and d.mode is Mode.WAIT and self.thinking is not None:
                self.say(f"Wait: {seat_label(self.thinking, self.seat)} is thinking.")
            elif d.mode is Mode.AHEAD:
                self.say(f"{self.ahead_words()} Enter lets him; x acts out of turn.")
            event.stop()
            return
        event.stop()
        event.prevent_default()
        if d.mode is Mode.BID:
            if ch.isdigit():
                self.bid_digit(ch)
            elif ch == "p":
                self.pick_pass()
        elif d.mode is Mode.TRUMP:
            if ch in SUIT_KEYS:
                d.cursor = int(SUIT_KEYS[ch])
                self.say("")
        elif d.mode is Mode.KEEP:
            if ch == "a":
                message = d.take_suggestion()
                if message:
                    self.say(message)
            elif ch in SUIT_KEYS:
                self.jump_suit(ch)
            elif ch.isdigit():
                self.say("In the discard, ←/→ move and Space keeps or throws the card under the cursor.")
        elif d.mode in (Mode.PLAY, Mode.BURY):
            if ch in SUIT_KEYS:
                self.jump_suit(ch)
            elif ch.isdigit() and d.mode is Mode.PLAY:
                self.card_digit(ch)
        self.refresh_all()

    def bid_digit(self, digit: str) -> None:
        message, refused = self.decision.bid_digit(digit)
        if refused is None:
            self.say(message)
            return
        why = self.game.why_illegal(Bid(refused), self.seat) if self.game is not None else None
        self.say(f"You cannot bid {refused}: {why or 'it is not a legal bid'}.")

    def pick_pass(self) -> None:
        if self.decision.pick_pass():
            self.say("Pass: Enter passes (a pass is final).")
            return
        why = self.game.why_illegal(Pass(), self.seat) if self.game is not None else None
        self.say(f"You cannot pass: {why}.")

    def card_digit(self, digit: str) -> None:
        """A digit picks the card numbered above it; in a hand of ten or more, two digits (1 2: card 12)."""
        d = self.decision
        assert d.view is not None
        held = len(d.view.hand)
        n, more = d.card_digit(digit, held)
        got = d.pick_number(n)
        if isinstance(got, str):
            self.say(got)
        elif got in d.cards:
            self.say(f"Card {n}: Enter plays it; a second digit picks card {n}0 to {min(held, n * 10 + 9)}."
                     if more else "")
        else:
            self.explain_card(got)

    def jump_suit(self, key: str) -> None:
        self.decision.typed_over()
        got = self.decision.jump_suit(SUIT_KEYS[key])
        if got is None:
            self.say("")
        elif isinstance(got, str):
            self.say(got)
        else:
            self.explain_card(got)

    # ---- actions (bindings) -----------------------------------------------------------------------------------------
    def _not_yours(self) -> bool:
        if self.decision.mode.deciding:
            return False
        game = self.game
        if game is None:
            return True
        if self.decision.mode is Mode.OVER or game.match.is_over:
            self.say("The match is over: n starts a new match, q quits.")
        elif self.decision.mode is Mode.AHEAD:
            self.say(f"{self.ahead_words()} Enter lets him; x acts out of turn.")
        elif self.thinking is not None:
            self.say(f"Wait: {seat_label(self.thinking, self.seat)} is thinking.")
        return True

    def action_move(self, step: int) -> None:
        if self._not_yours():
            return
        self.decision.move(step)
        self.say("")
        self.refresh_all()

    def action_move_end(self, last: int) -> None:
        if self._not_yours():
            return
        self.decision.move_end(bool(last))
        self.refresh_all()

    def action_confirm(self) -> None:
        if self.decision.mode is Mode.AHEAD:
            self.release()
            return
        if self._not_yours():
            return
        d = self.decision
        if d.mode is Mode.PLAY and not d.cards:
            return
        refused = d.take_refusal() if d.mode is Mode.BID else None
        if refused is not None:  # the person meant to bid: the cursor is not taken without a second Enter
            choice = d.chosen()
            doing = "passes" if isinstance(choice, Pass) else f"bids {choice.amount}" if isinstance(choice, Bid) \
                else "takes it"
            self.say(f"You cannot bid {refused}. Enter again {doing}; digits or ←/→ choose another bid.")
            return
        # A card that must take burials opens the burial first (or plays, if only one is legal).
        chosen = d.start_bury(d.cards[d.cursor]) if d.bury_due else d.chosen()
        if isinstance(chosen, str):
            self.say(chosen)
            self.refresh_all()
            return
        self.act(chosen)
        if d.mode.deciding:
            self.refresh_all()

    def action_toggle_mark(self) -> None:  # not `action_toggle`: that is Textual's toggle(attribute)
        if self._not_yours():
            return
        if self.decision.toggle():
            self.say("")
            self.refresh_all()
        else:
            self.say("Enter confirms; Space keeps or throws a card in a discard.")

    def action_back(self) -> None:
        d = self.decision
        if d.mode is Mode.BURY:
            d.to_play(d.bury_card)
            self.say("Choose the card to play.")
        else:
            self.say("")
        self.refresh_all()

    def on_hand_view_clicked(self, message: HandView.Clicked) -> None:
        card = message.card
        if self._not_yours():
            return
        d = self.decision
        if d.mode.choosing_option:
            self.say("Click a choice above your hand, or use the keys.")
            return
        if card not in d.cards:
            self.explain_card(card)
            self.refresh_all()
            return
        index = d.cards.index(card)
        d.typed_over()
        if d.mode is Mode.PLAY:
            if d.cursor == index:
                self.action_confirm()
                return
            d.cursor = index
            self.say("Click it again (or press Enter) to play it.")
        else:
            d.cursor = index
            self.action_toggle_mark()
            return
        self.refresh_all()

    def on_prompt_bar_clicked(self, message: PromptBar.Clicked) -> None:
        d = self.decision
        if self._not_yours() or not d.mode.choosing_option:
            return
        index = message.key
        d.typed_over()
        if d.cursor == index:
            self.action_confirm()
            return
        d.cursor = index
        self.say("Click it again (or press Enter) to confirm.")
        self.refresh_all()

    # ---- hint, undo, screens ---------------------------------------------------------------------------------------
    def action_hint(self) -> None:
        game = self.game
        if not self.settings.hints:
            self.say("Hints are off (o: settings).")
            return
        if self._not_yours() or game is None or self.decision.view is None or self.hinting:
            return
        shown = self.decision.hint
        if shown is not None and shown.detail:  # the second press: the figures behind the hint
            self.say(f"The {shown.bot} bot's figures: {shown.detail}.")
            log = self.query_one(EventLog)
            for line in shown.table:  # a bid's hint: the advisor's line per trump suit, in the log
                log.write(line)
            return
        self.hinting = True
        name, bot = game.hint_bot()
        view = game.view(self.seat)
        assert view is not None  # a decision is shown, so there is a deal
        self.say(f"Asking the {name} bot…")
        gen = self.generation
        key = self.decision.key
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
        d = self.decision
        if gen != self.generation or key != d.key or d.view is None:
            return
        if hint is None:
            self.say(f"No hint this time ({error}).")
            return
        # The status line has two rows: the bot's words name the choice, so they stand alone.
        words = hint.estimate or action_words(hint.action, view_trump(d.view))
        text = f"Hint from the {hint.bot} bot: {words}{d.show_hint(hint)}"
        self.say(text + (" (? again: the figures)" if hint.detail else ""))
        self.refresh_all()

    def action_undo(self) -> None:
        game = self.game
        if game is None:
            return
        if not self.settings.undo:
            self.say("Undo is off (o: settings).")
            return
        index = game.undo_target(self.seat)
        if index is None:
            self.say("Nothing of yours to take back in this deal." if not game.match.is_over
                     else "The match is over: nothing to take back.")
            return
        deal = game.deal
        assert deal is not None
        taken = deal.history[index]
        trump = deal.tables if deal.phase is not Phase.BIDDING else None  # (the bowers' under all-hands Pedro)
        self.generation += 1
        self.thinking = None
        self.held, self.stop_wanted = None, False
        self.decision.stop()
        game.undo(self.seat)
        self.narrator = Narrator(self.seat)
        self.query_one(EventLog).clear()
        self.narrate()
        self.advance()
        more = game.deal is not None and len(game.deal.history) < len(deal.history) - 1
        self.say(f"Taken back: your {action_words(taken, trump)}{' and what followed' if more else ''}.")

    def show_deal_over(self) -> None:
        game = self.game
        assert game is not None
        summary = game.last_summary
        assert summary is not None
        game.acknowledge()
        self.decision.stop()
        m = game.match
        show_par = self.settings.par and not summary.result.thrown_in
        par_text = "Par: working it out…" if show_par else ""
        screen = DealOverScreen(summary, self.seat, game.rules, self.palette, winner=m.winner, final=m.score,
                                can_undo=self.settings.undo and game.undo_target(self.seat) is not None,
                                par=par_text, view=game.view(self.seat), match=m)
        self.app.push_screen(screen, self._deal_over_closed)
        if show_par and game.deal is not None:
            start = play_start(game.deal)
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
        screen.set_par(describe_par(par, summary, self.seat) if par is not None else "")

    def _deal_over_closed(self, result: str | None) -> None:
        if result == "undo":
            self.action_undo()
            return
        game = self.game
        if game is not None and game.match.is_over:
            self.decision.stop(Mode.OVER)
            self.refresh_all()
            self.action_new_match()
            return
        self.advance()

    def action_last_trick(self) -> None:
        view = self.game.view(self.seat) if self.game is not None else None
        if view is None or (not view.tricks and not view.current_trick):
            self.say("No trick has been played yet in this deal.")
            return
        self.app.push_screen(TricksScreen(view, self.seat, self.palette))

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
        last_seed = self.game.seed if self.game is not None else None
        self.app.push_screen(NewMatchScreen(self.cinch.setup, can_cancel=self.game is not None, last_seed=last_seed),
                             self._new_match_chosen)

    def _new_match_chosen(self, setup: TableSetup | None) -> None:
        if setup is not None:
            self.new_game(setup)

    # ---- drawing ---------------------------------------------------------------------------------------------------
    @property
    def ready(self) -> bool:
        """Nothing is moving: the table waits for a key (for tests and scripts)."""
        mode = self.decision.mode
        return (self.thinking is None and not self.hinting and not self.par_pending and self.scheduled == 0
                and (mode.deciding or mode in (Mode.OVER, Mode.AHEAD) or self.app.screen is not self))

    def look(self) -> TableLook:
        assert self.game is not None
        return TableLook(self.seat, self.palette, self.decision, self.game.match, self.thinking)

    def refresh_all(self) -> None:
        if not self.is_mounted or self.game is None:
            return
        view = self.game.view(self.seat)
        if view is None:
            return
        if self.decision.mode.deciding:
            self.decision.view = view
        look = self.look()
        self.query_one(TopBar).show(*look.topbar(view))
        at = {look.where(view, seat): seat for seat in view.seats}
        across = [name for name in Position.ACROSS if name in at]
        for name in Position.ALL:
            panel = self.query_one(f"#seat-{name}", SeatPanel)
            seat = at.get(name)
            if panel.display != (seat is not None):
                panel.display = seat is not None  # two or three players leave places empty
            if seat is None:
                continue
            if name in across:  # boxes side by side as tall as each other: two at five, three narrower at six
                panel.shape(*((len(across), True) if len(across) > 1 else (1, False)))
            panel.show(look.seat_model(view, seat))
        self.query_one(TrickView).show(look.center(view))
        self._update("#info", look.info(view))
        self.query_one(PromptBar).show(look.prompt(view))
        self.query_one(HandView).show(look.hand_model(view))
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


def _lines(text: Text, width: int) -> int:
    """Roughly the lines a text wraps to (enough to tell whether a height changes)."""
    return sum(max(1, -(-len(line) // width)) for line in text.plain.split("\n")) if text.plain else 0


class CinchApp(App):
    """The Textual table for ``cinch play``."""

    CSS = CSS
    TITLE = "Cinch"
    ENABLE_COMMAND_PALETTE = False

    def __init__(self, setup: TableSetup, *, saver: Saver | None = None, settings: Settings | None = None,
                 offer_resume: bool = True, resume_id: int | None = None, game: Table | None = None) -> None:
        super().__init__()
        self.setup = setup
        self.saver = saver if saver is not None else Saver()
        self.settings = settings if settings is not None else Settings()
        self.offer_resume = offer_resume
        self.resume_id = resume_id
        self.game: Table | None = game
        for theme in THEMES:
            self.register_theme(theme)
        self.palette: Palette = PALETTES.get(self.settings.theme, PALETTES["classic"])
        self.table = TableScreen()

    def get_default_screen(self) -> Screen:
        return self.table

    def on_mount(self) -> None:
        self.theme = self.palette.theme

    def farewell(self) -> str:
        """What the terminal says once the table is closed: where the match is kept and how to go on with
        it, as the line prompt says it (nothing when no match was dealt)."""
        game = self.game
        if game is None:
            return ""
        match = game.match
        return ("The match is over." if match.is_over else "You quit.") + self.saver.stopped_words(match)

    def apply_theme(self) -> None:
        self.palette = PALETTES.get(self.settings.theme, PALETTES["classic"])
        self.theme = self.palette.theme
        self.table.repaint()


def run(setup: TableSetup, *, saver: Saver | None = None, settings: Settings | None = None,
        offer_resume: bool = True, resume_id: int | None = None) -> int:
    """Play at the table until the player quits, then say where the match is kept; the exit status."""
    app = CinchApp(setup, saver=saver, settings=settings, offer_resume=offer_resume, resume_id=resume_id)
    app.run()
    words = app.farewell()
    if words:
        print(words)
    return 0
