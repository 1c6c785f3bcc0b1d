// Ravenskeep's die as the face it shows, pips and all, named by its number.

import { icon } from "/static/js/icons.js";

export function dieFace(value) {
  return icon("ravenskeep", "die", String(value), String(value)) || String(value);
}
