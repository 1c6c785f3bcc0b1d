// Setting up the table from a tablet, one step at a time: the camera, the table, the places, the wands,
// their tip switches, the chant and a check. Each step says what to do and what it found; back and skip
// move between them; a long step shows its progress beside its button. Every answer the display gives is
// shown in its own words; a refusal changes nothing.

import { getJSON, post, refusalText } from "./api.js";
import { navigation } from "./shell.js";
import { applyWords, has, lang, languageSwitch, sentence, t } from "./words.js";

// Every word the page shows is the catalogue's calibration.* (docs/words.md); what the display found is
// said in the tablet's language from its answer's ``words``, the server's English on an English tablet.
function said(words, english) {
  if (lang === "en" || !words) return english || "";
  if (Array.isArray(words)) { // a sentence said in parts (the tip check's summary): each in this language
    return words.every((w) => w && has(w.key)) ? words.map((w) => sentence(w)).join("; ") : english || "";
  }
  return sentence(words, english) || "";
}
const title = (step) => t(`calibration.step.${step}`);
const checked = (v) => (v && v.tries ? t("calibration.check.checked", v) : t("calibration.check.not_yet"));

const STEPS = ["camera", "table", "layout", "wands", "tips", "cue", "check"];
const LIVE = new Set(["camera", "table", "layout", "wands", "check"]); // steps that work on the picture
const SKIPPED = "incanto-setup-skipped";

const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";

let state = null;
let current = null; // the step shown, or "done"
let taps = {}; // place name -> [x, y] pixel of the camera picture
let skipSeats = false;
const skipped = new Set(JSON.parse(sessionStorage.getItem(SKIPPED) || "[]"));

function say(message) { $("message").textContent = message || ""; $("error").textContent = ""; }
function refuse(answer) {
  if (answer.status === 401) { location.href = "/join?next=/calibration"; return; }
  if (answer.kind === "NotTheHost") $("host").hidden = false;
  $("message").textContent = "";
  $("error").textContent = (answer.error || answer.words) ? refusalText(answer) : t("calibration.answered", { status: answer.status });
}

async function becomeHost() {
  const answer = await post("/api/session/host", { pin: $("host-pin").value.trim() }, { retries: 0 });
  if (!answer.ok) { refuse(answer); return; }
  $("host").hidden = true;
  say(t("calibration.host_now"));
}

// -- a step that takes a while: its progress beside its button ---------------------------------------
const working = Object.assign(document.createElement("span"), { id: "working", className: "working", hidden: true });

function busy(button, seconds) {
  const started = Date.now();
  button.after(working);
  button.disabled = true;
  working.hidden = false;
  working.replaceChildren(Object.assign(document.createElement("span"), { className: "spinner" }),
    Object.assign(document.createElement("span"), { className: "working-words" }));
  const bar = seconds ? Object.assign(document.createElement("progress"), { max: seconds * 10, value: 0 }) : null;
  if (bar) working.append(bar);
  const tick = () => {
    const elapsed = (Date.now() - started) / 1000;
    working.querySelector(".working-words").textContent = t("calibration.working", { seconds: Math.floor(elapsed) });
    if (bar) bar.value = Math.min(bar.max, elapsed * 10);
  };
  tick();
  const timer = setInterval(tick, 250);
  return () => { clearInterval(timer); working.hidden = true; button.disabled = false; };
}

async function act(path, body, then, { button = null, seconds = 0 } = {}) {
  $("error").textContent = "";
  const done = button ? busy(button, seconds) : () => {};
  let answer;
  try { answer = await post(path, body || {}, { retries: 0 }); } finally { done(); }
  if (!answer.ok) { refuse(answer); return null; }
  say(said(answer.words, answer.message));
  if (then) then(answer);
  await refresh();
  return answer;
}

// -- the picture ------------------------------------------------------------------------------
let watching = false;

function showFrames() {
  const img = $("live");
  const next = () => {
    if (!LIVE.has(current)) { watching = false; return; } // no picture asked for on the chant or the summary
    img.src = `/api/calibration/frame.jpg?t=${Date.now()}`;
  };
  if (watching) return;
  watching = true;
  img.onload = () => setTimeout(next, 300);
  img.onerror = () => setTimeout(next, 1000);
  next();
}

function imagePixel(event) {
  // The camera's size from the display, not the <img>: while the next picture loads it may have none.
  const box = $("live").getBoundingClientRect();
  const { width, height } = state.image;
  return [Math.round((event.clientX - box.left) * width / box.width * 10) / 10,
          Math.round((event.clientY - box.top) * height / box.height * 10) / 10];
}

