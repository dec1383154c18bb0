// The analysis of a finished game: the verdict on the deal, the costliest moves, and marks under the
// replay slider where the mistakes were (each opens that position, the cell played and the best marked).

import { api } from "./api.js";
import { $, el, errorMessage } from "./dom.js";
import { cardSymbol, decimal, percent, t } from "./i18n.js";
import { currentReplay, finalFrame, showReplay } from "./replay.js";
import { gameState } from "./store.js";

const MAX_COSTLY = 5;

let asked = null; // the id of the game whose analysis was asked for (loading, shown or failed)

const isCurrent = (id) => gameState()?.id === id;

/** Forget the analysis asked for (another game is shown: coming back to this one asks again). */
export function forgetAnalysis() {
  asked = null;
}

/** Fetch and show the analysis of the current (finished) game, unless it is already there or on its way. */
export function ensureAnalysis() {
  if (asked !== gameState().id) loadAnalysis();
}

async function loadAnalysis() {
  const id = gameState().id;
  asked = id;
  const section = $("analysis");
  const body = $("analysis-body");
  section.setAttribute("aria-busy", "true");
  body.replaceChildren(
    el("p", { class: "analysis-loading" }, el("span", { class: "spinner", "aria-hidden": "true" }), el("span", { text: t("over.analysing") })),
  );
  try {
    const analysis = await api.analysis(id);
    if (isCurrent(id)) renderAnalysis(analysis);
  } catch (error) {
    if (!isCurrent(id)) return;
    asked = null;
    body.replaceChildren(
      el("p", { class: "analysis-error", text: t("over.analysisFailed", { detail: errorMessage(error) }) }),
      el("button", { type: "button", class: "button", text: t("action.retry"), onclick: () => loadAnalysis() }),
    );
  } finally {
    if (isCurrent(id)) section.setAttribute("aria-busy", "false");
  }
}

/** Little marks under the replay slider where the mistakes were; each one opens that position. */
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

/** Show the position before a move, with the cell played and the best cell marked. */
function showMistake(move) {
  showReplay(move.index, [
    { row: move.played[0], col: move.played[1], kind: "played", label: t("replay.played") },
    { row: move.best[0], col: move.best[1], kind: "best", label: t("replay.best") },
  ]);
}

function verdict(perfect) {
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

/** One of the costliest moves; `at` turns a [row, col] into the coordinates the replay shows. */
function costlyMove(move, at) {
  const played = at(move.played);
  const best = at(move.best);
  const line = t("over.moveLine", {
    n: move.index + 1,
    card: cardSymbol(move.card),
    prow: played.row,
    pcol: played.col,
    brow: best.row,
    bcol: best.col,
  });
  const loss = t("over.moveLoss", {
    pct: percent(Math.max(0, move.win_probability_loss ?? 0)),
    score: decimal(Math.max(0, move.expected_score_loss ?? 0)),
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

function renderAnalysis(analysis) {
  const parts = verdict(analysis.perfect ?? {});
  const moves = analysis.moves ?? [];
  drawMistakeMarks(moves);
  const costly = (analysis.costliest ?? [])
    .map((index) => moves.find((m) => m.index === index) ?? moves[index])
    .filter(Boolean)
    .slice(0, MAX_COSTLY);
  const mistakes = moves.filter((m) => m.mistake).length;
  parts.push(el("p", { class: "analysis-mistakes", text: t("over.mistakes", { count: mistakes }) }));
  parts.push(el("h4", { text: t("over.costliest") }));
  if (costly.length === 0) {
    parts.push(el("p", { class: "analysis-clean", text: t("over.noMistakes") }));
  } else {
    // Coordinates are told relative to the final grid, the frame the replay draws every step in.
    const frame = finalFrame() ?? { minRow: 0, minCol: 0 };
    const at = ([row, col]) => ({ row: row - frame.minRow + 1, col: col - frame.minCol + 1 });
    parts.push(el("ol", { class: "costly-list" }, ...costly.map((move) => costlyMove(move, at))));
  }
  $("analysis-body").replaceChildren(...parts);
}
