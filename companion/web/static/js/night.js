// The host's night page: the standings by the night's points per place, the games so far (an unfinished
// one can be resumed), and the next game: chosen by tapping, seats and the first player tapped, every
// option of its rulebook shown with the rulebook's default. Starting while a game runs asks first.

import { el, seatColour } from "./parts.js";
import { nightChart } from "./chart.js";
import { getJSON, handle, post } from "./api.js";
import { boot, render } from "./shell.js";
import { names } from "./history.js";
import { t, term } from "./words.js";

/** An option's words (its label, a choice, its default) from its game's terms, else as the server gave them. */
function optionWords(o, part, fallback) { return term(next.game, `option.${o.key}.${part}`, fallback); }

const { model, stream } = boot("night");
const root = document.querySelector("main");
const refusal = el("div", { class: "refusal", role: "status", id: "night-refusal" });
const say = (text) => { refusal.textContent = text || ""; };
const ordinal = (n) => (n >= 1 && n <= 8 ? t(`ordinal.${n}`) : `${n}.`);

// What the host is choosing; kept here so pushed updates never undo a tap.
const next = { known: [], game: null, seats: [], names: [], options: {}, confirming: false, made: false };
const nextSection = el("section", { "data-part": "next-game" });

const standingsSection = el("section", { "data-part": "standings" });
const gamesSection = el("section", { "data-part": "games" });
root.append(nextSection, standingsSection, gamesSection); // placed once: a name being typed keeps its focus

model.onChange((why) => {
  if (why === "status" || why === "questions" || why === "notice" || !model.night) return;
  const night = model.night;
  if (!next.made) { next.made = true; choose(night); }
  render(standingsSection, el("h2", {}, t("night.standings", { night: night.name })), standings(night));
  render(gamesSection, el("h2", {}, t("night.games_tonight")), gamesTable(night));
  if (why === "snapshot" && !next.confirming) drawNext(); // a game started or resumed elsewhere
});

function standings(night) {
  const perPlace = (night.points_per_place || []).map((p, i) => `${ordinal(i + 1)} ${p}`).join(" · ");
  const rule = el("p", { class: "muted", "data-part": "points-per-place" }, t("night.points_per_place", { points: perPlace }));
  if (!night.standings.length) return [el("p", { class: "muted" }, t("standings.none_yet")), rule];
  return [nightChart(night, standingsSection.clientWidth - 32), el("table", { class: "standings" },
    el("tr", {}, ["", t("standings.player"), t("standings.night_points"), t("standings.wins"), t("standings.places"),
                  t("standings.games")].map((h) => el("th", {}, h))),
    night.standings.map((row, i) => el("tr", { "data-player": row.player },
      el("td", {}, i + 1), el("td", {}, el("b", {}, row.player)), el("td", { class: "night-points" }, row.night_points),
      el("td", {}, row.wins), el("td", {}, row.places.map((p) => ordinal(p)).join(" · ")),
      el("td", {}, row.games)))), rule];
}

function gamesTable(night) {
  if (!night.games.length) return el("p", { class: "muted" }, t("night.no_game_yet"));
  return el("table", {},
    el("tr", {}, ["#", t("night.game"), t("night.players"), t("night.scores"), ""].map((h) => el("th", {}, h))),
    night.games.map((g) => (g.current && model.game ? { ...g, scores: model.game.scores || g.scores, over: model.game.over } : g))
      .map((g, i) => el("tr", { "data-game-id": g.id },
      el("td", {}, i + 1), el("td", {}, g.title), el("td", {}, names(g.players)),
      el("td", {}, Object.entries(g.scores).map(([p, s]) => `${p} ${s}`).join(" · ")),
      el("td", {}, g.over ? t("night.finished") : g.current ? t("night.playing_now") : [
        t("night.left_unfinished"), " ",
        el("button", { "data-resume": g.id, onclick: () => resume(g) }, t("night.resume"))]))));
}

async function resume(g) {
  handle(await post(`/api/night/games/${g.id}/resume`, {}), stream, say);
  if (!refusal.textContent) location.href = "/controls";
}

/** The next game starts from the last one's game and players (else Incantibus and nobody seated). */
async function choose(night) {
  const answer = await getJSON("/api/games");
  if (!answer.ok) { say(t("night.games_not_loaded")); return; }
  next.known = answer.games;
  const last = night.games[night.games.length - 1];
  const names = [];
  for (const g of night.games) for (const p of g.players) if (!names.includes(p)) names.push(p);
  next.names = names;
  next.seats = last ? [...last.players] : [];
  pickGame(last && next.known.some((k) => k.name === last.game) ? last.game : "incantibus");
}

function pickGame(name) {
  next.game = name;
  next.options = {};
  next.confirming = false;
  drawNext();
}

function spec() { return next.known.find((g) => g.name === next.game); }

