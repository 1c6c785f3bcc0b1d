// The frame every page shares: the header with the pages and the connection state, the model and
// its stream, and the game's own module (static/games/<game>.js, or generic.js).

import { el } from "./parts.js";
import { Model } from "./model.js";
import { openStream } from "./stream.js";
import { applyWords, languageSwitch, t } from "./words.js";

export const PAGES = [["/", "board"], ["/controls", "controls"], ["/night", "night"], ["/status", "status"],
  ["/calibration", "calibration"]]; // each page's name is the catalogue's nav.<name>
const loaded = {};

/** ``page``: the page's name as PAGES gives it (its title is the catalogue's nav.<page>). */
export function boot(page) {
  const title = t(`nav.${page}`);
  document.title = t("shell.title", { page: title });
  const badge = el("span", { class: "connection", id: "connection", "data-state": "connecting" }, t("connection.connecting"));
  document.body.prepend(el("header", {}, el("h1", {}, t("shell.title", { page: title })), navigation(), languageSwitch(), badge));
  applyWords();
  const offline = offlineNotice();
  const model = new Model();
  let everLive = false;
  const stream = openStream(model, (state) => {
    badge.dataset.state = state;
    badge.textContent = t(`connection.${state.replace(" ", "_")}`); // the banner under the header says the rest
    if (state === "live") everLive = true;
    // Retrying flips between "offline" and "connecting": both are the table out of reach once it was there.
    offline.show(state === "offline" || (everLive && state === "connecting"));
  });
  window.incanto = { model, stream }; // for a curious eye in the browser console
  return { model, stream };
}

/** Every page's links, the page shown marked; shared with the pages that draw their own header. */
export function navigation() {
  return el("nav", {}, PAGES.map(([href, name]) =>
    el("a", { href, class: location.pathname === href ? "here" : "", "aria-current": location.pathname === href ? "page" : null }, t(`nav.${name}`))));
}

/** While the push stream is down the page says so in large type, and no tap can be made: a tap then
 *  would reach nobody, and the picture under it may be old. Buttons this disabled are given back. */
function offlineNotice() {
  const notice = el("div", { class: "offline", role: "alert", "data-part": "offline", hidden: true },
    el("b", {}, t("offline.title")), " ", t("offline.text"));
  document.body.querySelector("header").after(notice);
  let shown = false;
  const asleep = new MutationObserver(() => { // a page redrawn while down draws no live button
    for (const b of document.querySelectorAll("main button:not(:disabled)")) { b.disabled = true; b.dataset.offline = ""; }
  });
  return {
    show(down) {
      if (down === shown) return;
      shown = down;
      notice.hidden = !down;
      document.body.dataset.connection = down ? "offline" : "live";
      const main = document.querySelector("main");
      if (!main) return;
      main.inert = down; // buttons drawn while offline cannot be tapped either
      if (down) {
        asleep.observe(main, { childList: true, subtree: true });
        for (const b of main.querySelectorAll("button:not(:disabled)")) { b.disabled = true; b.dataset.offline = ""; }
      } else {
        asleep.disconnect();
        for (const b of main.querySelectorAll("button[data-offline]")) { b.disabled = false; delete b.dataset.offline; }
      }
    },
  };
}

export async function gameModule(name) {
  const key = name || "generic";
  if (!loaded[key]) {
    loaded[key] = import(`/static/games/${encodeURIComponent(key)}.js`)
      .catch(() => import("/static/games/generic.js")) // a game with no page of its own
      .catch((e) => { delete loaded[key]; throw e; }); // the network dropped: try again next time
  }
  return loaded[key];
}

export function render(root, ...children) {
  root.replaceChildren(...children.flat().filter((c) => c));
}
