// Ravenskeep on the tablets: the ring of spaces with every stack of towers and wizards and the black
// Ravenskeep, each player's five potion bottles and wizards in Ravenskeep, and Incanto's die.
// Imprisoned wizards show as grey: whose they are is for the players to remember.

import { el, seatColour, seats } from "/static/js/parts.js";
import { section } from "/static/games/generic.js";
import { dieFace } from "/static/games/ravenskeep_pictures.js";
import { t, term } from "/static/js/words.js";

const GAME = "ravenskeep";
const moveWord = (moves) => t(`ravenskeep.moves.${moves}`); // a card moves a wizard, a tower, or either

if (!document.querySelector('link[data-game="ravenskeep"]')) {
  document.head.append(el("link", { rel: "stylesheet", href: "/static/games/ravenskeep.css", "data-game": "ravenskeep" }));
}

// The words of the table's own die (option dice: "table"), gathered for translation.
// The card's dice: the first roll, then a reroll for each die beyond the first.
const whichFace = (dice) => (dice === 1 ? t("ravenskeep.which_face") : t(dice === 2 ? "ravenskeep.which_face_reroll" : "ravenskeep.which_face_rerolls", { dice, rerolls: dice - 1 }));

const SVG = "http://www.w3.org/2000/svg";
const CX = 400, CY = 400, R = 300;

function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  for (const c of children.flat()) if (c !== null && c !== undefined) node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return node;
}

function at(space, count, radius = R) {
  const a = (-90 + (360 * space) / count) * Math.PI / 180;
  return [CX + radius * Math.cos(a), CY + radius * Math.sin(a)];
}

// -- the ring -----------------------------------------------------------------------------------

export function ring(view) {
  const seatOf = seats(view);
  const count = view.spaces.length;
  const node = svg("svg", { viewBox: "0 0 800 800", class: "raven-ring", role: "img", "data-ravenskeep": view.ravenskeep,
                            "aria-label": t("ravenskeep.on_space", { space: view.ravenskeep }) });
  node.append(svg("circle", { cx: CX, cy: CY, r: R, class: "track" }));
  for (const space of view.spaces) node.append(spaceNode(space, count, seatOf));
  node.append(svg("text", { x: CX, y: CY - 10, class: "centre-title" }, "Ravenskeep"),
              svg("text", { x: CX, y: CY + 36, class: "centre-sub" }, t("ravenskeep.turn_of", { player: view.active, turn: view.turn })));
  return node;
}

function spaceNode(space, count, seatOf) {
  const [x, y] = at(space.space, count);
  const group = svg("g", { class: `space${space.shield ? " shield" : ""}`, "data-space": space.space, "data-height": space.stack.length });
  group.append(svg("circle", { cx: x, cy: y, r: 44, class: "space-disc" }),
               svg("text", { x, y: y + 66, class: "space-number" }, space.space));
  if (space.shield) group.append(svg("path", { d: shield(x - 26, y - 30, 14), class: "shield-mark" }));
  // The stack, bottom first, drawn upward from the space's centre so a tall one stays readable.
  let lift = 0;
  space.stack.forEach((item) => {
    const cy = y + 16 - lift;
    if (item.ravenskeep) {
      group.append(svg("rect", { x: x - 22, y: cy - 24, width: 44, height: 30, rx: 4, class: "keep", "data-piece": "ravenskeep" }),
                   svg("path", { d: `M ${x - 22} ${cy - 24} l 8 -10 l 8 10 l 6 -10 l 6 10 l 8 -10 l 8 10`, class: "keep" }));
      lift += 40;
    } else if (item.tower) {
      group.append(svg("rect", { x: x - 26, y: cy - 20, width: 52, height: 25, rx: 4, class: `tower${item.shield ? " shield-top" : ""}`, "data-piece": item.tower }),
                   svg("text", { x, y: cy - 1, class: "tower-label" }, item.tower.replace(/^T/, ""))); // a tower by its number
      lift += 27;
    } else {
      const seat = seatOf[item.wizard];
      group.append(svg("circle", { cx: x, cy: cy - 8, r: 13, class: item.wizard ? "wizard" : "wizard hidden",
                                   fill: item.wizard ? seatColour(seat ?? 0) : "#6b6580", "data-piece": item.wizard ? `wizard-${item.wizard}` : "prisoner" }));
      lift += 18;
    }
  });
  return group;
}

function shield(x, y, s) { return `M ${x} ${y} h ${s} v ${s * 0.6} q 0 ${s * 0.6} ${-s / 2} ${s} q ${-s / 2} ${-s * 0.4} ${-s / 2} ${-s} z`; }

// -- the board ----------------------------------------------------------------------------------

