// The scorekeeper's page: a match played with real cards, entered deal by deal from a phone.
//
// Every check, settlement and ruling is the server's (cinch.scorekeeper, the code `cinch score` runs):
// this page only gathers a deal's entry into JSON, sends it, and shows what comes back, refusals included.
// A sheet is opened by its id (/score?sheet=12) with the key its creation answered, kept in this
// browser's storage; /score?sheet=12#key=KEY hands the key to another device.
// The table is four in partnerships (seats N E S W, sides NS and EW) or two to six each for himself
// (seats 1 to n, each player his own side): the sheet's rules say which, and the form follows them.

const STORE = "cinch-score-sheets";
const SEAT_NAMES = { N: "North", E: "East", S: "South", W: "West" };
const TAKERS = ["NS", "EW", "N", "E", "S", "W"];
const SEATS = ["N", "E", "S", "W"];
const MAX_WRONG = 9; // the most cards a hand can be wrong by (a hand of nine dealt)

const $ = (id) => document.getElementById(id);
const main = $("main");

let sheet = null; // the sheet as the server last sent it
let token = null; // its key
let formFor = null; // the deal number the form was last reset for

// ---- the keys this browser holds ---------------------------------------------------------------------
function held() {
  try {
    const data = JSON.parse(localStorage.getItem(STORE) || "{}");
    return data && typeof data === "object" ? data : {};
  } catch {
    return {};
  }
}

function remember(id, key, label) {
  const data = held();
  data[id] = { token: key, label: label || (data[id] && data[id].label) || `Score sheet ${id}` };
  try {
    localStorage.setItem(STORE, JSON.stringify(data));
  } catch {
    // (private browsing without storage: the sheet still works until the page is closed)
  }
}

function keyOf(id) {
  const entry = held()[id];
  return entry && typeof entry.token === "string" ? entry.token : null;
}

// ---- talking to the server ---------------------------------------------------------------------------
async function api(method, path, body) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  let response;
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (e) {
    return { ok: false, message: `The server could not be reached (${e.message || e}); nothing was changed.` };
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok || !data || data.type === "error") {
    return { ok: false, status: response.status, message: data && data.message ? data.message : `The server answered ${response.status}.` };
  }
  return { ok: true, data };
}

function show(id, text) {
  const el = $(id);
  el.textContent = text || "";
  el.hidden = !text;
}

function busy(yes) {
  main.dataset.ready = yes ? "false" : "true";
  if (yes) main.setAttribute("aria-busy", "true");
  else main.removeAttribute("aria-busy");
  for (const id of ["start", "settle", "undo"]) $(id).disabled = yes;
}

function radio(name) {
  const el = document.querySelector(`input[name="${name}"]:checked`);
  return el ? el.value : "";
}

function setRadio(name, value) {
  const el = document.querySelector(`input[name="${name}"][value="${value}"]`);
  if (el) el.checked = true;
}

function make(tag, props, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(props || {})) {
    if (key === "testid") el.dataset.testid = value;
    else if (key === "for") el.htmlFor = value;
    else el[key] = value;
  }
  el.append(...children);
  return el;
}

function fillSelect(select, options) {
  const was = select.value;
  select.replaceChildren(...options.map(([value, text]) => make("option", { value, textContent: text })));
  if (options.some(([value]) => value === was)) select.value = was;
}

// ---- the table: four in partnerships, or two to six each for himself -----------------------------------
function tableSize() {
  const v = $("table-size").value;
  return v === "heasly" ? 6 : Number(v);
}

function seatsFor(n) {
  return n === 4 ? SEATS : Array.from({ length: n }, (_, i) => String(i + 1));
}

function seatWords(seat) {
  return SEAT_NAMES[seat] || `Seat ${seat}`;
}

function sizeChanged() {
  const n = tableSize();
  const seats = seatsFor(n);
  const legend = make("legend", { id: "names-legend", textContent: n === 4
    ? "Players (optional): N and S against E and W"
    : `Players (optional): seats 1 to ${n} clockwise, each for himself` });
  $("names").replaceChildren(legend, ...seats.map((seat) => make("p", { className: "row" },
    make("label", { for: `name-${seat}`, textContent: seatWords(seat) }),
    make("input", { id: `name-${seat}`, type: "text", maxLength: 40, autocomplete: "off", testid: `name-${seat}` }))));
  fillSelect($("first-dealer"), [["", "Say at the first deal"],
    ...seats.map((seat) => [seat, SEAT_NAMES[seat] ? `${seat} (${SEAT_NAMES[seat]})` : `${seat}`])]);
  const p = presets.find((x) => x.name === $("preset").value);
  if ($("table-size").value === "heasly") $("target").value = "62"; // (Heasly plays to 62)
  else if (p) $("target").value = p.target;
}

