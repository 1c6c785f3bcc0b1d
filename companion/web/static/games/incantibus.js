// Incantibus on the tablets: the shared parts, plus satchels, potions, books, sorcerers, spell
// cards, and controls for every prompt the rules can raise (room, reveal, cast, spell, satchel, wand).

import { castingPicker, el, playerCards, seatColour, wandBadge, who } from "/static/js/parts.js";
import { section, winner } from "/static/games/generic.js";
import { bookChips, moatChips, potionChips, roomTokens, satchelTokens, sorcererChips, spellCardChips } from "/static/games/incantibus_pictures.js";

const words = (kind) => (kind ? String(kind).replaceAll("_", " ") : "secret");

/** Every token the table can see, by its id, so choices that name a token read in words. */
function kindsById(view) {
  const kinds = {};
  for (const p of view.players) for (const cell of Object.values(p.satchel || {})) for (const t of cell) kinds[t.token] = t.kind;
  for (const t of view.moat_tokens || []) kinds[t.token] = t.kind;
  for (const t of (view.room && view.room.tokens) || []) { kinds[t.id] = t.kind; if (t.token) kinds[t.token] = t.kind; }
  for (const space of [...(view.potions || []), ...(view.books || []), ...(view.sorcerers || [])]) {
    if (space) { kinds[space.id] = space.kind; kinds[space.token] = space.kind; }
  }
  return kinds;
}


// -- the board --------------------------------------------------------------------------------

export function board(view, ctx) {
  return [
    section("Scores", playerCards(view, ctx.flashed), waitingFor(view)),
    section("Last casting", lastCasting(view)),
    view.over ? section("Game over", el("p", { style: "font-size: 1.6rem" }, "Winner: ", el("b", {}, winner(view))),
                        el("p", { class: "muted" }, "Ranking: ", (view.ranking || []).join(" · "))) : null,
    section(where(view), table(view)),
    section("Satchels", satchels(view)),
  ];
}

/** What the table is waiting for, in a line under the scores. */
function waitingFor(view) {
  const legal = view.legal || {};
  const text = {
    cast: "Ready to cast: In-can-to!",
    spell: `${legal.player} chooses a spell card`,
    satchel: `${legal.player}'s satchel is full: where does the ${words(legal.token_kind)} go?`,
    reveal: "Turn the new tokens face up and enter them on the controls",
    room_entered: "Lay out the next room and enter it on the controls",
    wand_down: "Someone can do nothing useful: a wand goes on the table",
  }[legal.kind];
  return text ? el("p", { class: "muted", "data-part": "waiting", style: "margin: .6rem 0 0; font-size: 1.1rem" }, text) : null;
}

function where(view) {
  if (view.phase === "dungeon") return "The dungeon: the final battle";
  if (view.phase === "over") return "The table at the end";
  return `${view.room && view.room.name ? words(view.room.name) : "The tower"} · ${view.rooms_left} rooms left`;
}

function table(view) {
  const room = (view.room && view.room.tokens) || [];
  const rows = [
    room.length ? el("div", { class: "picker-row" }, el("span", { class: "muted" }, "Room"),
      roomTokens(room)) : null,
    el("div", { class: "picker-row" }, el("span", { class: "muted" }, "Potions"),
      potionChips(view.potions || [])),
    view.books ? el("div", { class: "picker-row" }, el("span", { class: "muted" }, "Books"),
      bookChips(view.books, condition)) : null,
    el("div", { class: "picker-row" }, el("span", { class: "muted" }, "Sorcerers"),
      sorcererChips(view.sorcerers || [])),
    el("div", { class: "picker-row" }, el("span", { class: "muted" }, "Spell cards"),
      spellCardChips(view.spell_cards || [])),
    el("div", { class: "picker-row muted" }, `Moat: ${(view.moat || []).length} tokens`,
      moatChips((view.moat || []).slice(-6))),
  ];
  return el("div", {}, rows);
}

function condition(cond) {
  if (!cond) return "";
  return Object.entries(cond).map(([k, v]) => `${v} ${words(k)}`).join(", ");
}

