// The night: standings across the games played, the games so far, and starting the next one.

import { el, standingsTable } from "./parts.js";
import { getJSON, handle, post } from "./api.js";
import { boot, render } from "./shell.js";

const { model, stream } = boot("Night");
const root = document.querySelector("main");
const refusal = el("div", { class: "refusal" });
let next = null; // made once, so what someone is typing survives the pushed updates

model.onChange((why) => {
  if (why === "status" || why === "questions" || !model.night) return;
  const night = model.night;
  render(root,
    el("section", { "data-part": "standings" }, el("h2", {}, `${night.name}: standings`), standingsTable(night.standings)),
    el("section", { "data-part": "games" }, el("h2", {}, "Games tonight"), el("table", {},
      el("tr", {}, ["#", "Game", "Players", "Scores", ""].map((h) => el("th", {}, h))),
      night.games.map((g, i) => el("tr", {}, el("td", {}, i + 1), el("td", {}, g.title), el("td", {}, g.players.join(", ")),
        el("td", {}, Object.entries(g.scores).map(([p, s]) => `${p} ${s}`).join(" · ")),
        el("td", {}, g.over ? "finished" : g.current ? "playing" : "left unfinished"))))),
    next || (next = nextGame(night)));
});

function nextGame(night) {
  const last = night.games[night.games.length - 1];
  const players = el("input", { style: "width: 100%; letter-spacing: 0", value: last ? last.players.join(", ") : "" });
  const game = el("select", { name: "game", style: "letter-spacing: 0" });
  offerGames(game, last ? last.game : "incantibus");
  return el("section", { "data-part": "next-game" }, el("h2", {}, "Next game"),
    el("div", { class: "picker-row" }, "Game ", game), el("div", { class: "picker-row" }, "Players ", players),
    el("button", { class: "primary", onclick: async () => {
      const names = players.value.split(",").map((s) => s.trim()).filter(Boolean);
      handle(await post("/api/night/games", { game: game.value, players: names }), stream, (t) => { refusal.textContent = t; });
    } }, "Start"), refusal);
}

/** Every game Incanto knows, by title; the one played last (else Incantibus) chosen. */
async function offerGames(select, chosen) {
  const answer = await getJSON("/api/games");
  if (!answer.ok) { refusal.textContent = "the list of games could not be loaded; reload the page"; return; }
  select.replaceChildren(...answer.games.map((g) => el("option", { value: g.name, selected: g.name === chosen }, g.title)));
}
