// @ts-check
// The settings dialog (the header's gear): language, theme, four-colour deck, reduced motion and the account
// (account.js: passkeys, asked of the server each time the dialog opens). A change
// applies at once and is remembered in this browser (localStorage: fs.language — see i18n.js — and fs.theme,
// fs.deck, fs.motion, read before the first paint by theme-init.js). The page reads the applied values from <html>: data-theme,
// data-deck ("four" or "two") and data-motion ("reduce" or "full"), which style.css styles.

import { refreshAccount, setupAccount } from "./account.js";
import { $, el, radios, storage } from "./dom.js";
import { availableLanguages, chooseLanguage, getLocale } from "./i18n.js";
import { applyTheme, chooseTheme, chosenTheme, STORAGE_THEME } from "./theme.js";

const STORAGE_DECK = "fs.deck";
const STORAGE_MOTION = "fs.motion";
const systemReduce = window.matchMedia("(prefers-reduced-motion: reduce)");

/** Whether the page moves as little as it can: the player's choice, else the system's. */
export const reducedMotion = () => document.documentElement.dataset.motion === "reduce";

/** The motion setting: "reduce", "full", or "system" while none is made. */
function chosenMotion() {
  const stored = storage(STORAGE_MOTION);
  return stored === "reduce" || stored === "full" ? stored : "system";
}

function applyMotion() {
  const choice = chosenMotion();
  const reduce = choice === "system" ? systemReduce.matches : choice === "reduce";
  document.documentElement.dataset.motion = reduce ? "reduce" : "full";
}

const fourColour = () => storage(STORAGE_DECK) === "four";

function applyDeck() {
  document.documentElement.dataset.deck = fourColour() ? "four" : "two";
}

/** The language menu: one choice per language, each named in itself (and marked as written in it). */
export function renderLanguageMenu() {
  const choices = availableLanguages().map(({ code, name }) =>
    el(
      "label",
      { class: "choice" },
      el("input", { type: "radio", name: "language", value: code, checked: code === getLocale() }),
      " ",
      el("span", { class: "language-name", lang: code, text: name }),
    ),
  );
  $("settings-languages").replaceChildren(...choices);
  for (const radio of $("settings-languages").querySelectorAll("input")) {
    radio.addEventListener("change", () => chooseLanguage(radio.value));
  }
}

/**
 * Set the form's controls to the settings in force.
 * @param {HTMLFormElement} form
 */
function fillForm(form) {
  for (const radio of $("settings-languages").querySelectorAll("input")) radio.checked = radio.value === getLocale();
  radios(form, "theme").value = chosenTheme();
  radios(form, "motion").value = chosenMotion();
  $("settings-four-colour").checked = fourColour();
}

export function setupSettings() {
  const dialog = $("settings-dialog");
  const form = $("settings-form");
  renderLanguageMenu();
  setupAccount(form, form.querySelector(".settings-note"));
  applyDeck();
  applyMotion();
  systemReduce.addEventListener("change", applyMotion);

  $("btn-settings").addEventListener("click", () => {
    if (dialog.open) return;
    fillForm(form);
    refreshAccount();
    dialog.showModal();
  });
  for (const radio of radios(form, "theme")) {
    radio.addEventListener("change", () => chooseTheme(radios(form, "theme").value));
  }
  for (const radio of radios(form, "motion")) {
    radio.addEventListener("change", () => {
      const value = radios(form, "motion").value;
      storage(STORAGE_MOTION, value === "system" ? null : value);
      applyMotion();
    });
  }
  $("settings-four-colour").addEventListener("change", (event) => {
    storage(STORAGE_DECK, /** @type {HTMLInputElement} */ (event.target).checked ? "four" : null);
    applyDeck();
  });

  // Another tab of this browser changed a setting: show it here too.
  window.addEventListener("storage", (event) => {
    if (![STORAGE_DECK, STORAGE_MOTION, STORAGE_THEME, null].includes(event.key)) return;
    applyTheme();
    applyDeck();
    applyMotion();
    if (dialog.open) fillForm(form);
  });
}
