// An event's page (/events/ID): its tables and seats with their links, where you sit, the host's controls (fill the
// empty seats with bots, start), the two fields' rankings as far as you may see them, the travellers of the boards
// you have played, and the set (its commitments; once the event is over its salts, checked here). Everything comes
// from GET /api/events/ID, asked again every few seconds until the event is over.

import { checkDecks, commitmentsBox, eventRanking, eventTraveller, getJson, guestForm } from "../duplicate.js";
import { el } from "../lobby.js";
import { api, onPlayer, whoAmI } from "../players/session.js";
import { hostToken } from "./host.js";

const $ = (id) => document.getElementById(id);
const ID = decodeURIComponent(location.pathname.split("/")[2] || "").toUpperCase();
const POLL_MS = 4000;
const STATUS = { waiting: "waiting to start", playing: "under way", over: "over" };

function copyButton(link, label) {
  const url = new URL(link, location.href).href;
  return el("button", { type: "button", class: "copy", text: "Copy", "aria-label": `Copy ${label}`, onclick: async () => {
    try { await navigator.clipboard.writeText(url); } catch { window.prompt("The link:", url); }
  } });
}

function seatItem(t, s) {
  const who = s.kind === "empty" ? "empty" : s.kind === "bot" ? `${s.bot} bot`
    : `${s.name}${s.player === "guest" ? " (guest)" : ""}${s.mine ? " (you)" : ""}${s.kind === "substitute" ? ` (away: ${s.bot} bot plays)` : ""}`;
  const li = el("li", { class: `seat-entry kind-${s.kind}`, "data-seat": s.seat },
    el("span", { class: "seat-label", text: s.seat }),
    s.profile ? el("span", { class: "who" }, el("a", { href: s.profile, text: s.name }), s.mine ? " (you)" : "")
      : el("span", { class: "who", text: who }));
  if (s.link) {
    li.append(el("span", { class: "seat-controls" }, el("a", { href: s.link, class: "seat-link", text: "Seat link" }), " ",
      copyButton(s.link, `table ${t.number} seat ${s.seat}'s link`)));
  }
  return li;
}

function tablePanel(t, data) {
  const where = t.status === "waiting" ? "waiting to start" : t.status === "over" ? `played all ${t.boards} boards`
    : `board ${t.board} of ${t.boards}`;
  const mine = data.you && data.you.table === t.number;
  const open = mine ? "Go to your table" : data.status === "waiting" ? "Open the table (take any empty seat)" : "Watch this table";
  return el("section", { class: "panel set event-table", "data-table": String(t.number), "aria-labelledby": `table-${t.number}` },
    el("h3", { id: `table-${t.number}`, text: `Table ${t.number}: ${where}` }),
    el("ul", { class: "seat-list" }, ...t.seats.map((s) => seatItem(t, s))),
    el("p", {}, el("a", { href: t.link, class: "table-link", text: open }), " ", copyButton(t.link, `table ${t.number}'s link`),
      t.spectators ? el("span", { class: "note", text: ` · ${t.spectators} watching` }) : ""));
}

function setPanel(set) {
  const box = [commitmentsBox(set, "published at the creation: the decks they promise are dealt at every table")];
  if (set.salts) {
    const out = el("p", { class: "fair", id: "fair", role: "status" });
    box.push(el("p", {}, el("button", { type: "button", id: "check-decks", text: "Check the decks",
      onclick: () => checkDecks(set, out, "before the first board") })), out);
  }
  return box;
}

async function showTraveller(url) {
  const box = $("traveller");
  box.replaceChildren(el("p", { class: "note", text: "Loading the traveller…" }));
  try {
    box.replaceChildren(eventTraveller(await getJson(url)));
  } catch (e) {
    box.replaceChildren(el("p", { class: "error", text: e.message }));
  }
}

let data = null;

