// On a narrow screen the result of a finished game sits below the board, out of sight: when the game
// shown ends, bring the result into view (after the last card has turned over).

import { flipDuration } from "./cards.js";
import { $ } from "./dom.js";
import { reducedMotion } from "./settings.js";
import { gameState } from "./store.js";

// The width below which the side panel goes under the board (style.css, "small screens").
const NARROW = window.matchMedia("(max-width: 860px)");

function reveal() {
  if (!NARROW.matches || $("over").hidden) return;
  $("over").scrollIntoView({ behavior: reducedMotion() ? "auto" : "smooth", block: "start" });
}

/** Watch the game view's outcome (view.js sets data-outcome) for the game shown ending while it is shown. */
export function setupReveal() {
  let shown = null; // {id, outcome} of the game last drawn
  new MutationObserver(() => {
    const state = gameState();
    if (!state) return;
    const ended = shown?.id === state.id && shown.outcome === "playing" && state.outcome !== "playing";
    shown = { id: state.id, outcome: state.outcome };
    if (ended) setTimeout(reveal, flipDuration() + 200);
  }).observe($("view-game"), { attributes: true, attributeFilter: ["data-outcome", "data-turn"] });
}
