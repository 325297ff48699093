// A table of duplicate boards (a daily table, an event's table): the room's table (table.js) playing a set's boards one
// after another, each a match of one deal. What both kinds share is here: the bar's "board 3 of 8", each board's
// traveller as the server tells it (to those who played the board) in the box that ends the board, the board's
// result in place of a match's score, and the board's replay and analysis links from its traveller.

import { el } from "./lobby.js";
import { TableView } from "./table.js";
import { signed } from "./duplicate.js";

export class BoardsView extends TableView {
  // ---- what a kind says
  /** The table's boards as its room's state says them: {board, boards, ...} (the room's `daily` or `event`). */
  boardsInfo() { return {}; }

  /** The message that brings a board's traveller ("daily", "event"); what else it brings is kept by `took`. */
  get travellerMessage() { return ""; }

  took(m) {} // eslint-disable-line no-unused-vars

  /** The traveller drawn as a section (duplicate.js). */
  travellerSection(t) { return el("p", { text: `Board ${t.board}` }); }

  /** The viewer's line on a traveller, or null (a spectator, or a board not theirs). */
  mineOf(t) { return t.results.find((line) => line.mine) || null; }

  /** The viewer's side's matchpoints on their line: [points, top, percent]. */
  matchpointsOf(line) { return [line.matchpoints, line.top, line.percent]; }

  /** The page with the boards' travellers and the ranking, and a board's traveller there. */
  home() { return "/"; }

  travellerLink(board) { return `${this.home()}?board=${board}`; }

  // ---- the boards
  receive(m) {
    if (m.type === this.travellerMessage) {
      this.travellers = { ...(this.travellers || {}), [m.board]: m.traveller };
      this.took(m);
      if (this.state) this.render();
      return;
    }
    super.receive(m);
  }

  travellerOf(board) {
    return (this.travellers && this.travellers[board]) || null;
  }

  mine(board) {
    const t = this.travellerOf(board);
    return t ? this.mineOf(t) : null;
  }

  renderBar(s) {
    super.renderBar(s);
    const b = this.boardsInfo();
    const no = this.scoreBar.querySelector(".deal-no");
    if (no && b.boards) no.replaceChildren(el("span", { text: `board ${b.board}` }), el("span", { text: `of ${b.boards}` }));
  }

  /** Finding a board again: each board played, its replay and analysis (from its traveller's line). */
  renderLinks() {
    const boards = Object.keys(this.travellers || {}).map(Number).sort((a, b) => a - b);
    const items = boards.map((n) => [n, this.mine(n)]).filter(([, mine]) => mine).map(([n, mine]) => el("li",
      { class: "deal-links" }, `Board ${n}: `, el("a", { href: mine.replay, text: "replay" }), " · ",
      el("a", { href: mine.analyse, text: "analyse" })));
    this.links.replaceChildren(...items);
    this.links.hidden = !items.length;
  }

  replayUrl(deal, analyse = false) {
    const mine = this.mine(this.boardsInfo().board);
    return mine ? (analyse ? mine.analyse : mine.replay) : this.home();
  }

  dealHeadline(last) {
    return super.dealHeadline(last).replace(/^Deal \d+/, `Board ${this.boardsInfo().board}`);
  }

  /** The traveller goes first in the box that ends a board (once it has come: only then its replay links); a
   * spectator has played nothing: no traveller, no record. */
  renderDealEnd(s) {
    super.renderDealEnd(s);
    if (this.overlay.hidden) return;
    if (!this.seat) {
      for (const a of this.overlay.querySelectorAll("#replay-deal, #analyse-deal")) a.remove();
      return;
    }
    const t = this.travellerOf(this.boardsInfo().board);
    const box = t ? this.travellerSection(t) : el("p", { class: "note traveller-wait", text: "The traveller is on its way…" });
    const rest = this.overlay.querySelector(".end-rest");
    (rest || this.overlay).prepend(box);
    if (!t) for (const a of this.overlay.querySelectorAll("#replay-deal, #analyse-deal")) a.remove();
  }

  /** A board is no match: in place of the score to the target, each side's points and change, the board's result
   * (NS's change less EW's), the viewer's matchpoints so far on it, and the link to its traveller. */
  settlement(s, last) {
    const sides = ["NS", "EW"];
    const me = this.seat ? this.sideOf(this.seat) : null;
    const makers = last.maker ? this.sideOf(last.maker) : null;
    const rows = sides.map((side) => {
      const tag = side === makers ? ` · bid ${last.bid}${last.made ? ", made" : ", set"}` : "";
      const change = last.score_change[side];
      return el("tr", { class: `${side === me ? "mine" : ""}${side === makers ? " makers" : ""}`.trim(), "data-side": side },
        el("th", { scope: "row", text: `${side}${tag}` }), el("td", { class: "num", text: last.points ? String(last.points[side]) : "–" }),
        el("td", { class: `num ${change < 0 ? "down" : change > 0 ? "up" : ""}`.trim(), text: signed(change) }));
    });
    const board = this.boardsInfo().board;
    const result = last.score_change.NS - last.score_change.EW;
    const out = el("div", { class: "board-end" },
      el("table", { class: "settle" }, el("caption", { class: "sr-only", text: "The points and each side's change" }),
        el("thead", {}, el("tr", {}, ...["", "Took", "Change"].map((h) => el("th", { scope: "col", text: h })))),
        el("tbody", {}, ...rows)),
      el("p", { class: "board-result", id: "board-result", "data-result": String(result) },
        el("strong", { text: `Result: ${signed(result)} for NS` }), " (NS's change less EW's)."));
    const t = this.seat ? this.travellerOf(board) : null;
    const line = t ? this.mineOf(t) : null;
    if (line) {
      const [points, top, percent] = this.matchpointsOf(line);
      const others = t.results.length - 1;
      out.append(el("p", { class: "board-mp", id: "board-mp" }, `Your matchpoints so far: ${points}/${top} (${Math.round(percent)}%), `
        + `against ${others === 0 ? "no other result yet" : `${others} other result${others === 1 ? "" : "s"}`}.`));
    }
    if (this.seat) out.append(el("p", {}, el("a", { href: this.travellerLink(board), id: "traveller-link", text: `Board ${board}'s traveller` })));
    return out;
  }
}
