// The page's entry: the lobby at /, a room's table at /rooms/CODE.

import { fourColour } from "./cards.js";
import { showLobby } from "./lobby.js";
import { showTable } from "./table.js";

fourColour(document.getElementById("four-colour"));
const main = document.getElementById("main");
const room = location.pathname.match(/^\/rooms\/([A-Za-z0-9]+)\/?$/);
if (room) {
  showTable(main, room[1].toUpperCase());
} else {
  showLobby(main);
}
