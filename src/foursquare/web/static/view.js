// @ts-check
// The game view: draws the whole page for the current state (the table, the buttons, the deal, the
// hint, game over). It reads the state; it never changes it.

import { forgetAnalysis } from "./analysis.js";
import { $, el } from "./dom.js";
import { t, variantText } from "./i18n.js";
import { hintBadges, renderHintBox } from "./hint.js";
import { isDeviceGame } from "./offline.js";
import { hideGameOver, showGameOver } from "./over.js";
import { closeReplay, currentReplay } from "./replay.js";
import { dealText, isMine, renderSharing } from "./share.js";
import { currentGame, isPlaying } from "./store.js";
import { board, renderGauges, renderHand, renderPendingHand } from "./table.js";
import { renderClock } from "./clock.js";
import { soundsFor } from "./sounds.js";

/** @typedef {import("./api.js").GameState} GameState */

/**
 * What the last request did, for drawing it (see renderGame).
 * @typedef {{placed?: {row: number, col: number} | null, flyFrom?: DOMRect | null, message?: string,
 *   justEnded?: boolean}} RenderChange
 */

/** @type {string | null} */
let drawnId = null; // the game the page shows: another one starts afresh (empty board, no replay, no analysis)

// A card to place can be placed only once it has been on screen this long. Without it, the second click of
// a double-click (or a click landing just as the next card appears) places a card the player never saw,
// and a finished game cannot be undone; sites guard their buttons against double-clicks the same way.
// A move shown before its answer (renderForeseen) shows no card to place: the next card's time starts when the
// answer draws it.
export const DEAD_TIME_MS = 250;

/** @type {{key: string | null, card: string | null, since: number}} */
let shown = { key: null, card: null, since: 0 }; // the card to place on screen, and since when
let armTimer = 0;

/**
 * Note the card to place now on screen; a new one (another game, turn or card) restarts the dead time.
 * @param {GameState} state
 * @param {boolean} playing
 */
function noteShownCard(state, playing) {
  const card = playing ? state.card : null;
  const key = card === null ? null : `${state.id} ${state.turn} ${card}`;
  if (key !== shown.key) shown = { key, card, since: performance.now() };
  // Mirrors the guard for styles and tests: "true" once the card can be placed. The same card drawn again (a move
  // shown before its answer, then refused: renderForeseen) is the card seen before, its time already run.
  disarm();
  const left = DEAD_TIME_MS - (performance.now() - shown.since);
  if (key !== null && left <= 0) $("board").dataset.armed = "true";
  else if (key !== null) armTimer = setTimeout(() => ($("board").dataset.armed = "true"), left);
}

/** No card can be placed now (the board says so until noteShownCard arms it). */
function disarm() {
  clearTimeout(armTimer);
  $("board").dataset.armed = "false";
}

const TOO_SOON_MS = 650; // how long a tap that came too soon is shown
/** @type {Set<HTMLElement>} */
const tooSoon = new Set();
let tooSoonTimer = 0;

/**
 * A tap on (row, col) came too soon, before the card to place had been seen (or while a move was under way),
 * and was ignored: say so where the player looks, so it does not pass for a tap the page missed. The
 * tapped cell shows "wait" and the card to place is ringed: that is the card the next tap will place; the
 * board's caption says why (`say`, a catalogue key), for the eye and for screen readers.
 * @param {number} row
 * @param {number} col
 * @param {string} say
 */
export function showTooSoon(row, col, say) {
  $("board-message").textContent = t(say);
  const elements = [board.slotFor(row, col), $("hand-card")];
  for (const element of elements) {
    if (!element) continue;
    element.classList.remove("too-soon");
    void element.offsetWidth; // restart its animation
    element.classList.add("too-soon");
    tooSoon.add(element);
  }
  clearTimeout(tooSoonTimer);
  tooSoonTimer = setTimeout(() => {
    for (const element of tooSoon) element.classList.remove("too-soon");
    tooSoon.clear();
  }, TOO_SOON_MS);
}

