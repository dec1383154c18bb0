// @ts-check
// The daily deal as a shared moment: once a daily game is over, everyone's results of its date (a chart of
// their scores with this game's marked, and "better than N % of today's players"), in a section of the game
// over panel built here; and the spoiler-free text the Share button copies for the player's daily game.
//
// "Better than N %": of the other players of that daily deal (everyone's finished daily game of the date but
// this one), the share whose score is strictly lower (a loss scores 0), rounded down to a whole percent — so
// 100 % only when every other player did worse, and a tie counts for nobody.

import { api, ApiError } from "./api.js";
import { el, svgEl } from "./dom.js";
import { integer, intlLocale, joinList, percent, t } from "./i18n.js";
import { dailyDate, isMine } from "./share.js";
import { gameState } from "./store.js";

/**
 * @typedef {import("./api.js").GameState} GameState
 * @typedef {import("./api.js").DailyResults} DailyResults
 * @typedef {{lower: number, others: number, percent: number}} Standing
 */

const SECTION_ID = "daily-results";
const MAX_SCORE = 24; // the best score: a win needs 16 cards placed, leaving 24 in the stock

/**
 * The results shown last: the game they were shown for, and its date's results (null: they could not be had).
 * @type {{gameId: string, results: DailyResults | null} | null}
 */
let shown = null;
let asked = 0; // each request's number: an answer that comes after a newer request is dropped

/**
 * The results section of the game over panel (made the first time: it goes just before the analysis).
 * @returns {HTMLElement}
 */
function section() {
  const existing = document.getElementById(SECTION_ID);
  if (existing) return existing;
  const made = el("section", { class: "daily-results", id: SECTION_ID, "aria-labelledby": "daily-results-title" });
  made.hidden = true;
  const analysis = document.getElementById("analysis");
  if (analysis) analysis.before(made);
  else document.getElementById("over")?.append(made);
  return made;
}

/** Hide the results (the game shown is being played, or is no daily game). */
export function hideDailyResults() {
  const node = document.getElementById(SECTION_ID);
  if (node) node.hidden = true;
}

/**
 * Show the results of the date of the finished daily game `state`: asked of the server when the game has just
 * ended or another game is shown, else drawn again from the last answer (a change of language, a new width).
 * Today's results are the player's once their own daily game of today is over: a game of today looked at
 * before that (another player's) shows none.
 * @param {GameState} state
 * @param {boolean} justEnded
 */
export async function showDailyResults(state, justEnded) {
  if (!state.daily || state.outcome === "playing") {
    hideDailyResults();
    return;
  }
  if (!justEnded && shown?.gameId === state.id) {
    render(state);
    return;
  }
  const number = ++asked;
  let results = null;
  try {
    results = await api.dailyResults(state.daily);
  } catch (error) {
    if (number !== asked) return;
    if (error instanceof ApiError && error.status === 409) {
      shown = null;
      hideDailyResults();
      return;
    }
  }
  if (number !== asked) return;
  shown = { gameId: state.id, results };
  const current = gameState();
  if (current?.id === state.id) render(current);
}

/**
 * Draw the results of `state`'s date from the last answer.
 * @param {GameState} state
 */
function render(state) {
  const node = section();
  if (shown?.gameId !== state.id) return;
  const results = shown.results;
  node.hidden = false;
  const title = el("h3", { id: "daily-results-title", text: t("daily.results.title") });
  if (results === null) {
    node.replaceChildren(title, el("p", { class: "muted", text: t("daily.results.failed") }));
    return;
  }
  node.dataset.players = String(results.players);
  const score = state.score ?? 0;
  const standing = standingOf(results, score);
  const better = standing
    ? t(isToday(state.daily ?? "") ? "daily.results.better" : "daily.results.betterThatDay", { percent: percent(standing.percent / 100) })
    : t("daily.results.first");
  const width = Math.max(260, Math.min(640, Math.floor(document.getElementById("over")?.clientWidth ?? 320)));
  node.replaceChildren(
    title,
    el("p", { class: "daily-results-summary", text: t("daily.results.summary", { players: integer(results.players), won: integer(results.won) }) }),
    el("figure", { class: "histogram-figure daily-results-figure" }, chart(results, score, isMine(state), width)),
    el("p", { class: "daily-results-better", "data-percent": standing ? standing.percent : null }, el("strong", { text: better })),
    el("p", { class: "daily-results-note muted", text: t("daily.results.note") }),
  );
}

