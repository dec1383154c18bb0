// @ts-check
// The game actions: load, start, place, undo, redo, restart, hint. Each asks the server, adopts the
// state it answers with and redraws; a refused request is told in the catalogue's words for its code.
// Only the player's own game is played here: another player's is shown read-only (share.js).
// A move of a server's game shows at once: the page's copy of the rules foresees the card placed and every card it
// turns (predict.js), drawn in the next frame while the server is asked; its answer, which says the next card, is
// what the page shows in the end, and a refusal shows the server's position instead.
// While the server cannot be reached, a new game is dealt and played on this device instead (offline.js,
// which answers as the server does, with the page's own copy of the rules); such a game stays on the device.

import { api, ApiError, serverReachable } from "./api.js";
import { placedSentence, takenBackSentence } from "./describe.js";
import { dayEnd, localTime } from "./daily.js";
import { confirm } from "./dialogs.js";
import { $, errorMessage, storage, toast } from "./dom.js";
import { t } from "./i18n.js";
import { forgetHint, hintAnnouncement, hintAnswered, hintAsked, renderHintBox } from "./hint.js";
import { device, isDeviceGame } from "./offline.js";
import { foresee } from "./predict.js";
import { isMine, showAssisted, showNoGame } from "./share.js";
import { adopt, currentGame, gameState, isBusy, isPlaying, setBusy, stateVersion } from "./store.js";
import { board } from "./table.js";
import { renderForeseen, renderGame, seenCard, showTooSoon } from "./view.js";

/**
 * @typedef {import("./api.js").GameState} GameState
 * @typedef {import("./api.js").NewGameOptions} NewGameOptions
 * @typedef {import("./view.js").RenderChange} RenderChange
 */

const STORAGE_GAME = "fs.game";
const STORAGE_KIND = "fs.gameKind";

let loadToken = 0; // only the latest load may show its game

/**
 * Who keeps the game `id`: this device (offline.js) or the server (api.js), which answer alike.
 * @param {string} id
 */
const keeper = (id) => (isDeviceGame(id) ? device : api);

/** @param {unknown} error */
const unreachable = (error) => error instanceof ApiError && error.status === 0;

/** The id of the game this browser played last, if any. */
export const rememberedGame = () => storage(STORAGE_GAME);

/**
 * What to ask for to deal another game of the kind of `state`: its house rules and its kind of deal (the same
 * number if it shows one, today's daily deal, a winnable or a random deal).
 * @param {GameState} state
 * @returns {NewGameOptions}
 */
function kindOf(state) {
  if (state.daily) return { variant: state.variant, daily: true };
  if (state.winnable) return { variant: state.variant, winnable: true };
  const { variant, deal, outcome } = state;
  return deal !== null && outcome === "playing" ? { variant, deal: String(deal) } : { variant };
}

/** The kind of the game this browser played last (see kindOf), as remembered; a random deal if none is. */
function rememberedKind() {
  try {
    const kind = JSON.parse(storage(STORAGE_KIND) ?? "{}");
    /** @type {NewGameOptions} */
    const options = {};
    const { adjacency, count_buried: buried } = kind.variant ?? {};
    if (["orthogonal", "diagonal"].includes(adjacency) && typeof buried === "boolean") {
      options.variant = { adjacency, count_buried: buried };
    }
    if (kind.daily === true) options.daily = true;
    else if (kind.winnable === true) options.winnable = true;
    else if (typeof kind.deal === "string" && /^[0-9]{1,20}$/.test(kind.deal)) options.deal = kind.deal;
    return options;
  } catch {
    return {}; // not JSON (written by hand?): a random deal
  }
}

/**
 * Remember `state` as the game this browser plays (in localStorage), or forget it (null).
 * @param {GameState | null} state
 */
function remember(state) {
  storage(STORAGE_GAME, state && state.id);
  storage(STORAGE_KIND, state && JSON.stringify(kindOf(state)));
}

const WATCH_MS = 4000; // how often another player's live game is fetched again while it is shown
let watchTimer = 0;

/**
 * Show `state`, a game the server sent, and remember it (in the URL, and in localStorage if it is ours).
 * @param {GameState} state
 * @param {RenderChange} [change]
 */
function showGame(state, change = {}) {
  adopt(state);
  if (isMine(state)) remember(state);
  const target = `#/game/${state.id}`;
  if (location.hash !== target) history.replaceState(null, "", target);
  renderGame(change);
  watch(state);
}

/**
 * Follow another player's live game: fetch it again every WATCH_MS while it is the game on screen.
 * @param {GameState} state
 */
