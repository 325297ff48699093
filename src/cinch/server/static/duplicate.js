// What the duplicate pages share, the daily deals (/daily and a daily table) and the private events (an event's page
// and its tables): a board's traveller (every result on it so far, best for NS first, matchpointed, with the hands as
// dealt and each table's par), the rankings, a session's score in words, a set's commitments and the check of its
// revealed decks, and the guest's form. Each draws the server's JSON (docs/duplicate.md).

import { SEATS, SUITS, cardText } from "./cards.js";
import { el } from "./lobby.js";
import { becomeGuest } from "./players/session.js";
import { commitment, deriveDeck } from "./shuffle.js";

const NO_ENTROPY = { N: "", E: "", S: "", W: "" }; // (every table must get the same deck: no seat adds entropy)

/** GET a path's JSON, or an Error with the server's one-line message. */
export async function getJson(path) {
  const response = await fetch(path, { headers: { Accept: "application/json" }, credentials: "same-origin" });
  let data = null;
  try { data = await response.json(); } catch { data = null; }
  if (!response.ok) throw new Error((data && data.message) || `The server answered ${response.status}.`);
  return data;
}

/** A signed number of points: "+4", "−9", "0". */
export function signed(n) {
  return n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "0";
}

/** Points NS–EW ("12–2"), or a dash for none. */
function nsEw(points) {
  return points ? `${points.NS}–${points.EW}` : "–";
}

/** A player's (or a line's) cell: an account's name links its profile; "(you)" for the viewer's. */
function who(line) {
  const name = line.profile ? el("a", { href: line.profile, text: line.name }) : line.name;
  return el("td", { class: "who" }, name, line.mine ? el("span", { class: "you", text: " (you)" }) : "");
}

/** A pair's cell: its two players (an account's name links its profile), "(you)" for the viewer's. */
function pairCell(pair) {
  const names = pair.robots ? [pair.name]
    : pair.players.flatMap((p, i) => [i ? " & " : "", p.profile ? el("a", { href: p.profile, text: p.name }) : p.name]);
  return el("td", { class: "who" }, ...names, pair.mine ? el("span", { class: "you", text: " (you)" }) : "");
}

/** A hand as a line of cards, each in its suit's colour. */
function handLine(cards) {
  const bySuit = {};
  for (const c of cards) (bySuit[c[1]] = bySuit[c[1]] || []).push(c);
  return Object.keys(SUITS).filter((s) => bySuit[s]).map((s) => el("span", { class: `suit suit-${s}` },
    `${SUITS[s]} ${bySuit[s].map((c) => cardText(c).slice(0, -1)).join(" ")}`));
}

function links(line) {
  return el("td", { class: "links" }, el("a", { href: line.replay, text: "Replay" }), " ",
    el("a", { href: line.analyse, text: "Analyse this deal" }));
}

/** A traveller's frame: its table (a caption, the heads, a row a result), what its numbers mean, the hands. */
function traveller(t, { caption, heads, row, note, extra = "" }) {
  const table = el("table", { class: `traveller-table ${extra}`.trim() }, el("caption", { text: caption }),
    el("thead", {}, el("tr", {}, ...heads.map((h) => el("th", { scope: "col", text: h })))),
    el("tbody", {}, ...t.results.map((line) => el("tr", {
      class: `${line.mine ? "mine" : ""}${line.robots ? " robots" : ""}`.trim(), "data-result": String(line.result),
      ...(line.table !== undefined ? { "data-table": line.robots ? "robots" : String(line.table) } : {}),
    }, ...row(line)))));
  const hands = el("dl", { class: "hands" }, ...SEATS.flatMap((seat) => [
    el("dt", { text: seat }), el("dd", {}, ...handLine(t.hands[seat] || []))]));
  return el("section", { class: "traveller", "data-board": String(t.board), "aria-label": `The traveller of board ${t.board}` },
    el("div", { class: "table-scroll" }, table), el("p", { class: "note", text: note }),
    el("h4", { text: "Hands as dealt" }), hands);
}

const COUNTING = "2 for each result beaten, 1 for each tie.";

/** The traveller of a daily board: a line a result (a person's, or the robot table's). */
export function travellerSection(t) {
  const n = t.results.length;
  return traveller(t, {
    caption: `Board ${t.board} of ${t.boards}, dealt by ${t.dealer}: ${n} result${n === 1 ? "" : "s"}, best for NS first`,
    heads: ["Who", "Contract", "Took NS–EW", "Result", "MP", "%", "Par", ""],
    row: (line) => [who(line), el("td", { text: line.contract }), el("td", { class: "num", text: nsEw(line.points) }),
      el("td", { class: "num", text: signed(line.result) }), el("td", { class: "num", text: `${line.matchpoints}/${line.top}` }),
      el("td", { class: "num", text: `${Math.round(line.percent)}%` }),
      el("td", { class: "num", text: nsEw(line.par && line.par.points) }), links(line)],
    note: `Result: North–South's score change less East–West's. MP: ${COUNTING} Par: each table's points with every card open, from its first lead.`,
  });
}

