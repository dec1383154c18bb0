// @ts-check
// The light and dark themes. Until the player picks one (the header's toggle or the settings), the page
// follows the system's colour scheme, live: switching the system to dark while the page is open turns it
// dark. The colours live in style.css only: the browser's theme colour (the <meta name="theme-color">) is
// read from its --theme-color. theme-init.js applies the same choice before the first paint.

import { $, storage } from "./dom.js";
import { t } from "./i18n.js";

export const STORAGE_THEME = "fs.theme";
const systemDark = window.matchMedia("(prefers-color-scheme: dark)");

/** @typedef {"light" | "dark" | "system"} ThemeChoice */

/**
 * The player's choice: "light", "dark", or "system" while none is made.
 * @returns {ThemeChoice}
 */
export function chosenTheme() {
  const stored = storage(STORAGE_THEME);
  return stored === "light" || stored === "dark" ? stored : "system";
}

/** The theme shown: the choice, or the system's scheme while there is none. */
function shownTheme() {
  const choice = chosenTheme();
  if (choice !== "system") return choice;
  return systemDark.matches ? "dark" : "light";
}

/** Show the theme the choice and the system call for (again, after either changed). */
export function applyTheme() {
  const theme = shownTheme();
  const root = document.documentElement;
  root.dataset.theme = theme;
  const dark = theme === "dark";
  const button = $("theme-toggle");
  button.setAttribute("aria-pressed", String(dark));
  const label = t(dark ? "theme.toLight" : "theme.toDark");
  $("theme-toggle-label").textContent = label;
  button.title = label;
  const colour = getComputedStyle(root).getPropertyValue("--theme-color").trim();
  const meta = /** @type {HTMLMetaElement} */ (document.querySelector('meta[name="theme-color"]'));
  if (colour) meta.content = colour;
}

/**
 * Remember `choice` ("light", "dark" or "system": follow the system again) and show it.
 * @param {string} choice
 */
export function chooseTheme(choice) {
  storage(STORAGE_THEME, choice === "light" || choice === "dark" ? choice : null);
  applyTheme();
}

export function setupTheme() {
  applyTheme();
  systemDark.addEventListener("change", () => {
    if (chosenTheme() === "system") applyTheme();
  });
  // The toggle picks the other theme than the one shown: a choice, so the system is no longer followed.
  $("theme-toggle").addEventListener("click", () => chooseTheme(shownTheme() === "dark" ? "light" : "dark"));
}
