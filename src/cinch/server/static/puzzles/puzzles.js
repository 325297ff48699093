// The puzzle page: a puzzle seat's view, a card to click, then the verdict and the explanation.
//
// GET /api/puzzles lists the puzzles, GET /api/puzzles/ID gives one position (never its answer), and
// POST /api/puzzles/ID/guess {"card": "5H"} answers with the verdict. The puzzle shown lives in the URL: ?id=ID.

import { cardElement, cardName, cardText, fourColour, setBowers, sortHand, trumpStars } from "/static/cards.js";

const SEAT_NAMES = { N: "North", E: "East", S: "South", W: "West" };
const $ = (id) => document.getElementById(id);
const main = $("main");

let all = []; // the list of puzzles: {id, preset, rules, level, trick, seat}
let current = null; // the puzzle shown (its question JSON)
let answered = false;

function showError(text) {
  $("error").textContent = text;
  $("error").hidden = !text;
}

async function getJson(url, options) {
  const response = await fetch(url, options);
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    throw new Error((data && data.message) || `the server answered ${response.status}`);
  }
  return data;
}

function seatWords(seat, me) {
  if (seat === me) return `${seat} (you)`;
  if ("NESW".indexOf(seat) % 2 === "NESW".indexOf(me) % 2) return `${seat} (partner)`;
  return seat;
}

// ---- choosing a puzzle --------------------------------------------------------------------------------
function matching() {
  const preset = $("preset").value, level = $("level").value;
  return all.filter((p) => (!preset || p.preset === preset) && (!level || p.level === level));
}

function updateCount() {
  const n = matching().length;
  $("count").textContent = `${n} puzzle${n === 1 ? "" : "s"} to choose from`;
}

function pickAnother() {
  const pool = matching().filter((p) => !current || p.id !== current.id);
  const from = pool.length ? pool : matching();
  if (!from.length) {
    showError("No puzzle has these rules and this level.");
    return;
  }
  const next = from[Math.floor(Math.random() * from.length)];
  history.pushState(null, "", `/puzzles?id=${encodeURIComponent(next.id)}`);
  show(next.id);
}

// ---- showing one ----------------------------------------------------------------------------------------
function renderTrick(plays, me, trump, winner) {
  const row = document.createElement("div");
  row.className = "trick-row";
  for (const [seat, card, buried] of plays) {
    const cell = document.createElement("span");
    cell.className = "play" + (seat === winner ? " won" : "");
    const who = document.createElement("span");
    who.textContent = seatWords(seat, me);
    cell.append(cardElement(card, { trump }), who);
    if (buried) {
      const under = document.createElement("span");
      under.textContent = `burying ${buried}`;
      cell.append(under);
    }
    row.append(cell);
  }
  if (winner) {
    const won = document.createElement("span");
    won.className = "winner";
    won.textContent = `${seatWords(winner, me)} wins`;
    row.append(won);
  }
  return row;
}

async function show(id) {
  main.dataset.ready = "false";
  showError("");
  let q;
  try {
    q = await getJson(`/api/puzzles/${encodeURIComponent(id)}`);
  } catch (e) {
    showError(`The puzzle could not be loaded: ${e.message}.`);
    main.dataset.ready = "true";
    return;
  }
  current = q;
  answered = false;
  const view = q.view, me = view.seat, trump = view.trump;
  setBowers(q.bowers); // all-hands Pedro: the left bower is the trump, not the other five
  $("puzzle-title").textContent = `Puzzle ${q.id} (${q.level})`;
  $("rules").textContent = `Rules: ${q.preset}. ${q.rules_words.slice(0, 2).join(" ")}`;
  $("story").replaceChildren(...q.story.map((line) => {
    const li = document.createElement("li");
    li.textContent = trumpStars(line); // (one trump mark, the cards' ★)
    return li;
  }));
  const tricks = view.tricks.map((t) => {
    const li = document.createElement("li");
    li.append(renderTrick(t.plays, me, trump, t.winner));
    return li;
  });
  const now = document.createElement("li");
  now.append(view.current_trick.length ? renderTrick(view.current_trick, me, trump, null) : "You lead.");
  $("tricks").replaceChildren(...tricks, now);
  $("seat").textContent = `You are ${SEAT_NAMES[me]} (${me}); your partner is ${SEAT_NAMES["NESW"["NESW".indexOf(me) ^ 2]]}.`;
  const hand = view.hand ? view.hand.split(" ") : [];
  $("hand").replaceChildren(...sortHand(hand, trump).map((card) => {
    const legal = q.legal.includes(card);
    const el = cardElement(card, { trump, button: true, label: cardName(card, trump) + (legal ? "" : " (may not be played)") });
    el.dataset.testid = `card-${card}`;
    if (legal) {
      el.classList.add("legal");
      el.addEventListener("click", () => guess(card));
    } else {
      el.disabled = true;
    }
    return el;
  }));
  $("question").textContent = "Which card takes the most points for your side, whatever the hidden cards are?";
  $("answer").hidden = true;
  $("puzzle").hidden = false;
  main.dataset.ready = "true";
}

async function guess(card) {
  if (answered || !current) return;
  showError("");
  let v;
  try {
    v = await getJson(`/api/puzzles/${encodeURIComponent(current.id)}/guess`, {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ card }),
    });
  } catch (e) {
    showError(e.message);
    return;
  }
  answered = true;
  for (const el of $("hand").querySelectorAll("button.card")) {
    el.disabled = true;
    if (el.dataset.card === v.answer) el.classList.add("answer");
    else if (el.dataset.card === card) el.classList.add("wrong");
  }
  const head = $("verdict");
  head.className = v.correct ? "right" : "wrong";
  head.textContent = v.correct ? "Right: that is the best card." : "Not the best card.";
  const bots = Object.entries(v.bots).map(([name, c]) => `${name} plays ${cardText(c)}`).join(", ");
  $("explanation").replaceChildren(...[...v.explanation, `Level ${v.level}: ${bots}.`].map((line) => {
    const li = document.createElement("li");
    li.textContent = trumpStars(line);
    return li;
  }));
  $("link").href = `/puzzles?id=${encodeURIComponent(current.id)}`;
  $("answer").hidden = false;
}

// ---- start ----------------------------------------------------------------------------------------------
async function start() {
  fourColour($("four-colour"));
  try {
    all = (await getJson("/api/puzzles")).puzzles;
  } catch (e) {
    showError(`The puzzles could not be loaded: ${e.message}.`);
    main.dataset.ready = "true";
    return;
  }
  const presets = [...new Set(all.map((p) => p.preset))];
  for (const name of presets) {
    const option = document.createElement("option");
    option.value = name;
    option.textContent = name;
    $("preset").append(option);
  }
  $("preset").addEventListener("change", updateCount);
  $("level").addEventListener("change", updateCount);
  $("choose").addEventListener("submit", (event) => {
    event.preventDefault();
    pickAnother();
  });
  updateCount();
  const wanted = new URLSearchParams(location.search).get("id");
  if (wanted) show(wanted);
  else pickAnother();
}

window.addEventListener("popstate", () => {
  const wanted = new URLSearchParams(location.search).get("id");
  if (wanted) show(wanted);
});

start();
