// Witchcraft: Moonlight Magic on the tablets: every witch's magic in large type on the way to 20, the
// 3×3 market with its crystals, spells with their ingredients, familiars; a buy is a tap per card, a tap
// per crystal placed, and "Buy".

import { el, seatColour, who } from "/static/js/parts.js";
import { lastTurnLines, section, winner, words } from "/static/games/generic.js";
import { cardPicture, familiarChip, inventoryPictures, recipePictures } from "/static/games/witchcraft_pictures.js";
import { t, term } from "/static/js/words.js";

const GAME = "witchcraft";
const upper = (text) => String(text).replace(/^./, (c) => c.toUpperCase());
const cap = (familiar) => upper(term(GAME, `familiar.${familiar}`, words(familiar))); // a familiar by name
const ingredient = (kind) => term(GAME, `ingredient.${kind}`, words(kind));
const witchTitle = (p) => term(GAME, `witch.${p.witch}`, p.witch_title);
const spellText = (s) => `✦${s.magic}: ${(s.recipe || []).map(ingredient).join(" + ")}`; // a spell card by what it asks and gives

if (!document.getElementById("witchcraft-style")) {
  document.head.append(el("style", { id: "witchcraft-style" }, `
    .wc-bar { height: .6rem; background: #0e0c14; border-radius: .3rem; margin-top: .3rem; }
    .wc-bar > div { height: 100%; background: var(--seat); border-radius: .3rem; }
    .wc-market { display: grid; grid-template-columns: repeat(3, minmax(9rem, 1fr)); gap: .5rem; max-width: 40rem; }
    .wc-card { background: #1a1724; border: 2px solid var(--line); border-radius: .5rem; padding: .5rem; text-align: left;
               min-height: 4.6rem; font-size: 1rem; color: var(--ink); }
    .wc-card[data-category="spell"] { border-color: #a46bff; }
    .wc-card[data-category="joker"] { border-color: #ffd24a; }
    .wc-card .wc-crystals { color: #7fe3ff; font-weight: bold; }
    button.wc-card.chosen { border-color: var(--accent); background: #3b3358; }
    button.wc-card.paid { box-shadow: inset 0 0 0 3px #7fe3ff; }
    .wc-witches { display: grid; grid-template-columns: repeat(auto-fit, minmax(16rem, 1fr)); gap: .8rem; }
    .wc-witch { border-left: .5rem solid var(--seat); background: #1a1724; border-radius: .4rem; padding: .4rem .7rem; }
    .wc-witch .name { color: var(--seat); font-weight: bold; font-size: 1.2rem; }
    .wc-big { font-size: 1.5rem; padding: .5rem 1.2rem; }
    .wc-face { display: flex; align-items: center; gap: .4rem; }
    .wc-face .icon { width: 2.2rem; height: 2.2rem; flex: none; }
  `));
}

function cardText(c) {
  if (!c) return t("witchcraft.empty");
  if (c.category === "spell") return `✦ ${c.magic} · ${c.recipe.map(ingredient).join(" + ")}`;
  return c.category === "joker" ? t("witchcraft.joker") : ingredient(c.kind);
}

/** A card the market shows, by its id (a card turned up and since bought is said by count). */
function cardOf(view, cid) {
  const space = (view.market || []).find((s) => s.card && s.card.card === cid);
  return space ? space.card : null;
}

function marketCell(space, { tap, chosen = false, paid = 0 } = {}) {
  const attrs = { class: ["wc-card", chosen ? "chosen" : "", paid ? "paid" : ""].join(" "), "data-space": space.space,
                  "data-category": space.card ? space.card.category : "empty" };
  const body = [el("div", { class: "wc-face" }, cardPicture(space.card), el("span", {}, cardText(space.card))),
    space.card && space.card.category === "spell" ? recipePictures(space.card) : null,
    space.crystals || paid ? el("div", { class: "wc-crystals" }, "◆".repeat(space.crystals) + (paid ? ` +${paid}` : "")) : null];
  return tap ? el("button", { ...attrs, onclick: () => tap(space.space), disabled: !space.card }, body) : el("div", attrs, body);
}

// -- the board --------------------------------------------------------------------------------

