// Taps become POSTs that carry an action id made here, so a retried tap applies once.

import { sentence, t } from "./words.js";

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
  const problems = (answer.problems || []).map((p) => sentence(p.words, p.message) + (p.player ? ` (${p.player})` : "")).join("; ");
  onRefusal(answer.stale ? t("api.stale") : problems || sentence(answer.words, answer.error));
}
