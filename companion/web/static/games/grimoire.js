// Das Grimoire des Wahnsinns on the tablets: the ritual circle drawn as a circle with its marker and
// the curses on each field, the open page and its monster, the round marker on its difficulty row,
// damage, reward and every player's madness. German terms first (the rulebook's), English beside.

import { el, seatColour } from "/static/js/parts.js";
import { section } from "/static/games/generic.js";
import { curseElements, elementMark, elementPicture } from "/static/games/grimoire_pictures.js";
import { lang, t, term } from "/static/js/words.js";

// On a German tablet the rulebook's words alone; on an English one the rulebook's word, then English.
const GAME = "grimoire";
const bi = (de, en) => (lang === "de" ? de : `${de} · ${en}`);
const spellName = (id) => term(GAME, `spell.${id}`, String(id));
const elementName = (e) => term(GAME, `element.${e}`, String(e));
// An element in the rulebook's word (the German tablet's own catalogue, else the data's key), capitalised
const elementTitle = (e) => (lang === "de" ? elementName(e) : String(e)).replace(/^./, (c) => c.toUpperCase());
// An element's picture named as the legend names it: "Feuer" on a German tablet, "Feuer · fire" on an English one
const elementLabel = (e) => bi(elementTitle(e), elementName(e));

if (!document.querySelector('link[data-game="grimoire"]')) {
  document.head.append(el("link", { rel: "stylesheet", href: "/static/games/grimoire.css", "data-game": "grimoire" }));
}

// The tablet's words for hands, pages and cards: grimoire.* in the catalogues (German alone on a German
// tablet; the rulebook's German, then English, on an English one), as every other line here.
const say = (key, values = {}) => t(`grimoire.${key}`, values);
/** An element card (``feuer3``) by its element and value, never its id. */
const cardName = (card) => `${elementName(card.slice(0, -1))} ${card.slice(-1)}`;

const SVG = "http://www.w3.org/2000/svg";
const ELEMENT_COLOUR = { feuer: "#ff6a3d", wasser: "#3fa9ff", erde: "#8fc35a", luft: "#e8e2f7" };
const ELEMENT_LETTER = { feuer: "F", wasser: "W", erde: "E", luft: "L" };

function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  for (const c of children.flat()) if (c !== null && c !== undefined) node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return node;
}

function both(de, en) { return lang === "de" ? [el("span", { class: "de" }, de)] : [el("span", { class: "de" }, de), " ", el("span", { class: "en" }, en)]; }

/** The elements a curse shows, from the view's ritual (none for one not lying there). */
function curseElementsOf(view, id) {
  for (const field of (view.ritual && view.ritual.fields) || []) {
    const curse = field.curses.find((c) => c.id === id);
    if (curse) return curse.elements;
  }
  return [];
}

/** A curse by the elements it shows (never its id): the view's ritual lists each with its elements. */
function curseName(view, id) {
  const elements = curseElementsOf(view, id);
  return elements.length ? elements.map((e) => ELEMENT_LETTER[e] || e).join("") : bi("Fluch", "curse");
}

function effectText(effect) {
  if (!effect || !Object.keys(effect).length) return "—";
  return Object.entries(effect).map(([kind, what]) => {
    const who = what.who === "each" ? bi("jeder", "each") : bi("aktiver Spieler", "active player");
    return kind === "madness" ? `${what.n} ${bi("Wahnsinn", "madness")} (${who})` : `${what.n} ${bi("kurieren", "cure")} (${who})`;
  }).join("; ");
}

// -- the ritual circle ------------------------------------------------------------------------

const CX = 400, CY = 400, R = 240, OUT = 345;

function angle(field) { return (-90 + field * 60) * Math.PI / 180; } // ↺ at the top, clockwise

function at(field, radius) { return [CX + radius * Math.cos(angle(field)), CY + radius * Math.sin(angle(field))]; }

