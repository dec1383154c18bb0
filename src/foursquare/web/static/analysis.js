// @ts-check
// The analysis of a finished game: the verdict on the deal, the game's curve (win chance and expected
// score after every move, the mistakes marked), the costliest moves, and marks under the replay slider
// where the mistakes were (each opens that position, the cell played and the best marked).

import { api, ApiError } from "./api.js";
import { dayEnd, localTime } from "./daily.js";
import { evaluationChart, markChartMove } from "./chart.js";
import { $, el, errorMessage } from "./dom.js";
import { cardSymbol, decimal, integer, percent, t } from "./i18n.js";
import { isDeviceGame } from "./offline.js";
import { currentReplay, drawnReplayTurn, onReplayDrawn, showReplay } from "./replay.js";
import { currentGame, gameState } from "./store.js";

/**
 * @typedef {import("./api.js").Analysis} Analysis
 * @typedef {import("./api.js").AnalysisMove} AnalysisMove
 * @typedef {import("./board.js").Marker} Marker
 */

const MAX_COSTLY = 5;

/** @type {string | null} */
let asked = null; // the id of the game whose analysis was asked for (loading, shown or failed)
/** @type {{id: string, analysis: Analysis} | null} */
let shown = null; // the analysis on screen, drawn again after a change of language

const isCurrent = (/** @type {string} */ id) => gameState()?.id === id;

/** Forget the analysis asked for (another game is shown: coming back to this one asks again). */
export function forgetAnalysis() {
  asked = null;
  shown = null;
  showChart(null);
}

/** Draw the analysis on screen again (the language changed); one still loading or failed is asked again. */
export function rerenderAnalysis() {
  const id = gameState()?.id;
  if (shown && shown.id === id) renderAnalysis(shown.analysis);
  else if (asked === id) loadAnalysis();
}

/** Fetch and show the analysis of the current (finished) game, unless it is already there or on its way. */
export function ensureAnalysis() {
  if (asked !== currentGame().id) loadAnalysis();
}

async function loadAnalysis() {
  const id = currentGame().id;
  asked = id;
  const section = $("analysis");
  const body = $("analysis-body");
  if (isDeviceGame(id)) {
    // The server's players judge the moves: a game of this device is not analysed on it.
    showChart(null);
    body.replaceChildren(el("p", { class: "analysis-offline", text: t("offline.analysisNeeds") }));
    return;
  }
  section.setAttribute("aria-busy", "true");
  showChart(null);
  body.replaceChildren(
    el("p", { class: "analysis-loading" }, el("span", { class: "spinner", "aria-hidden": "true" }), el("span", { text: t("over.analysing") })),
  );
  try {
    const analysis = await api.analysis(id);
    if (isCurrent(id)) {
      shown = { id, analysis };
      renderAnalysis(analysis);
    }
  } catch (error) {
    if (!isCurrent(id)) return;
    const daily = currentGame().daily;
    if (error instanceof ApiError && error.code === "daily_secret" && daily) {
      opensLater(id, dayEnd(daily));
      return;
    }
    asked = null;
    body.replaceChildren(
      el("p", { class: "analysis-error", text: t("over.analysisFailed", { detail: errorMessage(error) }) }),
      el("button", { type: "button", class: "button", text: t("action.retry"), onclick: () => loadAnalysis() }),
    );
  } finally {
    if (isCurrent(id)) section.setAttribute("aria-busy", "false");
  }
}

let opensTimer = 0;

/**
 * The analysis of today's daily game (`id`) opens for everyone at `opens` (the end of its UTC day): say when, in
 * the player's own time, with no "Try again" before then; the page asks again itself at that time if still open.
 * @param {string} id
 * @param {Date} opens
 */
function opensLater(id, opens) {
  const time = localTime(opens);
  $("analysis-body").replaceChildren(
    el("p", { class: "analysis-opens", "data-opens": opens.toISOString(), text: t("over.analysisOpens", { time }) }),
  );
  clearTimeout(opensTimer);
  const wait = Math.min(opens.getTime() - Date.now() + 1000, 2 ** 31 - 1);
  opensTimer = setTimeout(() => {
    if (isCurrent(id) && asked === id) loadAnalysis();
  }, Math.max(wait, 60_000)); // (a clock that runs ahead asks once a minute, not at once again and again)
}