function drawNext() {
  const game = spec();
  if (!game) return;
  const add = el("input", { id: "new-player", placeholder: t("night.new_player"), maxlength: 24, style: "letter-spacing: 0; width: 12rem" });
  const addName = () => {
    const name = add.value.trim();
    if (!name) return;
    if (!next.names.includes(name)) next.names.push(name);
    if (!next.seats.includes(name)) next.seats.push(name);
    drawNext();
    document.getElementById("new-player")?.focus();
  };
  add.addEventListener("keydown", (e) => { if (e.key === "Enter") addName(); });
  const counts = game.player_counts;
  render(nextSection,
    el("h2", {}, t("night.next_game")),
    el("div", { class: "picker-row game-choice" }, next.known.map((g) => el("button", {
      "data-game": g.name, class: g.name === next.game ? "chosen" : "", onclick: () => pickGame(g.name) }, g.title))),
    el("h3", {}, t("night.seats", { least: counts[0], most: counts[counts.length - 1] })),
    el("div", { class: "picker-row seat-choice" }, next.names.map((n) => el("button", {
      "data-name": n, class: next.seats.includes(n) ? "chosen" : "",
      onclick: () => { next.seats = next.seats.includes(n) ? next.seats.filter((s) => s !== n) : [...next.seats, n]; dropStale(); drawNext(); },
    }, next.seats.includes(n) ? `${next.seats.indexOf(n) + 1}. ${n}` : n)),
    add, el("button", { onclick: addName, "data-do": "add-player" }, t("night.add"))),
    el("ol", { class: "seats" }, next.seats.map((s, i) => el("li", { "data-seat": i, style: `color: ${seatColour(i)}` }, s))),
    el("h3", {}, t("night.options")),
    game.options.length ? game.options.map(control) : el("p", { class: "muted" }, t("night.no_options")),
    confirmOrStart(), refusal);
}

/** Options that name a player no longer seated are dropped, so a start never names a stranger. */
function dropStale() {
  for (const o of spec().options) {
    const v = next.options[o.key];
    if (o.kind === "player" && v !== undefined && !next.seats.includes(v)) delete next.options[o.key];
    if (o.kind === "assign") delete next.options[o.key];
  }
}

function set(key, value) { if (value === undefined) delete next.options[key]; else next.options[key] = value; next.confirming = false; drawNext(); }

function control(o) {
  const chosen = next.options[o.key];
  const row = (...children) => el("div", { class: "picker-row option", "data-option": o.key }, el("span", { class: "option-label" }, optionWords(o, "label", o.label)), children);
  const button = (label, value, on) => el("button", { "data-value": String(value), class: on ? "chosen" : "", onclick: () => set(o.key, value) }, label);
  if (o.kind === "choice") {
    return row(o.choices.map((c) => button(optionWords(o, `choice.${c.value}`, c.label) + (c.value === o.default ? ` (${t("night.rulebook")})` : ""),
      c.value === o.default ? undefined : c.value, (chosen ?? o.default) === c.value)));
  }
  if (o.kind === "bool") {
    const on = chosen ?? o.default;
    return row(button(t("night.off") + (o.default ? "" : ` (${t("night.rulebook")})`), o.default ? false : undefined, !on),
      button(t("night.on") + (o.default ? ` (${t("night.rulebook")})` : ""), o.default ? undefined : true, on));
  }
  if (o.kind === "player") {
    return row(button(`${optionWords(o, "default", o.default_label)} (${t("night.rulebook")})`, undefined, chosen === undefined),
      next.seats.map((p) => button(p, p, chosen === p)));
  }
  // assign: each seated player a different one of the values; partly filled is refused at Start
  const values = o.values || (o.values_by_count[String(next.seats.length)] || []).map((v) => ({ value: v, label: String(v) }));
  const given = next.options[o.key] || {};
  return row(button(`${optionWords(o, "default", o.default_label)} (${t("night.rulebook")})`, undefined, chosen === undefined),
    el("div", { class: "assign" }, next.seats.map((p) => el("label", { class: "picker-row" }, p, " ",
      el("select", { "data-assign": p, onchange: (e) => {
        const picked = { ...given };
        if (e.target.value === "") delete picked[p];
        else picked[p] = values.find((v) => String(v.value) === e.target.value).value;
        set(o.key, Object.keys(picked).length ? picked : undefined);
      } }, el("option", { value: "" }, "—"),
        values.map((v) => el("option", { value: String(v.value), selected: given[p] !== undefined && String(given[p]) === String(v.value) },
          optionWords(o, `value.${v.value}`, v.label))))))));
}

/** The game being played, unless it is over (the pushed view knows before the night's list does). */
function running() {
  const playing = model.night.games.find((g) => g.current && !g.over);
  return playing && !(model.game && model.game.over) ? playing : null;
}

function confirmOrStart() {
  const playing = running();
  if (next.confirming && playing) {
    return el("div", { class: "confirm", "data-part": "confirm-start", role: "alertdialog" },
      el("p", {}, t("night.not_finished", { playing: playing.title, players: names(playing.players), next: spec().title })),
      el("button", { class: "primary", "data-do": "start-anyway", onclick: start }, t("night.start", { game: spec().title })),
      el("button", { "data-do": "keep-playing", onclick: () => { next.confirming = false; drawNext(); } }, t("night.keep_playing", { game: playing.title })));
  }
  return el("button", { class: "primary", "data-do": "start", onclick: () => {
    if (running()) { next.confirming = true; drawNext(); } else start();
  } }, t("night.start", { game: spec().title }));
}

async function start() {
  const game = spec();
  if (!game.player_counts.includes(next.seats.length)) { // said here in the table's words, before the server's own refusal
    const counts = game.player_counts;
    say(t("night.wrong_count", { game: game.title, least: counts[0], most: counts[counts.length - 1], seated: next.seats.length }));
    return;
  }
  for (const o of game.options) {
    const v = next.options[o.key];
    if (o.kind === "assign" && v && Object.keys(v).length !== next.seats.length) {
      say(t("night.assign_everyone", { option: optionWords(o, "label", o.label), default: optionWords(o, "default", o.default_label) })); return;
    }
    if (o.kind === "assign" && v && new Set(Object.values(v).map(String)).size !== next.seats.length) {
      say(t("night.assign_different", { option: optionWords(o, "label", o.label) })); return;
    }
  }
  next.confirming = false;
  const answer = await post("/api/night/games", { game: game.name, players: next.seats, options: next.options });
  handle(answer, stream, say);
  if (answer.ok) { next.options = {}; location.href = "/controls"; } else drawNext();
}
