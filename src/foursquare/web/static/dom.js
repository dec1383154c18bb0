// Small DOM helpers shared by the views: element building, storage, toasts and error wording.

import { ApiError } from "./api.js";
import { t } from "./i18n.js";

export const $ = (id) => document.getElementById(id);

export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === null || value === undefined || value === false) continue;
    if (name === "class") node.className = value;
    else if (name === "text") node.textContent = value;
    else if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value === true ? "" : String(value));
  }
  node.append(...children.filter((child) => child !== null && child !== undefined));
  return node;
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

/** The server's plain-words detail as a sentence: capital first letter, final full stop. */
function sentence(text) {
  const trimmed = text.trim();
  if (!trimmed) return trimmed;
  const head = trimmed[0].toLocaleUpperCase() + trimmed.slice(1);
  return /[.!?)]$/.test(head) ? head : `${head}.`;
}

export function errorMessage(error) {
  if (!(error instanceof ApiError)) return t("error.generic", { detail: String(error?.message ?? error) });
  if (error.status === 0) return t("error.network");
  if (error.status === 404) return error.detail ? sentence(error.detail) : t("error.notFound");
  if (error.detail) return sentence(error.detail);
  if (error.status === 409) return t("error.stale");
  return t("error.status", { status: error.status });
}
