// Keyboard shortcuts of the game view: U undo, R redo, H hint, N new game, Ctrl+Z / Ctrl+Shift+Z / Ctrl+Y;
// after the game the arrow keys, Home and End step through the replay.

import { currentReplay, showReplay, stepReplay } from "./replay.js";
import { currentView } from "./routing.js";
import { isPlaying } from "./store.js";

const REPLAY_KEYS = {
  ArrowLeft: () => stepReplay(-1),
  ArrowRight: () => stepReplay(1),
  Home: () => showReplay(0),
  End: () => showReplay(currentReplay().total),
};

function typingIn(target) {
  return target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement || target.isContentEditable;
}

/** The action a key stands for, or null. `actions`: {undo, redo, hint, newGame}. */
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
  return { u: actions.undo, r: actions.redo, h: actions.hint }[key] ?? null;
}

export function setupShortcuts(actions) {
  document.addEventListener("keydown", (event) => {
    if (document.querySelector("dialog[open]") || typingIn(event.target) || currentView() !== "game") return;
    const action = actionFor(event, actions);
    if (!action) return;
    event.preventDefault();
    action();
  });
}
