// The guided calibration: the live camera picture, and each step of the tool on it.
// Every answer the display gives is shown in its own words; a refusal changes nothing.

import { getJSON, post } from "./api.js";

const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
const PART_BYTES = 12000; // the display takes small request bodies: a recording goes up in parts
const RATE = 16000; // what the cue listens at

let state = null;
let taps = {}; // place name -> [x, y] pixel of the camera picture
let skipSeats = false;

function say(message) { $("message").textContent = message || ""; $("error").textContent = ""; }
function refuse(answer) {
  if (answer.status === 401) { location.href = "/join?next=/calibration"; return; }
  if (answer.kind === "NotTheHost") $("host").hidden = false;
  $("error").textContent = answer.error || `the display answered ${answer.status}`;
}

async function becomeHost() {
  const answer = await post("/api/session/host", { pin: $("host-pin").value.trim() }, { retries: 0 });
  if (!answer.ok) { refuse(answer); return; }
  $("host").hidden = true;
  say("this tablet is a host now: it may calibrate the table");
}

async function act(path, body, then) {
  say("…");
  const answer = await post(path, body || {}, { retries: 0 });
  if (!answer.ok) { refuse(answer); $("message").textContent = ""; return null; }
  say(answer.message || "");
  if (then) then(answer);
  await refresh();
  return answer;
}