export function board(view, ctx) {
  return [
    section("game.scores", magicCards(view, ctx.flashed), waitingFor(view)),
    view.over ? section("game.game_over", el("p", { style: "font-size: 2rem; font-weight: bold" }, t("game.winner"), " ", winner(view)),
                        el("p", { class: "muted" }, t("game.ranking"), " ", (view.ranking || []).join(" · "))) : null,
    section("witchcraft.market", el("div", { class: "wc-market" }, view.market.map((s) => marketCell(s))),
      el("p", { class: "muted" }, t("witchcraft.supplies", { deck: view.deck, discard: view.discard, supply: view.supply,
        basic: view.basic_left, familiars: view.familiars_left }), view.familiar_top ? ` (${t("witchcraft.top", { familiar: cap(view.familiar_top) })})` : "")),
    section("witchcraft.witches", el("div", { class: "wc-witches" }, view.players.map((p) => witchCard(p)))),
    section("game.last_turn", lastTurnLines(view, SAY)),
  ];
}

function magicCards(view, flashed = new Set()) {
  const best = Math.max(...view.players.map((p) => p.magic), 0);
  return el("div", { class: "players" }, view.players.map((p) => el("div", {
    class: ["player", best > 0 && p.magic === best ? "leader" : "", flashed.has(p.name) ? "flash" : ""].join(" "),
    style: `--seat: ${seatColour(p.seat)}`, "data-player": p.name },
    el("div", { class: "name" }, p.name, p.turn ? el("span", { class: "token", style: "font-size: .8rem; margin-left: .4rem" }, t("witchcraft.to_play")) : ""),
    el("div", { class: "points", "data-points": p.magic }, p.magic),
    el("div", { class: "wand" }, `${witchTitle(p)} · ${p.crystals} ◆`),
    el("div", { class: "wc-bar" }, el("div", { style: `width: ${Math.min(100, (100 * p.magic) / view.goal)}%` })),
    el("div", { class: "muted", style: "font-size: .75rem" }, Object.entries(p.breakdown).filter(([, v]) => v).map(([k, v]) => `${t(`ending.witchcraft.${k}`)} ${v}`).join(" · ")))));
}

function witchCard(p) {
  return el("div", { class: "wc-witch", style: `--seat: ${seatColour(p.seat)}`, "data-witch": p.name },
    el("div", { class: "name" }, p.name, el("span", { class: "muted", style: "font-size: .85rem" }, ` ${witchTitle(p)}`)),
    p.spells.map((s) => el("div", { "data-spell": s.card }, spellText(s), " ", recipePictures(s),
      el("span", { class: "muted" }, ` — ${t("witchcraft.has_needs", { has: s.assigned.map(cardText).join(", ") || t("parts.nothing"), needs: s.needs })}`))),
    p.inventory.length ? el("div", { class: "muted" }, t("witchcraft.inventory"), " ", inventoryPictures(p.inventory), " ", p.inventory.map(cardText).join(", ")) : null,
    p.familiars.length ? el("div", {}, t("witchcraft.familiars"), " ", p.familiars.map((f) => familiarChip(f.familiar, cap(f.familiar), f.used)),
      p.snake ? ` · ${t("witchcraft.snake_joker", { ingredient: ingredient(p.snake) })}` : "") : null,
    p.cast.length ? el("div", { class: "muted" }, t("witchcraft.cast"), " ", p.cast.map((c) => `✦${c.magic}`).join(", ")) : null);
}

function waitingFor(view) {
  const legal = view.legal || {};
  const kinds = ["turn", "raven_buy", "discard_spell", "discard_familiar", "snake", "turn_up", "witch", "benefit"];
  const kind = legal.kind === "turn" && legal.actions_left > 1 ? "turn_actions" : legal.kind;
  const text = kinds.includes(legal.kind) ? t(`witchcraft.waiting.${kind}`, { witch: legal.witch, actions: legal.actions_left }) : null;
  return text ? el("p", { class: "muted", "data-part": "waiting", style: "margin: .6rem 0 0; font-size: 1.3rem" }, text) : null;
}