function draw() {
  const svg = $("overlay");
  const { width, height } = state ? state.image : { width: 640, height: 480 };
  svg.setAttribute("viewBox", `0 0 ${width || 640} ${height || 480}`);
  svg.replaceChildren();
  const target = state && state.validation && current === "check" ? state.validation.target : null;
  for (const [name, [x, y]] of Object.entries(state ? state.places_px : {})) {
    svg.append(circle(x, y, name === target ? 14 : 8, name === target ? "target" : "place", name));
  }
  if (current === "layout") for (const [name, [x, y]] of Object.entries(taps)) svg.append(circle(x, y, 6, "tap", name));
}

function circle(x, y, r, kind, name) {
  const g = document.createElementNS(SVG, "g");
  const c = document.createElementNS(SVG, "circle");
  Object.entries({ cx: x, cy: y, r, class: kind, "data-name": name }).forEach(([k, v]) => c.setAttribute(k, v));
  const t = document.createElementNS(SVG, "text");
  t.setAttribute("x", x + r + 2); t.setAttribute("y", y + 4); t.textContent = name;
  g.append(c, t);
  return g;
}

// -- the places: tap each one ------------------------------------------------------------------
function wanted() {
  if (!state) return [];
  return state.places.filter((p) => !(skipSeats && p.name.startsWith("seat")));
}

function nextPlace() { return wanted().find((p) => !(p.name in taps)); }

function prompt() {
  const next = current === "layout" ? nextPlace() : null;
  $("tap-prompt").textContent = current !== "layout" ? "" : next ? t("calibration.layout.tap_next", { name: next.name, words: placeWords(next) }) : t("calibration.layout.tapped_all");
  $("tap-prompt").dataset.next = next ? next.name : "";
  $("save-layout").disabled = Boolean(nextPlace());
  draw();
}

function tapped(event) {
  if (current !== "layout") return;
  const next = nextPlace();
  if (!next || !state || !state.image.width) return;
  taps[next.name] = imagePixel(event);
  prompt();
}

// -- the chant: recorded by the Pi's own microphone, its level shown here ----------------------------
let listening = false;

async function record() {
  const button = $("record");
  if (button.dataset.recording === "true") {
    const done = busy(button, 0);
    let answer;
    try { answer = await post("/api/calibration/cue/microphone/stop", { player: $("player").value.trim() }, { retries: 0 }); }
    finally { done(); }
    showRecording({ recording: false, kept: false, mine: false, level: 0, seconds: 0 });
    if (!answer.ok) { refuse(answer); return; }
    say(said(answer.words, answer.message));
    await refresh();
    return;
  }
  const answer = await post("/api/calibration/cue/microphone", {}, { retries: 0 });
  if (!answer.ok) { refuse(answer); return; }
  say("");
  showRecording(answer);
}

function showRecording(now) {
  const button = $("record");
  const mine = (now.recording || now.kept) && now.mine; // stopped on its own at its longest: Stop still enrols it
  button.dataset.recording = String(Boolean(mine));
  button.textContent = mine ? t("calibration.cue.stop") : t("calibration.cue.record");
  button.disabled = Boolean(now.recording && !now.mine);
  $("level").dataset.level = Number(now.level || 0).toFixed(3);
  $("level-bar").style.width = `${Math.round((now.level || 0) * 100)}%`;
  $("record-seconds").textContent = now.recording ? t("calibration.cue.recording", { seconds: now.seconds.toFixed(1) }) : "";
  $("record-seconds").dataset.seconds = String(now.seconds || 0);
  $("record-note").textContent = now.recording && !now.mine ? t("calibration.cue.other_recording", { seconds: now.seconds.toFixed(0) }) : said(now.problem_words, now.problem) || "";
}

async function listen() {
  // Asked a few times a second while the chant step is shown: the meter follows the Pi's microphone.
  if (listening) return;
  listening = true;
  while (current === "cue") {
    const now = await getJSON("/api/calibration/cue/microphone").catch(() => null);
    if (current !== "cue") break;
    if (now && now.ok && !$("record").matches("[data-recording='true']:disabled")) showRecording(now);
    // Quickly while the Pi records (the meter follows the voice), slowly otherwise (to see another tablet start).
    await new Promise((r) => setTimeout(r, now && now.recording ? 150 : 1000));
  }
  listening = false;
}

// -- the steps ------------------------------------------------------------------------------------
function isDone(step) {
  if (!state) return false;
  if (step === "check") return Boolean(state.validation && state.validation.tries);
  if (step === "tips") return tipsAnswer !== null && tipsAnswer.status === "ok";
  return Boolean(state.steps[step] && state.steps[step].done);
}

function go(step) {
  current = step;
  if (STEPS.includes(step)) { skipped.delete(step); }
  history.replaceState(null, "", `#${step}`);
  for (const section of document.querySelectorAll("section.step")) {
    section.hidden = section.dataset.step !== step;
    if (!section.hidden) section.querySelector("h2").after($("found")); // what the Pi found, under the step's title
  }
  $("camera-view").hidden = !LIVE.has(step);
  $("page").dataset.step = step;
  say("");
  if (step !== "tips") closeTips();
  if (LIVE.has(step)) showFrames();
  if (step === "cue") listen();
  showProgress();
  prompt();
}

