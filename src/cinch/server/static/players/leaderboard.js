// The leaderboard (/ratings?family=pagat): the accounts rated in a preset family with the minimum of games, best
// first, and the bots' fixed ratings beside them. Choosing another family reloads the list in place.
import { shown } from "/static/players/ratings.js";

const $ = (id) => document.getElementById(id);

function row(cells) {
  const tr = document.createElement("tr");
  for (const value of cells) {
    const td = document.createElement("td");
    td.append(value);
    tr.append(td);
  }
  return tr;
}

function draw(data) {
  $("minimum").textContent = String(data.minimum);
  const pick = $("family");
  pick.replaceChildren(...data.families.map((f) => Object.assign(document.createElement("option"),
    { value: f.family, textContent: f.rated ? f.words : `${f.words} (no games yet)`, selected: f.family === data.family })));
  const body = $("board-body");
  body.replaceChildren(...data.players.map((p) => row([String(p.place),
    Object.assign(document.createElement("a"), { href: p.profile, textContent: p.name }), shown(p.rating),
    String(p.games)])));
  $("board-caption").textContent = `The leaderboard of ${data.words}`;
  $("board").hidden = data.players.length === 0;
  $("status").textContent = data.players.length
    ? `${data.words}: ${data.players.length} player${data.players.length === 1 ? "" : "s"}.`
    : `${data.words}: no account has ${data.minimum} rated games yet.`;
  $("bots").replaceChildren(...data.bots.map((b) => Object.assign(document.createElement("li"),
    { textContent: `${b.bot}: ${shown(b.rating)}` })));
}

async function load(family) {
  const main = $("main");
  main.dataset.ready = "false";
  try {
    const query = family ? `?family=${encodeURIComponent(family)}` : "";
    const response = await fetch(`/api/ratings${query}`, { headers: { Accept: "application/json" } });
    const data = await response.json();
    if (!response.ok) throw new Error(data.message || `The server answered ${response.status}.`);
    draw(data);
    main.dataset.family = data.family;
  } catch (e) {
    $("status").textContent = e.message;
  }
  main.dataset.ready = "true";
}

$("family").addEventListener("change", (event) => {
  const family = event.target.value;
  history.replaceState(null, "", `/ratings?family=${encodeURIComponent(family)}`);
  load(family);
});
$("choose").addEventListener("submit", (event) => event.preventDefault());
load(new URLSearchParams(location.search).get("family"));
