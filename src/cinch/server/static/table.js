// A room's table, phone first: the felt with every seat round it (their hands as card backs, the dealer's
// button, the maker's bid and trumps, what each is doing), the trick in the middle with each card in front of
// its player, your hand pinned to the bottom edge, and your decision (the bidding box, the trump chooser, the
// keep chooser) in a panel just above it. Before the start the same page is the waiting room; once the match
// runs the room's code, link, seats, score, log and chat fold into one bar and its menu. Everything shown
// comes from the server's `state` snapshots; every decision goes back as an `act` in the record notation.

import {
  SEATS, SUITS, SUIT_NAMES, cardElement, cardName, cardText, isTrump, leftOf, partnerOf, setBowers, sortHand,
  trumpNote, trumpStars, trumpsIf,
} from "./cards.js";
import { el } from "./lobby.js";
import { Link, entropy, store, stored } from "./net.js";
import { verify } from "./shuffle.js";
import { onPlayer, shownName, whoAmI } from "/static/players/session.js";

const KIND_WORDS = { human: "player", bot: "bot", substitute: "bot standing in", empty: "empty seat" };

// Where the other seats sit around a cut-throat table, clockwise from yours at the bottom (the play passes
// to the left): two face each other; three sit left and right of you; five and six fill the top corners too.
const AROUND = {
  2: ["top"],
  3: ["left", "right"],
  5: ["left", "top-left", "top-right", "right"],
  6: ["left", "top-left", "top", "top-right", "right"],
};

// What a seat to act is doing, in the phase's words (your own seat says it as an instruction).
const DOING = { bidding: "bidding", trump: "naming trumps", discard: "discarding", rob: "robbing the pack",
  restock: "shuffling a new stock" };
const YOUR_TURN = { bidding: "Your bid", trump: "Name trumps", discard: "Your discard", rob: "Rob the pack" };
const BACKS_SHOWN = 9; // card backs drawn for a hand at most; the count says the rest (two decks hold 18)
const PLAYER_WAIT_MS = 1500; // how long the websocket waits for the page to know its player before opening anyway
const GATHER_MS = 380; // how long the trick takes to slide to its winner

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

/** A card in a line of words: "A♠★" in its suit's colour (the point cards of the end of a deal). */
function cardChip(card, trump) {
  const trumped = trump && isTrump(card, trump);
  return el("span", { class: `chip suit suit-${card[1]}`, role: "img", "aria-label": cardName(card, trump) },
    `${cardText(card)}${trumped ? "★" : ""}`);
}

/** "1 card", "9 cards". */
function cardsWord(n) {
  return `${n} card${n === 1 ? "" : "s"}`;
}

/** Names in a list: "Ann", "Ann and Bo", "Ann, Bo and Cy". */
function listed(names) {
  return names.length < 2 ? names.join("") : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}

/** A signed change of score: "+4", "−9", "0". */
function signed(n) {
  return n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "0";
}