export function ritualCircle(view) {
  const ritual = view.ritual;
  const node = svg("svg", { viewBox: "0 0 800 800", class: "ritual-circle", role: "img",
    "aria-label": `Ritualkreis, Ritualmarker auf Feld ${ritual.fields[ritual.marker].name}`, "data-marker": ritual.marker });
  node.append(svg("circle", { cx: CX, cy: CY, r: R, class: "ring" }));
  for (let i = 0; i < 6; i++) {
    const [x1, y1] = at(i, R), [x2, y2] = at((i + 1) % 6, R);
    node.append(svg("path", { d: `M ${x1} ${y1} A ${R} ${R} 0 0 1 ${x2} ${y2}`, class: "arc" }));
  }
  for (const field of ritual.fields) node.append(fieldNode(field, ritual.marker));
  node.append(markerNode(ritual.marker));
  node.append(centre(view));
  return node;
}

function fieldNode(field, marker) {
  const [x, y] = at(field.field, R);
  const here = field.field === marker;
  const group = svg("g", { class: `field${here ? " here" : ""}${field.field === 0 ? " start" : ""}`, "data-field": field.field,
                           "data-curses": field.curses.length });
  group.append(svg("circle", { cx: x, cy: y, r: 44, class: "field-disc" }),
               svg("text", { x, y: y + 15, class: "field-name" }, field.name));
  field.curses.forEach((curse, i) => group.append(curseNode(curse, field.field, i, field.curses.length)));
  return group;
}

function curseNode(curse, fieldNo, i, count) {
  // Curses lie outside the ring beside their field, two to a row.
  const [fx, fy] = at(fieldNo, OUT);
  const w = 74, h = 74, gap = 8, perRow = Math.min(count, 2), rows = Math.ceil(count / 2);
  const col = i % 2, row = Math.floor(i / 2);
  const x = fx - (perRow * (w + gap) - gap) / 2 + col * (w + gap), y = fy - (rows * (h + gap) - gap) / 2 + row * (h + gap);
  const group = svg("g", { class: "curse", "data-curse": curse.id });
  group.append(svg("rect", { x, y, width: w, height: h, rx: 10, class: "curse-card" }));
  curse.elements.forEach((e, k) => {
    const cx = x + 20 + (k % 2) * 34, cy = y + 20 + Math.floor(k / 2) * 34;
    group.append(svg("circle", { cx, cy, r: 16, fill: ELEMENT_COLOUR[e] || "#888", class: "element", "data-element": e }),
                 elementMark(e, cx, cy, 14, elementLabel(e)) || svg("text", { x: cx, y: cy + 7, class: "element-letter" }, ELEMENT_LETTER[e] || "?"));
  });
  return group;
}

function markerNode(marker) {
  const [x, y] = at(marker, R);
  return svg("g", { class: "marker", "data-field": marker },
    svg("circle", { cx: x, cy: y, r: 56, class: "marker-ring" }),
    svg("circle", { cx: x + 40, cy: y - 40, r: 16, class: "marker-dot" }));
}

function centre(view) {
  const m = view.monster;
  const lines = m ? [[m.de, "monster-de"], lang === "de" ? null : [m.en, "monster-en"], [`${bi("Seite", "page")} ${m.page} / ${view.book.length}`, "monster-page"]]
                  : [["Grimoire geschlossen", "monster-de"], lang === "de" ? null : ["the grimoire is closed", "monster-en"]];
  return svg("g", { class: "centre" }, lines.filter(Boolean).map(([text, cls], i) => svg("text", { x: CX, y: CY - 30 + i * 46, class: cls }, text)));
}

// -- the board --------------------------------------------------------------------------------

export function board(view) {
  return [
    view.over ? outcome(view) : null,
    el("section", { class: "grimoire-track", "data-part": "ritual" },
      el("h2", {}, both("Ritualkreis", "ritual circle")),
      el("div", { class: "grimoire-layout" }, ritualCircle(view), sidePanel(view))),
    el("section", { "data-part": "madness" }, el("h2", {}, both("Wahnsinn & Zauber", "madness & spells")), madnessCards(view)),
    notesSection(view),
  ];
}

function outcome(view) {
  const won = view.outcome === "won";
  return el("section", { class: `grimoire-outcome ${won ? "won" : "lost"}`, "data-part": "outcome" },
    el("div", { class: "big" }, won ? both("Gewonnen!", "the group wins") : both("Verloren", "the group loses")),
    view.why && lang === "en" ? el("div", { class: "muted" }, view.why) : null);  // the rules' reason is English only
}

