// @ts-check
// Where the toasts go: never over the board, the replay's controls, the bar of buttons nor the "On this device"
// note. Of the places along the screen's edges and beside each of those, the first that covers none of them is
// taken (the foot of the screen first, as before); where every place covers one, the one that covers least. Placed
// again whenever a toast comes or goes, the page scrolls or the window changes size.

/** What a toast must leave uncovered. */
const KEEP_CLEAR = ["#board-wrap", ".replay-controls", "#actions", "#offline-tag", "#lesson-board"];
const MARGIN = 12; // px from the screen's edges and from what is kept clear

/** @typedef {{left: number, top: number, right: number, bottom: number}} Box */

/**
 * The area of `a` that `b` covers.
 * @param {Box} a
 * @param {Box} b
 */
function overlap(a, b) {
  const width = Math.min(a.right, b.right) - Math.max(a.left, b.left);
  const height = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
  return width > 0 && height > 0 ? width * height : 0;
}

/** The boxes of what is kept clear, as shown on screen now. */
function keptClear() {
  /** @type {Box[]} */
  const boxes = [];
  for (const selector of KEEP_CLEAR) {
    for (const element of document.querySelectorAll(selector)) {
      const box = element.getBoundingClientRect();
      if (box.width > 0 && box.height > 0 && box.bottom > 0 && box.top < innerHeight) boxes.push(box);
    }
  }
  return boxes;
}

/**
 * The best place for `stack` at `width` (its height then measured): {left, top, covered}, covered the area of what
 * is kept clear that it would cover.
 * @param {HTMLElement} stack
 * @param {number} width
 * @param {Box[]} clear
 */
function bestPlace(stack, width, clear) {
  stack.style.width = `${width}px`;
  const height = stack.offsetHeight;
  const tops = [innerHeight - height - MARGIN, MARGIN];
  const lefts = [(innerWidth - width) / 2, innerWidth - width - MARGIN, MARGIN];
  for (const box of clear) {
    tops.push(box.top - height - MARGIN, box.bottom + MARGIN);
    lefts.push(box.right + MARGIN, box.left - width - MARGIN);
  }
  let best = { left: lefts[0], top: tops[0], covered: Infinity };
  for (const top of tops) {
    if (top < 0 || top + height > innerHeight) continue;
    for (const left of lefts) {
      if (left < 0 || left + width > innerWidth) continue;
      const place = { left, top, right: left + width, bottom: top + height };
      const covered = clear.reduce((sum, box) => sum + overlap(place, box), 0);
      if (covered < best.covered) best = { left, top, covered };
    }
  }
  return best;
}

const NARROWEST = 240; // px: a toast is made no narrower to fit beside the board

/**
 * Put the toasts where they cover nothing kept clear (see above), at their own width or, where that covers
 * something, narrower beside what is kept clear; where no place is free for them all, the older ones go early,
 * the newest staying. `data-place` says whether they cover nothing ("clear").
 */
export function placeToasts() {
  const stack = document.getElementById("toasts");
  if (!stack || stack.children.length === 0) return;
  let place = bestOf(stack);
  while (place.covered > 0 && stack.children.length > 1) {
    stack.firstElementChild?.remove();
    place = bestOf(stack);
  }
  stack.style.width = `${place.width}px`;
  stack.style.left = `${Math.max(0, place.left)}px`;
  stack.style.top = `${Math.max(0, place.top)}px`;
  stack.style.bottom = "auto";
  stack.style.transform = "none";
  stack.dataset.place = place.covered === 0 ? "clear" : "covering";
}

/**
 * The best place for the toasts of `stack` as they are: at their own width, else narrower beside what is kept clear.
 * @param {HTMLElement} stack
 */
function bestOf(stack) {
  stack.style.width = "";
  const natural = stack.offsetWidth;
  const clear = keptClear();
  const widths = [natural];
  for (const box of clear) widths.push(innerWidth - box.right - 2 * MARGIN, box.left - 2 * MARGIN);
  let best = { left: 0, top: 0, covered: Infinity, width: natural };
  for (const width of widths.filter((w, i) => i === 0 || (w >= NARROWEST && w < natural))) {
    const place = { ...bestPlace(stack, width, clear), width };
    if (place.covered < best.covered) best = place;
    if (best.covered === 0) break;
  }
  return best;
}

let frame = 0;
const later = () => {
  cancelAnimationFrame(frame);
  frame = requestAnimationFrame(placeToasts);
};

/** Place the toasts each time one comes or goes, and as the page scrolls or the window changes size. */
export function setupToastPlacement() {
  const stack = document.getElementById("toasts");
  if (!stack) return;
  new MutationObserver(placeToasts).observe(stack, { childList: true });
  addEventListener("scroll", later, { passive: true });
  addEventListener("resize", later);
}
