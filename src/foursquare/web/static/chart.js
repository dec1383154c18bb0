// @ts-check
// The game's curve, like the evaluation graph of a chess site's analysis board: the win chance (a filled
// line) and the expected score (a dashed line) after every move, as the analysis estimated them. Mistakes
// stand out as red marks; each point is a button (one tab stop, arrow keys move between points).

import { svgEl } from "./dom.js";
import { decimal, integer, percent } from "./i18n.js";

/**
 * A point of the curve: the move number, the win chance and expected score after it, whether it was a
 * mistake, its spoken label.
 * @typedef {{n: number, win: number, score: number, mistake: boolean, label: string}} ChartPoint
 * @typedef {ReturnType<typeof frame>} ChartFrame
 */

// Drawn at the width it is shown at (one unit a pixel), so its text is never scaled down on a phone.
const HEIGHT = 150;
const PAD = { left: 40, right: 30, top: 10, bottom: 22 };
const PLOT_H = HEIGHT - PAD.top - PAD.bottom;

/**
 * Where things go in a chart `width` wide of `count` moves: x of move n, y of a fraction.
 * @param {number} width
 * @param {number} count
 */
function frame(width, count) {
  const plotW = width - PAD.left - PAD.right;
  return {
    width,
    plotW,
    count,
    x: (/** @type {number} */ n) => PAD.left + (count <= 1 ? plotW / 2 : (plotW * (n - 1)) / (count - 1)),
    y: (/** @type {number} */ fraction) => PAD.top + PLOT_H * (1 - fraction),
  };
}

/**
 * The top of the score axis: a round number at or above every score shown.
 * @param {ChartPoint[]} points
 */
function scoreTop(points) {
  const most = Math.max(1, ...points.map((p) => p.score));
  return Math.ceil(most / 5) * 5;
}

/**
 * Every fifth move labelled (every tenth on a long game or a narrow chart), and the last.
 * @param {number} count
 * @param {number} plotW
 */
function moveTicks(count, plotW) {
  const step = count > 25 || plotW < 300 ? 10 : 5;
  const ticks = [1];
  for (let n = step; n < count; n += step) ticks.push(n);
  if (count > 1) ticks.push(count);
  return ticks.filter((n, i, all) => i === 0 || n - all[i - 1] >= step / 2 || n === count);
}

/**
 * @param {ChartFrame} at
 * @param {number} top
 */
function axes(at, top) {
  const parts = [];
  for (const fraction of [0, 0.5, 1]) {
    const y = at.y(fraction);
    parts.push(svgEl("line", { class: "chart-grid", x1: PAD.left, x2: at.width - PAD.right, y1: y, y2: y }));
    parts.push(svgEl("text", { class: "chart-axis chart-axis-win", x: PAD.left - 5, y: y + 4, "text-anchor": "end", text: percent(fraction) }));
    parts.push(svgEl("text", { class: "chart-axis chart-axis-score", x: at.width - PAD.right + 5, y: y + 4, text: decimal(top * fraction, 0) }));
  }
  for (const n of moveTicks(at.count, at.plotW)) {
    parts.push(svgEl("text", { class: "chart-axis", x: at.x(n), y: HEIGHT - 6, "text-anchor": "middle", text: integer(n) }));
  }
  return svgEl("g", { "aria-hidden": "true" }, ...parts);
}

/** @param {[number, number][]} coords */
function pathOf(coords) {
  return coords.map(([x, y], i) => `${i === 0 ? "M" : "L"}${x.toFixed(1)},${y.toFixed(1)}`).join(" ");
}

/**
 * The chart for `points` ({n, win, score, mistake, label}: the move number, the win chance and expected
 * score after it, whether it was a mistake, its spoken label), `width` pixels wide; `onPick(point)` runs on a
 * click or Enter.
 * @template {ChartPoint} P
 * @param {P[]} points
 * @param {{width: number, title: string, description: string, onPick: (point: P) => void}} options
 */
