// The replay viewer: open a cinch/1 record (a file or a game of the library), step through it.
//
// The server replays the record (POST /api/replay, GET /api/library/ID/replay) and sends every
// frame: one before the first action of each deal and one after every action, all hands open.
// The position lives in the URL: ?game=ID&deal=D&step=S for a library game, #deal=D&step=S for a file.
// "Analyse this deal" asks the server to judge the deal's decisions (POST /api/replay/analysis?deal=N
// with the record, GET /api/library/ID/analysis?deal=N); each judgement then hangs on the frame just
// after its action, and the marked ones are listed.

import {
  SEATS, SUITS, SUIT_NAMES, cardElement as tableCard, cardText, fourColour, setBowers, trumpNote, trumpStars,
} from "/static/cards.js";

const MAX_UPLOAD = 2 * 1024 * 1024;
const SEAT_NAMES = { N: "North", E: "East", S: "South", W: "West" };

/** A seat in words: North ... at four; "Seat 3" at a cut-throat table, whose seats are numbered. */
function seatWord(seat) {
  return SEAT_NAMES[seat] || `Seat ${seat}`;
}

/** The seats of the game shown, clockwise: N E S W, or 1 to n at a cut-throat table (2, 3, 5 or 6). */
function seats() {
  return (game && game.seats) || SEATS;
}

const $ = (id) => document.getElementById(id);
const main = $("main");

let game = null; // the frames JSON
let source = null; // {kind: "library", id} or {kind: "file", name}
let pos = { d: 0, s: 0 }; // deal index, step (0: before the first action)

// ---- cards -------------------------------------------------------------------------------------
function cardElement(c, trump) {
  return tableCard(c, { trump });
}

function cardsWords(cards) {
  return cards.map(cardText).join(" ");
}

// ---- messages ------------------------------------------------------------------------------------
function showError(text) {
  const el = $("error");
  el.textContent = text;
  el.hidden = !text;
}

function showPending(text) {
  const el = $("pending");
  el.textContent = text;
  el.hidden = !text;
}

// ---- loading ---------------------------------------------------------------------------------------
async function readJson(response) {
  try {
    return await response.json();
  } catch {
    return null;
  }
}

async function loadFrames(url, options, newSource, at) {
  const wasReady = main.dataset.ready;
  main.dataset.ready = "false";
  main.setAttribute("aria-busy", "true");
  showError("");
  let response, data;
  try {
    response = await fetch(url, options);
    data = await readJson(response);
  } catch (e) {
    showError(`This game cannot be shown: the server could not be reached (${e.message || e}).`);
    main.removeAttribute("aria-busy");
    main.dataset.ready = wasReady; // the game shown before, if any, is still there
    return false;
  }
  try {
    if (!response.ok || !data || data.type === "error") {
      const why = data && data.message ? data.message : `the server answered ${response.status}`;
      showError(`This game cannot be shown: ${why}`);
      main.dataset.ready = wasReady;
      return false;
    }
    game = data;
    source = newSource;
    pos = clampPosition(at || { d: 0, s: 0 });
    $("viewer").hidden = false;
    render();
    $("library-box").open = false; // the table comes up where the library was
    main.dataset.ready = "true";
    return true;
  } catch (e) {
    showError(`This game cannot be shown: ${e.message || e}.`);
    return false;
  } finally {
    main.removeAttribute("aria-busy");
  }
}

async function openFile(file) {
  if (!file) return;
  if (file.size > MAX_UPLOAD) {
    showError(`${file.name} is ${(file.size / 1048576).toFixed(1)} MB; the viewer takes records up to 2 MB.`);
    return;
  }
  let text;
  try {
    text = await file.text();
  } catch (e) {
    showError(`${file.name} cannot be read: ${e.message || e}`);
    return;
  }
  const at = pendingPosition || { d: 0, s: 0 };
  const ok = await loadFrames("/api/replay", {
    method: "POST", headers: { "Content-Type": "application/json" }, body: text,
  }, { kind: "file", name: file.name, text }, at);
  if (ok) {
    pendingPosition = null;
    showPending("");
    updateUrl();
    $("viewer").focus();
  } else {
    const el = $("error");
    el.textContent = el.textContent.replace("This game", file.name);
  }
}

