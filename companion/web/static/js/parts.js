// Parts every game's pages are built from: players with their colours, wands and points, the last
// casting, a casting picker, history with "undo to here", standings, device cards.

import { tokenPicture } from "./icons.js";
import { has, lang, sentence, t, term } from "./words.js";
import { entrySentence } from "./history.js";

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "class") node.className = value;
    else if (key === "style") node.style.cssText = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (value !== undefined && value !== null && value !== false) node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat(Infinity)) {
    if (child !== null && child !== undefined && child !== false) node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

export function seatColour(seat) { return `var(--seat-${seat % 6})`; }

export function seats(view) {
  const names = (view.players || []).map((p) => (typeof p === "string" ? p : p.name));
  return Object.fromEntries(names.map((name, seat) => [name, seat]));
}

export function who(view, name) {
  const seat = seats(view)[name] ?? 0;
  return el("span", { class: "who-name", style: `color: ${seatColour(seat)}; font-weight: bold` }, name);
}

export function wandBadge(strength) {
  return el("span", { class: "wand-badge", title: t("parts.wand_of_strength", { strength }) }, strength ?? "–");
}

/** One card per player in seat order: name in the player's colour, points large, wand held. */
export function playerCards(view, flashed = new Set()) {
  const scores = view.scores || {};
  const best = Math.max(...Object.values(scores), 0);
  return el("div", { class: "players" }, (view.players || []).map((p, seat) => {
    const name = typeof p === "string" ? p : p.name;
    const points = scores[name] ?? p.points ?? 0;
    const classes = ["player", best > 0 && points === best ? "leader" : "", flashed.has(name) ? "flash" : ""];
    return el("div", { class: classes.join(" "), style: `--seat: ${seatColour(seat)}`, "data-player": name },
      el("div", { class: "name" }, name),
      el("div", { class: "points", "data-points": points }, points),
      el("div", { class: "wand" }, t("parts.wand"), " ", wandBadge((view.wands || {})[name] ?? p.wand)));
  }));
}

/** A place as the board names what lies on it, never by its id: two that read alike also say where
 *  (the camera's question names its candidates the same way: companion/tableside/asking.py). */
export function tokenLabel(view, id) {
  if (id === null || id === undefined) return t("parts.nothing");
  const token = tokenInfo(view, id);
  if (!token) return t("parts.a_token");
  const name = tokenName(view, token);
  const legal = (view.legal && view.legal.tokens) || {};
  const alike = Object.entries(legal).filter(([other, t]) => other !== id && tokenName(view, t) === name).length > 0;
  return alike && token.place && Number.isInteger(token.slot)
    ? t("parts.token_at", { name, place: term(view.game, `place.${token.place}`, token.place), slot: token.slot + 1 }) : name;
}

/** A token as its game names it (its data/words.json), in the tablet's language. */
export function kindName(game, kind) {
  return term(game, `token.${kind}`, String(kind).replaceAll("_", " "));
}

function tokenName(view, token) {
  if (token.kind) return kindName(view.game, token.kind);
  return token.place === "sorcerer" ? t("parts.face_down_sorcerer") : t("parts.secret_token");
}

export function tokenInfo(view, id) {
  const fromLegal = view.legal && view.legal.tokens && view.legal.tokens[id];
  if (fromLegal) return fromLegal;
  const room = view.room && view.room.tokens ? view.room.tokens : [];
  return room.find((t) => t.id === id);
}

/** The last casting as it happened: who pointed where, who got what, and the swap. */
export function lastCasting(view) {
  const cast = view.last_cast;
  if (!cast) return el("p", { class: "muted" }, t("parts.no_casting_yet"));
  const targets = cast.targets || cast.pointed || {};
  const got = gotByPlayer(view, cast);
  const lines = Object.entries(targets).map(([player, target]) => {
    const won = got[player];
    return el("li", { "data-player": player }, who(view, player), " → ", cast.labels?.[target] || tokenLabel(view, target),
      target === null ? "" : won ? el("span", { class: "won" }, "  ✓ ", won.what || t("parts.took_it"))
                                 : el("span", { class: "lost" }, "  ", t("parts.nothing")));
  });
  const swaps = (cast.swaps || (cast.swap ? [cast.swap] : [])).map((pair) => {
    const [a, b] = Array.isArray(pair) ? pair : [pair.from ?? pair.winner, pair.to ?? pair.loser];
    return el("li", { class: "swap" }, who(view, a), " ⇄ ", who(view, b), " ", t("parts.swap_wands"));
  });
  return el("ul", { class: "cast-lines" }, lines, swaps);
}

function gotByPlayer(view, cast) {
  const got = {};
  const source = cast.got || cast.results || {};
  const named = (what) => (what ? kindName(view.game, what) : null);
  if (Array.isArray(source)) {
    for (const r of source) if (r.player && r.outcome !== "nothing") got[r.player] = { what: named(r.what || r.outcome || r.kind) };
  } else {
    for (const [player, what] of Object.entries(source)) {
      if (what !== null && what !== undefined) got[player] = { what: named(typeof what === "string" ? what : what.kind || what.outcome) };
    }
  }
  return got;
}

/** Token chips for what lies on the table now (room, potions, ...), named as the game names them. */
export function tokenChips(tokens, game) {
  return el("div", { class: "tokens" }, (tokens || []).map((token) =>
    el("span", { class: token.visible === false && !token.kind ? "token secret" : "token", "data-token": token.id },
      token.kind ? kindName(game, token.kind) : t("parts.secret"))));
}

/** A casting chosen on the tablet: one row per player, one button per legal target, then "Cast". */
export function castingPicker(view, propose) {
  const legal = view.legal;
  const chosen = Object.fromEntries(legal.players.map((p) => [p, null]));
  const rows = legal.players.map((player) => {
    const buttons = [null, ...(legal.targets[player] || [])].map((target) => el("button", {
      "data-player": player, "data-target": target ?? "none", class: target === null ? "chosen" : "",
      onclick: (e) => {
        chosen[player] = target;
        // currentTarget: a tap on the button's picture is a tap on the button
        for (const b of e.currentTarget.parentElement.querySelectorAll("button")) b.classList.toggle("chosen", b === e.currentTarget);
      },
    }, target === null ? t("parts.no_target") : [tokenPicture(view.game, tokenInfo(view, target), tokenLabel(view, target)), tokenLabel(view, target)]));
    return el("div", { class: "picker-row", style: `--seat: ${seatColour(seats(view)[player] ?? 0)}` },
      el("span", { class: "who" }, player, " ", wandBadge((view.wands || {})[player])), buttons);
  });
  const cast = el("button", { class: "primary", "data-do": "cast", onclick: () => propose({ type: "cast", targets: { ...chosen } }) }, t("parts.cast"));
  return el("div", { class: "picker" }, rows, cast);
}

/** Any other prompt the rules list as ready-made actions: one button each. */
export function choiceButtons(view, propose) {
  const options = view.legal.options || view.legal.actions || view.legal.choices || [];
  if (!Array.isArray(options) || options.length === 0) return null;
  return el("div", { class: "tokens" }, options.map((option) => {
    const action = option.action || option;
    return el("button", { "data-do": action.type, onclick: () => propose(action) }, option.label || describe(view, action));
  }));
}

/** An action as a sentence of its game (the history's sentence for it). */
export function describe(view, action) {
  return entrySentence(view, { kind: "action", payload: action });
}

/** Undo, redo, and the history with "undo to here" on every action in effect. */
export function undoBar(view, propose) {
  return el("div", { class: "tokens" },
    el("button", { "data-do": "undo", disabled: !view.can_undo, onclick: () => propose({ type: "undo" }) }, "↶ ", t("parts.undo")),
    el("button", { "data-do": "redo", disabled: !view.can_redo, onclick: () => propose({ type: "redo" }) }, "↷ ", t("parts.redo")));
}

export function historyList(view, history, propose) {
  const inEffect = history.filter((e) => e.kind === "action" && e.in_effect).map((e) => e.seq);
  const newest = inEffect[inEffect.length - 1];
  const items = [...history].reverse().map((entry) => {
    const undone = entry.kind === "action" && entry.in_effect === false;
    // Going back to an entry undoes what came after it, so the newest action in effect has no button.
    const canGoBack = entry.seq !== newest && (entry.seq === 0 || (entry.kind === "action" && entry.in_effect));
    return el("li", { class: undone ? "undone" : "", "data-seq": entry.seq },
      el("span", { class: "muted" }, `#${entry.seq}`),
      el("span", { class: "what" }, entrySentence(view, entry)),
      canGoBack && view.can_undo ? el("button", { "data-do": "undo_to", onclick: () => propose({ type: "undo_to", seq: entry.seq }) }, t("parts.undo_to_here")) : null);
  });
  return el("ul", { class: "history" }, items);
}

export function standingsTable(standings) {
  if (!standings || standings.length === 0) return el("p", { class: "muted" }, t("standings.none_yet"));
  return el("table", { class: "standings" },
    el("tr", {}, ["", t("standings.player"), t("standings.night_points"), t("standings.wins"), t("standings.place_points"),
                  t("standings.games")].map((h) => el("th", {}, h))),
    standings.map((row, i) => el("tr", { "data-player": row.player },
      el("td", {}, i + 1), el("td", {}, el("b", {}, row.player)), el("td", {}, row.night_points), el("td", {}, row.wins),
      el("td", {}, row.place_points), el("td", {}, row.games))));
}

const DEVICES = ["camera", "hub", "cue", "calibration"]; // each says what to do in the catalogue's device.<name>.fix
const WORST_FIRST = ["error", "warning", "off", "ok"];

/** A device's sentence in the tablet's language: its words, else (on an English tablet) the server's
 *  sentence, else the catalogue's ``otherwise`` (what its level means), never English on a German one. */
function said(words, english, otherwise) {
  if (lang === "en") return english || sentence(words, english); // the server's English names more
  if (words) return sentence(words, english);
  return has(otherwise) ? t(otherwise) : t("device.says.warning");
}

/** What to do about a device; the calibration's (and any naming its step, as the table markers' do) is a
 *  link to the calibration page's step that does it. */
function fixOf(d) {
  const words = said(d.fix_words, d.fix, `device.${d.device}.fix`);
  if (d.device !== "calibration" && !(d.details && d.details.step)) return words;
  const step = (d.details && d.details.step) || "camera";
  return el("a", { href: `/calibration#${step}`, "data-part": "calibration-step" }, words);
}

/** Every device the table relies on, worst first; one that never reported says so. */
export function deviceCards(devices) {
  const known = Object.fromEntries((devices || []).map((d) => [d.device, d]));
  const all = [...(devices || []), ...DEVICES.filter((name) => !known[name]).map((name) =>
    ({ device: name, level: "off", message: t("device.not_reported"), fix: t(`device.${name}.fix`), since: 0 }))];
  all.sort((a, b) => WORST_FIRST.indexOf(a.level) - WORST_FIRST.indexOf(b.level) || a.device.localeCompare(b.device));
  return all.map((d) => el("section", { class: "device", "data-level": d.level, "data-device": d.device },
    el("h2", {}, term("device", d.device, d.device), " — ", t(`device.level.${d.level}`)),
    el("div", {}, said(d.words, d.message, `device.says.${d.level}`)),
    d.fix && d.level !== "ok" ? el("div", { class: "fix" }, t("device.what_to_do"), " ", fixOf(d)) : null,
    el("div", { class: "muted" }, d.since ? t("device.since", { time: new Date(d.since * 1000).toLocaleTimeString(lang) }) : "")));
}
