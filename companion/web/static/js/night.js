// The host's night page: the standings by the night's points per place, the games so far (an unfinished
// one can be resumed), and the next game: chosen by tapping, seats and the first player tapped, every
// option of its rulebook shown with the rulebook's default. Starting while a game runs asks first.

import { el, seatColour } from "./parts.js";
import { nightChart } from "./chart.js";
import { getJSON, handle, post } from "./api.js";
import { boot, render } from "./shell.js";

const { model, stream } = boot("Night");
const root = document.querySelector("main");
const refusal = el("div", { class: "refusal", role: "status", id: "night-refusal" });
const say = (text) => { refusal.textContent = text || ""; };
const ORDINAL = ["—", "1st", "2nd", "3rd", "4th", "5th", "6th", "7th", "8th"];

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
  render(standingsSection, el("h2", {}, `${night.name}: standings`), standings(night));
  render(gamesSection, el("h2", {}, "Games tonight"), gamesTable(night));
  if (why === "snapshot" && !next.confirming) drawNext(); // a game started or resumed elsewhere
});

function standings(night) {
  const perPlace = (night.points_per_place || []).map((p, i) => `${ORDINAL[i + 1]} ${p}`).join(" · ");
  const rule = el("p", { class: "muted", "data-part": "points-per-place" },
    `Night points per place in each game: ${perPlace} (tied players share the better place; a co-operative game lost gives none).`);
  if (!night.standings.length) return [el("p", { class: "muted" }, "No game finished yet tonight."), rule];
  return [nightChart(night, standingsSection.clientWidth - 32), el("table", { class: "standings" },
    el("tr", {}, ["", "Player", "Night points", "Wins", "Places", "Games"].map((h) => el("th", {}, h))),
    night.standings.map((row, i) => el("tr", { "data-player": row.player },
      el("td", {}, i + 1), el("td", {}, el("b", {}, row.player)), el("td", { class: "night-points" }, row.night_points),
      el("td", {}, row.wins), el("td", {}, row.places.map((p) => ORDINAL[p] || `${p}th`).join(" · ")),
      el("td", {}, row.games)))), rule];
}

function gamesTable(night) {
  if (!night.games.length) return el("p", { class: "muted" }, "No game yet tonight.");
  return el("table", {},
    el("tr", {}, ["#", "Game", "Players", "Scores", ""].map((h) => el("th", {}, h))),
    night.games.map((g) => (g.current && model.game ? { ...g, scores: model.game.scores || g.scores, over: model.game.over } : g))
      .map((g, i) => el("tr", { "data-game-id": g.id },
      el("td", {}, i + 1), el("td", {}, g.title), el("td", {}, g.players.join(", ")),
      el("td", {}, Object.entries(g.scores).map(([p, s]) => `${p} ${s}`).join(" · ")),
      el("td", {}, g.over ? "finished" : g.current ? "playing now" : [
        "left unfinished ",
        el("button", { "data-resume": g.id, onclick: () => resume(g) }, "Resume")]))));
}

async function resume(g) {
  handle(await post(`/api/night/games/${g.id}/resume`, {}), stream, say);
  if (!refusal.textContent) location.href = "/controls";
}