/** A record this server gives at `path` (a daily board's, from its traveller: the server says who may read it),
 * opened as a file is. */
async function openRecordAt(path, at) {
  let text;
  try {
    const response = await fetch(path, { credentials: "same-origin" });
    text = await response.text();
    if (!response.ok) {
      let why = `the server answered ${response.status}`;
      try { why = JSON.parse(text).message || why; } catch { /* not JSON: the status says it */ }
      showError(`This game cannot be shown: ${why}`);
      return false;
    }
  } catch (e) {
    showError(`This game cannot be shown: the server could not be reached (${e.message || e}).`);
    return false;
  }
  return loadFrames("/api/replay", { method: "POST", headers: { "Content-Type": "application/json" }, body: text },
    { kind: "file", name: "the board's record", text }, at);
}

async function openLibrary(id, at) {
  const ok = await loadFrames(`/api/library/${encodeURIComponent(id)}/replay`, {}, { kind: "library", id: String(id) },
    at);
  if (ok) updateUrl();
  return ok;
}

/** Who played a listed game, in words: "N Ann, E heuristic, ...". */
function playersWords(m) {
  return Object.keys(m.players).filter((s) => m.players[s]).map((s) => `${s} ${m.players[s]}`).join(", ");
}

/** Keep the library's games whose players' names hold the filter's text (any case); say how many show. */
function filterLibrary() {
  const text = $("library-filter").value.trim().toLowerCase();
  const items = [...$("library").querySelectorAll("li")];
  let shown = 0;
  for (const li of items) {
    const hit = !text || (li.dataset.players || "").includes(text);
    li.hidden = !hit;
    if (hit) shown += 1;
  }
  if (!items.length) return;
  $("library-status").textContent = text
    ? `${shown} of the ${items.length} most recent games have a player named “${$("library-filter").value.trim()}”, newest first:`
    : `The ${items.length} most recent games, newest first:`;
}

async function loadLibrary() {
  const status = $("library-status");
  const list = $("library");
  try {
    const response = await fetch("/api/library?limit=200");
    const data = await readJson(response);
    if (!response.ok || !data) {
      status.textContent = `The library cannot be read: ${(data && data.message) || response.status}`;
      return;
    }
    list.replaceChildren();
    if (!data.matches.length) {
      status.textContent = "The library holds no games yet.";
      return;
    }
    status.textContent = `The ${data.matches.length} most recent games, newest first:`;
    for (const m of data.matches) {
      const li = document.createElement("li");
      const button = document.createElement("button");
      button.type = "button";
      button.className = "library-item";
      button.dataset.testid = "library-item";
      button.dataset.id = m.id;
      const players = playersWords(m);
      const date = new Date(m.date);
      const when = isNaN(date) ? m.date : date.toLocaleString();
      const status = m.status === "finished" ? `${m.winner || "nobody"} won` : m.status.replace("_", " ");
      const deals = `${m.deals} deal${m.deals === 1 ? "" : "s"}`;
      const score = m.score ? `${byside(m.score, " ")}, ` : "";
      const where = m.room ? `room ${m.room}` : m.frontend === "server" ? "a private room" : `the ${m.frontend} table`;
      const head = document.createElement("span");
      head.className = "library-head";
      head.textContent = `Game ${m.id}: ${m.rules}, ${status}, ${score}${deals}`;
      const who = document.createElement("span");
      who.className = "library-players";
      who.textContent = players || "no players named";
      const detail = document.createElement("span");
      detail.className = "library-detail";
      detail.textContent = `${where} · ${when}`;
      button.append(head, who, detail);
      li.dataset.players = Object.values(m.players).filter(Boolean).join(" ").toLowerCase();
      if (m.room) li.dataset.room = m.room;
      button.addEventListener("click", async () => {
        pendingPosition = null;
        showPending("");
        if (await openLibrary(m.id)) $("viewer").focus();
      });
      li.append(button);
      list.append(li);
    }
    filterLibrary();
  } catch (e) {
    status.textContent = `The library cannot be read: ${e.message || e}`;
  }
}

// ---- the position ------------------------------------------------------------------------------------
let pendingPosition = null; // a #deal=&step= link for a file not yet opened