/**
 * Where `score` stands among the results: how many other players scored strictly less, of how many others
 * (the game of that score itself left out), and that share as a whole percent rounded down; null when there
 * is no other player.
 * @param {DailyResults} results
 * @param {number} score
 * @returns {Standing | null}
 */
export function standingOf(results, score) {
  let lower = 0;
  let same = 0;
  for (const [key, count] of Object.entries(results.scores)) {
    if (Number(key) < score) lower += count;
    else if (Number(key) === score) same += count;
  }
  const others = results.players - (same > 0 ? 1 : 0);
  if (others <= 0) return null;
  return { lower, others, percent: Math.floor((lower * 100) / others) };
}

/**
 * When the daily deal of `isoDate` (a UTC date, YYYY-MM-DD) is over, and the next one comes: midnight UTC after it.
 * @param {string} isoDate
 */
export const dayEnd = (isoDate) => new Date(Date.parse(`${isoDate}T00:00:00Z`) + 86_400_000);

/**
 * A moment in the player's own time zone and language: its time ("01:00"), with the weekday first unless it
 * is today where the player is (or `timeOnly`).
 * @param {Date} moment
 * @param {{timeOnly?: boolean}} [how]
 */
export function localTime(moment, { timeOnly = false } = {}) {
  const today = moment.toDateString() === new Date().toDateString();
  /** @type {Intl.DateTimeFormatOptions} */
  const options = { hour: "numeric", minute: "2-digit" };
  if (!timeOnly && !today) options.weekday = "long";
  const text = new Intl.DateTimeFormat(intlLocale(), options).format(moment);
  // A language written without Latin letters gets no "AM"/"PM" in them (Intl may give them): a 24-hour clock.
  const latin = /[A-Za-z]/;
  if (!latin.test(text) || latin.test(t("nav.dailyNext", { time: "" }))) return text;
  return new Intl.DateTimeFormat(intlLocale(), { ...options, hourCycle: "h23" }).format(moment);
}

/** @param {string} isoDate */
function isToday(isoDate) {
  return isoDate === new Date().toISOString().slice(0, 10);
}

/**
 * Everyone's scores as a bar chart in the look of the statistics' histogram, the bar of `score` marked.
 * @param {DailyResults} results
 * @param {number} score
 * @param {boolean} mine whether the game is the player's own ("your score") or another's ("this game")
 * @param {number} width
 */
