// A player's profile (/players/NAME): the name, since when, the games, the rating in each preset family (its line
// and latest games, drawn by ratings.js), the daily results and the events played: sections of the same JSON.
import { showRatings } from "/static/players/ratings.js";

const $ = (id) => document.getElementById(id);

function cell(row, text) {
  const td = document.createElement("td");
  if (text instanceof Node) td.append(text); else td.textContent = text;
  row.append(td);
}

function showGames(games) {
  const played = games.played;
  $("games-count").textContent = played === 0 ? "No games yet." : `${played} game${played === 1 ? "" : "s"}.`;
  const body = $("games-body");
  for (const game of games.recent) {
    const row = document.createElement("tr");
    cell(row, game.date);
    cell(row, game.rules);
    cell(row, game.seat);
    cell(row, game.result || (game.status === "finished" ? "over" : "not finished"));
    cell(row, Object.entries(game.score).map(([side, points]) => `${side} ${points}`).join(", "));
    const replay = Object.assign(document.createElement("a"), { href: game.replay, textContent: "Replay" });
    replay.setAttribute("aria-label", `Replay the game of ${game.date}`);
    cell(row, replay);
    body.append(row);
  }
  $("games").hidden = games.recent.length === 0;
}

/** The daily sets played whose day is over: the day, the preset, the rank among those who finished, the score. */
function showDaily(days) {
  const box = $("daily");
  if (!days.length) {
    box.textContent = "No daily set played yet (the daily deals: /daily).";
    return;
  }
  box.textContent = "";
  const list = document.createElement("ul");
  list.className = "daily-days";
  list.dataset.testid = "daily-days";
  for (const d of days) {
    const li = document.createElement("li");
    li.textContent = `${d.day}, ${d.preset}: rank ${d.rank}${d.of ? ` of ${d.of}` : ""}, ${d.percentage.toFixed(2)}%, `
      + `${d.total > 0 ? "+" : ""}${d.total} points`;
    list.append(li);
  }
  box.replaceWith(Object.assign(list, { id: "daily" }));
}

/** The private events played that are over: the event (its page), the pair (a partner's name links its profile), its
 * rank in its own field (the NS pairs, or the EW pairs), its percentage and points. */
function showEvents(events) {
  const box = $("events");
  if (!events.length) {
    box.textContent = "No event played yet (private events: /events).";
    return;
  }
  const table = document.createElement("table");
  table.className = "games";
  table.id = "events";
  table.dataset.testid = "events-played";
  const caption = Object.assign(document.createElement("caption"), { className: "sr-only", textContent: "The events played" });
  const head = document.createElement("tr");
  for (const h of ["Date", "Event", "Pair", "Rank", "%", "Points"]) {
    head.append(Object.assign(document.createElement("th"), { scope: "col", textContent: h }));
  }
  table.append(caption, Object.assign(document.createElement("thead"), {}));
  table.tHead.append(head);
  const body = document.createElement("tbody");
  for (const e of events) {
    const row = document.createElement("tr");
    row.dataset.event = e.id;
    cell(row, e.date);
    cell(row, Object.assign(document.createElement("a"), { href: e.link, textContent: e.name || `Event ${e.id}` }));
    const pair = document.createElement("span");
    pair.append(e.pair.table ? `Table ${e.pair.table} ${e.pair.side}: ` : `${e.pair.side}: `);
    e.pair.players.forEach((p, i) => {
      if (i) pair.append(" & ");
      pair.append(p.profile ? Object.assign(document.createElement("a"), { href: p.profile, textContent: p.name }) : p.name);
    });
    cell(row, pair);
    cell(row, `${e.rank} of ${e.of}`);
    cell(row, e.percentage.toFixed(2));
    cell(row, `${e.total > 0 ? "+" : ""}${e.total}`);
    body.append(row);
  }
  table.append(body);
  box.replaceWith(table);
}

async function start() {
  const main = $("main");
  const name = decodeURIComponent(location.pathname.replace(/^\/players\//, "").replace(/\/$/, ""));
  try {
    const response = await fetch(`/api/players/${encodeURIComponent(name)}`, { headers: { Accept: "application/json" } });
    const data = await response.json();
    if (!response.ok) throw new Error(data.message || `The server answered ${response.status}.`);
    document.title = `Cinch: ${data.name}`;
    $("name").textContent = data.name;
    $("since").textContent = `A player here since ${data.since}.`;
    showGames(data.games);
    showRatings(data.ratings, $("ratings"));
    if (data.daily && !data.daily.coming) showDaily(data.daily.days);
    if (data.events) showEvents(data.events.events);
    $("status").textContent = "";
    $("status").hidden = true;
    $("profile").hidden = false;
    main.dataset.player = data.name;
  } catch (e) {
    $("name").textContent = "No such player";
    $("status").textContent = e.message;
  }
  main.dataset.ready = "true";
}

start();
