"""What the table screen shows, drawn from the person's view and the decision in front of them.

Each function of :class:`TableLook` turns the view into one part of the screen (the top
bar, a seat, the trick in the middle, the side panel, the prompt, the hand); the screen
puts them into its widgets.  Nothing here changes anything.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text

from cinch.actions import Bid, Claim, NameTrump, Pass, Waive
from cinch.cards import Card, Seat, Team
from cinch.keep import KeepOptions
from cinch.match import Match
from cinch.table.narrate import answer_words, asked_words, card_text, counts_text, hand_order, keep_words
from cinch.table.narrate import seat_name as seat_label
from cinch.table.narrate import team_name as team_label
from cinch.table.summary import points_so_far
from cinch.tui.decision import Decision, Mode
from cinch.tui.render import Palette, chip, chips
from cinch.tui.widgets import CenterModel, HandModel, Position, PromptModel, SeatModel
from cinch.view import Phase, SeatView


@dataclass(frozen=True)
class TableLook:
    """The things every part of the screen depends on besides the view."""

    me: Seat
    palette: Palette
    decision: Decision
    match: Match
    thinking: Seat | None = None  # a bot thinking now

    def is_to_act(self, view: SeatView, seat: Seat) -> bool:
        return view.phase is not Phase.DONE and view.to_act == seat

    def topbar(self, view: SeatView) -> tuple[list[Text], Text]:
        """The line on top, as :class:`TopBar` takes it: the rules, the deal, the dealer and the score, said
        shorter where the line is narrow (without "Cinch", then without the dealer, whose box says so), and
        the target (and *bidder goes out* when it applies), which is always there."""
        rules = view.rules
        table = rules.seating
        score = view.score or (0,) * table.sides
        me = self.me
        scores = Text()
        for i, side in enumerate(table.side_list):  # NS – EW, or each player's score: 1 (you) 4 – 2 7 – 3 0
            if i:
                scores.append(" – ")
            scores.append(f"{team_label(side, me)} {score[i]}", style=f"bold {self._team_colour(side)}")
        game = f"{rules.name} · deal {view.deal_number} · "
        dealer = f"dealer {view.dealer} · "
        forms = [Text("Cinch ", style="bold") + Text(game + dealer) + scores,
                 Text(game + dealer) + scores,
                 Text(game) + scores]
        keep = Text(f" · to {rules.target}")
        if view.bidder_goes_out:
            keep.append(" · bidder goes out", style="bold")
        return forms, keep

    def _team_colour(self, team: Team) -> str:
        return self.palette.mine if team == self.me.team else self.palette.theirs

    def seat_model(self, view: SeatView, seat: Seat) -> SeatModel:
        """A seat's box: who sits there and what kind of player (you, or the bot's name), the cards held,
        the bid and the turn; the box keeps the first form that fits, the turn (also shown by its frame)
        left out first.  Each for himself, every other player is an opponent: the seat and its player
        are named together (``3 heuristic``); at four, ``W opponent`` and its player when there is room."""
        me = self.me
        style = f"bold {self._team_colour(seat.team)}"
        kind = "you" if seat == me else (view.players[seat] if view.players else "") or "opponent"
        n = view.hand_sizes[seat]
        said: list[Text] = [Text(f"{n} card{'s' * (n != 1)}")]
        last = next((a for s, a in reversed(view.auction) if s == seat), None)
        if view.maker == seat and view.trump is not None:
            said.append(Text(f"bid {view.bid} {view.trump.symbol}", style="bold"))
        elif view.maker == seat and view.bid is not None:
            said.append(Text(f"bid {view.bid}", style="bold"))
        elif isinstance(last, Bid):
            said.append(Text(f"bid {last.amount}"))
        elif isinstance(last, Pass):
            said.append(Text("passed"))
        to_act = self.is_to_act(view, seat)
        turn: list[Text] = []
        if to_act:
            word = "▶ your turn" if seat == me else "▶ thinking" if self.thinking == seat else "▶ to play"
            turn.append(Text(word, style=f"bold {self.palette.cursor}"))
        named = [Text(f"{seat} {kind}", style=style)]
        forms = [named + said + turn, named + said]
        if view.rules.seating.partnership and seat != me:  # at four the role comes first, room permitting
            role = "partner" if seat == me.partner else "opponent"
            full = [Text(f"{seat} {role}", style=style), Text(kind)] + said
            forms = [full + turn, full] + forms
        return SeatModel(forms, "dealer" if seat == view.dealer else "", to_act)

    def where(self, view: SeatView, seat: Seat) -> str:
        """The seat's place on the screen (a :class:`Position`)."""
        return Position.of(seat, self.me, view.players_count)

    def center(self, view: SeatView) -> CenterModel:
        me = self.me
        palette = self.palette
        trump = None if view.trump is None else view.rules.trump_tables[view.trump]
        slots: dict[str, Text] = {}
        title: str | Text
        footer: str | Text
        leader: Seat | None
        phase = view.phase
        if phase in (Phase.BIDDING, Phase.TRUMP) or (phase is Phase.DONE and view.trump is None):
            for seat in view.seats:
                last = next((a for s, a in reversed(view.auction) if s == seat), None)
                if last is not None:
                    word = "pass" if isinstance(last, Pass) else str(last.amount)
                    slots[self.where(view, seat)] = Text(f"{seat} {word}", style=f"bold {palette.felt_text}")
            high = max((a.amount for _, a in view.auction if isinstance(a, Bid)), default=None)
            title = f"Bidding, {view.rules.min_bid} to {view.rules.highest_bid}"
            if phase is Phase.TRUMP:
                # (short enough for the middle at 80 columns: the bid is in the maker's box; seat 1, or N, is 0)
                footer = f"{seat_label(view.maker, me)} names trumps" if view.maker is not None else ""
            elif phase is Phase.DONE:
                footer = "all passed: thrown in"
            else:
                footer = f"high bid {high}" if high else "no bid yet"
            return CenterModel(title, slots, footer)
        if phase in (Phase.DISCARD, Phase.ROB, Phase.RESTOCK):
            for seat in view.seats:
                if view.drawn_counts[seat]:
                    slots[self.where(view, seat)] = Text(f"{seat} drew {view.drawn_counts[seat]}",
                                                         style=palette.felt_text)
            footer = f"{seat_label(view.dealer, me)} robs the pack" if phase is Phase.ROB else "discarding"
            return CenterModel("Discard and draw", slots, footer)
        # the play (or its end)
        total = view.rules.tricks
        if view.current_trick:
            plays = view.current_trick
            number = len(view.tricks) + 1
            leader = plays[0].seat
            t = trump
            winner = None
            if t is not None:
                strength = t.strength[t.effective_suit[plays[0].card]]
                winner = max(plays, key=lambda p: strength[p.card]).seat
            title = Text(f"Trick {number} of {total}, {leader} led")
            footer = Text(f"{seat_label(winner, me)} winning" if winner is not None else "")
        elif view.tricks:
            trick = view.tricks[-1]
            plays = trick.plays
            number = len(view.tricks)
            title = Text(f"Trick {number} of {total}, won by {trick.winner}")
            footer = Text("the deal is over" if phase is Phase.DONE else
                          ("your lead" if view.to_act == me else f"{seat_label(trick.winner, me)} leads"),
                          style=palette.muted)
            winner = trick.winner
        else:
            plays = ()
            title = Text(f"Trick 1 of {total}")
            leader = view.trick_leader
            footer = Text("your lead" if leader == me else f"{seat_label(leader, me)} leads" if leader is not None
                          else "")
            winner = None
        for p in plays:
            slot = Text(f"{p.seat} ", style=f"bold {palette.felt_text}")
            slot.append_text(chip(p.card, trump, palette))
            if p.buried:
                slot.append(f" +{len(p.buried)} buried", style=palette.muted)
            if p.seat == winner:
                slot.append(" ◆", style=f"bold {palette.cursor}")
            slots[self.where(view, p.seat)] = slot
        return CenterModel(title, slots, footer)

    def info(self, view: SeatView) -> Text:
        """The side panel: the contract, the points surely taken, the tricks, the bids, the draw."""
        me = self.me
        palette = self.palette
        trump = view.trump
        out = Text()
        if view.maker is not None and trump is not None:
            tables = view.rules.trump_tables[trump]
            out.append("Contract ", style="bold")
            out.append(f"{view.maker} bid {view.bid}, {trump.name.lower()} {trump.symbol}; ")
            if tables.bowers:  # all-hands Pedro: the Jacks of the colour on top
                out.append("right bower ")
                out.append_text(chip(tables.right_bower, tables, palette))
                out.append(", left bower ")
                out.append_text(chip(tables.left_bower, tables, palette))
                out.append("\n")
            else:
                out.append_text(chip(tables.left_pedro, tables, palette))
                out.append(" is a trump\n")
        trump_t = None if trump is None else view.rules.trump_tables[trump]  # the stars: bowers' tables or not
        pts = points_so_far(view)
        if pts is not None:
            out.append("Points so far", style="bold")
            out.append(" (sure ones)\n", style=palette.muted)
            sides = view.rules.seating.side_list
            for team in (me.team, *(t for t in sides if t != me.team)):
                out.append(f" {team_label(team, me)} {pts.total(team)}", style=f"bold {self._team_colour(team)}")
                for name, card, _ in pts.awards[team]:
                    out.append(f" {name} ")
                    out.append_text(chip(card, trump_t, palette))
                out.append("\n")
            if pts.pending:
                out.append(" " + " and ".join(pts.pending) + ": known at the end\n", style=palette.muted)
        if view.tricks:
            sides = view.rules.seating.side_list
            won = [sum(1 for t in view.tricks if t.winner.team == team) for team in sides]
            out.append("Tricks ", style="bold")
            out.append(", ".join(f"{team_label(team, me)} {n}" for team, n in zip(sides, won, strict=True)) + "\n")
        if view.auction:
            out.append("Bids ", style="bold")
            out.append(", ".join(f"{s} {'pass' if isinstance(a, Pass) else a.amount}"
                                 for s, a in view.auction) + "\n")
        if trump is not None and not view.rules.no_draw:
            thrown = view.own_discards - view.shown_trumps[me]
            if thrown:
                out.append("You threw ")
                out.append_text(chips(hand_order(thrown, trump_t), trump_t, palette))
                out.append("\n")
            if view.own_drawn:
                robbed = me == view.dealer and view.rules.seating.dealer_robs  # at two or three he draws
                out.append("You took " if robbed else "You drew ")
                out.append_text(chips(hand_order(view.own_drawn, trump_t), trump_t, palette))
                out.append("\n")
            if view.phase in (Phase.ROB, Phase.PLAY, Phase.DONE):
                table = view.rules.seating
                order = [s for s in table.turns(view.dealer) if s != view.dealer or not table.dealer_robs]
                out.append("Drew " + counts_text(table, [(str(s), view.drawn_counts[s]) for s in order]))
                if view.phase is not Phase.ROB and table.dealer_robs:
                    out.append(f"; dealer {view.dealer} took {view.drawn_counts[view.dealer]}")
                out.append("\n")
            for s in view.seats:
                if view.shown_trumps[s]:
                    out.append(f"{s} showed, dead ")
                    out.append_text(chips(hand_order(view.shown_trumps[s], trump_t), trump_t, palette))
                    out.append("\n")
            for s in view.seats:
                if view.face_up_discards[s] and s != me:
                    out.append(f"{s} threw face up ")
                    out.append_text(chips(hand_order(view.face_up_discards[s], trump_t), trump_t, palette))
                    out.append("\n")
        out.rstrip()
        return out

    def prompt(self, view: SeatView) -> PromptModel:
        me = self.me
        palette = self.palette
        trump = None if view.trump is None else view.rules.trump_tables[view.trump]
        d = self.decision
        mode = d.mode
        key_style = f"bold {palette.cursor}"
        if mode is Mode.CLAIM:  # honour rule: claim or waive another seat's irregularity
            prompt = Text("You are asked: ", style=key_style)
            prompt.append(asked_words(view, trump) + " ←/→ choose, Enter confirms.")
            return PromptModel(prompt, [(i, answer_words(a)) for i, a in enumerate(d.options)
                                        if isinstance(a, (Claim, Waive))], d.cursor)
        if mode is Mode.BID:
            prompt = Text("Your bid: ", style=key_style)
            prompt.append("type digits, or p to pass; ←/→ move; Enter bids.")
            options = [(i, str(a.amount) if isinstance(a, Bid) else "Pass")  # the options are passes and bids
                       for i, a in enumerate(d.options)]
            return PromptModel(prompt, options, d.cursor)
        if mode is Mode.TRUMP:
            prompt = Text(f"You won at {view.bid}: name trumps ", style=key_style)
            prompt.append("with s h d c or ←/→, then Enter. "
                          + ("The Jacks of the colour are the top trumps (bowers)." if view.rules.bowers
                             else "The other 5 of the colour is a trump."))
            options = []
            for i, a in enumerate(d.options):
                assert isinstance(a, NameTrump)
                suit = a.suit
                tables = view.rules.trump_tables[suit]
                left = Card(tables.left_pedro)  # the left Pedro, or the left bower
                n = len(view.hand & tables.trumps)
                options.append((i, f"{suit.symbol} {suit.name.lower()} +{left.symbol} ({n})"))
            return PromptModel(prompt, options, d.cursor)
        if mode is Mode.KEEP:
            opts = view.legal
            assert isinstance(opts, KeepOptions)
            what = "Rob the pack" if view.phase is Phase.ROB else "Your discard"
            prompt = Text(f"{what}: ", style=key_style)
            prompt.append("←/→ move, Space keeps/throws, a suggested hand, Enter confirms.")
            kept = d.keep_sel.bit_count()
            why = opts.violation(d.keep_sel)
            note = Text(f"Rule: {keep_words(opts, trump)}.\n", style=palette.muted)
            if why:
                note.append(f"Keeping {kept}: not yet legal: {why}.", style=f"bold {palette.cursor}")
            else:
                note.append(f"Keeping {kept}: legal. Enter keeps these.", style="bold")
            return PromptModel(prompt, note=note)
        if mode in (Mode.PLAY, Mode.BURY):
            number = len(view.tricks) + 1
            if mode is Mode.BURY:
                n = int(next(iter(d.bury_sets))).bit_count() if d.bury_sets else 0
                prompt = Text("Bury ", style=key_style)
                under = card_text(d.bury_card, trump) if d.bury_card is not None else ""
                prompt.append(f"{n} card{'s' * (n != 1)} under {under}: Space marks,"
                              " Enter plays, Escape goes back. Point cards may not be buried.")
                return PromptModel(prompt)
            if view.current_trick:
                lead = view.current_trick[0]
                prompt = Text(f"Trick {number}: your turn ", style=key_style)
                prompt.append(f"({lead.seat} led {card_text(lead.card, trump)}). ")
            else:
                prompt = Text(f"Trick {number}: your lead. ", style=key_style)
            held = len(view.hand)
            prompt.append(f"←/→ or {'1' if held == 1 else f'1-{held}'} choose, Enter plays.")
            if d.bury_due:
                prompt.append(" You then bury your extra cards.")
            return PromptModel(prompt)
        # not your turn
        if self.match.is_over:
            winner = self.match.winner
            assert winner is not None
            table = self.match.table
            score = (f"NS {self.match.score[0]} to EW {self.match.score[1]}" if table.partnership
                     else table.score_text(self.match.score))
            return PromptModel(Text(f"The match is over: {winner} won, {score}. n starts a new match, q quits.",
                                    style=key_style))
        if mode is Mode.AHEAD and view.to_act is not None:  # honour rule (003): stopped before another's turn
            doing = "bid" if view.phase is Phase.BIDDING else ("play" if view.current_trick else "lead")
            prompt = Text(f"{seat_label(view.to_act, me)} is to {doing}: ", style=key_style)
            prompt.append(f"Enter lets him {doing}; x: {doing} out of turn (honour rule, 003).")
            return PromptModel(prompt)
        if self.thinking is not None:
            return PromptModel(Text(f"{seat_label(self.thinking, me)} is thinking…", style=palette.muted))
        if view.phase is Phase.DONE:
            return PromptModel(Text("The deal is over.", style=palette.muted))
        return PromptModel(Text("…", style=palette.muted))

    def hand_model(self, view: SeatView) -> HandModel:
        d = self.decision
        mode = d.mode
        trump = None if view.trump is None else view.rules.trump_tables[view.trump]
        if mode is Mode.TRUMP:
            option = d.options[d.cursor]
            assert isinstance(option, NameTrump)
            preview = view.rules.trump_tables[option.suit]  # the suit's trumps as named: the bowers' or not
            return HandModel([("", hand_order(view.hand, preview))], preview)
        if mode is Mode.KEEP and isinstance(view.legal, KeepOptions):
            marks = {}
            dim: set[int] = set()
            for c in d.keep_order():
                kept = bool(d.keep_sel >> c & 1)
                marks[int(c)] = "✓" if kept else "✗"
                if not kept:
                    dim.add(int(c))
            if view.phase is Phase.ROB:
                groups = [("your hand", hand_order(view.hand, trump)),
                          ("the stock", hand_order(view.stock_seen, trump))]
            else:
                groups = [("", hand_order(view.hand, trump))]
            cursor = d.cards[d.cursor] if d.cards else None
            return HandModel(groups, trump, cursor, frozenset(dim), marks)
        hand = hand_order(view.hand, trump)
        if mode is Mode.PLAY:
            legal = set(d.cards)
            labels = {int(c): str(i) for i, c in enumerate(hand, start=1)}  # (two digits from 10: 1 then 2 is 12)
            cursor = d.cards[d.cursor] if d.cards else None
            return HandModel([("", hand)], trump, cursor, frozenset(int(c) for c in hand if c not in legal),
                             labels=labels)
        if mode is Mode.BURY:
            labels = {int(d.bury_card): "play"} if d.bury_card is not None else {}
            marks = {}
            for c in hand:
                if d.keep_sel >> c & 1:
                    labels[int(c)] = "bury"
                    marks[int(c)] = "✗"
            cursor = d.cards[d.cursor] if d.cards else None
            return HandModel([("", hand)], trump, cursor,
                             frozenset(int(c) for c in hand if c not in d.cards and c != d.bury_card), marks, labels)
        return HandModel([("", hand)], trump)


