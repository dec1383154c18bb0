// @ts-check
// Keeping the page in step with the server. While the server cannot be reached, a neutral banner says so
// (api.js notices it and keeps asking; the banner clears itself when the server answers again). And a tab
// that comes back into view, or whose server answers again, asks for its game again: if it changed
// elsewhere (a move made in another tab), the page shows it as it now is and says so, rather than refusing
// the player's next click.

import { api, onReachability } from "./api.js";
import { $, toast } from "./dom.js";
import { catchUpNotice, loadGame } from "./game.js";
import { t } from "./i18n.js";
import { isDeviceGame } from "./offline.js";
import { route } from "./routing.js";
import { currentView, gameState, isBusy } from "./store.js";

/** @param {boolean} reachable */
function showReachability(reachable) {
  const banner = $("offline-banner");
  banner.textContent = reachable ? "" : t("connection.lost");
  banner.hidden = reachable;
  // Back: show what could not be fetched meanwhile (a page opened offline has no game yet, a server's game waited,
  // the statistics showed this device's games only), or catch up.
  if (reachable) {
    if (gameState() && $("no-game").hidden && currentView() !== "stats") refreshIfStale();
    else route();
  }
}

/**
 * What a player sees of a game, to tell whether it changed: its position, card and what may be done.
 * @param {import("./api.js").GameState} state
 */
function position(state) {
  const { turn, card, cells, outcome, can_undo: canUndo, can_redo: canRedo } = state;
  return JSON.stringify({ turn, card, cells, outcome, canUndo, canRedo });
}

/** Fetch the game shown; if it is not what the page shows, show it as it is and say so. */
async function refreshIfStale() {
  const shown = gameState();
  // (A game of this device is kept here: nothing to catch up with.)
  if (!shown || isDeviceGame(shown.id) || currentView() !== "game" || isBusy()) return;
  let fresh;
  try {
    fresh = await api.getGame(shown.id);
  } catch {
    return; // unreachable: the banner says so; anything else is told when the player acts
  }
  // Only if nothing happened meanwhile (the player acted, or another game is shown).
  if (gameState() !== shown || isBusy() || position(fresh) === position(shown)) return;
  await loadGame(shown.id);
  toast(t(catchUpNotice(fresh)), "info"); // a move whose answer was lost (game.js) may be what changed
}

export function setupConnection() {
  onReachability(showReachability);
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") refreshIfStale();
  });
}
