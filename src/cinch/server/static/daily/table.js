// A daily set's table (/daily/play/PRESET): the room's table (../table.js) with what a daily table adds: you sit
// South with three bots, one board at a time; after each board its traveller in the box that ends it, and after the
// last your session's score and rank. The seat's token comes from POST /api/daily/PRESET/play (the same for the
// same player all day), so that a reload, or another device signed in as you, goes on where you left.

import { fourColour } from "../cards.js";
import { el } from "../lobby.js";
import { store } from "../net.js";
import { api, whoAmI } from "../players/session.js";
import { TableView } from "../table.js";
import { sessionWords, travellerSection } from "./traveller.js";

class DailyView extends TableView {
  receive(m) {
    if (m.type === "daily") {
      this.travellers = { ...(this.travellers || {}), [m.board]: m.traveller };
      if (m.session) this.session = m.session;
      if (this.state) this.render();
      return;
    }
    super.receive(m);
  }

  daily() {
    return (this.state && this.state.room.daily) || {};
  }

  render() {
    const d = this.daily();
    this.title.replaceChildren(el("span", { class: "room-word", text: "Daily " }), `${d.preset || ""} ${d.day || ""}`);
    document.title = `Cinch: the daily ${d.preset || ""} set, board ${d.board || 1}`;
    super.render();
  }

  buildChat() {
    return el("p", { class: "note", text: "A daily table has no chat: you play against the field." });
  }

  renderBar(s) {
    super.renderBar(s);
    const d = this.daily();
    const no = this.scoreBar.querySelector(".deal-no");
    if (no && d.boards) no.replaceChildren(el("span", { text: `board ${d.board}` }), el("span", { text: `of ${d.boards}` }));
  }

  roomHeadText(s) {
    const d = this.daily();
    this.roomHead.textContent = `The daily ${s.room.rules_name} set of ${d.day}: board ${d.board} of ${d.boards}. `
      + `You sit S with three ${d.bots} bots.${d.closed ? " The day is over." : ""}`;
    return this.roomHead;
  }

  renderInvite() {
    this.invite.replaceChildren(el("a", { href: "/daily", text: "The daily deals: rankings and your days" }));
  }

  renderLinks() {
    const boards = Object.keys(this.travellers || {}).map(Number).sort((a, b) => a - b);
    const items = boards.map((n) => {
      const mine = this.travellers[n].results.find((line) => line.mine);
      return el("li", { class: "deal-links" }, `Board ${n}: `, el("a", { href: mine.replay, text: "replay" }), " · ",
        el("a", { href: mine.analyse, text: "analyse" }));
    });
    this.links.replaceChildren(...items);
    this.links.hidden = !items.length;
  }

  mine() {
    const t = this.travellers && this.travellers[this.daily().board];
    return t ? t.results.find((line) => line.mine) : null;
  }

  replayUrl(deal, analyse = false) {
    const mine = this.mine();
    return mine ? (analyse ? mine.analyse : mine.replay) : "/daily";
  }

  dealHeadline(last) {
    return super.dealHeadline(last).replace(/^Deal \d+/, `Board ${this.daily().board}`);
  }

  renderDealEnd(s) {
    super.renderDealEnd(s);
    if (this.overlay.hidden) return;
    const t = this.travellers && this.travellers[this.daily().board];
    const box = t ? travellerSection(t) : el("p", { class: "note traveller-wait", text: "The traveller is on its way…" });
    const rest = this.overlay.querySelector(".end-rest");
    (rest || this.overlay).prepend(box);
    if (!t) for (const a of this.overlay.querySelectorAll("#replay-deal, #analyse-deal")) a.remove();
  }

  nextControls(s) {
    const d = this.daily();
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