// ---- a new sheet -------------------------------------------------------------------------------------
let presets = [];

async function loadPresets() {
  const got = await api("GET", "/api/presets");
  const select = $("preset");
  if (!got.ok) {
    show("setup-error", `The rules could not be loaded: ${got.message}`);
    return;
  }
  presets = got.data.presets;
  select.replaceChildren(...presets.map((p) => {
    const o = document.createElement("option");
    o.value = p.name;
    o.textContent = `${p.name} (text ${p.text}, to ${p.target})`;
    return o;
  }));
  select.value = presets.some((p) => p.name === "official") ? "official" : presets[0].name;
  presetChanged();
}

function presetChanged() {
  const p = presets.find((x) => x.name === $("preset").value);
  if (!p) return;
  $("preset-words").replaceChildren(...p.rules.map((line) => {
    const li = document.createElement("li");
    li.textContent = line;
    return li;
  }));
  $("target").value = $("table-size").value === "heasly" ? "62" : p.target;
}

function options() {
  const out = {};
  for (const word of $("options").value.split(/\s+/).filter(Boolean)) {
    const at = word.indexOf("=");
    if (at < 0) out[word] = "";
    else out[word.slice(0, at)] = word.slice(at + 1);
  }
  return out;
}

async function create(event) {
  event.preventDefault();
  show("setup-error", "");
  const p = presets.find((x) => x.name === $("preset").value);
  const body = { rules: $("preset").value, options: options(), players: {} };
  const n = tableSize();
  if (!("players" in body.options) && !("heasly" in body.options)) { // (an override typed in wins)
    if ($("table-size").value === "heasly") body.options.heasly = "true";
    else if (n !== 4) body.options.players = String(n);
  }
  const target = $("target").value.trim();
  const usual = $("table-size").value === "heasly" ? "62" : p && String(p.target);
  if (target !== "" && target !== usual) body.target = /^\d+$/.test(target) ? Number(target) : target;
  for (const seat of seatsFor(n)) {
    const name = $(`name-${seat}`).value.trim();
    if (name) body.players[seat] = name;
  }
  if ($("first-dealer").value) body.first_dealer = $("first-dealer").value;
  busy(true);
  const got = await api("POST", "/api/scoresheets", body);
  busy(false);
  if (!got.ok) {
    show("setup-error", got.message);
    return;
  }
  token = got.data.token;
  remember(got.data.id, token, label(got.data.sheet));
  history.replaceState(null, "", `/score?sheet=${got.data.id}`);
  open(got.data.sheet);
}

function label(s) {
  const names = Object.values(s.players);
  return `Sheet ${s.id}: ${s.rules.name}` + (names.length ? `, ${names.join(", ")}` : "");
}

function listMine() {
  const data = held();
  const ids = Object.keys(data).filter((id) => /^\d+$/.test(id)).sort((a, b) => b - a);
  $("mine-box").hidden = ids.length === 0;
  $("mine").replaceChildren(...ids.map((id) => {
    const li = document.createElement("li");
    const a = document.createElement("a");
    a.href = `/score?sheet=${id}`;
    a.textContent = String(data[id].label || `Score sheet ${id}`);
    li.append(a);
    return li;
  }));
}

// ---- the sheet ---------------------------------------------------------------------------------------
function open(data) {
  sheet = data;
  main.dataset.view = "sheet";
  main.dataset.sheet = String(data.id);
  $("setup").hidden = true;
  $("mine-box").hidden = true;
  $("sheet").hidden = false;
  buildForm();
  render();
}

