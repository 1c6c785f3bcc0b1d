// The tablet's cue button: whoever holds wand 4 may call "In-can-to!" by tapping instead of speaking.
// The pointing starts at the tap, so a tap is never retried later; what the camera made of the
// casting arrives as a "reading" notice.

import { el } from "./parts.js";
import { actionId, handle, post, refusalText } from "./api.js";
import { t } from "./words.js";

/** A cue starts a casting's reading, so it is offered only while the rules wait for a casting: never in
 *  a game that casts no wands, nor while a spell, a full satchel or the end is being settled. */
export function castingDue(view) {
  return Boolean(view && !view.over && view.legal && view.legal.kind === "cast");
}

/** The cue section, or null when this display has no table side to hear it (GET /api/session says). */
export function cueButton(session, stream) {
  if (!session.cue) return null;
  const result = el("div", { class: "cue-result", role: "status", "data-part": "cue-result" });
  const section = el("section", { class: "cue", "data-part": "cue" });
  const button = el("button", { class: "primary cue-button", "data-do": "cue", onclick: () => give(button, result, section, stream) },
    t("cue.button"));
  section.append(button, result);
  return section;
}

async function give(button, result, section, stream) {
  button.disabled = true;
  result.dataset.ok = "";
  result.textContent = "…";
  const answer = await post("/api/cue", { action_id: actionId() }, { retries: 0 });
  button.disabled = false;
  if (answer.status === 404) { // the table side went away under this page: the casting is tapped below
    section.replaceChildren(t("cue.no_camera"));
    return;
  }
  result.dataset.ok = answer.ok ? "yes" : "no";
  if (answer.ok) result.textContent = t("cue.given");
  else handle(answer, stream, (text) => { result.textContent = text || refusalText(answer) || `HTTP ${answer.status}`; });
}

/** A heard spoken cue's "Not a cue" button (none for other notices): one tap dismisses a false cue. */
export function notACue(notice) {
  if (notice.kind !== "cue" || notice.cue_id == null) return [];
  const button = el("button", { class: "not-a-cue", "data-do": "not-a-cue", onclick: async () => {
    button.disabled = true;
    const answer = await post("/api/cue/dismiss", { cue_id: notice.cue_id }, { retries: 0 });
    button.textContent = answer.ok || answer.status === 404 ? t("cue.dismissed") : (refusalText(answer) || t("cue.not_dismissed"));
  } }, t("cue.not_a_cue"));
  return [button];
}
