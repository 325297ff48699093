// Private duplicate events (/events): the host's form (the rules and their options, the boards, the tables, the
// robot table's bots), POST /api/events, then the event's page. The host's token is kept in this browser only, under
// cinch:event:ID (host.js): it is what lets this browser fill seats with bots and start the event.

import { el, parseOptions } from "../lobby.js";
import { api, whoAmI } from "../players/session.js";
import { hosted, keepHost } from "./host.js";

const $ = (id) => document.getElementById(id);

async function start() {
  const info = await (await fetch("/api/presets")).json();
  const preset = $("preset");
  // (duplicate is four players in two partnerships, by the rules: the honour rule is for a match between friends)
  for (const p of info.presets) preset.append(el("option", { value: p.name, text: `${p.name} (rule text ${p.text}, to ${p.target})`, selected: p.name === "official" }));
  const fit = () => { $("target").value = info.presets.find((p) => p.name === preset.value).target; };
  preset.addEventListener("change", fit);
  fit();
  for (const b of info.bots) $("robots").append(el("option", { value: b, text: `four ${b} bots`, selected: b === (info.default_bot || "expert") }));
  $("robots").append(el("option", { value: "none", text: "no robot table" }));
  const ids = hosted();
  $("mine-list").replaceChildren(...ids.map((id) => el("li", {}, el("a", { href: `/events/${id}`, text: `Event ${id}` }))));
  $("mine").hidden = !ids.length;
  $("create").addEventListener("submit", async (e) => {
    e.preventDefault();
    const status = $("create-status");
    status.textContent = "";
    let body;
    try {
      body = { name: $("event-name").value.trim(), rules: preset.value, options: parseOptions($("options").value),
        target: Number($("target").value), deals: Number($("deals").value), tables: Number($("tables").value),
        robots: $("robots").value, between_deals: Number($("between-deals").value) };
    } catch (err) {
      status.textContent = err.message;
      return;
    }
    try {
      const made = await api("POST", "/api/events", body);
      keepHost(made.id, made.host_token);
      location.assign(made.link);
    } catch (err) {
      status.textContent = err.message;
    }
  });
  await whoAmI().catch(() => null); // (the CSRF cookie the form's POST sends back)
  $("main").dataset.ready = "true";
}

start();
