// The controls: answer the camera's questions, enter what the rules ask for, undo, redo, and go
// back to any point of the history, and give the cue. Every tap carries its own action id.

import { el, historyList, tokenInfo, tokenLabel, undoBar, wandBadge, who } from "./parts.js";
import { actionId, getJSON, handle, post, proposer } from "./api.js";
import { castingDue, cueButton } from "./cue.js";
import { endingPanel } from "./ending.js";
import { noticeBanner, recentNotices } from "./notices.js";
import { boot, gameModule, render } from "./shell.js";
import { lang, sentence, t } from "./words.js";

const { model, stream } = boot("controls");
const root = document.querySelector("main");
const refusal = el("div", { class: "refusal", role: "status", id: "refusal" });
const say = (text) => { refusal.textContent = text || ""; };
const propose = proposer(model, stream, say);
const notices = recentNotices(model);
document.body.append(noticeBanner(model, { inPage: true })); // after the page, never over a button being tapped
let cue = null; // the cue button, once the session says this display hears cues

let drawn = null; // what the controls were drawn for: a half-made choice survives anything else

getJSON("/api/session").then((answer) => {
  if (!answer.joined) return location.replace(`/join?next=${encodeURIComponent("/controls")}`);
  cue = cueButton(answer, stream);
  if (cue) { drawn = null; model.changed("cue"); }
});

model.onChange(async (why) => {
  if (why === "notice") return;
  if (!model.game) return render(root, el("section", {}, el("h2", {}, t("page.no_game")), t("page.start_from_night")), notices);
  const view = model.game;
  const asked = model.questions.map((q) => [q.id, q.wands.map((w) => [w.player, w.choices.map((c) => c.place)])]);
  const key = JSON.stringify([view.game, model.history[0] && model.history[0].at, view.version, asked]);
  if (key !== drawn) {
    drawn = key;
    const game = await gameModule(view.game);
    // While the camera asks, its question is the only thing here: nothing to mistap, nothing to scroll past.
    if (model.questions.length) render(root, model.questions.map((q) => question(view, q)), refusal);
    else render(root,
      endingPanel(model, stream), // the game's end comes first
      castingDue(view) ? cue : null,
      game.controls(view, { model, propose }),
      el("section", { "data-part": "undo" }, el("h2", {}, t("controls.fix_a_mistake")), undoBar(view, propose), refusal),
      el("section", { "data-part": "history" }, el("h2", {}, t("controls.history")), historyList(view, model.history, propose)),
      notices);
  }
  for (const q of model.questions) showMarks(q); // marks change without redrawing: a tap never lands on a new button
});

/** The camera could not read some wands: per wand its picture, and one tap on where it pointed. */
function question(view, q) {
  return el("section", { class: "question", "data-question": q.id },
    el("h2", {}, q.wands.length > 1 ? t("question.these_wands") : t("question.this_wand")),
    el("p", { class: "muted question-hint" }, t("question.hint")),
    q.wands.map((w) => askedWand(view, q, w)));
}

function askedWand(view, q, w) {
  return el("div", { class: "asked-wand", "data-player": w.player, "data-wand": w.wand },
    el("div", { class: "asked-who" }, who(view, w.player), " · ", t("parts.wand"), " ", wandBadge(w.wand),
      el("span", { class: "asked-state", "data-state": w.player })),
    w.why ? el("div", { class: "why", "data-why": w.player }, lang === "en" ? w.why : sentence(w.why_words, w.why)) : null,
    w.picture ? el("img", { class: "wand-picture", src: w.picture, width: 480, height: 480,
                            alt: t("question.picture_alt", { player: w.player }) }) : null,
    el("div", { class: "answers" }, w.choices.map((c) => el("button", {
      class: "answer", "data-player": w.player, "data-target": c.place ?? "none", "aria-pressed": "false",
      style: c.outline ? `--outline: ${c.outline}` : "",
      onclick: () => tap(q, w, c.place),
    }, c.outline ? el("span", { class: "outline", "aria-hidden": "true" }) : null,
       c.icon ? el("span", { class: "icon", "aria-hidden": "true" }, c.icon) : null, choiceName(view, c)))));
}

/** A place the camera offers, named as the board names it (in the tablet's language). */
function choiceName(view, c) {
  if (c.place === null || c.place === undefined || c.place === "none") return t("parts.nothing");
  return tokenInfo(view, c.place) ? tokenLabel(view, c.place) : (lang === "en" ? c.name : t("parts.a_token"));
}

/** Marked here at once; the push stream then marks it on every tablet (and corrects this one). */
async function tap(q, w, place) {
  const shown = model.questions.find((x) => x.id === q.id);
  if (shown) { shown.marks = { ...shown.marks, [w.player]: place }; showMarks(shown); }
  const answer = await post(`/api/game/questions/${q.id}`, { targets: { [w.player]: place }, action_id: actionId() });
  handle(answer, stream, say);
}

function showMarks(q) {
  const section = root.querySelector(`[data-question="${q.id}"]`);
  if (!section) return;
  for (const w of q.wands) {
    const marked = Object.prototype.hasOwnProperty.call(q.marks || {}, w.player);
    const mark = marked ? (q.marks[w.player] ?? "none") : undefined;
    const row = section.querySelector(`.asked-wand[data-player="${CSS.escape(w.player)}"]`);
    if (!row) continue;
    row.dataset.marked = marked ? "yes" : "no";
    for (const b of row.querySelectorAll("button.answer")) {
      const chosen = marked && b.dataset.target === mark;
      b.classList.toggle("chosen", chosen);
      b.setAttribute("aria-pressed", chosen ? "true" : "false");
    }
    const state = row.querySelector(".asked-state");
    const choice = marked ? (w.choices.find((c) => (c.place ?? "none") === mark) || { place: mark, name: mark }) : null;
    state.textContent = marked ? ` ✓ ${choiceName(model.game, choice)}` : ` — ${t("question.not_answered")}`;
  }
}
