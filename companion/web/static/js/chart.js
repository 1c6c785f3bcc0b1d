// The night's standings over the night: each player's night points after each finished game, one line
// per player in a colour of their own, drawn as inline SVG from the standings the night already sends.

import { el, seatColour } from "./parts.js";
import { t } from "./words.js";

const SVG = "http://www.w3.org/2000/svg";

function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  for (const child of children.flat()) if (child) node.append(child);
  return node;
}

/** {player: [0, after game 1, after game 2, ...]} over the finished games in the order played. A row's
 *  ``places`` lists the player's place in each game they finished, in that order, so a player who sat
 *  a game out keeps their points through it. */
export function nightSeries(night) {
  const points = night.points_per_place || [];
  const left = Object.fromEntries(night.standings.map((row) => [row.player, [...row.places]]));
  const series = Object.fromEntries(night.standings.map((row) => [row.player, [0]]));
  for (const game of night.games.filter((g) => g.over)) {
    for (const [player, line] of Object.entries(series)) {
      const played = game.players.includes(player) && left[player].length > 0;
      const place = played ? left[player].shift() : 0;
      line.push(line[line.length - 1] + (place > 0 ? points[place - 1] ?? 0 : 0));
    }
  }
  return series;
}

/** The chart and a legend. The chart is drawn again at the width it is given whenever that changes (a
 *  phone turned, a window resized), so its words stay legible instead of shrinking with it. */
export function nightChart(night, width = 600) {
  const series = nightSeries(night);
  const players = Object.keys(series);
  if (!players.length || series[players[0]].length < 2) return null;
  let drawn = Math.round(width);
  let chart = draw(series, drawn);
  const legend = el("div", { class: "chart-legend" }, players.map((player, seat) =>
    el("span", { style: `color: ${seatColour(seat)}; font-weight: bold` }, "● ", player, " ", series[player].at(-1))));
  const figure = el("figure", { class: "night-chart-box", style: "margin: 0" }, chart, legend);
  new ResizeObserver(([entry]) => {
    const now = Math.round(entry.contentRect.width);
    if (now > 0 && Math.abs(now - drawn) > 8) { drawn = now; const again = draw(series, now); chart.replaceWith(again); chart = again; }
  }).observe(figure);
  return figure;
}

function draw(series, width) {
  const players = Object.keys(series);
  const games = series[players[0]].length - 1;
  // The words in three quarters of the page's own type, which grows with the screen (display.css).
  const font = Math.max(12, 0.75 * parseFloat(getComputedStyle(document.documentElement).fontSize));
  const w = Math.max(260, width), h = Math.round(Math.min(font * 16, Math.max(180, w * 0.45)));
  const pad = { left: font * 2.6, right: font, top: font, bottom: font * 2.2 };
  const top = Math.max(1, ...players.flatMap((p) => series[p]));
  const x = (i) => pad.left + (i / games) * (w - pad.left - pad.right);
  const y = (v) => h - pad.bottom - (v / top) * (h - pad.top - pad.bottom);

  const grid = [0, Math.round(top / 2), top].filter((v, i, all) => all.indexOf(v) === i).map((v) => svg("g", {},
    svg("line", { class: "grid", x1: pad.left, x2: w - pad.right, y1: y(v), y2: y(v) }),
    svg("text", { x: pad.left - font / 2, y: y(v) + font / 3, "text-anchor": "end", "font-size": font }, String(v))));
  // Every game's number under its points while they fit; a phone with a long night gets every few.
  const every = Math.max(1, Math.ceil(games / Math.floor((w - pad.left) / (font * 4.5))));
  const ticks = Array.from({ length: games + 1 }, (_, i) => i).filter((i) => i % every === 0 || i === games).map((i) =>
    svg("text", { x: x(i), y: h - font / 2, "font-size": font, "text-anchor": i === 0 ? "start" : i === games ? "end" : "middle" },
      i === 0 ? t("chart.start") : games > 4 ? String(i) : t("chart.game", { number: i })));
  const lines = players.map((player, seat) => svg("g", { class: "series", "data-player": player,
    "data-points": series[player].join(" "), style: `stroke: ${seatColour(seat)}; fill: ${seatColour(seat)}` },
    svg("polyline", { points: series[player].map((v, i) => `${x(i)},${y(v)}`).join(" ") }),
    series[player].map((v, i) => svg("circle", { cx: x(i), cy: y(v), r: font / 3, style: "stroke: none" },
      svg("title", {}, i === 0 ? t("chart.point_at_start", { player, points: v }) : t("chart.point_after_game", { player, number: i, points: v }))))));
  return svg("svg", { class: "night-chart", viewBox: `0 0 ${w} ${h}`, role: "img", "data-part": "night-chart",
    "aria-label": t("chart.label", { points: players.map((p) => `${p} ${series[p][games]}`).join(", ") }) },
  grid, ticks, lines);
}