function sidePanel(view) {
  const m = view.monster;
  const active = (view.players || []).findIndex((p) => p.active);
  return el("div", { class: "grimoire-side" },
    el("div", { class: "active-player", style: `--seat: ${seatColour(Math.max(active, 0))}` },
      el("div", { class: "label small-label" }, both("Am Zug", "to play")), el("b", { "data-part": "active" }, view.active)),
    (view.awaiting || []).length ? el("div", { class: "awaiting", "data-part": "awaiting" }, both("Flüche ziehen", "draw curses"), ": ",
      view.awaiting.map((pile) => (pile === "vier" ? term(GAME, "term.vier", pile) : elementName(pile))).join(", ")) : null,
    view.page_wanted ? el("div", { class: "awaiting", "data-part": "page-wanted" }, say("page_wanted"), `: ${view.page_wanted}`) : null,
    (view.drawing || []).length ? el("div", { class: "awaiting", "data-part": "drawing" }, say("drawing"), ": ",
      view.drawing.map((d) => `${d.player} ${d.n}`).join(", ")) : null,
    el("div", { class: "kv" }, el("span", { class: "label" }, both("Schaden", "damage")), el("span", { "data-part": "damage" }, effectText(m && m.damage))),
    el("div", { class: "kv" }, el("span", { class: "label" }, both("Belohnung", "reward")), el("span", {}, effectText(m && m.reward))),
    el("div", { class: "label" }, both("Zauberbuch", "grimoire")),
    el("div", { class: "pages" }, view.book.map((b) => el("span", { class: `page ${b.status}`, "data-page": b.number, title: say(`page.${b.status}`) }, b.number))),
    el("div", { class: "label" }, both("Rundenmarker", "round marker"), ` · ${term(GAME, `difficulty.${view.round.difficulty}`, view.round.difficulty)}`),
    el("div", { class: "round-row", "data-round": view.round.field },
      view.round.row.map((n, i) => el("span", { class: `round-cell${i + 1 === view.round.field ? " here" : ""}` }, n))),
    el("div", { class: "label" }, both("Wahnsinn", "madness")),
    el("div", { class: "madness-mini" }, view.players.map((p, seat) => el("div", { class: "mini-row", "data-player": p.name, style: `--seat: ${seatColour(seat)}` },
      el("span", { class: "mini-name" }, p.name), el("span", { class: "pips" },
        Array.from({ length: Math.max(view.madness.out_at, p.madness_hand) }, (_, i) => el("span", { class: i < p.madness_hand ? "pip on" : "pip" })))))),
    el("div", { class: "legend" }, Object.entries(view.elements || {}).map(([de, en]) => el("span", { class: "legend-item" },
      elementPicture(de, bi(elementTitle(de), en)) || el("span", { class: "legend-dot", style: `background: ${ELEMENT_COLOUR[de] || "#888"}` }, ELEMENT_LETTER[de] || "?"),
      both(elementTitle(de), en)))),
    el("div", { class: "kv" }, el("span", { class: "label" }, both("Wahnsinnsstapel", "madness pile")),
      el("b", { "data-part": "madness-pile" }, `${view.madness.pile} / ${view.madness.total}`)));
}

function madnessCards(view) {
  return el("div", { class: "players" }, view.players.map((p, seat) => el("div", {
    class: `player${p.active ? " active" : ""}${p.out ? " out" : ""}`, style: `--seat: ${seatColour(seat)}`, "data-player": p.name },
    el("div", { class: "name" }, p.name, p.out ? ` — ${bi("ausgeschieden", "out")}` : ""),
    el("div", { class: "pips", "data-madness": p.madness_hand },
      Array.from({ length: Math.max(view.madness.out_at, p.madness_hand) }, (_, i) => el("span", { class: i < p.madness_hand ? "pip on" : "pip" }))),
    el("div", { class: "muted small" }, `${bi("Wahnsinn", "madness")} ${p.madness_hand}`, p.madness_support ? ` (+${p.madness_support} ${bi("Unterstützung", "support")})` : ""),
    el("div", { class: "spells" }, p.spells.map((s) => el("span", { class: `spell${s.exhausted ? " exhausted" : ""}`, "data-spell": s.id,
      style: `--el: ${ELEMENT_COLOUR[s.element] || "#888"}` }, s.de))),
    p.hand ? handCards(p) : null)));
}