/** The card to place if the player has seen it (on screen for DEAD_TIME_MS at least), else null. */
export function seenCard() {
  if (shown.card === null || performance.now() - shown.since < DEAD_TIME_MS) return null;
  return shown.card;
}

/**
 * Draw the game view from the current state; `change` says what the last request did: placed
 * ({row, col}), flyFrom (the rectangle the card flies in from), message (for the board's caption),
 * justEnded (this request ended the game).
 * @param {RenderChange} [change]
 */
export function renderGame(change = {}) {
  const state = currentGame();
  if (state.id !== drawnId) {
    drawnId = state.id;
    board.clear();
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
  noteShownCard(state, playing);
  $("board").dataset.turn = String(state.turn);
  if (keepFocus && playing) board.focus();
  renderControls(state, playing);
  if (change.message !== undefined) $("board-message").textContent = change.message;
  renderHintBox();
  if (playing) hideGameOver();
  else showGameOver(change.justEnded === true);
  soundsFor(state, change);
  renderClock(state);
}

/**
 * Draw a move before the server's answer (game.js): `state`, what the rules foresee of it (predict.js), with
 * the card placed and every card it turned, and no card to place yet — the hand shows the next one pending.
 * The store keeps the server's state meanwhile: the answer is drawn with renderGame, as any state. The legal
 * cells stay clickable, so a tap meanwhile is shown to be too soon (game.js place).
 * @param {GameState} state
 * @param {RenderChange} change
 */
export function renderForeseen(state, change) {
  const view = $("view-game");
  view.dataset.turn = String(state.turn);
  $("board").dataset.turn = String(state.turn);
  const keepFocus = board.hasFocus();
  board.render({
    cells: state.cells,
    legal: state.outcome === "playing" ? state.legal : [],
    card: null,
    interactive: true,
    placed: change.placed ?? null,
    flyFrom: change.flyFrom ?? null,
    area: state.area,
  });
  renderPendingHand(t("move.pending"));
  renderGauges(state.stock_left, state.face_down, state.max_face_down);
  disarm(); // no card to place until the answer shows the next (or, refused, the same again)
  if (keepFocus) board.focus();
  if (change.message !== undefined) $("board-message").textContent = change.message;
  soundsFor(state, change);
  renderClock(state);
}

/**
 * @param {GameState} state
 * @param {boolean} playing
 * @param {RenderChange} change
 */
function drawTable(state, playing, change) {
  board.render({
    cells: state.cells,
    legal: state.legal,
    card: state.card,
    interactive: playing && isMine(state),
    placed: change.placed ?? null,
    flyFrom: change.flyFrom ?? null,
    hint: hintBadges(),
    area: state.area,
  });
  renderHand(state.card);
  renderGauges(state.stock_left, state.face_down, state.max_face_down);
}

/**
 * @param {GameState} state
 * @param {boolean} playing
 */
function renderControls(state, playing) {
  $("btn-undo").disabled = !(playing && state.can_undo);
  $("btn-redo").disabled = !(playing && state.can_redo);
  $("btn-hint").disabled = !playing;
  $("offline-tag").hidden = !isDeviceGame(state.id); // a game of this device says so
  $("btn-restart").disabled = !(playing && state.turn > 0);
  $("actions").hidden = !playing || !isMine(state);
  $("hand-help").hidden = !playing || !isMine(state);
  renderSharing(state, playing);
  $("hand-caption").textContent = t(playing ? "panel.toPlace" : "replay.nextCard");
  const dealLabel = $("deal-label");
  dealLabel.textContent = dealText(state);
  $("game-title").textContent = dealText(state); // the view's one h1, for screen readers
  dealLabel.title = state.deal !== null ? "" : t("panel.dealHiddenNote");
  $("variant-tags").replaceChildren(...variantText(state.variant).map((text) => el("span", { class: "tag", text })));
}
