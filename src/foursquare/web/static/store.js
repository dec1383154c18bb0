// The page's one piece of shared state: the game as the server last sent it (docs/api.md, "The state
// object"). Other modules read it through these functions; only adopt() replaces it, and nothing edits
// it — the server is the only judge of the rules. What hangs off a game is kept by the module of that
// concern: the hint (hint.js) holds for one state version; the replay (replay.js) and the analysis
// (analysis.js) for one game, and view.js drops them when it shows another game.

let current = null;
let version = 0; // bumped whenever a new state arrives, so late answers (hints) for an older one are dropped
let busy = false;

/** The current game state, or null before the first one arrives. */
export const gameState = () => current;

export const stateVersion = () => version;

export const isPlaying = () => current !== null && current.outcome === "playing";

/** Whether a request that changes the game is under way (no other may start meanwhile). */
export const isBusy = () => busy;

/** Take a state from the server as the current one. */
export function adopt(state) {
  current = state;
  version += 1;
}

export function setBusy(value) {
  busy = value;
  document.body.dataset.busy = value ? "true" : "false";
}
