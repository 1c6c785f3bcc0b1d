// The game's end, first on the board and the controls: the winner(s), each player's final score with
// the rulebook's own scoring categories (from the game's final view), and "new game, same players".

import { el, seatColour } from "./parts.js";
import { handle, post } from "./api.js";

const ORDINAL = ["1st", "2nd", "3rd", "4th", "5th", "6th", "7th", "8th"];

// The rulebook's scoring categories, by the keys each game's view gives them.
const PARTS = {
  incantibus: { monster: "monsters", potion: "potions", sorcerer: "sorcerers", ingredient: "ingredients", weapon: "weapons",
                gold: "gold", book: "magic books", spell: "spell cards", wand: "wand bonus" },
  via_magica: { rewards: "bonus rewards", portals: "portal points", green: "green portals' effects" },
  witchcraft: { spells: "spells cast", hare: "the Hare's casts", familiars: "familiars", witch: "the witch's magic" },
};

/** The end-of-game panel, or null while the game runs. */
export function endingPanel(model, stream) {
  const view = model.game;
  if (!view || !view.over) return null;
  const refusal = el("div", { class: "refusal", role: "status" });
  const say = (text) => { refusal.textContent = text || ""; };
  const players = (view.players || []).map((p) => (typeof p === "string" ? { name: p } : p));
  const seat = Object.fromEntries(players.map((p, i) => [p.name, i]));
  const winners = [view.winner].flat().filter(Boolean);
  const lost = view.outcome === "lost";
  const headline = lost ? "The game beat the table" + (view.why ? `: ${view.why}` : "")
    : winners.length ? `${winners.join(" and ")} ${winners.length > 1 ? "win" : "wins"}!` : "Game over";
  const order = view.ranking || players.map((p) => p.name);
  const here = model.night && model.night.games.find((g) => g.current);
  return el("section", { class: "ending", "data-part": "ending" },
    el("h2", { class: "winners", "data-winners": winners.join(",") }, headline),
    el("table", { class: "final-scores" },
      el("tr", {}, el("th", {}, ""), el("th", {}, "Player"), el("th", {}, "Score"), el("th", {}, "Made of")),
      order.map((name, i) => {
        const p = players.find((x) => x.name === name) || { name };
        return el("tr", { "data-player": name, class: winners.includes(name) ? "winner" : "" },
          el("td", { class: "place" }, place(view, name, i)), el("td", { style: `color: ${seatColour(seat[name] ?? 0)}; font-weight: bold` }, name),
          el("td", { class: "final-score" }, (view.scores || {})[name] ?? ""), el("td", { class: "parts" }, parts(view, p)));
      })),
    el("div", { class: "picker-row" },
      here ? el("button", { class: "primary", "data-do": "same-players", onclick: async () => {
        const answer = await post("/api/night/games", { game: here.game, players: here.players, options: here.options || {} });
        handle(answer, stream, say);
      } }, `New game, same players (${here.title})`) : null,
      el("a", { href: "/night", class: "button-link", "data-do": "choose-next" }, "Choose the next game")), refusal);
}

/** The place as the rulebook gives it: shared by a tie (Ravenskeep), none in a co-operative game. */
function place(view, name, i) {
  if (view.game === "grimoire") return "";
  if (!view.places) return ORDINAL[i];
  let ahead = 0;
  for (const group of view.places) {
    if (group.includes(name)) return ORDINAL[ahead];
    ahead += group.length;
  }
  return "";
}

/** One player's score in the rulebook's categories. */
function parts(view, p) {
  const named = PARTS[view.game];
  if (named && p.breakdown) {
    return Object.entries(p.breakdown).filter(([, v]) => v).map(([k, v]) => `${named[k] || k.replace(/_/g, " ")} ${v}`).join(" · ") || "nothing scored";
  }
  if (view.game === "ravenskeep") return `full bottles ${p.full ?? 0} · wizards in Ravenskeep ${p.keep ?? 0}`;
  if (view.game === "grimoire") {
    return `monsters banished ${(view.banished || []).length} · madness ${(p.madness_hand ?? 0) + (p.madness_support ?? 0)}${p.out ? " · out" : ""}`;
  }
  return "";
}
