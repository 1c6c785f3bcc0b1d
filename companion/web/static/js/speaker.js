// The Pi's speaker from a tablet: mute, volume, voice, and a sentence to hear the change. Shown only
// where the display has a speaker (the status board lists one); changing it needs the join code.

import { el } from "./parts.js";
import { getJSON, post, refusalText } from "./api.js";
import { has, t } from "./words.js";

const message = el("div", { class: "refusal", id: "speaker-message" });

async function change(body) {
  const answer = await post("/api/speaker", body);
  if (answer.status === 401) message.textContent = t("speaker.join_first");
  else message.textContent = answer.ok ? "" : refusalText(answer);
  if (answer.ok) draw(answer);
}

function draw(speaker) {
  const part = document.querySelector('[data-part="speaker"]') || document.body.appendChild(el("section", { "data-part": "speaker" }));
  const volume = el("input", { type: "range", min: 0, max: 100, step: 5, value: speaker.volume, id: "speaker-volume",
    "aria-label": t("speaker.volume"), onchange: (e) => change({ volume: Number(e.target.value), test: true }) });
  const voice = el("select", { id: "speaker-voice", "aria-label": t("speaker.voice"), onchange: (e) => change({ voice: e.target.value, test: true }) },
    speaker.voices.map((v) => el("option", { value: v, selected: v === speaker.voice }, has(`speaker.voice.${v}`) ? t(`speaker.voice.${v}`) : v)));
  part.className = "device";
  part.dataset.level = speaker.mute ? "off" : "ok";
  part.replaceChildren(el("h2", {}, t("device.speaker")),
    el("div", { class: "picker-row" },
      el("button", { id: "speaker-mute", class: "primary", onclick: () => change({ mute: !speaker.mute }) }, speaker.mute ? t("speaker.unmute") : t("speaker.mute")),
      el("label", {}, t("speaker.volume"), " ", volume), el("label", {}, t("speaker.voice"), " ", voice),
      el("button", { id: "speaker-test", onclick: () => change({ test: true }) }, t("speaker.say_something"))),
    message);
}

// Only a display with a speaker reports one on its status board: elsewhere /api/speaker is not asked
// for at all (a page that loads what is not there looks broken in the browser's own console).
getJSON("/api/status").then(async (status) => {
  if (!status.ok || !(status.devices || []).some((d) => d.device === "speaker")) return;
  const speaker = await getJSON("/api/speaker");
  if (speaker.ok) draw(speaker);
});
