// The controls: answer the camera's questions, enter what the rules ask for, undo, redo, and go
// back to any point of the history. Every tap carries its own action id.

import { el, historyList, undoBar, tokenLabel, who } from "./parts.js";
import { actionId, getJSON, handle, post, proposer } from "./api.js";
import { boot, gameModule, render } from "./shell.js";

const { model, stream } = boot("Controls");
const root = document.querySelector("main");
const refusal = el("div", { class: "refusal", role: "status", id: "refusal" });
const say = (text) => { refusal.textContent = text || ""; };
const propose = proposer(model, stream, say);

getJSON("/api/session").then((answer) => {
  if (!answer.joined) location.replace(`/join?next=${encodeURIComponent("/controls")}`);
});

let drawn = null; // what the controls were drawn for: a half-made choice survives anything else

model.onChange(async () => {
  if (!model.game) return render(root, el("section", {}, el("h2", {}, "No game yet"), "Start one from the Night page."));
  const view = model.game;
  const key = JSON.stringify([view.game, model.history[0] && model.history[0].at, view.version, model.questions.map((q) => q.id)]);
  if (key === drawn) return;
  drawn = key;
  const game = await gameModule(view.game);
  render(root,
    model.questions.map((q) => question(view, q)),
    game.controls(view, { model, propose }),
    el("section", { "data-part": "undo" }, el("h2", {}, "Fix a mistake"), undoBar(view, propose), refusal),
    el("section", { "data-part": "history" }, el("h2", {}, "History"), historyList(view, model.history, propose)));
});

/** The camera was unsure about some wands: one tap per wand says where it pointed. */
function question(view, q) {
  const answers = {};
  const unsure = Object.entries(q.unsure);
  return el("section", { class: "question", "data-question": q.id },
    el("h2", {}, "The camera is unsure — where did this wand point?"),
    unsure.map(([player, candidates]) => el("div", { class: "picker-row" },
      who(view, player), ` (wand ${(view.wands || {})[player] ?? "?"})`,
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
