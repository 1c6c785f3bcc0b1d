// Das Grimoire des Wahnsinns' elements as pictures (Feuer, Wasser, Erde, Luft), named in German and English.

import { icon } from "/static/js/icons.js";

export function elementPicture(de, en) {
  return icon("grimoire", "elements", de, `${de} · ${en}`);
}