/**
 * Little marks under the replay slider where the mistakes were; each one opens that position.
 * @param {AnalysisMove[]} moves
 */
function drawMistakeMarks(moves) {
  const total = currentReplay()?.total ?? 0;
  const marks = $("replay-marks");
  if (!total) {
    marks.replaceChildren();
    return;
  }
  marks.replaceChildren(
    ...moves
      .filter((move) => move.mistake)
      .map((move) => {
        const label = t("replay.mistake", { n: move.index + 1, card: cardSymbol(move.card) });
        return el("button", {
          type: "button",
          class: "replay-mark",
          style: `left: ${(100 * move.index) / total}%`,
          title: label,
          "aria-label": label,
          tabindex: "-1",
          onclick: () => showMistake(move),
        });
      }),
  );
}

/**
 * Show the position before a move, with the cell played and the best cell marked.
 * @param {AnalysisMove} move
 */
function showMistake(move) {
  showReplay(move.index, mistakeMarkers(move));
}

/**
 * @param {AnalysisMove} move
 * @returns {Marker[]}
 */
function mistakeMarkers(move) {
  return [
    { row: move.played[0], col: move.played[1], kind: "played", label: t("replay.played") },
    { row: move.best[0], col: move.best[1], kind: "best", label: t("replay.best") },
  ];
}

/**
 * The spoken (and hovered) label of a move's point on the chart.
 * @param {AnalysisMove} move
 */
function pointLabel(move) {
  const where = { n: move.index + 1, card: cardSymbol(move.card), cell: move.played_cell };
  const chances = { pct: percent(move.played_win_probability), score: decimal(move.played_expected_score) };
  const label = t("chart.point", { ...where, ...chances });
  if (!move.mistake) return label;
  return `${label} ${t("chart.pointMistake", { best: move.best_cell, loss: decimal(move.expected_score_loss) })}`;
}

/** @param {AnalysisMove[]} moves */
function chartDescription(moves) {
  const last = moves[moves.length - 1];
  const first = moves[0];
  const course = t("chart.desc", {
    first: percent(first.played_win_probability),
    last: percent(last.played_win_probability),
    n: last.index + 1,
  });
  const mistakes = moves.filter((m) => m.mistake).map((m) => m.index + 1);
  const marked = mistakes.length
    ? t("chart.descMistakes", { count: mistakes.length, moves: mistakes.map(integer).join(t("list.sep")) })
    : t("chart.descNoMistakes");
  return `${course} ${marked}`;
}

/** @type {(() => void)[]} */
let chartWatchers = []; // stop what keeps the chart in step with the replay and its width, while one is shown

/**
 * Draw the game's curve under the replay, as wide as the replay (redrawn when that changes), or remove
 * it (`moves` null). A point opens the replay after its move (a mistake with the played and best cells marked).
 * @param {AnalysisMove[] | null} moves
 */
function showChart(moves) {
  for (const stop of chartWatchers) stop();
  chartWatchers = [];
  const box = $("replay-chart");
  if (!moves?.length) {
    box.replaceChildren();
    return;
  }
  let drawnWidth = 0;
  const draw = () => {
    const width = box.clientWidth || 480;
    if (Math.abs(width - drawnWidth) < 8) return;
    drawnWidth = width;
    box.replaceChildren(gameChart(moves, width));
    syncCursor();
  };
  const syncCursor = () => {
    const svg = box.querySelector("svg.chart");
    if (svg) markChartMove(svg, drawnReplayTurn());
  };
  const stopCursor = onReplayDrawn(syncCursor);
  const resize = new ResizeObserver(draw);
  resize.observe(box);
  chartWatchers = [stopCursor, () => resize.disconnect()];
  draw();
}

/**
 * @param {AnalysisMove[]} moves
 * @param {number} width
 */