function lastStep(d) {
  return game.deals[d].frames.length - 1;
}

function clampPosition(p) {
  if (!game || !game.deals.length) return { d: 0, s: 0 };
  const d = Math.min(Math.max(0, p.d | 0), game.deals.length - 1);
  const s = Math.min(Math.max(0, p.s | 0), lastStep(d));
  return { d, s };
}

/** {d, s} from "deal=2&step=15" (deal counted from 1 in the URL), or null. */
function parsePosition(params) {
  const deal = parseInt(params.get("deal"), 10);
  const step = parseInt(params.get("step"), 10);
  if (isNaN(deal) && isNaN(step)) return null;
  return { d: (isNaN(deal) ? 1 : deal) - 1, s: isNaN(step) ? 0 : step };
}

function positionQuery() {
  return `deal=${pos.d + 1}&step=${pos.s}`;
}

function currentUrl() {
  if (!source) return location.pathname;
  if (source.kind === "library") return `/replay?game=${encodeURIComponent(source.id)}&${positionQuery()}`;
  return `/replay#${positionQuery()}`;
}

function updateUrl() {
  const url = currentUrl();
  history.replaceState(null, "", url);
  const share = $("share");
  share.href = url;
  share.textContent = source && source.kind === "file" ?
    "Link to this position (whoever opens it must open the same file)" : "Link to this position";
}

/** The steps where a trick begins: the frame before the first lead and each frame just after a trick ends. */
function trickMarks(d) {
  const frames = game.deals[d].frames;
  const marks = [];
  frames.forEach((f, i) => {
    if (f.phase !== "play" && f.phase !== "done") return;
    const before = i > 0 ? frames[i - 1] : null;
    if (!before || (before.phase !== "play" && before.phase !== "done") || f.tricks > before.tricks) marks.push(i);
  });
  return marks;
}

const moves = {
  first() {
    if (pos.s > 0) return { d: pos.d, s: 0 };
    return { d: 0, s: 0 };
  },
  last() {
    if (pos.s < lastStep(pos.d)) return { d: pos.d, s: lastStep(pos.d) };
    const d = game.deals.length - 1;
    return { d, s: lastStep(d) };
  },
  next() {
    if (pos.s < lastStep(pos.d)) return { d: pos.d, s: pos.s + 1 };
    if (pos.d < game.deals.length - 1) return { d: pos.d + 1, s: 0 };
    return pos;
  },
  prev() {
    if (pos.s > 0) return { d: pos.d, s: pos.s - 1 };
    if (pos.d > 0) return { d: pos.d - 1, s: lastStep(pos.d - 1) };
    return pos;
  },
  "next-deal"() {
    if (pos.d < game.deals.length - 1) return { d: pos.d + 1, s: 0 };
    return { d: pos.d, s: lastStep(pos.d) };
  },
  "prev-deal"() {
    if (pos.d > 0) return { d: pos.d - 1, s: 0 };
    return { d: 0, s: 0 };
  },
  "next-trick"() {
    const later = trickMarks(pos.d).find((i) => i > pos.s);
    if (later !== undefined) return { d: pos.d, s: later };
    for (let d = pos.d + 1; d < game.deals.length; d++) {
      const marks = trickMarks(d);
      if (marks.length) return { d, s: marks[0] };
    }
    return { d: pos.d, s: lastStep(pos.d) };
  },
  "prev-trick"() {
    const earlier = trickMarks(pos.d).filter((i) => i < pos.s).pop();
    if (earlier !== undefined) return { d: pos.d, s: earlier };
    for (let d = pos.d - 1; d >= 0; d--) {
      const marks = trickMarks(d);
      if (marks.length) return { d, s: marks[marks.length - 1] };
    }
    return { d: pos.d, s: 0 };
  },
};

function go(move) {
  if (!game || !game.deals.length) return;
  const to = clampPosition(moves[move]());
  if (to.d === pos.d && to.s === pos.s) return;
  pos = to;
  render();
  updateUrl();
}

