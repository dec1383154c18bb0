// @ts-check
// The table: the grid (a Board), the card to place and the two gauges (cards left, face-down cards).
// Both the game and its replay draw here.

import { Board } from "./board.js";
import { createCard, setCard } from "./cards.js";
import { $, el } from "./dom.js";
import { t } from "./i18n.js";

export const DECK = 40;

/** The grid; its onPlace handler is wired by app.js. */
export const board = new Board($("board"));

/**
 * The card to place (or the next card of a replay), or none.
 * @param {string | null} name
 */
export function renderHand(name) {
  const slot = $("hand-card");
  endPending(slot);
  /** @type {HTMLElement | null} */
  let card = slot.querySelector(".card");
  if (!name) {
    if (card) card.remove();
    slot.classList.add("empty");
    return;
  }
  slot.classList.remove("empty");
  if (!card) {
    card = createCard(name, true);
    card.classList.add("hand-draggable");
    slot.append(card);
  } else {
    setCard(card, name, true, false);
  }
  card.classList.remove("dealt");
  void card.offsetWidth;
  card.classList.add("dealt");
}

/**
 * The card placed, the next one not yet told by the server (game.js shows a move before its answer): the hand
 * shows a card back, and after a moment a spinner (style.css), so a slow answer shows as waiting, not as nothing.
 * `#hand-card[data-pending="true"]` marks it, for styles and tests; the next renderHand ends it.
 * @param {string} label what the back says to a screen reader
 */
export function renderPendingHand(label) {
  const slot = $("hand-card");
  slot.querySelector(".card")?.remove();
  slot.classList.remove("empty");
  slot.dataset.pending = "true";
  slot.setAttribute("aria-busy", "true");
  slot.replaceChildren(
    el(
      "div",
      { class: "pending-card", role: "img", "aria-label": label },
      el("div", { class: "card-face card-back", "aria-hidden": "true" }),
      el("span", { class: "pending-spinner", "aria-hidden": "true" }),
    ),
  );
}

/** @param {HTMLElement} slot */
function endPending(slot) {
  if (slot.dataset.pending !== "true") return;
  slot.querySelector(".pending-card")?.remove();
  slot.dataset.pending = "false";
  slot.removeAttribute("aria-busy");
}

/**
 * The gauges; `maxFaceDown` is the server's limit (the state's max_face_down).
 * @param {number} stockLeft
 * @param {number} faceDown
 * @param {number} maxFaceDown
 */
export function renderGauges(stockLeft, faceDown, maxFaceDown) {
  $("stock-left").textContent = t("panel.stockValue", { count: stockLeft });
  $("stock-bar-fill").style.width = `${(100 * stockLeft) / DECK}%`;
  const over = faceDown > maxFaceDown; // the game is lost: "5 of 4" would read as a slip
  $("face-down").textContent = t(over ? "panel.faceDownOver" : "panel.faceDownValue", { count: faceDown, max: maxFaceDown });
  const meter = $("face-down-meter");
  const pips = Math.max(maxFaceDown, faceDown);
  if (meter.children.length !== pips) {
    meter.replaceChildren(...Array.from({ length: pips }, () => el("span", { class: "pip" })));
  }
  [...meter.children].forEach((pip, index) => pip.classList.toggle("on", index < faceDown));
  const gauge = $("face-down-gauge");
  gauge.classList.toggle("warn", faceDown === maxFaceDown - 1);
  gauge.classList.toggle("danger", faceDown >= maxFaceDown);
}
