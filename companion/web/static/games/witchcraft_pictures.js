// Witchcraft's cards as pictures: an ingredient by its kind, a joker, a spell card, a familiar; each picture
// named, and the words still beside it where a card is read.

import { el } from "/static/js/parts.js";
import { icon } from "/static/js/icons.js";

const GAME = "witchcraft";
const words = (kind) => String(kind).replaceAll("_", " ");

/** A market or inventory card's picture, named as the card reads; null for an empty space. */
export function cardPicture(card) {
  if (!card) return null;
  if (card.category === "spell") return icon(GAME, "spells", card.card, `spell ${card.card}`);
  if (card.category === "joker") return icon(GAME, "ingredients", "joker", "joker");
  return icon(GAME, "ingredients", card.kind, words(card.kind));
}

/** A witch's inventory as the cards' small pictures, each named. */
export function inventoryPictures(cards) {
  return el("span", { class: "satchel-tokens" }, cards.map((c) => cardPicture(c) || words(c.kind || c.category)));
}

/** A familiar's picture and name, "(used)" once its action is spent. */
export function familiarChip(familiar, name, used) {
  return el("span", { class: "token with-icon", "data-familiar": familiar },
    icon(GAME, "familiars", familiar, name), el("span", { class: "label" }, name + (used ? " (used)" : "")));
}

/** A spell's recipe as its ingredients' small pictures, each named; null for any other card. */
export function recipePictures(card) {
  if (!card || !card.recipe) return null;
  return el("span", { class: "satchel-tokens", "data-recipe": card.recipe.join(" ") },
    card.recipe.map((kind) => icon(GAME, "ingredients", kind, words(kind)) || words(kind)));
}
