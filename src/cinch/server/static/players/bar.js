// The player bar in the top bar of every page: "Sign in" for nobody; your name (your profile, or your guest's page)
// and "Sign out" once you are known. It fills itself in from /api/players/me and follows every change.
import { onPlayer, shownName, signOut, whoAmI } from "/static/players/session.js";

function el(tag, props = {}, ...children) {
  const node = Object.assign(document.createElement(tag), props);
  for (const child of children) node.append(child);
  return node;
}

function render(bar, player) {
  bar.replaceChildren();
  if (!player) {
    bar.append(el("a", { href: "/account", textContent: "Sign in" }));
    bar.dataset.player = "";
    return;
  }
  bar.dataset.player = player.kind;
  const you = el("a", { href: player.profile || "/account", textContent: shownName(player) });
  you.dataset.testid = "player-name";
  you.setAttribute("aria-label", `${shownName(player)}: your ${player.profile ? "profile" : "guest page"}`);
  bar.append(you);
  if (player.kind === "account") {
    const out = el("button", { type: "button", className: "sign-out", textContent: "Sign out" });
    out.dataset.testid = "sign-out";
    out.addEventListener("click", async () => {
      out.disabled = true;
      try {
        await signOut();
      } catch (e) {
        out.disabled = false;
        out.title = e.message;
      }
    });
    bar.append(out);
  }
}

async function start() {
  const header = document.querySelector("header.top");
  if (!header) return;
  const bar = el("div", { className: "player-bar" });
  bar.dataset.testid = "player-bar";
  bar.setAttribute("role", "group");
  bar.setAttribute("aria-label", "You");
  header.append(bar);
  onPlayer((player) => render(bar, player));
  try {
    render(bar, await whoAmI());
  } catch {
    render(bar, null);
  }
  bar.dataset.ready = "true";
}

start();
