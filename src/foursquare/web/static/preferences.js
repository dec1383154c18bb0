// @ts-check
// What solitaire players expect, each off until chosen in the settings and remembered in this browser (localStorage,
// as the other settings are; the settings do not travel with an account):
//   fs.sound "on"                  sound effects: placing, turning over, winning (sounds.js)
//   fs.clock "on"                  a timer and move counter beside the game, and best times in the statistics (clock.js)
//   fs.back  "red" | "green" | "grey"   the card back; absent: blue
//   fs.table "blue" | "red" | "grey"    the table's colour; absent: green
// The card back and the table are data-back and data-table on <html> (theme-init.js sets them before the first
// paint), which preferences.css styles.

import { $, radios, storage } from "./dom.js";

export const BACKS = ["blue", "red", "green", "grey"];
export const TABLES = ["green", "blue", "red", "grey"];
const STORAGE_SOUND = "fs.sound";
const STORAGE_CLOCK = "fs.clock";
const STORAGE_BACK = "fs.back";
const STORAGE_TABLE = "fs.table";
const KEYS = [STORAGE_SOUND, STORAGE_CLOCK, STORAGE_BACK, STORAGE_TABLE];

/** Whether the page plays its sound effects. */
export const soundOn = () => storage(STORAGE_SOUND) === "on";

/** Whether the page shows the timer and move counter, and best times in the statistics. */
export const clockOn = () => storage(STORAGE_CLOCK) === "on";

/**
 * The stored choice among `choices`, the first (the default) when none or another is stored.
 * @param {string} key
 * @param {string[]} choices
 */
function chosen(key, choices) {
  const stored = storage(key);
  return stored !== null && choices.includes(stored) ? stored : choices[0];
}

/** @type {Set<() => void>} */
const listeners = new Set();

/**
 * Call `listener` whenever a preference changes (here, or in another tab of this browser).
 * @param {() => void} listener
 */
export function onPreferenceChange(listener) {
  listeners.add(listener);
}

function apply() {
  const root = document.documentElement;
  root.dataset.back = chosen(STORAGE_BACK, BACKS);
  root.dataset.table = chosen(STORAGE_TABLE, TABLES);
  for (const listener of listeners) listener();
}

/** @param {HTMLFormElement} form */
function fill(form) {
  radios(form, "back").value = chosen(STORAGE_BACK, BACKS);
  radios(form, "table").value = chosen(STORAGE_TABLE, TABLES);
  $("settings-sound").checked = soundOn();
  $("settings-clock").checked = clockOn();
}

/**
 * Wire the preferences' controls of the settings dialog (settings.js opens it): a change applies at once.
 * @param {HTMLFormElement} form
 */
export function setupPreferences(form) {
  apply();
  $("btn-settings").addEventListener("click", () => fill(form));
  /** @type {[string, string, string[]][]} */
  const choices = [
    ["back", STORAGE_BACK, BACKS],
    ["table", STORAGE_TABLE, TABLES],
  ];
  for (const [name, key, values] of choices) {
    for (const radio of radios(form, name)) {
      radio.addEventListener("change", () => {
        const value = radios(form, name).value;
        storage(key, value === values[0] ? null : value);
        apply();
      });
    }
  }
  /** @type {[HTMLInputElement, string][]} */
  const switches = [
    [$("settings-sound"), STORAGE_SOUND],
    [$("settings-clock"), STORAGE_CLOCK],
  ];
  for (const [box, key] of switches) {
    box.addEventListener("change", () => {
      storage(key, box.checked ? "on" : null);
      apply();
    });
  }
  // Another tab of this browser changed one: show it here too.
  window.addEventListener("storage", (event) => {
    if (event.key !== null && !KEYS.includes(event.key)) return;
    apply();
    if ($("settings-dialog").open) fill(form);
  });
}
