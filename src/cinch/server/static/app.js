// The page's entry: the lobby at /, a room's table at /rooms/CODE.

import { showLobby } from "./lobby.js";
import { showTable } from "./table.js";

const FOUR = "cinch:four-colour";

function colours() {
  const box = document.getElementById("four-colour");
  const on = localStorage.getItem(FOUR) === "true";
  box.checked = on;
  document.body.classList.toggle("four-colour", on);
  box.addEventListener("change", () => {
    localStorage.setItem(FOUR, String(box.checked));
    document.body.classList.toggle("four-colour", box.checked);
  });
}

colours();
const main = document.getElementById("main");
const room = location.pathname.match(/^\/rooms\/([A-Za-z0-9]+)\/?$/);
if (room) {
  showTable(main, room[1].toUpperCase());
} else {
  showLobby(main);
}