/** Tracked hands: the element cards in hand, the deck and the discard pile. */
function handCards(p) {
  return el("div", { class: "hand", "data-hand": p.hand.join(" ") },
    el("span", { class: "muted small" }, say("hand_count", { cards: p.hand_cards })),
    p.hand.map((c) => cardChip(c)),
    el("span", { class: "muted small" }, " ", say("deck_discard", { deck: p.deck, discard: p.discard })));
}

function cardChip(card, attrs = {}) {
  const element = card.slice(0, -1), value = card.slice(-1);
  return el("span", { class: "card-chip", style: `--el: ${ELEMENT_COLOUR[element] || "#888"}`, "data-card": card, ...attrs },
    `${value} ${ELEMENT_LETTER[element] || element}`);
}

const SAY = {
  turn: (n) => `${n.player} ${bi("ist am Zug", "to play")}`,
  refreshed: (n) => `${n.player}: ${bi("Zauber aufgefrischt", "spells refreshed")} (${n.spells.map(spellName).join(", ")})`,
  marker: (n) => `Ritualmarker → ${bi("Feld", "field")} ${n.field === 0 ? "↺" : n.field}`,
  page: (n) => `${bi(`Seite ${n.number} wird aufgeschlagen`, "page opens")}`,
  curse: (n, view) => [`${bi("Fluch", "curse")} `, curseElements(curseElementsOf(view, n.curse), elementLabel),
    `${curseName(view, n.curse)} → ${bi("Feld", "field")} ${n.field}`],
  madness: (n) => `${n.player}: +${n.n} ${bi("Wahnsinn", "madness")}`,
  cured: (n) => `${n.player}: −${n.n} ${bi("Wahnsinn", "cured")}`,
  escaped: () => bi("Das Monster entkommt", "the monster escapes"),
  banished: () => bi("Das Monster ist gebannt", "the monster is banished"),
  banished_curse: (n) => `${n.player} ${bi("bannt einen Fluch", "banishes a curse")}${n.reward ? ` (+2 ${elementName(n.reward)})` : ""}`,
  cast: (n) => `${n.player} ${bi("wirkt", "casts")} ${spellName(n.spell)}${n.times > 1 ? ` (${bi(`${n.times}-mal`, `${n.times} times`)})` : ""}`,
  learned: (n) => `${n.player} ${bi("lernt", "learns")} ${spellName(n.spell)}`,
  bought: (n) => `${n.player} ${bi("nimmt", "takes")} ${elementName(n.element)} ${n.value}`,
  drew: (n) => say("say.drew", { player: n.player, cards: n.cards.map(cardName).join(", ") }),
  reduced: (n) => say("say.reduced", { player: n.player, cards: n.cards.map(cardName).join(", ") }),
  shuffled: (n) => say("say.shuffled", { player: n.player }),
  out: (n) => `${n.player} ${bi("scheidet aus", "is out")}`,
  pile_empty: (n) => `${bi("Fluchstapel leer", "curse pile empty")}: ${elementName(n.pile)}`,
  won: () => bi("Gewonnen", "won"), lost: () => bi("Verloren", "lost"),
};

function notesSection(view) {
  const notes = view.notes || [];
  if (!notes.length) return null;
  return el("section", { "data-part": "notes" }, el("h2", {}, both("Was geschah", "what happened")),
    el("ul", { class: "cast-lines grimoire-notes" },
      notes.slice(-12).map((n) => el("li", { "data-event": n.event }, (SAY[n.event] || ((x) => x.event))(n, view)))));
}

// -- the controls -----------------------------------------------------------------------------

/** Table draws: one row per curse asked for, one button per card that pile can still show. */
function cursesPrompt(legal, propose) {
  const chosen = legal.piles.map((pile) => (legal.faces[pile].length === 1 ? legal.faces[pile][0] : null));
  const rows = legal.piles.map((pile, i) => el("div", { class: "picker-row" }, el("span", { class: "who" }, `${i + 1}. ${pile === "vier" ? term(GAME, "term.vier", pile) : elementName(pile)}`),
    legal.faces[pile].map((face) => el("button", { "data-do": "curse-face", "data-pile": pile, class: chosen[i] === face ? "chosen" : "",
      onclick: (e) => { chosen[i] = face; for (const b of e.target.parentElement.querySelectorAll("button")) b.classList.toggle("chosen", b === e.target); } },
      curseElements(face, elementLabel), face.map((el_) => ELEMENT_LETTER[el_] || el_).join(" ")))));
  return section(bi("Flüche ziehen", "draw the curses"), el("p", {}, bi("Zieht diese Flüche und tippt, was sie zeigen", "draw these curses and tap what they show")),
    rows, el("button", { class: "primary", "data-do": "curses_drawn", onclick: () => propose({ type: "curses_drawn", curses: [...chosen] }) }, bi("Gelegt", "laid")));
}

