// Via Magica's Animus tokens and portals as pictures, each named in the tablet's words, for the chips and
// cards the page draws.

import { icon } from "/static/js/icons.js";
import { t, term } from "/static/js/words.js";

const GAME = "via_magica";
const animusName = (a) => term(GAME, `animus.${a}`, a);

/** An Animus token's picture (Air, Water, ... Wildcard), named; null for no token. */
export function animusPicture(animus) {
  return animus ? icon(GAME, "animus", animus, animusName(animus)) : null;
}

/** A portal's picture in its colour, named by the colour. */
export function portalPicture(colour) {
  return icon(GAME, "portal_colours", colour, t("via_magica.portal_of", { colour: term(GAME, `colour.${colour}`, colour) }));
}

/** What a portal's Animus space shows: its Animus's picture, or a crystal once one sits on it. */
export function spacePicture(space) {
  return space.crystal ? icon(GAME, "crystals", "crystal", t("icons.space_crystal", { animus: animusName(space.animus) }))
    : animusPicture(space.animus);
}