export function board(view) {
  return [
    view.over ? section("game.game_over", el("p", { class: "raven-winner" }, t("game.winner"), " ", el("b", {}, (view.winner || []).join(" & ") || "—")),
                        el("p", { class: "muted" }, t("game.ranking"), " ", (view.ranking || []).join(" · "))) : null,
    el("section", { class: "raven-board", "data-part": "board" }, el("h2", {}, t("ravenskeep.the_board")),
      el("div", { class: "raven-layout" }, ring(view), el("div", { class: "raven-side" }, die(view), bottles(view)))),
    notes(view),
  ];
}

function die(view) {
  const roll = view.roll;
  return el("div", { class: "raven-die", "data-part": "die", "data-value": roll ? roll.values[roll.values.length - 1] : "" },
    el("div", { class: "die-face" }, roll ? dieFace(roll.values[roll.values.length - 1]) : "–"),
    el("div", { class: "muted" }, roll ? t("ravenskeep.rolled_left", { values: roll.values.join(" → "), left: roll.rerolls_left })
                                       : t("ravenskeep.cards_to_play", { player: view.active, cards: 2 - view.cards_played })),
    view.ending ? el("div", { class: "raven-ending" }, t("ravenskeep.last_round")) : null);
}

function bottles(view) {
  return el("div", { class: "raven-players" }, view.players.map((p, seat) => el("div", {
    class: `player${p.active ? " active" : ""}${p.done ? " done" : ""}`, style: `--seat: ${seatColour(seat)}`, "data-player": p.name },
    el("div", { class: "name" }, p.name),
    el("div", { class: "bottles", "data-full": p.full, "data-empty": p.empty },
      [...Array(p.full).fill("full"), ...Array(p.empty).fill("empty"), ...Array(p.spent).fill("spent")].map((kind) =>
        el("span", { class: `bottle ${kind}`, title: t(`ravenskeep.bottle.${kind}`) }))),
    el("div", { class: "keep-count", "data-keep": p.keep }, t("ravenskeep.in_keep", { keep: p.keep, wizards: p.wizards })))));
}

// Each note as a sentence: ravenskeep.say.<event>.
const SAY = {
  card: (n) => t("ravenskeep.say.card", { player: n.player, moves: moveWord(n.moves), steps: n.steps }),
  rolled: (n) => t(n.reroll ? "ravenskeep.say.rerolled" : "ravenskeep.say.rolled", { player: n.player, value: n.value }),
  wizard: (n) => t("ravenskeep.say.wizard", { player: n.player, space: n.space, to: n.to }),
  tower: (n) => t("ravenskeep.say.tower", { space: n.space, to: n.to })
    + (n.imprisoned ? `, ${t("ravenskeep.say.imprisons", { count: n.imprisoned })}` : "")
    + (n.freed.length ? `, ${t("ravenskeep.say.frees", { count: n.freed.length })}` : ""),
  filled: (n) => t("ravenskeep.say.filled", { player: n.player, full: n.full }),
  fill_declined: (n) => t("ravenskeep.say.fill_declined", { player: n.player }),
  keep: (n) => t("ravenskeep.say.keep", { player: n.player }),
  ravenskeep: (n) => (n.stays ? t("ravenskeep.say.stays") : t("ravenskeep.say.moves", { space: n.space })),
  spell: (n) => t("ravenskeep.say.spell", { player: n.player, spell: term(GAME, `spell.${n.spell}`, n.spell), cost: n.cost }),
  forgo: (n) => t("ravenskeep.say.forgo", { player: n.player }),
  no_move: (n) => t("ravenskeep.say.no_move", { player: n.player }),
  ending: () => t("ravenskeep.say.ending"),
  game_over: () => t("game.game_over"),
};

function notes(view) {
  if (!(view.notes || []).length) return null;
  return section("ravenskeep.what_just_happened", el("ul", { class: "cast-lines" },
    view.notes.slice(-8).map((n) => el("li", { "data-event": n.event }, (SAY[n.event] || ((x) => x.event))(n)))));
}

/** One spell a turn: the spell, how far, then the piece. */
function spells(view, legal, offer, pieceRow) {
  const steps = el("span", {});
  const me = legal.player;
  return el("div", { class: "picker-row", "data-part": "spells" }, el("span", { class: "who" }, t("ravenskeep.spell")),
    view.spells.map((s) => el("button", { "data-do": "spell", "data-spell": s.id, disabled: s.cost > legal.full, title: term(GAME, `spell_note.${s.id}`, s.note),
      onclick: () => steps.replaceChildren(...s.steps.map((n) => el("button", { "data-do": "spell-steps", "data-steps": n,
        onclick: () => { offer(legal.pieces_for[s.moves][String(n)] || [], (piece) => ({ type: "spell", player: me, spell: s.id, steps: n, ...piece })); pieceRow.scrollIntoView(); } },
        `${n}`))) }, t("ravenskeep.spell_cost", { spell: term(GAME, `spell.${s.id}`, s.name), cost: s.cost }))), steps);
}

// "You may fill one of your empty potion bottles": a choice kept while the same player moves (the page
// is drawn again after every move), on by default, shown only to a player with an empty bottle.
let fillKept = { player: null, fill: true };