function render() {
  const s = sheet;
  const r = s.rules;
  $("sheet-title").textContent = `Match ${s.id}: ${r.name}, first to ${r.target}`
    + (r.partnership ? "" : `, ${r.players} players each for himself`);
  for (const side of r.side_names) {
    $(`side-${side}`).textContent = s.sides[side];
    $(`score-${side}`).textContent = String(s.score[side]);
  }
  main.dataset.deals = String(s.deals.length);
  main.dataset.winner = s.winner || "";
  const over = Boolean(s.winner);
  show("winner", over ? s.winner_words : "");
  let status = "";
  if (!over) {
    // A numbered seat reads as a number ("Deal 2: 2 deals"): name it a seat at a cut-throat table.
    const dealer = s.next_dealer && !r.partnership ? `seat ${s.next_dealer}` : s.next_dealer;
    status = `Deal ${s.next_number}: ${dealer ? `${dealer} deals` : "say who deals first"}.`;
    if (s.bidder_goes_out) {
      status += r.partnership ? " Bidder goes out applies: makers who make their bid win outright."
        : " Bidder goes out applies: a maker who makes his bid wins outright.";
    }
  }
  show("status", status);
  $("deal-form").hidden = over;
  const last = s.deals[s.deals.length - 1];
  $("undo").hidden = !last;
  if (last) $("undo").textContent = `Undo deal ${last.number}`;
  renderDeals();
  $("secret-link").value = `${location.origin}/score?sheet=${s.id}#key=${token}`;
  $("library-note").textContent = `This is match ${s.id} of the server's game library, saved after every deal `
    + `(\`cinch replay ${s.id}\` shows it where the library is).`;
  if (formFor !== s.next_number) resetForm();
}

function renderDeals() {
  const deals = sheet.deals;
  $("no-deals").hidden = deals.length > 0;
  $("deals").hidden = deals.length === 0;
  $("deals-body").replaceChildren(...deals.map((d, i) => {
    const tr = document.createElement("tr");
    if (i === deals.length - 1) tr.className = "last";
    const num = document.createElement("td");
    num.textContent = String(d.number);
    const what = document.createElement("td");
    const details = document.createElement("details");
    const summary = document.createElement("summary");
    summary.textContent = d.summary;
    const ul = document.createElement("ul");
    ul.append(...d.ruling.map((line) => {
      const li = document.createElement("li");
      li.textContent = line;
      return li;
    }));
    details.append(summary, ul);
    what.append(details);
    tr.append(num, what, ...sheet.rules.side_names.map((side) => make("td", { className: "num",
      textContent: String(d.score[side]) })));
    return tr;
  }));
}

function showRuling(deal, focus) {
  $("ruling-title").textContent = `Deal ${deal.number}: the ruling`;
  $("ruling-lines").replaceChildren(...deal.ruling.map((line) => {
    const li = document.createElement("li");
    li.textContent = line;
    return li;
  }));
  $("ruling").hidden = false;
  if (focus) $("ruling").focus();
}

// ---- the form of a deal ------------------------------------------------------------------------------
// The parts drawn by the table: the scoreboard, the seats to choose from, the points of each side (NS and EW,
// or each player), the deals' columns; the irregularities only at four (the honour rule is four-player).
function buildTable() {
  const r = sheet.rules;
  const sides = r.side_names;
  $("scoreboard").classList.toggle("many", sides.length > 2);
  $("scoreboard").replaceChildren(...sides.map((side) => make("p", { className: "side" },
    make("span", { className: "side-name", id: `side-${side}` }), " ",
    make("strong", { className: "points", id: `score-${side}`, testid: `score-${side}`, textContent: "0" }))));
  fillSelect($("dealer"), r.seats.map((seat) => [seat, seat]));
  fillSelect($("maker"), [["", "—"], ...r.seats.map((seat) => [seat, seat])]);
  $("sums-row").replaceChildren(...sides.map((side) => make("span", { className: "pair" },
    make("label", { for: `points-${side}`, textContent: r.partnership ? side : `Player ${side}` }),
    make("input", { id: `points-${side}`, type: "number", inputMode: "numeric", min: "0", max: String(r.total_points),
      testid: `points-${side}` }))));
  $("deals-head").replaceChildren(...["#", "Deal", ...sides].map((text) => make("th", { scope: "col", textContent: text })));
  $("what-misdeal-label").hidden = !r.irregularities;
}

