// Joining: the code shown on the display (typed, or carried in the QR code's link) gives this
// tablet a session, so its taps may change the game.

import { el } from "./parts.js";
import { post, refusalText } from "./api.js";
import { t } from "./words.js";

const params = new URLSearchParams(location.search);
const next = sameSite(params.get("next"));
const root = document.querySelector("main");
const input = el("input", { id: "code", inputmode: "numeric", autocomplete: "off", maxlength: 12, enterkeyhint: "go",
  "aria-label": t("join.code_label"), value: params.get("code") || "" });
const message = el("div", { class: "refusal", id: "join-message" });

async function join(event) {
  if (event) event.preventDefault(); // a form: Enter on a phone's keyboard submits it, as the button does
  const answer = await post("/api/session", { code: input.value.trim() });
  if (answer.ok) location.replace(next);
  else message.textContent = refusalText(answer);
}

document.title = t("shell.title", { page: t("nav.join") });
root.append(el("section", {}, el("h2", {}, t("join.title")),
  el("p", {}, t("join.type_the_code")),
  el("form", { class: "picker-row", id: "join-form", onsubmit: join },
    input, el("button", { class: "primary", id: "join", type: "submit" }, t("join.join"))), message));
if (params.get("code")) join();

// Where to go after joining: only a page of this display. "//site/x" and "/\\site" start with a slash but
// name another site, so the address is resolved here and only its path is kept.
function sameSite(wanted) {
  if (!wanted || !wanted.startsWith("/")) return "/controls";
  try {
    const url = new URL(wanted, location.origin);
    return url.origin === location.origin ? url.pathname + url.search + url.hash : "/controls";
  } catch (e) {
    return "/controls";
  }
}