function watch(state) {
  clearTimeout(watchTimer);
  if (isMine(state) || state.outcome !== "playing") return;
  watchTimer = setTimeout(async () => {
    const shown = () => gameState()?.id === state.id && location.hash === `#/game/${state.id}` && !document.hidden;
    if (!shown() || isBusy()) return watch(state);
    try {
      const now = await api.getGame(state.id);
      if (!shown()) return watch(state);
      if (now.updated_at !== currentGame().updated_at) showGame(now, { message: "" });
      else watch(state);
    } catch {
      watch(state); // a failed look is tried again; the page says nothing about it
    }
  }, WATCH_MS);
}

/**
 * Run `call` as the one request under way; a refusal is told, and a 409 shows the game as it now is.
 * @param {() => Promise<void>} call
 */
async function act(call) {
  setBusy(true);
  try {
    await call();
  } catch (error) {
    await refused(error);
  } finally {
    setBusy(false);
  }
}

/** @param {unknown} error */
async function refused(error) {
  const shown = gameState();
  // The player's own game is gone: the server removes a game left unplayed (or untouched) too long.
  if (error instanceof ApiError && error.code === "unknown_game" && shown && isMine(shown)) {
    toast(t("notice.expired"), "info");
    await replaceGone(shown.id, kindOf(shown));
    return;
  }
  // A game moved on elsewhere (another tab) is no fault of the player: say so neutrally, and catch up.
  // An unreachable server is told by the banner of connection.js, not by an error on top of it.
  const stale = error instanceof ApiError && error.code === "stale_turn";
  if (!(error instanceof ApiError && error.status === 0)) {
    toast(stale ? t("notice.stale") : errorMessage(error), stale ? "info" : "error");
  }
  if (error instanceof ApiError && error.status === 409 && shown) {
    try {
      showGame(await keeper(shown.id).getGame(shown.id), { message: "" });
    } catch (again) {
      toast(errorMessage(again), "error");
    }
  }
}

/**
 * Show the game `id`. An unknown id shows "no such game" and creates nothing — unless it is the game this
 * browser played last, gone from the server (which removes a game left unplayed too long), or `orNew` (the
 * start page's): then a new game of its kind is dealt in its place.
 * @param {string} id
 * @param {{orNew?: boolean}} [how]
 */
export async function loadGame(id, { orNew = false } = {}) {
  const token = ++loadToken;
  setBusy(true);
  try {
    const state = await keeper(id).getGame(id);
    if (token === loadToken) showGame(state, { message: "" });
  } catch (error) {
    if (token !== loadToken) return;
    if (error instanceof ApiError && error.code === "unknown_game") {
      if (orNew || rememberedGame() === id) await replaceGone(id, rememberedKind());
      else showNoGame();
    } else if (unreachable(error) && orNew) {
      // The start page, with the server out of reach: a game of this device, of the kind played last.
      const { variant, deal } = rememberedKind();
      await startNewGame({ variant, deal }, { replace: true });
    } else if (unreachable(error)) {
      // The banner says that the server cannot be reached; the page shows this game once it answers.
      showNoGame("offline.serverGame", "offline.serverGameTitle");
    } else {
      toast(errorMessage(error), "error");
    }
  } finally {
    if (token === loadToken) setBusy(false);
  }
}

/**
 * The player's game `id` is gone from the server: forget it, and deal a new game of `kind` in its place.
 * @param {string} id
 * @param {NewGameOptions} kind
 */
async function replaceGone(id, kind) {
  if (rememberedGame() === id) remember(null);
  await startNewGame(kind, { replace: true });
}

/**
 * Deal a new game (options: {deal?, variant?, daily?, winnable?, like?}, see api.js); `replace` replaces the
 * history entry instead of adding one. Today's daily deal, asked again, is the game already started.
 * @param {NewGameOptions} options
 * @param {{replace?: boolean}} [how]
 */
export async function startNewGame(options, { replace = false } = {}) {
  setBusy(true);
  if (options.winnable) $("board-message").textContent = t("new.findingWinnable");
  try {
    const state = await dealt(options);
    if (state === null) return;
    if (replace) history.replaceState(null, "", `#/game/${state.id}`);
    else history.pushState(null, "", `#/game/${state.id}`);
    showGame(state, { message: "" });
    if (state.daily && state.outcome !== "playing") {
      toast(t("new.dailyDone", { time: localTime(dayEnd(state.daily), { timeOnly: true }) }));
    }
    board.focus();
  } catch (error) {
    if (!unreachable(error)) toast(errorMessage(error), "error");
  } finally {
    setBusy(false);
  }
}

