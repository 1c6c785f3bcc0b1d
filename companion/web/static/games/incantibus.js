// Incantibus on the tablets: the shared parts, plus satchels, potions, books, sorcerers, spell
// cards, and controls for every prompt the rules can raise (room, reveal, cast, spell, satchel, wand).

import { castingPicker, el, kindName, playerCards, seatColour, wandBadge, who } from "/static/js/parts.js";
import { section, winner } from "/static/games/generic.js";
import { bookChips, castToken, moatChips, potionChips, roomTokens, satchelTokens, sectionsById, sorcererChips, spellCardChips } from "/static/games/incantibus_pictures.js";
import { names } from "/static/js/history.js";
import { lang, t, term } from "/static/js/words.js";

const GAME = "incantibus";
const words = (kind) => (kind ? kindName(GAME, kind) : t("parts.secret")); // a token by its kind, in the table's words
const named = (kind, key) => term(GAME, `${kind}.${key}`, String(key ?? "").replaceAll("_", " "));

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
    section("game.scores", playerCards(view, ctx.flashed), waitingFor(view)),
    section("game.last_casting", lastCasting(view)),
    view.over ? section("game.game_over", el("p", { style: "font-size: 1.6rem" }, t("game.winner"), " ", el("b", {}, winner(view))),
                        el("p", { class: "muted" }, t("game.ranking"), " ", (view.ranking || []).join(" · "))) : null,
    section(where(view), table(view)),
    section("incantibus.satchels", satchels(view)),
  ];
}

/** What the table is waiting for, in a line under the scores. */
function waitingFor(view) {
  const legal = view.legal || {};
  const waits = ["cast", "spell", "satchel", "reveal", "room_entered", "wand_down"];
  const text = waits.includes(legal.kind) ? t(`incantibus.waiting.${legal.kind}`, { player: legal.player, token: words(legal.token_kind) }) : null;
  return text ? el("p", { class: "muted", "data-part": "waiting", style: "margin: .6rem 0 0; font-size: 1.1rem" }, text) : null;
}

function where(view) {
  if (view.phase === "dungeon") return t("incantibus.dungeon");
  if (view.phase === "over") return t("incantibus.table_at_the_end");
  return t("incantibus.where", { room: view.room && view.room.name ? named("room", view.room.name) : t("incantibus.tower"), left: view.rooms_left });
}

function table(view) {
  const room = (view.room && view.room.tokens) || [];
  const rows = [
    room.length ? el("div", { class: "picker-row" }, el("span", { class: "muted" }, t("incantibus.place.room")),
      roomTokens(room)) : null,
    el("div", { class: "picker-row" }, el("span", { class: "muted" }, t("incantibus.potions")),
      potionChips(view.potions || [])),
    view.books ? el("div", { class: "picker-row" }, el("span", { class: "muted" }, t("incantibus.books")),
      bookChips(view.books, condition)) : null,
    el("div", { class: "picker-row" }, el("span", { class: "muted" }, t("incantibus.sorcerers")),
      sorcererChips(view.sorcerers || [])),
    el("div", { class: "picker-row" }, el("span", { class: "muted" }, t("incantibus.spell_cards")),
      spellCardChips(view.spell_cards || [])),
    el("div", { class: "picker-row muted" }, t("incantibus.moat", { count: (view.moat || []).length }),
      moatChips((view.moat || []).slice(-6))),
  ];
  return el("div", {}, rows);
}

function condition(cond) {
  if (!cond) return "";
  return Object.entries(cond).map(([k, v]) => `${v} ${named("condition", k)}`).join(", ");
}

function satchels(view) {
  return el("div", { class: "players" }, view.players.map((p, seat) => el("div", {
    class: "player", style: `--seat: ${seatColour(seat)}`, "data-satchel": p.name },
    el("div", { class: "name", style: "font-size: 1rem" }, p.name, p.wand_down ? ` (${t("incantibus.wand_on_the_table")})` : ""),
    Object.entries(p.satchel || {}).filter(([, tokens]) => tokens.length).map(([cell, tokens]) =>
      el("div", { style: "font-size: .8rem" }, el("span", { class: "muted" }, `${named("cell", cell)}: `),
        satchelTokens(tokens, cell))),
    el("div", { class: "muted", style: "font-size: .75rem" },
      Object.entries(p.breakdown || {}).map(([k, v]) => `${t(`ending.incantibus.${k}`)} ${v}`).join(" · ")))));
}

