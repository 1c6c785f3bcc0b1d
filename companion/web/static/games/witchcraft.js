// Witchcraft: Moonlight Magic on the tablets: every witch's magic in large type on the way to 20, the
// 3×3 market with its crystals, spells with their ingredients, familiars; a buy is a tap per card, a tap
// per crystal placed, and "Buy".

import { el, seatColour, who } from "/static/js/parts.js";
import { lastTurnLines, section, winner, words } from "/static/games/generic.js";
import { cardPicture, familiarChip, inventoryPictures, recipePictures } from "/static/games/witchcraft_pictures.js";

const cap = (text) => words(text).replace(/^./, (c) => c.toUpperCase());

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
  if (!c) return "empty";
  if (c.category === "spell") return `✦ ${c.magic} · ${c.recipe.map(words).join(" + ")}`;
  return c.category === "joker" ? "joker" : words(c.kind);
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
    section("Scores", magicCards(view, ctx.flashed), waitingFor(view)),
    view.over ? section("Game over", el("p", { style: "font-size: 2rem; font-weight: bold" }, "Winner: ", winner(view)),
                        el("p", { class: "muted" }, "Ranking: ", (view.ranking || []).join(" · "))) : null,
    section("Market", el("div", { class: "wc-market" }, view.market.map((s) => marketCell(s))),
      el("p", { class: "muted" }, `Deck ${view.deck} · discards ${view.discard} · supply ${view.supply} crystals · `,
        `basic spells ${view.basic_left} · familiars ${view.familiars_left}${view.familiar_top ? ` (top: ${view.familiar_top})` : ""}`)),
    section("Witches", el("div", { class: "wc-witches" }, view.players.map((p) => witchCard(p)))),
    section("Last turn", lastTurnLines(view, SAY)),
  ];
}

function magicCards(view, flashed = new Set()) {
  const best = Math.max(...view.players.map((p) => p.magic), 0);
  return el("div", { class: "players" }, view.players.map((p) => el("div", {
    class: ["player", best > 0 && p.magic === best ? "leader" : "", flashed.has(p.name) ? "flash" : ""].join(" "),
    style: `--seat: ${seatColour(p.seat)}`, "data-player": p.name },
    el("div", { class: "name" }, p.name, p.turn ? el("span", { class: "token", style: "font-size: .8rem; margin-left: .4rem" }, "to play") : ""),
    el("div", { class: "points", "data-points": p.magic }, p.magic),
    el("div", { class: "wand" }, `${p.witch_title} · ${p.crystals} ◆`),
    el("div", { class: "wc-bar" }, el("div", { style: `width: ${Math.min(100, (100 * p.magic) / view.goal)}%` })),
    el("div", { class: "muted", style: "font-size: .75rem" }, Object.entries(p.breakdown).filter(([, v]) => v).map(([k, v]) => `${k} ${v}`).join(" · ")))));
}

function witchCard(p) {
  return el("div", { class: "wc-witch", style: `--seat: ${seatColour(p.seat)}`, "data-witch": p.name },
    el("div", { class: "name" }, p.name, el("span", { class: "muted", style: "font-size: .85rem" }, ` ${p.witch_title}`)),
    p.spells.map((s) => el("div", { "data-spell": s.card }, `${s.card} ✦${s.magic}: `, recipePictures(s), " ", s.recipe.map(words).join(" + "),
      el("span", { class: "muted" }, ` — has ${s.assigned.map(cardText).join(", ") || "nothing"}, needs ${s.needs}`))),
    p.inventory.length ? el("div", { class: "muted" }, "inventory: ", inventoryPictures(p.inventory), " ", p.inventory.map(cardText).join(", ")) : null,
    p.familiars.length ? el("div", {}, "familiars: ", p.familiars.map((f) => familiarChip(f.familiar, cap(f.familiar), f.used)),
      p.snake ? ` · snake: ${words(p.snake)}` : "") : null,
    p.cast.length ? el("div", { class: "muted" }, `cast: ${p.cast.map((c) => `${c.card} ✦${c.magic}`).join(", ")}`) : null);
}

