// The light and dark themes. The colours live in style.css only: the browser's theme colour (the
// <meta name="theme-color">) is read from its --theme-color. theme-init.js applies the remembered
// choice before the first paint.

import { $, storage } from "./dom.js";
import { t } from "./i18n.js";

const STORAGE_THEME = "fs.theme";

function applyTheme(theme) {
  const root = document.documentElement;
  root.dataset.theme = theme;
  const dark = theme === "dark";
  const button = $("theme-toggle");
  button.setAttribute("aria-pressed", String(dark));
  const label = t(dark ? "theme.toLight" : "theme.toDark");
  $("theme-toggle-label").textContent = label;
  button.title = label;
  const colour = getComputedStyle(root).getPropertyValue("--theme-color").trim();
  if (colour) document.querySelector('meta[name="theme-color"]').content = colour;
}

export function setupTheme() {
  applyTheme(document.documentElement.dataset.theme === "dark" ? "dark" : "light");
  $("theme-toggle").addEventListener("click", () => {
    const next = document.documentElement.dataset.theme === "dark" ? "light" : "dark";
    storage(STORAGE_THEME, next);
    applyTheme(next);
  });
}
