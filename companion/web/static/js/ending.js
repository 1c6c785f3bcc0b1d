// The game's end, first on the board and the controls: the winner(s), each player's final score with
// the rulebook's own scoring categories (from the game's final view), and "new game, same players".

import { el, seatColour } from "./parts.js";
import { handle, post } from "./api.js";
import { names } from "./history.js";
import { has, lang, t } from "./words.js";

const ordinal = (i) => t(`ordinal.${i + 1}`);

// The rulebook's scoring categories, by the keys each game's view gives them: ending.<game>.<key>.
const PARTS = {
  incantibus: ["monster", "potion", "sorcerer", "ingredient", "weapon", "gold", "book", "spell", "wand"],
  via_magica: ["rewards", "portals", "green"],
  witchcraft: ["spells", "hare", "familiars", "witch"],
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
  // The rules' reason is English only: a tablet in another language gives the outcome alone.
  const headline = lost ? (view.why && lang === "en" ? t("ending.lost_why", { why: view.why }) : t("ending.lost"))
    : winners.length ? t(winners.length > 1 ? "ending.winners" : "ending.winner", { names: names(winners) }) : t("ending.over");
  const order = view.ranking || players.map((p) => p.name);
  const here = model.night && model.night.games.find((g) => g.current);
  return el("section", { class: "ending", "data-part": "ending" },
    el("h2", { class: "winners", "data-winners": winners.join(",") }, headline),
    el("table", { class: "final-scores" },
      el("tr", {}, el("th", {}, ""), el("th", {}, t("standings.player")), el("th", {}, t("ending.score")), el("th", {}, t("ending.made_of"))),
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
      } }, t("ending.same_players", { game: here.title })) : null,
      el("a", { href: "/night", class: "button-link", "data-do": "choose-next" }, t("ending.choose_next"))), refusal);
}

/** The place as the rulebook gives it: shared by a tie (Ravenskeep), none in a co-operative game. */
function place(view, name, i) {
  if (view.game === "grimoire") return "";
  if (!view.places) return ordinal(i);
  let ahead = 0;
  for (const group of view.places) {
    if (group.includes(name)) return ordinal(ahead);
    ahead += group.length;
  }
  return "";
}

/** One player's score in the rulebook's categories. */
function parts(view, p) {
  if (PARTS[view.game] && p.breakdown) {
    return Object.entries(p.breakdown).filter(([, v]) => v).map(([k, v]) =>
      `${has(`ending.${view.game}.${k}`) ? t(`ending.${view.game}.${k}`) : k.replace(/_/g, " ")} ${v}`).join(" · ") || t("ending.nothing_scored");
  }
  if (view.game === "ravenskeep") return t("ending.ravenskeep", { full: p.full ?? 0, keep: p.keep ?? 0 });
  if (view.game === "grimoire") {
    return t("ending.grimoire", { banished: (view.banished || []).length, madness: (p.madness_hand ?? 0) + (p.madness_support ?? 0) })
      + (p.out ? ` · ${t("ending.grimoire_out")}` : "");
  }
  return "";
}