function buildForm() {
  const r = sheet.rules;
  buildTable();
  $("bid").min = String(r.min_bid);
  $("bid").max = String(r.highest_bid);
  $("bid").placeholder = `${r.min_bid}–${r.highest_bid}`;
  $("what-passed-label").hidden = !r.throw_in;
  const takers = [...(r.partnership ? TAKERS : r.seats), ...(r.every_card_scores ? [] : ["nobody"])];
  // One row a point card; with two packs one row for each copy ("Jack, 2nd copy"), each scoring for its taker.
  const rows = r.point_cards.flatMap((card) => Array.from({ length: card.copies || 1 }, (_, copy) => [card, copy]));
  $("cards-body").replaceChildren(...rows.map(([card, copy], i) => {
    const tr = document.createElement("tr");
    const th = document.createElement("th");
    th.scope = "row";
    const lab = document.createElement("label");
    lab.htmlFor = `took-${i}`;
    lab.textContent = (card.copies || 1) > 1 ? `${card.name}, ${copy ? "2nd" : "1st"} copy` : card.name;
    const what = document.createElement("span");
    what.className = "what";
    what.textContent = `${card.what}, ${card.points}`;
    th.append(lab, what);
    const td = document.createElement("td");
    const select = document.createElement("select");
    select.id = `took-${i}`;
    select.dataset.card = card.name;
    select.dataset.copy = String(copy);
    select.dataset.testid = `took-${card.name.replace(/ /g, "-")}${copy ? `-${copy + 1}` : ""}`;
    const none = document.createElement("option");
    none.value = "";
    none.textContent = "—";
    select.append(none, ...takers.map((t) => {
      const o = document.createElement("option");
      o.value = t;
      o.textContent = t === "nobody" ? "nobody" : t;
      return o;
    }));
    td.append(select);
    tr.append(th, td);
    return tr;
  }));
  const own = $("penalty-text").options[0];
  own.textContent = `The rules' own (${r.penalty_text})`;
}

// ---- incorrect hands (003): each a seat, too many or too few, how many, and whose ruling -------------------
// One box per hand, four at most (one per seat: the server refuses a seat given twice); read into the
// entry's "incorrect_hands" when it is sent.
let handSerial = 0; // (ids stay unique while boxes come and go)

function handBoxes() {
  return [...document.querySelectorAll("#hands > fieldset")];
}

function choice(id, testid, options) {
  const select = document.createElement("select");
  select.id = id;
  select.dataset.testid = testid;
  select.append(...options.map(([value, text]) => {
    const o = document.createElement("option");
    o.value = value;
    o.textContent = text;
    return o;
  }));
  return select;
}

function labelled(control, text, hidden) {
  const span = document.createElement("span");
  span.className = "pair";
  const lab = document.createElement("label");
  lab.htmlFor = control.id;
  lab.textContent = text;
  if (hidden) lab.className = "visually-hidden";
  span.append(lab, control);
  return span;
}

function addHand(hand) {
  const used = new Set(handBoxes().map((box) => box.querySelector("[data-testid=hand-seat]").value));
  const n = ++handSerial;
  const box = document.createElement("fieldset");
  box.className = "hand";
  const legend = document.createElement("legend");
  const seat = choice(`hand-seat-${n}`, "hand-seat", SEATS.map((s) => [s, s]));
  seat.value = hand ? hand.seat : SEATS.find((s) => !used.has(s)) || "N";
  const counts = Array.from({ length: MAX_WRONG }, (_, i) => String(i + 1));
  const count = choice(`hand-count-${n}`, "hand-count", counts.map((c) => [c, c]));
  const way = choice(`hand-way-${n}`, "hand-way", [["too_many", "too many"], ["too_few", "too few"]]);
  const text = choice(`hand-text-${n}`, "hand-text",
    [["", `The rules' own (${sheet.rules.penalty_text})`], ["002", "002"], ["003", "003"]]);
  if (hand) {
    way.value = hand.too_few !== undefined ? "too_few" : "too_many";
    count.value = String(hand[way.value]);
    text.value = hand.text || "";
  }
  const remove = document.createElement("button");
  remove.type = "button";
  remove.dataset.testid = "hand-remove";
  const which = document.createElement("span");
  which.className = "visually-hidden";
  remove.append("Remove", which);
  remove.addEventListener("click", () => {
    box.remove();
    renumberHands();
    refreshForm();
    $("add-hand").focus();
  });
  const first = document.createElement("p");
  first.className = "row";
  const held = labelled(count, "Held");
  held.append(...labelled(way, "Cards too many or too few", true).childNodes); // (they wrap together: "Held 2 too many")
  first.append(labelled(seat, "Who"), held);
  const second = document.createElement("p");
  second.className = "row";
  second.append(labelled(text, "Ruling by text"), remove);
  const words = document.createElement("p");
  words.className = "note";
  words.dataset.testid = "hand-words";
  box.append(legend, first, second, words);
  $("hands").append(box);
  renumberHands();
  return box;
}

