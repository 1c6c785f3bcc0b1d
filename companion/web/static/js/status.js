// The devices: camera, wand hub, cue detector, calibration, the store; and what to do when one is
// wrong. On the Pi's own screen also the join code: wrong codes typed anywhere on the network, and
// the buttons that give the table a new code.

import { deviceCards, el } from "./parts.js";
import { getJSON, post, refusalText } from "./api.js";
import { boot, render } from "./shell.js";
import { lang, sentence, t } from "./words.js";

const { model } = boot("status");
const root = document.querySelector("main");
const JOINS_EVERY_MS = 3000; // wrong codes are not pushed to every page: only this screen asks for them
let joinsPart = null;
let changesPart = null; // the table's last calibration changes: what, when and from which tablet or screen
const codeMessage = el("div", { class: "refusal", id: "code-message" }); // kept across redraws

function draw() {
  render(root, deviceCards(model.status), changesPart, joinsPart);
}

function joinsSection(joins, code, hostPin) {
  const paused = joins.paused_s > 0 ? t("status.joining_paused", { addresses: joins.paused_addresses, seconds: Math.ceil(joins.paused_s) }) + " " : "";
  const warn = joins.failed > 0 ? "warning" : "ok";
  const recent = joins.recent.slice(-5).reverse().map((r) =>
    el("li", {}, t("status.attempt_at", { address: r.address, time: new Date(r.at * 1000).toLocaleTimeString(lang) })));
  const rotate = (endSessions) => async () => {
    const answer = await post("/api/session/code", { end_sessions: endSessions });
    codeMessage.textContent = answer.ok ? t("status.new_code_given", { code: answer.code, sessions: answer.sessions }) : refusalText(answer);
    loadJoins();
  };
  return el("section", { class: "device", "data-level": warn, "data-part": "joins" },
    el("h2", {}, t("status.join_code"), " — ", code || "…"),
    el("div", { "data-failed": joins.failed }, t("status.wrong_codes", { failed: joins.failed, addresses: joins.addresses }), " ",
      t("status.refused_unchecked", { refused: joins.refused }), " ", paused, t("status.tablets_joined", { sessions: joins.sessions })),
    hostPin ? el("div", { id: "host-pin" }, t("status.host_pin", { pin: hostPin })) : null,
    recent.length ? el("ul", { class: "muted" }, recent) : null,
    joins.failed > 0 ? el("div", { class: "fix" }, t("device.what_to_do"), " ", t("status.wrong_codes_fix")) : null,
    el("div", { class: "picker-row" },
      el("button", { id: "new-code", onclick: rotate(false) }, t("status.new_code")),
      el("button", { id: "new-code-sign-out", onclick: rotate(true) }, t("status.new_code_sign_out"))),
    codeMessage);
}

/** True on the Pi's own screen (the server sends the join attempts to it alone). */
async function loadJoins() {
  const status = await getJSON("/api/status");
  if (!status.ok || !status.joins) return false;
  const code = await getJSON("/api/session/code");
  joinsPart = joinsSection(status.joins, code.ok ? code.code : null, code.ok ? code.host_pin : null);
  draw();
  return true;
}

/** Calibration changes the table for everyone: the last few are said here, newest first. */
function changesSection(changes) {
  const when = (at) => new Date(at * 1000).toLocaleString(lang, { weekday: "short", hour: "2-digit", minute: "2-digit" });
  return el("section", { class: "device", "data-level": "ok", "data-part": "calibration-changes" },
    el("h2", {}, t("status.calibration_changes")),
    el("ul", {}, changes.slice(-3).reverse().map((c) =>
      el("li", { "data-change": c.version ?? "" }, t("status.change", { what: sentence(c.words, c.what), when: when(c.at), by: c.by })))),
    el("div", { class: "fix" }, t("status.roll_back")));
}

async function loadChanges() {
  const state = await getJSON("/api/calibration");
  changesPart = state.ok && (state.changes || []).length ? changesSection(state.changes) : null;
  draw();
}

model.onChange(draw);
loadChanges();
loadJoins().then((onThePi) => { if (onThePi) setInterval(loadJoins, JOINS_EVERY_MS); });