// ---- drawing ----------------------------------------------------------------------------------------
/** Numbers by side in words: "NS 3, EW 5"; by player at a cut-throat table, "1: 3, 2: 5, 3: 0". */
function byside(values, sep = ", ") {
  return Object.entries(values).map(([side, v]) => `${side}${/^[0-9]$/.test(side) ? ":" : ""} ${v}`).join(sep);
}

function seatSection(seat) {
  const section = document.createElement("section");
  section.className = "seat";
  section.dataset.seat = seat;
  section.dataset.testid = `seat-${seat}`;
  section.setAttribute("aria-labelledby", `seat-${seat}-name`);
  const title = document.createElement("h3");
  title.id = `seat-${seat}-name`;
  title.className = "seat-name";
  const hand = document.createElement("ul");
  hand.className = "hand";
  hand.dataset.testid = `hand-${seat}`;
  const thrown = document.createElement("p");
  thrown.className = "thrown";
  thrown.dataset.testid = `discards-${seat}`;
  section.append(title, hand, thrown);
  return section;
}

let laidOut = "N E S W"; // the seats the board holds now (the page is written for four)

/** The board's seats and trick slots for this game's table: N W (trick) E S at four, as the page is
 * written; at a cut-throat table the seats 1 to n in order, then the trick across the whole board. */
function layoutSeats(list) {
  const key = list.join(" ");
  if (key === laidOut) return;
  laidOut = key;
  const board = document.querySelector(".board");
  const centre = board.querySelector(".centre");
  const slots = centre.querySelector(".trick-cards");
  for (const old of board.querySelectorAll(".seat")) old.remove();
  slots.replaceChildren();
  const four = key === "N E S W";
  board.classList.toggle("cut-throat", !four);
  board.dataset.players = String(list.length);
  const before = four ? ["N", "W"] : list;
  const after = four ? ["E", "S"] : [];
  for (const seat of before) centre.before(seatSection(seat));
  for (const seat of after.reverse()) centre.after(seatSection(seat));
  for (const seat of four ? ["N", "W", "E", "S"] : list) {
    const slot = document.createElement("div");
    slot.className = "slot";
    slot.dataset.slot = seat;
    slot.dataset.testid = `trick-${seat}`;
    slots.append(slot);
  }
}

function playerName(seat) {
  const name = game.players && game.players[seat];
  return name ? `${seatWord(seat)} · ${name}` : seatWord(seat);
}

function badge(text, cls) {
  const el = document.createElement("span");
  el.className = `badge ${cls}`;
  el.textContent = text;
  return el;
}

function drawSeat(seat, deal, frame) {
  const section = document.querySelector(`.seat[data-seat="${seat}"]`);
  const title = $(`seat-${seat}-name`);
  title.replaceChildren(playerName(seat));
  if (deal.dealer === seat) title.append(" ", badge("dealer", "dealer"));
  if (frame.maker === seat) title.append(" ", badge(`bid ${frame.bid}`, "maker"));
  const toAct = frame.to_act === seat;
  if (toAct) title.append(" ", badge("to act", "to-act"));
  section.classList.toggle("acting", toAct);
  const hand = section.querySelector(".hand");
  hand.replaceChildren();
  const cards = frame.hands[seat];
  for (const card of cards) {
    const li = document.createElement("li");
    li.append(cardElement(card, frame.trump));
    hand.append(li);
  }
  if (!cards.length) {
    const li = document.createElement("li");
    li.className = "empty";
    li.textContent = "No cards left.";
    hand.append(li);
  }
  hand.setAttribute("aria-label", `${seatWord(seat)}'s hand: ${cards.length} card${cards.length === 1 ? "" : "s"}`);
  hand.dataset.count = String(cards.length);
  const thrown = section.querySelector(".thrown");
  const parts = [];
  if (frame.discards[seat].length) parts.push(`Threw: ${cardsWords(frame.discards[seat])}`);
  if (frame.shown[seat].length) parts.push(`Trumps thrown out (dead): ${cardsWords(frame.shown[seat])}`);
  thrown.textContent = parts.join(" · ");
  thrown.hidden = !parts.length;
}

