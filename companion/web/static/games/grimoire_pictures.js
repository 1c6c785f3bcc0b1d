// Das Grimoire des Wahnsinns' elements as pictures (Feuer, Wasser, Erde, Luft), named as the page names
// them beside the picture (German alone on a German tablet, German and English on an English one): in the
// legend, on each curse lying on the ritual circle, and on the buttons that name a curse.

import { el } from "/static/js/parts.js";
import { icon, iconUrl } from "/static/js/icons.js";

const GAME = "grimoire";
const SVG = "http://www.w3.org/2000/svg";

export function elementPicture(de, label) {
  return icon(GAME, "elements", de, label);
}

/** An element on a curse card in the ritual circle (SVG): its picture filling the disc at (cx, cy),
 *  named by ``label`` for a screen reader and a long press; null when the game has no picture for it
 *  (the circle then keeps its letter). */
export function elementMark(e, cx, cy, r, label) {
  const url = iconUrl(GAME, "elements", e);
  if (!url) return null;
  const image = document.createElementNS(SVG, "image");
  for (const [key, value] of Object.entries({ href: url, x: cx - r, y: cy - r, width: 2 * r, height: 2 * r,
    class: "element-picture", "data-element": e, role: "img", "aria-label": label })) image.setAttribute(key, value);
  const title = document.createElementNS(SVG, "title");
  title.textContent = label;
  image.append(title);
  return image;
}

/** A curse's elements as a row of small pictures, for a button that names the curse by its elements. */
export function curseElements(elements, label) {
  return el("span", { class: "curse-pictures", "data-elements": elements.join(" ") },
    elements.map((e) => elementPicture(e, label(e))));
}
