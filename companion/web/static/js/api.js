// Taps become POSTs that carry an action id made here, so a retried tap applies once.

import { has, lang, sentence, t } from "./words.js";

export function actionId() {
  const bytes = new Uint8Array(12);
  crypto.getRandomValues(bytes); // randomUUID needs a secure context; a LAN page is plain http
  return "tap-" + Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

export async function post(path, body, { retries = 3 } = {}) {
  for (let attempt = 0; ; attempt++) {
    try {
      const response = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" },
                                            body: JSON.stringify(body), credentials: "same-origin" });
      const answer = await response.json().catch(() => ({ error: `HTTP ${response.status}` }));
      return { ok: response.ok, status: response.status, ...answer };
    } catch (networkError) { // the same action id makes the retry safe
      if (attempt >= retries) return { ok: false, status: 0, error: t("api.unreachable") };
      await new Promise((r) => setTimeout(r, 300 * (attempt + 1)));
    }
  }
}

export async function getJSON(path) {
  const response = await fetch(path, { credentials: "same-origin" });
  return { ok: response.ok, status: response.status, ...(await response.json().catch(() => ({}))) };
}

/** A proposal made against the version the page shows; a stale one refreshes the page's picture. */
export function proposer(model, stream, onRefusal) {
  return async (action) => {
    const base = model.game ? model.game.version : null;
    const answer = await post("/api/game/actions", { action, action_id: actionId(), base });
    handle(answer, stream, onRefusal);
    return answer;
  };
}

export function handle(answer, stream, onRefusal) {
  if (answer.ok) return onRefusal("");
  if (answer.status === 401) { location.href = `/join?next=${encodeURIComponent(location.pathname)}`; return; }
  if (answer.stale) stream.resync();
  const problems = (answer.problems || []).map((p) => problemText(p) + (p.player ? ` (${p.player})` : "")).join("; ");
  onRefusal(answer.stale ? t("api.stale") : problems || refusalText(answer));
}

/** A refusal in the tablet's language: its own words if it carries them, else what its kind means
 *  (error.<kind>), else (on an English tablet) the server's sentence, which names the bad value. */
export function refusalText(answer) {
  if (answer.words) return sentence(answer.words, answer.error);
  if (lang === "en" || !answer.kind) return answer.error || t("error.other");
  return has(`error.${answer.kind}`) ? t(`error.${answer.kind}`) : t("error.other");
}

/** One rule's "no": problem.<rule> in the catalogue, else the engine's English on an English tablet. */
function problemText(p) {
  if (p.words) return sentence(p.words, p.message);
  if (has(`problem.${p.rule}`)) return t(`problem.${p.rule}`, { player: p.player ?? "" });
  return lang === "en" ? p.message : t("problem.other");
}