/** The next game starts from the last one's game and players (else Incantibus and nobody seated). */
async function choose(night) {
  const answer = await getJSON("/api/games");
  if (!answer.ok) { say("the list of games could not be loaded; reload the page"); return; }
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
  const add = el("input", { id: "new-player", placeholder: "a new player's name", maxlength: 24, style: "letter-spacing: 0; width: 12rem" });
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
    el("h2", {}, "Next game"),
    el("div", { class: "picker-row game-choice" }, next.known.map((g) => el("button", {
      "data-game": g.name, class: g.name === next.game ? "chosen" : "", onclick: () => pickGame(g.name) }, g.title))),
    el("h3", {}, `Seats (tap in seat order; ${counts[0]}–${counts[counts.length - 1]} players)`),
    el("div", { class: "picker-row seat-choice" }, next.names.map((n) => el("button", {
      "data-name": n, class: next.seats.includes(n) ? "chosen" : "",
      onclick: () => { next.seats = next.seats.includes(n) ? next.seats.filter((s) => s !== n) : [...next.seats, n]; dropStale(); drawNext(); },
    }, next.seats.includes(n) ? `${next.seats.indexOf(n) + 1}. ${n}` : n)),
    add, el("button", { onclick: addName, "data-do": "add-player" }, "Add")),
    el("ol", { class: "seats" }, next.seats.map((s, i) => el("li", { "data-seat": i, style: `color: ${seatColour(i)}` }, s))),
    el("h3", {}, "Options"),
    game.options.length ? game.options.map(control) : el("p", { class: "muted" }, "This game has no options."),
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
  const row = (...children) => el("div", { class: "picker-row option", "data-option": o.key }, el("span", { class: "option-label" }, o.label), children);
  const button = (label, value, on) => el("button", { "data-value": String(value), class: on ? "chosen" : "", onclick: () => set(o.key, value) }, label);
  if (o.kind === "choice") {
    return row(o.choices.map((c) => button(c.label + (c.value === o.default ? " (rulebook)" : ""),
      c.value === o.default ? undefined : c.value, (chosen ?? o.default) === c.value)));
  }
  if (o.kind === "bool") {
    const on = chosen ?? o.default;
    return row(button("off" + (o.default ? "" : " (rulebook)"), o.default ? false : undefined, !on),
      button("on" + (o.default ? " (rulebook)" : ""), o.default ? undefined : true, on));
  }
  if (o.kind === "player") {
    return row(button(o.default_label + " (rulebook)", undefined, chosen === undefined),
      next.seats.map((p) => button(p, p, chosen === p)));
  }
  // assign: each seated player a different one of the values; partly filled is refused at Start
  const values = o.values || (o.values_by_count[String(next.seats.length)] || []).map((v) => ({ value: v, label: String(v) }));
  const given = next.options[o.key] || {};
  return row(button(o.default_label + " (rulebook)", undefined, chosen === undefined),
    el("div", { class: "assign" }, next.seats.map((p) => el("label", { class: "picker-row" }, p, " ",
      el("select", { "data-assign": p, onchange: (e) => {
        const picked = { ...given };
        if (e.target.value === "") delete picked[p];
        else picked[p] = values.find((v) => String(v.value) === e.target.value).value;
        set(o.key, Object.keys(picked).length ? picked : undefined);
      } }, el("option", { value: "" }, "—"),
        values.map((v) => el("option", { value: String(v.value), selected: given[p] !== undefined && String(given[p]) === String(v.value) }, v.label)))))));
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
      el("p", {}, `${playing.title} with ${playing.players.join(", ")} is not finished. Start ${spec().title} anyway? `,
        `The unfinished game stays on tonight's list and can be resumed.`),
      el("button", { class: "primary", "data-do": "start-anyway", onclick: start }, `Start ${spec().title}`),
      el("button", { "data-do": "keep-playing", onclick: () => { next.confirming = false; drawNext(); } }, `Keep playing ${playing.title}`));
  }
  return el("button", { class: "primary", "data-do": "start", onclick: () => {
    if (running()) { next.confirming = true; drawNext(); } else start();
  } }, `Start ${spec().title}`);
}

async function start() {
  const game = spec();
  for (const o of game.options) {
    const v = next.options[o.key];
    if (o.kind === "assign" && v && Object.keys(v).length !== next.seats.length) {
      say(`${o.label}: give every seated player one, or leave it ${o.default_label}`); return;
    }
    if (o.kind === "assign" && v && new Set(Object.values(v).map(String)).size !== next.seats.length) {
      say(`${o.label}: each player gets a different one`); return;
    }
  }
  next.confirming = false;
  const answer = await post("/api/night/games", { game: game.name, players: next.seats, options: next.options });
  handle(answer, stream, say);
  if (answer.ok) { next.options = {}; location.href = "/controls"; } else drawNext();
}
