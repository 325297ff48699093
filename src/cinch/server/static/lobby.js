// The lobby: today's daily deals and the private events, create a room, the open rooms, join by code.

import { hosted } from "./events/host.js";
import { store } from "./net.js";

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "text") node.textContent = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (v !== null && v !== undefined && v !== false) node.setAttribute(k, v === true ? "" : v);
  }
  node.append(...children);
  return node;
}

export { el };

/** "sancho=true follow=strict" as {sancho: "true", follow: "strict"}; an Error for a part that is not KEY=VALUE. */
export function parseOptions(text) {
  const options = {};
  for (const part of text.split(/[\s,]+/).filter(Boolean)) {
    const [key, ...rest] = part.split("=");
    if (!rest.length) throw new Error(`"${part}" is not KEY=VALUE (for example sancho=true)`);
    options[key] = rest.join("=");
  }
  return options;
}

/** GET a path's JSON, or null when the server has none to give (a server without the daily deals, or away). */
async function jsonOrNull(path) {
  try {
    const reply = await fetch(path, { headers: { Accept: "application/json" }, credentials: "same-origin" });
    return reply.ok ? await reply.json() : null;
  } catch {
    return null;
  }
}

function playedBy(n) {
  return n === 0 ? "nobody has played it yet" : `${n} ${n === 1 ? "person has" : "people have"} played it today`;
}

/** One preset's set of today: its boards, how many have played it today, and Play, Resume, or your score once done. */
function dailySet(s) {
  const played = `${s.boards} boards · ${playedBy(s.finished + s.playing)}`;
  let act;
  if (s.status === "finished") {
    const you = s.you ? `${s.you.percentage.toFixed(2)}%, rank ${s.you.rank} of ${s.you.of}` : "played";
    act = el("a", { href: "/daily", class: "button", text: `Done: ${you}` });
  } else {
    const words = s.status === "playing" ? `Resume (board ${Math.min(s.played + 1, s.boards)})` : "Play";
    act = el("a", { href: s.play, class: "button primary", "data-testid": `lobby-play-${s.preset}`,
      "aria-label": `${words}: today's ${s.rules} set`, text: words });
  }
  return el("li", { class: "daily-set", "data-preset": s.preset },
    el("span", { class: "daily-what" }, el("strong", { text: s.rules }), el("span", { class: "note", text: played })), act);
}

/** The card of the daily deals (today's sets, when the server offers them) and the line of the private events. */
function duplicateCard(daily) {
  const card = el("section", { id: "duplicate", class: "panel duplicate-card", "aria-labelledby": "daily-title" },
    el("h2", { id: "daily-title" }, el("a", { href: "/daily", text: "Today's daily deals" })));
  if (daily && daily.sets.length) {
    card.append(el("p", { class: "note", text: `The same ${daily.deals} boards for everyone today, you South with three ${daily.bots} bots, ranked against the field.` }),
      el("ul", { class: "daily-sets", "data-testid": "daily-card" }, ...daily.sets.map(dailySet)));
  } else {
    card.append(el("p", { class: "note", text: "This server offers no daily deals." }));
  }
  const mine = hosted().length;
  card.append(el("p", { class: "events-line", "data-testid": "events-line" }, el("strong", { text: "Private events: " }),
    "your own duplicate tournament, every table the same boards. ",
    el("a", { href: "/events", text: mine ? `Host one, or open yours (${mine})` : "Host one" })));
  return card;
}