function reducedMotion() {
  return window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/** Lay `cards` (buttons or spans inside `row`) out in as few rows as keep every card's index in view: each
 * row overlaps its cards only as much as leaves at least half a card (and two pixels) of each showing, so a
 * tap or a click on a card's middle lands on that card. `width` is the card's width in px. */
function fan(row, width) {
  const cards = [...row.children];
  const room = row.clientWidth;
  if (!cards.length || !room || !width) return;
  const perRow = Math.max(1, Math.min(cards.length, Math.floor((room - width) / (width / 2 + 2)) + 1));
  const rows = Math.ceil(cards.length / perRow);
  const inRow = Math.ceil(cards.length / rows); // (the rows as even as they go: 18 cards as 9 and 9)
  const gap = inRow > 1 ? Math.floor(Math.min(width + 4, (room - width) / (inRow - 1))) : 0;
  row.style.setProperty("--cols", String(inRow));
  row.style.gridTemplateColumns = inRow > 1 ? `repeat(${inRow - 1}, ${gap}px) ${width}px` : `${width}px`;
  row.dataset.rows = String(rows);
}

/** Where the trick card of `seat` ({seat, box}) lies, its centre on the screen: on the way from `middle` (the
 * middle of the trick's space) towards the seat, as near the middle as it can be while it is nearer its own seat
 * than any other (by a margin), inside `area` and clear of the boxes `keepOff` (the seats, the caption, the cards
 * placed before it); where the felt is too tight for that, moved aside from that line by a card's width or two.
 * `good` says whether it found such a place (else the card is only clear of the others, or in the middle). */
function placeOnFelt(seat, seats, middle, area, [w, h], keepOff) {
  const centre = (r) => [(r.left + r.right) / 2, (r.top + r.bottom) / 2];
  const clamp = (x, low, high) => (low > high ? (low + high) / 2 : Math.min(high, Math.max(low, x)));
  const clear = ([x, y]) => keepOff.every((r) => x + w / 2 + 3 <= r.left || x - w / 2 - 3 >= r.right
    || y + h / 2 + 3 <= r.top || y - h / 2 - 3 >= r.bottom);
  const ownFirst = ([x, y]) => {
    const by = seats.map((s) => { const [sx, sy] = centre(s.box); return [Math.hypot(sx - x, sy - y), s.seat]; })
      .sort((a, b) => a[0] - b[0]);
    return by[0][1] === seat.seat && (by.length < 2 || by[1][0] - by[0][0] >= 8);
  };
  const [tx, ty] = centre(seat.box);
  const length = Math.hypot(tx - middle[0], ty - middle[1]) || 1;
  const across = [-(ty - middle[1]) / length, (tx - middle[0]) / length]; // (at a right angle to the way)
  let clearOnly = null;
  for (const aside of [0, 1, -1, 2, -2]) {
    for (let k = 0.25; k < 0.96; k += 0.05) {
      const at = [
        clamp(middle[0] + k * (tx - middle[0]) + aside * (w + 6) * across[0], area.left + w / 2, area.right - w / 2),
        clamp(middle[1] + k * (ty - middle[1]) + aside * (w + 6) * across[1], area.top + h / 2, area.bottom - h / 2)];
      if (!clear(at)) continue;
      if (ownFirst(at)) return { at, good: true };
      clearOnly = clearOnly || at;
    }
  }
  return { at: clearOnly || middle, good: false };
}

/** Each spot's card placed in turn (placeOnFelt), each clear of those before it: their centres (`places`), and
 * whether every one found a good place (`good`). */
function placeAll(spots, seats, middle, area, [w, h], keepOff) {
  const places = [];
  let good = true;
  for (const spot of spots) {
    const seat = seats.find((x) => x.seat === spot.dataset.seat);
    const found = seat ? placeOnFelt(seat, seats, middle, area, [w, h], [...keepOff, ...places.map(([x, y]) => (
      { left: x - w / 2, right: x + w / 2, top: y - h / 2, bottom: y + h / 2 }))]) : { at: middle, good: false };
    places.push(found.at);
    good = good && found.good;
  }
  return { places, good };
}

export function showTable(main, code) {
  main.dataset.view = "table";
  document.documentElement.dataset.page = "room"; // (early.js said so before the first paint)
  document.title = `Cinch: room ${code}`;
  const t = new TableView(main, code);
  window.cinchTable = t; // (for the tests and the curious)
  return t;
}

export class TableView {
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
    this.linger = null; // a trick just won, kept on view a moment: {trick, number, gathering}
    this.onTable = new Set(); // "seat card" of the cards drawn in the trick, so that only new ones slide in
    this.logLines = [];
    this.build();
    fetch("/api/presets").then((r) => r.json())
      .then((info) => { this.bots = info.bots; this.defaultBot = info.default_bot; }).catch(() => {});
    this.player = null; // this browser's guest or account (null: nobody), from the player bar's session
    this.link = { send: () => false, close: () => {} }; // (until the websocket opens)
    this.connect();
    document.addEventListener("keydown", (e) => this.key(e));
    window.addEventListener("resize", () => this.layoutCards());
    // (the felt changes size without the window too: the menu's column, the panel over the felt, the fonts)
    if (window.ResizeObserver) new ResizeObserver(() => this.placeTrick()).observe(this.board);
  }

  /** The websocket opens once the page knows its player (a guest's session may first be opened again by its
   * device key), so that its handshake carries the session: a seat taken is then that player's, under its own
   * name. Signing in or out later (the menu's links) opens it again, as the new player. */
  connect() {
    const known = Promise.race([whoAmI().catch(() => null),
      new Promise((done) => { setTimeout(() => done(undefined), PLAYER_WAIT_MS); })]);
    known.then((player) => {
      if (player !== undefined) this.player = player;
      this.link = new Link(this.code, { onMessage: (m) => this.receive(m), onStatus: (s) => this.status(s) });
      this.renderPlayer();
      onPlayer((now) => {
        const same = (a, b) => (a ? `${a.kind} ${a.id} ${a.name}` : "") === (b ? `${b.kind} ${b.id} ${b.name}` : "");
        if (same(now, this.player)) return;
        this.player = now;
        this.link.close();
        this.link = new Link(this.code, { onMessage: (m) => this.receive(m), onStatus: (s) => this.status(s) });
        this.renderPlayer();
      });
    });
  }

  /** The menu's player entry (the site's top bar, which says it elsewhere, is not drawn over a room): who you
   * are here, and where to sign in or register. */
  renderPlayer() {
    const box = this.playerBox;
    const p = this.player;
    box.dataset.player = p ? p.kind : "";
    if (!p) {
      box.replaceChildren("Not signed in: your seat takes the name you type. ",
        el("a", { href: "/account", text: "Sign in or register" }), " to keep your games and ratings.");
    } else if (p.kind === "guest") {
      box.replaceChildren(`Playing as ${shownName(p)}. `,
        el("a", { href: "/account", text: "Register" }), " to keep your games and get a profile.");
    } else {
      box.replaceChildren("Signed in as ", el("a", { href: p.profile, text: p.name, "data-testid": "room-player-name" }),
        ". ", el("a", { href: "/account", text: "Account" }));
    }
    if (this.state && this.state.room.status === "waiting") this.render();
  }

  // ---- the page's frame
  build() {
    const m = this.main;
    m.replaceChildren();
    this.banner = el("p", { id: "connection", class: "banner", role: "status", hidden: true });
    this.menuButton = el("button", { type: "button", id: "menu-button", class: "menu-button", "aria-expanded": "false",
      "aria-controls": "side", "aria-label": "Room, score, log and chat", onclick: () => this.toggleMenu() },
    el("span", { class: "burger", "aria-hidden": "true" }));
    this.title = el("h1", { class: "room-title" }, el("span", { class: "room-word", text: "Room " }), this.code);
    this.scoreBar = el("p", { id: "score-bar", class: "score-bar" });
    this.bar = el("header", { class: "room-bar", id: "room-bar" },
      this.menuButton, el("a", { class: "brand", href: "/", text: "Cinch" }), this.title, this.scoreBar);
    this.seatsBox = el("section", { id: "seating", class: "seating", "aria-label": "Seats" });
    this.waiting = el("section", { id: "waiting-room", class: "waiting-room", hidden: true, "aria-labelledby": "wr-title" });
    this.board = el("section", { id: "board", class: "board", "aria-label": "The table" });
    this.message = el("p", { id: "message", class: "message", role: "status", hidden: true });
    this.decision = el("section", { id: "decision", class: "decision", "aria-label": "Your decision" });
    this.handBox = el("section", { id: "hand", class: "hand empty", "aria-label": "Your hand" });
    this.dock = el("div", { class: "dock" }, el("div", { class: "dock-over" }, this.message, this.decision), this.handBox);
    this.overlay = el("section", { id: "deal-end", class: "deal-end", hidden: true, "aria-labelledby": "deal-end-title" });
    this.table = el("div", { class: "table-area", id: "table-area" }, this.board, this.dock, this.overlay);
    this.logBox = el("ol", { id: "log", class: "log", "aria-label": "What happened", tabindex: "0" });
    this.live = el("div", { id: "narration", class: "sr-only", "aria-live": "polite" });
    this.chat = this.buildChat();
    this.revokeBox = this.buildRevokeBox();
    this.side = this.buildSide();
    m.append(this.bar, this.banner, this.waiting,
      el("div", { class: "play-area" }, this.table, this.side), this.live, this.revokeBox);
  }

  /** The menu: the room (code, link, rules, seats, the record and replays), the score, the log and the chat;
   * a drawer on a phone, a column beside the table on a wide screen. */
  buildSide() {
    this.roomHead = el("p", { class: "room-head" });
    this.invite = el("p", { class: "invite" });
    this.links = el("ul", { class: "room-links", "aria-label": "This match" });
    const colour = document.querySelector("header.top .toggle");
    // The site's links: the top bar's own (the server writes it into every page; a room's page hides it in play).
    const siteNav = document.querySelector("header.top nav");
    const nav = siteNav ? siteNav.cloneNode(true) : "";
    if (nav) nav.classList.add("site-links");
    this.roomBox = el("details", { class: "room-box", id: "room-box" },
      el("summary", { text: "Room, seats and links" }), this.roomHead, this.invite, this.links, this.seatsBox,
      colour || "", nav);
    const close = el("button", { type: "button", class: "close-menu", "aria-label": "Close the menu", text: "×",
      onclick: () => { this.toggleMenu(false); this.menuButton.focus(); } });
    this.playerBox = el("p", { class: "room-player", id: "room-player", "data-testid": "room-player" });
    return el("aside", { id: "side", class: "side", "aria-label": "Room, score, log and chat", tabindex: "-1" },
      close, this.playerBox, this.roomBox, el("h2", { text: "Score" }), el("div", { id: "score" }), el("h2", { text: "Log" }),
      this.logBox, this.chat);
  }

  menuOpen() {
    return this.main.classList.contains("menu-open");
  }

  toggleMenu(open = !this.menuOpen()) {
    this.main.classList.toggle("menu-open", open);
    this.menuButton.setAttribute("aria-expanded", String(open));
    if (open) {
      this.roomBox.open = true;
      requestAnimationFrame(() => this.side.focus());
    }
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
    return el("div", { class: "chat-box" }, this.chatLines, form);
  }

  status(text) {
    this.banner.hidden = !text;
    this.banner.textContent = text || "";
    this.main.dataset.connected = text ? "false" : "true";
  }

  /** A line over the table: `kind` "advice" (a hint), "error" (a refusal) or "" (news). */
  say(text, kind = "") {
    this.message.textContent = text ? trumpStars(text) : "";
    this.message.className = `message ${kind}`.trim();
    this.message.hidden = !text;
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
      this.follow(before, m);
      const d = m.deal;
      if (d && d.commitment && d.phase !== "done" && !this.sameDeal(this.promised, m)) {
        // The commitment as first seen during the deal: the end of the deal is checked against it.
        this.promised = { match: m.room.match_id, number: d.number, commitment: d.commitment };
      }
      if (m.narration.length) this.live.textContent = m.narration.filter(Boolean).slice(-3).map(trumpStars).join(" ");
      this.render();
    } else if (m.type === "error") {
      if (m.code === "bad-token") {
        store(this.code, { token: null });
        this.link.send({ type: "hello", room: this.code, host_token: stored(this.code).host_token });
      }
      this.say(m.message, "error");
    } else if (m.type === "chat") {
      this.chatLines.append(el("li", { text: `${m.name}${m.seat ? ` (${m.seat})` : ""}: ${m.text}` }));
      this.chatLines.scrollTop = this.chatLines.scrollHeight;
    } else if (m.type === "hint") {
      this.hint = m;
      if (m.action.startsWith("keep ")) this.keep = null; // the keep chooser marks the hinted hand
      this.say(`Hint (${m.bot}): ${m.words}${m.estimate ? `: ${m.estimate}` : ""}`, "advice");
      this.render();
    }
  }

  /** What moved between two states, for the trick: a trick just won stays on view (the room's
   * `trick_pause`) with its winner marked, then slides to the winner. A page that catches up (its first state,
   * or another deal) shows the position as it is, with nothing moving. */
  follow(before, now) {
    const d = now.deal;
    const b = before && before.deal;
    const same = d && b && before.room.match_id === now.room.match_id && b.number === d.number;
    this.catchingUp = !same;
    if (!same) {
      this.endLinger();
      this.onTable = new Set(d ? d.trick.plays.map((p) => `${p.seat} ${p.card}`) : []);
      return;
    }
    if (d.tricks.length > b.tricks.length && d.phase === "play") {
      const number = d.tricks.length;
      this.endLinger();
      this.linger = { trick: d.tricks[number - 1], number, gathering: false };
      const pause = Math.max(0, Number(now.room.trick_pause) || 0) * 1000;
      this.lingerTimer = setTimeout(() => this.gather(number), pause);
    }
    if (this.linger && (d.trick.plays.length || d.phase !== "play")) this.endLinger(); // a new lead: the trick goes
  }

  gather(number) {
    if (!this.linger || this.linger.number !== number) return;
    this.linger.gathering = true;
    const trick = this.board.querySelector("#trick");
    if (trick) trick.classList.add("gather");
    this.lingerTimer = setTimeout(() => { this.endLinger(); this.render(); }, reducedMotion() ? 0 : GATHER_MS);
  }

  endLinger() {
    clearTimeout(this.lingerTimer);
    this.linger = null;
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

  /** A seat as the table names it: "E · Bea", "S · Ann (you)", "N · heuristic (partner)". */
  seatTitle(seat) {
    const info = this.state.room.seats.find((x) => x.seat === seat);
    const partner = this.seat && this.partnership() && seat === partnerOf(this.seat);
    return `${seat} · ${(info && info.name) || "empty"}${seat === this.seat ? " (you)" : partner ? " (partner)" : ""}`;
  }

  /** A seat's name alone, for sentences: "Bea", "you". */
  seatName(seat) {
    if (seat === this.seat) return "you";
    const info = this.state.room.seats.find((x) => x.seat === seat);
    return (info && info.name) || seat;
  }

  playing() {
    return this.state.room.status === "playing";
  }

  render() {
    const s = this.state;
    setBowers(s.deal && s.deal.bowers); // all-hands Pedro: the cards below star and sort the bowers as trumps
    const waiting = s.room.status === "waiting";
    this.main.classList.toggle("is-waiting", waiting);
    this.waiting.hidden = !waiting;
    this.table.hidden = waiting;
    this.renderBar(s);
    this.renderSeating(s);
    this.renderHand(s);
    if (!waiting) {
      this.renderBoard(s);
      this.renderDecision(s);
      this.renderDealEnd(s);
    }
    if (!waiting) this.homeRoomBox();
    this.renderSide(s);
    this.layoutCards();
    this.main.dataset.ready = "true";
    this.main.dataset.seq = String(s.seq);
    this.main.dataset.phase = s.deal ? s.deal.phase : "none";
    this.main.dataset.status = s.room.status;
    this.main.dataset.seat = this.seat || "";
  }

  /** The hand and the keep chooser, fanned to the width they have now, and the trick placed round the felt
   * (again when the window changes). */
  layoutCards() {
    for (const row of this.main.querySelectorAll(".fan")) {
      const card = row.querySelector(".card");
      if (card) fan(row, card.getBoundingClientRect().width || card.offsetWidth);
    }
    this.placeTrick();
  }

  /** Your own seat lifted clear of the panel (and the message) over the bottom of the felt, so that it stays
   * readable; the top of what lies over the felt (Infinity: nothing) and your seat's box, as they are now. */
  liftOwnSeat() {
    const over = this.dock.querySelector(".dock-over").getBoundingClientRect();
    const panelTop = over.height > 12 ? over.top : Infinity; // (nothing over the felt but its padding)
    const own = this.board.querySelector(".seat.bottom");
    if (!own) return { panelTop, own: null };
    own.style.setProperty("--lift", "0px");
    const clear = own.getBoundingClientRect().bottom - (panelTop - 3);
    own.style.setProperty("--lift", `${Math.max(0, Math.round(clear))}px`);
    return { panelTop, own: own.getBoundingClientRect() };
  }

  /** Your own seat lifted clear of the panel (liftOwnSeat); then each card of the trick between the middle of the
   * trick's space and the seat that played it, nearer that seat than any other, clear of the seats, the caption,
   * the panel and the other cards (placeAll). Measured, so that it holds at any size and any number of seats. */
  placeTrick() {
    const board = this.board;
    const trick = board.querySelector("#trick");
    if (!trick || !board.getClientRects().length) return; // (not shown: the waiting room)
    const { panelTop, own } = this.liftOwnSeat();
    const seats = [...board.querySelectorAll(".seat")].map((x) => ({ seat: x.dataset.seat, box: x.getBoundingClientRect() }));
    const space = trick.getBoundingClientRect();
    const felt = board.getBoundingClientRect();
    const top = board.querySelector(".felt-top");
    const bottom = Math.min(felt.bottom, panelTop, own ? own.top : Infinity) - 4;
    trick.style.setProperty("--cap-bottom", `${Math.max(0, space.bottom - bottom)}px`);
    const spots = [...trick.querySelectorAll(".spot")].filter((spot) => spot.querySelector(".card"));
    if (!spots.length) return;
    const { width, height } = spots[0].getBoundingClientRect(); // (a card's size, whatever it is doing)
    const area = { left: felt.left + 4, right: felt.right - 4, bottom: Math.min(bottom, space.bottom),
      top: (top ? top.getBoundingClientRect().bottom : felt.top) + 4 };
    const middle = [(space.left + space.right) / 2, (Math.max(space.top, area.top) + area.bottom) / 2];
    const seatBoxes = seats.map((x) => x.box);
    // The caption keeps its place under the trick unless the felt is too tight for the cards and it: then it goes.
    const caption = trick.querySelector(".trick-caption");
    const captioned = caption && caption.textContent
      ? placeAll(spots, seats, middle, area, [width, height], [...seatBoxes, caption.getBoundingClientRect()]) : null;
    const { places } = captioned && captioned.good ? captioned
      : placeAll(spots, seats, middle, area, [width, height], seatBoxes);
    if (caption) caption.classList.toggle("crowded", !!captioned && !captioned.good);
    const origin = [(space.left + space.right) / 2, (space.top + space.bottom) / 2]; // (where --x and --y count from)
    const centre = (r) => [(r.left + r.right) / 2, (r.top + r.bottom) / 2];
    const winner = seats.find((x) => x.seat === trick.dataset.winner);
    spots.forEach((spot, i) => {
      const at = places[i];
      const seat = seats.find((x) => x.seat === spot.dataset.seat);
      const [sx, sy] = seat ? centre(seat.box) : at; // (a card slides in from its seat, and on to the winner's)
      const [wx, wy] = winner ? centre(winner.box) : at;
      for (const [name, value] of [["--x", at[0] - origin[0]], ["--y", at[1] - origin[1]], ["--fx", sx - at[0]],
        ["--fy", sy - at[1]], ["--gx", wx - at[0]], ["--gy", wy - at[1]]]) spot.style.setProperty(name, `${Math.round(value)}px`);
    });
  }

  // ---- the bar: the room, the score, the menu
  renderBar(s) {
    const r = s.room;
    this.scoreBar.replaceChildren();
    if (!s.match) {
      this.scoreBar.append(el("span", { text: r.status === "waiting" ? "waiting to start" : r.status.replace("-", " ") }));
      return;
    }
    const me = this.seat ? this.sideOf(this.seat) : null;
    const sides = r.sides || ["NS", "EW"];
    if (this.partnership()) {
      for (const side of sides) {
        this.scoreBar.append(el("span", { class: `side-score${side === me ? " mine" : ""}`, "data-side": side },
          side, side === me ? el("span", { class: "sr-only", text: " (you)" }) : "", ` ${s.match.score[side]}`));
      }
    } else {
      const best = Math.max(...sides.map((x) => s.match.score[x]));
      const mine = me ? s.match.score[me] : null;
      this.scoreBar.append(el("span", { class: "side-score mine", text: mine === null ? `best ${best}` : `you ${mine}` }));
      if (mine !== null) this.scoreBar.append(el("span", { class: "side-score", text: `best ${best}` }));
    }
    this.scoreBar.append(el("span", { class: "deal-no" }, el("span", { text: `to ${s.match.target}` }),
      el("span", { text: `deal ${s.match.deals}` })));
  }

  // ---- the seats: the waiting room's list before the start, the menu's after it
  renderSeating(s) {
    const r = s.room;
    const waiting = r.status === "waiting";
    const canChange = ["waiting", "between-deals", "over"].includes(r.status);
    const bots = this.bots || ["random", "basic", "heuristic", "expert"];
    const items = r.seats.map((p) => {
      const li = el("li", { "data-seat": p.seat, class: `seat-entry kind-${p.kind}` });
      const fills = this.host && canChange;
      const person = p.kind === "human" || p.kind === "substitute";
      const after = `${p.player === "guest" ? " (guest)" : ""}${p.seat === this.seat ? " (you)" : ""}${p.kind === "substitute" ? ` (away: ${p.bot} bot plays)` : ""}`;
      const who = p.kind === "empty" ? "empty" : p.kind === "bot" ? (fills ? "bot" : `${p.name} bot`) : `${p.name}${after}`;
      const conn = person
        ? el("span", { class: `conn ${p.connected ? "on" : "off"}`, text: p.connected ? "here" : "away" }) : "";
      // An account's name links its profile; a guest is marked as one; a typed name is plain.
      const whoBox = person && p.profile
        ? el("span", { class: "who" }, el("a", { href: p.profile, class: "profile", text: p.name }), after)
        : el("span", { class: "who", text: who });
      li.append(el("span", { class: "seat-label", text: p.seat }), whoBox, conn);
      const controls = el("span", { class: "seat-controls" });
      if (!this.seat && p.kind === "empty" && waiting) {
        controls.append(el("button", { type: "button", class: "sit", "data-sit": p.seat, text: "Sit here",
          onclick: () => this.sitDown(p.seat, "join") }));
      }
      if (!this.seat && p.kind === "bot" && canChange) {
        controls.append(el("button", { type: "button", class: "sit", "data-take": p.seat, text: "Take this seat",
          onclick: () => this.sitDown(p.seat, "take-seat") }));
      }
      const away = p.kind === "human" && !p.connected;
      if (fills && (p.kind === "empty" || p.kind === "bot" || p.kind === "substitute" || away)) {
        controls.append(this.botChoice(p, bots));
      }
      if (this.seat === p.seat && r.status !== "playing") {
        controls.append(el("button", { type: "button", class: "leave", text: "Leave this seat",
          onclick: () => { this.link.send({ type: "leave" }); store(this.code, { token: null }); this.seat = null; } }));
      }
      li.append(controls);
      return li;
    });
    this.seatsBox.replaceChildren(el("h2", { text: "Seats" }), el("ul", { class: "seat-list" }, ...items));
    if (waiting) this.renderWaitingRoom(s);
  }

  /** Once the match runs, the room's words, link and seats live in the menu. */
  homeRoomBox() {
    const after = this.roomBox.querySelector(".toggle, .site-links");
    for (const part of [this.roomHead, this.invite, this.links, this.seatsBox]) this.roomBox.insertBefore(part, after);
  }

  /** The host's one control for a seat: who plays it, empty or a bot of each level (a person away may be
   * replaced by a bot for good between deals). Choosing sends `fill` at once. */
  botChoice(p, bots) {
    const id = `bot-${p.seat}`;
    const options = [];
    if (p.kind === "empty") options.push(el("option", { value: "", text: "empty", selected: true }));
    if (p.kind === "human" || p.kind === "substitute") options.push(el("option", { value: "", text: `${p.name}`, selected: true }));
    for (const b of bots) options.push(el("option", { value: b, text: `${b} bot`, selected: p.kind === "bot" && p.bot === b }));
    const pick = el("select", { id, class: "bot-choice", "data-fill": p.seat, "aria-label": `Who plays seat ${p.seat}` }, ...options);
    pick.addEventListener("change", () => {
      if (pick.value) this.link.send({ type: "fill", seat: p.seat, bot: pick.value });
    });
    return pick;
  }

  sitDown(seat, type) {
    if (this.player) { // (the server seats a player under its own name: this one only fills the message)
      this.link.send({ type, seat, name: this.player.name, entropy: entropy(this.code) });
      return;
    }
    const input = this.main.querySelector("#my-name");
    const who = (input && input.value.trim()) || stored("me").name || "Player";
    store("me", { name: who });
    this.link.send({ type, seat, name: who, entropy: entropy(this.code) });
  }

  /** Before the start: the room on one screen, the start at the top, one line a seat. */
  renderWaitingRoom(s) {
    const r = s.room;
    const empty = r.seats.filter((x) => x.kind === "empty").map((x) => x.seat);
    const bits = [el("h2", { id: "wr-title", text: "Waiting for players" }), this.roomHeadText(s)];
    if (this.host) {
      const level = el("select", { id: "fill-level", "aria-label": "The bots' level" },
        ...(this.bots || ["random", "basic", "heuristic", "expert"]).map((b) =>
          el("option", { value: b, text: `${b} bots`,
            selected: b === (stored("me").bots || this.defaultBot || "heuristic") })));
      const start = el("button", { type: "button", id: "start", class: "primary", text: "Start the match",
        disabled: empty.length > 0, onclick: () => this.link.send({ type: "start" }) });
      const fill = el("button", { type: "button", id: "fill-start", class: "primary",
        text: `Fill ${empty.length === 1 ? "the empty seat" : `the ${empty.length} empty seats`} with bots and start`,
        onclick: () => {
          store("me", { bots: level.value });
          for (const seat of empty) this.link.send({ type: "fill", seat, bot: level.value });
          this.link.send({ type: "start" });
        } });
      bits.push(el("div", { class: "start-row" }, start, ...(empty.length ? [fill, level] : [])));
    } else {
      bits.push(el("p", { class: "note", text: "The host starts the match once every seat is taken." }));
    }
    if (!this.seat && this.player) {
      bits.push(el("p", { class: "name-row", "data-testid": "sit-as" }, "You sit as ",
        this.player.profile ? el("a", { href: this.player.profile, text: this.player.name }) : shownName(this.player),
        "."));
    } else if (!this.seat) {
      const name = this.main.querySelector("#my-name");
      bits.push(el("p", { class: "name-row" }, el("label", { for: "my-name", text: "Your name" }),
        el("input", { id: "my-name", type: "text", maxlength: "40", autocomplete: "nickname",
          value: name ? name.value : stored("me").name || "" }),
        el("a", { href: "/account", class: "sign-in", text: "or sign in" })));
    }
    bits.push(this.seatsBox, this.invite);
    this.waiting.replaceChildren(...bits);
    this.renderInvite(s);
  }

  roomHeadText(s) {
    const r = s.room;
    const who = this.seat ? `You sit ${this.seat}.` : "You are watching.";
    const size = r.partnership === false ? ` · ${r.players} players, each for himself` : "";
    const packs = r.rules && r.rules.decks === 2 ? " · two decks" : "";
    this.roomHead.textContent = `${r.rules_name} to ${r.target}${size}${packs} · ${r.status.replace("-", " ")} · ${who}`;
    return this.roomHead;
  }

  renderInvite(s) {
    const link = new URL(`/rooms/${s.room.code}`, location.href).href;
    const copy = el("button", { type: "button", id: "copy-link", text: "Copy invite link", onclick: async () => {
      try {
        await navigator.clipboard.writeText(link);
        this.say("The invite link is copied.");
      } catch {
        this.say(`The invite link: ${link}`);
      }
    } });
    this.invite.replaceChildren(el("span", { text: "Invite: " }), el("a", { href: link, id: "invite-link", text: link }), " ", copy);
  }

  // ---- the felt: every seat round the trick
  renderBoard(s) {
    const d = s.deal;
    const where = this.places();
    const trick = this.renderTrick(s, where);
    const lastButton = d && d.tricks.length && d.phase === "play" ? el("button", { type: "button", id: "last-trick",
      class: "last-trick", "aria-pressed": String(this.showLast), text: this.showLast ? "Back to this trick" : "Last trick",
      onclick: () => { this.showLast = !this.showLast; this.render(); } }) : "";
    const contract = el("p", { class: "contract" });
    if (d && d.trump) {
      contract.append(`${d.maker} bid ${d.bid}, trumps ${SUIT_NAMES[d.trump]} `,
        el("span", { class: `suit suit-${d.trump}`, text: SUITS[d.trump] }), ` (${trumpNote(d.trump)})`);
    } else if (d && d.maker) {
      contract.textContent = `${d.maker} bid ${d.bid}: naming trumps`;
    } else if (d && d.phase === "bidding") {
      const high = [...d.auction].reverse().find((a) => a.call !== "pass");
      contract.textContent = high ? `Bidding: ${high.seat} bid ${high.call.split(" ")[1]} so far` : "Bidding: no bid yet";
    }
    this.board.classList.toggle("cut-throat", !this.partnership());
    this.board.dataset.players = String(s.room.seats.length);
    const top = el("div", { class: "felt-top" }, contract, lastButton);
    if (this.partnership()) {
      this.board.replaceChildren(top, this.seatBox(s, "top", where), this.seatBox(s, "left", where), trick,
        this.seatBox(s, "right", where), this.seatBox(s, "bottom", where));
    } else { // the seats across the top first, then left, the trick, right and you: the reading order
      const order = ["top-left", "top", "top-right", "left"].filter((pos) => where[pos]);
      this.board.replaceChildren(top, ...order.map((pos) => this.seatBox(s, pos, where)), trick,
        ...(where.right ? [this.seatBox(s, "right", where)] : []), this.seatBox(s, "bottom", where));
    }
  }

  /** One seat on the felt: its hand as card backs with their count, its name and kind, the dealer's button,
   * the maker's bid and trumps, and what it is doing; for a screen reader the same in one line. */
  seatBox(s, pos, where) {
    const d = s.deal;
    const seat = where[pos];
    const info = s.room.seats.find((x) => x.seat === seat);
    const acting = d && d.to_act === seat && this.playing();
    const mine = seat === this.seat;
    const box = el("div", { class: `seat ${pos}${acting ? " to-act" : ""}${mine ? " mine" : ""}`, "data-seat": seat,
      "data-place": pos });
    const held = d ? d.hand_sizes[seat] : 0;
    if (d && !mine && held > 0) {
      const backs = el("span", { class: "backs", "aria-hidden": "true" });
      for (let i = 0; i < Math.min(held, BACKS_SHOWN); i += 1) backs.append(el("span", { class: "back" }));
      backs.append(el("span", { class: "count", text: String(held) }));
      box.append(backs);
    }
    const facts = [];
    if (info.kind === "bot" || info.kind === "substitute") facts.push(`${KIND_WORDS[info.kind]}${info.bot ? ` (${info.bot})` : ""}`);
    if (info.kind === "human" && !info.connected) facts.push("away");
    const badges = el("span", { class: "badges", "aria-hidden": "true" });
    if (d) {
      facts.push(cardsWord(held));
      const calls = d.auction.filter((a) => a.seat === seat);
      const last = calls.length ? calls[calls.length - 1].call : null;
      if (last) facts.push(last === "pass" ? "passed" : last);
      if (d.dealer === seat) {
        facts.push("dealer");
        badges.append(el("span", { class: "dealer-button", title: "dealer", text: "D" }));
      }
      if (d.maker === seat) {
        facts.push(d.trump ? `maker, ${d.bid} in ${SUIT_NAMES[d.trump]}` : `maker, bid ${d.bid}, naming trumps`);
        const badge = el("span", { class: "maker-badge", title: "maker" }, String(d.bid));
        if (d.trump) badge.append(" ", el("span", { class: `suit suit-${d.trump}`, text: SUITS[d.trump] }));
        badges.append(badge);
      } else if (d.phase === "bidding" && last) {
        badges.append(el("span", { class: `call-badge${last === "pass" ? " passed" : ""}`, text: last === "pass" ? "pass" : last.split(" ")[1] }));
      }
    }
    if (s.match && !this.partnership()) {
      const points = s.match.score[seat];
      facts.push(`${points} point${points === 1 ? "" : "s"}`);
      badges.append(el("span", { class: "points-badge", text: `${points}` }));
    }
    const clock = s.clocks[seat];
    if (clock) facts.push(`${Math.round(clock.used)} s`);
    const partner = this.seat && this.partnership() && seat === partnerOf(this.seat);
    const name = el("span", { class: "seat-name" }, el("span", { class: "name", text: mine ? `${info.name || seat} (you)` : info.name || "empty" }),
      el("span", { class: "sub", text: `${seat}${partner ? " · partner" : ""}` }));
    const plate = el("span", { class: "plate" }, name, badges);
    box.append(plate, el("span", { class: "seat-facts sr-only", text: facts.join(" · ") }));
    if (acting) box.append(el("span", { class: "turn doing", text: this.doingWords(d, seat) }));
    return box;
  }

  doingWords(d, seat) {
    if (d.phase === "play") {
      if ((d.legal || []).includes("waive") && seat === this.seat) return "Claim or waive";
      const lead = !d.trick.plays.length;
      if (seat === this.seat) return lead ? "Your lead" : "Your card";
      return lead ? "to lead" : "to play";
    }
    if (seat === this.seat && YOUR_TURN[d.phase]) return YOUR_TURN[d.phase];
    return `${DOING[d.phase] || d.phase}…`;
  }

  /** The trick: each card in front of the seat that played it. A trick just won stays whole with its winner
   * marked, then slides to the winner; at the end of a deal the last trick lies there, won. */
  renderTrick(s, where) {
    const d = s.deal;
    const trick = el("div", { class: "trick", id: "trick", role: "group", "aria-label": "The trick" });
    if (!d) return trick;
    let plays = d.trick.plays;
    let leader = d.trick.leader;
    let winner = null;
    let showing = "current";
    let caption = "";
    if (this.showLast && d.tricks.length) {
      const t = d.tricks[d.tricks.length - 1];
      [plays, leader, winner, showing] = [t.plays, t.leader, t.winner, "last"];
      caption = `Last trick: ${leader} led, ${t.winner} won it.`;
    } else if (this.linger && !d.trick.plays.length) {
      const t = this.linger.trick;
      [plays, leader, winner, showing] = [t.plays, t.leader, t.winner, "won"];
      caption = `${this.seatTitle(t.winner)} wins trick ${this.linger.number}.`;
      if (this.linger.gathering) trick.classList.add("gather");
    } else if (d.phase === "done" && d.tricks.length) {
      const t = d.tricks[d.tricks.length - 1];
      [plays, leader, winner, showing] = [t.plays, t.leader, t.winner, "won"];
      caption = `${this.seatTitle(t.winner)} won the last trick.`;
    } else if (d.phase === "play") {
      const n = d.tricks.length + 1;
      caption = !plays.length ? `Trick ${n}: ${d.to_act ? `${this.seatName(d.to_act)} to lead` : "the lead"}.`
        : `Trick ${n}: ${leader} led.`;
    } else if (d.phase !== "done") {
      caption = d.phase === "bidding" ? "The bidding." : d.phase === "trump" ? "Naming trumps." : `The ${d.phase}.`;
    }
    trick.dataset.showing = showing;
    if (winner) trick.dataset.winner = winner;
    const seen = new Set();
    for (const [pos, seat] of Object.entries(where)) {
      const p = plays.find((x) => x.seat === seat);
      const spot = el("div", { class: `spot ${pos}${winner === seat ? " won" : ""}`, "data-seat": seat });
      if (p) {
        const card = cardElement(p.card, { trump: d.trump,
          label: `${seat} played ${cardName(p.card, d.trump)}${winner === seat ? ", the winning card" : ""}` });
        const key = `${seat} ${p.card}`;
        seen.add(key);
        if (showing === "current" && !this.catchingUp && !this.onTable.has(key) && !reducedMotion()) card.classList.add("arrive");
        spot.append(card);
        if (p.seat === leader && plays.length > 1) spot.append(el("span", { class: "led", text: "led", "aria-hidden": "true" }));
      }
      trick.append(spot);
    }
    if (showing === "current") this.onTable = seen;
    trick.append(el("p", { class: "trick-caption", text: caption }));
    return trick;
  }

  // ---- your hand
  legal() {
    const d = this.state && this.state.deal;
    if (!d || !this.seat || d.to_act !== this.seat || this.state.room.status !== "playing") return [];
    return d.legal || [];
  }

  keeping() {
    const d = this.state.deal;
    return !!(d && d.keep && this.seat && d.to_act === this.seat && this.playing());
  }

  renderHand(s) {
    const d = s.deal;
    this.handBox.replaceChildren();
    this.handBox.classList.toggle("empty", !(d && this.seat && d.hand && d.hand.length));
    if (!d || !this.seat || !d.hand) {
      this.handBox.append(el("p", { class: "hand-note", text: this.seat ? "Waiting for the deal." : "Watching: the hands are hidden." }));
      return;
    }
    if (!d.hand.length) return;
    const legal = this.legal();
    const plays = new Map();
    for (const a of legal) if (a.startsWith("play ")) {
      const card = a.split(" ")[1];
      plays.set(card, [...(plays.get(card) || []), a]);
    }
    const keeping = this.keeping();
    if (keeping) this.keepSetUp(d);
    const hand = sortHand(d.hand, d.trump);
    // The honour rule: a card the follow rule forbids may still be played on purpose, as a revoke.
    const revokes = new Set(legal.length ? (d.irregular || []).filter((a) => a.startsWith("play ")).map((a) => a.split(" ")[1]) : []);
    const row = el("div", { class: "cards fan", role: "group", "aria-label": `Your hand, ${hand.length} cards` });
    const hinted = this.hint && this.hint.action.startsWith("play ") ? this.hint.action.split(" ")[1] : null;
    const myPlay = d.phase === "play" && d.to_act === this.seat && this.playing();
    hand.forEach((card, i) => {
      const playable = plays.has(card);
      let label = `${cardName(card, d.trump)}${copyWords(hand, i)}${playable ? ", playable" : revokes.has(card) ? ", a revoke (honour rule)" : ""}`;
      const place = keeping ? this.keepPool.findIndex((c, at) => c === card && copyNumber(this.keepPool, at) === copyNumber(hand, i)) : -1;
      if (place >= 0) label += this.keep.has(place) ? ", kept" : ", thrown";
      const b = cardElement(card, { trump: d.trump, button: true, label });
      b.dataset.index = String(i + 1);
      if (myPlay) {
        if (playable) b.classList.add("legal");
        else if (revokes.has(card)) b.classList.add("irregular");
        else b.disabled = true;
      }
      if (place >= 0) {
        b.classList.add(this.keep.has(place) ? "kept" : "thrown");
        b.setAttribute("aria-pressed", String(this.keep.has(place)));
        b.addEventListener("click", () => this.toggleKeep(place));
      } else if (!keeping) {
        b.addEventListener("click", () => (revokes.has(card) ? this.revoke(card) : this.pickCard(card, plays, i)));
      }
      if (this.selected === i) b.classList.add("selected");
      if (card === hinted && hand.indexOf(card) === i) b.classList.add("hinted"); // (a card held twice: the first)
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
      this.say(`${cardText(card)} cannot be played now.`, "error");
      return;
    }
    if (this.linger) { // your lead: the trick just won is gathered at once
      this.endLinger();
    }
    if (choices.length === 1) {
      this.act(choices[0]);
      return;
    }
    // Trick 1 under the buried excess: the card, then which cards go under it.
    this.selected = at;
    this.decision.replaceChildren(el("div", { class: "panel-row" }, el("p", { class: "ask-line", text: `Play ${cardText(card)} and bury:` }),
      ...choices.map((a) => el("button", { type: "button", class: "choice", "data-action": a, text: a.replace(/^play \S+ bury /, "bury "),
        onclick: () => this.act(a) }))));
    this.decision.hidden = false;
  }

  // ---- the decision: a panel just above the hand
  renderDecision(s) {
    const d = s.deal;
    this.decision.replaceChildren();
    this.decision.className = "decision";
    const mine = d && this.seat && d.to_act === this.seat && this.playing();
    const hintButton = () => (s.room.hints ? el("button", { type: "button", id: "hint", class: "hint-button",
      "aria-keyshortcuts": "?", text: "Hint (?)", onclick: () => this.link.send({ type: "hint" }) }) : "");
    if (!mine) {
      this.decision.hidden = true;
      if (d && this.playing() && d.to_act) {
        this.decision.hidden = false;
        this.decision.classList.add("quiet");
        this.decision.append(el("p", { class: "waiting sr-only", text: `Waiting for ${d.to_act}…` }));
      }
      return;
    }
    this.decision.hidden = false;
    if (d.legal.includes("waive")) {
      // The honour rule: you are asked about another seat's irregularity: claim it, or let it stand.
      const open = (d.irregularities || []).filter((x) => / (revoked on trick|bid out of turn|out of turn to trick)/.test(x)
        && !/: (claimed|waived)\.$/.test(x));
      const box = el("div", { class: "claims choices", role: "group", "aria-label": "Claim or waive" });
      for (const a of d.legal) {
        box.append(el("button", { type: "button", class: "choice", "data-action": a,
          text: a === "waive" ? "Waive (let it stand)" : a.replace(/^claim /, "Claim the ").replace(/ trumps$/, ", require a trump lead").replace(/ no-trumps$/, ", forbid a trump lead"),
          onclick: () => this.act(a) }));
      }
      // (its cards as the log and the hand show them, 8♦, not the server's 8D)
      const said = (open.length ? open[open.length - 1] : "An irregularity was committed.").replace(/\b[2-9TJQKA][SHDC]\b/g, cardText);
      this.decision.append(el("p", { id: "asked", class: "ask-line", text: `${said} Claim it, or waive it:` }), box);
      return;
    }
    if (d.phase === "bidding") {
      const box = el("div", { class: "bidding choices", role: "group", "aria-label": "Your bid" });
      for (const a of d.legal) {
        box.append(el("button", { type: "button", class: `choice${a === "pass" ? " pass" : ""}`, "data-action": a,
          text: a === "pass" ? "Pass" : a.replace("bid ", "Bid "), onclick: () => this.act(a) }));
      }
      this.decision.append(el("div", { class: "panel-head" }, el("p", { class: "ask-line" }, "Your bid", el("span", { class: "keys-hint", text: " (type the number, or p to pass)" })), hintButton()), box);
    } else if (d.phase === "trump") {
      const box = el("div", { class: "trumps choices", role: "group", "aria-label": "Name trumps" });
      for (const a of d.legal) {
        const suit = a.split(" ")[1];
        const { count: n, pedros } = trumpsIf(d.hand, suit);
        const words = `${SUIT_NAMES[suit]} ${SUITS[suit]}: ${n} trump${n === 1 ? "" : "s"}` +
          (pedros.length ? `, ${pedros.join(" and ")}` : ", no Pedro");
        box.append(el("button", { type: "button", class: `choice suit-${suit}`, "data-action": a, text: words,
          onclick: () => this.act(a) }));
      }
      this.decision.append(el("div", { class: "panel-head" }, el("p", { class: "ask-line" }, "Name trumps", el("span", { class: "keys-hint", text: " (s, h, d or c)" })), hintButton()), box);
    } else if (d.keep) {
      this.renderKeep(d, hintButton);
    } else if (d.phase === "discard" || d.phase === "rob") {
      const box = el("div", { class: "choices" });
      for (const a of d.legal) {
        box.append(el("button", { type: "button", class: "choice", "data-action": a, text: trumpStars(a),
          onclick: () => this.act(a) }));
      }
      this.decision.append(el("p", { class: "ask-line", text: d.phase === "rob" ? "Rob the pack:" : "Your discard:" }), box);
    } else if (d.phase === "play") {
      const revokes = (d.irregular || []).some((a) => a.startsWith("play "));
      this.decision.classList.add("slim");
      this.decision.append(el("div", { class: "panel-head" }, el("p", { class: "ask-line" },
        `${d.trick.plays.length ? "Your card" : "Your lead"}: tap one of the raised cards`,
        el("span", { class: "keys-hint", text: ", or ←/→ and Enter" }),
        revokes ? " (the greyed cards with a dashed border are revokes: Shift+←/→ reaches them too, and they ask first)" : "", "."),
      hintButton()));
    }
  }

  keepSetUp(d) {
    const k = d.keep;
    // A card in the pool twice (two decks) has two places: the first ones it holds in the hand, then the stock's.
    this.keepPool = sortHand(k.pool, d.trump);
    if (!this.keep) {
      const hinted = this.hint && this.hint.action.startsWith("keep ") ? this.hint.action : k.suggestion;
      this.keep = placesOf(this.keepPool, hinted);
    }
  }

  toggleKeep(i) {
    const k = this.state.deal.keep;
    const card = this.keepPool[i];
    const kept = this.keep.has(i);
    if (kept && this.keptCards().filter((c) => c === card).length <= count(k.must, card)) {
      this.say(count(k.must, card) > 1 ? `Both ${cardText(card)} must be kept.` : `${cardText(card)} must be kept.`, "error");
      return;
    }
    if (kept) this.keep.delete(i);
    else this.keep.add(i);
    this.render();
  }

  renderKeep(d, hintButton) {
    const k = d.keep;
    this.keepSetUp(d);
    const pool = this.keepPool;
    const check = this.keepProblem(k, d.trump);
    const row = el("div", { class: "cards keep fan", role: "group", "aria-label": "Cards to keep" });
    pool.forEach((card, i) => {
      const kept = this.keep.has(i);
      const inHand = copyNumber(pool, i) <= count(d.hand, card);
      const b = cardElement(card, { trump: d.trump, button: true,
        label: `${cardName(card, d.trump)}${copyWords(pool, i)}, ${inHand ? "in your hand" : "from the stock"}, ${kept ? "kept" : "thrown"}` });
      b.setAttribute("aria-pressed", String(kept));
      b.dataset.place = String(i);
      b.classList.add(kept ? "kept" : "thrown");
      if (!inHand) b.classList.add("from-stock");
      b.addEventListener("click", () => this.toggleKeep(i));
      row.append(b);
    });
    const confirm = el("button", { type: "button", id: "confirm-keep", class: "primary", disabled: !!check,
      text: `Keep ${this.keep.size}`, onclick: () => this.act(["keep", ...this.keptCards()].join(" ")) });
    const reset = el("button", { type: "button", text: "Back to the suggestion", onclick: () => {
      this.keep = placesOf(pool, k.suggestion); this.render(); } });
    this.decision.classList.add("keeping");
    this.decision.append(el("p", { class: "rule", text: `The rule: ${trumpStars(k.rule)}.` }), row,
      el("div", { class: "panel-row" }, el("p", { id: "keep-status", role: "status", class: check ? "keep-status bad" : "keep-status",
        text: check || `Keeping ${this.keep.size}: a legal hand.` }), confirm, reset, hintButton()));
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

  // ---- the menu: the room, the score and the log
  renderSide(s) {
    const r = s.room;
    this.roomHeadText(s);
    if (r.status !== "waiting") this.renderInvite(s);
    this.renderLinks(s);
    const score = this.side.querySelector("#score");
    if (s.match) {
      const me = this.seat ? this.sideOf(this.seat) : null;
      const sides = r.sides || ["NS", "EW"];
      const named = (side) => { // a cut-throat side is one player: his name too
        const info = this.partnership() ? null : r.seats.find((x) => x.seat === side);
        return info && info.name ? `${side} · ${info.name}` : side;
      };
      const line = (side) => el("p", { class: "team", "data-side": side,
        text: `${named(side)}${side === me ? " (you)" : ""}: ${s.match.score[side]}` });
      score.replaceChildren(...sides.map(line), el("p", { text: `Target ${s.match.target} · deal ${s.match.deals}` }));
    } else {
      score.replaceChildren(el("p", { text: "The match has not started." }));
    }
    this.logBox.replaceChildren(...this.logLines.map((line) => el("li", { text: trumpStars(line) })));
    this.logBox.scrollTop = this.logBox.scrollHeight;
  }

  /** Finding the game again: the room's record, its replay, and each finished deal's replay and analysis. */
  renderLinks(s) {
    const id = s.room.match_id;
    const items = [];
    if (id !== null && id !== undefined) {
      items.push(el("li", {}, el("a", { href: `/rooms/${s.room.code}/record`, id: "record-link", text: "The record (cinch/1 JSON)" })));
      items.push(el("li", {}, el("a", { href: `/replay?game=${id}`, id: "replay-link", text: `Replay this match (game ${id})` })));
      const finished = s.match ? s.match.deals - (s.room.status === "playing" ? 1 : 0) : 0;
      for (let n = 1; n <= finished; n += 1) {
        items.push(el("li", { class: "deal-links" }, `Deal ${n}: `,
          el("a", { href: this.replayUrl(n), text: "replay" }), " · ",
          el("a", { href: this.replayUrl(n, true), text: "analyse" })));
      }
    }
    this.links.replaceChildren(...items);
    this.links.hidden = !items.length;
  }

  replayUrl(deal, analyse = false) {
    return `/replay?game=${this.state.room.match_id}&deal=${deal}&step=0${analyse ? "&analyse=1" : ""}`;
  }

  // ---- the end of a deal, and of the match
  renderDealEnd(s) {
    const last = s.match && s.match.last_deal;
    const d = s.deal;
    const show = last && (s.room.status === "between-deals" || s.room.status === "over") && d && d.phase === "done";
    this.overlay.hidden = !show;
    this.main.classList.toggle("deal-over", !!show);
    if (!show) {
      this.shownEnd = null;
      return;
    }
    const promised = this.sameDeal(this.promised, s) ? this.promised.commitment : d.commitment;
    const key = `${s.room.match_id} ${last.number} ${s.seq} ${this.seat} ${promised}`;
    const fresh = this.shownEnd !== key;
    this.shownEnd = key;
    const partnership = this.partnership();
    const whom = (side) => (partnership ? side : this.seatTitle(side));
    const winner = s.match.winner;
    const title = winner ? (partnership ? `${winner} win the match`
      : `${winner === this.seat ? "You win" : `${this.seatTitle(winner)} wins`} the match`)
      : this.dealHeadline(last);
    const cards = el("div", { class: "end-cards" });
    if (last.awards.length) {
      // Each point card once: with two decks both copies of a card taken by the same side share a row ("×2").
      const rows = [];
      const same = new Map();
      for (const a of last.awards) {
        const key = `${a.name} ${a.card} ${a.team} ${a.how}`;
        const row = same.get(key);
        if (row) {
          row.copies += 1;
          row.points += a.points;
        } else {
          same.set(key, { ...a, copies: 1 });
          rows.push(same.get(key));
        }
      }
      const lines = rows.map((a) => {
        const took = el("td", { text: whom(a.team) });
        if (a.how && a.how !== "captured") took.append(el("span", { class: "how", text: ` (${a.how})` }));
        const card = el("td", { class: "award-card" }, cardChip(a.card, last.trump));
        if (a.copies > 1) card.append(el("span", { class: "copies", text: ` ×${a.copies}` }));
        return el("tr", { class: `award suit-${a.card[1]}` }, el("td", { text: a.name }), card, took,
          el("td", { class: "num", text: String(a.points) }));
      });
      cards.append(el("table", { class: "awards" }, el("caption", { text: "Who took each point card" }),
        el("thead", {}, el("tr", {}, ...["Point", "Card", partnership ? "Side" : "Player", "Points"].map((h) => el("th", { scope: "col", text: h })))),
        el("tbody", {}, ...lines)));
    }
    const score = el("div", { class: "end-score" }, this.settlement(s, last));
    // The words the table adds: the settlement's reasons, the point cards nobody scored, the honour rule's rulings
    // (the point cards, the points and the score are in the tables above).
    const extra = last.words.filter((w) => w && !/^Deal \d+ is over\.$/.test(w) && w !== "Point cards:"
      && !/^ {2}(?!Not in play)/.test(w) && !/^(Points taken|Score): /.test(w));
    if (extra.length) score.append(el("div", { class: "words" }, ...extra.map((w) => el("p", { text: trumpStars(w.trim()) }))));
    const rest = el("div", { class: "end-rest" });
    if (d.tricks.length) {
      const t = d.tricks[d.tricks.length - 1];
      rest.append(el("div", { class: "last-trick-mini", role: "group", "aria-label": `The last trick, won by ${this.seatTitle(t.winner)}` },
        el("span", { class: "mini-title", text: `Last trick, won by ${t.winner === this.seat ? "you" : this.seatTitle(t.winner)}:` }),
        ...t.plays.map((p) => el("span", { class: `mini-play${p.seat === t.winner ? " won" : ""}` },
          cardElement(p.card, { trump: d.trump, label: `${p.seat} played ${cardName(p.card, d.trump)}` }), el("span", { text: p.seat })))));
    }
    let fair = this.overlay.querySelector("#fairness"); // (the same end drawn again keeps the shuffle's answer)
    if (fresh || !fair) fair = el("p", { class: "fair", id: "fairness", text: "Checking the shuffle…" });
    if (d.reveal) rest.append(fair);
    if (s.room.match_id !== null && s.room.match_id !== undefined) {
      rest.append(el("p", { class: "end-links" }, el("a", { href: this.replayUrl(last.number), id: "replay-deal", text: `Replay deal ${last.number}` }),
        el("a", { href: this.replayUrl(last.number, true), id: "analyse-deal", text: "Analyse it" })));
    }
    rest.append(...this.nextControls(s));
    this.overlay.replaceChildren(el("h2", { id: "deal-end-title", text: title }), cards, score, rest);
    if (fresh && d.reveal) {
      verify({ ...d, commitment: promised }).then((ok) => {
        fair.dataset.verified = String(ok);
        fair.classList.toggle("bad", ok === false);
        fair.textContent = ok === null ? "The shuffle can be checked only over https or on this machine."
          : ok ? "Fair shuffle: the deck is the one promised before the first bid, and it follows from every seat's entropy."
            : "Warning: the revealed deck is not the one promised before the first bid.";
      });
    }
  }

  /** "Deal 3: EW bid 9 and were set", "Deal 2: thrown in". */
  dealHeadline(last) {
    if (last.thrown_in || last.points === null) return `Deal ${last.number}: thrown in`;
    const makers = this.sideOf(last.maker);
    const who = this.partnership() ? makers : this.seatName(last.maker);
    const plural = this.partnership() || last.maker === this.seat;
    return `Deal ${last.number}: ${who} bid ${last.bid} and ${last.made ? "made it" : plural ? "were set" : "was set"}`;
  }

  /** The bid against the points taken, and each side's change and score, as a small table. */
  settlement(s, last) {
    const sides = s.room.sides || ["NS", "EW"];
    const me = this.seat ? this.sideOf(this.seat) : null;
    const makers = last.maker ? this.sideOf(last.maker) : null;
    const rows = sides.map((side) => {
      const name = this.partnership() ? side : this.seatTitle(side);
      const tag = side === makers ? ` · bid ${last.bid}${last.made ? ", made" : ", set"}` : "";
      const took = last.points ? String(last.points[side]) : "–";
      const change = last.score_change[side];
      return el("tr", { class: `${side === me ? "mine" : ""}${side === makers ? " makers" : ""}`.trim(), "data-side": side },
        el("th", { scope: "row", text: `${name}${tag}` }), el("td", { class: "num", text: took }),
        el("td", { class: `num ${change < 0 ? "down" : change > 0 ? "up" : ""}`.trim(), text: signed(change) }),
        el("td", { class: "num total", text: String(last.score[side]) }));
    });
    return el("table", { class: "settle" }, el("caption", { class: "sr-only", text: "The points and the score" }),
      el("thead", {}, el("tr", {}, ...["", "Took", "Change", `Score (to ${s.match.target})`].map((h) => el("th", { scope: "col", text: h })))),
      el("tbody", {}, ...rows));
  }

  /** Next (or Rematch) and whom the table still waits for. */
  nextControls(s) {
    const r = s.room;
    const out = [];
    if (s.match.winner) {
      if (this.seat || this.host) out.push(el("button", { type: "button", id: "rematch", class: "primary", text: "Rematch",
        onclick: () => this.link.send({ type: "rematch" }) }));
      return out;
    }
    const people = r.seats.filter((x) => x.kind === "human");
    const ready = new Set(r.ready || []);
    const waitingFor = people.filter((x) => !ready.has(x.seat)).map((x) => (x.seat === this.seat ? "you" : x.name || x.seat));
    const timer = people.length >= 2 && r.between_deals > 0;
    let words = waitingFor.length ? `Waiting for ${listed(waitingFor)} to press Next` : "Dealing the next deal";
    if (timer) words += `, or ${Math.round(r.between_deals)} s`;
    out.push(el("p", { class: "waiting-for", id: "waiting-for", role: "status", text: `${words}.` }));
    if (this.seat) {
      const done = ready.has(this.seat);
      out.push(el("button", { type: "button", id: "ready", class: "primary", text: done ? "Ready: waiting for the others" : "Next deal",
        "aria-keyshortcuts": "Enter", disabled: done, onclick: () => this.link.send({ type: "ready" }) }));
    }
    return out;
  }

  // ---- keys: the same as the terminal table
  key(e) {
    if (e.key === "Escape" && this.menuOpen()) { // (the menu closes, and the focus goes back to its button)
      this.toggleMenu(false);
      this.menuButton.focus();
      return;
    }
    // (while the revoke dialog is open its own buttons take Enter, and Escape closes it)
    if (!this.state || this.revokeBox.open || e.target.closest("input, select, textarea")) return;
    const d = this.state.deal;
    const legal = this.legal();
    const keeping = d && this.keeping();
    if (e.key === "?" && this.state.room.hints && (legal.length || keeping)) {
      this.link.send({ type: "hint" });
    } else if (e.key === "l" && d && d.tricks.length && d.phase === "play") {
      this.showLast = !this.showLast;
      this.render();
    } else if (!legal.length) {
      if (e.key === "Enter" && !this.overlay.hidden) {
        const b = this.overlay.querySelector("#ready:enabled, #rematch");
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
        else this.say(`You cannot bid ${this.bidText} now: the bids you may make are ${legal.join(", ")}.`, "error");
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
        else if (b) this.say(`${cardText(b.dataset.card)} cannot be played now.`, "error");
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