function chart(results, score, mine, width) {
  const counts = new Map(Object.entries(results.scores).map(([key, count]) => [Number(key), count]));
  const top = Math.max(1, ...counts.values());
  const height = width < 480 ? 200 : 230;
  const left = 34;
  const bottom = 40;
  const head = 34; // room for a count and the mark above the highest bar
  const plotH = height - bottom - head;
  const scores = Array.from({ length: MAX_SCORE + 1 }, (_, s) => s);
  const step = (width - left - 8) / scores.length;
  const barW = Math.max(4, step * 0.7);
  const summary = joinList([...counts].map(([s, count]) => t("daily.results.bar", { score: integer(s), count: integer(count) })));
  const svg = svgEl("svg", {
    viewBox: `0 0 ${width} ${height}`,
    width,
    height,
    class: "histogram-svg daily-chart",
    role: "img",
    "aria-label": t("daily.results.chartLabel", { summary }),
  });
  const ticks = top <= 5 ? top : 4;
  for (let i = 0; i <= ticks; i += 1) {
    const value = Math.round((top * i) / ticks);
    const y = head + plotH - (plotH * value) / top;
    svg.append(svgEl("line", { x1: left, x2: width - 4, y1: y, y2: y, class: "grid-line" }));
    svg.append(svgEl("text", { x: left - 6, y: y + 4, class: "axis-label", "text-anchor": "end" }, integer(value)));
  }
  for (const s of scores) {
    const count = counts.get(s) ?? 0;
    const x = left + step * s + (step - barW) / 2;
    const h = (plotH * count) / top;
    const y = head + plotH - h;
    const own = s === score;
    const kind = count ? "bar" : "bar bar-empty";
    const bar = svgEl("rect", {
      x,
      y,
      width: barW,
      height: Math.max(count ? 2 : 0, h),
      rx: 2,
      class: own ? `${kind} daily-bar-own` : kind,
      "data-score": s,
      "data-count": count,
    });
    bar.append(svgEl("title", {}, t("daily.results.bar", { score: integer(s), count: integer(count) })));
    svg.append(bar);
    if (count) svg.append(svgEl("text", { x: x + barW / 2, y: y - 4, class: "bar-label", "text-anchor": "middle" }, integer(count)));
    if (own) {
      const anchor = x + barW / 2 < width / 2 ? "start" : "end";
      const markX = anchor === "start" ? x : x + barW;
      svg.append(
        svgEl("text", { x: markX, y: y - (count ? 18 : 4), class: "daily-own-label", "text-anchor": anchor, "data-own": s },
          `▼ ${t(mine ? "daily.results.yours" : "daily.results.thisGame")}`),
      );
    }
    const every = step > 22 ? 1 : step > 12 ? 2 : 4;
    if (s % every === 0) {
      svg.append(svgEl("text", { x: x + barW / 2, y: head + plotH + 16, class: "axis-label", "text-anchor": "middle" }, integer(s)));
    }
  }
  svg.append(svgEl("text", { x: left + (width - left) / 2, y: height - 4, class: "axis-title", "text-anchor": "middle" }, t("daily.results.axis")));
  return svg;
}

// --- the share text ------------------------------------------------------------------------------------

/**
 * The text the Share button copies for the player's finished daily game: what a friend may read before playing
 * the same deal. It names the date, the result and the score (or, after a loss, how many cards were placed), the
 * count of face-up and face-down piles at the end as a row of squares (counts only: no card, no cell), the
 * standing among the date's players once known, and the link to today's daily deal — never a card, a cell or
 * the deal's number.
 * @param {GameState} state
 */
export function dailyShareText(state) {
  const lines = [t("daily.share.title", { date: dailyDate(state.daily ?? "") })];
  if (state.outcome === "won") lines.push(`🏆 ${t("daily.share.won", { score: integer(state.score ?? 0) })}`);
  else lines.push(`❌ ${t("daily.share.lost", { placed: integer(state.turn), total: integer(state.turn + state.stock_left) })}`);
  const faceUp = state.cells.filter((cell) => cell.face_up).length;
  lines.push("🟩".repeat(faceUp) + "⬛".repeat(state.cells.length - faceUp));
  const results = shown?.gameId === state.id ? shown.results : null;
  const standing = results ? standingOf(results, state.score ?? 0) : null;
  if (standing) {
    const key = isToday(state.daily ?? "") ? "daily.results.better" : "daily.results.betterThatDay";
    lines.push(`📊 ${t(key, { percent: percent(standing.percent / 100) })}`);
  }
  lines.push(`${location.origin}/daily`);
  return lines.join("\n");
}

/** @type {ReturnType<typeof setTimeout> | undefined} */
let resizeTimer;
window.addEventListener("resize", () => {
  clearTimeout(resizeTimer);
  resizeTimer = setTimeout(() => {
    const state = gameState();
    const node = document.getElementById(SECTION_ID);
    if (state && node && !node.hidden) render(state);
  }, 150);
});
