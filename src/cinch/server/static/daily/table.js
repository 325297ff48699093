// A daily set's table (/daily/play/PRESET): the room's table (../table.js) with what a daily table adds: you sit
// South with three bots, one board at a time; after each board its traveller in the box that ends it, and after the
// last your session's score and rank. The seat's token comes from POST /api/daily/PRESET/play (the same for the
// same player all day), so that a reload, or another device signed in as you, goes on where you left.

import { BoardsView } from "../boards.js";
import { fourColour } from "../cards.js";
import { sessionWords, travellerSection } from "../duplicate.js";
import { el } from "../lobby.js";
import { store } from "../net.js";
import { api, whoAmI } from "../players/session.js";

class DailyView extends BoardsView {
  boardsInfo() {
    return (this.state && this.state.room.daily) || {};
  }

  get travellerMessage() { return "daily"; }

  took(m) {
    if (m.session) this.session = m.session;
  }

  travellerSection(t) { return travellerSection(t); }

  home() { return "/daily"; }

  travellerLink(board) {
    const d = this.boardsInfo();
    return `/daily?preset=${encodeURIComponent(d.preset)}&board=${board}#traveller-${encodeURIComponent(d.preset)}`;
  }

  render() {
    const d = this.boardsInfo();
    this.title.replaceChildren(el("span", { class: "room-word", text: "Daily " }), `${d.preset || ""} ${d.day || ""}`);
    document.title = `Cinch: the daily ${d.preset || ""} set, board ${d.board || 1}`;
    super.render();
  }

  buildChat() {
    return el("p", { class: "note", text: "A daily table has no chat: you play against the field." });
  }

  roomHeadText(s) {
    const d = this.boardsInfo();
    this.roomHead.textContent = `The daily ${s.room.rules_name} set of ${d.day}: board ${d.board} of ${d.boards}. `
      + `You sit S with three ${d.bots} bots.${d.closed ? " The day is over." : ""}`;
    return this.roomHead;
  }

  renderInvite() {
    this.invite.replaceChildren(el("a", { href: "/daily", text: "The daily deals: rankings and your days" }));
  }

  nextControls(s) {
    const d = this.boardsInfo();
    if (d.closed) return [el("p", { class: "waiting-for", text: "The day is over: this set can no longer be played." }),
      el("a", { href: "/daily", id: "to-daily", class: "button primary", text: "The daily deals" })];
    if (s.room.status === "over") {
      const words = this.session ? `Your session: ${sessionWords(this.session)} (among those who have finished today).`
        : "Your session is over: your score and rank are on their way…";
      return [el("p", { class: "session", id: "session", role: "status", text: words }),
        el("a", { href: "/daily", id: "to-daily", class: "button primary", text: "The day's ranking" })];
    }
    return [el("button", { type: "button", id: "ready", class: "primary", text: `Next: board ${d.board + 1} of ${d.boards}`,
      "aria-keyshortcuts": "Enter", onclick: () => this.link.send({ type: "ready" }) })];
  }
}

async function start() {
  const main = document.getElementById("main");
  fourColour(document.getElementById("four-colour"));
  const preset = decodeURIComponent(location.pathname.split("/")[3] || "");
  const say = (text) => {
    main.replaceChildren(el("p", { id: "daily-status", role: "alert", text }),
      el("p", {}, el("a", { href: "/daily", text: "Back to the daily deals" })));
  };
  let player = null;
  try { player = await whoAmI(); } catch { player = null; }
  if (!player) {
    location.replace(`/daily?play=${encodeURIComponent(preset)}`);
    return;
  }
  let seat;
  try {
    seat = await api("POST", `/api/daily/${encodeURIComponent(preset)}/play`, {});
  } catch (e) {
    say(e.message);
    return;
  }
  store(seat.code, { token: seat.token, seat: seat.seat });
  main.dataset.view = "table";
  window.cinchTable = new DailyView(main, seat.code);
}

start();