function forward(skip) {
  if (skip && STEPS.includes(current)) skipped.add(current);
  sessionStorage.setItem(SKIPPED, JSON.stringify([...skipped]));
  const at = STEPS.indexOf(current);
  go(at + 1 < STEPS.length ? STEPS[at + 1] : "done");
}

function back() {
  const at = current === "done" ? STEPS.length : STEPS.indexOf(current);
  if (at > 0) go(STEPS[at - 1]);
}

function showProgress() {
  const at = STEPS.indexOf(current);
  $("progress-words").textContent = current === "done" ? t("calibration.finished")
    : t("calibration.step_of", { n: at + 1, total: STEPS.length, title: title(current) });
  $("steps").replaceChildren(...STEPS.map((step, i) => {
    const li = document.createElement("li");
    const jump = Object.assign(document.createElement("button"), { type: "button" });
    jump.append(Object.assign(document.createElement("span"), { className: "n", textContent: `${i + 1} ` }),
      Object.assign(document.createElement("span"), { className: "t", textContent: title(step) }));
    jump.addEventListener("click", () => go(step));
    li.append(jump);
    Object.assign(li.dataset, { step, done: String(isDone(step)), current: String(step === current),
                                skipped: String(skipped.has(step) && !isDone(step)) });
    if (step === current) li.setAttribute("aria-current", "step");
    return li;
  }));
  $("back").disabled = at === 0;
  $("back").hidden = false;
  const done = current === "done" || isDone(current);
  $("skip").hidden = current === "done" || done;
  $("next").hidden = current === "done" || !done;
  $("next").textContent = at === STEPS.length - 1 ? t("calibration.finish") : t("calibration.next");
  $("found").textContent = found(current);
  $("found").dataset.done = String(isDone(current));
  if (current === "done") showSummary();
}

function found(step) {
  if (step === "check") return state && state.validation && state.validation.tries ? checked(state.validation) : "";
  if (step === "tips") return tipsAnswer ? said(tipsAnswer.summary_words, tipsAnswer.summary) : "";
  return state && state.steps[step] ? said(state.steps[step].say, state.steps[step].words) : "";
}

function showSummary() {
  $("done-list").replaceChildren(...STEPS.map((step) => {
    const words = step === "check" ? checked(state && state.validation) : found(step);
    const line = isDone(step) ? "calibration.done.line_done" : "calibration.done.line_skipped";
    return Object.assign(document.createElement("li"), { textContent: t(line, { title: title(step), words }) });
  }));
}

// -- the page --------------------------------------------------------------------------------------
async function refresh() {
  const answer = await getJSON("/api/calibration").catch(() => ({ ok: false, error: t("calibration.unreachable") }));
  if (!answer.ok) { // no camera (or no display): nothing to set up, and the page shows only why
    $("no-camera").hidden = false;
    $("no-camera").textContent = answer.status ? refusalText(answer) : answer.error || t("calibration.unavailable");
    $("page").dataset.unavailable = "true";
    return false;
  }
  $("no-camera").hidden = true;
  delete $("page").dataset.unavailable;
  state = answer;
  if (state.host === false && !$("host-pin").value) $("host").hidden = false;
  $("refused").hidden = !state.refused;
  $("refused").textContent = said(state.refused_words, state.refused);
  // What the Pi knows, without where it keeps it or what to type: the page is the way to do each step.
  // Each line in the tablet's language from its words; the refusal is said above it already.
  $("profile-lines").textContent = state.lines.map((l, i) => [l, (state.lines_words || [])[i]])
    .filter(([l]) => !/^(profile|next|refused):/.test(l)).map(([l, w]) => said(w, l)).join("\n");
  showValidation(state.validation);
  showProgress();
  prompt();
  return true;
}

function showWands(answer) {
  $("wand-results").replaceChildren(...Object.entries(answer.wands).map(([k, m]) =>
    Object.assign(document.createElement("li"), { textContent: t("calibration.wands.learned", { wand: k, mm: (2 * m.bead_radius_mm).toFixed(0) }) })));
  $("wand-warnings").replaceChildren(...answer.warnings.map((w, i) => Object.assign(document.createElement("li"), { textContent: said((answer.warnings_words || [])[i], w) })));
}

function showValidation(v) {
  $("read-validation").disabled = !v;
  if (!v) return;
  $("target").textContent = t("calibration.check.touch", { name: v.target, words: said(v.target_say, v.target_words) });
  $("target").dataset.target = v.target;
  $("tally").textContent = v.tries ? t("calibration.check.tally", { ...v, percent: Math.round(v.rate * 100) }) : "";
  $("tally").dataset.hits = v.hits; $("tally").dataset.tries = v.tries;
  $("validation-problems").replaceChildren(...v.problems.map((w, i) => Object.assign(document.createElement("li"), { textContent: said((v.problems_words || [])[i], w) })));
}