/** Who pointed where, who won each contested token, the swap, and what each got. */
export function lastCasting(view) {
  const cast = view.last_cast || {};
  if (!cast.claims || !cast.claims.length) {
    return (cast.events || []).length ? eventLines(view, cast.events) : el("p", { class: "muted" }, t("parts.no_casting_yet"));
  }
  const kinds = kindsById(view);
  const sections = sectionsById(view);
  const gotKind = Object.fromEntries((cast.events || []).filter((e) => e.player).map((e) => [e.player, e.kind]));
  const claims = cast.claims.map((claim) => {
    const kind = gotKind[claim.winner] || kinds[claim.target];
    const label = words(kind);
    return el("li", { "data-target": claim.target },
      claim.claimants.map((p, i) => [i ? " & " : "", who(view, p), " ", wandBadge(cast.wands ? cast.wands[p] : "")]),
      " → ", castToken(sections[claim.target], kind, label), label,
      claim.claimants.length > 1 ? el("span", { class: "won" }, "  ", t("incantibus.wins", { player: claim.winner })) : "",
      (claim.losers || []).length ? el("span", { class: "lost" }, "  ", t(claim.losers.length > 1 ? "incantibus.get_nothing" : "incantibus.gets_nothing", { players: names(claim.losers) })) : "");
  });
  const swaps = cast.claims.filter((c) => c.swap).map((c) =>
    el("li", { class: "swap" }, who(view, c.swap[0]), " ⇄ ", who(view, c.swap[1]), " ", t("parts.swap_wands")));
  const idle = Object.entries(cast.targets || {}).filter(([, t]) => t === null)
    .map(([p]) => el("li", { class: "muted" }, who(view, p), " ", t("incantibus.pointed_at_nothing")));
  return el("div", {}, el("ul", { class: "cast-lines" }, claims, swaps, idle), eventLines(view, cast.events || []));
}

function eventLines(view, events) {
  return el("ul", { class: "cast-lines", style: "font-size: .85rem" }, events.map((e) => el("li", { "data-event": e.event },
    ...(SAY[e.event] || generic)(e, e.player ? who(view, e.player) : "", el("b", {}, words(e.kind))),
    e.why && lang === "en" ? el("span", { class: "muted" }, ` — ${e.why}`) : "")));  // the rules' reason is in English only
}

// Each note of the rules as a sentence (incantibus.note.<event>): the player in colour, the token in bold.
const NOTES = ["received", "caught", "escaped", "brewed", "learned", "defeated", "discarded", "stolen", "spell", "spell_failed",
               "spell_lost", "looked", "wand_down", "room", "dungeon", "sorcerer_turned", "to_moat", "game_over"];
const SAY = Object.fromEntries(NOTES.map((note) => [note, (e, p, k) => sentenceParts(t(`incantibus.note.${note}`, {
  by: words(e.by), victim: e.victim ?? "", card: named("spell", e.card), room: named("room", e.room) }), { player: p, token: k })]));

/** A sentence whose {player} and {token} are elements (the name in colour, the token in bold). */
function sentenceParts(text, parts) {
  return text.split(/\{(player|token)\}/).map((piece, i) => (i % 2 ? parts[piece] : piece));
}

function generic(e, p, k) { return [p, " ", String(e.event).replaceAll("_", " "), " ", e.kind ? k : ""]; }

// -- the controls -----------------------------------------------------------------------------

export function controls(view, ctx) {
  const legal = view.legal || {};
  const prompt = PROMPTS[legal.kind];
  if (!prompt) return section("game.next", el("p", { class: "muted" }, t("game.waiting")));
  return prompt(view, legal, ctx.propose);
}

