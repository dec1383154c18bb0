// @ts-check
// The replay of a finished game: any position of it, fetched from the server and drawn on the table,
// with the card placed (or the cells of a mistake) marked.

import { api } from "./api.js";
import { flipDuration } from "./cards.js";
import { placedSentence } from "./describe.js";
import { $, errorMessage, toast } from "./dom.js";
import { t } from "./i18n.js";
import { device, isDeviceGame } from "./offline.js";
import { currentGame, gameState } from "./store.js";
import { board, DECK, renderGauges, renderHand } from "./table.js";

/**
 * The replay of a game: the game's id, its number of moves, the position shown, the positions fetched.
 * @typedef {{id: string, total: number, turn: number, cache: Map<number, ReplayPosition>}} Replay
 * @typedef {import("./api.js").ReplayPosition} ReplayPosition
 * @typedef {import("./board.js").Marker} Marker
 */

/** @type {Replay | null} */
let replay = null;
let drawnTurn = -1; // the position drawn on the board last (#board's data-replay-turn), of whichever game
/** @type {Set<(turn: number) => void>} */
const drawnListeners = new Set();

/**
 * The replay of the current game, or null (while playing, or before the game over view opened it).
 * Its turn changes only through showReplay.
 * @returns {Readonly<Replay> | null}
 */
export function currentReplay() {
  return replayOfCurrentGame();
}

function replayOfCurrentGame() {
  const state = gameState();
  return replay !== null && state !== null && replay.id === state.id ? replay : null;
}

/** The turn of the replay's position drawn on the board last (-1 before any). */
export const drawnReplayTurn = () => drawnTurn;

/**
 * Call `listener(turn)` each time a position of the replay is drawn on the board; returns the function
 * that stops it.
 * @param {(turn: number) => void} listener
 */
export function onReplayDrawn(listener) {
  drawnListeners.add(listener);
  return () => {
    drawnListeners.delete(listener);
  };
}

/** Forget the replay (another game is shown: coming back to this one opens it afresh). */
export function closeReplay() {
  replay = null;
}

/**
 * Open the replay of the (finished) current game at its last position, once any flip has played.
 * @param {boolean} justEnded
 */
export function openReplay(justEnded) {
  const state = currentGame();
  if (currentReplay()) return;
  replay = { id: state.id, total: state.turn, turn: state.turn, cache: new Map() };
  const slider = $("replay-slider");
  slider.max = String(replay.total);
  slider.value = String(replay.turn);
  $("replay-caption").textContent = t("replay.position", { turn: replay.turn, total: replay.total });
  $("replay-marks").replaceChildren();
  const opened = replay;
  setTimeout(() => {
    if (currentReplay() === opened && opened.turn === opened.total) showReplay(opened.total);
  }, justEnded ? flipDuration() + 250 : 0);
}

export function updateReplayButtons() {
  const current = currentReplay();
  if (!current) return;
  const { turn, total } = current;
  $("replay-first").disabled = turn === 0;
  $("replay-prev").disabled = turn === 0;
  $("replay-next").disabled = turn >= total;
  $("replay-last").disabled = turn >= total;
  $("replay-slider").value = String(turn);
  $("replay-slider").setAttribute("aria-valuetext", turn === 0 ? t("replay.start") : t("replay.position", { turn, total }));
}

/**
 * @param {Replay} current
 * @param {number} turn
 */
async function position(current, turn) {
  const cached = current.cache.get(turn);
  if (cached) return cached;
  const answer = await (isDeviceGame(current.id) ? device : api).replay(current.id, turn);
  current.cache.set(turn, answer);
  return answer;
}

/**
 * Show the position after `turn` moves; `markers` ({row, col, kind, label}) replace the placed card's mark.
 * @param {number} turn
 * @param {Marker[]} [markers]
 */
export async function showReplay(turn, markers = []) {
  const current = replayOfCurrentGame();
  if (!current) return;
  turn = Math.max(0, Math.min(current.total, turn));
  current.turn = turn;
  updateReplayButtons();
  let shown;
  try {
    shown = await position(current, turn);
  } catch (error) {
    toast(errorMessage(error), "error");
    return;
  }
  if (currentReplay() !== current || current.turn !== turn) return; // another game or step was asked for meanwhile
  /** @type {Marker[]} */
  const placedMarker = shown.placed ? [{ row: shown.placed.row, col: shown.placed.col, kind: "placed", label: "" }] : [];
  if (turn !== current.total) board.stopCelebrating();
  board.render({
    cells: shown.cells,
    legal: [],
    card: null,
    interactive: false,
    markers: markers.length ? markers : placedMarker,
    frame: finalFrame(),
    area: currentGame().area,
  });
  drawnTurn = turn;
  $("board").dataset.replayTurn = String(turn); // for styles and tests
  for (const listener of drawnListeners) listener(turn);
  renderHand(shown.card);
  renderGauges(DECK - turn, shown.face_down, currentGame().max_face_down);
  $("replay-caption").textContent = caption(shown, turn, current.total);
}

/**
 * @param {ReplayPosition} shown
 * @param {number} turn
 * @param {number} total
 */
function caption(shown, turn, total) {
  if (turn === 0) return t("replay.start");
  const where = t("replay.position", { turn, total });
  if (!shown.placed) return where;
  return t("replay.caption", { position: where, placed: placedSentence(shown.placed, shown.flips ?? [], "replay.placed") });
}

/**
 * Step `delta` positions from the one shown.
 * @param {number} delta
 */
export function stepReplay(delta) {
  const current = currentReplay();
  if (current) showReplay(current.turn + delta);
}

/**
 * The extent of the final grid, which holds every cell the game ever used.
 * @returns {import("./board.js").Frame | undefined}
 */
export function finalFrame() {
  const cells = gameState()?.cells ?? [];
  if (cells.length === 0) return undefined;
  const rows = cells.map((c) => c.row);
  const cols = cells.map((c) => c.col);
  return { minRow: Math.min(...rows), maxRow: Math.max(...rows), minCol: Math.min(...cols), maxCol: Math.max(...cols) };
}

export function setupReplayButtons() {
  $("replay-first").addEventListener("click", () => showReplay(0));
  $("replay-prev").addEventListener("click", () => stepReplay(-1));
  $("replay-next").addEventListener("click", () => stepReplay(1));
  $("replay-last").addEventListener("click", () => showReplay(currentReplay()?.total ?? 0));
  $("replay-slider").addEventListener("input", (event) => showReplay(Number(/** @type {HTMLInputElement} */ (event.target).value)));
}
