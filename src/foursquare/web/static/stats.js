// @ts-check
// The statistics view: totals (all games, clean games — no undo, restart or hint — and the daily streak),
// the score histogram (inline SVG) and the list of recent games. While the server cannot be reached, the same
// view counts the games played on this device (offline.js), and says so.

import { api, ApiError } from "./api.js";
import { $, el, errorMessage, svgEl, toast } from "./dom.js";
import { dateTime, decimal, integer, joinList, percent, t, variantText } from "./i18n.js";
import { device } from "./offline.js";
import { bestTimeTiles } from "./clock.js";
import { dailyDate } from "./share.js";

/**
 * @typedef {import("./api.js").Stats} Stats
 * @typedef {import("./api.js").GameSummary} GameSummary
 */

const PER_PAGE = 20;

// --- statistics ----------------------------------------------------------------------------------

let statsPage = 1;

/** Fetch and draw the statistics and the current page of games (of this device, without the server). */
export async function showStats() {
  const view = $("view-stats");
  view.dataset.waiting = t("busy.waiting"); // shown while the answer is slow to come (style.css)
  view.setAttribute("aria-busy", "true");
  try {
    const [stats, games] = await Promise.all([api.stats(), api.listGames(statsPage, PER_PAGE)]);
    $("stats-offline").hidden = true;
    renderStats(stats);
    renderGames(games);
  } catch (error) {
    if (error instanceof ApiError && error.status === 0) await showDeviceStats();
    else toast(errorMessage(error), "error");
  } finally {
    view.setAttribute("aria-busy", "false");
  }
}

/** The statistics and the games of this device (the server cannot be reached: the banner says so). */
async function showDeviceStats() {
  try {
    const [stats, all] = await Promise.all([device.stats(), device.listGames()]);
    const note = $("stats-offline");
    note.textContent = t("offline.statsNote");
    note.hidden = false;
    renderStats(stats);
    const start = (statsPage - 1) * PER_PAGE;
    renderGames({ games: all.slice(start, start + PER_PAGE), page: statsPage, per_page: PER_PAGE, total: all.length });
  } catch (error) {
    toast(errorMessage(error), "error");
  }
}

/** @param {Stats} stats */
function renderStats(stats) {
  const none = t("stats.none");
  const tiles = [
    ["played", integer(stats.played)],
    ["won", integer(stats.won)],
    ["lost", integer(stats.lost)],
    ["winRate", percent(stats.win_rate ?? 0, 1)],
    ["streak", integer(stats.current_streak)],
    ["bestStreak", integer(stats.best_streak)],
    ["bestScore", stats.best_score === null ? none : integer(stats.best_score)],
    ["meanScore", stats.mean_score === null ? none : decimal(stats.mean_score)],
    ...cleanAndDailyTiles(stats, none),
    ...bestTimeTiles(stats, none),
  ];
  $("stats-tiles").replaceChildren(
    ...tiles.map(([name, value]) =>
      el("div", { class: `tile tile-${name}` }, el("dt", { text: t(`stats.${name}`) }), el("dd", { text: value })),
    ),
  );
  $("stats-note").textContent = t("stats.cleanNote");
  lastStats = stats;
  drawHistogram();
}

/**
 * The tiles of clean games and of the daily deal (absent from a server that does not count them).
 * @param {Stats} stats
 * @param {string} none what a tile says while there is nothing to count
 * @returns {[string, string][]}
 */
function cleanAndDailyTiles(stats, none) {
  const clean = stats.clean;
  const daily = stats.daily;
  /** @type {[string, string][]} */
  const tiles = [];
  if (clean) {
    tiles.push(
      ["cleanWon", integer(clean.won)],
      ["cleanStreak", integer(clean.current_streak)],
      ["cleanBestStreak", integer(clean.best_streak)],
      ["cleanBestScore", clean.best_score === null ? none : integer(clean.best_score)],
    );
  }
  if (daily) tiles.push(["dailyStreak", integer(daily.current_streak)], ["dailyBestStreak", integer(daily.best_streak)]);
  return tiles;
}

/**
 * The deal column of the game list: the daily's date, the number, or "hidden".
 * @param {GameSummary} summary
 */
function dealCell(summary) {
  if (summary.daily) return t("stats.daily", { date: dailyDate(summary.daily) });
  return summary.deal === null ? t("stats.hidden") : t("stats.dealNumber", { deal: String(summary.deal) });
}

/** @type {Stats | null} */
let lastStats = null;

function drawHistogram() {
  const holder = $("histogram");
  if (!lastStats || holder.offsetParent === null) return;
  const width = Math.max(280, Math.min(900, Math.floor(holder.clientWidth)));
  holder.replaceChildren(histogram(lastStats.score_histogram ?? [], width));
}

/**
 * The score histogram as an inline SVG drawn at `width` CSS pixels (so its text stays readable).
 * @param {{score: number, count: number}[]} bins
 * @param {number} width
 */