function satchels(view) {
  return el("div", { class: "players" }, view.players.map((p, seat) => el("div", {
    class: "player", style: `--seat: ${seatColour(seat)}`, "data-satchel": p.name },
    el("div", { class: "name", style: "font-size: 1rem" }, p.name, p.wand_down ? " (wand on the table)" : ""),
    Object.entries(p.satchel || {}).filter(([, tokens]) => tokens.length).map(([cell, tokens]) =>
      el("div", { style: "font-size: .8rem" }, el("span", { class: "muted" }, `${words(cell)}: `),
        satchelTokens(tokens, cell))),
    el("div", { class: "muted", style: "font-size: .75rem" },
      Object.entries(p.breakdown || {}).map(([k, v]) => `${words(k)} ${v}`).join(" · ")))));
}

/** Who pointed where, who won each contested token, the swap, and what each got. */
export function lastCasting(view) {
  const cast = view.last_cast || {};
  if (!cast.claims || !cast.claims.length) {
    return (cast.events || []).length ? eventLines(view, cast.events) : el("p", { class: "muted" }, "No casting yet.");
  }
  const kinds = kindsById(view);
  const gotKind = Object.fromEntries((cast.events || []).filter((e) => e.player).map((e) => [e.player, e.kind]));
  const claims = cast.claims.map((claim) => {
    const label = words(gotKind[claim.winner] || kinds[claim.target]) + ` (${claim.target})`;
    return el("li", { "data-target": claim.target },
      claim.claimants.map((p, i) => [i ? " & " : "", who(view, p), " ", wandBadge(cast.wands ? cast.wands[p] : "")]),
      " → ", label,
      claim.claimants.length > 1 ? el("span", { class: "won" }, "  ", claim.winner, " wins") : "",
      (claim.losers || []).length ? el("span", { class: "lost" }, "  ", claim.losers.join(", "), claim.losers.length > 1 ? " get nothing" : " gets nothing") : "");
  });
  const swaps = cast.claims.filter((c) => c.swap).map((c) =>
    el("li", { class: "swap" }, who(view, c.swap[0]), " ⇄ ", who(view, c.swap[1]), " swap wands"));
  const idle = Object.entries(cast.targets || {}).filter(([, t]) => t === null)
    .map(([p]) => el("li", { class: "muted" }, who(view, p), " pointed at nothing"));
  return el("div", {}, el("ul", { class: "cast-lines" }, claims, swaps, idle), eventLines(view, cast.events || []));
}

function eventLines(view, events) {
  return el("ul", { class: "cast-lines", style: "font-size: .85rem" }, events.map((e) => el("li", { "data-event": e.event },
    ...(SAY[e.event] || generic)(e, e.player ? who(view, e.player) : "", el("b", {}, words(e.kind))),
    e.why ? el("span", { class: "muted" }, ` — ${e.why}`) : "")));
}

// Each note of the rules as a sentence: (note, player in colour, token kind in bold) -> parts.
const SAY = {
  received: (e, p, k) => [p, " takes the ", k],
  caught: (e, p, k) => [p, " catches the ", k, ` with the ${words(e.by)}`],
  escaped: (e, p, k) => ["the ", k, " escapes ", p],
  brewed: (e, p, k) => [p, " brews the ", k, " potion"],
  learned: (e, p, k) => [p, " learns the ", k, " book"],
  defeated: (e, p, k) => [p, " defeats ", k],
  discarded: (e, p, k) => [p, " throws the ", k, " in the moat"],
  stolen: (e, p, k) => [p, " steals the ", k, ` from ${e.victim}`],
  spell: (e, p) => [p, ` casts ${e.card}`],
  spell_failed: (e, p) => [p, `'s ${e.card} does not work`],
  spell_lost: (e, p) => [p, " loses a spell"],
  looked: (e, p) => [p, ` looks at ${e.token}`],
  wand_down: (e, p) => [p, " puts the wand on the table"],
  room: (e) => [`the next room opens: ${words(e.room)}`],
  dungeon: () => ["down to the dungeon: the final battle"],
  sorcerer_turned: (e, p, k) => ["a sorcerer turns face up: ", k],
  to_moat: (e, p, k) => ["the last token goes to the moat: ", k],
  game_over: () => ["the game is over"],
};

function generic(e, p, k) { return [p, " ", words(e.event), " ", e.kind ? k : ""]; }

// -- the controls -----------------------------------------------------------------------------