/**
 * A new game as `options` ask: the server's, or while the server cannot be reached a game of this device (a
 * random deal drawn here, or the deal of the number asked for). The daily deal, a winnable deal (the server
 * finds one) and another player's deal need the server: without it, the page says so and the answer is null.
 * @param {NewGameOptions} options
 * @returns {Promise<GameState | null>}
 */
async function dealt(options) {
  const needsServer = Boolean(options.daily || options.winnable || options.like);
  const onDevice = async () => {
    const state = await device.newGame({ deal: options.deal ?? null, variant: options.variant ?? null });
    toast(t("offline.started"), "info");
    return state;
  };
  if (!needsServer && !serverReachable()) return onDevice();
  try {
    return await api.newGame(options);
  } catch (error) {
    if (!unreachable(error)) throw error;
    if (!needsServer) return onDevice();
    if (options.like) throw error; // the banner says it
    const key = options.daily ? "offline.dailyNeeds" : "offline.winnableNeeds";
    $("board-message").textContent = "";
    if (gameState() && $("no-game").hidden) toast(t(key), "info");
    else showNoGame(key, options.daily ? "new.daily" : "new.winnable");
    return null;
  }
}

/**
 * Place the card at (row, col); `fly` animates it from the hand (not after a drag: it is already there).
 * Every way of placing (click, tap, drag, keyboard) comes here, and this is its one guard: nothing while a
 * request is under way, nor before the card to place has been seen (view.js, DEAD_TIME_MS); such a tap is
 * not kept for later (it would place a card not yet seen) but shown to be ignored. The move names
 * that card, so the server refuses it (wrong_card) if the game has another one to place.
 * @param {number} row
 * @param {number} col
 * @param {{fly?: boolean}} [how]
 */
export async function place(row, col, { fly = true } = {}) {
  const card = seenCard();
  if (!isPlaying() || !isMine(gameState())) return;
  if (isBusy() || card === null) {
    // Ignored, and shown and said to be: the next card is still on its way, or only just appeared.
    const pending = $("hand-card").dataset.pending === "true";
    showTooSoon(row, col, !isBusy() ? "move.tooSoon" : pending ? "move.pending" : "busy.waiting");
    return;
  }
  const before = currentGame();
  const handCard = $("hand-card").querySelector(".card");
  const flyFrom = fly && handCard ? handCard.getBoundingClientRect() : null;
  const foreseen = isDeviceGame(before.id) ? null : foresee(before, row, col);
  if (foreseen) {
    await placeForeseen(before, card, foreseen, flyFrom);
    return;
  }
  await act(async () => {
    const result = await keeper(before.id).move(before.id, row, col, before.turn, card);
    adopt(result);
    renderGame({ placed: result.placed, flyFrom, message: "", justEnded: result.outcome !== "playing" });
    $("board-message").textContent = placedSentence(result.placed, result.flips ?? []);
  });
}

/**
 * The move of a server's game foreseen by the rules (`foreseen`, predict.js): drawn at once, the server asked
 * meanwhile. Its answer shows the next card (from then on the card's dead time runs, view.js). A refusal is told
 * and shows the server's position (refused); an answer lost on the way (the request went, no answer came back)
 * asks the server for the game, and says whether the move was made (see lostAnswer).
 * @param {GameState} before
 * @param {string} card
 * @param {import("./predict.js").Foreseen} foreseen
 * @param {DOMRect | null} flyFrom
 */
async function placeForeseen(before, card, foreseen, flyFrom) {
  const { row, col } = foreseen.placed;
  const said = placedSentence(foreseen.placed, foreseen.flips);
  setBusy(true);
  try {
    renderForeseen(foreseen.state, { placed: foreseen.placed, flyFrom, message: said });
    let result;
    try {
      result = await api.move(before.id, row, col, before.turn, card);
    } catch (error) {
      if (gameState() !== before) return; // another game was shown meanwhile: it is not this one's to draw
      if (unreachable(error)) await lostAnswer(before, foreseen);
      else {
        await refused(error);
        if (gameState() === before) renderGame({ message: "" }); // the server's position, as it last sent it
      }
      return;
    }
    if (gameState() !== before) return;
    adopt(result);
    renderGame({ justEnded: result.outcome !== "playing" });
    const sentence = placedSentence(result.placed, result.flips ?? []);
    if ($("board-message").textContent !== sentence) $("board-message").textContent = sentence;
  } finally {
    setBusy(false);
  }
}

