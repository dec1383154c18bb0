// Translation: t(key, params) looks a message up in the catalogue and fills its {placeholders}.
// Card names and lists are built from catalogue entries too, so no visible text lives elsewhere.

import en from "./messages/en.js";

const catalogues = { en };
let locale = "en";
let messages = en;
let plurals = new Intl.PluralRules(locale);

/** Switch language (only English ships for now). */
export function setLocale(name) {
  if (!(name in catalogues)) throw new Error(`no message catalogue for ${name}`);
  locale = name;
  messages = catalogues[name];
  plurals = new Intl.PluralRules(locale);
  document.documentElement.lang = name;
}

export function getLocale() {
  return locale;
}

function fill(text, params) {
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

/** The message `key` with `params` substituted; plural messages pick their form from params.count. */
export function t(key, params = {}) {
  let value = messages[key];
  if (value === undefined) value = en[key];
  if (value === undefined) {
    console.warn(`missing message ${key}`);
    return key;
  }
  if (Array.isArray(value)) return value.map((line) => fill(line, params));
  if (typeof value === "object") {
    const form = plurals.select(Number(params.count ?? 0));
    value = value[form] ?? value.other;
  }
  return fill(value, params);
}

/** Whether the catalogue has a message `key`. */
export function hasMessage(key) {
  return key in messages || key in en;
}

/** A list of lines (catalogue entries that are arrays, e.g. the rules). */
export function tLines(key) {
  const value = t(key);
  return Array.isArray(value) ? value : [value];
}

/** Fill every element with data-i18n="key" (text) or data-i18n-label="key" (aria-label). */
export function translateTree(root) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-label]")) el.setAttribute("aria-label", t(el.dataset.i18nLabel));
  for (const el of root.querySelectorAll("[data-i18n-title]")) el.title = t(el.dataset.i18nTitle);
}

// --- cards -------------------------------------------------------------------------------------

export const SUIT_SYMBOLS = { C: "♣", D: "♦", H: "♥", S: "♠" };

/** Parse a short card name such as "7H" or "10S" into {rank, suit}. */
export function parseCard(name) {
  const suit = name.slice(-1);
  const rankText = name.slice(0, -1);
  const rank = rankText === "A" ? 1 : Number(rankText);
  return { rank, suit, name };
}

/** The short rank shown in a card corner: "A", "2" … "10". */
export function rankShort(rank) {
  const key = `rank.short.${rank}`;
  return hasMessage(key) ? t(key) : String(rank);
}

/** "7♥" */
export function cardSymbol(name) {
  const { rank, suit } = parseCard(name);
  return `${rankShort(rank)}${SUIT_SYMBOLS[suit]}`;
}

/** "7 of hearts" */
export function cardName(name) {
  const { rank, suit } = parseCard(name);
  const key = `rank.${rank}`;
  const rankWord = hasMessage(key) ? t(key) : String(rank);
  return t("card.name", { rank: rankWord, suit: t(`suit.${suit}`) });
}

/** The accessible label of a top card: "7 of hearts, face up" / "face-down card (7 of hearts)". */
export function cardLabel(name, faceUp) {
  return t(faceUp ? "card.faceUp" : "card.faceDown", { card: cardName(name) });
}

/** "A, B and C" using the catalogue's separators. */
export function joinList(items) {
  if (items.length === 0) return "";
  if (items.length === 1) return items[0];
  const head = items.slice(0, -1).join(t("list.sep"));
  return t("list.and", { a: head, b: items[items.length - 1] });
}

export function percent(fraction, digits = 0) {
  return new Intl.NumberFormat(locale, { style: "percent", maximumFractionDigits: digits }).format(fraction);
}

export function decimal(value, digits = 1) {
  return new Intl.NumberFormat(locale, { maximumFractionDigits: digits, minimumFractionDigits: digits }).format(value);
}

export function integer(value) {
  return new Intl.NumberFormat(locale).format(value);
}

export function dateTime(iso) {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short" }).format(date);
}

/** The house rules of a game as short tags: ["Standard rules"] or e.g. ["Diagonal adjacency", …]. */
export function variantText(variant) {
  const tags = [];
  tags.push(t(variant.adjacency === "diagonal" ? "variant.diagonal" : "variant.orthogonal"));
  if (variant.count_buried) tags.push(t("variant.countBuried"));
  if (variant.adjacency !== "diagonal" && !variant.count_buried) return [t("variant.standard")];
  return tags;
}
