// @ts-check
// Sending this device's games to the server (docs/api.md, "Games played offline"). Once the server answers, each
// game played here — finished or not, a card placed at least — goes to POST /api/offline-games with its record,
// and again after each change while it is played on. The server replays it and stores it once, however often it
// is sent; a game over that it stored is then forgotten here (the server lists it, with "offline": true), unless
// the page shows it. A game the server refuses (422 bad_record, 409 offline_conflict) stays on this device, is not
// sent again, and the page says why; any other failure (no answer, busy, past a limit) waits for the next time.

import { ApiError, api, onReachability, serverReachable } from "./api.js";
import { toast } from "./dom.js";
import { t } from "./i18n.js";
import { deviceRecords, forget, markRefused, markSent, onDeviceChange } from "./offline.js";
import { gameState } from "./store.js";

/** The server's refusals of a game itself: sending it again would be refused again. */
const REFUSALS = ["bad_record", "offline_conflict", "bad_request"];

/** @type {Promise<void> | null} */
let sending = null;
let again = false;

/** Send every game of this device the server does not hold as it is (one round at a time; a call meanwhile asks
 * for another round after it). */
export function sendDeviceGames() {
  if (sending) {
    again = true;
    return sending;
  }
  sending = sendAll().finally(() => {
    sending = null;
    if (again) {
      again = false;
      sendDeviceGames();
    }
  });
  return sending;
}

async function sendAll() {
  let games;
  try {
    games = await deviceRecords();
  } catch {
    return; // no IndexedDB here: no game of this device either
  }
  for (const game of games) {
    const moves = JSON.stringify(game.record.moves);
    if (game.refused || game.record.moves.length === 0) continue;
    if (game.sent !== moves) {
      try {
        await api.sendOfflineGame(game.id, game.record);
      } catch (error) {
        if (!(error instanceof ApiError && REFUSALS.includes(error.code))) return;
        await markRefused(game.id, error.code);
        toast(t(`error.code.${error.code === "bad_request" ? "bad_record" : error.code}`), "error");
        continue;
      }
      await markSent(game.id, moves);
    }
    if (game.outcome !== "playing" && gameState()?.id !== game.id) await forget(game.id);
  }
}

export function setupSync() {
  onReachability((reachable) => {
    if (reachable) sendDeviceGames();
  });
  onDeviceChange(() => {
    if (serverReachable()) sendDeviceGames();
  });
  sendDeviceGames();
}