// Each event as a sentence: witchcraft.say.<event>, the player's name in colour before it.
const said = (key, values = {}) => (e, v) => [who(v, e.player), " ", t(`witchcraft.say.${key}`, values)];
const SAY = {
  bought: (e, v) => said(e.crystals ? "bought_crystals" : "bought", { cards: e.cards.length, crystals: e.crystals })(e, v)
    .concat(e.paid ? [` (${t("witchcraft.say.pays", { paid: e.paid })})`] : []),
  cast: (e, v) => said("cast", { magic: e.magic })(e, v),
  familiar: (e, v) => said("familiar", { familiar: cap(e.familiar) })(e, v),
  basic_spell: (e, v) => said("basic_spell")(e, v),
  crystals: (e, v) => said("crystals", { crystals: e.crystals })(e, v),
  familiar_action: (e, v) => said("familiar_action", { familiar: cap(e.familiar) })(e, v),
  hare: (e, v) => said("hare")(e, v),
  snake: (e, v) => said("snake", { ingredient: ingredient(e.ingredient) })(e, v),
  spell_discarded: (e, v) => said("spell_discarded")(e, v),
  familiar_discarded: (e, v) => said("familiar_discarded", { familiar: cap(e.familiar) })(e, v),
  market_shifted: () => [t("witchcraft.say.market_shifted")],
  reshuffled: (e) => [t("witchcraft.say.reshuffled", { cards: e.cards })],
  turned_up: (e, v) => {
    const known = e.cards.map((c) => cardOf(v, c));
    return [known.every(Boolean) ? t("witchcraft.say.turned_up", { cards: known.map(cardText).join(", ") })
      : t("witchcraft.say.turned_up_count", { count: e.cards.length })];
  },
  witch_drawn: (e, v) => said("witch_drawn", { witch: term(GAME, `witch.${e.witch}`, words(e.witch)) })(e, v),
  won: (e, v) => said("won", { magic: e.magic })(e, v),
  stalled: (e, v) => [t("witchcraft.say.stalled"), " ", who(v, e.player)],
};

// -- the controls -----------------------------------------------------------------------------

export function controls(view, ctx) {
  const legal = view.legal || {};
  const prompt = PROMPTS[legal.kind];
  if (!prompt) return section("game.next", el("p", { class: "muted" }, t("game.waiting")));
  return [layOut(view), prompt(view, legal, ctx.propose), hareButtons(view, legal, ctx.propose)];
}

// With Incanto's deck the tablet says which new cards to lay out: the market spaces that changed since
// this tablet last drew it (every space the first time).
let lastMarket = null;
function layOut(view) {
  if (view.draws === "table") return null;
  const now = view.market.map((s) => (s.card ? s.card.card : null));
  const fresh = view.market.filter((s, i) => s.card && (!lastMarket || lastMarket[i] !== now[i]));
  lastMarket = now;
  if (!fresh.length) return null;
  return el("p", { class: "muted", "data-part": "lay-out", style: "font-size: 1.1rem" }, t("witchcraft.lay_out"), " ",
    fresh.map((s) => `${t("witchcraft.space", { space: s.space })}: ${cardText(s.card)}`).join(" · "));
}

/** One button per design that can come up (an ingredient kind, a joker, each spell), with how many. */
function picker(designs, pick, part = "pick-card") {
  return el("div", { class: "tokens", "data-part": part }, designs.map((c) => el("button", {
    class: "wc-card", "data-do": part, "data-card": c.card, "data-category": c.category,
    onclick: () => pick(c.card) }, cardText(c), c.count > 1 ? el("span", { class: "muted" }, ` ×${c.count}`) : "")));
}

function familiarPicker(names, pick) {
  return el("div", { class: "tokens", "data-part": "pick-familiar" }, names.map((f) => el("button", {
    class: "wc-big", "data-do": "pick-familiar", "data-familiar": f, onclick: () => pick(f) }, cap(f))));
}