function drawTrick(deal, frame) {
  // Just after the last card of a trick the trick is shown whole, with its winner.
  let trick = frame.trick;
  let winner = null;
  const finished = frame.action && frame.action.text.startsWith("play") && !frame.trick.plays.length && frame.last_trick;
  if (finished) {
    trick = frame.last_trick;
    winner = frame.last_trick.winner;
  }
  const byseat = {};
  for (const p of trick.plays) byseat[p.seat] = p;
  for (const seat of seats()) {
    const slot = document.querySelector(`.slot[data-slot="${seat}"]`);
    slot.replaceChildren();
    slot.classList.toggle("winner", winner === seat);
    const p = byseat[seat];
    if (!p) continue;
    const label = document.createElement("span");
    label.className = "slot-seat";
    label.textContent = seat;
    slot.append(label, cardElement(p.card, frame.trump));
    if (p.buried && p.buried.length) {
      const b = document.createElement("span");
      b.className = "buried";
      b.textContent = `buried ${cardsWords(p.buried)}`;
      slot.append(b);
    }
  }
  const title = $("trick-title");
  const caption = $("trick-caption");
  if (frame.phase === "play" || frame.phase === "done" || frame.tricks > 0) {
    const number = finished ? trick.number : frame.trick.number;
    title.textContent = frame.phase === "done" && !finished ? "The play is over" : `Trick ${number}`;
    if (finished) caption.textContent = `${seatWord(winner)} wins trick ${trick.number}.`;
    else if (trick.plays.length) caption.textContent = `${seatWord(trick.plays[0].seat)} led.`;
    else if (frame.to_act) caption.textContent = `${seatWord(frame.to_act)} to lead.`;
    else caption.textContent = "";
  } else {
    title.textContent = { bidding: "The bidding", trump: "Naming trumps", discard: "The discard", rob: "The rob" }[
      frame.phase] || "";
    caption.textContent = frame.to_act ? `${seatWord(frame.to_act)} to act.` : "";
  }
  const contract = $("contract");
  if (frame.trump) {
    contract.textContent = `${frame.maker} bid ${frame.bid}, trumps ${SUITS[frame.trump]} ${SUIT_NAMES[frame.trump]}` +
      ` (${trumpNote(frame.trump)}). Tricks ${byside(frame.won)}.`;
  } else if (frame.auction.length) {
    const bids = frame.auction.filter((a) => a.call !== "pass");
    contract.textContent = bids.length ? `High bid: ${bids[bids.length - 1].seat} ${bids[bids.length - 1].call}.` :
      "No bid yet.";
  } else {
    contract.textContent = "No bid yet.";
  }
  contract.dataset.trump = frame.trump || "";
}

function drawResult(deal, frame, last) {
  const box = $("result");
  if (!last) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  const lines = $("result-lines");
  lines.replaceChildren();
  if (deal.result) {
    $("result-title").textContent = `Deal ${deal.number}: the result`;
    for (const line of deal.result.lines) {
      const li = document.createElement("li");
      li.textContent = trumpStars(line.trim()); // (one trump mark, the cards' ★)
      if (line.startsWith("  ")) li.className = "indent";
      lines.append(li);
    }
  } else {
    $("result-title").textContent = `Deal ${deal.number}: the record stops here`;
    const li = document.createElement("li");
    li.textContent = frame.to_act ? `${seatWord(frame.to_act)} was to act (${frame.phase}).` : "The deal is unfinished.";
    lines.append(li);
  }
  const par = $("par");
  par.textContent = deal.par ? deal.par.text : "";
  par.dataset.status = deal.par ? deal.par.status : "";
}

function drawAuction(frame) {
  const list = $("auction");
  list.replaceChildren();
  for (const a of frame.auction) {
    const li = document.createElement("li");
    li.textContent = `${seatWord(a.seat)}: ${a.call}`;
    list.append(li);
  }
  if (!frame.auction.length) {
    const li = document.createElement("li");
    li.textContent = "No bids yet.";
    list.append(li);
  }
}

// ---- the analysis ----------------------------------------------------------------------------------------
const MARK_NAMES = { inaccuracy: "Inaccuracy", mistake: "Mistake", blunder: "Blunder" };

