// @ts-check
// Keyboard shortcuts of the game view: U undo, R redo, H hint, N new game, Ctrl+Z / Ctrl+Shift+Z / Ctrl+Y;
// after the game the arrow keys, Home and End step through the replay.

import { currentReplay, showReplay, stepReplay } from "./replay.js";
import { currentView, isPlaying } from "./store.js";

/**
 * @typedef {() => unknown} Action
 * @typedef {{undo: Action, redo: Action, hint: Action, newGame: Action}} Actions
 */

/** @type {Record<string, Action>} */
const REPLAY_KEYS = {
  ArrowLeft: () => stepReplay(-1),
  ArrowRight: () => stepReplay(1),
  Home: () => showReplay(0),
  End: () => showReplay(/** @type {import("./replay.js").Replay} */ (currentReplay()).total), // keys of a replay shown
};

/** @param {EventTarget | null} target */
function typingIn(target) {
  return (
    target instanceof HTMLInputElement ||
    target instanceof HTMLTextAreaElement ||
    /** @type {HTMLElement} */ (target).isContentEditable
  );
}

/**
 * The action a key stands for, or null. `actions`: {undo, redo, hint, newGame}.
 * @param {KeyboardEvent} event
 * @param {Actions} actions
 * @returns {Action | null}
 */
function actionFor(event, actions) {
  const key = event.key.toLowerCase();
  if (event.ctrlKey || event.metaKey) {
    if (key === "z" && !event.shiftKey) return actions.undo;
    if ((key === "z" && event.shiftKey) || key === "y") return actions.redo;
    return null;
  }
  if (event.altKey) return null;
  if (key === "n") return actions.newGame;
  if (currentReplay() && !isPlaying()) return REPLAY_KEYS[event.key] ?? null;
  /** @type {Record<string, Action>} */
  const letters = { u: actions.undo, r: actions.redo, h: actions.hint };
  return letters[key] ?? null;
}

/** @param {Actions} actions */
export function setupShortcuts(actions) {
  document.addEventListener("keydown", (event) => {
    if (document.querySelector("dialog[open]") || typingIn(event.target) || currentView() !== "game") return;
    const action = actionFor(event, actions);
    if (!action) return;
    event.preventDefault();
    action();
  });
}
