// The list of players: every account of this server, with its number of games, each linking its profile.
const $ = (id) => document.getElementById(id);

async function start() {
  const main = $("main");
  try {
    const response = await fetch("/api/players", { headers: { Accept: "application/json" } });
    const data = await response.json();
    if (!response.ok) throw new Error(data.message || `The server answered ${response.status}.`);
    const list = $("players");
    for (const player of data.players) {
      const link = Object.assign(document.createElement("a"), { href: player.profile, textContent: player.name });
      const games = player.games === 1 ? "1 game" : `${player.games} games`;
      const item = document.createElement("li");
      item.append(link, ` — since ${player.since}, ${games}`);
      list.append(item);
    }
    const count = data.players.length;
    $("status").textContent = count ? `${count} player${count === 1 ? "" : "s"}.` : "No one has an account yet.";
  } catch (e) {
    $("status").textContent = e.message;
  }
  main.dataset.ready = "true";
}

start();