const PROMPTS = {
  cast: (view, legal, propose) => section("game.casting_where", castingPicker(view, propose)),
  over: () => section("game.game_over", el("p", {}, t("page.start_from_night"))),
  wand_down: (view, legal, propose) => section(t("incantibus.wand_down.title"),
    el("p", { class: "muted" }, t("incantibus.wand_down.why")),
    el("div", { class: "tokens" }, legal.players.map((p) =>
      el("button", { "data-do": "wand_down", "data-player": p, onclick: () => propose({ type: "wand_down", player: p }) },
        t("incantibus.wand_down.button", { player: p }))))),
  satchel: (view, legal, propose) => section(t("incantibus.satchel.full", { player: legal.player }),
    el("p", {}, t("incantibus.satchel.where", { token: words(legal.token_kind) })),
    el("div", { class: "tokens" }, legal.options.map((option) => el("button", {
      "data-do": "satchel", onclick: () => propose({ type: "satchel", player: legal.player, choice: option }),
    }, option === "discard_new" ? t("incantibus.satchel.new_to_moat", { token: words(legal.token_kind) })
                                : t("incantibus.satchel.throw_out", { token: words(kindsById(view)[option.discard]) }))))),
  spell: spellPrompt,
  reveal: revealPrompt,
  room_entered: roomPrompt,
};

function spellPrompt(view, legal, propose) {
  const kinds = kindsById(view);
  const choices = el("div", { class: "tokens" });
  const cards = legal.cards.map((c) => el("button", {
    "data-do": "spell", "data-card": c.card, disabled: !c.works, title: lang === "en" ? c.why || "" : "",
    onclick: () => {
      if (!c.choices.length) return propose({ type: "spell", player: legal.player, card: c.card });
      choices.replaceChildren(...c.choices.map((choice) => el("button", {
        "data-do": "spell-choice", onclick: () => propose({ type: "spell", player: legal.player, card: c.card, choice }),
      }, [choice.from ? `${t("incantibus.spell.from", { player: choice.from })}: ` : "", words(kinds[choice.token] || choice.token)].join(""))));
    },
  }, named("spell", c.card), c.works ? "" : el("span", { class: "muted", style: "font-size: .7rem" }, ` (${lang === "en" ? c.why : t("incantibus.spell.not_now")})`)));
  return section(t("incantibus.spell.title", { player: legal.player }), el("div", { class: "tokens" }, cards), choices);
}

function revealPrompt(view, legal, propose) {
  const chosen = {};
  const rows = legal.tokens.map((ref, i) => el("div", { class: "picker-row" }, el("span", { class: "who" }, t("incantibus.reveal.token", { n: i + 1 })),
    select(legal.options[ref], (kind) => { chosen[ref] = kind; }, ref)));
  return section(t("incantibus.reveal.title"), rows,
    el("button", { class: "primary", "data-do": "reveal", onclick: () => propose({ type: "reveal", kinds: { ...chosen } }) }, t("game.confirm")));
}

function roomPrompt(view, legal, propose) {
  let tile = legal.rooms[0];
  const body = el("div", {});
  const draw = () => {
    const visible = Array(tile.visible).fill(null);
    body.replaceChildren(el("div", {},
      legal.rooms.length > 1 ? el("div", { class: "picker-row" }, t("incantibus.room.tile"), " ",
        select(legal.rooms.map((r) => r.room), (r) => { tile = legal.rooms.find((x) => x.room === r); draw(); }, "room", tile.room,
               (r) => named("room", r))) : null,
      el("p", {}, t("incantibus.room.tokens", { room: named("room", tile.room), visible: tile.visible, secret: tile.secret })),
      visible.map((_, i) => el("div", { class: "picker-row" }, el("span", { class: "who" }, t("incantibus.reveal.token", { n: i + 1 })),
        select(legal.visible_kinds, (k) => { visible[i] = k; }, `visible-${i}`))),
      el("button", { class: "primary", "data-do": "room_entered", onclick: () =>
        propose({ type: "room_entered", room: tile.room, visible: [...visible], secret: tile.secret }) }, t("incantibus.room.laid_out"))));
  };
  draw();
  return section(t("incantibus.room.title"), body);
}

function select(options, onChange, name, value, label = words) {
  const node = el("select", { name, style: "font: inherit; font-size: 1rem; padding: .3rem" },
    el("option", { value: "" }, "—"), options.map((o) => el("option", { value: o, selected: o === value }, label(o))));
  node.addEventListener("change", () => onChange(node.value || null));
  return node;
}
