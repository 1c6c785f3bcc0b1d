// Incantibus's table as pictures: each token, potion, book, sorcerer and spell card with its picture and
// name; the face-down ones of a row as one picture and a count, since they cannot be told apart anyway.
// Every name is the table's word for it (the game's data/words.json) in the tablet's language.

import { el, kindName } from "/static/js/parts.js";
import { faceDownChip, icon, iconChip } from "/static/js/icons.js";
import { t, term } from "/static/js/words.js";

const GAME = "incantibus";
const words = (kind) => (kind ? kindName(GAME, kind) : t("parts.secret"));
const ids = (spaces) => spaces.map((s) => s.id).join(" ");

/** The room's tokens: the visible ones by kind, the secret ones counted. */
export function roomTokens(room) {
  const secret = room.filter((t) => !t.visible);
  return [
    room.filter((t) => t.visible).map((t) => iconChip(GAME, "tokens", t.kind, words(t.kind), { "data-token": t.id })),
    faceDownChip(GAME, "unseen", "secret", secret.length, t("icons.secret_count", { count: secret.length }), { "data-tokens": ids(secret) }),
  ];
}

export function potionChips(potions) {
  return potions.filter(Boolean).map((p) => iconChip(GAME, "potions", p.kind,
    `${words(p.kind)} ${p.points ?? ""}`, { "data-token": p.id }, recipe(p.recipe || [])));
}

/** A potion's recipe as the ingredients' small pictures, each named. */
function recipe(kinds) {
  return el("span", { class: "recipe" }, kinds.map((k) => icon(GAME, "tokens", k, words(k)) || words(k)));
}

export function bookChips(books, condition) {
  return books.filter(Boolean).map((b) => iconChip(GAME, "books", b.kind, t("incantibus.book_chip", { points: b.points ?? "?", condition: condition(b.condition) }),
    { "data-token": b.id }));
}

export function sorcererChips(sorcerers) {
  const shown = sorcerers.filter((s) => s && (s.face_up || s.kind));
  const hidden = sorcerers.filter((s) => s && !(s.face_up || s.kind));
  return [
    shown.map((s) => iconChip(GAME, "sorcerers", s.kind, `${words(s.kind)} ${s.points ?? ""}`, { "data-token": s.id })),
    faceDownChip(GAME, "unseen", "face_down_sorcerer", hidden.length, t("icons.face_down_count", { count: hidden.length }), { "data-tokens": ids(hidden) }),
  ];
}

export function spellCardChips(cards) {
  return cards.filter(Boolean).map((c) => iconChip(GAME, "spell_cards", c, term(GAME, `spell.${c}`, String(c).replaceAll("_", " "))));
}

/** The newest tokens thrown in the moat, by kind. */
export function moatChips(kinds) {
  return kinds.map((k) => iconChip(GAME, "tokens", k, words(k)));
}

// A satchel's potion, book and sorcerer cells hold what the board's rows of those names show.
const SECTION_OF_CELL = { potion: "potions", book: "books", sorcerer: "sorcerers" };

/** A satchel cell's tokens as small named pictures. */
export function satchelTokens(tokens, cell) {
  const section = SECTION_OF_CELL[cell] || "tokens";
  return el("span", { class: "satchel-tokens", "data-cell": cell },
    tokens.map((t) => icon(GAME, section, t.kind, words(t.kind)) || words(t.kind)));
}

/** Which of the game's picture sections each token the table can see is drawn from, by its id: a
 *  satchel's cell or the board's row says it (a book's "gold_2" is no gold token), else "tokens". */
export function sectionsById(view) {
  const sections = {};
  for (const p of view.players || []) {
    for (const [cell, tokens] of Object.entries(p.satchel || {})) for (const t of tokens) sections[t.token] = SECTION_OF_CELL[cell] || "tokens";
  }
  for (const [row, section] of [["potions", "potions"], ["books", "books"], ["sorcerers", "sorcerers"]]) {
    for (const space of view[row] || []) if (space) { sections[space.id] = section; if (space.token) sections[space.token] = section; }
  }
  return sections;
}

/** The token a casting line names, as a small picture named ``label``: face down, the secret one's. */
export function castToken(section, kind, label) {
  const picture = kind ? icon(GAME, section || "tokens", kind, label) : icon(GAME, "unseen", "secret", label);
  return picture ? el("span", { class: "cast-token", "data-icon": kind || "secret" }, picture) : null;
}