function renumberHands() {
  const boxes = handBoxes();
  boxes.forEach((box, i) => {
    box.dataset.testid = `hand-${i + 1}`;
    box.querySelector("legend").textContent = `Incorrect hand ${i + 1}`;
    box.querySelector("[data-testid=hand-remove] .visually-hidden").textContent = ` incorrect hand ${i + 1}`;
  });
  $("add-hand").hidden = boxes.length >= SEATS.length; // one per seat
}

function setHands(hands) {
  $("hands").replaceChildren();
  for (const hand of hands) addHand(hand);
  renumberHands();
}

function readHands() {
  return handBoxes().map((box) => {
    const get = (what) => box.querySelector(`[data-testid=hand-${what}]`).value;
    const hand = { seat: get("seat"), [get("way")]: Number(get("count")) };
    if (get("text")) hand.text = get("text");
    return hand;
  });
}

function resetForm() {
  formFor = sheet.next_number;
  $("deal-form").reset();
  setHands([]);
  $("deal-title").textContent = `Deal ${sheet.next_number}`;
  $("dealer").value = sheet.next_dealer || sheet.rules.seats[0];
  show("deal-error", "");
  refreshForm();
}

function refreshForm() {
  const what = radio("what");
  const r = sheet.rules;
  $("played").hidden = what !== "played";
  $("maker-row").hidden = radio("bid-mode") !== "maker";
  $("calls-row").hidden = radio("bid-mode") !== "calls";
  $("cards-table").hidden = radio("points-mode") !== "cards";
  $("sums-row").hidden = radio("points-mode") !== "sums";
  $("irregularity").hidden = what === "passed" || !r.irregularities;
  $("revoke-row").hidden = what !== "played";
  const kind = what === "misdeal" ? "misdeal" : $("revoke").value ? "revoke" : "";
  $("text-row").hidden = !kind;
  const text = $("penalty-text").value || r.penalty_text;
  $("penalty-words").textContent = kind ? r.penalties[text][kind] : "";
  $("penalty-words").hidden = !kind;
  $("hands-part").hidden = what !== "played"; // (a misdeal or an all-pass deal has nothing played)
  for (const box of handBoxes()) {
    const chosen = box.querySelector("[data-testid=hand-text]").value || r.penalty_text;
    box.querySelector("[data-testid=hand-words]").textContent = r.penalties[chosen].incorrect_hand;
  }
}

function entry() {
  const e = { number: sheet.next_number, dealer: $("dealer").value };
  const what = radio("what");
  const text = $("penalty-text").value;
  if (what === "misdeal") {
    e.irregularity = { kind: "misdeal" };
    if (text) e.irregularity.text = text;
    return e;
  }
  if (what === "passed") {
    e.maker = null;
    return e;
  }
  if (radio("bid-mode") === "calls") {
    const calls = $("calls").value.trim();
    if (calls) e.calls = [calls];
  } else {
    const maker = $("maker").value;
    const bid = $("bid").value.trim();
    if (maker) e.maker = maker;
    if (bid !== "") e.bid = /^-?\d+$/.test(bid) ? Number(bid) : bid;
    if (!maker && bid === "") return null; // nothing said of the bidding: not to be read as "all passed"
  }
  const trump = radio("trump");
  if (trump) e.trump = trump;
  if (radio("points-mode") === "cards") {
    const took = {};
    for (const select of document.querySelectorAll("#cards-body select")) {
      if (!select.value) continue;
      const who = select.value === "nobody" ? null : select.value;
      // With two packs a card's takers go as a list, one for each copy: {"Jack": ["NS", "EW"]}.
      if (sheet.rules.decks > 1) (took[select.dataset.card] ||= []).push(who);
      else took[select.dataset.card] = who;
    }
    if (Object.keys(took).length) e.took = took;
  } else {
    const points = {};
    for (const side of sheet.rules.side_names) {
      const v = $(`points-${side}`).value.trim();
      if (v !== "") points[side] = /^-?\d+$/.test(v) ? Number(v) : v;
    }
    if (Object.keys(points).length && !sheet.rules.partnership) {
      for (const side of sheet.rules.side_names) if (!(side in points)) points[side] = 0; // a player left blank took none
    }
    if (Object.keys(points).length) e.points = points;
  }
  if ($("revoke").value) {
    e.irregularity = { kind: "revoke", by: $("revoke").value };
    if (text) e.irregularity.text = text;
  }
  const hands = readHands();
  if (hands.length) e.incorrect_hands = hands;
  return e;
}

