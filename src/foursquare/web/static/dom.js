// @ts-check
// Small DOM helpers shared by the views: the page's elements by id, the one element builder (HTML and SVG),
// storage, toasts and the wording of errors (from their stable codes, never from the server's English).

import { ApiError } from "./api.js";
import { hasMessage, t } from "./i18n.js";

// The elements of index.html that the scripts look up by id, by their kind (tests/test_javascript.py checks
// that index.html has each of them, with that tag), so that a misspelt id or a wrong kind is a type error.
/**
 * @typedef {"btn-again" | "btn-analyze" | "btn-hint" | "btn-new" | "btn-no-game-new" | "btn-over-share" |
 *   "btn-play-deal" | "btn-redo" | "btn-restart" | "btn-same-deal" | "btn-settings" | "btn-share" | "btn-undo" |
 *   "confirm-cancel" | "confirm-ok" | "new-cancel" | "page-next" | "page-prev" | "replay-first" | "replay-last" | "replay-next" |
 *   "replay-prev" | "theme-toggle"} ButtonId
 * @typedef {"new-buried" | "new-deal" | "new-diagonal" | "replay-slider" | "settings-clock" | "settings-four-colour" | "settings-sound" |
 *   "share-link"} InputId
 * @typedef {"confirm-dialog" | "new-dialog" | "settings-dialog" | "share-dialog"} DialogId
 * @typedef {"new-form" | "settings-form"} FormId
 * @typedef {"actions" | "analysis" | "analysis-body" | "analysis-title" | "assisted-tag" | "board" |
 *   "board-message" | "clock-moves" | "clock-time" | "confirm-text" | "deal-label" | "face-down" | "face-down-gauge" | "face-down-meter" |
 *   "game-clock" | "game-table" | "game-title" | "games" | "hand-caption" | "hand-card" | "hand-help" | "hint-box" | "hint-list" |
 *   "hint-loading" | "hint-ranked" | "histogram" | "late-tag" | "new-deal-error" | "no-game" | "no-game-text" |
 *   "no-game-title" | "offline-banner" | "offline-tag" | "over" | "over-deal" | "over-reason" | "over-score" |
 *   "over-score-note" | "over-title" | "page-label" | "pager" | "readonly" | "readonly-text" | "replay" |
 *   "replay-caption" | "replay-chart" | "replay-marks" | "rules-body" | "rules-controls" | "settings-languages" |
 *   "stats-note" | "stats-offline" | "stats-tiles" | "stock-bar-fill" | "stock-left" | "theme-toggle-label" | "toasts" |
 *   "variant-tags" | "view-game" | "view-rules" | "view-stats"} ElementId
 * @typedef {{[id in ButtonId]: HTMLButtonElement} & {[id in InputId]: HTMLInputElement} &
 *   {[id in DialogId]: HTMLDialogElement} & {[id in FormId]: HTMLFormElement} &
 *   {[id in ElementId]: HTMLElement}} PageElements
 */

/**
 * The element of the page with this id (it is in index.html, the page the scripts are served with).
 * @template {keyof PageElements} Id
 * @param {Id} id
 * @returns {PageElements[Id]}
 */
export const $ = (id) => /** @type {PageElements[Id]} */ (document.getElementById(id));

/**
 * The radio buttons named `name` of `form`, whose value is the one checked.
 * @param {HTMLFormElement} form
 * @param {string} name
 */
export const radios = (form, name) => /** @type {RadioNodeList} */ (form.elements.namedItem(name));

const SVG_NS = "http://www.w3.org/2000/svg";

// A listener of any event type: each is declared with the event it handles (bivariant, as DOM handlers are).
/** @typedef {{listener(event: Event): unknown}["listener"]} Listener */
/** @typedef {string | number | boolean | null | undefined | Listener} AttributeValue */
/** @typedef {Record<string, AttributeValue>} Attributes */
/** @typedef {Node | string | null | undefined} Child */

/**
 * Give `node` its attributes and children. Attributes: "class", "text" (its text), "on<event>" (a
 * listener), "style" (through the CSSOM) or any attribute (null, undefined and false leave it out;
 * true sets it empty).
 * @template {HTMLElement | SVGElement} E
 * @param {E} node
 * @param {Attributes} attributes
 * @param {Child[]} children
 * @returns {E}
 */