/**
 * What the page knows of a position, to compare two: its turn and its piles.
 * @param {Pick<GameState, "turn" | "cells">} state
 */
const positionText = ({ turn, cells }) =>
  JSON.stringify({ turn, cells: [...cells].sort((a, b) => a.row - b.row || a.col - b.col) });

/** @type {{id: string, before: string, made: string} | null} a move whose answer was lost, the server unreachable */
let unanswered = null;

/**
 * The notice for `fresh`, the game shown as the server now has it (connection.js catches up with it): that the
 * move whose answer was lost was made, if it is just that move; else that the game changed elsewhere.
 * @param {GameState} fresh
 */
export function catchUpNotice(fresh) {
  const lost = unanswered;
  unanswered = null;
  return lost && lost.id === fresh.id && lost.made === positionText(fresh) ? "move.answerLost" : "notice.stale";
}

/**
 * The move foreseen got no answer (the server out of reach, or the answer lost on the way): ask the server for
 * the game and show it, saying whether the move was made (the server's turn advanced by exactly that move), was
 * not (nothing changed: play it again), or the game changed otherwise. With no answer again, the page shows the
 * game as the server last sent it, the banner says the server cannot be reached, and once it answers
 * connection.js catches up, with catchUpNotice's words.
 * @param {GameState} before
 * @param {import("./predict.js").Foreseen} foreseen
 */
async function lostAnswer(before, foreseen) {
  const made = positionText(foreseen.state);
  let fresh;
  try {
    fresh = await api.getGame(before.id);
  } catch {
    if (gameState() !== before) return;
    unanswered = { id: before.id, before: positionText(before), made };
    renderGame({ message: "" });
    return;
  }
  if (gameState() !== before) return;
  unanswered = null;
  const now = positionText(fresh);
  const notice = now === made ? "move.answerLost" : now === positionText(before) ? "move.notSent" : "notice.stale";
  toast(t(notice), "info");
  // (The caption that said what the move did stays, if it was made.)
  showGame(fresh, { message: notice === "move.answerLost" ? undefined : "", justEnded: fresh.outcome !== "playing" });
}

/**
 * Ask for `call` (undo, redo, restart) and show its answer; `say` is the board's caption for it, or makes it
 * from the states before and after (the caption is a live region: screen readers hear what happened).
 * @param {import("./api.js").GameChange} call
 * @param {string | ((before: GameState, after: GameState) => string)} [say]
 */
async function change(call, say = "") {
  if (!isMine(gameState()) || isBusy()) return;
  await act(async () => {
    const before = currentGame();
    const after = await call(before.id);
    adopt(after);
    renderGame({ message: typeof say === "string" ? say : say(before, after) });
  });
}

export const undo = () =>
  isPlaying() &&
  currentGame().can_undo &&
  change((id) => keeper(id).undo(id), (before, after) => takenBackSentence("undo", before, after));

export const redo = () =>
  isPlaying() &&
  currentGame().can_redo &&
  change((id) => keeper(id).redo(id), (before, after) => takenBackSentence("redo", before, after));

export async function restart() {
  if (!isPlaying() || !isMine(gameState()) || currentGame().turn === 0) return;
  if (await confirm(t("action.restartConfirm"))) await change((id) => keeper(id).restart(id), t("toast.restarted"));
}

export async function requestHint() {
  if (!isPlaying() || !isMine(gameState()) || isBusy()) return;
  const { id, turn } = currentGame();
  const version = stateVersion();
  hintAsked();
  renderHintBox();
  try {
    // A game of this device is ranked on it (policy.js), as the server would rank it.
    const answer = await keeper(id).hint(id);
    if (stateVersion() !== version || answer.turn !== turn) return;
    hintAnswered(version, answer.moves ?? []);
    renderGame({});
    // The server marked its game assisted, and its next state will say so too (a game of this device is never
    // clean: its tag says why).
    if (!isDeviceGame(id)) showAssisted();
    const announcement = hintAnnouncement();
    if (announcement) $("board-message").textContent = announcement;
  } catch (error) {
    if (stateVersion() !== version) return;
    forgetHint();
    renderHintBox();
    await refused(error);
  }
}

/**
 * A fresh game of the deal shown (another player's finished game, a hidden number staying hidden), for this
 * player. Never of a live game: its copy would show the cards still to come (the server refuses it too).
 */
export async function playThisDeal() {
  const state = gameState();
  if (state && state.outcome !== "playing" && !isBusy()) await startNewGame({ like: state.id });
}
