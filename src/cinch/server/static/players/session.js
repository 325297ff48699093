// The player of this browser, for every page: who is signed in (a guest or an account), the CSRF token every change
// sends back, and a guest's device key. The session itself is an HttpOnly cookie no script reads; the CSRF token
// comes in the cinch_csrf cookie and in each answer, and goes back in the X-CSRF-Token header (docs/players.md).

const GUEST_KEY = "cinch:guest"; // localStorage: {"key": the guest's device key (192 bits), "name": its name}
let csrfToken = "";
let current; // undefined until known; then null (nobody) or the player

function cookie(name) {
  for (const part of document.cookie.split(";")) {
    const [key, ...rest] = part.trim().split("=");
    if (key === name) return decodeURIComponent(rest.join("="));
  }
  return "";
}

/** A player API call: the JSON answer, or an Error with the server's one-line message (and .status, .code). */
export async function api(method, path, body) {
  const init = { method, headers: { Accept: "application/json" }, credentials: "same-origin" };
  if (method !== "GET") {
    init.headers["Content-Type"] = "application/json";
    init.headers["X-CSRF-Token"] = cookie("cinch_csrf") || csrfToken;
    init.body = JSON.stringify(body || {});
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch {
    throw Object.assign(new Error("The server could not be reached: check the connection and try again."),
      { status: 0, code: "offline" });
  }
  let data = null;
  try { data = await response.json(); } catch { data = null; }
  if (data && typeof data.csrf === "string") csrfToken = data.csrf;
  if (!response.ok) {
    const message = (data && data.message) || `The server answered ${response.status}.`;
    throw Object.assign(new Error(message), { status: response.status, code: data && data.code });
  }
  if (data && "player" in data) announce(data.player);
  return data;
}

function announce(player) {
  const changed = JSON.stringify(player) !== JSON.stringify(current);
  current = player;
  if (changed) window.dispatchEvent(new CustomEvent("cinch:player", { detail: player }));
}

/** The player now (null: nobody), asked of the server once for every module of the page; a guest whose session
 * ended is let in again by its key. */
export function whoAmI(fresh = false) {
  if (!asking || fresh) asking = ask();
  return asking;
}

let asking = null;

async function ask() {
  const data = await api("GET", "/api/players/me");
  const guest = storedGuest();
  if (!data.player && guest) {
    try {
      await api("POST", "/api/players/guest", { key: guest.key });
    } catch (e) {
      if (e.code === "unknown-key") forgetGuest(); // (registered, or deleted, elsewhere)
    }
  }
  return current;
}

export function onPlayer(listener) {
  window.addEventListener("cinch:player", (event) => listener(event.detail));
}

export function storedGuest() {
  try {
    const value = JSON.parse(localStorage.getItem(GUEST_KEY) || "null");
    return value && typeof value.key === "string" ? value : null;
  } catch {
    return null;
  }
}

export function keepGuest(key, name) {
  try { localStorage.setItem(GUEST_KEY, JSON.stringify({ key, name })); } catch { /* private mode: this visit only */ }
}

export function forgetGuest() {
  try { localStorage.removeItem(GUEST_KEY); } catch { /* nothing kept */ }
}

/** A new guest on this device, its key kept here. */
export async function becomeGuest(name) {
  const data = await api("POST", "/api/players/guest", { name });
  if (data.key) keepGuest(data.key, data.player.name);
  return data.player;
}

export async function signIn(name, password) {
  return (await api("POST", "/api/players/login", { name, password })).player;
}

/** Register: a guest on this device becomes the account (its games with it), and its key is no longer needed. */
export async function register(name, password) {
  const player = (await api("POST", "/api/players/register", { name, password })).player;
  forgetGuest();
  return player;
}

/** Sign out; an account's sign-out leaves a guest kept on this device for the next visit. */
export async function signOut() {
  const data = await api("POST", "/api/players/logout", {});
  return data.player;
}

export async function changePassword(current, password) {
  return (await api("PUT", "/api/players/me/password", { current, password })).player;
}

/** Delete the signed-in player (an account gives its password); a guest's key is forgotten here. */
export async function deletePlayer(password) {
  const me = current;
  await api("DELETE", "/api/players/me", me && me.kind === "account" ? { password } : {});
  if (!me || me.kind === "guest") forgetGuest();
  return null;
}

/** A player's name as the pages show it: a guest is marked as one. */
export function shownName(player) {
  return player.kind === "guest" ? `${player.name} (guest)` : player.name;
}
