// @ts-check
// Drag and drop of the card to place onto a highlighted cell (pointer events: mouse, pen and touch).

import { $ } from "./dom.js";
import { isBusy, isPlaying } from "./store.js";
import { board } from "./table.js";

const THRESHOLD_PX = 5; // a smaller movement is a click, not a drag

function clearTarget() {
  for (const node of document.querySelectorAll(".slot.drop-target")) node.classList.remove("drop-target");
}

/**
 * A drag under way: the card dragged, where the pointer took it (relative to the card) and its ghost.
 * @typedef {{card: HTMLElement, pointerId: number, startX: number, startY: number, dx: number, dy: number,
 *   ghost: HTMLElement | null, width: number}} Drag
 */

/**
 * A ghost of the card that follows the pointer.
 * @param {Drag} drag
 */
function ghostOf(drag) {
  const ghost = /** @type {HTMLElement} */ (drag.card.cloneNode(true));
  ghost.classList.add("drag-ghost");
  ghost.classList.remove("dealt");
  ghost.removeAttribute("role");
  ghost.setAttribute("aria-hidden", "true");
  ghost.style.width = `${drag.width}px`;
  document.body.append(ghost);
  drag.card.classList.add("drag-source");
  document.body.classList.add("dragging");
  return ghost;
}

/**
 * Wire dragging the card to place; `onDrop(row, col)` places it on the legal cell it was dropped on.
 * @param {(row: number, col: number) => unknown} onDrop
 */
export function setupDrag(onDrop) {
  const slot = $("hand-card");
  /** @type {Drag | null} */
  let drag = null;

  slot.addEventListener("pointerdown", (event) => {
    /** @type {HTMLElement | null} */
    const card = /** @type {Element} */ (event.target).closest(".card");
    if (!card || !isPlaying() || isBusy() || event.button !== 0) return;
    event.preventDefault();
    card.setPointerCapture(event.pointerId);
    const rect = card.getBoundingClientRect();
    drag = {
      card,
      pointerId: event.pointerId,
      startX: event.clientX,
      startY: event.clientY,
      dx: event.clientX - rect.left,
      dy: event.clientY - rect.top,
      ghost: null,
      width: rect.width,
    };
  });

  slot.addEventListener("pointermove", (event) => {
    if (!drag || event.pointerId !== drag.pointerId) return;
    const moved = Math.hypot(event.clientX - drag.startX, event.clientY - drag.startY);
    if (!drag.ghost && moved < THRESHOLD_PX) return;
    drag.ghost ??= ghostOf(drag);
    drag.ghost.style.transform = `translate(${event.clientX - drag.dx}px, ${event.clientY - drag.dy}px) rotate(-3deg)`;
    clearTarget();
    board.legalSlotAt(event.clientX, event.clientY)?.classList.add("drop-target");
  });

  /**
   * @param {PointerEvent} event
   * @param {boolean} drop
   */
  const finish = (event, drop) => {
    if (!drag || event.pointerId !== drag.pointerId) return;
    const { ghost, card } = drag;
    drag = null;
    clearTarget();
    card.classList.remove("drag-source");
    document.body.classList.remove("dragging");
    if (!ghost) {
      if (drop && isPlaying()) board.focus();
      return;
    }
    ghost.remove();
    if (!drop) return;
    const target = board.legalSlotAt(event.clientX, event.clientY);
    if (target) onDrop(Number(target.dataset.row), Number(target.dataset.col));
  };
  slot.addEventListener("pointerup", (event) => finish(event, true));
  slot.addEventListener("pointercancel", (event) => finish(event, false));
}
