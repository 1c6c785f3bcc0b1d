// The frame every page shares: the header with the pages and the connection state, the model and
// its stream, and the game's own module (static/games/<game>.js, or generic.js).

import { el } from "./parts.js";
import { Model } from "./model.js";
import { openStream } from "./stream.js";

const PAGES = [["/", "Board"], ["/controls", "Controls"], ["/night", "Night"], ["/status", "Status"]];
const loaded = {};

export function boot(title) {
  const badge = el("span", { class: "connection", id: "connection", "data-state": "connecting" }, "connecting…");
  document.body.prepend(el("header", {}, el("h1", {}, "Incanto · ", title),
    el("nav", {}, PAGES.map(([href, name]) => el("a", { href, class: location.pathname === href ? "here" : "" }, name))),
    badge));
  const model = new Model();
  const stream = openStream(model, (state) => {
    badge.dataset.state = state;
    badge.textContent = { live: "● live", connecting: "connecting…", "catching up": "catching up…", offline: "offline — retrying" }[state];
  });
  window.incanto = { model, stream }; // for a curious eye in the browser console
  return { model, stream };
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
