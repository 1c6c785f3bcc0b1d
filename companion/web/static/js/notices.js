// Notices: what the table should hear about that is not a game event (a press, a race won, the
// camera's reading of a casting, wands that were not swapped). A banner large enough to read from
// across the table while it matters, and a short list of the latest ones beside the game.

import { el } from "./parts.js";
import { notACue } from "./cue.js";
import { lang, sentence, t } from "./words.js";

// How each kind is headed and how long its banner stays. Readings and swaps are read across the
// table and acted on; presses come in bursts, so theirs are brief.
// Each kind's title is the catalogue's notice.<kind>.title.
const KINDS = {
  reading: { seconds: 8, tone: "info" },
  cue: { seconds: 10, tone: "info" },
  cue_dismissed: { seconds: 3, tone: "info" },
  cue_enrol: { seconds: 15, tone: "warn" },
  swap: { seconds: 12, tone: "warn" },
  race_armed: { seconds: 3, tone: "info" },
  race: { seconds: 4, tone: "ok" },
  early_press: { seconds: 3, tone: "warn" },
  press: { seconds: 2, tone: "info" },
};
const OUTCOME_TONE = { cast: "ok", asked: "warn", joined: "warn", blind: "warn", failed: "bad", no_pictures: "bad", unknown_place: "bad" };
const SHOWN = 5;

export function noticeTitle(notice) { return KINDS[notice.kind] ? t(`notice.${notice.kind}.title`) : notice.kind; }

/** What the notice says: on an English tablet as the server said it (it names more), elsewhere in the
 *  tablet's language (its words). */
export function noticeMessage(notice) { return lang === "en" && notice.message ? notice.message : sentence(notice.words, notice.message); }

function tone(notice) {
  if (notice.kind === "reading") return OUTCOME_TONE[notice.outcome] || "info";
  return (KINDS[notice.kind] || { tone: "info" }).tone;
}

function timeOf(notice) {
  return notice.at ? new Date(notice.at * 1000).toLocaleTimeString(lang, { hour: "2-digit", minute: "2-digit", second: "2-digit" }) : "";
}

/** The banner over the page: the newest notice of a known kind, until its time is up or it is tapped.
 *  ``inPage``: in the page's own flow instead of over it (the controls, where every button is tapped). */
export function noticeBanner(model, { inPage = false } = {}) {
  const banner = el("div", { class: inPage ? "notice-banner in-page" : "notice-banner", role: "alert", "aria-live": "assertive", hidden: true,
                             onclick: () => { banner.hidden = true; } });
  let timer = null;
  model.onChange((why) => {
    const notice = model.lastNotice;
    if (why !== "notice" || !notice || !KINDS[notice.kind]) return;
    banner.replaceChildren(el("div", { class: "notice-title" }, noticeTitle(notice)),
                           el("div", { class: "notice-message" }, noticeMessage(notice)), ...notACue(notice));
    Object.assign(banner.dataset, { kind: notice.kind, tone: tone(notice) });
    banner.hidden = false;
    clearTimeout(timer);
    timer = setTimeout(() => { banner.hidden = true; }, KINDS[notice.kind].seconds * 1000);
  });
  return banner;
}

/** The latest few notices, newest first; kept by the page since it opened (a snapshot has none). */
export function recentNotices(model) {
  const list = el("ul", { class: "notices" });
  const section = el("section", { "data-part": "notices", hidden: true }, el("h2", {}, t("notice.at_the_table")), list);
  model.onChange((why) => {
    if (why !== "notice") return;
    section.hidden = model.notices.length === 0;
    list.replaceChildren(...model.notices.slice(-SHOWN).reverse().map((n) =>
      el("li", { "data-kind": n.kind, "data-tone": tone(n) },
        el("span", { class: "muted" }, timeOf(n)), " ", el("b", {}, noticeTitle(n)), " ", noticeMessage(n), ...notACue(n))));
  });
  return section;
}