function build(node, attributes, children) {
  for (const [name, value] of Object.entries(attributes)) {
    if (value === null || value === undefined || value === false) continue;
    if (name === "text") node.textContent = String(value);
    else if (name.startsWith("on")) node.addEventListener(name.slice(2), /** @type {Listener} */ (value));
    // Through the CSSOM: a style="" attribute is inline style, which the content security policy forbids.
    else if (name === "style") node.style.cssText = String(value);
    else node.setAttribute(name, value === true ? "" : String(value));
  }
  node.append(...children.filter((child) => child !== null && child !== undefined));
  return node;
}

/**
 * An HTML element: el("p", {class: "note", text: "…"}), el("ul", {}, el("li", …), …).
 * @template {keyof HTMLElementTagNameMap} Tag
 * @param {Tag} tag
 * @param {Attributes} [attributes]
 * @param {...Child} children
 */
export function el(tag, attributes = {}, ...children) {
  return build(document.createElement(tag), attributes, children);
}

/**
 * An SVG element, built the same way.
 * @template {keyof SVGElementTagNameMap} Tag
 * @param {Tag} tag
 * @param {Attributes} [attributes]
 * @param {...Child} children
 */
export function svgEl(tag, attributes = {}, ...children) {
  return build(document.createElementNS(SVG_NS, tag), attributes, children);
}

/**
 * Read `key` from localStorage (without `value`), or write it (`null` removes it); null where storage is
 * disabled, and after a write.
 * @param {string} key
 * @param {string | null} [value]
 * @returns {string | null}
 */
export function storage(key, value) {
  try {
    if (value === undefined) return localStorage.getItem(key);
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch {
    /* storage disabled: nothing is remembered */
  }
  return null;
}

// --- toasts and errors --------------------------------------------------------------------------------------

/**
 * @param {string} message
 * @param {"info" | "error"} [kind]
 */
export function toast(message, kind = "info") {
  // A notice already on screen is not shown twice: it stays for its full time again instead.
  for (const shown of /** @type {HTMLCollectionOf<HTMLElement>} */ ($("toasts").children)) {
    if (shown.dataset.message === message && shown.dataset.kind === kind) {
      shown.classList.remove("toast-leaving");
      dismissLater(shown);
      return;
    }
  }
  const box = el("div", {
    class: `toast toast-${kind}`,
    role: kind === "error" ? "alert" : "status",
    "data-message": message,
    "data-kind": kind,
  });
  const close = el("button", {
    type: "button",
    class: "toast-close",
    "aria-label": t("toast.dismiss"),
    text: "×",
    onclick: () => box.remove(),
  });
  box.append(el("span", { class: "toast-text", text: message }), close);
  $("toasts").append(box);
  dismissLater(box);
}

/** @type {WeakMap<HTMLElement, number[]>} each toast's timers (fade out, then remove) */
const toastTimers = new WeakMap();

/**
 * Fade `box` out and remove it after its time on screen (from now).
 * @param {HTMLElement} box
 */
function dismissLater(box) {
  for (const timer of toastTimers.get(box) ?? []) clearTimeout(timer);
  toastTimers.set(box, [
    setTimeout(() => box.classList.add("toast-leaving"), 5200),
    setTimeout(() => box.remove(), 5600),
  ]);
}

/**
 * What to tell the player about a failed request: the catalogue's message for the error's stable code
 * (an illegal move: for the engine's reason), never the server's English detail.
 * @param {unknown} error
 * @returns {string}
 */
export function errorMessage(error) {
  if (!(error instanceof ApiError)) {
    const message = typeof error === "object" && error !== null && "message" in error ? error.message : undefined;
    return t("error.generic", { detail: String(message ?? error) });
  }
  if (error.status === 0) return t("error.network");
  const keys = [`error.code.${error.code}`];
  if (error.code === "illegal_move") keys.unshift(`error.illegal.${error.reason}`);
  const key = keys.find((candidate) => error.code && hasMessage(candidate));
  return key ? t(key) : t("error.status", { status: error.status });
}
