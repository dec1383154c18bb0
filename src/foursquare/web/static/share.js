// @ts-check
// Sharing and whose game it is: the share link of a deal (/deal/N?house rules), or of the player's daily game
// the spoiler-free share text (daily.js), and the Share button that copies it; the share route that starts a
// fresh game of a deal; the read-only view of another player's game, with "play this deal" once it is over;
// the "no such game" notice; the words for a daily or winnable deal.

import { dailyShareText } from "./daily.js";
import { $, el, toast } from "./dom.js";
import { intlLocale, t } from "./i18n.js";

/**
 * @typedef {import("./api.js").GameState} GameState
 * @typedef {import("./api.js").Variant} Variant
 */

const MAX_DEAL = 18446744073709551615n;
/** @type {Readonly<Record<string, string[]>>} */
const RULES = { adjacency: ["orthogonal", "diagonal"], count_buried: ["false", "true"] };

/** The share text of a daily game made last: copyLink words its copy as a result, not as a link. */
let dailyText = "";

/**
 * What the Share button copies: the link that starts a fresh game of this game's deal, /deal/N with its house
 * rules in the query (standard rules are left out). While the number is hidden there is none but the game's
 * own address, which shows another player the game read-only, with "play this deal" once it is over (the
 * number stays hidden). The player's own daily game is shared without a card: while it is played, the link to
 * today's daily deal (/daily: its own address would show the cards placed so far, the same for everyone
 * today); once it is over, the spoiler-free share text of its result, which carries that link.
 * @param {GameState} state
 */
export function shareLink(state) {
  const origin = location.origin;
  if (state.daily && isMine(state)) {
    if (state.outcome === "playing") return `${origin}/daily`;
    dailyText = dailyShareText(state);
    return dailyText;
  }
  if (state.deal === null) return `${origin}/game/${state.id}`;
  const query = new URLSearchParams();
  if (state.variant.adjacency !== "orthogonal") query.set("adjacency", state.variant.adjacency);
  if (state.variant.count_buried) query.set("count_buried", "true");
  const search = query.toString();
  return `${origin}/deal/${state.deal}${search ? `?${search}` : ""}`;
}

/**
 * What whoever opens the share link of `state` gets, in the catalogue's words (null for a daily game's share
 * text, which says it itself): a game's own address shows that game, live while it is played (its deal can be
 * played once it is over); a deal's link or /daily starts a fresh game of the deal.
 * @param {GameState} state
 */
export function shareWhat(state) {
  if (state.daily && isMine(state)) return state.outcome === "playing" ? "share.whatDeal" : null;
  if (state.deal !== null) return "share.whatDeal";
  return state.outcome === "playing" ? "share.whatLive" : "share.whatOver";
}

/**
 * Copy `link` (or a daily game's share text) to the clipboard, saying what a friend gets from it (`what`, a
 * catalogue key of shareWhat); where the page may not, show it selected in a dialog to copy by hand (a share
 * text, which has several lines, in a text area made for it), with the same words.
 * @param {string} link
 * @param {string | null} [what]
 */
export async function copyLink(link, what = null) {
  const isText = link === dailyText;
  const note = document.getElementById("share-what");
  if (note) {
    note.textContent = what && !isText ? t(what) : "";
    note.hidden = !note.textContent;
  }
  try {
    if (!navigator.clipboard) throw new Error("no clipboard");
    await navigator.clipboard.writeText(link);
    if (isText) toast(t("daily.share.copied"));
    else if (what === null || what === "share.whatDeal") toast(t("share.copied"));
    else toast(`${t("share.copiedShort")} ${t(what)}`);
  } catch {
    const dialog = $("share-dialog");
    const field = $("share-link");
    const area = shareTextArea();
    const label = dialog.querySelector("label");
    field.hidden = isText;
    area.hidden = !isText;
    if (label) {
      label.htmlFor = isText ? area.id : field.id;
      label.textContent = t(isText ? "daily.share.copyByHand" : "share.copyByHand");
    }
    const shown = isText ? area : field;
    shown.value = link;
    dialog.showModal();
    shown.focus();
    shown.select();
  }
}

