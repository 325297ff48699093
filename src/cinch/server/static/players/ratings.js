// The ratings as the pages draw them (docs/players.md): a player's rating in each preset family as a small line
// over its latest rated games, drawn here as inline SVG (no outside code), with the games themselves in a table.
// The profile (/players/NAME) shows them; the leaderboard is /ratings.

const SVG = "http://www.w3.org/2000/svg";
const W = 320;
const H = 96;
const PAD = 8;

function el(tag, props = {}, ...children) {
  const node = Object.assign(document.createElement(tag), props);
  for (const child of children) node.append(child);
  return node;
}

function svg(tag, attrs = {}) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  return node;
}

/** A rating as the pages write it: one decimal, a sign for a change. */
export function shown(value, signed = false) {
  const text = value.toFixed(1);
  return signed && value > 0 ? `+${text}` : text;
}

/** The rating after each game (the first point: before the first game shown), as a line; 0 (a newcomer's
 * rating) dashed when it is in view. A screen reader is told the same in words. */
export function ratingLine(family) {
  const history = family.history;
  const points = history.length ? [history[0].rating - history[0].change, ...history.map((h) => h.rating)] : [];
  const low = Math.min(0, ...points);
  const high = Math.max(1, ...points);
  const x = (i) => PAD + (points.length < 2 ? 0 : (i * (W - 2 * PAD)) / (points.length - 1));
  const y = (v) => H - PAD - ((v - low) * (H - 2 * PAD)) / (high - low);
  const words = points.length
    ? `${family.words}: from ${shown(points[0])} to ${shown(points[points.length - 1])} over ${history.length} rated game${history.length === 1 ? "" : "s"}`
    : `${family.words}: no rated game yet`;
  const chart = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "rating-line", role: "img", "aria-label": words });
  chart.dataset.points = String(points.length);
  chart.append(svg("line", { x1: PAD, x2: W - PAD, y1: y(0), y2: y(0), class: "zero" }));
  if (points.length) {
    chart.append(svg("polyline", { points: points.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" "),
      class: "line" }));
    const last = points.length - 1;
    chart.append(svg("circle", { cx: x(last).toFixed(1), cy: y(points[last]).toFixed(1), r: 3.5, class: "now" }));
  }
  return chart;
}

function gameCell(h) {
  if (h.replay) return el("a", { href: h.replay, textContent: `Match ${h.match}` });
  return document.createTextNode(h.day ? `Daily deals of ${h.day}` : h.kind);
}

/** One family: its rating, how many games, whether the leaderboard lists it yet, the line, the latest games. */
function familyBox(family, minimum) {
  const box = el("div", { className: "rating-family" });
  box.dataset.family = family.family;
  box.append(el("h3", { textContent: `${family.words}: ${shown(family.rating)}` }));
  const more = minimum - family.games;
  const board = el("a", { href: family.leaderboard, textContent: "the leaderboard" });
  box.append(el("p", {}, `${family.games} rated game${family.games === 1 ? "" : "s"}; `,
    ...(more > 0 ? [`${more} more to be listed on `, board, "."] : ["listed on ", board, "."])));
  box.append(ratingLine(family));
  const body = el("tbody");
  for (const h of [...family.history].reverse().slice(0, 10)) {
    const row = el("tr");
    row.append(el("td", { textContent: h.date }), el("td", {}, gameCell(h)),
      el("td", { textContent: `${h.place} of ${h.sides}` }), el("td", { textContent: shown(h.rating) }),
      el("td", { textContent: shown(h.change, true) }));
    body.append(row);
  }
  const table = el("table", { className: "games" },
    el("caption", { className: "sr-only", textContent: `The latest rated games, ${family.words}` }),
    el("thead", {}, el("tr", {}, ...["Date", "Game", "Place", "Rating", "Change"].map(
      (text) => el("th", { scope: "col", textContent: text })))), body);
  box.append(table);
  return box;
}

/** The profile's ratings section: every family the player was rated in, or a line saying there is none yet. */
export function showRatings(ratings, box) {
  const families = (ratings && ratings.families) || [];
  const out = el("div", { id: box.id });
  out.dataset.testid = "rating-families";
  if (!families.length) {
    out.append(el("p", { className: "note" }, "No rated game yet: a finished match in a room, or a day's daily deals, ",
      "rates every player in it. ", el("a", { href: "/ratings", textContent: "The leaderboard" })));
  } else {
    for (const family of families) out.append(familyBox(family, ratings.minimum));
  }
  box.replaceWith(out);
}