export async function showLobby(main) {
  main.dataset.view = "lobby";
  main.replaceChildren();
  document.title = "Cinch: lobby";
  const [info, daily] = await Promise.all([fetch("/api/presets").then((r) => r.json()), jsonOrNull("/api/daily/today")]);

  // ---- create a room
  const preset = el("select", { id: "preset", name: "preset" });
  for (const p of info.presets) {
    preset.append(el("option", { value: p.name, text: `${p.name} (rule text ${p.text}, to ${p.target})` }));
  }
  const about = el("ul", { id: "preset-rules", class: "rules-words" });
  const target = el("input", { id: "target", type: "number", min: "1", max: "500", inputmode: "numeric" });
  const heasly = el("input", { id: "heasly", type: "checkbox" });
  const twoDecks = el("input", { id: "two-decks", type: "checkbox" });
  // The target a choice of rules plays to: the preset's (Heasly's 62), doubled with two decks as the rules double it.
  const fitTarget = () => {
    const p = info.presets.find((x) => x.name === preset.value);
    target.value = (heasly.checked ? 62 : p.target) * (twoDecks.checked ? 2 : 1);
  };
  const describe = () => {
    const p = info.presets.find((x) => x.name === preset.value);
    about.replaceChildren(...p.rules.map((line) => el("li", { text: line })));
    fitTarget();
  };
  preset.addEventListener("change", describe);
  twoDecks.addEventListener("change", fitTarget);
  describe();
  const optionList = el("datalist", { id: "option-names" },
    ...info.options.map((o) => el("option", { value: `${o.name}=`, text: `${o.values}: ${o.help}` })));
  const options = el("input", {
    id: "options", type: "text", list: "option-names", autocomplete: "off",
    placeholder: "e.g. sancho=true follow=strict",
  });
  const optionHelp = el("details", {},
    el("summary", { text: "Every option" }),
    el("dl", { class: "options" }, ...info.options.flatMap((o) => [
      el("dt", {}, el("code", { text: o.name }), ` ${o.values}`), el("dd", { text: o.help })])));
  // The table's size: four in two partnerships, or 2, 3, 5 or 6 each for himself; Heasly is six, to 62.
  const players = el("select", { id: "players", name: "players" },
    ...[2, 3, 4, 5, 6].map((n) => el("option", { value: String(n), selected: n === 4,
      text: n === 4 ? "4, in two partnerships" : `${n}, each for himself (cut-throat)` })));
  heasly.addEventListener("change", () => {
    if (heasly.checked) players.value = "6";
    fitTarget();
    players.disabled = heasly.checked;
  });
  const grace = el("input", { id: "grace", type: "number", min: "0", max: "3600", value: "60", inputmode: "numeric" });
  const hints = el("input", { id: "hints", type: "checkbox", checked: true });
  // The end of a deal waits for everyone's Next; with two or more people at the table, for this long at most.
  const pause = el("select", { id: "between-deals" },
    ...[[8, "8 seconds"], [15, "15 seconds"], [30, "30 seconds"], [60, "a minute"], [300, "five minutes"]].map(([v, t]) =>
      el("option", { value: String(v), text: t, selected: v === 8 })));
  const status = el("p", { id: "create-status", class: "status-line", role: "status" });
  const create = el("form", { id: "create", class: "panel", "aria-labelledby": "create-title" },
    el("h2", { id: "create-title", text: "New room" }),
    el("label", { for: "preset", text: "Rules (one preset per published rule text)" }), preset,
    // (the preset's rules in short: open on a wide screen, a tap away on a phone)
    el("details", { class: "more rules-box", open: window.innerWidth >= 700 }, el("summary", { text: "These rules in short" }), about),
    el("div", { class: "create-grid" },
      el("div", {}, el("label", { for: "players", text: "Players" }), players),
      el("div", {}, el("label", { for: "target", text: "Target (points to win)" }), target)),
    el("label", { class: "inline" }, heasly, " Heasly (six each for himself, to 62)"),
    el("label", { class: "inline" }, twoDecks,
      " Two decks (104 cards: twelve tricks, every point card twice, the target and the bids doubled)"),
    el("label", { class: "inline" }, hints, " Hints allowed"),
    el("label", { for: "between-deals", text: "The end of a deal waits for everyone's Next; with two or more people, at most" }),
    pause,
    el("details", { class: "more" }, el("summary", { text: "More options" }),
      el("label", { for: "options", text: "Option overrides (KEY=VALUE, separated by spaces)" }), options, optionList,
      optionHelp,
      el("label", { for: "grace", text: "Seconds before a bot plays for a player who dropped out" }), grace),
    el("button", { type: "submit", id: "create-room", class: "primary", text: "Create room" }), status);
  create.addEventListener("submit", async (event) => {
    event.preventDefault();
    status.textContent = "";
    let body;
    try {
      const chosen = parseOptions(options.value);
      if (heasly.checked) chosen.heasly = "true";
      else if (players.value !== "4") chosen.players = players.value;
      if (twoDecks.checked) chosen.decks = "2";
      body = { rules: preset.value, options: chosen, target: Number(target.value),
        grace: Number(grace.value), hints: hints.checked, between_deals: Number(pause.value) };
    } catch (e) {
      status.textContent = e.message;
      return;
    }
    const reply = await fetch("/api/rooms", {
      method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body),
    });
    const made = await reply.json();
    if (!reply.ok) {
      status.textContent = made.message;
      return;
    }
    store(made.code, { host_token: made.host_token });
    location.href = `/rooms/${made.code}`;
  });

  // ---- join by code
  const code = el("input", { id: "code", type: "text", maxlength: "8", autocomplete: "off",
    autocapitalize: "characters", placeholder: "ABC234" });
  const join = el("form", { id: "join", class: "panel", "aria-labelledby": "join-title" },
    el("h2", { id: "join-title", text: "Join by code" }),
    el("label", { for: "code", text: "Room code (from the invite link)" }),
    el("div", { class: "join-row" }, code, el("button", { type: "submit", class: "primary", text: "Open room" })));
  join.addEventListener("submit", (event) => {
    event.preventDefault();
    const c = code.value.trim().toUpperCase();
    if (c) location.href = `/rooms/${encodeURIComponent(c)}`;
  });

  // ---- the open rooms
  const list = el("ul", { id: "rooms", class: "rooms" });
  const rooms = el("section", { class: "panel", "aria-labelledby": "rooms-title" },
    el("h2", { id: "rooms-title", text: "Open rooms" }), list,
    el("button", { type: "button", text: "Refresh", onclick: () => refresh() }));
  async function refresh() {
    const { rooms: found } = await (await fetch("/api/rooms")).json();
    list.replaceChildren();
    if (!found.length) list.append(el("li", { text: "No open rooms: create one." }));
    for (const r of found) {
      const seats = r.seats.map((s) => `${s.seat} ${s.kind === "empty" ? "free" : s.name}`).join(", ");
      const size = r.partnership === false ? `, ${r.players} players each for himself` : "";
      const packs = r.rules && r.rules.decks === 2 ? ", two decks" : "";
      list.append(el("li", {},
        el("a", { href: `/rooms/${r.code}`, text: `Room ${r.code}` }),
        ` ${r.rules_name} to ${r.target}${size}${packs}, ${r.status.replace("-", " ")}: ${seats}`));
    }
  }
  await refresh();
  main.append(el("div", { class: "lobby-head" }, el("h1", { text: "Cinch: play online" }),
    el("p", { text: "Make a room, send the link to your table, fill the empty seats with bots, and play." })),
  el("div", { class: "lobby" }, duplicateCard(daily), create, join, rooms));
  main.dataset.ready = "true";
}
