// Small DOM helpers shared by the views: the one element builder (HTML and SVG), storage, toasts and
// the wording of errors (from their stable codes, never from the server's English).

import { ApiError } from "./api.js";
import { hasMessage, t } from "./i18n.js";

export const $ = (id) => document.getElementById(id);

const SVG_NS = "http://www.w3.org/2000/svg";

/**
 * Give `node` its attributes and children. Attributes: "class", "text" (its text), "on<event>" (a
 * listener), "style" (through the CSSOM) or any attribute (null, undefined and false leave it out;
 * true sets it empty).
 */
function build(node, attributes, children) {
  for (const [name, value] of Object.entries(attributes)) {
    if (value === null || value === undefined || value === false) continue;
    if (name === "text") node.textContent = value;
    else if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    // Through the CSSOM: a style="" attribute is inline style, which the content security policy forbids.
    else if (name === "style") node.style.cssText = value;
    else node.setAttribute(name, value === true ? "" : String(value));
  }
  node.append(...children.filter((child) => child !== null && child !== undefined));
  return node;
}

/** An HTML element: el("p", {class: "note", text: "…"}), el("ul", {}, el("li", …), …). */
export function el(tag, attributes = {}, ...children) {
  return build(document.createElement(tag), attributes, children);
}

/** An SVG element, built the same way. */
export function svgEl(tag, attributes = {}, ...children) {
  return build(document.createElementNS(SVG_NS, tag), attributes, children);
}

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

export function toast(message, kind = "info") {
  const box = el("div", { class: `toast toast-${kind}`, role: kind === "error" ? "alert" : "status" });
  const close = el("button", {
    type: "button",
    class: "toast-close",
    "aria-label": t("toast.dismiss"),
    text: "×",
    onclick: () => box.remove(),
  });
  box.append(el("span", { class: "toast-text", text: message }), close);
  $("toasts").append(box);
  setTimeout(() => box.classList.add("toast-leaving"), 5200);
  setTimeout(() => box.remove(), 5600);
}

/**
 * What to tell the player about a failed request: the catalogue's message for the error's stable code
 * (an illegal move: for the engine's reason), never the server's English detail.
 */
export function errorMessage(error) {
  if (!(error instanceof ApiError)) return t("error.generic", { detail: String(error?.message ?? error) });
  if (error.status === 0) return t("error.network");
  const keys = [`error.code.${error.code}`];
  if (error.code === "illegal_move") keys.unshift(`error.illegal.${error.reason}`);
  const key = keys.find((candidate) => error.code && hasMessage(candidate));
  return key ? t(key) : t("error.status", { status: error.status });
}
