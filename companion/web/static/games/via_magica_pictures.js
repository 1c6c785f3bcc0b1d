// Via Magica's Animus tokens and portals as pictures, each named, for the chips and cards the page draws.

import { icon } from "/static/js/icons.js";

/** An Animus token's picture (Air, Water, ... Wildcard), named; null for no token. */
export function animusPicture(animus) {
  return animus ? icon("via_magica", "animus", animus, animus) : null;
}

/** A portal's picture in its colour, named by the colour. */
export function portalPicture(colour) {
  return icon("via_magica", "portal_colours", colour, `${colour} portal`);
}

/** What a portal's Animus space shows: its Animus's picture, or a crystal once one sits on it. */
export function spacePicture(space) {
  return space.crystal ? icon("via_magica", "crystals", "crystal", `${space.animus}: crystal`) : animusPicture(space.animus);
}