function gameChart(moves, width) {
  const points = moves.map((move) => ({
    n: move.index + 1,
    win: move.played_win_probability,
    score: move.played_expected_score,
    mistake: move.mistake,
    label: pointLabel(move),
    move,
  }));
  const svg = evaluationChart(points, {
    width,
    title: t("chart.title"),
    description: chartDescription(moves),
    onPick: (point) => showReplay(point.n, point.mistake ? mistakeMarkers(point.move) : []),
  });
  const legend = el(
    "p",
    { class: "chart-legend", "aria-hidden": "true" },
    el("span", { class: "chart-key chart-key-win", text: t("chart.win") }),
    el("span", { class: "chart-key chart-key-score", text: t("chart.score") }),
    el("span", { class: "chart-key chart-key-mistake", text: t("chart.mistake") }),
  );
  return el("figure", { class: "chart-figure" }, svg, legend);
}

/** @param {import("./api.js").Perfect} perfect */
function verdict(perfect) {
  /** @type {HTMLElement[]} */
  const parts = [];
  const key =
    perfect.winnable === true ? "over.winnable" : perfect.winnable === false ? "over.notWinnable" : "over.unknownWinnable";
  parts.push(el("p", { class: `analysis-verdict verdict-${String(perfect.winnable)}`, text: t(key) }));
  if (perfect.best_score !== null && perfect.best_score !== undefined) {
    parts.push(el("p", { class: "analysis-best", text: t("over.bestScore", { score: perfect.best_score }) }));
  } else if (perfect.winnable !== false && perfect.upper_bound !== null && perfect.upper_bound !== undefined) {
    parts.push(el("p", { class: "analysis-best", text: t("over.bestScoreUnknown", { bound: perfect.upper_bound }) }));
  }
  return parts;
}

/**
 * One of the costliest moves, its cells by name.
 * @param {AnalysisMove} move
 */
function costlyMove(move) {
  const line = t("over.moveLine", {
    n: move.index + 1,
    card: cardSymbol(move.card),
    played: move.played_cell,
    best: move.best_cell,
  });
  const loss = t(move.evaluation === "exact" ? "over.moveLossExact" : "over.moveLoss", {
    pct: percent(Math.max(0, move.win_probability_loss ?? 0)),
    score: decimal(Math.max(0, move.expected_score_loss ?? 0)),
    low: decimal(Math.max(0, move.expected_score_loss_low ?? 0)),
  });
  return el(
    "li",
    { class: "costly-move" },
    el("span", { class: "costly-line", text: line }),
    el("span", { class: "costly-loss", text: loss }),
    el("button", {
      type: "button",
      class: "button button-small",
      text: t("over.show"),
      "aria-label": t("over.showLabel", { line }),
      onclick: () => showMistake(move),
    }),
  );
}

/** @param {Analysis} analysis */
function renderAnalysis(analysis) {
  const parts = verdict(analysis.perfect ?? {});
  const moves = analysis.moves ?? [];
  drawMistakeMarks(moves);
  const costly = (analysis.costliest ?? [])
    .map((index) => moves.find((m) => m.index === index) ?? moves[index])
    .filter(Boolean)
    .slice(0, MAX_COSTLY);
  const mistakes = moves.filter((m) => m.mistake).length;
  showChart(moves);
  parts.push(el("p", { class: "analysis-mistakes", text: t("over.mistakes", { count: mistakes }) }));
  parts.push(el("p", { class: "analysis-rule", text: t("over.mistakeRule") }));
  const exact = moves.filter((m) => m.evaluation === "exact").length;
  if (exact) parts.push(el("p", { class: "analysis-exact", text: t("over.exactRule", { count: exact }) }));
  parts.push(el("h4", { text: t("over.costliest") }));
  if (costly.length === 0) {
    parts.push(el("p", { class: "analysis-clean", text: t("over.noMistakes") }));
  } else {
    parts.push(el("ol", { class: "costly-list" }, ...costly.map((move) => costlyMove(move))));
  }
  $("analysis-body").replaceChildren(...parts);
}
