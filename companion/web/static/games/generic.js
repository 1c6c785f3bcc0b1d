// Any game without a page of its own: its players, scores, wands, last casting and the room, and
// controls built from whatever its rules list as legal. Game pages reuse these functions.

import { castingPicker, choiceButtons, el, lastCasting, playerCards, tokenChips } from "/static/js/parts.js";
import { has, t } from "/static/js/words.js";

/** A part of a game's page. ``title``: a catalogue key ("game.scores": the part is "scores" in every
 *  language), or words already said. */
export function section(title, ...body) {
  const keyed = has(title);
  const part = keyed ? title.split(".").pop().replaceAll("_", "-") : title.toLowerCase().replaceAll(" ", "-");
  return el("section", { "data-part": part }, el("h2", {}, keyed ? t(title) : title), ...body);
}

export function board(view, ctx) {
  return [
    section("game.scores", playerCards(view, ctx.flashed)),
    section("game.last_casting", lastCasting(view)),
    view.room && view.room.tokens ? section("game.on_the_table", tokenChips(view.room.tokens, view.game)) : null,
    view.over ? section("game.game_over", el("p", {}, t("game.winner"), " ", el("b", {}, winner(view)))) : null,
  ];
}

export function winner(view) {
  if (view.winner) return Array.isArray(view.winner) ? view.winner.join(", ") : view.winner;
  const scores = Object.entries(view.scores || {});
  return scores.sort((a, b) => b[1] - a[1]).map(([p]) => p)[0] || "—";
}

export function controls(view, ctx) {
  const legal = view.legal || {};
  if (view.over || legal.kind === "over") return section("game.game_over", el("p", {}, t("page.start_from_night")));
  if (legal.kind === "cast") return section("game.casting_where", castingPicker(view, ctx.propose));
  return section("game.next", prompt(legal), choiceButtons(view, ctx.propose) || el("p", { class: "muted" }, t("game.waiting")));
}

// A game's name for a thing ("crystal_placed") in words.
export const words = (text) => String(text ?? "").replaceAll("_", " ");

// The last turn's events, each said through the game's phrase table ``say`` (event name -> the
// line's parts), or by its own name in words where the table has no phrase for it yet.
export function lastTurnLines(view, say) {
  const events = (view.last_turn || {}).events || [];
  if (!events.length) return el("p", { class: "muted" }, t("game.nothing_yet"));
  return el("ul", { class: "cast-lines" }, events.map((e) => el("li", { "data-event": e.event },
    ...(say[e.event] ? say[e.event](e, view) : [words(e.event)]))));
}

export function prompt(legal) {
  const text = legal.prompt || legal.message || legal.question;
  return text ? el("p", {}, text) : null;
}