function waitingFor(view) {
  const legal = view.legal || {};
  const text = {
    turn: `${legal.witch}'s turn${legal.actions_left > 1 ? ` (${legal.actions_left} actions)` : ""}`,
    raven_buy: `${legal.witch} may buy after the Raven`, discard_spell: `${legal.witch} keeps 3 spells: discard one`,
    discard_familiar: `${legal.witch} keeps 2 familiars: discard one`, snake: `${legal.witch} names the Snake's ingredient`,
  }[legal.kind];
  return text ? el("p", { class: "muted", "data-part": "waiting", style: "margin: .6rem 0 0; font-size: 1.3rem" }, text) : null;
}

const SAY = {
  bought: (e, v) => [who(v, e.player), ` buys ${e.cards.length} card${e.cards.length > 1 ? "s" : ""}`, e.crystals ? ` and ${e.crystals} crystals` : "", e.paid ? ` (pays ${e.paid})` : ""],
  cast: (e, v) => [who(v, e.player), ` casts ${e.spell}: +${e.magic} magic`],
  familiar: (e, v) => [who(v, e.player), ` takes the ${cap(e.familiar)}`],
  basic_spell: (e, v) => [who(v, e.player), ` takes the basic spell ${e.spell}`],
  crystals: (e, v) => [who(v, e.player), ` takes ${e.crystals} crystals`],
  familiar_action: (e, v) => [who(v, e.player), ` uses the ${cap(e.familiar)}`],
  hare: (e, v) => [who(v, e.player), " casts the Hare's spell: +3 magic"],
  snake: (e, v) => [who(v, e.player), `'s Snake: ${words(e.ingredient)} is a joker`],
  spell_discarded: (e, v) => [who(v, e.player), ` discards ${e.spell}`],
  familiar_discarded: (e, v) => [who(v, e.player), ` lets the ${cap(e.familiar)} go`],
  market_shifted: () => ["the market's bottom row is discarded; a new top row"],
  reshuffled: (e) => [`a new deck of ${e.cards} cards`],
  won: (e, v) => [who(v, e.player), ` reaches ${e.magic} magic and wins`],
  stalled: (e, v) => ["no card can come into play: ", who(v, e.player), " wins with the most magic"],
};

// -- the controls -----------------------------------------------------------------------------

export function controls(view, ctx) {
  const legal = view.legal || {};
  const prompt = PROMPTS[legal.kind];
  if (!prompt) return section(`Next: ${words(legal.kind)}`, el("p", { class: "muted" }, "Waiting for the table."));
  return [prompt(view, legal, ctx.propose), hareButtons(view, legal, ctx.propose)];
}

const PROMPTS = {
  over: () => section("Game over", el("p", {}, "Start the next game from the Night page.")),
  turn: turnPrompt,
  raven_buy: (view, legal, propose) => section(`${legal.witch} buys after the Raven`, buyer(view, legal, propose, null).node,
    el("button", { class: "wc-big", "data-do": "pass", onclick: () => propose({ type: "buy", witch: legal.witch, cards: [] }) }, "Buy nothing")),
  discard_spell: (view, legal, propose) => section(`${legal.witch}: discard a spell`, el("div", { class: "tokens" },
    legal.spells.map((s) => el("button", { class: "wc-big", "data-do": "discard", "data-spell": s,
      onclick: () => propose({ type: "discard", witch: legal.witch, spell: s }) }, s)))),
  discard_familiar: (view, legal, propose) => section(`${legal.witch}: discard a familiar`, el("div", { class: "tokens" },
    legal.familiars.map((f) => el("button", { class: "wc-big", "data-do": "discard", "data-familiar": f,
      onclick: () => propose({ type: "discard", witch: legal.witch, familiar: f }) }, cap(f))))),
  snake: (view, legal, propose) => section(`${legal.witch}: which ingredient does the Snake turn into a joker?`,
    el("div", { class: "tokens" }, legal.ingredients.map((i) => el("button", { class: "wc-big", "data-do": "snake", "data-ingredient": i,
      onclick: () => propose({ type: "snake", witch: legal.witch, ingredient: i }) }, words(i))))),
};