function render() {
  const d = data;
  $("title").textContent = d.name ? `${d.name} (event ${d.id})` : `Event ${d.id}`;
  document.title = `Cinch: ${d.name || `event ${d.id}`}`;
  const robots = d.robots ? `, and the robot table (four ${d.robots} bots)` : "";
  $("about").textContent = `${d.rules_name} to ${d.target}: ${d.deals} board${d.deals === 1 ? "" : "s"} at ${d.tables.length} table${d.tables.length === 1 ? "" : "s"}${robots}. The event is ${STATUS[d.status]}.`;
  $("main").dataset.status = d.status;
  const you = $("you");
  you.hidden = !d.you;
  if (d.you) {
    you.replaceChildren(`You sit at table ${d.you.table}, seat ${d.you.seat} (${d.you.side}). `,
      d.status === "playing" ? `You have played ${d.you.played} of ${d.deals} boards. ` : "",
      el("a", { href: d.you.link, id: "your-table", class: "button primary", text: "Go to your table" }));
  }
  $("guest").hidden = !!d.player || d.status !== "waiting";
  const host = hostToken(d.id);
  $("host").hidden = !host || d.status !== "waiting";
  $("tables").replaceChildren(...d.tables.map((t, i) => (t ? tablePanel(t, d)
    : el("section", { class: "panel set" }, el("h3", { text: `Table ${i + 1}` }), el("p", { class: "note", text: "This table was let go (left waiting a day)." })))));
  const r = d.ranking;
  $("ranking-box").hidden = false;
  if (r) {
    $("ranking-words").textContent = r.final ? "The final ranking: North–South pairs against North–South, East–West against East–West, by matchpoints, then points."
      : d.you ? `Over the ${r.boards} board${r.boards === 1 ? "" : "s"} you have played: every table's results on them.`
        : `Over the ${r.boards} board${r.boards === 1 ? "" : "s"} every table has played.`;
    $("ranking").replaceChildren(eventRanking(r));
  } else {
    $("ranking-words").textContent = d.you ? "The ranking shows once you have played a board." : "The ranking shows once every table has played a board.";
    $("ranking").replaceChildren();
  }
  $("travellers-title").textContent = d.final ? "The travellers" : "Your travellers";
  $("travellers").replaceChildren(...d.travellers.map((url, i) => el("button", { type: "button", class: "board-button",
    text: `Board ${i + 1}`, onclick: () => showTraveller(url) })));
  $("travellers-box").hidden = !d.travellers.length;
  if (!$("set").dataset.salts || d.final) {
    $("set").replaceChildren(...setPanel(d.set));
    $("set").dataset.salts = d.final ? "shown" : "";
  }
}

async function refresh() {
  data = await getJson(`/api/events/${encodeURIComponent(ID)}`);
  render();
  $("event").hidden = false;
  $("status").hidden = true;
  $("main").dataset.ready = "true";
}

/** A board's traveller asked for by the link (?board=3, from the box that ends a board at the table). */
async function askedTraveller() {
  const board = Number(new URLSearchParams(location.search).get("board"));
  const url = data && board >= 1 ? data.travellers[board - 1] : null;
  if (!url) return;
  await showTraveller(url);
  $("travellers-box").scrollIntoView({ block: "start" });
}

async function hostOrder(path, body) {
  const error = $("host-error");
  error.hidden = true;
  try {
    await api("POST", `/api/events/${encodeURIComponent(ID)}/${path}`, { host_token: hostToken(ID), ...body });
    await refresh();
  } catch (e) {
    error.textContent = e.message;
    error.hidden = false;
  }
}

async function start() {
  const info = await (await fetch("/api/presets")).json();
  for (const b of info.bots) $("fill-bot").append(el("option", { value: b, text: `${b} bots`, selected: b === (info.default_bot || "heuristic") }));
  $("fill-all").addEventListener("click", () => hostOrder("fill", { bot: $("fill-bot").value }));
  $("start-event").addEventListener("click", () => hostOrder("start", {}));
  guestForm(refresh);
  onPlayer(() => refresh().catch(() => {}));
  try {
    await whoAmI().catch(() => null);
    await refresh();
    await askedTraveller();
  } catch (e) {
    $("status").textContent = `The event cannot be shown: ${e.message}`;
    $("main").dataset.ready = "true";
    return;
  }
  const poll = async () => {
    if (data && data.final) return;
    try { await refresh(); } catch { /* the next look may do better */ }
    setTimeout(poll, POLL_MS);
  };
  setTimeout(poll, POLL_MS);
}

start();