const PROMPTS = {
  over: () => section("game.game_over", el("p", {}, t("page.start_from_night"))),
  turn_up: (view, legal, propose) => section(t(legal.dealing ? "witchcraft.turn_up_deal" : "witchcraft.turn_up_fill", { space: legal.spaces[0] }),
    el("p", { class: "muted" }, t("witchcraft.turn_up_hint")),
    picker(legal.possible, (card) => propose({ type: "turn_up", witch: legal.witch, cards: [card] }))),
  witch: (view, legal, propose) => section(t("witchcraft.draw_witch", { witch: legal.witch }), el("div", { class: "tokens", "data-part": "pick-witch" },
    legal.witches.map((w) => el("button", { class: "wc-big", "data-do": "pick-witch", "data-witch": w.witch,
      onclick: () => propose({ type: "draw_witch", witch: legal.witch, drawn: w.witch }) }, term(GAME, `witch.${w.witch}`, w.title))))),
  benefit: (view, legal, propose) => legal.wants === "familiar"
    ? section(t("witchcraft.benefit_familiar", { player: legal.player }), familiarPicker(legal.familiars,
      (f) => propose({ type: "turn_up", witch: legal.witch, cards: [f] })))
    : section(t(legal.wants === "spell" ? "witchcraft.benefit_spell" : "witchcraft.benefit_ingredient", { player: legal.player }), picker(legal.possible,
      (card) => propose({ type: "turn_up", witch: legal.witch, cards: [card] }))),
  turn: turnPrompt,
  raven_buy: (view, legal, propose) => section(t("witchcraft.raven_buy", { witch: legal.witch }), buyer(view, legal, propose, null).node,
    el("button", { class: "wc-big", "data-do": "pass", onclick: () => propose({ type: "buy", witch: legal.witch, cards: [] }) }, t("witchcraft.buy_nothing"))),
  discard_spell: (view, legal, propose) => section(t("witchcraft.discard_spell", { witch: legal.witch }), el("div", { class: "tokens" },
    legal.spells.map((s) => el("button", { class: "wc-big", "data-do": "discard", "data-spell": s,
      onclick: () => propose({ type: "discard", witch: legal.witch, spell: s }) }, spellOf(view, legal.witch, s))))),
  discard_familiar: (view, legal, propose) => section(t("witchcraft.discard_familiar", { witch: legal.witch }), el("div", { class: "tokens" },
    legal.familiars.map((f) => el("button", { class: "wc-big", "data-do": "discard", "data-familiar": f,
      onclick: () => propose({ type: "discard", witch: legal.witch, familiar: f }) }, cap(f))))),
  snake: (view, legal, propose) => section(t("witchcraft.snake_which", { witch: legal.witch }),
    el("div", { class: "tokens" }, legal.ingredients.map((i) => el("button", { class: "wc-big", "data-do": "snake", "data-ingredient": i,
      onclick: () => propose({ type: "snake", witch: legal.witch, ingredient: i }) }, ingredient(i))))),
};

/** A witch's spell card by what it asks and gives, never by its id. */
function spellOf(view, witch, card) {
  const p = view.players.find((x) => x.name === witch);
  const spell = p && p.spells.find((s) => s.card === card);
  return spell ? spellText(spell) : t("witchcraft.a_spell");
}

function turnPrompt(view, legal, propose) {
  const w = legal.witch;
  const can = legal.can;
  const buy = buyer(view, legal, propose, can);
  // With the Cat, one card chosen in the market (and its crystal) rides along with a take.
  const take = (type, label, ok = true) => el("button", { class: "wc-big", "data-do": type, disabled: !ok,
    onclick: () => propose({ type, witch: w, ...(can.cat && buy.chosen.length === 1
      ? { cat: { card: buy.chosen[0], pay: buy.pay.length ? buy.pay[0] : null } } : {}) }) }, label);
  // With the table's stacks, taking a familiar or a basic spell first asks which lies on top.
  const topPicker = el("div", { "data-part": "top-picker" });
  const table = view.draws === "table";
  const withCat = () => (can.cat && buy.chosen.length === 1 ? { cat: { card: buy.chosen[0], pay: buy.pay.length ? buy.pay[0] : null } } : {});
  const fromStack = (type, label, ok) => el("button", { class: "wc-big", "data-do": type, disabled: !ok, onclick: () => {
    const pick = (revealed) => propose({ type, witch: w, ...withCat(), revealed });
    topPicker.replaceChildren(type === "take_familiar"
      ? section(t("witchcraft.which_familiar"), familiarPicker(legal.familiars, pick))
      : section(t("witchcraft.which_basic"), picker(legal.basic, pick, "pick-basic")));
  } }, label);
  const familiarAction = (familiar, label, extra = {}) => el("button", { class: "wc-big", "data-do": "familiar_action", "data-familiar": familiar,
    onclick: () => propose({ type: "familiar_action", witch: w, familiar, ...extra }) }, label);
  return section(t("witchcraft.turn", { witch: w }),
    buy.node,
    can.cat ? el("p", { class: "muted" }, t("witchcraft.cat_hint")) : null,
    el("div", { class: "tokens", style: "margin-top: .8rem" },
      take("take_crystals", t("witchcraft.take_crystals")),
      (table ? fromStack : take)("take_familiar", view.familiar_top ? t("witchcraft.take_familiar_named", { familiar: cap(view.familiar_top) }) : t("witchcraft.take_familiar"), can.take_familiar),
      (table ? fromStack : take)("take_basic_spell", t("witchcraft.take_basic_spell"), can.take_basic_spell),
      can.magpie ? familiarAction("magpie", t("witchcraft.magpie")) : null,
      can.goat ? familiarAction("goat", t("witchcraft.goat")) : null,
      can.raven ? [0, 1, 2].map((row) => familiarAction("raven", t("witchcraft.raven", { row: row + 1 }), { row })) : null),
    topPicker);
}

