// The games' tokens, cards and places as pictures drawn for Incanto (static/icons/, one SVG each), always
// with their name beside them or as the picture's name, so a picture that fails still reads in words.

// Which picture each entry of a game's data is drawn with (static/icons/icons.json); read once, before
// any page draws, so the pages can ask for a picture without waiting.
const MAP = await fetch("/static/icons/icons.json").then((r) => (r.ok ? r.json() : { games: {} })).catch(() => ({ games: {} }));

// Its own small element maker: parts.js draws pictures too, and a module waiting on the map above must
// not sit in a cycle of imports with it.
function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) if (value !== undefined && value !== null) node.setAttribute(key, value);
  for (const child of children.flat(Infinity)) if (child !== null && child !== undefined && child !== false) node.append(child);
  return node;
}

// Where a token lies says which of a game's sections names it (a potion space holds a potion, ...).
const SECTION_OF_PLACE = { potion: "potions", sorcerer: "sorcerers", book: "books" };

/** The picture of a token as the rules' legal targets describe it ({place, kind, visible}): face down,
 *  the picture of a face-down one of its place. */
export function tokenPicture(game, token, label) {
  if (!token) return null;
  if (!token.kind) return icon(game, "unseen", `face_down_${token.place}`, label) || icon(game, "unseen", "secret", label);
  return icon(game, SECTION_OF_PLACE[token.place] || "tokens", token.kind, label);
}

/** The address of an entry's picture, or null when the game has none for it. */
export function iconUrl(game, section, name) {
  const pictures = (MAP.games[game] || {})[section] || {};
  const file = pictures[name] ?? pictures["*"];
  return file ? `/static/icons/${file}` : null;
}

/** The picture alone, named for a screen reader and on a long press; null when there is none. */
export function icon(game, section, name, label) {
  const url = iconUrl(game, section, name);
  return url ? el("img", { class: "icon", src: url, alt: label, title: label, width: 48, height: 48 }) : null;
}

/** A chip with the picture and its name: a token, card or place lying on the table (then any more). */
export function iconChip(game, section, name, label, attrs = {}, ...more) {
  const picture = icon(game, section, name, label);
  const classes = ["token", picture ? "with-icon" : "", attrs.class || ""].filter(Boolean).join(" ");
  return el("span", { ...attrs, class: classes, "data-icon": picture ? name : null }, picture, el("span", { class: "label" }, label), more);
}

/** Tokens alike face down as one picture and a count instead of a chip each; ``text`` says both in the
 *  tablet's words ("11 face down", "11 verdeckt"), since where the number goes is the language's. */
export function faceDownChip(game, section, name, count, text, attrs = {}) {
  if (!count) return null;
  const picture = icon(game, section, name, text);
  return el("span", { ...attrs, class: "token secret with-icon", "data-face-down": count, "aria-label": text },
    picture, el("span", { class: "label" }, text));
}
