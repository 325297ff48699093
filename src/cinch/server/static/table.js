// A room's table: the seats around it, your hand, the bidding box, the trump and keep choosers, the trick,
// the score and the narration; the end of a deal and of the match.  Everything shown comes from the
// server's `state` snapshots; every decision goes back as an `act` in the record notation.

import {
  SEATS, SUITS, SUIT_NAMES, cardElement, cardName, cardText, isTrump, leftOf, partnerOf, setBowers, sortHand,
  trumpNote, trumpsIf,
} from "./cards.js";
import { el } from "./lobby.js";
import { Link, entropy, store, stored } from "./net.js";
import { verify } from "./shuffle.js";

const KIND_WORDS = { human: "player", bot: "bot", substitute: "bot standing in", empty: "empty seat" };

// Where the other seats sit around a cut-throat table, clockwise from yours at the bottom (the play passes
// to the left): two face each other; three sit left and right of you; five and six fill the top corners too.
const AROUND = {
  2: ["top"],
  3: ["left", "right"],
  5: ["left", "top-left", "top-right", "right"],
  6: ["left", "top-left", "top", "top-right", "right"],
};

/** How many times `card` is in `cards` (twice at most: two decks). */
function count(cards, card) {
  return cards.filter((c) => c === card).length;
}

/** Which copy of its card place `i` of `cards` holds: 1 for the first (or only), 2 for the second. */
function copyNumber(cards, i) {
  return count(cards.slice(0, i + 1), cards[i]);
}

/** For a screen reader, where two copies of a card lie side by side (two decks): " (1 of 2)", else "". */
function copyWords(cards, i) {
  const copies = count(cards, cards[i]);
  return copies > 1 ? ` (${copyNumber(cards, i)} of ${copies})` : "";
}

/** The places of `pool` a keep action names ("keep AH AH KH"): each card named takes its next free place. */
function placesOf(pool, action) {
  const places = new Set();
  for (const card of (action || "").split(" ").slice(1).filter(Boolean)) {
    const at = pool.findIndex((c, i) => c === card && !places.has(i));
    if (at >= 0) places.add(at);
  }
  return places;
}

export function showTable(main, code) {
  main.dataset.view = "table";
  document.title = `Cinch: room ${code}`;
  const t = new TableView(main, code);
  window.cinchTable = t; // (for the tests and the curious)
  return t;
}

class TableView {
  constructor(main, code) {
    this.main = main;
    this.code = code;
    this.state = null;
    this.seat = null;
    this.host = false;
    this.focus = 0; // the hand card with the keyboard's focus
    this.selected = null; // the place in the hand of a card picked once (a second pick plays it)
    // The places in the keep chooser's pool marked kept: places, not card names, because with two decks a
    // card may be there twice (AH AH) and one copy or both may be kept.
    this.keep = null;
    this.bidText = "";
    this.showLast = false;
    this.hint = null;
    this.promised = null; // the running deal's commitment, as this page first saw it
    this.build();
    fetch("/api/presets").then((r) => r.json()).then((info) => { this.bots = info.bots; }).catch(() => {});
    this.link = new Link(code, { onMessage: (m) => this.receive(m), onStatus: (s) => this.status(s) });
    document.addEventListener("keydown", (e) => this.key(e));
  }

  // ---- the page's frame
  build() {
    const m = this.main;
    m.replaceChildren();
    this.banner = el("p", { id: "connection", class: "banner", role: "status", hidden: true });
    this.head = el("div", { class: "room-head" });
    this.seatsBox = el("section", { id: "seating", class: "panel", "aria-label": "Seats" });
    this.board = el("section", { id: "board", class: "board", "aria-label": "The table" });
    this.decision = el("section", { id: "decision", class: "decision", "aria-label": "Your decision" });
    this.handBox = el("section", { id: "hand", class: "hand", "aria-label": "Your hand" });
    this.side = el("aside", { id: "side", class: "side" });
    this.logBox = el("ol", { id: "log", class: "log", "aria-label": "What happened", tabindex: "0" });
    this.live = el("div", { id: "narration", class: "sr-only", "aria-live": "polite" });
    this.overlay = el("section", { id: "deal-end", class: "deal-end", hidden: true, "aria-label": "End of the deal" });
    this.message = el("p", { id: "message", class: "message", role: "alert" });
    this.chat = this.buildChat();
    this.revokeBox = this.buildRevokeBox();
    this.side.append(el("h2", { text: "Score" }), el("div", { id: "score" }), el("h2", { text: "Log" }),
      this.logBox, this.chat);
    m.append(this.banner, this.head, this.seatsBox,
      el("div", { class: "play-area" }, el("div", { class: "centre" }, this.board, this.message, this.decision,
        this.handBox), this.side), this.overlay, this.live, this.revokeBox);
  }