/** Tap the cards to buy, then the cards that take a crystal, then Buy. The count owed is shown. */
function buyer(view, legal, propose, can) {
  const chosen = [];
  const pay = [];
  let mode = "cards";
  let familiar = null;
  const grid = el("div", { class: "wc-market" });
  const info = el("p", { style: "font-size: 1.1rem" });
  const owed = () => {
    const unpaid = chosen.filter((s) => !view.market[s].crystals).length;
    return familiar === "raccoon" && chosen.length === 3 ? Math.max(0, unpaid - 1) : unpaid;
  };
  const draw = () => {
    grid.replaceChildren(...view.market.map((s) => marketCell(s, {
      chosen: chosen.includes(s.space), paid: pay.filter((p) => p === s.space).length,
      tap: (space) => {
        if (mode === "cards") {
          const i = chosen.indexOf(space);
          if (i >= 0) chosen.splice(i, 1); else if (chosen.length < (familiar === "squirrel" ? 4 : 3)) chosen.push(space);
        } else if (!chosen.includes(space)) {
          if (pay.length < owed()) pay.push(space); else pay.splice(pay.indexOf(space) >= 0 ? pay.indexOf(space) : 0, 1);
        }
        draw();
      } })));
    info.textContent = mode === "cards"
      ? t("witchcraft.buy_hint", { most: familiar === "squirrel" ? 4 : 3, chosen: chosen.length })
      : t("witchcraft.pay_hint", { placed: pay.length, owed: owed() });
  };
  draw();
  const buttons = el("div", { class: "tokens" },
    el("button", { class: "wc-big", "data-do": "crystals-mode", onclick: () => { mode = mode === "cards" ? "pay" : "cards"; pay.length = 0; draw(); } }, t("witchcraft.crystals")),
    el("button", { class: "primary wc-big", "data-do": "buy", onclick: () => propose({ type: "buy", witch: legal.witch, cards: [...chosen], pay: [...pay],
      ...(familiar ? { familiar } : {}) }) }, t("witchcraft.buy")),
    can && can.squirrel ? el("button", { "data-do": "squirrel", onclick: (e) => { familiar = familiar === "squirrel" ? null : "squirrel"; e.target.classList.toggle("chosen"); draw(); } }, t("witchcraft.with_squirrel")) : null,
    can && can.raccoon ? el("button", { "data-do": "raccoon", onclick: (e) => { familiar = familiar === "raccoon" ? null : "raccoon"; e.target.classList.toggle("chosen"); draw(); } }, t("witchcraft.with_raccoon")) : null);
  return { node: el("div", { "data-part": "buyer" }, info, grid, buttons), chosen, pay };
}

function hareButtons(view, legal, propose) {
  const ready = Object.entries(legal.hare || {}).filter(([, ok]) => ok);
  if (!ready.length) return null;
  return section("witchcraft.the_hare_at_any_time", ready.map(([p]) => el("button", { class: "wc-big", "data-do": "hare", "data-witch": p,
    onclick: () => propose({ type: "hare", witch: p }) }, t("witchcraft.hare_button", { witch: p }))));
}