/** Table draws: the middle page the table turned up, one button per page still out of the book. */
function pagePrompt(legal, propose) {
  return section(say("page_title", { page: legal.page }), el("p", {}, say("page_ask")), el("p", { class: "muted small" }, legal.rule),
    el("div", { class: "tokens" }, legal.pages.map((page) => el("button", { "data-do": "page_opened", "data-page": page,
      onclick: () => propose({ type: "page_opened", page }) }, term(GAME, `page.${page}`, page)))));
}

/** A picker of cards: one button per kind with how many are left; taps add to the chosen until ``n``. */
function cardPicker(left, n, onDone, doneLabel, doAttr) {
  const chosen = [];
  const shown = el("div", { class: "tokens", "data-part": "chosen-cards" });
  const done = el("button", { class: "primary", "data-do": doAttr, disabled: n > 0, onclick: () => onDone([...chosen]) }, doneLabel);
  const buttons = Object.entries(left).map(([card, count]) => {
    const button = el("button", { "data-do": "pick-card", "data-card": card, onclick: () => {
      if (chosen.length >= n || chosen.filter((c) => c === card).length >= count) return;
      chosen.push(card); redraw();
    } }, cardChip(card), ` ×${count}`);
    return button;
  });
  const redraw = () => {
    shown.replaceChildren(...chosen.map((c) => cardChip(c)));
    done.disabled = chosen.length !== n;
  };
  const clear = el("button", { "data-do": "clear-cards", onclick: () => { chosen.length = 0; redraw(); } }, say("clear"));
  return [el("div", { class: "tokens" }, buttons), shown, el("div", { class: "tokens" }, clear, done)];
}

function cardsPrompt(legal, propose) {
  return section(say("cards_title", { player: legal.player, n: legal.n }), el("p", {}, say("cards_ask")), el("p", { class: "muted small" }, legal.rule),
    cardPicker(legal.left, legal.n, (cards) => propose({ type: "cards_drawn", player: legal.player, cards }), say("drawn"), "cards_drawn"));
}