export function controls(view, ctx) {
  const legal = view.legal || {};
  const prompt = PROMPTS[legal.kind];
  if (!prompt) return section(`Next: ${words(legal.kind)}`, el("p", { class: "muted" }, "Waiting for the table."));
  return prompt(view, legal, ctx.propose);
}

const PROMPTS = {
  cast: (view, legal, propose) => section("Casting: where did each wand point?", castingPicker(view, propose)),
  over: () => section("Game over", el("p", {}, "Start the next game from the Night page.")),
  wand_down: (view, legal, propose) => section("Who puts their wand on the table?",
    el("p", { class: "muted" }, "No face-down sorcerer is left and these players can do nothing useful."),
    el("div", { class: "tokens" }, legal.players.map((p) =>
      el("button", { "data-do": "wand_down", "data-player": p, onclick: () => propose({ type: "wand_down", player: p }) }, `${p} puts the wand down`)))),
  satchel: (view, legal, propose) => section(`${legal.player}'s satchel is full`,
    el("p", {}, `Where does the ${words(legal.token_kind)} go?`),
    el("div", { class: "tokens" }, legal.options.map((option) => el("button", {
      "data-do": "satchel", onclick: () => propose({ type: "satchel", player: legal.player, choice: option }),
    }, option === "discard_new" ? `Throw the new ${words(legal.token_kind)} in the moat` : `Throw out ${words(kindsById(view)[option.discard])}`)))),
  spell: spellPrompt,
  reveal: revealPrompt,
  room_entered: roomPrompt,
};

function spellPrompt(view, legal, propose) {
  const kinds = kindsById(view);
  const choices = el("div", { class: "tokens" });
  const cards = legal.cards.map((c) => el("button", {
    "data-do": "spell", "data-card": c.card, disabled: !c.works, title: c.why || "",
    onclick: () => {
      if (!c.choices.length) return propose({ type: "spell", player: legal.player, card: c.card });
      choices.replaceChildren(...c.choices.map((choice) => el("button", {
        "data-do": "spell-choice", onclick: () => propose({ type: "spell", player: legal.player, card: c.card, choice }),
      }, [choice.from ? `from ${choice.from}: ` : "", words(kinds[choice.token] || choice.token)].join(""))));
    },
  }, c.card, c.works ? "" : el("span", { class: "muted", style: "font-size: .7rem" }, ` (${c.why})`)));
  return section(`${legal.player} casts a spell`, el("div", { class: "tokens" }, cards), choices);
}

function revealPrompt(view, legal, propose) {
  const chosen = {};
  const rows = legal.tokens.map((ref) => el("div", { class: "picker-row" }, el("span", { class: "who" }, ref),
    select(legal.options[ref], (kind) => { chosen[ref] = kind; }, ref)));
  return section("Turn these tokens over and say what they are", rows,
    el("button", { class: "primary", "data-do": "reveal", onclick: () => propose({ type: "reveal", kinds: { ...chosen } }) }, "Confirm"));
}

function roomPrompt(view, legal, propose) {
  let tile = legal.rooms[0];
  const body = el("div", {});
  const draw = () => {
    const visible = Array(tile.visible).fill(null);
    body.replaceChildren(el("div", {},
      legal.rooms.length > 1 ? el("div", { class: "picker-row" }, "Room tile ",
        select(legal.rooms.map((r) => r.room), (r) => { tile = legal.rooms.find((x) => x.room === r); draw(); }, "room", tile.room)) : null,
      el("p", {}, `${words(tile.room)}: ${tile.visible} visible, ${tile.secret} secret tokens.`),
      visible.map((_, i) => el("div", { class: "picker-row" }, el("span", { class: "who" }, `token ${i + 1}`),
        select(legal.visible_kinds, (k) => { visible[i] = k; }, `visible-${i}`))),
      el("button", { class: "primary", "data-do": "room_entered", onclick: () =>
        propose({ type: "room_entered", room: tile.room, visible: [...visible], secret: tile.secret }) }, "The room is laid out")));
  };
  draw();
  return section("Lay out the next room", body);
}

function select(options, onChange, name, value) {
  const node = el("select", { name, style: "font: inherit; font-size: 1rem; padding: .3rem" },
    el("option", { value: "" }, "—"), options.map((o) => el("option", { value: o, selected: o === value }, words(o))));
  node.addEventListener("change", () => onChange(node.value || null));
  return node;
}
