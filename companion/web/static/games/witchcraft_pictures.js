// Witchcraft's cards as pictures: an ingredient by its kind, a joker, a spell card, a familiar; each picture
// named in the tablet's words, and the words still beside it where a card is read.

import { el } from "/static/js/parts.js";
import { icon } from "/static/js/icons.js";
import { t, term } from "/static/js/words.js";

const GAME = "witchcraft";
const words = (kind) => term(GAME, `ingredient.${kind}`, String(kind).replaceAll("_", " "));

/** A market or inventory card's picture, named as the card reads; null for an empty space. */
export function cardPicture(card) {
  if (!card) return null;
  if (card.category === "spell") return icon(GAME, "spells", card.card, `${term(GAME, "term.spell", "spell")} ✦${card.magic}`);
  if (card.category === "joker") return icon(GAME, "ingredients", "joker", term(GAME, "term.joker", "joker"));
  return icon(GAME, "ingredients", card.kind, words(card.kind));
}

/** A witch's inventory as the cards' small pictures, each named. */
export function inventoryPictures(cards) {
  return el("span", { class: "satchel-tokens" }, cards.map((c) => cardPicture(c) || (c.kind ? words(c.kind) : term(GAME, `term.${c.category}`, c.category))));
}

/** A familiar's picture and name (as the page names it), "(used)" in the tablet's words once its action is spent. */
export function familiarChip(familiar, name, used) {
  return el("span", { class: "token with-icon", "data-familiar": familiar },
    icon(GAME, "familiars", familiar, name), el("span", { class: "label" }, name + (used ? ` (${t("witchcraft.used")})` : "")));
}

/** A spell's recipe as its ingredients' small pictures, each named; null for any other card. */
export function recipePictures(card) {
  if (!card || !card.recipe) return null;
  return el("span", { class: "satchel-tokens", "data-recipe": card.recipe.join(" ") },
    card.recipe.map((kind) => icon(GAME, "ingredients", kind, words(kind)) || words(kind)));
}