/** The traveller of an event's board: a line a table, its NS and EW pairs, each pair matchpointed in its own field. */
export function eventTraveller(t) {
  const n = t.results.length;
  return traveller(t, {
    caption: `Board ${t.board} of ${t.boards}, dealt by ${t.dealer}: ${n} table${n === 1 ? "" : "s"} so far, best for NS first`,
    heads: ["Table", "NS", "EW", "Contract", "Took NS–EW", "Result", "NS MP", "EW MP", "Par", ""],
    row: (line) => [el("th", { scope: "row", text: line.robots ? "Robots" : `Table ${line.table}` }),
      pairCell(line.ns), pairCell(line.ew), el("td", { text: line.contract }),
      el("td", { class: "num", text: nsEw(line.points) }), el("td", { class: "num", text: signed(line.result) }),
      el("td", { class: "num ns-mp", text: `${line.matchpoints}/${line.top}` }),
      el("td", { class: "num ew-mp", text: `${line.ew_matchpoints}/${line.top}` }),
      el("td", { class: "num", text: nsEw(line.par && line.par.points) }), links(line)],
    note: `Result: North–South's score change less East–West's. Each NS pair is matchpointed against the other NS pairs, each EW pair against the other EW pairs: ${COUNTING}`,
    extra: "event-traveller",
  });
}

/** A ranking as a table: rank, who, percentage, total points. */
export function rankingTable(rows, caption) {
  return el("table", { class: "ranking", "data-testid": "ranking" },
    el("caption", { text: caption }),
    el("thead", {}, el("tr", {}, ...["Rank", "Who", "%", "Points"].map((h) => el("th", { scope: "col", text: h })))),
    el("tbody", {}, ...rows.map((r) => el("tr", { class: r.mine ? "mine" : "" },
      el("td", { class: "num", text: String(r.rank) }), who(r),
      el("td", { class: "num", text: r.percentage.toFixed(2) }), el("td", { class: "num", text: signed(r.total) })))));
}

/** An event's two fields' rankings (North–South, East–West), over the boards the viewer may see. */
export function eventRanking(r) {
  const over = r.final ? "final" : `after ${r.boards} of ${r.of} board${r.of === 1 ? "" : "s"}`;
  const box = el("div", { class: "rankings", "data-testid": "event-ranking", "data-boards": String(r.boards) });
  for (const [side, words] of [["NS", "North–South"], ["EW", "East–West"]]) {
    box.append(el("div", { class: "table-scroll", "data-side": side }, rankingTable(r[side], `${words} pairs, ${over}`)));
  }
  return box;
}

/** "62.50%, +12 points: rank 2 of 5". */
export function sessionWords(s) {
  return `${s.percentage.toFixed(2)}%, ${signed(s.total)} points: rank ${s.rank} of ${s.of}`;
}

/** A set's commitments (and, once revealed, its salts), folded. */
export function commitmentsBox(set, published) {
  const revealed = !!set.salts;
  const items = set.commitments.map((c, i) => el("li", {}, el("code", { text: c }),
    revealed ? el("span", {}, " · salt ", el("code", { text: set.salts[i] })) : ""));
  return el("details", { class: "commitments" },
    el("summary", { text: revealed ? "The commitments and the salts revealed" : `The commitments (${published})` }),
    el("ol", {}, ...items));
}

/** Deal every board again from its revealed salt and check it against the commitment published ``when``. */
export async function checkDecks(set, out, when) {
  if (!crypto.subtle) {
    out.textContent = "The decks can be checked only over https or on this machine.";
    return;
  }
  let good = 0;
  for (let i = 0; i < set.commitments.length; i += 1) {
    const deck = await deriveDeck(set.salts[i], NO_ENTROPY, 1, set.rules && set.rules.decks === 2 ? 2 : 1);
    if ((await commitment(deck.join(" "), set.salts[i])) === set.commitments[i]) good += 1;
  }
  const all = good === set.commitments.length;
  out.textContent = all ? `All ${good} decks are the ones promised ${when}.`
    : `Warning: ${set.commitments.length - good} of the decks are not the ones promised.`;
  out.classList.toggle("bad", !all);
  out.dataset.verified = String(all);
}

/** The page's guest form (#guest-form): a new guest by the name typed, then ``then()``; a refusal beside it. */
export function guestForm(then) {
  const form = document.getElementById("guest-form");
  const error = document.getElementById("guest-error");
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    error.hidden = true;
    try {
      await becomeGuest(document.getElementById("guest-name").value.trim());
      await then();
    } catch (err) {
      error.textContent = err.message;
      error.hidden = false;
    }
  });
}
