// Via Magica on the tablets: the Catcher and the token drawn in large type, the bag, every player's
// portals with their Animus spaces, rewards, the central row; controls where a crystal is one tap.

import { el, seatColour, who } from "/static/js/parts.js";
import { lastTurnLines, section, winner, words } from "/static/games/generic.js";
import { animusPicture, portalPicture, spacePicture } from "/static/games/via_magica_pictures.js";
import { names } from "/static/js/history.js";
import { t, term } from "/static/js/words.js";

const GAME = "via_magica";
const animusName = (a) => term(GAME, `animus.${a}`, a);
const colourName = (c) => term(GAME, `colour.${c}`, c);
const rewardName = (r) => term(GAME, `reward.${r}`, words(r));

const ANIMUS = { Air: "#cfe8ff", Water: "#4aa3ff", Earth: "#b07a45", Life: "#5fd16b", Fire: "#ff5a3c",
                 Shadow: "#9a7bd6", Wildcard: "#ffd24a" };
const COLOUR = { yellow: "#f2c84b", green: "#4fc26b", blue: "#4a8dff", purple: "#a46bff" };

// The page's own look, once: large enough to read across the table.
if (!document.getElementById("via-magica-style")) {
  document.head.append(el("style", { id: "via-magica-style" }, `
    .vm-big { font-size: 2.6rem; font-weight: bold; }
    .vm-token { display: inline-block; padding: .2rem 1rem; border-radius: 2rem; color: #14121c; }
    .vm-portals { display: flex; flex-wrap: wrap; gap: .5rem; }
    .vm-portal { border-top: .45rem solid var(--pc); background: #1a1724; border-radius: .4rem; padding: .35rem .5rem;
                 min-width: 7.5rem; }
    .vm-portal .vm-head { display: flex; justify-content: space-between; font-size: .85rem; color: var(--dim); }
    .vm-portal .vm-head b { color: var(--ink); font-size: 1.1rem; }
    .vm-spaces { display: flex; gap: .3rem; margin-top: .3rem; }
    .vm-space { width: 2.6rem; height: 2.6rem; border-radius: 50%; border: 3px solid var(--ac); background: transparent;
                color: var(--ac); font-weight: bold; font-size: .8rem; padding: 0; min-height: 0; }
    .vm-space.on { background: var(--ac); color: #14121c; }
    button.vm-space.lit { box-shadow: 0 0 0 3px #fff; }
    button.vm-space.chosen { box-shadow: 0 0 0 4px var(--accent); }
    .vm-row { display: grid; grid-template-columns: 8rem 1fr; gap: .6rem; align-items: start; margin: .4rem 0; }
    .vm-row .who { font-size: 1.2rem; font-weight: bold; color: var(--seat); }
    .vm-call { font-size: 1.5rem; padding: .5rem 1.4rem; }
    .vm-token .icon { width: 1.2em; height: 1.2em; vertical-align: -.2em; margin-right: .3em; }
    .vm-head .icon { width: 1.4rem; height: 1.4rem; vertical-align: middle; margin-right: .25rem; }
    [data-part="bag-counts"] .icon { width: 1.6rem; height: 1.6rem; }
    .vm-space .icon { width: 1.7rem; height: 1.7rem; display: block; margin: auto; pointer-events: none; }
  `));
}

function animusChip(animus, big = false) {
  return el("span", { class: "vm-token" + (big ? " vm-big" : ""), style: `background: ${ANIMUS[animus] || "#888"}`,
                      "data-animus": animus }, animusPicture(animus), animus ? animusName(animus) : "—");
}

/** A portal card: its colour, points, effect, and its spaces (buttons when ``tap`` is given). */
function portalCard(p, { tap, lit = [], chosen = null } = {}) {
  const effect = p.effect ? effectText(p.effect) : "";
  return el("div", { class: "vm-portal", style: `--pc: ${COLOUR[p.colour]}`, "data-portal": p.portal },
    el("div", { class: "vm-head" }, el("span", {}, portalPicture(p.colour), colourName(p.colour)), el("b", {}, p.colour === "green" ? "" : p.points)),
    effect ? el("div", { class: "muted", style: "font-size: .75rem" }, effect) : null,
    el("div", { class: "vm-spaces" }, p.spaces.map((s) => {
      const key = `${p.portal}.${s.space}`;
      const attrs = { class: ["vm-space", s.crystal ? "on" : "", lit.includes(key) ? "lit" : "", chosen === key ? "chosen" : ""].join(" "),
                      style: `--ac: ${ANIMUS[s.animus]}`, title: animusName(s.animus), "data-space": key };
      return tap ? el("button", { ...attrs, onclick: () => tap(p.portal, s.space, s) }, spacePicture(s) || animusName(s.animus).slice(0, 2))
                 : el("span", { ...attrs, style: attrs.style + "; display: inline-grid; place-items: center" }, spacePicture(s) || animusName(s.animus).slice(0, 2));
    })));
}

