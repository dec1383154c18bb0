// @ts-check
// The page's shared state, all of it: the game as the server last sent it (docs/api.md, "The state object"),
// whether a request that changes it is under way, and which view the page shows. Other modules read them
// through these functions and change them only through adopt(), setBusy() and setView(); nothing edits the
// game — the server is the only judge of the rules. What hangs off a game is kept by the module of that
// concern, behind its own functions: the hint (hint.js) holds for one state version; the replay (replay.js)
// and the analysis (analysis.js) for one game, and view.js drops them when it shows another game.

/**
 * @typedef {import("./api.js").GameState} GameState
 * @typedef {"game" | "stats" | "rules" | "learn"} ViewName
 * @typedef {(state: GameState, previous: GameState | null) => void} StateListener
 */

/** @type {GameState | null} */
let current = null;
let version = 0; // bumped whenever a new state arrives, so late answers (hints) for an older one are dropped
let busy = false;
/** @type {ViewName | null} */
let view = null; // null until the first route is shown
/** @type {Set<StateListener>} */
const stateListeners = new Set();

/** The current game state, or null before the first one arrives. */
export const gameState = () => current;

/**
 * The current game state, for code that runs only once one has arrived (a game is shown, or playing).
 * @returns {GameState}
 */
export function currentGame() {
  if (current === null) throw new Error("no game state has arrived yet");
  return current;
}

export const stateVersion = () => version;

export const isPlaying = () => current !== null && current.outcome === "playing";

/** Whether a request that changes the game is under way (no other may start meanwhile). */
export const isBusy = () => busy;

/**
 * Take a state from the server as the current one (the caller then draws it).
 * @param {GameState} state
 */
export function adopt(state) {
  const previous = current;
  current = state;
  version += 1;
  for (const listener of stateListeners) listener(state, previous);
}

/**
 * Call `listener(state, previous)` each time a state is adopted.
 * @param {StateListener} listener
 */
export function onAdopt(listener) {
  stateListeners.add(listener);
}

/** @param {boolean} value */
export function setBusy(value) {
  busy = value;
  document.body.dataset.busy = value ? "true" : "false"; // for styles and tests
}

/** The view shown ("game", "stats", "rules" or "learn"). */
export const currentView = () => view;

/**
 * Note the view shown (routing.js shows it).
 * @param {ViewName} name
 */
export function setView(name) {
  view = name;
  document.body.dataset.view = name; // for styles and tests, as data-busy
}
