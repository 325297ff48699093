// The daily deals' shared pieces: a board's traveller (every result on it so far, best for NS first, matchpointed,
// with the hands as dealt and each table's par), a day's ranking, and a session's score in words. The /daily page
// and the daily table both draw them from the server's JSON (docs/duplicate.md).

import { SEATS, SUITS, cardText } from "../cards.js";
import { el } from "../lobby.js";

/** A signed number of points: "+4", "−9", "0". */
export function signed(n) {
  return n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "0";
}

function took(points) {
  return points ? `${points.NS}–${points.EW}` : "–";
}

function parText(par) {
  return par && par.points ? `${par.points.NS}–${par.points.EW}` : "–";
}

function who(line) {
  const name = line.profile ? el("a", { href: line.profile, text: line.name }) : line.name;
  return el("td", { class: "who" }, name, line.mine ? el("span", { class: "you", text: " (you)" }) : "");
}

/** A hand as a line of cards, each in its suit's colour. */
function handLine(cards) {
  const bySuit = {};
  for (const c of cards) (bySuit[c[1]] = bySuit[c[1]] || []).push(c);
  return Object.keys(SUITS).filter((s) => bySuit[s]).map((s) => el("span", { class: `suit suit-${s}` },
    `${SUITS[s]} ${bySuit[s].map((c) => cardText(c).slice(0, -1)).join(" ")}`));
}

/** The traveller of a board as a section: its results table, then the hands. */
export function travellerSection(t) {
  const n = t.results.length;
  const rows = t.results.map((line) => el("tr", { class: `${line.mine ? "mine" : ""}${line.robots ? " robots" : ""}`.trim(),
    "data-result": String(line.result) },
  who(line), el("td", { text: line.contract }), el("td", { class: "num", text: took(line.points) }),
  el("td", { class: "num", text: signed(line.result) }),
  el("td", { class: "num", text: `${line.matchpoints}/${line.top}` }),
  el("td", { class: "num", text: `${Math.round(line.percent)}%` }),
  el("td", { class: "num", text: parText(line.par) }),
  el("td", { class: "links" }, el("a", { href: line.replay, text: "Replay" }), " ",
    el("a", { href: line.analyse, text: "Analyse this deal" }))));
  const table = el("table", { class: "traveller-table" },
    el("caption", { text: `Board ${t.board} of ${t.boards}, dealt by ${t.dealer}: ${n} result${n === 1 ? "" : "s"}, best for NS first` }),
    el("thead", {}, el("tr", {}, ...["Who", "Contract", "Took NS–EW", "Result", "MP", "%", "Par", ""].map(
      (h) => el("th", { scope: "col", text: h })))),
    el("tbody", {}, ...rows));
  const hands = el("dl", { class: "hands" }, ...SEATS.flatMap((seat) => [
    el("dt", { text: seat }), el("dd", {}, ...handLine(t.hands[seat] || []))]));
  return el("section", { class: "traveller", "data-board": String(t.board), "aria-label": `The traveller of board ${t.board}` },
    el("div", { class: "table-scroll" }, table),
    el("p", { class: "note", text: "Result: North–South's score change less East–West's. MP: 2 for each result beaten, 1 for each tie. Par: each table's points with every card open, from its first lead." }),
    el("h4", { text: "Hands as dealt" }), hands);
}

/** A day's ranking as a table: rank, who, percentage, total points. */
export function rankingTable(rows, caption) {
  return el("table", { class: "ranking", "data-testid": "ranking" },
    el("caption", { text: caption }),
    el("thead", {}, el("tr", {}, ...["Rank", "Who", "%", "Points"].map((h) => el("th", { scope: "col", text: h })))),
    el("tbody", {}, ...rows.map((r) => el("tr", { class: r.mine ? "mine" : "" },
      el("td", { class: "num", text: String(r.rank) }), who(r),
      el("td", { class: "num", text: r.percentage.toFixed(2) }), el("td", { class: "num", text: signed(r.total) })))));
}

/** "62.50%, +12 points: rank 2 of 5". */
export function sessionWords(s) {
  return `${s.percentage.toFixed(2)}%, ${signed(s.total)} points: rank ${s.rank} of ${s.of}`;
}