function effectText(e) {
const kinds = ["stockpile", "place_indicated", "place_any", "rearrange", "two_portals", "open_another", "wildcard", "per_colour", "per_animus"];
  if (!kinds.includes(e.kind)) return words(e.kind);
  return t(`via_magica.effect.${e.kind}`, { count: e.count, points: e.points, colour: colourName(e.colour),
    animus: Array.isArray(e.animus) ? e.animus.map(animusName).join(" + ") : animusName(e.animus) });
}

// -- the board --------------------------------------------------------------------------------

export function board(view, ctx) {
  return [
    section("game.scores", scoreCards(view, ctx.flashed), waitingFor(view)),
    section("via_magica.the_bag", bagLine(view)),
    view.over ? section("game.game_over", el("p", { class: "vm-big" }, t("via_magica.junior_mage"), " ", el("b", {}, winner(view))),
                        el("p", { class: "muted" }, t("game.ranking"), " ", (view.ranking || []).join(" · "))) : null,
    section("via_magica.portals", view.players.map((p) => el("div", { class: "vm-row", style: `--seat: ${seatColour(p.seat)}`, "data-player-portals": p.name },
      el("div", { class: "who" }, p.name, el("div", { class: "muted", style: "font-size: .8rem" }, t("via_magica.crystals", { count: p.stockpile }))),
      el("div", { class: "vm-portals" }, p.area.map((x) => portalCard(x)),
        p.achieved.length ? el("div", { class: "muted", style: "align-self: center" }, t("via_magica.open_portals", { count: p.achieved.length })) : null)))),
    section("via_magica.central_row", el("div", { class: "vm-portals" }, view.row.map((x) => portalCard(x))),
            el("p", { class: "muted" }, t("via_magica.draw_pile", { count: view.deck }))),
    section("via_magica.rewards", rewardsList(view)),
    section("game.last_turn", lastTurnLines(view, SAY)),
  ];
}

function scoreCards(view, flashed = new Set()) {
  const best = Math.max(...Object.values(view.scores || {}), 0);
  return el("div", { class: "players" }, view.players.map((p) => {
    const points = (view.scores || {})[p.name] ?? p.points;
    return el("div", { class: ["player", best > 0 && points === best ? "leader" : "", flashed.has(p.name) ? "flash" : ""].join(" "),
                       style: `--seat: ${seatColour(p.seat)}`, "data-player": p.name },
      el("div", { class: "name" }, p.name, p.catcher ? el("span", { class: "token", style: "font-size: .8rem; margin-left: .4rem" }, t("via_magica.catcher")) : ""),
      el("div", { class: "points", "data-points": points }, points),
      el("div", { class: "wand" }, t("via_magica.portals_and_crystals", { open: p.portals_open, crystals: p.stockpile })),
      el("div", { class: "muted", style: "font-size: .75rem" },
        Object.entries(p.breakdown).map(([k, v]) => `${t(`ending.via_magica.${k}`)} ${v}`).join(" · ")));
  }));
}

function bagLine(view) {
  return el("div", { class: "picker-row", style: "gap: 1rem" },
    el("span", { style: "font-size: 1.3rem" }, t("via_magica.catcher"), " ", who(view, view.catcher)),
    view.token ? animusChip(view.token, true) : el("span", { class: "muted" }, t("via_magica.no_token_yet")),
    el("span", { class: "tokens", "data-part": "bag-counts" }, Object.entries(view.bag).map(([k, n]) =>
      el("span", { class: "token with-icon", style: `border: 2px solid ${ANIMUS[k]}` }, animusPicture(k), `${animusName(k)} ${n}`))),
    el("span", { class: "muted" }, `(${view.draws === "table" ? t("via_magica.real_bag") : t("via_magica.incanto_draws")})`));
}

