// @ts-check
// The dialogs: a yes/no confirmation and the new-game form (a random, daily, winnable or numbered deal,
// and the house rules).

import { $, radios } from "./dom.js";
import { t } from "./i18n.js";

const MAX_DEAL = 18446744073709551615n;

/** @typedef {import("./api.js").NewGameOptions} NewGameOptions */

const CONFIRM_OK = "action.restart";

/**
 * Ask `question`; resolves to true when the player confirms (with the button `ok` names, a catalogue key:
 * Restart unless said; `danger`: a button that warns).
 * @param {string} question
 * @param {{ok?: string, danger?: boolean}} [how]
 */
export async function confirm(question, { ok = CONFIRM_OK, danger = false } = {}) {
  const dialog = $("confirm-dialog");
  const button = $("confirm-ok");
  const label = button.querySelector("span");
  $("confirm-text").textContent = question;
  if (label) {
    label.dataset.i18n = ok;
    label.textContent = t(ok);
  }
  button.classList.toggle("button-danger", danger);
  dialog.returnValue = "";
  dialog.showModal();
  $("confirm-cancel").focus();
  /** @type {string} */
  const answer = await new Promise((resolve) =>
    dialog.addEventListener("close", () => resolve(dialog.returnValue), { once: true }),
  );
  if (label) {
    label.dataset.i18n = CONFIRM_OK;
    label.textContent = t(CONFIRM_OK);
  }
  button.classList.remove("button-danger");
  return answer === "ok";
}

/**
 * The deal number typed in the form (a string of digits), or null after saying what is wrong with it.
 * @param {HTMLInputElement} input
 * @param {HTMLElement} error
 */
function dealNumber(input, error) {
  const text = input.value.trim();
  if (!/^[0-9]{1,20}$/.test(text) || BigInt(text) > MAX_DEAL) {
    error.textContent = t("new.numberInvalid");
    input.setAttribute("aria-invalid", "true");
    input.focus();
    return null;
  }
  input.removeAttribute("aria-invalid");
  return BigInt(text).toString();
}

/**
 * Wire the new-game form: `onStart({deal?, daily?, winnable?, variant})` is called with what the player chose.
 * @param {(options: NewGameOptions) => unknown} onStart
 */
export function setupNewGameDialog(onStart) {
  const dialog = $("new-dialog");
  const form = $("new-form");
  const dealInput = $("new-deal");
  const error = $("new-deal-error");
  const dealKind = () => radios(form, "dealkind");

  const syncKind = () => {
    const numbered = dealKind().value === "numbered";
    dealInput.disabled = !numbered;
    if (!numbered) error.textContent = "";
  };
  for (const radio of dealKind()) radio.addEventListener("change", syncKind);
  dealInput.addEventListener("input", () => {
    dealKind().value = "numbered";
    error.textContent = "";
  });
  dealInput.addEventListener("focus", () => {
    dealKind().value = "numbered";
    dealInput.disabled = false;
  });
  $("new-cancel").addEventListener("click", () => dialog.close("cancel"));

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    /** @type {NewGameOptions} */
    const options = {
      variant: {
        adjacency: $("new-diagonal").checked ? "diagonal" : "orthogonal",
        count_buried: $("new-buried").checked,
      },
    };
    const kind = dealKind().value;
    if (kind === "numbered") {
      const deal = dealNumber(dealInput, error);
      if (deal === null) return;
      options.deal = deal;
    } else if (kind === "daily" || kind === "winnable") {
      options[kind] = true;
    }
    dialog.close("start");
    await onStart(options);
  });
}

/**
 * Open the new-game form, its house rules preset to `variant` (those of the game shown) if given.
 * @param {import("./api.js").Variant} [variant]
 */
export function openNewGameDialog(variant) {
  const dialog = $("new-dialog");
  if (dialog.open) return;
  if (variant) {
    $("new-diagonal").checked = variant.adjacency === "diagonal";
    $("new-buried").checked = variant.count_buried;
  }
  $("new-deal-error").textContent = "";
  $("new-deal").disabled = radios($("new-form"), "dealkind").value !== "numbered";
  dialog.showModal();
}