export function controls(view, ctx) {
  const legal = view.legal || {};
  if (legal.kind === "page") return pagePrompt(legal, ctx.propose);
  if (legal.kind === "curses") return cursesPrompt(legal, ctx.propose);
  if (legal.kind === "cards") return cardsPrompt(legal, ctx.propose);
  if (legal.kind !== "turn") return section("game.game_over", el("p", {}, view.outcome === "won" ? bi("Gewonnen", "the group wins") : bi("Verloren", "the group loses")));
  const me = legal.player;
  const tracked = view.hands === "tracked";
  // Hands kept secret: each payment is confirmed by the payer, with the rulebook's sentence for it.
  const confirmRow = el("div", { class: "confirm-pay", "data-part": "confirm-pay" });
  const paying = (kind, cost) => (action) => (tracked ? ctx.propose(action) : confirmRow.replaceChildren(
    el("p", {}, el("b", {}, say("can_pay")), " ", cost), el("p", { class: "muted small", "data-part": "rule" }, say(`rule.${kind}`)),
    el("button", { class: "primary", "data-do": "paid", onclick: () => { confirmRow.replaceChildren(); ctx.propose(action); } }, say("paid")),
    el("button", { "data-do": "not-paid", onclick: () => confirmRow.replaceChildren() }, say("not_paid"))));
  const curseOf = (id) => view.ritual.fields.flatMap((f) => f.curses).find((c) => c.id === id);
  const propose = (action) => {
    const pay = {
      banish: () => paying("banish", say("cost", { cost: (curseOf(action.curse) || { elements: [] }).elements.map(elementName).join(", ") })),
      cast: () => paying("cast", say((action.times || 1) > 1 ? "cost_spell_twice" : "cost_spell")),
      learn: () => paying("learn", say("cost_learn", { spell: spellName(action.spell) })),
      buy: () => paying("buy", say("cost", { cost: `${action.value} ${elementName(action.element)}` })),
      cure: () => paying("cure", say("cost_cure")),
    }[action.type];
    return pay ? pay()(action) : ctx.propose(action);
  };
  const discardRow = el("div", { "data-part": "discard" });
  const endTurn = () => (legal.discard ? discardRow.replaceChildren(el("p", {}, say("reduce", { n: legal.discard })),
    ...cardPicker(countOf(legal.hand), legal.discard, (cards) => ctx.propose({ type: "end_turn", player: me, discard: cards }),
      bi("Zug beenden", "end turn"), "end_turn-discard")) : ctx.propose({ type: "end_turn", player: me }));
  const rewardRow = el("div", { class: "tokens", "data-part": "reward" });
  const chooseReward = (curse) => {
    if (!legal.rewards.length) return propose({ type: "banish", player: me, curse });
    rewardRow.replaceChildren(el("span", {}, both("Belohnung", "reward"), ": "), ...legal.rewards.map((e) => el("button", {
      "data-do": "reward", "data-element": e, onclick: () => propose({ type: "banish", player: me, curse, reward: e }) }, `2 ${elementName(e)}`)));
  };
  const dropRow = el("div", { class: "tokens", "data-part": "drop" });
  const chooseDrop = (spell) => dropRow.replaceChildren(el("span", {}, bi("Fünf Zauber: Welcher verlässt das Spiel?", "five spells: which leaves the game?"), " "),
    ...legal.spells.map((d) => el("button", { "data-do": "drop", "data-spell": d,
      onclick: () => propose({ type: "learn", player: me, spell, drop: d }) }, spellName(d))));
  const zone = (z) => (z === "hand" ? bi("Hand", "hand") : bi("Unterstützungszone", "support zone"));
  return section(`${me}: ${bi("Aktionsphase", "actions")}`,
    confirmRow,
    tracked ? el("div", { class: "tokens", "data-part": "my-hand" }, el("span", { class: "muted" }, say("hand")), (legal.hand || []).map((c) => cardChip(c))) : null,
    el("div", { class: "tokens" }, el("span", { class: "muted" }, bi("Fluch bannen", "banish")),
      legal.banish.map((c) => el("button", { "data-do": "banish", "data-curse": c, onclick: () => chooseReward(c) }, curseElements(curseElementsOf(view, c), elementLabel), curseName(view, c)))),
    rewardRow,
    el("div", { class: "tokens" }, el("span", { class: "muted" }, bi("Zauber wirken", "cast")),
      legal.cast.map((s) => [el("button", { "data-do": "cast", "data-spell": s, onclick: () => propose({ type: "cast", player: me, spell: s }) }, spellName(s)),
        el("button", { "data-do": "cast-twice", "data-spell": s, title: bi("verstärkt", "amplified"),
          onclick: () => propose({ type: "cast", player: me, spell: s, times: 2 }) }, bi("verstärkt", "twice"))])),
    el("div", { class: "tokens" }, el("span", { class: "muted" }, bi("Zauber lernen", "learn")),
      legal.learn.map((s) => el("button", { "data-do": "learn", "data-spell": s,
        onclick: () => (legal.must_drop ? chooseDrop(s) : propose({ type: "learn", player: me, spell: s })) }, spellName(s)))),
    dropRow,
    el("div", { class: "tokens" }, el("span", { class: "muted" }, bi("Elementkarte kaufen", "buy")),
      legal.buy.map((b) => el("button", { "data-do": "buy", "data-card": `${b.element}-${b.value}`,
        onclick: () => propose({ type: "buy", player: me, element: b.element, value: b.value }) }, `${elementName(b.element)} ${b.value}`))),
    el("div", { class: "tokens" }, el("span", { class: "muted" }, bi("Wahnsinn kurieren", "cure")),
      legal.cure.map((c) => el("button", { "data-do": "cure", onclick: () => propose({ type: "cure", player: me, ...c }) }, `${c.owner} (${zone(c.zone)})`))),
    el("div", { class: "tokens" }, el("button", { class: "primary", "data-do": "end_turn",
      onclick: endTurn }, bi("Zug beenden", "end turn"))),
    discardRow);
}

function countOf(cards) {
  const counts = {};
  for (const c of cards) counts[c] = (counts[c] || 0) + 1;
  return counts;
}