function rewardsList(view) {
  return el("div", { class: "tokens" }, Object.entries(view.rewards).map(([name, r]) =>
    el("span", { class: "token", "data-reward": name, style: r.holder ? "background: #3b3358" : "" },
      `${rewardName(name)} ${r.points}`, r.holder ? [" → ", who(view, r.holder)] : "")));
}

function waitingFor(view) {
  const legal = view.legal || {};
  const kinds = ["keep", "dealt", "draw", "crystallize", "effect", "select", "reward"];
  const kind = legal.kind === "crystallize" && legal.openers && legal.openers.length ? "crystallize_opened" : legal.kind;
  const text = kinds.includes(legal.kind) ? t(`via_magica.waiting.${kind}`, { catcher: view.catcher, player: legal.player,
    openers: names(legal.openers || []), token: animusName(view.token), reward: rewardName(legal.reward) }) : null;
  return text ? el("p", { class: "muted", "data-part": "waiting", style: "margin: .6rem 0 0; font-size: 1.2rem" }, text) : null;
}

const SAY = {
  drawn: (e, v) => [who(v, e.player), " ", t("via_magica.say.drawn"), " ", animusChip(e.animus)],
  crystal: (e, v) => [who(v, e.player), " ", t(e.moved_from ? "via_magica.say.crystal_moved" : "via_magica.say.crystal", { space: e.space + 1 })],
  incantatum: (e, v) => ["INCANTATUM! ", e.order.map((p, i) => [i ? " → " : "", who(v, p)]), e.tie.length ? ` (${t("via_magica.say.same_instant")})` : ""],
  opened: (e, v) => [who(v, e.player), " ", t("via_magica.say.opened", { colour: colourName(e.colour) })],
  took: (e, v) => [who(v, e.player), " ", t("via_magica.say.took")],
  reward: (e, v) => [who(v, e.player), " ", t("via_magica.say.reward", { reward: rewardName(e.reward), points: e.points })],
  reward_passed: (e, v) => [who(v, e.player), " ", t("via_magica.say.reward_passed", { reward: rewardName(e.reward) })],
  effect: (e, v) => [who(v, e.player), " ", t("via_magica.say.effect")],
  bag_passed: (e, v) => [t("via_magica.say.bag_passed"), " ", who(v, e.player)],
  kept: (e, v) => [who(v, e.player), " ", t("via_magica.say.kept", { count: e.portals.length })],
  dealt: () => [t("via_magica.say.dealt")],
  incantatum_late: (e, v) => [who(v, e.player), " ", t("via_magica.say.incantatum_late"), " ", e.order.map((p, i) => [i ? " → " : "", who(v, p)])],
  game_over: () => [t("via_magica.say.game_over")],
};

// -- the controls -----------------------------------------------------------------------------

export function controls(view, ctx) {
  const legal = view.legal || {};
  const prompt = PROMPTS[legal.kind];
  if (!prompt) return section("game.next", el("p", { class: "muted" }, t("game.waiting")));
  const late = legal.late && legal.late.waiting.some((p) => legal.late.targets[p].length)
    ? section(t("via_magica.still_placing", { token: animusName(legal.late.token) }), placingRows(view, legal.late, ctx.propose)) : null;
  return [prompt(view, legal, ctx.propose), late];
}

const mine = (view, name) => view.players.find((p) => p.name === name);

const PROMPTS = {
  over: () => section("game.game_over", el("p", {}, t("page.start_from_night"))),
  keep: keepPrompt,
  draw: (view, legal, propose) => section(t("via_magica.captures", { catcher: legal.catcher }),
    legal.draws === "companion"
      ? el("button", { class: "primary vm-call", "data-do": "draw", onclick: () => propose({ type: "draw" }) }, t("via_magica.draw_from_bag"))
      : el("div", { class: "tokens" }, el("span", { class: "muted" }, t("via_magica.drawn_from_real_bag"), " "),
          legal.bag.map((a) => el("button", { class: "vm-call", "data-do": "draw", "data-animus": a, style: `border-color: ${ANIMUS[a]}`,
                                            onclick: () => propose({ type: "draw", animus: a }) }, animusName(a))))),
  crystallize: crystallizePrompt,
  effect: effectPrompt,
  select: selectPrompt,
  dealt: dealtPrompt,
  reward: (view, legal, propose) => section(t("via_magica.reward.title", { player: legal.player, open: legal.portals_open }),
    el("p", { style: "font-size: 1.3rem" }, t("via_magica.reward.ask", { reward: rewardName(legal.reward), points: legal.points })),
    el("button", { class: "primary vm-call", "data-do": "claim", onclick: () => propose({ type: "reward", player: legal.player, claim: true }) }, t("via_magica.reward.claim")),
    " ", el("button", { class: "vm-call", "data-do": "pass", onclick: () => propose({ type: "reward", player: legal.player, claim: false }) }, t("via_magica.reward.wait"))),
};

