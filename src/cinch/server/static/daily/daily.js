// The daily deals (/daily): today's set of each preset (its commitments, play or resume, where you stand, the
// ranking once you have finished), yesterday's sets revealed (the salts, checked here against the commitments)
// with their final rankings, and your own days with their ranks. Everything comes from GET /api/daily.

import { commitment, deriveDeck } from "../shuffle.js";
import { el } from "../lobby.js";
import { becomeGuest, onPlayer, whoAmI } from "../players/session.js";
import { rankingTable, sessionWords, signed, travellerSection } from "./traveller.js";

const $ = (id) => document.getElementById(id);
const NO_ENTROPY = { N: "", E: "", S: "", W: "" }; // (every table must get the same deck: no seat adds entropy)

async function getJson(path) {
  const response = await fetch(path, { headers: { Accept: "application/json" }, credentials: "same-origin" });
  let data = null;
  try { data = await response.json(); } catch { data = null; }
  if (!response.ok) throw new Error((data && data.message) || `The server answered ${response.status}.`);
  return data;
}

function commitments(set, salts) {
  const items = set.commitments.map((c, i) => el("li", {}, el("code", { text: c }),
    salts ? el("span", {}, " · salt ", el("code", { text: set.salts[i] })) : ""));
  return el("details", { class: "commitments" },
    el("summary", { text: salts ? "The commitments and the salts revealed" : "The commitments (published at the day's start)" }),
    el("ol", {}, ...items));
}

/** Deal every board again from its revealed salt and check it against the commitment published that morning. */
async function checkDecks(set, out) {
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
  out.textContent = all ? `All ${good} decks are the ones promised that morning.`
    : `Warning: ${set.commitments.length - good} of the decks are not the ones promised.`;
  out.classList.toggle("bad", !all);
  out.dataset.verified = String(all);
}

function playButton(s) {
  if (s.status === "finished") return el("p", { class: "done", text: `Played: ${s.you ? sessionWords(s.you) : "finished"}.` });
  const words = s.status === "playing" ? `Resume: board ${Math.min(s.played + 1, s.set.deals)} of ${s.set.deals}`
    : `Play today's ${s.preset} set`;
  return el("a", { class: "play button primary", href: s.play, "data-testid": `play-${s.preset}`, text: words });
}

async function showTraveller(day, preset, board, box) {
  box.replaceChildren(el("p", { class: "note", text: "Loading the traveller…" }));
  try {
    box.replaceChildren(travellerSection(await getJson(`/api/daily/${day}/${preset}/boards/${board}`)));
  } catch (e) {
    box.replaceChildren(el("p", { class: "error", text: e.message }));
  }
}

function setPanel(s, data) {
  const panel = el("section", { class: "panel set", "data-preset": s.preset, "aria-labelledby": `set-${s.preset}` });
  const people = `${s.finished} finished, ${s.playing} playing`;
  panel.append(el("h3", { id: `set-${s.preset}`, text: `${s.rules}: ${s.set.deals} boards` }),
    el("p", { class: "note", text: `Your partner and opponents: three ${s.bots} bots. Today so far: ${people}.` }),
    data.player ? playButton(s) : "", commitments(s.set, false));
  if (s.played) {
    const box = el("div", { class: "traveller-box" });
    const buttons = Array.from({ length: s.played }, (_, i) => el("button", { type: "button", class: "board-button",
      text: `Board ${i + 1}`, onclick: () => showTraveller(s.day, s.preset, i + 1, box) }));
    panel.append(el("div", { class: "travellers" }, el("span", { text: "Your travellers: " }), ...buttons), box);
  }
  if (s.ranking) panel.append(el("div", { class: "table-scroll" }, rankingTable(s.ranking, `Today's ranking so far (those who have finished the set, and the robot table)`)));
  else panel.append(el("p", { class: "note", text: "The day's ranking shows once you have finished the set." }));
  return panel;
}

function revealedPanel(y) {
  const out = el("p", { class: "fair", role: "status", text: "" });
  const check = el("button", { type: "button", text: "Check the decks", onclick: () => checkDecks(y.set, out) });
  return el("section", { class: "panel set", "data-preset": y.preset },
    el("h3", { text: `${y.set.rules.preset || y.set.rules}, ${y.day}` }), commitments(y.set, true),
    el("p", {}, check), out,
    el("div", { class: "table-scroll" }, rankingTable(y.ranking, "The final ranking")));
}

function pastTable(days) {
  const rows = days.map((d) => el("tr", {}, el("td", { text: d.day }), el("td", { text: d.preset }),
    el("td", { text: d.status === "finished" ? (d.final ? "final" : "today, so far") : `${d.boards} boards played` }),
    el("td", { class: "num", text: d.rank ? `${d.rank} of ${d.of}` : "–" }),
    el("td", { class: "num", text: d.percentage === null ? "–" : d.percentage.toFixed(2) }),
    el("td", { class: "num", text: d.total === null ? "–" : signed(d.total) })));
  return el("table", { class: "ranking", "data-testid": "past" },
    el("caption", { class: "sr-only", text: "Your daily sets" }),
    el("thead", {}, el("tr", {}, ...["Day", "Rules", "", "Rank", "%", "Points"].map((h) => el("th", { scope: "col", text: h })))),
    el("tbody", {}, ...rows));
}

async function show() {
  const data = await getJson("/api/daily");
  $("today-words").textContent = `The sets of ${data.day}: ${data.deals} boards each, until ${new Date(data.ends).toUTCString()}.`;
  $("guest").hidden = !!data.player;
  $("sets").replaceChildren(...data.sets.map((s) => setPanel(s, data)));
  $("today").hidden = false;
  $("revealed").replaceChildren(...data.yesterday.map(revealedPanel));
  $("yesterday").hidden = !data.yesterday.length;
  $("past-box").replaceChildren(pastTable(data.past));
  $("past").hidden = !data.past.length;
  const wanted = new URLSearchParams(location.search).get("play");
  if (data.player && wanted && data.sets.some((s) => s.preset === wanted && s.status !== "finished")) {
    location.assign(`/daily/play/${encodeURIComponent(wanted)}`);
  }
}

async function start() {
  const main = $("main");
  $("guest-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const error = $("guest-error");
    error.hidden = true;
    try {
      await becomeGuest($("guest-name").value.trim());
      await show();
    } catch (err) {
      error.textContent = err.message;
      error.hidden = false;
    }
  });
  onPlayer(() => show().catch(() => {}));
  try {
    await whoAmI();
    await show();
    $("status").hidden = true;
  } catch (e) {
    $("status").textContent = `The daily deals cannot be shown: ${e.message}`;
  }
  main.dataset.ready = "true";
}

start();
