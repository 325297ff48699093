// An event's shared pieces: a board's traveller (one line per table: its NS and EW pairs, the contract, the result
// and each pair's matchpoints in its own field, the par, the links), the two fields' rankings, and the hands as dealt.
// The event's page and its tables both draw them from the server's JSON (docs/duplicate.md, "Private duplicate
// events"); the ranking's table is the daily deals' own.

import { SEATS, SUITS, cardText } from "../cards.js";
import { el } from "../lobby.js";
import { rankingTable, signed } from "../daily/traveller.js";

function took(points) {
  return points ? `${points.NS}–${points.EW}` : "–";
}

/** A pair's cell: its two players (an account's name links its profile), "(you)" for the viewer's. */
function pairCell(pair) {
  const who = pair.robots ? [pair.name]
    : pair.players.flatMap((p, i) => [i ? " & " : "", p.profile ? el("a", { href: p.profile, text: p.name }) : p.name]);
  return el("td", { class: "who" }, ...who, pair.mine ? el("span", { class: "you", text: " (you)" }) : "");
}

/** A hand as a line of cards, each in its suit's colour. */
function handLine(cards) {
  const bySuit = {};
  for (const c of cards) (bySuit[c[1]] = bySuit[c[1]] || []).push(c);
  return Object.keys(SUITS).filter((s) => bySuit[s]).map((s) => el("span", { class: `suit suit-${s}` },
    `${SUITS[s]} ${bySuit[s].map((c) => cardText(c).slice(0, -1)).join(" ")}`));
}

/** The traveller of an event's board as a section: a line a table, best for NS first, then the hands. */
export function eventTraveller(t) {
  const n = t.results.length;
  const rows = t.results.map((line) => el("tr", {
    class: `${line.mine ? "mine" : ""}${line.robots ? " robots" : ""}`.trim(), "data-result": String(line.result),
    "data-table": line.robots ? "robots" : String(line.table),
  },
  el("th", { scope: "row", text: line.robots ? "Robots" : `Table ${line.table}` }),
  pairCell(line.ns), pairCell(line.ew), el("td", { text: line.contract }),
  el("td", { class: "num", text: took(line.points) }),
  el("td", { class: "num", text: signed(line.result) }),
  el("td", { class: "num ns-mp", text: `${line.matchpoints}/${line.top}` }),
  el("td", { class: "num ew-mp", text: `${line.ew_matchpoints}/${line.top}` }),
  el("td", { class: "num", text: line.par && line.par.points ? `${line.par.points.NS}–${line.par.points.EW}` : "–" }),
  el("td", { class: "links" }, el("a", { href: line.replay, text: "Replay" }), " ",
    el("a", { href: line.analyse, text: "Analyse this deal" }))));
  const table = el("table", { class: "traveller-table event-traveller" },
    el("caption", { text: `Board ${t.board} of ${t.boards}, dealt by ${t.dealer}: ${n} table${n === 1 ? "" : "s"} so far, best for NS first` }),
    el("thead", {}, el("tr", {}, ...["Table", "NS", "EW", "Contract", "Took NS–EW", "Result", "NS MP", "EW MP", "Par", ""].map(
      (h) => el("th", { scope: "col", text: h })))),
    el("tbody", {}, ...rows));
  const hands = el("dl", { class: "hands" }, ...SEATS.flatMap((seat) => [
    el("dt", { text: seat }), el("dd", {}, ...handLine(t.hands[seat] || []))]));
  return el("section", { class: "traveller", "data-board": String(t.board), "aria-label": `The traveller of board ${t.board}` },
    el("div", { class: "table-scroll" }, table),
    el("p", { class: "note", text: "Result: North–South's score change less East–West's. Each NS pair is matchpointed against the other NS pairs, each EW pair against the other EW pairs: 2 for each result beaten, 1 for each tie." }),
    el("h4", { text: "Hands as dealt" }), hands);
}

/** The two fields' rankings (North–South, East–West), over the boards the viewer may see. */
export function eventRanking(r) {
  const over = r.final ? "final" : `after ${r.boards} of ${r.of} board${r.of === 1 ? "" : "s"}`;
  const box = el("div", { class: "rankings", "data-testid": "event-ranking", "data-boards": String(r.boards) });
  for (const [side, words] of [["NS", "North–South"], ["EW", "East–West"]]) {
    box.append(el("div", { class: "table-scroll", "data-side": side }, rankingTable(r[side], `${words} pairs, ${over}`)));
  }
  return box;
}