// -- the tip switches: asked a few times a second while the step is open ----------------------------
let tipsOpen = false;
let tipsAnswer = null;

async function pollTips() {
  if (!tipsOpen) return;
  const answer = await getJSON("/api/calibration/tips").catch(() => ({ ok: false, error: t("calibration.unreachable") }));
  if (!tipsOpen) return; // closed while the answer was on its way
  if (answer.ok) showTips(answer);
  else refuse(answer);
  setTimeout(pollTips, 300);
}

function showTips(tips) {
  tipsAnswer = tips;
  $("tip-wands").replaceChildren(...tips.wands.map((w) => {
    const li = document.createElement("li");
    const shown = Object.assign(document.createElement("span"), { className: "state", textContent: t(`calibration.tips.state.${w.state.replace(/ /g, "_")}`) });
    li.append(shown, said(w.say, w.words));
    Object.assign(li.dataset, { wand: w.wand, state: w.state, ok: String(w.ok) });
    return li;
  }));
  $("tip-summary").textContent = said(tips.summary_words, tips.summary);
  $("tip-summary").dataset.status = tips.status;
  $("lift-tips").disabled = tips.phase !== "press" || tips.status === "skipped";
  if (current === "tips") showProgress();
}

function openTips(answer) {
  showTips(answer);
  $("end-tips").disabled = false;
  if (!tipsOpen) { tipsOpen = true; setTimeout(pollTips, 300); }
}

function closeTips() {
  tipsOpen = false;
  $("end-tips").disabled = true; $("lift-tips").disabled = true;
}

function fill() {
  document.title = t("shell.title", { page: t("nav.calibration") });
  $("title").textContent = document.title;
  $("header").append(navigation(), languageSwitch());
  applyWords();
  $("record").textContent = t("calibration.cue.record");
  $("live").alt = t("calibration.picture");
}

// A place as the board names it, in the tablet's language (the server's English on an English tablet).
function placeWords(place) { return said(place.say, place.words); }

const board = () => ({ board: $("board").value.trim() });
$("photo-board").addEventListener("click", (e) => act("/api/calibration/camera/photo", board(), null, { button: e.currentTarget }));
$("measure-camera").addEventListener("click", (e) => act("/api/calibration/camera", board(), null, { button: e.currentTarget }));
$("find-table").addEventListener("click", (e) => act("/api/calibration/table", {}, null, { button: e.currentTarget }));
$("undo-tap").addEventListener("click", () => { const names = Object.keys(taps); delete taps[names[names.length - 1]]; prompt(); });
$("skip-seats").addEventListener("click", () => { skipSeats = true; prompt(); });
$("from-board").addEventListener("click", (e) => act("/api/calibration/layout/board", { taps },
  (answer) => { Object.assign(taps, answer.pixels); prompt(); }, { button: e.currentTarget }));
$("save-layout").addEventListener("click", (e) => act("/api/calibration/layout", { taps }, null, { button: e.currentTarget }));
$("empty-table").addEventListener("click", (e) => act("/api/calibration/wands/empty", {}, null, { button: e.currentTarget }));
$("learn-wands").addEventListener("click", (e) => act("/api/calibration/wands", { seconds: 3 }, showWands,
  { button: e.currentTarget, seconds: 3 }));
$("record").addEventListener("click", record);
$("start-validation").addEventListener("click", (e) => act("/api/calibration/validation", {}, null, { button: e.currentTarget }));
$("start-tips").addEventListener("click", () => act("/api/calibration/tips", {}, openTips));
$("lift-tips").addEventListener("click", () => act("/api/calibration/tips/lift", {}, openTips));
$("end-tips").addEventListener("click", closeTips);
$("read-validation").addEventListener("click", (e) => act("/api/calibration/validation/read", { seconds: 3 }, null,
  { button: e.currentTarget, seconds: 3 }));
$("back").addEventListener("click", back);
$("skip").addEventListener("click", () => forward(true));
$("next").addEventListener("click", () => forward(false));
$("live").addEventListener("click", tapped);

async function start() {
  fill();
  const session = await getJSON("/api/session");
  if (session.ok && !session.joined) { location.href = "/join?next=/calibration"; return; }
  $("become-host").onclick = becomeHost;
  const ready = await refresh();
  const asked = location.hash.slice(1);
  // Opened again mid-way: where the tablet was; else the first step not done yet.
  go(STEPS.includes(asked) || asked === "done" ? asked
    : ready ? (STEPS.find((s) => !isDone(s) && !skipped.has(s)) || "done") : STEPS[0]);
}

start();