  // The honour rule's question before a revoke, in the page rather than window.confirm (a native box can be
  // neither styled nor checked for accessibility). A modal <dialog>: the page behind is inert while it is
  // open, the focus moves in and comes back, Escape cancels; its form closes it with the button's value.
  buildRevokeBox() {
    this.revokeTitle = el("h2", { id: "revoke-title" });
    this.revokeWords = el("p", { id: "revoke-words" });
    this.revokePlay = el("button", { type: "submit", id: "revoke-play", class: "primary", value: "play" });
    const keep = el("button", { type: "submit", id: "revoke-keep", value: "keep", text: "Keep it in my hand" });
    const box = el("dialog", { id: "revoke", class: "ask", "aria-labelledby": "revoke-title",
      "aria-describedby": "revoke-words" },
    el("form", { method: "dialog" }, this.revokeTitle, this.revokeWords,
      el("div", { class: "ask-buttons" }, this.revokePlay, keep)));
    box.addEventListener("close", () => this.revokeAnswered());
    return box;
  }

  buildChat() {
    const input = el("input", { id: "chat-text", type: "text", maxlength: "300", autocomplete: "off" });
    const form = el("form", { id: "chat", class: "chat" },
      el("label", { for: "chat-text", text: "Chat" }), input, el("button", { type: "submit", text: "Send" }));
    this.chatLines = el("ol", { class: "chat-lines", "aria-label": "Chat", tabindex: "0" });
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      if (input.value.trim()) this.link.send({ type: "chat", text: input.value.trim() });
      input.value = "";
    });
    return el("div", {}, this.chatLines, form);
  }

  status(text) {
    this.banner.hidden = !text;
    this.banner.textContent = text || "";
    this.main.dataset.connected = text ? "false" : "true";
  }

  say(text) {
    this.message.textContent = text || "";
  }

  // ---- messages
  receive(m) {
    if (m.type === "welcome") {
      this.seat = m.seat;
      this.host = m.host;
      if (!m.seat && stored(this.code).token) store(this.code, { token: null });
    } else if (m.type === "seated") {
      store(this.code, { token: m.token, seat: m.seat });
      this.seat = m.seat;
    } else if (m.type === "state") {
      const before = this.state;
      this.state = m;
      // The first state after opening the room brings the recent log; each later one adds its narration.
      this.logLines = (m.log ? m.log : [...(this.logLines || []), ...m.narration]).filter(Boolean).slice(-200);
      if (!before || before.seq !== m.seq) {
        // (the table moved on, say by this seat's other connection: the revoke asked about is no longer the question)
        if (this.revokeBox.open) this.revokeBox.close("moved");
        this.selected = null;
        this.keep = null;
        this.bidText = "";
        this.hint = null;
        this.say("");
      }
      const d = m.deal;
      if (d && d.commitment && d.phase !== "done" && !this.sameDeal(this.promised, m)) {
        // The commitment as first seen during the deal: the end of the deal is checked against it.
        this.promised = { match: m.room.match_id, number: d.number, commitment: d.commitment };
      }
      if (m.narration.length) this.live.textContent = m.narration.filter(Boolean).slice(-3).join(" ");
      this.render();
    } else if (m.type === "error") {
      if (m.code === "bad-token") {
        store(this.code, { token: null });
        this.link.send({ type: "hello", room: this.code, host_token: stored(this.code).host_token });
      }
      this.say(m.message);
    } else if (m.type === "chat") {
      this.chatLines.append(el("li", { text: `${m.name}${m.seat ? ` (${m.seat})` : ""}: ${m.text}` }));
      this.chatLines.scrollTop = this.chatLines.scrollHeight;
    } else if (m.type === "hint") {
      this.hint = m;
      if (m.action.startsWith("keep ")) this.keep = null; // the keep chooser marks the hinted hand
      this.say(`Hint (${m.bot}): ${m.words}${m.estimate ? `: ${m.estimate}` : ""}`);
      this.render();
    }
  }

  sameDeal(kept, m) {
    return !!(kept && m.deal && kept.match === m.room.match_id && kept.number === m.deal.number);
  }

  act(action) {
    if (!this.state) return;
    this.link.send({ type: "act", seq: this.state.seq, action });
  }

  // ---- who sits where, as seen from your seat (yours at the bottom)
  partnership() {
    const r = this.state && this.state.room;
    return !r || r.partnership !== false; // (four players in two partnerships; else each for himself)
  }

  places() {
    if (this.partnership()) {
      const me = this.seat || "S";
      return { bottom: me, left: leftOf(me), top: partnerOf(me), right: leftOf(partnerOf(me)) };
    }
    // Cut-throat: the seats clockwise from yours (a spectator looks from seat 1).
    const seats = this.state.room.seats.map((x) => x.seat);
    const at = Math.max(0, seats.indexOf(this.seat));
    const where = { bottom: seats[at] };
    AROUND[seats.length].forEach((pos, i) => { where[pos] = seats[(at + 1 + i) % seats.length]; });
    return where;
  }

  /** The side a seat scores for: NS or EW at four; the seat itself at a cut-throat table. */
  sideOf(seat) {
    if (!this.partnership()) return seat;
    return ["N", "S"].includes(seat) ? "NS" : "EW";
  }

  render() {
    const s = this.state;
    setBowers(s.deal && s.deal.bowers); // all-hands Pedro: the cards below star and sort the bowers as trumps
    this.renderHead(s);
    this.renderSeating(s);
    this.renderBoard(s);
    this.renderHand(s);
    this.renderDecision(s);
    this.renderSide(s);
    this.renderDealEnd(s);
    this.main.dataset.ready = "true";
    this.main.dataset.seq = String(s.seq);
    this.main.dataset.phase = s.deal ? s.deal.phase : "none";
    this.main.dataset.status = s.room.status;
    this.main.dataset.seat = this.seat || "";
  }

  renderHead(s) {
    const r = s.room;
    const link = new URL(`/rooms/${r.code}`, location.href).href;
    const copy = el("button", { type: "button", id: "copy-link", text: "Copy invite link", onclick: async () => {
      try {
        await navigator.clipboard.writeText(link);
        this.say("The invite link is copied.");
      } catch {
        this.say(`The invite link: ${link}`);
      }
    } });
    const who = this.seat ? `You sit ${this.seat}.` : "You are watching.";
    const size = r.partnership === false ? ` · ${r.players} players, each for himself` : "";
    const packs = r.rules && r.rules.decks === 2 ? " · two decks" : "";
    const bits = [el("h1", { text: `Room ${r.code}` }),
      el("p", {}, `${r.rules_name} to ${r.target}${size}${packs} · ${r.status.replace("-", " ")} · ${who} `),
      el("p", { class: "invite" }, el("a", { href: link, id: "invite-link", text: link }), " ", copy)];
    if (this.host && r.status === "waiting") {
      const full = r.seats.every((x) => x.kind !== "empty");
      bits.push(el("button", { type: "button", id: "start", text: "Start the match", disabled: !full,
        onclick: () => this.link.send({ type: "start" }) }));
    }
    this.head.replaceChildren(...bits);
  }

  renderSeating(s) {
    const r = s.room;
    const canChange = ["waiting", "between-deals", "over"].includes(r.status);
    const items = r.seats.map((p) => {
      const li = el("li", { "data-seat": p.seat, class: `seat-entry kind-${p.kind}` });
      li.append(el("strong", { text: p.seat }), " ",
        p.kind === "empty" ? "empty" : `${p.name} (${KIND_WORDS[p.kind]}${p.kind === "substitute" ? `: ${p.bot}` : ""})`,
        p.kind === "human" || p.kind === "substitute" ? el("span", { class: `conn ${p.connected ? "on" : "off"}`,
          text: p.connected ? " · connected" : " · away" }) : "");
      if (!this.seat && p.kind === "empty" && r.status === "waiting") li.append(this.sitForm(p.seat, "join"));
      if (!this.seat && p.kind === "bot" && canChange) li.append(this.sitForm(p.seat, "take-seat"));
      if (this.host && canChange && (p.kind === "empty" || p.kind === "bot" || p.kind === "substitute" || (p.kind === "human" && !p.connected))) {
        li.append(this.fillForm(p.seat));
      }
      if (this.seat === p.seat && r.status !== "playing") {
        li.append(" ", el("button", { type: "button", text: "Leave this seat",
          onclick: () => { this.link.send({ type: "leave" }); store(this.code, { token: null }); this.seat = null; } }));
      }
      return li;
    });
    this.seatsBox.replaceChildren(el("h2", { text: "Seats" }), el("ul", { class: "seat-list" }, ...items));
    this.seatsBox.hidden = r.status === "playing" && !!this.seat;
  }

  sitForm(seat, type) {
    const id = `name-${seat}`;
    const name = el("input", { id, type: "text", maxlength: "40", value: stored("me").name || "", autocomplete: "nickname" });
    const form = el("form", { class: "sit", "data-sit": seat },
      el("label", { for: id, text: "Your name" }), name,
      el("button", { type: "submit", text: type === "join" ? `Sit ${seat}` : `Take ${seat}` }));
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      const who = name.value.trim() || "Player";
      store("me", { name: who });
      this.link.send({ type, seat, name: who, entropy: entropy(this.code) });
    });
    return form;
  }

  fillForm(seat) {
    const id = `bot-${seat}`;
    const pick = el("select", { id }, ...(this.bots || ["random", "basic", "heuristic", "expert"]).map((b) =>
      el("option", { value: b, text: b, selected: b === "heuristic" })));
    const form = el("form", { class: "fill", "data-fill": seat },
      el("label", { for: id, text: `Bot for ${seat}` }), pick, el("button", { type: "submit", text: "Seat bot" }));
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      this.link.send({ type: "fill", seat, bot: pick.value });
    });
    return form;
  }

  // ---- the board: four seats and the trick
  renderBoard(s) {
    const d = s.deal;
    const where = this.places();
    const box = (pos) => {
      const seat = where[pos];
      const info = s.room.seats.find((x) => x.seat === seat);
      const cls = ["seat", pos];
      if (d && d.to_act === seat && s.room.status === "playing") cls.push("to-act");
      const partner = this.seat && this.partnership() && seat === partnerOf(this.seat);
      const bits = [el("span", { class: "seat-name", text: `${seat} · ${info.name || "empty"}${seat === this.seat ? " (you)" : partner ? " (partner)" : ""}` })];
      const facts = [];
      if (info.kind !== "human") facts.push(KIND_WORDS[info.kind]);
      if (info.kind === "human" && !info.connected) facts.push("away");
      if (d) {
        facts.push(`${d.hand_sizes[seat]} card${d.hand_sizes[seat] === 1 ? "" : "s"}`);
        const calls = d.auction.filter((a) => a.seat === seat);
        if (calls.length) facts.push(calls[calls.length - 1].call === "pass" ? "passed" : calls[calls.length - 1].call);
        if (d.dealer === seat) facts.push("dealer");
        if (d.maker === seat) facts.push(`maker, ${d.bid} in ${SUIT_NAMES[d.trump]}`);
      }
      const clock = s.clocks[seat];
      if (clock) facts.push(`${Math.round(clock.used)} s`);
      bits.push(el("span", { class: "seat-facts", text: facts.join(" · ") }));
      if (d && d.to_act === seat && s.room.status === "playing") bits.push(el("span", { class: "turn", text: "▶ to play" }));
      return el("div", { class: cls.join(" "), "data-seat": seat, "data-place": pos }, ...bits);
    };
    const trick = el("div", { class: "trick", id: "trick", role: "group", "aria-label": "The trick" });
    if (d) {
      const shown = this.showLast && d.tricks.length ? d.tricks[d.tricks.length - 1] : null;
      const plays = shown ? shown.plays : d.trick.plays;
      const leader = shown ? shown.leader : d.trick.leader;
      for (const [pos, seat] of Object.entries(where)) {
        const p = plays.find((x) => x.seat === seat);
        const spot = el("div", { class: `spot ${pos}`, "data-seat": seat });
        if (p) spot.append(cardElement(p.card, { trump: d.trump, label: `${seat} played ${cardName(p.card, d.trump)}` }));
        trick.append(spot);
      }
      const caption = shown ? `Last trick: ${leader} led, ${shown.winner} won it.`
        : d.phase === "play" ? (leader ? `Trick ${d.tricks.length + 1}: ${leader} led.` : "")
        : d.phase === "done" ? "The deal is over." : `The ${d.phase}.`;
      trick.append(el("p", { class: "trick-caption", text: caption }));
    }
    const lastButton = d && d.tricks.length ? el("button", { type: "button", id: "last-trick",
      "aria-pressed": String(this.showLast), text: this.showLast ? "Back to this trick" : "Last trick",
      onclick: () => { this.showLast = !this.showLast; this.render(); } }) : "";
    const contract = d && d.trump ? el("p", { class: "contract", text:
      `${d.maker} bid ${d.bid}, trumps ${SUIT_NAMES[d.trump]} ${SUITS[d.trump]} (${trumpNote(d.trump)})` }) : "";
    const foot = el("div", { class: "board-foot" }, contract, lastButton);
    this.board.classList.toggle("cut-throat", !this.partnership());
    this.board.dataset.players = String(s.room.seats.length);
    if (this.partnership()) {
      this.board.replaceChildren(box("top"), box("left"), trick, box("right"), box("bottom"), foot);
    } else { // the seats across the top first, then left, the trick, right and you: the reading order
      const order = ["top-left", "top", "top-right", "left"].filter((pos) => where[pos]);
      this.board.replaceChildren(...order.map(box), trick, ...(where.right ? [box("right")] : []), box("bottom"), foot);
    }
  }

  // ---- your hand
  legal() {
    const d = this.state && this.state.deal;
    if (!d || !this.seat || d.to_act !== this.seat || this.state.room.status !== "playing") return [];
    return d.legal || [];
  }

  renderHand(s) {
    const d = s.deal;
    this.handBox.replaceChildren();
    if (!d || !this.seat || !d.hand) {
      this.handBox.append(el("p", { text: this.seat ? "Waiting for the deal." : "Watching: the hands are hidden." }));
      return;
    }
    if (d.keep && d.to_act === this.seat) return; // the keep chooser shows the cards
    const legal = this.legal();
    const plays = new Map();
    for (const a of legal) if (a.startsWith("play ")) {
      const card = a.split(" ")[1];
      plays.set(card, [...(plays.get(card) || []), a]);
    }
    const hand = sortHand(d.hand, d.trump);
    // The honour rule: a card the follow rule forbids may still be played on purpose, as a revoke.
    const revokes = new Set(legal.length ? (d.irregular || []).filter((a) => a.startsWith("play ")).map((a) => a.split(" ")[1]) : []);
    const row = el("div", { class: "cards", role: "group", "aria-label": `Your hand, ${hand.length} cards` });
    const hinted = this.hint && this.hint.action.startsWith("play ") ? this.hint.action.split(" ")[1] : null;
    hand.forEach((card, i) => {
      const playable = plays.has(card);
      const b = cardElement(card, { trump: d.trump, button: true,
        label: `${cardName(card, d.trump)}${copyWords(hand, i)}${playable ? ", playable" : revokes.has(card) ? ", a revoke (honour rule)" : ""}` });
      b.dataset.index = String(i + 1);
      if (d.phase === "play" && d.to_act === this.seat) {
        if (playable) b.classList.add("legal");
        else if (revokes.has(card)) b.classList.add("irregular");
        else b.disabled = true;
      }
      if (this.selected === i) b.classList.add("selected");
      if (card === hinted && hand.indexOf(card) === i) b.classList.add("hinted"); // (a card held twice: the first)
      b.addEventListener("click", () => (revokes.has(card) ? this.revoke(card) : this.pickCard(card, plays, i)));
      b.addEventListener("focus", () => { this.focus = i; });
      row.append(b);
    });
    this.handBox.append(row);
  }

  /** Ask before a revoke: the card goes only once the dialog is answered "play" (revokeAnswered). */
  revoke(card) {
    // Only a room under the honour rule offers these cards; the server checks again with the engine.
    this.asking = { card, seq: this.state.seq };
    this.revokeTitle.textContent = `Play ${cardText(card)} as a revoke?`;
    this.revokeWords.textContent = this.revokeText(card, this.state);
    this.revokePlay.textContent = `Play ${cardText(card)} anyway`;
    this.revokeBox.returnValue = ""; // (Escape closes the dialog without setting it: cancelled)
    this.revokeBox.showModal();
    this.revokePlay.focus(); // Enter confirms; Escape, or "Keep it in my hand", does not
  }

  /**
   * What a revoke breaks and what a claim would cost, for the seat about to commit it, e.g.
   * "Clubs were led and you hold clubs: playing 7♦ does not follow suit, a revoke under the honour rule.
   * The other side may claim it once it shows (003: play goes on, and your side scores nothing for the deal;
   * a defender's revoke means the makers cannot be set)."
   */
  revokeText(card, s) {
    const d = s.deal;
    const led = d.trick.plays.length ? d.trick.plays[0].card : null;
    const held = !led ? "" : isTrump(led, d.trump) ? "Trumps were led and you hold a trump: "
      : `${SUIT_NAMES[led[1]][0].toUpperCase()}${SUIT_NAMES[led[1]].slice(1)} were led and you hold ${SUIT_NAMES[led[1]]}: `;
    const makers = d.maker && this.sideOf(d.maker) === this.sideOf(this.seat);
    const rulings = {
      "002": `002: the other side scores all the deal's points and your side none${makers ? `; as the makers you also lose your bid of ${d.bid}` : ""}`,
      "003": `003: play goes on, and your side scores nothing for the deal${makers ? "; a set still costs your bid" : "; a defender's revoke means the makers cannot be set"}`,
    };
    const ruling = rulings[s.room.rulings];
    return `${held}playing ${cardText(card)} does not follow suit, a revoke under the honour rule. ` +
      `The other side may claim it once it shows${ruling ? ` (${ruling})` : ""}.`;
  }

  revokeAnswered() {
    const asked = this.asking;
    this.asking = null;
    if (!asked) return;
    const answer = this.revokeBox.returnValue;
    if (answer === "play" && this.state.seq === asked.seq) {
      this.link.send({ type: "act", seq: asked.seq, action: `play ${asked.card}`, irregular: true });
      return;
    }
    this.say(answer === "keep" || !answer ? `${cardText(asked.card)} stays in your hand.`
      : `The table moved on: ${cardText(asked.card)} stays in your hand.`);
    // The focus back where it was: on the card (drawn anew if the table moved on).
    const back = this.handBox.querySelector(`button.card[data-card="${asked.card}"]`);
    if (back && !back.disabled) back.focus();
  }

  pickCard(card, plays, at = null) {
    const choices = plays.get(card);
    if (!choices) {
      this.say(`${cardText(card)} cannot be played now.`);
      return;
    }
    if (choices.length === 1) {
      this.act(choices[0]);
      return;
    }
    // Trick 1 under the buried excess: the card, then which cards go under it.
    this.selected = at;
    this.decision.replaceChildren(el("p", { text: `Play ${cardText(card)} and bury:` }),
      ...choices.map((a) => el("button", { type: "button", class: "choice", "data-action": a, text: a.replace(/^play \S+ bury /, "bury "),
        onclick: () => this.act(a) })));
  }

  // ---- the decision box
  renderDecision(s) {
    const d = s.deal;
    this.decision.replaceChildren();
    const mine = d && this.seat && d.to_act === this.seat && s.room.status === "playing";
    const hintButton = () => (s.room.hints ? el("button", { type: "button", id: "hint", text: "Hint (?)",
      onclick: () => this.link.send({ type: "hint" }) }) : "");
    if (!mine) {
      if (d && s.room.status === "playing" && d.to_act) {
        this.decision.append(el("p", { class: "waiting", text: `Waiting for ${d.to_act}…` }));
      }
      return;
    }
    if (d.legal.includes("waive")) {
      // The honour rule: you are asked about another seat's irregularity: claim it, or let it stand.
      const open = (d.irregularities || []).filter((x) => / (revoked on trick|bid out of turn|out of turn to trick)/.test(x)
        && !/: (claimed|waived)\.$/.test(x));
      const box = el("div", { class: "claims", role: "group", "aria-label": "Claim or waive" });
      for (const a of d.legal) {
        box.append(el("button", { type: "button", class: "choice", "data-action": a,
          text: a === "waive" ? "Waive (let it stand)" : a.replace(/^claim /, "Claim the ").replace(/ trumps$/, ", require a trump lead").replace(/ no-trumps$/, ", forbid a trump lead"),
          onclick: () => this.act(a) }));
      }
      // (its cards as the log and the hand show them, 8♦, not the server's 8D)
      const said = (open.length ? open[open.length - 1] : "An irregularity was committed.").replace(/\b[2-9TJQKA][SHDC]\b/g, cardText);
      this.decision.append(el("p", { id: "asked", text: `${said} Claim it, or waive it:` }), box);
      return;
    }
    if (d.phase === "bidding") {
      const box = el("div", { class: "bidding", role: "group", "aria-label": "Your bid" });
      for (const a of d.legal) {
        box.append(el("button", { type: "button", class: "choice", "data-action": a,
          text: a === "pass" ? "Pass" : a.replace("bid ", "Bid "), onclick: () => this.act(a) }));
      }
      this.decision.append(el("p", { text: "Your bid (type the number, or p to pass):" }), box, hintButton());
    } else if (d.phase === "trump") {
      const box = el("div", { class: "trumps", role: "group", "aria-label": "Name trumps" });
      for (const a of d.legal) {
        const suit = a.split(" ")[1];
        const { count, pedros } = trumpsIf(d.hand, suit);
        const words = `${SUIT_NAMES[suit]} ${SUITS[suit]}: ${count} trump${count === 1 ? "" : "s"}` +
          (pedros.length ? `, ${pedros.join(" and ")}` : ", no Pedro");
        box.append(el("button", { type: "button", class: `choice suit-${suit}`, "data-action": a, text: words,
          onclick: () => this.act(a) }));
      }
      this.decision.append(el("p", { text: "Name trumps (s, h, d or c):" }), box, hintButton());
    } else if (d.keep) {
      this.renderKeep(d, hintButton);
    } else if (d.phase === "discard" || d.phase === "rob") {
      for (const a of d.legal) {
        this.decision.append(el("button", { type: "button", class: "choice", "data-action": a, text: a,
          onclick: () => this.act(a) }));
      }
    } else if (d.phase === "play") {
      const revokes = (d.irregular || []).some((a) => a.startsWith("play "));
      this.decision.append(el("p", { text: `Your card: click it, or ←/→ and Enter${revokes
        ? " (the greyed cards with a dashed border are revokes: Shift+←/→ reaches them too, and they ask first)" : ""}.` }),
      hintButton());
    }
  }

  renderKeep(d, hintButton) {
    const k = d.keep;
    // A card in the pool twice (two decks) has two places: the first ones it holds in the hand, then the stock's.
    const pool = sortHand(k.pool, d.trump);
    this.keepPool = pool;
    if (!this.keep) {
      const hinted = this.hint && this.hint.action.startsWith("keep ") ? this.hint.action : k.suggestion;
      this.keep = placesOf(pool, hinted);
    }
    const check = this.keepProblem(k, d.trump);
    const row = el("div", { class: "cards keep", role: "group", "aria-label": "Cards to keep" });
    pool.forEach((card, i) => {
      const kept = this.keep.has(i);
      const inHand = copyNumber(pool, i) <= count(d.hand, card);
      const b = cardElement(card, { trump: d.trump, button: true,
        label: `${cardName(card, d.trump)}${copyWords(pool, i)}, ${inHand ? "in your hand" : "from the stock"}, ${kept ? "kept" : "thrown"}` });
      b.setAttribute("aria-pressed", String(kept));
      b.dataset.place = String(i);
      b.classList.add(kept ? "kept" : "thrown");
      if (!inHand) b.classList.add("from-stock");
      b.addEventListener("click", () => {
        if (kept && this.keptCards().filter((c) => c === card).length <= count(k.must, card)) {
          this.say(count(k.must, card) > 1 ? `Both ${cardText(card)} must be kept.` : `${cardText(card)} must be kept.`);
          return;
        }
        if (kept) this.keep.delete(i);
        else this.keep.add(i);
        this.render();
      });
      row.append(b);
    });
    const confirm = el("button", { type: "button", id: "confirm-keep", class: "primary", disabled: !!check,
      text: `Keep ${this.keep.size}`, onclick: () => this.act(["keep", ...this.keptCards()].join(" ")) });
    const reset = el("button", { type: "button", text: "Back to the suggestion", onclick: () => {
      this.keep = placesOf(pool, k.suggestion); this.render(); } });
    this.decision.append(el("p", { class: "rule", text: `The rule: ${k.rule}.` }), row,
      el("p", { id: "keep-status", role: "status", text: check || `Keeping ${this.keep.size}: a legal hand.` }),
      confirm, reset, hintButton());
  }

  /** The cards marked kept, in the pool's order (a card kept twice named twice: "AH AH KH"). */
  keptCards() {
    return [...this.keep].sort((a, b) => a - b).map((i) => this.keepPool[i]);
  }

  keepProblem(k, trump) {
    const n = this.keep.size;
    if (n < k.fewest) return `Keeping ${n}: keep at least ${k.fewest}.`;
    if (n > k.most) return `Keeping ${n}: keep at most ${k.most}.`;
    const kept = this.keptCards();
    const missing = [...new Set(k.must)].flatMap((c) => Array(Math.max(0, count(k.must, c) - count(kept, c))).fill(c));
    if (missing.length) return `You must keep ${missing.map(cardText).join(" ")}.`;
    const trumps = kept.filter((c) => isTrump(c, trump)).length;
    if (trumps < k.min_trumps) return `Keep at least ${k.min_trumps} trumps.`;
    return null;
  }

  // ---- score and log
  renderSide(s) {
    const score = this.side.querySelector("#score");
    if (s.match) {
      const me = this.seat ? this.sideOf(this.seat) : null;
      const sides = s.room.sides || ["NS", "EW"];
      const named = (side) => { // a cut-throat side is one player: his name too
        const info = this.partnership() ? null : s.room.seats.find((x) => x.seat === side);
        return info && info.name ? `${side} · ${info.name}` : side;
      };
      const line = (side) => el("p", { class: "team", "data-side": side,
        text: `${named(side)}${side === me ? " (you)" : ""}: ${s.match.score[side]}` });
      score.replaceChildren(...sides.map(line), el("p", { text: `Target ${s.match.target} · deal ${s.match.deals}` }));
    } else {
      score.replaceChildren(el("p", { text: "The match has not started." }));
    }
    this.logBox.replaceChildren(...this.logLines.map((line) => el("li", { text: line })));
    this.logBox.scrollTop = this.logBox.scrollHeight;
  }

  // ---- the end of a deal, and of the match
  renderDealEnd(s) {
    const last = s.match && s.match.last_deal;
    const show = last && (s.room.status === "between-deals" || s.room.status === "over") && s.deal && s.deal.phase === "done";
    this.overlay.hidden = !show;
    if (!show) return;
    const rows = last.awards.map((a) => el("tr", {},
      el("td", { text: a.name }), el("td", { text: cardText(a.card) }), el("td", { text: a.team }),
      el("td", { text: String(a.points) }), el("td", { text: a.how === "captured" ? "" : a.how })));
    const table = last.awards.length ? el("table", { class: "awards" },
      el("caption", { text: "Who took each point card" }),
      el("thead", {}, el("tr", {}, ...["Point", "Card", this.partnership() ? "Side" : "Player", "Points", "How"].map((h) => el("th", { scope: "col", text: h })))),
      el("tbody", {}, ...rows)) : "";
    const words = el("div", { class: "words" }, ...last.words.filter(Boolean).map((w) => el("p", { text: w })));
    const winner = s.match.winner;
    const won = !winner ? `Deal ${last.number} is over`
      : this.partnership() ? `${winner} win the match` : `${winner === this.seat ? "You win" : `${winner} wins`} the match`;
    const bits = [el("h2", { text: won }),
      table, words];
    if (s.deal.reveal) {
      bits.push(el("p", { class: "fair", id: "fairness", text: "Checking the shuffle…" }));
      const promised = this.sameDeal(this.promised, s) ? this.promised.commitment : s.deal.commitment;
      verify({ ...s.deal, commitment: promised }).then((ok) => {
        const p = this.overlay.querySelector("#fairness");
        if (!p) return;
        p.dataset.verified = String(ok);
        p.textContent = ok === null ? "The shuffle can be checked only over https or on this machine."
          : ok ? "Fair shuffle: the deck is the one promised before the first bid, and it follows from every seat's entropy."
            : "Warning: the revealed deck is not the one promised before the first bid.";
      });
    }
    if (s.match.winner) {
      if (this.seat || this.host) bits.push(el("button", { type: "button", id: "rematch", class: "primary", text: "Rematch",
        onclick: () => this.link.send({ type: "rematch" }) }));
    } else if (this.seat) {
      bits.push(el("button", { type: "button", id: "ready", class: "primary", text: "Next deal",
        onclick: () => this.link.send({ type: "ready" }) }));
    }
    this.overlay.replaceChildren(...bits);
  }

  // ---- keys: the same as the terminal table
  key(e) {
    // (while the revoke dialog is open its own buttons take Enter, and Escape closes it)
    if (!this.state || this.revokeBox.open || e.target.closest("input, select, textarea")) return;
    const d = this.state.deal;
    const legal = this.legal();
    const keeping = d && d.keep && this.seat && d.to_act === this.seat && this.state.room.status === "playing";
    if (e.key === "?" && this.state.room.hints && (legal.length || keeping)) {
      this.link.send({ type: "hint" });
    } else if (e.key === "l" && d && d.tricks.length) {
      this.showLast = !this.showLast;
      this.render();
    } else if (!legal.length) {
      if (e.key === "Enter" && !this.overlay.hidden) {
        const b = this.overlay.querySelector("#ready, #rematch");
        if (b) b.click();
      }
      return;
    } else if (d.phase === "bidding") {
      if (e.key === "p") this.act("pass");
      else if (/^[0-9]$/.test(e.key)) {
        this.bidText += e.key;
        this.say(`Bid ${this.bidText}… (Enter bids it)`);
      } else if (e.key === "Enter" && this.bidText) {
        const a = `bid ${Number(this.bidText)}`;
        if (legal.includes(a)) this.act(a);
        else this.say(`You cannot bid ${this.bidText} now: the bids you may make are ${legal.join(", ")}.`);
        this.bidText = "";
      } else return;
    } else if (d.phase === "trump" && "shdc".includes(e.key) && e.key.length === 1) {
      this.act(`trump ${e.key.toUpperCase()}`);
    } else if (d.phase === "play") {
      const cards = [...this.handBox.querySelectorAll("button.card")];
      const playable = cards.filter((b) => b.classList.contains("legal"));
      if (e.key === "ArrowRight" || e.key === "ArrowLeft") {
        // The arrows go over the cards you may play; with Shift also over the greyed cards the honour rule
        // lets you play as a revoke (never by accident: such a card asks first).
        this.step(cards, e.shiftKey ? cards.filter((b) => !b.disabled) : playable, e.key === "ArrowRight" ? 1 : -1);
      } else if (/^[1-9]$/.test(e.key)) {
        const b = cards[Number(e.key) - 1];
        if (b && !b.disabled) b.click();
        else if (b) this.say(`${cardText(b.dataset.card)} cannot be played now.`);
      } else if ("shdc".includes(e.key) && e.key.length === 1) {
        const suit = e.key.toUpperCase();
        const match = playable.filter((b) => (d.trump === suit ? isTrump(b.dataset.card, suit) : b.dataset.card[1] === suit && !isTrump(b.dataset.card, d.trump)));
        if (match.length) {
          const at = match.indexOf(document.activeElement);
          match[(at + 1) % match.length].focus();
        }
      } else if (e.key === "Enter" && document.activeElement && document.activeElement.matches("#hand button.card")) {
        document.activeElement.click();
      } else return;
    } else return;
    e.preventDefault();
  }

  /** Move the focus from the focused card to the next of `stops` in the hand's order (`dir` 1: right, -1:
   * left, round the end); from outside the hand, to the first (→) or the last (←). */
  step(cards, stops, dir) {
    if (!stops.length) return;
    const from = cards.indexOf(document.activeElement);
    if (from < 0) {
      stops[dir > 0 ? 0 : stops.length - 1].focus();
      return;
    }
    for (let i = 1; i <= cards.length; i += 1) {
      const b = cards[(from + dir * i + cards.length * i) % cards.length];
      if (stops.includes(b)) {
        b.focus();
        return;
      }
    }
  }
}

export { SEATS };
