// Any game without a page of its own: its players, scores, wands, last casting and the room, and
// controls built from whatever its rules list as legal. Game pages reuse these functions.

import { castingPicker, choiceButtons, el, lastCasting, playerCards, tokenChips } from "/static/js/parts.js";

export function section(title, ...body) {
  return el("section", { "data-part": title.toLowerCase().replaceAll(" ", "-") }, el("h2", {}, title), ...body);
}

export function board(view, ctx) {
  return [
    section("Scores", playerCards(view, ctx.flashed)),
    section("Last casting", lastCasting(view)),
    view.room && view.room.tokens ? section("On the table", tokenChips(view.room.tokens)) : null,
    view.over ? section("Game over", el("p", {}, "Winner: ", el("b", {}, winner(view)))) : null,
  ];
}

export function winner(view) {
  if (view.winner) return Array.isArray(view.winner) ? view.winner.join(", ") : view.winner;
  const scores = Object.entries(view.scores || {});
  return scores.sort((a, b) => b[1] - a[1]).map(([p]) => p)[0] || "—";
}

export function controls(view, ctx) {
  const legal = view.legal || {};
  if (view.over || legal.kind === "over") return section("Game over", el("p", {}, "Start the next game from the Night page."));
  if (legal.kind === "cast") return section("Casting: where did each wand point?", castingPicker(view, ctx.propose));
  return section(`Next: ${String(legal.kind || "?").replaceAll("_", " ")}`, prompt(legal),
                 choiceButtons(view, ctx.propose) || el("p", { class: "muted" }, "Waiting for the table."));
}

// A game's name for a thing ("crystal_placed") in words.
export const words = (text) => String(text ?? "").replaceAll("_", " ");

// The last turn's events, each said through the game's phrase table ``say`` (event name -> the
// line's parts), or by its own name in words where the table has no phrase for it yet.
export function lastTurnLines(view, say) {
  const events = (view.last_turn || {}).events || [];
  if (!events.length) return el("p", { class: "muted" }, "Nothing yet.");
  return el("ul", { class: "cast-lines" }, events.map((e) => el("li", { "data-event": e.event },
    ...(say[e.event] ? say[e.event](e, view) : [words(e.event)]))));
}

export function prompt(legal) {
  const text = legal.prompt || legal.message || legal.question;
  return text ? el("p", {}, text) : null;
}
