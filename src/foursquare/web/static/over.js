// @ts-check
// Game over: the outcome and score, then the replay and the analysis of the finished game (and of a daily
// game, everyone's results of its date: daily.js); Share and "Analyse" (which brings the analysis into view).

import { ensureAnalysis } from "./analysis.js";
import { flipDuration } from "./cards.js";
import { hideDailyResults, showDailyResults } from "./daily.js";
import { $ } from "./dom.js";
import { integer, t } from "./i18n.js";
import { currentReplay, openReplay, updateReplayButtons } from "./replay.js";
import { isMine } from "./share.js";
import { currentGame, gameState } from "./store.js";
import { board } from "./table.js";

/**
 * Show the game over panel for the current (finished) state; `justEnded`: its last move was just played.
 * @param {boolean} justEnded
 */
export function showGameOver(justEnded) {
  const state = currentGame();
  const over = $("over");
  const wasHidden = over.hidden;
  over.hidden = false;
  over.dataset.outcome = state.outcome;
  $("over-title").textContent = t(state.outcome === "won" ? "over.won" : "over.lost");
  $("over-reason").textContent = state.reason ? t(`over.reason.${state.reason}`) : "";
  $("over-score").textContent = integer(state.score ?? 0);
  $("over-score-note").textContent = state.outcome === "won" ? t("over.scoreValue", { count: state.score ?? 0 }) : "";
  $("over-deal").textContent = state.deal !== null ? t("over.deal", { deal: String(state.deal) }) : "";
  $("btn-same-deal").hidden = state.deal === null || !isMine(state);
  $("btn-again").hidden = !isMine(state);
  if (wasHidden) $("btn-analyze").hidden = false; // until it has shown the analysis (showAnalysis)

  openReplay(justEnded);
  $("replay").hidden = false;
  updateReplayButtons();
  ensureAnalysis();
  showDailyResults(state, justEnded);
  if (wasHidden && justEnded) {
    setTimeout(() => $("over-title").focus({ preventScroll: true }), flipDuration() + 150);
    if (state.outcome === "won" && flipDuration() > 0) {
      setTimeout(() => {
        const replay = currentReplay();
        if (gameState()?.id === state.id && replay?.turn === replay?.total) board.celebrate();
      }, flipDuration() + 100);
    }
  }
}

export function hideGameOver() {
  $("over").hidden = true;
  $("replay").hidden = true;
  hideDailyResults();
}

/** Bring the analysis of the finished game into view and move the focus there. */
export function showAnalysis() {
  const title = $("analysis-title");
  title.setAttribute("tabindex", "-1");
  $("analysis").scrollIntoView({ block: "start", behavior: "smooth" });
  title.focus({ preventScroll: true });
  $("btn-analyze").hidden = true; // it has done its work: the analysis is on screen
}
