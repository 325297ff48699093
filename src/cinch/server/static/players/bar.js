// The player bar at the end of the top bar of every page: "Sign in" for nobody; your name (your profile, or your guest's
// page) and "Sign out" once you are known. The server writes it in as it serves the page, for the session the page
// was asked with (cinch.server.pages); this script makes "Sign out" work and follows every change of player after.
import { onPlayer, shownName, signOut, whoAmI } from "/static/players/session.js";

function el(tag, props = {}, ...children) {
  const node = Object.assign(document.createElement(tag), props);
  for (const child of children) node.append(child);
  return node;
}

function signOutButton() {
  const out = el("button", { type: "button", className: "sign-out", textContent: "Sign out" });
  out.dataset.testid = "sign-out";
  return out;
}

/** The bar as the server writes it (pages.py's player_bar): drawn again only when the player is another. */
function render(bar, player) {
  const kind = player ? player.kind : "";
  const shown = player ? shownName(player) : "";
  const link = bar.querySelector("a");
  if (bar.dataset.player === kind && (!player || (link && link.textContent === shown))) return;
  bar.replaceChildren();
  bar.dataset.player = kind;
  if (!player) {
    bar.append(el("a", { href: "/account", textContent: "Sign in" }));
    return;
  }
  const you = el("a", { href: player.profile || "/account", textContent: shown });
  you.dataset.testid = "player-name";
  you.setAttribute("aria-label", `${shown}: your ${player.profile ? "profile" : "guest page"}`);
  bar.append(you);
  if (player.kind === "account") bar.append(signOutButton());
}

async function start() {
  const header = document.querySelector("header.top");
  if (!header) return;
  let bar = header.querySelector(".player-bar");
  if (!bar) { // (a page served without its bar: drawn here)
    bar = el("div", { className: "player-bar" });
    bar.dataset.testid = "player-bar";
    bar.setAttribute("role", "group");
    bar.setAttribute("aria-label", "You");
    header.append(bar);
  }
  bar.addEventListener("click", async (event) => {
    const out = event.target.closest(".sign-out");
    if (!out) return;
    out.disabled = true;
    try {
      await signOut();
    } catch (e) {
      out.disabled = false;
      out.title = e.message;
    }
  });
  onPlayer((player) => render(bar, player));
  try {
    render(bar, await whoAmI());
  } catch {
    /* (the server's bar stands) */
  }
  bar.dataset.ready = "true";
}

start();
