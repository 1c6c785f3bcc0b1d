// The history as sentences: one per kind of entry, in the tablet's language (history.<game>.<action>
// in the catalogue), with players by name and tokens, cards and places by the names their game gives
// them (its data/words.json); never an id or a raw list.

import { lang, t, term } from "./words.js";

const PLACES = { r: "room", p: "potion", b: "book", s: "sorcerer" }; // an Incantibus place id: r3 is the room's 4th

/** "Lera, Katya and Oleg" in the tablet's language. */
export function names(list) {
  const items = (list || []).map(String);
  if (items.length === 0) return t("history.nobody");
  try { return new Intl.ListFormat(lang, { type: "conjunction" }).format(items); } catch (e) { return items.join(", "); }
}

export function entrySentence(view, entry) {
  const payload = entry.payload || {};
  if (entry.kind === "setup") return t("history.setup", { players: names(payload.players || []) });
  if (entry.kind === "undo") return t("history.undo", { seq: payload.to });
  if (entry.kind === "redo") return t("history.redo");
  const game = view.game;
  const build = (SENTENCES[game] || {})[payload.type];
  const who = payload.player ?? payload.witch ?? payload.first ?? "";
  if (!build) return t("history.other", { who });
  const [key, values] = build(view, payload);
  return t(`history.${game}.${key}`, { who, ...values });
}

// -- naming things in a past entry (the view is today's: a place is named by where it is, a token by its kind)

function kindOf(view, token) {
  const seen = findIn(view, (o) => (o.token === token || o.id === token) && typeof o.kind === "string");
  return seen ? seen.kind : null;
}

function findIn(value, wanted, depth = 0) {
  if (!value || typeof value !== "object" || depth > 6) return null;
  if (!Array.isArray(value) && wanted(value)) return value;
  for (const child of Object.values(value)) {
    const found = findIn(child, wanted, depth + 1);
    if (found) return found;
  }
  return null;
}

function tokenName(view, token) {
  const kind = kindOf(view, token);
  return kind ? term(view.game, `token.${kind}`, kind.replaceAll("_", " ")) : t("parts.a_token");
}

function placeName(game, id) {
  if (id === null || id === undefined) return t("parts.nothing");
  const match = /^([a-z])(\d+)$/.exec(String(id));
  if (!match || !PLACES[match[1]]) return t("parts.a_token");
  return t("parts.token_at_place", { place: term(game, `place.${PLACES[match[1]]}`, PLACES[match[1]]), slot: Number(match[2]) + 1 });
}

function named(game, kind, key) { return term(game, `${kind}.${key}`, String(key).replaceAll("_", " ")); }

function portal(view, id) {
  if (!id) return t("via_magica.a_portal");
  const found = findIn(view, (o) => (o.id === id || o.portal === id) && typeof o.colour === "string");
  return found ? t("via_magica.portal_of", { colour: named("via_magica", "colour", found.colour) }) : t("via_magica.a_portal");
}

function space(view, s) { return s ? t("via_magica.space", { portal: portal(view, s.portal), space: s.space + 1 }) : ""; }

function card(view, id) { return id ? term(view.game, `card.${id}`, named(view.game, "spell", String(id).replace(/[-_]\d+$/, ""))) : ""; }

// -- one sentence per action kind, game by game: [catalogue key under history.<game>., values]

const SENTENCES = {
  incantibus: {
    cast: (view, a) => ["cast", { castings: Object.entries(a.targets || {}).map(([p, target]) => `${p} → ${placeName(view.game, target)}`).join(", ") }],
    spell: (view, a) => ["spell", { card: named(view.game, "spell", a.card) }],
    satchel: (view, a) => (a.choice === "discard_new" ? ["satchel_new", {}] : ["satchel_discard", { token: tokenName(view, a.choice && a.choice.discard) }]),
    wand_down: () => ["wand_down", {}],
    room_entered: (view, a) => ["room_entered", { room: a.room ? named(view.game, "room", a.room) : t("incantibus.place.room"),
      visible: names((a.visible || []).map((k) => named(view.game, "token", k))), secret: a.secret ?? 0 }],
    reveal: (view, a) => ["reveal", { tokens: names(a.kinds ? Object.values(a.kinds).map((k) => named(view.game, "token", k))
                                                           : [named(view.game, "token", a.kind || "")]) }],
  },
  via_magica: {
    keep: (view, a) => [a.swap ? "keep_swap" : "keep", { count: (a.portals || []).length }],
    draw: (view, a) => (a.animus ? ["draw", { animus: named("via_magica", "animus", a.animus) }] : ["draw_any", {}]),
    crystal: (view, a) => [a.moved_from ? "crystal_moved" : "crystal", { to: space(view, a.to), from: space(view, a.moved_from) }],
    incantatum: (view, a) => [a.tie && a.tie.length ? "incantatum_tie" : "incantatum", { tie: names(a.tie) }],
    effect: (view, a) => ["effect", {}],
    portal: (view, a) => (a.take ? ["portal", { portal: portal(view, a.take) }] : ["portal_none", {}]),
    dealt: (view, a) => ["dealt", { players: names(Object.keys(a.kept || {})) }],
    reward: (view, a) => [a.claim ? "reward" : "reward_declined", {}],
  },
  witchcraft: {
    buy: (view, a) => ["buy", { count: (a.cards || []).length }],
    take_familiar: () => ["take_familiar", {}],
    take_basic_spell: () => ["take_basic_spell", {}],
    take_crystals: () => ["take_crystals", {}],
    familiar_action: (view, a) => ["familiar_action", { familiar: named("witchcraft", "familiar", a.familiar) }],
    hare: () => ["hare", {}],
    snake: (view, a) => ["snake", { ingredient: named("witchcraft", "ingredient", a.ingredient) }],
    discard: (view, a) => (a.familiar ? ["discard_familiar", { familiar: named("witchcraft", "familiar", a.familiar) }]
                                      : a.spell ? ["discard_spell", {}] : ["discard_nothing", {}]),
  },
  grimoire: {
    banish: (view, a) => [a.helpers && a.helpers.length ? "banish_helped" : "banish", { curse: named("grimoire", "curse", a.curse), helpers: names(a.helpers) }],
    cast: (view, a) => [a.times > 1 ? "cast_times" : "cast", { spell: card(view, a.spell), times: a.times }],
    learn: (view, a) => [a.drop ? "learn_drop" : "learn", { spell: card(view, a.spell), drop: card(view, a.drop) }],
    buy: (view, a) => ["buy", { element: named("grimoire", "element", a.element), value: a.value }],
    cure: (view, a) => [a.owner && a.owner !== a.player ? "cure_other" : "cure", { owner: a.owner }],
    end_turn: () => ["end_turn", {}],
    curses_drawn: () => ["curses_drawn", {}],
  },
  ravenskeep: {
    roll: (view, a) => [a.value !== undefined && a.value !== null ? "roll_value" : "roll", { dice: a.dice, value: a.value }],
    reroll: (view, a) => [a.value !== undefined && a.value !== null ? "reroll_value" : "reroll", { value: a.value }],
    play: (view, a) => [a.card ? "play_card" : "play", { steps: a.card ? a.card.steps : "", wizard: (a.wizard ?? 0) + 1 }],
    forgo: () => ["forgo", {}],
    spell: (view, a) => ["spell", { spell: named("ravenskeep", "spell", a.spell), steps: a.steps }],
    end_turn: () => ["end_turn", {}],
  },
};
