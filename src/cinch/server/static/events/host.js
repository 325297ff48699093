// The host's token of an event, kept in this browser only (cinch:event:ID): it lets this browser fill the event's
// seats with bots and start it. The ids of the events hosted here are kept too (cinch:events), for /events.

const HOSTED = "cinch:events";

export function hostToken(id) {
  try { return (JSON.parse(localStorage.getItem(`cinch:event:${id}`) || "{}")).host_token || null; } catch { return null; }
}

export function keepHost(id, token) {
  try {
    localStorage.setItem(`cinch:event:${id}`, JSON.stringify({ host_token: token }));
    const ids = [id, ...hosted().filter((x) => x !== id)].slice(0, 20);
    localStorage.setItem(HOSTED, JSON.stringify(ids));
  } catch { /* private mode: this visit only */ }
}

export function hosted() {
  try { return JSON.parse(localStorage.getItem(HOSTED) || "[]"); } catch { return []; }
}