// -- the picture ------------------------------------------------------------------------------
function showFrames() {
  const img = $("live");
  const next = () => { img.src = `/api/calibration/frame.jpg?t=${Date.now()}`; };
  img.addEventListener("load", () => setTimeout(next, 300));
  img.addEventListener("error", () => setTimeout(next, 1000));
  img.addEventListener("click", tapped);
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
  const target = state && state.validation ? state.validation.target : null;
  for (const [name, [x, y]] of Object.entries(state ? state.places_px : {})) {
    svg.append(circle(x, y, name === target ? 14 : 8, name === target ? "target" : "place", name));
  }
  for (const [name, [x, y]] of Object.entries(taps)) svg.append(circle(x, y, 6, "tap", name));
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

// -- the layout: tap each place ----------------------------------------------------------------
function wanted() {
  if (!state) return [];
  return state.places.filter((p) => !(skipSeats && p.name.startsWith("seat")));
}

function nextPlace() { return wanted().find((p) => !(p.name in taps)); }

function prompt() {
  const next = nextPlace();
  $("tap-prompt").textContent = next ? `Tap ${next.name}: ${next.words}` : "Every place is tapped: save the places.";
  $("tap-prompt").dataset.next = next ? next.name : "";
  $("save-layout").disabled = Boolean(next);
  draw();
}

function tapped(event) {
  const next = nextPlace();
  if (!next || !state.image.width) return;
  taps[next.name] = imagePixel(event);
  prompt();
}

// -- the cue: record with a level meter ------------------------------------------------------------
let recorder = null;

async function startRecording() {
  const stream = await navigator.mediaDevices.getUserMedia({ audio: { echoCancellation: false, noiseSuppression: false } });
  const context = new AudioContext();
  const input = context.createMediaStreamSource(stream);
  const tap = context.createScriptProcessor(4096, 1, 1);
  const chunks = [];
  tap.onaudioprocess = (e) => {
    const samples = new Float32Array(e.inputBuffer.getChannelData(0));
    chunks.push(samples);
    let sum = 0;
    for (const s of samples) sum += s * s;
    const level = Math.min(1, Math.sqrt(sum / samples.length) * 4);
    $("level").dataset.level = level.toFixed(3);
    $("level-bar").style.width = `${Math.round(level * 100)}%`;
  };
  input.connect(tap);
  tap.connect(context.destination);
  recorder = { stream, context, chunks };
  $("record").textContent = "Stop and send";
  $("record").dataset.recording = "true";
  say("Recording: say \"In-can-to!\" three times");
}

async function stopRecording() {
  const { stream, context, chunks } = recorder;
  recorder = null;
  stream.getTracks().forEach((t) => t.stop());
  await context.close();
  $("record").textContent = "Record";
  $("record").dataset.recording = "false";
  const wav = encodeWav(downsample(chunks, context.sampleRate));
  for (let offset = 0; offset < wav.length; offset += PART_BYTES) {
    const part = wav.slice(offset, offset + PART_BYTES);
    const response = await fetch(`/api/calibration/cue/audio?offset=${offset}`, {
      method: "POST", body: part, headers: { "Content-Type": "application/octet-stream" }, credentials: "same-origin" });
    if (!response.ok) return refuse({ status: response.status, ...(await response.json().catch(() => ({}))) });
  }
  await act("/api/calibration/cue", { player: $("player").value.trim() });
}

function downsample(chunks, rate) {
  const length = chunks.reduce((n, c) => n + c.length, 0);
  const all = new Float32Array(length);
  let at = 0;
  for (const c of chunks) { all.set(c, at); at += c.length; }
  const step = rate / RATE;
  const out = new Float32Array(Math.floor(length / step));
  for (let i = 0; i < out.length; i++) { // the mean over each step is a crude low-pass before decimating
    const from = Math.floor(i * step), to = Math.max(from + 1, Math.floor((i + 1) * step));
    let sum = 0;
    for (let j = from; j < to; j++) sum += all[j];
    out[i] = sum / (to - from);
  }
  return out;
}

function encodeWav(samples) {
  const bytes = new Uint8Array(44 + samples.length * 2);
  const view = new DataView(bytes.buffer);
  const text = (at, s) => [...s].forEach((ch, i) => view.setUint8(at + i, ch.charCodeAt(0)));
  text(0, "RIFF"); view.setUint32(4, 36 + samples.length * 2, true); text(8, "WAVE");
  text(12, "fmt "); view.setUint32(16, 16, true); view.setUint16(20, 1, true); view.setUint16(22, 1, true);
  view.setUint32(24, RATE, true); view.setUint32(28, RATE * 2, true); view.setUint16(32, 2, true); view.setUint16(34, 16, true);
  text(36, "data"); view.setUint32(40, samples.length * 2, true);
  samples.forEach((s, i) => view.setInt16(44 + i * 2, Math.max(-1, Math.min(1, s)) * 32767, true));
  return bytes;
}

// -- the page --------------------------------------------------------------------------------------
async function refresh() {
  const answer = await getJSON("/api/calibration");
  if (!answer.ok) { $("error").textContent = answer.error || "calibration is not available"; return; }
  state = answer;
  $("refused").hidden = !state.refused;
  $("refused").textContent = state.refused || "";
  $("profile-lines").textContent = state.lines.join("\n");
  $("steps").replaceChildren(...Object.entries(state.steps).map(([name, s]) => {
    const li = document.createElement("li");
    li.textContent = `${name}: ${s.words}`;
    li.dataset.step = name; li.dataset.done = String(s.done);
    return li;
  }));
  showValidation(state.validation);
  prompt();
}

function showWands(answer) {
  $("wand-results").replaceChildren(...Object.entries(answer.wands).map(([k, m]) => {
    const li = document.createElement("li");
    li.textContent = `wand ${k}: hue ${m.hue.toFixed(0)}, bead ${m.bead_radius_mm.toFixed(1)} mm`;
    return li;
  }));
  $("wand-warnings").replaceChildren(...answer.warnings.map((w) => Object.assign(document.createElement("li"), { textContent: w })));
}

function showValidation(v) {
  $("read-validation").disabled = !v;
  if (!v) return;
  $("target").textContent = `Everyone point at ${v.target}: ${v.target_words}`;
  $("target").dataset.target = v.target;
  $("tally").textContent = v.tries ? `${v.hits} of ${v.tries} hit (${Math.round(v.rate * 100)} %) in ${v.rounds} rounds` : "";
  $("tally").dataset.hits = v.hits; $("tally").dataset.tries = v.tries;
  $("validation-problems").replaceChildren(...v.problems.map((w) => Object.assign(document.createElement("li"), { textContent: w })));
}

// -- the tip switches: asked a few times a second while the step is open ----------------------------
let tipsOpen = false;

async function pollTips() {
  if (!tipsOpen) return;
  const answer = await getJSON("/api/calibration/tips").catch(() => ({ ok: false, error: "the display cannot be reached; check the Wi-Fi" }));
  if (!tipsOpen) return; // closed while the answer was on its way
  if (answer.ok) showTips(answer);
  else refuse(answer);
  setTimeout(pollTips, 300);
}

function showTips(t) {
  $("tip-wands").replaceChildren(...t.wands.map((w) => {
    const li = document.createElement("li");
    const state = Object.assign(document.createElement("span"), { className: "state", textContent: w.state });
    li.append(state, w.words);
    Object.assign(li.dataset, { wand: w.wand, state: w.state, ok: String(w.ok) });
    return li;
  }));
  $("tip-summary").textContent = t.summary;
  $("tip-summary").dataset.status = t.status;
  $("lift-tips").disabled = t.phase !== "press" || t.status === "skipped";
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

$("photo-board").addEventListener("click", () => act("/api/calibration/camera/photo", { board: $("board").value.trim() }));
$("measure-camera").addEventListener("click", () => act("/api/calibration/camera", { board: $("board").value.trim() }));
$("find-table").addEventListener("click", () => act("/api/calibration/table"));
$("undo-tap").addEventListener("click", () => { const names = Object.keys(taps); delete taps[names[names.length - 1]]; prompt(); });
$("skip-seats").addEventListener("click", () => { skipSeats = true; prompt(); });
$("from-board").addEventListener("click", () => act("/api/calibration/layout/board", { taps },
  (answer) => { Object.assign(taps, answer.pixels); prompt(); }));
$("save-layout").addEventListener("click", () => act("/api/calibration/layout", { taps }));
$("empty-table").addEventListener("click", () => act("/api/calibration/wands/empty"));
$("learn-wands").addEventListener("click", () => act("/api/calibration/wands", { seconds: 3 }, showWands));
$("record").addEventListener("click", () => (recorder ? stopRecording() : startRecording().catch((e) => refuse({ error: `no microphone: ${e.message}` }))));
$("start-validation").addEventListener("click", () => act("/api/calibration/validation"));
$("start-tips").addEventListener("click", () => act("/api/calibration/tips", {}, openTips));
$("lift-tips").addEventListener("click", () => act("/api/calibration/tips/lift", {}, openTips));
$("end-tips").addEventListener("click", closeTips);
$("read-validation").addEventListener("click", () => act("/api/calibration/validation/read", { seconds: 3 }));

async function start() {
  const session = await getJSON("/api/session");
  if (session.ok && !session.joined) { location.href = "/join?next=/calibration"; return; }
  $("become-host").onclick = becomeHost;
  showFrames();
  refresh();
}

start();
