// @ts-check
// Drawing cards: a face (corner indices and a big centre pip, suits from the SVG sprite) and a back,
// mounted on the two sides of a 3D card so that turning it over is a rotateY flip.

import { el, svgEl } from "./dom.js";
import { cardLabel, cardSymbol, parseCard, rankShort } from "./i18n.js";
import { reducedMotion } from "./settings.js";

/** Flip duration in ms; 0 when the reader asked for reduced motion (in the settings, or the system's). */
export function flipDuration() {
  return reducedMotion() ? 0 : 420;
}

/** @type {WeakMap<HTMLElement, number>} the timer that ends each card's turning over */
const flipTimers = new WeakMap();

/**
 * @param {string} suit
 * @param {string} className
 */
function suitIcon(suit, className) {
  return svgEl(
    "svg",
    { class: className, "aria-hidden": "true", focusable: "false" },
    svgEl("use", { href: `#suit-${suit}` }),
  );
}

/**
 * @param {number} rank
 * @param {string} suit
 * @param {"tl" | "br"} position
 */
function corner(rank, suit, position) {
  return el(
    "span",
    { class: `corner corner-${position}` },
    el("span", { class: "corner-rank", text: rankShort(rank) }),
    suitIcon(suit, "corner-suit"),
  );
}

/**
 * @param {HTMLElement} front
 * @param {string} name
 */
function fillFront(front, name) {
  const { rank, suit } = parseCard(name);
  front.className = `card-face card-front suit-${suit} ${suit === "H" || suit === "D" ? "red" : "dark"}`;
  front.dataset.rank = String(rank);
  front.replaceChildren(
    corner(rank, suit, "tl"),
    suitIcon(suit, rank === 1 ? "centre-pip centre-ace" : "centre-pip"),
    corner(rank, suit, "br"),
  );
}

/**
 * @param {HTMLElement} back
 * @param {string} name
 */
function fillBack(back, name) {
  // The player has seen every card on the grid, so the back carries a discreet reminder of it.
  back.replaceChildren(el("span", { class: "back-emblem" }), el("span", { class: "back-peek", text: cardSymbol(name) }));
}

/**
 * A new card element showing `name` face up or down (no animation).
 * @param {string} name
 * @param {boolean} faceUp
 */
export function createCard(name, faceUp) {
  // The inner part is hidden from assistive technology: the card's label says it all.
  const card = el(
    "div",
    { class: "card", role: "img" },
    el("div", { class: "card-inner", "aria-hidden": "true" }, el("div", { class: "card-face card-front" }), el("div", { class: "card-face card-back" })),
  );
  setCard(card, name, faceUp, false);
  return card;
}

/**
 * Show `name` face up or down on an existing card element. When only the face changes and `animate`
 * is true the card turns over with a CSS 3D flip; a different card is swapped in without animation.
 * Returns whether the card started turning over.
 * @param {HTMLElement} card
 * @param {string} name
 * @param {boolean} faceUp
 * @param {boolean} [animate]
 */
export function setCard(card, name, faceUp, animate = true) {
  const face = faceUp ? "up" : "down";
  const sameCard = card.dataset.card === name;
  // Named again on every draw, so that a change of language renames the cards already on screen.
  card.setAttribute("aria-label", cardLabel(name, faceUp));
  if (sameCard && card.dataset.face === face) return false;
  if (!sameCard) {
    /** @type {NodeListOf<HTMLElement>} */
    const faces = card.querySelectorAll(".card-face");
    const [front, back] = faces; // createCard made both
    fillFront(front, name);
    fillBack(back, name);
    card.dataset.card = name;
    card.classList.add("no-anim");
    card.dataset.face = face;
    void card.offsetWidth; // commit the new face before transitions come back
    card.classList.remove("no-anim");
    return false;
  }
  const duration = animate ? flipDuration() : 0;
  if (duration === 0) {
    card.classList.add("no-anim");
    card.dataset.face = face;
    void card.offsetWidth;
    card.classList.remove("no-anim");
    return false;
  }
  card.classList.add("flipping");
  card.dataset.face = face;
  clearTimeout(flipTimers.get(card));
  flipTimers.set(
    card,
    setTimeout(() => card.classList.remove("flipping"), duration + 200),
  );
  return true;
}
