// @ts-check
// The timer and move counter beside the game, when the settings turn them on (preferences.js). The time is the
// server's measure of a game (docs/api.md, best_time): from its creation (the state's created_at) to now, on this
// device's clock, while it is played; from its creation to its last move (updated_at) once it is over, as the server
// stamped them — the time the statistics count. The moves are the cards placed (the state's turn: an undo takes one
// back). view.js tells what it draws (renderClock), a move foreseen before the server's answer included.

import { $ } from "./dom.js";
import { intlLocale } from "./i18n.js";
import { clockOn, onPreferenceChange } from "./preferences.js";

/** @typedef {Pick<import("./api.js").GameState, "turn" | "outcome" | "created_at" | "updated_at">} Timed */

/** @type {Timed | null} the game drawn last */
let shown = null;
let ticker = 0;

/**
 * A duration as a clock shows it, in the page's language's digits: 0:07, 12:34, 1:02:03.
 * @param {number} seconds
 */
export function duration(seconds) {
  const whole = Math.max(0, Math.floor(seconds));
  const two = new Intl.NumberFormat(intlLocale(), { minimumIntegerDigits: 2, useGrouping: false });
  const one = new Intl.NumberFormat(intlLocale(), { useGrouping: false });
  const [hours, minutes, rest] = [Math.floor(whole / 3600), Math.floor(whole / 60) % 60, whole % 60];
  if (hours > 0) return `${one.format(hours)}:${two.format(minutes)}:${two.format(rest)}`;
  return `${one.format(minutes)}:${two.format(rest)}`;
}

/** @param {Timed} state */
function elapsed(state) {
  const end = state.outcome === "playing" ? Date.now() : Date.parse(state.updated_at);
  return (end - Date.parse(state.created_at)) / 1000;
}

function draw() {
  const box = $("game-clock");
  const on = clockOn() && shown !== null;
  box.hidden = !on;
  clearInterval(ticker);
  if (!on || shown === null) return;
  const state = shown;
  $("clock-moves").textContent = new Intl.NumberFormat(intlLocale()).format(state.turn);
  const tick = () => ($("clock-time").textContent = duration(elapsed(state)));
  tick();
  if (state.outcome === "playing") ticker = setInterval(tick, 1000);
}

/**
 * Show the timer and move counter of `state`, the game drawn (or hide them, while the settings do not ask for them).
 * @param {Timed} state
 */
export function renderClock(state) {
  shown = state;
  draw();
}

/**
 * The statistics' tiles of best times, the server's (docs/api.md), while the timer is on; a time is "none" while no
 * win is timed (the games of this device, shown without the server, never are).
 * @param {import("./api.js").Stats} stats
 * @param {string} none what a tile says while no win is timed
 * @returns {[string, string][]}
 */
export function bestTimeTiles(stats, none) {
  if (!clockOn()) return [];
  const time = (/** @type {number | null} */ seconds) => (seconds === null ? none : duration(seconds));
  return [
    ["bestTime", time(stats.best_time)],
    ["cleanBestTime", time(stats.clean.best_time)],
  ];
}

onPreferenceChange(draw);