async function analyseDeal() {
  if (!game || !game.deals.length || !source) return;
  const g = game;
  const deal = game.deals[pos.d];
  if (deal.analysis && deal.analysis.status === "done") return;
  if (deal.analysisPending) return;
  deal.analysisPending = true;
  deal.analysisError = "";
  render();
  const query = `deal=${deal.number}`;
  let response, data;
  try {
    if (source.kind === "library") {
      response = await fetch(`/api/library/${encodeURIComponent(source.id)}/analysis?${query}`);
    } else {
      response = await fetch(`/api/replay/analysis?${query}`, {
        method: "POST", headers: { "Content-Type": "application/json" }, body: source.text,
      });
    }
    data = await readJson(response);
    if (!response.ok || !data || data.type === "error") {
      deal.analysisError = `The analysis failed: ${(data && data.message) || `the server answered ${response.status}`}`;
    } else {
      deal.analysis = data;
      for (const f of deal.frames) delete f.analysis;
      for (const j of data.judgements) if (deal.frames[j.step]) deal.frames[j.step].analysis = j;
    }
  } catch (e) {
    deal.analysisError = `The analysis failed: the server could not be reached (${e.message || e}).`;
  } finally {
    deal.analysisPending = false;
  }
  if (game === g) render();
}

function drawAnalysis(deal, frame) {
  const mark = $("analysis-mark");
  const j = frame.analysis;
  if (j) {
    mark.hidden = false;
    mark.dataset.mark = j.mark || "";
    mark.textContent = trumpStars(j.mark ? `${MARK_NAMES[j.mark]}: ${j.text}` : `Judged: ${j.text}`);
  } else {
    mark.hidden = true;
    mark.dataset.mark = "";
    mark.textContent = "";
  }
  const status = $("analysis-status");
  const button = $("analyse");
  const a = deal.analysis;
  if (deal.analysisPending) {
    status.textContent = `Judging the decisions of deal ${deal.number}: this takes a while (a fraction of a ` +
      "second each)…";
  } else if (deal.analysisError) {
    status.textContent = deal.analysisError;
  } else if (a) {
    status.textContent = `Deal ${deal.number}: ${a.text}`;
  } else {
    status.textContent = "Every decision judged by the expert from the player's own view, marked by the points " +
      "it cost.";
  }
  const finished = a && a.status === "done";
  button.hidden = Boolean(finished);
  button.setAttribute("aria-disabled", String(Boolean(deal.analysisPending)));
  button.textContent = a ? "Analyse this deal again" : "Analyse this deal";
  const list = $("analysis-list");
  list.replaceChildren();
  if (!a) return;
  for (const m of a.judgements.filter((x) => x.mark)) {
    const li = document.createElement("li");
    const b = document.createElement("button");
    b.type = "button";
    b.dataset.mark = m.mark;
    b.dataset.testid = "analysis-item";
    b.dataset.step = String(m.step);
    const word = document.createElement("span");
    word.className = "mark-word";
    word.textContent = `${m.mark}: `;
    b.append(word, `action ${m.step}, ${m.text}`);
    b.addEventListener("click", () => {
      pos = clampPosition({ d: game.deals.indexOf(deal), s: m.step });
      render();
      updateUrl();
    });
    li.append(b);
    list.append(li);
  }
}

