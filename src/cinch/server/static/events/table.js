// An event's table (/events/table/CODE, a seat's link adds ?seat=N): the room's table (../table.js) with what an
// event's table adds. Before the start, the waiting room: a player takes an empty seat (a seat's link takes that
// one at once), a visitor who is nobody yet plays as a guest first, the host fills seats with bots and starts the
// event on its page. Then the event's boards one after another; after each board its traveller in the box that ends
// it (every table's result so far) and the ranking as far as you have played; after the last, the event's page.

import { BoardsView } from "../boards.js";
import { fourColour } from "../cards.js";
import { eventRanking, eventTraveller } from "../duplicate.js";
import { el } from "../lobby.js";
import { becomeGuest } from "../players/session.js";

class EventView extends BoardsView {
  constructor(main, code, wantedSeat) {
    super(main, code);
    this.wantedSeat = wantedSeat; // (a seat's link: that seat is taken as soon as the page knows its player)
  }

  boardsInfo() {
    return (this.state && this.state.room.event) || {};
  }

  get travellerMessage() { return "event"; }

  took(m) {
    this.ranking = m.ranking;
  }

  travellerSection(t) { return eventTraveller(t); }

  /** An event's line is the viewer's when one of its pairs is theirs (its `mine` says which side). */
  mineOf(t) {
    const side = this.seat ? this.sideOf(this.seat) : null;
    return t.results.find((line) => line.mine && line.mine === side) || null;
  }

  matchpointsOf(line) {
    return line.mine === "EW" ? [line.ew_matchpoints, line.top, line.ew_percent] : [line.matchpoints, line.top, line.percent];
  }

  home() { return this.boardsInfo().link || "/events"; }

  receive(m) {
    super.receive(m);
    if (m.type === "welcome" && this.wantedSeat && !m.seat) this.sitWanted = true;
    if (m.type === "state" && this.sitWanted && this.player && !this.seat) {
      const place = m.room.seats.find((x) => x.seat === this.wantedSeat);
      this.sitWanted = false;
      if (place && place.kind === "empty" && m.room.status === "waiting") this.sitDown(this.wantedSeat, "join");
    }
  }

  render() {
    const e = this.boardsInfo();
    this.title.replaceChildren(el("span", { class: "room-word", text: "Table " }), `${e.table || ""} · ${e.name || `event ${e.id || ""}`}`);
    document.title = `Cinch: ${e.name || `event ${e.id || ""}`}, table ${e.table || ""}`;
    super.render();
  }

  roomHeadText(s) {
    const e = this.boardsInfo();
    const who = this.seat ? `You sit ${this.seat}.` : "You are watching.";
    const where = s.room.status === "waiting" ? "waiting for the host to start" : `board ${e.board} of ${e.boards}`;
    this.roomHead.textContent = `Table ${e.table} of ${e.tables} · ${s.room.rules_name} · ${where}. ${who}`;
    return this.roomHead;
  }

  renderInvite(s) {
    const link = new URL(s.room.link, location.href).href;
    this.invite.replaceChildren(el("span", { text: "This table: " }), el("a", { href: link, id: "invite-link", text: link }), " · ",
      el("a", { href: this.boardsInfo().link, id: "event-link", text: "The event: its tables, ranking and travellers" }));
  }

  renderWaitingRoom(s) {
    super.renderWaitingRoom(s);
    const startRow = this.waiting.querySelector(".start-row");
    if (startRow) {
      startRow.replaceWith(el("p", { class: "note start-row" }, "Every table starts together: ",
        el("a", { href: this.boardsInfo().link, text: "start the event on its page" }), "."));
    } else {
      const note = this.waiting.querySelector("p.note");
      if (note) note.textContent = "The host starts every table of the event together, once every seat is taken.";
    }
    const nameRow = this.waiting.querySelector(".name-row");
    if (nameRow && !this.player && !this.seat) nameRow.replaceWith(this.guestForm());
  }

  /** Somebody who is nobody yet: a seat at an event is a player's, so first a guest's name (or a sign-in). */
  guestForm() {
    const input = el("input", { id: "guest-name", type: "text", maxlength: "40", autocomplete: "nickname", required: true });
    const error = el("p", { class: "error", role: "alert", hidden: true });
    const form = el("form", { class: "guest-row name-row", id: "guest-form" },
      el("label", { for: "guest-name", text: "Your name" }), input,
      el("button", { type: "submit", class: "primary", text: "Play as a guest" }),
      el("a", { href: "/account", class: "sign-in", text: "or sign in" }), error);
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      try {
        await becomeGuest(input.value.trim()); // (the page's player changes: the table opens again as them)
      } catch (err) {
        error.textContent = err.message;
        error.hidden = false;
      }
    });
    return form;
  }

  nextControls(s) {
    const e = this.boardsInfo();
    if (s.room.status === "over") {
      const r = this.ranking;
      const table = this.seat ? "Your table" : "This table";
      const words = e.final || (r && r.final) ? "The event is over: the final ranking is on its page."
        : `${table} has played every board: the ranking is on the event's page as the other tables finish.`;
      const out = [el("p", { class: "session", id: "session", role: "status", text: words })];
      if (r && this.seat) out.push(eventRanking(r));
      out.push(el("a", { href: e.link, id: "to-event", class: "button primary", text: "The event's page" }));
      return out;
    }
    const out = super.nextControls(s);
    const ready = out.find((x) => x.id === "ready");
    if (ready && !ready.disabled) ready.textContent = `Next: board ${e.board + 1} of ${e.boards}`;
    return out;
  }
}

function start() {
  const main = document.getElementById("main");
  fourColour(document.getElementById("four-colour"));
  const code = decodeURIComponent(location.pathname.split("/")[3] || "").toUpperCase();
  const wanted = new URLSearchParams(location.search).get("seat");
  main.dataset.view = "table";
  window.cinchTable = new EventView(main, code, ["N", "E", "S", "W"].includes(wanted) ? wanted : null);
}

start();