function histogram(bins, width) {
  const counts = new Map(bins.map((bin) => [bin.score, bin.count]));
  const maxScore = Math.max(24, ...bins.map((bin) => bin.score));
  const scores = Array.from({ length: maxScore + 1 }, (_, score) => score);
  const top = Math.max(1, ...scores.map((s) => counts.get(s) ?? 0));
  const height = width < 480 ? 180 : 230;
  const left = 34;
  const bottom = 40;
  const plotH = height - bottom - 16;
  const step = (width - left - 8) / scores.length;
  const barW = Math.max(4, step * 0.7);
  const wins = scores.filter((s) => (counts.get(s) ?? 0) > 0);
  const summary = wins.length
    ? joinList(wins.map((s) => t("stats.histogramBar", { score: s, count: counts.get(s) ?? 0 })))
    : t("stats.histogramEmpty");
  const svg = svgEl("svg", {
    viewBox: `0 0 ${width} ${height}`,
    width,
    height,
    class: "histogram-svg",
    role: "img",
    "aria-label": t("stats.histogramLabel", { summary }),
  });
  // Horizontal guide lines at whole counts.
  const ticks = top <= 5 ? top : 4;
  for (let i = 0; i <= ticks; i += 1) {
    const value = Math.round((top * i) / ticks);
    const y = 16 + plotH - (plotH * value) / top;
    svg.append(svgEl("line", { x1: left, x2: width - 4, y1: y, y2: y, class: "grid-line" }));
    svg.append(svgEl("text", { x: left - 6, y: y + 4, class: "axis-label", "text-anchor": "end" }, integer(value)));
  }
  for (const score of scores) {
    const count = counts.get(score) ?? 0;
    const x = left + step * score + (step - barW) / 2;
    const h = (plotH * count) / top;
    const y = 16 + plotH - h;
    const bar = svgEl("rect", {
      x,
      y,
      width: barW,
      height: Math.max(count ? 2 : 0, h),
      rx: 2,
      class: count ? "bar" : "bar bar-empty",
      "data-score": score,
      "data-count": count,
    });
    bar.append(svgEl("title", {}, t("stats.histogramBar", { score, count })));
    svg.append(bar);
    if (count) svg.append(svgEl("text", { x: x + barW / 2, y: y - 4, class: "bar-label", "text-anchor": "middle" }, integer(count)));
    const every = step > 22 ? 1 : step > 12 ? 2 : 4;
    if (score % every === 0) {
      svg.append(svgEl("text", { x: x + barW / 2, y: 16 + plotH + 16, class: "axis-label", "text-anchor": "middle" }, String(score)));
    }
  }
  svg.append(svgEl("text", { x: left + (width - left) / 2, y: height - 4, class: "axis-title", "text-anchor": "middle" }, t("stats.axisScore")));
  const wrap = el("figure", { class: "histogram-figure" }, svg);
  if (!wins.length) wrap.append(el("figcaption", { class: "muted", text: t("stats.histogramEmpty") }));
  return wrap;
}

/** @param {import("./api.js").GamesPage} data */
function renderGames(data) {
  const games = data.games ?? [];
  const holder = $("games");
  if (games.length === 0) {
    holder.replaceChildren(el("p", { class: "muted", text: t("stats.noGames") }));
    $("pager").hidden = true;
    return;
  }
  const head = el(
    "tr",
    {},
    ...["date", "deal", "rules", "turn", "result", "score", "open"].map((name) =>
      el("th", { scope: "col", class: `col-${name}`, text: t(`stats.col.${name}`) }),
    ),
  );
  const rows = games.map((summary) => {
    const playing = summary.outcome === "playing";
    return el(
      "tr",
      { class: `game-row outcome-${summary.outcome}` },
      el("td", { class: "col-date" }, el("time", { datetime: summary.created_at, text: dateTime(summary.created_at) })),
      el("td", { class: summary.deal === null ? "col-deal" : "col-deal deal-number", text: dealCell(summary) }),
      el("td", { class: "col-rules", text: variantText(summary.variant).join(", ") }),
      el("td", { class: "col-turn", text: integer(summary.turn) }),
      el(
        "td",
        { class: "col-result" },
        el("span", { class: `badge badge-${summary.outcome}`, text: t(`stats.result.${summary.outcome}`) }),
        summary.assisted ? el("span", { class: "badge badge-assisted", text: t("stats.assisted") }) : null,
        summary.offline ? el("span", { class: "badge badge-offline", text: t("offline.tag") }) : null,
      ),
      el("td", { class: "col-score", text: summary.score === null ? t("stats.none") : integer(summary.score) }),
      el(
        "td",
        { class: "col-open" },
        el("a", { href: `#/game/${summary.id}`, class: "link-button", text: t(playing ? "action.resume" : "action.review") }),
      ),
    );
  });
  const table = el("table", { class: "games-table" }, el("thead", {}, head), el("tbody", {}, ...rows));
  holder.replaceChildren(table);
  tableSizes.disconnect();
  tableSizes.observe(table); // its width changes with the fonts, once loaded, and the window's size
  tableSizes.observe(holder);
  markScroll();
  const pages = Math.max(1, Math.ceil((data.total ?? games.length) / (data.per_page ?? PER_PAGE)));
  $("pager").hidden = pages <= 1;
  $("page-label").textContent = t("stats.page", { page: data.page ?? statsPage, pages });
  $("page-prev").disabled = statsPage <= 1;
  $("page-next").disabled = statsPage >= pages;
}

/**
 * Say on the recent games' box whether its table is wider than it and where it is scrolled to ("none",
 * "start", "middle", "end"): the style fades the side where more of it is, a sign that it scrolls.
 */
function markScroll() {
  const box = $("games");
  const more = box.scrollWidth - box.clientWidth;
  const at = box.scrollLeft;
  box.dataset.scroll = more <= 1 ? "none" : at <= 1 ? "start" : at >= more - 1 ? "end" : "middle";
}

const tableSizes = new ResizeObserver(() => markScroll());

/** Wire the pager and redraw the chart at the new width when the window is resized. */
export function setupStats() {
  $("games").addEventListener("scroll", markScroll, { passive: true });
  $("page-prev").addEventListener("click", () => {
    statsPage = Math.max(1, statsPage - 1);
    showStats();
  });
  $("page-next").addEventListener("click", () => {
    statsPage += 1;
    showStats();
  });
  /** @type {number | undefined} */
  let resizeTimer;
  window.addEventListener("resize", () => {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(drawHistogram, 150);
  });
}