async function settle(event) {
  event.preventDefault();
  show("deal-error", "");
  const e = entry();
  if (e === null) {
    show("deal-error", `Say who made the bid and what it was${sheet.rules.throw_in ? ", or choose All passed" : ""}.`);
    $("maker").focus();
    return;
  }
  busy(true);
  const got = await api("POST", `/api/scoresheets/${sheet.id}/deals`, e);
  busy(false);
  if (!got.ok) {
    show("deal-error", got.message);
    return;
  }
  show("undo-note", "");
  sheet = got.data.sheet;
  render();
  showRuling(got.data.deal, true);
}

async function undo() {
  show("deal-error", "");
  busy(true);
  const got = await api("POST", `/api/scoresheets/${sheet.id}/undo`, { deals: sheet.deals.length });
  busy(false);
  if (!got.ok) {
    show("undo-note", got.message);
    return;
  }
  sheet = got.data.sheet;
  render();
  const d = got.data.undone;
  fillForm(d);
  $("ruling").hidden = true;
  show("undo-note", `Took back deal ${d.number}: ${d.summary} Its entry is back in the form: correct it and settle it again.`);
  $("deal-title").focus();
}

function fillForm(deal) {
  const e = deal.entry;
  $("dealer").value = deal.dealer;
  const irregularity = e.irregularity || null;
  if (irregularity && irregularity.kind === "misdeal") {
    setRadio("what", "misdeal");
  } else if (!e.maker) {
    setRadio("what", "passed");
  } else {
    setRadio("what", "played");
    if (e.calls) {
      setRadio("bid-mode", "calls");
      $("calls").value = e.calls.map((c) => (c === "pass" ? "p" : c.replace(/^bid /, ""))).join(" ");
    } else {
      setRadio("bid-mode", "maker");
      $("maker").value = e.maker;
      $("bid").value = e.bid === undefined ? "" : String(e.bid);
    }
    setRadio("trump", e.trump || "");
    if (e.took) {
      setRadio("points-mode", "cards");
      for (const select of document.querySelectorAll("#cards-body select")) {
        const given = e.took[select.dataset.card];
        const who = Array.isArray(given) ? given[Number(select.dataset.copy)] : given;
        select.value = who === undefined ? "" : who === null ? "nobody" : who;
      }
    } else if (e.points) {
      setRadio("points-mode", "sums");
      for (const side of sheet.rules.side_names) $(`points-${side}`).value = String(e.points[side]);
    }
    $("revoke").value = irregularity && irregularity.kind === "revoke" ? irregularity.by : "";
  }
  setHands(e.incorrect_hands || []);
  $("penalty-text").value = irregularity && irregularity.text ? irregularity.text : "";
  refreshForm();
}

// ---- opening the page --------------------------------------------------------------------------------
async function start() {
  $("setup-form").addEventListener("submit", create);
  $("preset").addEventListener("change", presetChanged);
  $("table-size").addEventListener("change", sizeChanged);
  $("deal-form").addEventListener("submit", settle);
  $("deal-form").addEventListener("change", refreshForm);
  $("undo").addEventListener("click", undo);
  $("add-hand").addEventListener("click", () => {
    const box = addHand(null);
    refreshForm();
    box.querySelector("select").focus();
  });
  $("deal-title").tabIndex = -1;
  const params = new URLSearchParams(location.search);
  const id = params.get("sheet");
  const hash = new URLSearchParams(location.hash.slice(1));
  if (id && /^\d+$/.test(id) && hash.get("key")) {
    remember(id, hash.get("key"));
    history.replaceState(null, "", `/score?sheet=${id}`); // the key leaves the address bar
  }
  if (id) {
    token = /^\d+$/.test(id) ? keyOf(id) : null;
    if (!token) {
      show("load-error", `This browser does not hold the key of score sheet ${id}: only the device that started it, `
        + "or one given its link with the key, may enter its deals.");
    } else {
      const got = await api("GET", `/api/scoresheets/${id}`);
      if (got.ok) {
        open(got.data.sheet);
        main.dataset.ready = "true";
        return;
      }
      show("load-error", `Score sheet ${id} cannot be opened: ${got.message}`);
    }
  }
  listMine();
  await loadPresets();
  main.dataset.ready = "true";
}

start();