function render() {
  const title = $("game-title");
  const rules = game.rules.name;
  setBowers(game.rules.bowers); // all-hands Pedro: star and name the left bower as the trump, not the other five
  const from = source && source.kind === "library" ? `Game ${source.id}` : source ? source.name : "A game";
  const packs = game.rules.decks === 2 ? ", two decks" : "";
  title.textContent = `${from}: ${rules}, to ${game.rules.target}${packs}`;
  if (!game.deals.length) {
    $("counter").textContent = "The record holds no deals.";
    $("narration").textContent = "Nothing was dealt.";
    for (const b of document.querySelectorAll(".controls button")) b.setAttribute("aria-disabled", "true");
    $("result").hidden = true;
    return;
  }
  const deal = game.deals[pos.d];
  const frame = deal.frames[pos.s];
  const last = pos.s === deal.frames.length - 1;
  const actions = deal.frames.length - 1;
  $("counter").textContent = `Deal ${deal.number} of ${game.deals.length} · action ${pos.s} of ${actions}` +
    (deal.result ? "" : " (unfinished)");
  $("counter").dataset.deal = String(deal.number);
  $("counter").dataset.step = String(pos.s);
  layoutSeats(seats());
  for (const seat of seats()) drawSeat(seat, deal, frame);
  drawTrick(deal, frame);
  drawAuction(frame);
  drawResult(deal, frame, last);
  drawAnalysis(deal, frame);
  const said = frame.action ? `${seatWord(frame.action.seat)}: ${frame.action.words}. ` : "";
  $("narration").textContent = trumpStars(frame.narration || said);
  $("narration").dataset.action = frame.action ? frame.action.text : "";
  const s = frame.score;
  let score = `Score: ${byside(s)}; target ${game.rules.target}.`;
  if (last && pos.d === game.deals.length - 1 && game.winner) score += ` ${game.winner} won the match.`;
  $("score").textContent = score;
  const atStart = pos.d === 0 && pos.s === 0;
  const atEnd = pos.d === game.deals.length - 1 && last;
  for (const b of document.querySelectorAll(".controls button")) {
    const back = ["first", "prev", "prev-deal", "prev-trick"].includes(b.dataset.step);
    b.setAttribute("aria-disabled", String(back ? atStart : atEnd));
  }
}

// ---- events --------------------------------------------------------------------------------------------
const KEYS = {
  ArrowRight: "next", ArrowLeft: "prev", ArrowDown: "next-deal", ArrowUp: "prev-deal",
  PageDown: "next-deal", PageUp: "prev-deal", Home: "first", End: "last",
};

function onKey(event) {
  if (!game || event.altKey || event.ctrlKey || event.metaKey || event.defaultPrevented) return;
  const t = event.target;
  if (t && (t.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(t.tagName))) return;
  if (t && t.closest && t.closest("summary, .library")) return; // a list or a disclosure has its own keys
  const move = KEYS[event.key];
  if (!move) return;
  event.preventDefault();
  go(move);
}

function applyHash() {
  const at = parsePosition(new URLSearchParams(location.hash.slice(1)));
  if (!at) return;
  if (game && source && source.kind === "file") {
    pos = clampPosition(at);
    render();
  }
}

async function start() {
  fourColour(document.getElementById("four-colour"));
  for (const b of document.querySelectorAll(".controls button")) {
    b.addEventListener("click", () => {
      if (b.getAttribute("aria-disabled") === "true") return;
      go(b.dataset.step);
    });
  }
  document.addEventListener("keydown", onKey);
  window.addEventListener("hashchange", applyHash);
  $("file").addEventListener("change", (e) => openFile(e.target.files[0]));
  $("analyse").addEventListener("click", () => {
    if ($("analyse").getAttribute("aria-disabled") !== "true") analyseDeal();
  });
  $("copy").addEventListener("click", async () => {
    const url = new URL(currentUrl(), location.href).href;
    try {
      await navigator.clipboard.writeText(url);
      $("copied").textContent = "Copied.";
    } catch {
      $("copied").textContent = `Copy this link: ${url}`;
    }
  });
  $("library-filter").addEventListener("input", filterLibrary);
  const params = new URLSearchParams(location.search);
  const id = params.get("game");
  const library = loadLibrary();
  if (id) {
    const opened = await openLibrary(id, parsePosition(params) || { d: 0, s: 0 });
    if (opened && params.get("analyse") === "1") { // (a room's "Analyse it" link: the deal's analysis at once)
      $("analysis").scrollIntoView({ block: "start" });
      analyseDeal();
    }
  } else if ((params.get("record") || "").startsWith("/api/")) { // (a traveller's link: a daily board's record)
    const opened = await openRecordAt(params.get("record"), parsePosition(params) || { d: 0, s: 0 });
    if (opened && params.get("analyse") === "1") {
      $("analysis").scrollIntoView({ block: "start" });
      analyseDeal();
    }
  } else {
    pendingPosition = parsePosition(new URLSearchParams(location.hash.slice(1)));
    if (pendingPosition) {
      showPending(`This link shows deal ${pendingPosition.d + 1}, action ${pendingPosition.s} of a game from a ` +
        "file: open that record file to see it there.");
    }
  }
  await library;
}

start();