function turnPrompt(view, legal, propose) {
  const w = legal.witch;
  const can = legal.can;
  const buy = buyer(view, legal, propose, can);
  // With the Cat, one card chosen in the market (and its crystal) rides along with a take.
  const take = (type, label, ok = true) => el("button", { class: "wc-big", "data-do": type, disabled: !ok,
    onclick: () => propose({ type, witch: w, ...(can.cat && buy.chosen.length === 1
      ? { cat: { card: buy.chosen[0], pay: buy.pay.length ? buy.pay[0] : null } } : {}) }) }, label);
  const familiarAction = (familiar, label, extra = {}) => el("button", { class: "wc-big", "data-do": "familiar_action", "data-familiar": familiar,
    onclick: () => propose({ type: "familiar_action", witch: w, familiar, ...extra }) }, label);
  return section(`${w}'s turn: one action`,
    buy.node,
    can.cat ? el("p", { class: "muted" }, "The Cat: choose one ingredient above (and its crystal) before taking crystals, a familiar or a basic spell.") : null,
    el("div", { class: "tokens", style: "margin-top: .8rem" },
      take("take_crystals", "Take 2 crystals"),
      take("take_familiar", `Take the familiar${view.familiar_top ? ` (${cap(view.familiar_top)})` : ""} + 1 crystal`, can.take_familiar),
      take("take_basic_spell", "Take a basic spell + 1 crystal", can.take_basic_spell),
      can.magpie ? familiarAction("magpie", "Magpie: 6 crystals") : null,
      can.goat ? familiarAction("goat", "Goat: one more action") : null,
      can.raven ? [0, 1, 2].map((row) => familiarAction("raven", `Raven: row ${row + 1} under the deck`, { row })) : null));
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
      ? `Tap up to ${familiar === "squirrel" ? 4 : 3} adjacent cards to buy (${chosen.length} chosen), then "Crystals".`
      : `Tap the cards that take a crystal: ${pay.length} of ${owed()} placed.`;
  };
  draw();
  const buttons = el("div", { class: "tokens" },
    el("button", { class: "wc-big", "data-do": "crystals-mode", onclick: () => { mode = mode === "cards" ? "pay" : "cards"; pay.length = 0; draw(); } }, "Crystals"),
    el("button", { class: "primary wc-big", "data-do": "buy", onclick: () => propose({ type: "buy", witch: legal.witch, cards: [...chosen], pay: [...pay],
      ...(familiar ? { familiar } : {}) }) }, "Buy"),
    can && can.squirrel ? el("button", { "data-do": "squirrel", onclick: (e) => { familiar = familiar === "squirrel" ? null : "squirrel"; e.target.classList.toggle("chosen"); draw(); } }, "with the Squirrel") : null,
    can && can.raccoon ? el("button", { "data-do": "raccoon", onclick: (e) => { familiar = familiar === "raccoon" ? null : "raccoon"; e.target.classList.toggle("chosen"); draw(); } }, "with the Raccoon") : null);
  return { node: el("div", { "data-part": "buyer" }, info, grid, buttons), chosen, pay };
}

function hareButtons(view, legal, propose) {
  const ready = Object.entries(legal.hare || {}).filter(([, ok]) => ok);
  if (!ready.length) return null;
  return section("The Hare, at any time", ready.map(([p]) => el("button", { class: "wc-big", "data-do": "hare", "data-witch": p,
    onclick: () => propose({ type: "hare", witch: p }) }, `${p} casts the Hare's spell (+3)`)));
}
