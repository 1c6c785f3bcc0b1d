// The controls: answer the camera's questions, enter what the rules ask for, undo, redo, and go
// back to any point of the history, and give the cue. Every tap carries its own action id.

import { el, historyList, undoBar, tokenLabel, who } from "./parts.js";
import { actionId, getJSON, handle, post, proposer } from "./api.js";
import { cueButton } from "./cue.js";
import { endingPanel } from "./ending.js";
import { noticeBanner, recentNotices } from "./notices.js";
import { boot, gameModule, render } from "./shell.js";

const { model, stream } = boot("Controls");
const root = document.querySelector("main");
const refusal = el("div", { class: "refusal", role: "status", id: "refusal" });
const say = (text) => { refusal.textContent = text || ""; };
const propose = proposer(model, stream, say);
const notices = recentNotices(model);
document.body.append(noticeBanner(model));
let cue = null; // the cue button, once the session says this display hears cues

let drawn = null; // what the controls were drawn for: a half-made choice survives anything else

getJSON("/api/session").then((answer) => {
  if (!answer.joined) return location.replace(`/join?next=${encodeURIComponent("/controls")}`);
  cue = cueButton(answer, stream);
  if (cue) { drawn = null; model.changed("cue"); }
});

model.onChange(async (why) => {
  if (why === "notice") return;
  if (!model.game) return render(root, el("section", {}, el("h2", {}, "No game yet"), "Start one from the Night page."), notices);
  const view = model.game;
  const key = JSON.stringify([view.game, model.history[0] && model.history[0].at, view.version, model.questions.map((q) => q.id)]);
  if (key === drawn) return;
  drawn = key;
  const game = await gameModule(view.game);
  render(root,
    endingPanel(model, stream), // the game's end comes first
    cue,
    model.questions.map((q) => question(view, q)),
    game.controls(view, { model, propose }),
    el("section", { "data-part": "undo" }, el("h2", {}, "Fix a mistake"), undoBar(view, propose), refusal),
    el("section", { "data-part": "history" }, el("h2", {}, "History"), historyList(view, model.history, propose)),
    notices);
});

/** The camera was unsure about some wands: one tap per wand says where it pointed. */
function question(view, q) {
  const answers = {};
  const unsure = Object.entries(q.unsure);
  return el("section", { class: "question", "data-question": q.id },
    el("h2", {}, "The camera is unsure — where did this wand point?"),
    unsure.map(([player, candidates]) => el("div", { class: "picker-row" },
      who(view, player), ` (wand ${(view.wands || {})[player] ?? "?"})`,
      (q.why || {})[player] ? el("span", { class: "why", "data-why": player }, q.why[player]) : null,
      [...candidates, ...(candidates.includes(null) ? [] : [null])].map((target) => el("button", {
        "data-player": player, "data-target": target ?? "none",
        onclick: async () => {
          answers[player] = target;
          if (Object.keys(answers).length < unsure.length) return;
          const answer = await post(`/api/game/questions/${q.id}`, { targets: answers, action_id: actionId() });
          handle(answer, stream, say);
        },
      }, target === null ? "no target" : tokenLabel(view, target))))));
}