/** The share dialog's text area for a daily game's share text, made beside the link's field the first time. */
function shareTextArea() {
  const existing = document.getElementById("share-text");
  if (existing instanceof HTMLTextAreaElement) return existing;
  const area = el("textarea", { id: "share-text", class: "share-text", rows: 6, readonly: true });
  area.hidden = true;
  $("share-link").after(area);
  return area;
}

/**
 * The deal and house rules a share route names ("42", "adjacency=diagonal&count_buried=true"):
 * {deal, variant}, or {error} naming the catalogue's message for what is wrong with it.
 * @param {string} number
 * @param {string} search
 * @returns {{deal: string, variant: Variant} | {error: string}}
 */
export function parseShareRoute(number, search) {
  if (!/^[0-9]{1,20}$/.test(number) || BigInt(number) > MAX_DEAL) return { error: "share.badNumber" };
  const query = new URLSearchParams(search);
  /** @type {Record<string, string>} */
  const rules = { adjacency: "orthogonal", count_buried: "false" };
  for (const [name, value] of query) {
    if (!(name in RULES) || !RULES[name].includes(value)) return { error: "share.badRules" };
    rules[name] = value;
  }
  const adjacency = /** @type {Variant["adjacency"]} */ (rules.adjacency); // one of RULES.adjacency
  const variant = { adjacency, count_buried: rules.count_buried === "true" };
  return { deal: BigInt(number).toString(), variant };
}

/**
 * "1 December 2026": a daily deal's UTC date (YYYY-MM-DD), in the catalogue's order of day, month, year.
 * @param {string} isoDate
 */
export function dailyDate(isoDate) {
  const format = new Intl.DateTimeFormat(intlLocale(), { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });
  const parts = Object.fromEntries(format.formatToParts(new Date(`${isoDate}T00:00:00Z`)).map((p) => [p.type, p.value]));
  return t("date.long", { day: parts.day, month: parts.month, year: parts.year });
}

/**
 * What the deal label says: the deal number, or the kind of deal while its number is hidden.
 * @param {GameState} state
 */
export function dealText(state) {
  if (state.daily) return t("panel.daily", { date: dailyDate(state.daily) });
  if (state.deal !== null) return t("panel.deal", { deal: String(state.deal) });
  return t(state.winnable ? "panel.winnable" : "panel.dealHidden");
}

/**
 * Whether the page may play this game: it is the player's own (docs/api.md, "yours").
 * @param {GameState | null | undefined} state
 */
export const isMine = (state) => state?.yours === true;

/**
 * Show the game view's parts that depend on whose game it is (read-only notice, Share, the assisted and late tags).
 * @param {GameState} state
 * @param {boolean} playing
 */
export function renderSharing(state, playing) {
  $("no-game").hidden = true;
  $("game-table").hidden = false;
  const mine = isMine(state);
  $("readonly").hidden = mine;
  $("readonly-text").textContent = t(playing ? "share.watching" : "share.watchingOver");
  // A live game's deal is not offered: its copy would show the cards still to come. It is once the game ends.
  $("btn-play-deal").hidden = playing;
  $("btn-share").hidden = !playing; // once over, the over screen has its own
  $("assisted-tag").hidden = !state.assisted;
  $("late-tag").hidden = !state.daily_late;
}

/** Show the game as assisted (after a hint, before the server's next state says so). */
export function showAssisted() {
  $("assisted-tag").hidden = false;
}

/**
 * Instead of a game: "no such game" (or a malformed share link, or a game that needs the server while it cannot
 * be reached), offering a new game; nothing is created.
 */
let noGame = { text: "missing.text", title: "missing.title" };

/**
 * @param {string} [messageKey]
 * @param {string} [titleKey]
 */
export function showNoGame(messageKey = "missing.text", titleKey = "missing.title") {
  noGame = { text: messageKey, title: titleKey };
  $("game-table").hidden = true;
  $("no-game").hidden = false;
  drawNoGame();
  $("no-game-title").focus({ preventScroll: true });
}

function drawNoGame() {
  $("no-game-title").textContent = t(noGame.title);
  $("no-game-text").textContent = t(noGame.text);
  document.title = t("app.pageTitle", { page: t(noGame.title) });
}

/** The "no such game" notice again (after a change of language), if it is shown. */
export function rerenderNoGame() {
  if (!$("no-game").hidden) drawNoGame();
}