/** A new portal from the row; with the table's cards, the design turned up to refill the row comes too. */
function selectPrompt(view, legal, propose) {
  const turned = legal.revealed ? designSelect(legal.revealed, "revealed", t("via_magica.pile_empty")) : null;
  return section(t(legal.picks > 1 ? "via_magica.select.two" : "via_magica.select.one", { player: legal.player }),
    turned ? el("p", {}, t("via_magica.select.turned_up"), " ", turned) : null,
    el("div", { class: "vm-portals" }, view.row.map((p) => el("button", {
      "data-do": "portal", "data-portal": p.portal, disabled: !legal.selectable.includes(p.portal), style: "padding: .2rem",
      onclick: () => propose({ type: "portal", player: legal.player, take: p.portal,
                               ...(turned ? { revealed: turned.value || null } : {}) }) }, portalCard(p)))));
}

function designSelect(designs, name, blank = "—") {
  return el("select", { name, style: "font: inherit; font-size: 1.1rem; padding: .3rem" },
    el("option", { value: "" }, blank), designs.map((d) => el("option", { value: d }, d)));
}

/** The table dealt its own cards: the row and each player's three kept portals, by design. */
function dealtPrompt(view, legal, propose) {
  const row = Array.from({ length: legal.row_size }, (_, i) => designSelect(legal.designs, `row-${i}`));
  const kept = Object.fromEntries(legal.players.map((p) => [p, Array.from({ length: legal.keep }, (_, i) => designSelect(legal.designs, `${p}-${i}`))]));
  return section("via_magica.enter_the_deal",
    el("div", { class: "picker-row" }, el("span", { class: "who" }, t("via_magica.central_row")), row),
    legal.players.map((p) => el("div", { class: "picker-row" }, el("span", { class: "who" }, p), kept[p])),
    el("button", { class: "primary vm-call", "data-do": "dealt", onclick: () => propose({ type: "dealt",
      row: row.map((s) => s.value), kept: Object.fromEntries(Object.entries(kept).map(([p, ss]) => [p, ss.map((s) => s.value)])) }) },
      t("via_magica.deal_laid_out")));
}

function keepPrompt(view, legal, propose) {
  return section("via_magica.keep_three", legal.players.map((name) => {
    const chosen = new Set();
    const hand = mine(view, name).hand;
    const confirm = el("button", { class: "primary", "data-do": "keep", "data-player": name, disabled: true,
      onclick: () => propose({ type: "keep", player: name, portals: [...chosen] }) }, t("via_magica.keep_these"));
    return el("div", { class: "vm-row", style: `--seat: ${seatColour(mine(view, name).seat)}` }, el("div", { class: "who" }, name),
      el("div", { class: "vm-portals" }, hand.map((p) => {
        const button = el("button", { "data-keep": p.portal, style: "padding: .2rem", onclick: () => {
          if (chosen.has(p.portal)) chosen.delete(p.portal); else if (chosen.size < legal.keep) chosen.add(p.portal);
          button.classList.toggle("chosen", chosen.has(p.portal));
          confirm.disabled = chosen.size !== legal.keep;
        } }, portalCard(p));
        return button;
      }), confirm));
  }));
}

function crystallizePrompt(view, legal, propose) {
  return section(t("via_magica.crystallize", { token: animusName(legal.token) }), el("div", {}, animusChip(legal.token, true)),
                 placingRows(view, legal, propose), crystallizeCalls(view, legal, propose));
}

/** One row per player still to place: lit spaces take a crystal from the stockpile in one tap; tapping
 * a placed crystal first picks it up, and the next lit space is where it moves. */
