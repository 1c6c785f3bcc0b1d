// The devices: camera, wand hub, cue detector, calibration, the store; and what to do when one is
// wrong. On the Pi's own screen also the join code: wrong codes typed anywhere on the network, and
// the buttons that give the table a new code.

import { deviceCards, el } from "./parts.js";
import { getJSON, post } from "./api.js";
import { boot, render } from "./shell.js";

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
  const paused = joins.paused_s > 0 ? `Joining is paused at ${joins.paused_addresses} addresses (up to ${Math.ceil(joins.paused_s)} s). ` : "";
  const warn = joins.failed > 0 ? "warning" : "ok";
  const recent = joins.recent.slice(-5).reverse().map((r) =>
    el("li", {}, r.address, " at ", new Date(r.at * 1000).toLocaleTimeString()));
  const rotate = (endSessions) => async () => {
    const answer = await post("/api/session/code", { end_sessions: endSessions });
    codeMessage.textContent = answer.ok ? `New join code ${answer.code}; tablets joined: ${answer.sessions}` : answer.error;
    loadJoins();
  };
  return el("section", { class: "device", "data-level": warn, "data-part": "joins" },
    el("h2", {}, "join code — ", code || "…"),
    el("div", { "data-failed": joins.failed }, `${joins.failed} wrong codes from ${joins.addresses} addresses; `,
      `${joins.refused} attempts refused unchecked. ${paused}Tablets joined: ${joins.sessions}.`),
    hostPin ? el("div", { id: "host-pin" }, `Host PIN (for a tablet that calibrates the table): ${hostPin}`) : null,
    recent.length ? el("ul", { class: "muted" }, recent) : null,
    joins.failed > 0 ? el("div", { class: "fix" }, "What to do: if nobody at the table mistyped the code, give the table a new one.") : null,
    el("div", { class: "picker-row" },
      el("button", { id: "new-code", onclick: rotate(false) }, "New join code"),
      el("button", { id: "new-code-sign-out", onclick: rotate(true) }, "New code, sign every tablet out")),
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
  const when = (at) => new Date(at * 1000).toLocaleString([], { weekday: "short", hour: "2-digit", minute: "2-digit" });
  return el("section", { class: "device", "data-level": "ok", "data-part": "calibration-changes" },
    el("h2", {}, "calibration — last changes"),
    el("ul", {}, changes.slice(-3).reverse().map((c) =>
      el("li", { "data-change": c.version ?? "" }, `${c.what}, ${when(c.at)}, from ${c.by}`))),
    el("div", { class: "fix" }, "A change that made things worse can be rolled back on the calibration page."));
}

async function loadChanges() {
  const state = await getJSON("/api/calibration");
  changesPart = state.ok && (state.changes || []).length ? changesSection(state.changes) : null;
  draw();
}

model.onChange(draw);
loadChanges();
loadJoins().then((onThePi) => { if (onThePi) setInterval(loadJoins, JOINS_EVERY_MS); });
