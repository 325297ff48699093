// The daily deals (/daily): today's set of each preset (its commitments, play or resume, where you stand, the
// ranking once you have finished), yesterday's sets revealed (the salts, checked here against the commitments)
// with their final rankings, and your own days with their ranks. Everything comes from GET /api/daily.

import { checkDecks, commitmentsBox, getJson, guestForm, rankingTable, sessionWords, signed, travellerSection } from "../duplicate.js";
import { el } from "../lobby.js";
import { onPlayer, whoAmI } from "../players/session.js";

const $ = (id) => document.getElementById(id);
const MORNING = "published at the day's start";

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
    data.player ? playButton(s) : "", commitmentsBox(s.set, MORNING));
  if (s.played) {
    const box = el("div", { class: "traveller-box", id: `traveller-${s.preset}` });
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
  const check = el("button", { type: "button", text: "Check the decks", onclick: () => checkDecks(y.set, out, "that morning") });
  return el("section", { class: "panel set", "data-preset": y.preset },
    el("h3", { text: `${y.set.rules.preset || y.set.rules}, ${y.day}` }), commitmentsBox(y.set, MORNING),
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
  const asked = new URLSearchParams(location.search);
  const wanted = asked.get("play");
  if (data.player && wanted && data.sets.some((s) => s.preset === wanted && s.status !== "finished")) {
    location.assign(`/daily/play/${encodeURIComponent(wanted)}`);
    return;
  }
  // A board's traveller asked for by the link (?preset=official&board=3, from the box that ends a board at the table).
  const board = Number(asked.get("board"));
  const set = data.sets.find((s) => s.preset === asked.get("preset"));
  if (set && board >= 1 && board <= set.played) {
    const box = $(`traveller-${set.preset}`);
    await showTraveller(set.day, set.preset, board, box);
    box.scrollIntoView({ block: "start" });
  }
}

async function start() {
  const main = $("main");
  guestForm(show);
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