export function evaluationChart(points, { width, title, description, onPick }) {
  const at = frame(Math.max(240, Math.round(width)), points.length);
  const top = scoreTop(points);
  const win = points.map((p) => /** @type {[number, number]} */ ([at.x(p.n), at.y(p.win)]));
  const score = points.map((p) => /** @type {[number, number]} */ ([at.x(p.n), at.y(p.score / top)]));
  const area = `${pathOf(win)} L${at.x(at.count).toFixed(1)},${at.y(0)} L${at.x(1).toFixed(1)},${at.y(0)} Z`;
  const buttons = points.map((point, i) => pointButton(point, win[i], onPick));
  if (buttons.length) buttons[0].setAttribute("tabindex", "0");
  const svg = svgEl(
    "svg",
    {
      class: "chart",
      viewBox: `0 0 ${at.width} ${HEIGHT}`,
      width: at.width,
      height: HEIGHT,
      role: "group",
      "aria-labelledby": "evaluation-chart-title",
      "aria-describedby": "evaluation-chart-desc",
      onkeydown: (/** @type {KeyboardEvent} */ event) => moveFocus(event, buttons),
    },
    svgEl("title", { id: "evaluation-chart-title", text: title }),
    svgEl("desc", { id: "evaluation-chart-desc", text: description }),
    axes(at, top),
    svgEl("g", { "aria-hidden": "true" }, ...points.filter((p) => p.mistake).map((p) => mistakeBand(at.x(p.n)))),
    svgEl("path", { class: "chart-area", d: area, "aria-hidden": "true" }),
    svgEl("path", { class: "chart-line chart-line-win", d: pathOf(win), "aria-hidden": "true" }),
    svgEl("path", { class: "chart-line chart-line-score", d: pathOf(score), "aria-hidden": "true" }),
    svgEl("line", { class: "chart-cursor", x1: -10, x2: -10, y1: PAD.top, y2: PAD.top + PLOT_H, "aria-hidden": "true" }),
    svgEl("g", { class: "chart-points" }, ...buttons),
  );
  return svg;
}

/** @param {number} x */
function mistakeBand(x) {
  return svgEl("rect", { class: "chart-band", x: x - 5, y: PAD.top, width: 10, height: PLOT_H });
}

/**
 * @template {ChartPoint} P
 * @param {P} point
 * @param {[number, number]} at
 * @param {(point: P) => void} onPick
 */
function pointButton(point, [x, y], onPick) {
  return svgEl(
    "g",
    {
      class: point.mistake ? "chart-point mistake" : "chart-point",
      role: "button",
      tabindex: "-1",
      "aria-label": point.label,
      "data-move": point.n,
      onclick: () => onPick(point),
      onkeydown: (/** @type {KeyboardEvent} */ event) => {
        if (event.key !== "Enter" && event.key !== " ") return;
        event.preventDefault();
        event.stopPropagation();
        onPick(point);
      },
    },
    svgEl("title", { text: point.label }),
    svgEl("circle", { class: "chart-hit", cx: x, cy: y, r: 9 }),
    svgEl("circle", { class: "chart-dot", cx: x, cy: y, r: point.mistake ? 5.5 : 3 }),
  );
}

/**
 * Arrow keys, Home and End move the focus between the points (one tab stop for the whole chart).
 * @param {KeyboardEvent} event
 * @param {SVGElement[]} buttons
 */
function moveFocus(event, buttons) {
  const at = buttons.findIndex((button) => button === document.activeElement);
  if (at < 0) return;
  /** @type {Record<string, number>} */
  const steps = { ArrowLeft: at - 1, ArrowRight: at + 1, ArrowDown: at - 1, ArrowUp: at + 1, Home: 0, End: buttons.length - 1 };
  const next = steps[event.key];
  if (next === undefined) return;
  event.preventDefault();
  event.stopPropagation(); // not also the replay's own arrow keys
  const target = buttons[Math.max(0, Math.min(buttons.length - 1, next))];
  for (const button of buttons) button.setAttribute("tabindex", button === target ? "0" : "-1");
  target.focus();
}

/**
 * Mark the point of move `n` as the one the replay shows (none for 0, the start).
 * @param {Element} svg a chart of evaluationChart
 * @param {number} n
 */
export function markChartMove(svg, n) {
  const cursor = /** @type {Element} */ (svg.querySelector(".chart-cursor"));
  let x = -10;
  /** @type {NodeListOf<SVGElement>} */
  const points = svg.querySelectorAll(".chart-point");
  for (const point of points) {
    const current = Number(point.dataset.move) === n;
    point.classList.toggle("current", current);
    if (current) x = Number(/** @type {Element} */ (point.querySelector(".chart-dot")).getAttribute("cx"));
  }
  cursor.setAttribute("x1", String(x));
  cursor.setAttribute("x2", String(x));
}