function fillChoice(view, me) {
  const mine = (view.players || []).find((p) => p.name === me);
  if (!mine || !mine.empty) return null;
  if (fillKept.player !== me) fillKept = { player: me, fill: true };
  const box = el("input", { type: "checkbox", "data-do": "fill", onchange: (e) => { fillKept.fill = e.target.checked; } });
  box.checked = fillKept.fill;
  return { node: el("label", { class: "fill-choice", "data-part": "fill" }, box, " ", t("ravenskeep.fill")), checked: () => box.checked };
}

// -- the controls -------------------------------------------------------------------------------

export function controls(view, ctx) {
  const legal = view.legal || {};
  const me = legal.player;
  const propose = ctx.propose;
  if (legal.kind === "over") return section("game.game_over", el("p", {}, t("page.start_from_night")));
  const pieceRow = el("div", { class: "tokens", "data-part": "pieces" });
  const fill = fillChoice(view, me);
  // The bottle is the mover's choice, so "fill" goes only with a tower, and only when it was offered.
  const withFill = (action) => (action.tower && fill ? { ...action, fill: fill.checked() } : action);
  const offer = (pieces, make) => pieceRow.replaceChildren(...(pieces.length ? pieces : [{}]).map((piece) => el("button", {
    "data-do": "piece", "data-piece": piece.tower || (piece.wizard !== undefined ? `wizard-${piece.wizard}` : "none"),
    onclick: () => propose(withFill(make(piece))) }, piece.tower ? t("ravenskeep.piece.tower", { tower: piece.tower.replace(/^T/, "") })
    : piece.wizard !== undefined ? t("ravenskeep.piece.wizard", { space: piece.wizard }) : t("ravenskeep.piece.none"))));
  // With the table's die (legal.die: its faces) a roll or a reroll first asks which face the die shows.
  const facePicker = el("div", { "data-part": "die-faces" });
  const rolled = (make, title) => {
    if (!legal.die) { propose(make({})); return; }
    facePicker.replaceChildren(el("p", {}, title), el("div", { class: "tokens" }, legal.die.map((n) => el("button", {
      class: "die-face-button", "data-do": "face", "data-face": n, onclick: () => propose(make({ value: n })) }, String(n)))));
    facePicker.scrollIntoView();
  };
  if (legal.kind === "rolled") {
    return section(t("ravenskeep.rolled", { player: me, value: legal.roll.values[legal.roll.values.length - 1] }),
      legal.roll.rerolls_left ? el("button", { "data-do": "reroll", onclick: () => rolled((face) => ({ type: "reroll", player: me, ...face }), t("ravenskeep.reroll_face")) },
        t("ravenskeep.reroll", { left: legal.roll.rerolls_left })) : null,
      facePicker, (offer(legal.pieces, (piece) => ({ type: "play", player: me, ...piece })), pieceRow), fill && fill.node);
  }
  const parts = [];
  if (legal.cards_left > 0 && !view.forwent && legal.pieces_for) {
    const piecesFor = (moves, n) => moves === "either" ? [...legal.pieces_for.wizard[n], ...legal.pieces_for.tower[n]] : legal.pieces_for[moves][n];
    for (const moves of ["wizard", "tower", "either"]) {
      parts.push(el("div", { class: "picker-row" }, el("span", { class: "who" }, moveWord(moves)),
        [1, 2, 3, 4, 5, 6].map((n) => el("button", { "data-do": "card", "data-card": `${moves}-${n}`,
          onclick: () => offer(piecesFor(moves, n), (piece) => ({ type: "play", player: me, card: { moves, steps: n }, ...piece })) }, n)),
        [1, 2, 3].map((dice) => el("button", { "data-do": "roll", "data-card": `${moves}-dice-${dice}`,
          onclick: () => rolled((face) => ({ type: "roll", player: me, moves, dice, ...face }), whichFace(dice)) },
          t(dice === 1 ? "ravenskeep.one_die" : "ravenskeep.dice", { dice })))));
    }
    parts.push(facePicker);
  }
  if (legal.can_forgo && legal.pieces_for) {
    parts.push(el("button", { "data-do": "forgo", onclick: () => offer(legal.pieces_for.tower["1"], (piece) => ({ type: "forgo", player: me, ...piece })) },
      t("ravenskeep.forgo")));
  }
  if (!legal.spell_cast && legal.pieces_for) parts.push(spells(view, legal, offer, pieceRow));
  parts.push(pieceRow);
  if (fill && legal.pieces_for) parts.push(fill.node);
  if (legal.can_end) parts.push(el("button", { class: "primary", "data-do": "end_turn", onclick: () => propose({ type: "end_turn", player: me }) }, t("ravenskeep.end_turn")));
  return section(t("ravenskeep.cards_to_play", { player: me, cards: legal.cards_left }), parts);
}
