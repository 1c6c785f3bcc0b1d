// Das Grimoire des Wahnsinns' elements as pictures (Feuer, Wasser, Erde, Luft), named as the page names
// them beside the picture (German alone on a German tablet, German and English on an English one).

import { icon } from "/static/js/icons.js";

export function elementPicture(de, label) {
  return icon("grimoire", "elements", de, label);
}