function placingRows(view, legal, propose) {
  return legal.waiting.map((name) => {
    const me = mine(view, name);
    const lit = (legal.targets[name] || []).map((s) => `${s.portal}.${s.space}`);
    let lifted = null;
    const draw = () => holder.replaceChildren(...me.area.map((p) => portalCard(p, { lit, chosen: lifted && `${lifted.portal}.${lifted.space}`,
      tap: (portal, space, s) => {
        const key = `${portal}.${space}`;
        if (s.crystal) { lifted = lifted && lifted.portal === portal && lifted.space === space ? null : { portal, space }; return draw(); }
        if (!lit.includes(key)) return;
        const action = { type: "crystal", player: name, to: { portal, space } };
        if (lifted) action.moved_from = lifted;
        else if (!legal.stockpile[name]) return;
        propose(action);
      } })));
    const holder = el("div", { class: "vm-portals" });
    draw();
    return el("div", { class: "vm-row", style: `--seat: ${seatColour(me.seat)}`, "data-placing": name },
      el("div", { class: "who" }, name, el("div", { class: "muted", style: "font-size: .8rem" }, t("via_magica.in_stockpile", { count: legal.stockpile[name] }))), holder);
  });
}

function crystallizeCalls(view, legal, propose) {
  return legal.openers.length
    ? el("div", { class: "picker-row" }, el("span", { style: "font-size: 1.2rem" }, t("via_magica.who_called_first"), " "),
        legal.openers.map((p) => el("button", { class: "primary vm-call", "data-do": "incantatum", "data-player": p,
          onclick: () => propose({ type: "incantatum", first: p }) }, p)),
        el("span", { class: "muted" }, ` (${t("via_magica.button_wands_enter")})`))
    : nextDraw(view, propose);
}

/** The next draw ends this turn (whoever has not placed lets this token pass). */
function nextDraw(view, propose) {
  if (view.draws === "companion") {
    return el("button", { class: "vm-call", "data-do": "draw", onclick: () => propose({ type: "draw" }) }, t("via_magica.next_draw"));
  }
  return el("div", { class: "tokens" }, el("span", { class: "muted" }, t("via_magica.next_from_real_bag"), " "),
    Object.entries(view.bag).filter(([, n]) => n > 0).map(([a]) => el("button", { "data-do": "draw", "data-animus": a,
      style: `border-color: ${ANIMUS[a]}`, onclick: () => propose({ type: "draw", animus: a }) }, animusName(a))));
}

function effectPrompt(view, legal, propose) {
  const me = mine(view, legal.player);
  const e = legal.effect;
  if (e.kind === "open_another") {
    return section(t("via_magica.opens_another", { player: legal.player }), el("div", { class: "vm-portals" }, me.area.map((p) =>
      el("button", { "data-do": "effect", "data-portal": p.portal, style: "padding: .2rem",
                     onclick: () => propose({ type: "effect", player: legal.player, open: p.portal }) }, portalCard(p)))));
  }
  const picked = [];
  const most = e.kind === "rearrange" ? legal.placed.length : Math.min(e.kind === "place_any" ? e.count : e.animus.length, legal.stockpile);
  const holder = el("div", { class: "vm-portals" });
  const draw = () => holder.replaceChildren(...me.area.map((p) => portalCard(
    { ...p, spaces: p.spaces.map((s) => ({ ...s, crystal: e.kind === "rearrange" ? false : s.crystal })) },
    { lit: picked, tap: (portal, space) => {
      const key = `${portal}.${space}`;
      const i = picked.indexOf(key);
      if (i >= 0) picked.splice(i, 1); else if (picked.length < most) picked.push(key);
      draw();
    } })));
  draw();
  const confirm = () => {
    const spaces = picked.map((k) => ({ portal: k.split(".")[0], space: Number(k.split(".")[1]) }));
    if (e.kind !== "rearrange") return propose({ type: "effect", player: legal.player, spaces });
    const layout = {};
    for (const s of spaces) (layout[s.portal] ||= []).push(s.space);
    return propose({ type: "effect", player: legal.player, layout });
  };
  const say = e.kind === "rearrange" ? t("via_magica.tap_rearrange", { count: most }) : t("via_magica.tap_up_to", { count: most, effect: effectText(e) });
  return section(`${legal.player}: ${effectText(e)}`, el("p", {}, say), holder,
    el("button", { class: "primary vm-call", "data-do": "effect", onclick: confirm }, t("via_magica.done")));
}
