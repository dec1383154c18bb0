// The game view: draws the whole page for the current state (the table, the buttons, the deal, the
// hint, game over). It reads the state; it never changes it.

import { forgetAnalysis } from "./analysis.js";
import { $, el } from "./dom.js";
import { t, variantText } from "./i18n.js";
import { hintBadges, renderHintBox } from "./hint.js";
import { hideGameOver, showGameOver } from "./over.js";
import { closeReplay, currentReplay } from "./replay.js";
import { gameState, isPlaying } from "./store.js";
import { board, renderGauges, renderHand } from "./table.js";

let drawnId = null; // the game the page shows: another one starts afresh (empty board, no replay, no analysis)

/**
 * Draw the game view from the current state; `change` says what the last request did: placed
 * ({row, col}), flyFrom (the rectangle the card flies in from), message (for the board's caption),
 * justEnded (this request ended the game).
 */
export function renderGame(change = {}) {
  const state = gameState();
  if (state.id !== drawnId) {
    drawnId = state.id;
    $("board").replaceChildren();
    board.slots.clear();
    closeReplay();
    forgetAnalysis();
  }
  document.title = t("app.pageTitle", { page: dealText(state) });
  const playing = isPlaying();
  const view = $("view-game");
  view.dataset.outcome = state.outcome;
  view.dataset.turn = String(state.turn);
  const keepFocus = board.hasFocus();
  if (playing || !currentReplay()) drawTable(state, playing, change);
  $("board").dataset.turn = String(state.turn);
  if (keepFocus && playing) board.focus();
  renderControls(state, playing);
  if (change.message !== undefined) $("board-message").textContent = change.message;
  renderHintBox();
  if (playing) hideGameOver();
  else showGameOver(change.justEnded === true);
}

function dealText(state) {
  return state.deal !== null ? t("panel.deal", { deal: state.deal }) : t("panel.dealHidden");
}

function drawTable(state, playing, change) {
  board.render({
    cells: state.cells,
    legal: state.legal,
    card: state.card,
    interactive: playing,
    placed: change.placed ?? null,
    flyFrom: change.flyFrom ?? null,
    hint: hintBadges(),
  });
  renderHand(state.card);
  renderGauges(state.stock_left, state.face_down, state.max_face_down);
}

function renderControls(state, playing) {
  $("btn-undo").disabled = !(playing && state.can_undo);
  $("btn-redo").disabled = !(playing && state.can_redo);
  $("btn-hint").disabled = !playing;
  $("btn-restart").disabled = !(playing && state.turn > 0);
  $("actions").hidden = !playing;
  $("hand-help").hidden = !playing;
  $("hand-caption").textContent = t(playing ? "panel.toPlace" : "replay.nextCard");
  const dealLabel = $("deal-label");
  dealLabel.textContent = dealText(state);
  dealLabel.title = state.deal !== null ? "" : t("panel.dealHiddenNote");
  $("variant-tags").replaceChildren(...variantText(state.variant).map((text) => el("span", { class: "tag", text })));
}
