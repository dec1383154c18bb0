// @ts-check
// On a narrow screen the result of a finished game sits below the board, out of sight: when the game
// shown ends, bring the result into view (after the last card has turned over).

import { flipDuration } from "./cards.js";
import { $ } from "./dom.js";
import { reducedMotion } from "./settings.js";
import { onAdopt } from "./store.js";

// The width below which the side panel goes under the board (style.css, "small screens").
const NARROW = window.matchMedia("(max-width: 860px)");

function reveal() {
  if (!NARROW.matches || $("over").hidden) return;
  $("over").scrollIntoView({ behavior: reducedMotion() ? "auto" : "smooth", block: "start" });
}

/** Watch the states adopted (each is drawn at once) for the game shown ending while it is shown. */
export function setupReveal() {
  onAdopt((state, previous) => {
    const ended = previous?.id === state.id && previous.outcome === "playing" && state.outcome !== "playing";
    if (ended) setTimeout(reveal, flipDuration() + 200);
  });
}
