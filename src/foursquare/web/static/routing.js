// @ts-check
// Routes: #/game/ID (a game), #/deal/N?rules (a share link: a fresh game of deal N), #/daily (today's daily
// deal), #/stats, #/rules, #/learn (the lesson) and #/ (the start page: the remembered game, or a new one). The
// server serves the page at /game/ID, /deal/N, /daily, /stats, /rules and /learn too; those become hash routes
// (the query kept).

import { loadGame, rememberedGame, startNewGame } from "./game.js";
import { t } from "./i18n.js";
import { showLesson } from "./learn.js";
import { parseShareRoute, showNoGame } from "./share.js";
import { showStats } from "./stats.js";
import { gameState, setView } from "./store.js";
import { renderGame } from "./view.js";

/** @typedef {import("./store.js").ViewName} ViewName */

/** @type {ViewName[]} */
const VIEWS = ["game", "stats", "rules", "learn"];

/** @param {ViewName} name */
export function showView(name) {
  for (const view of VIEWS) /** @type {HTMLElement} */ (document.getElementById(`view-${view}`)).hidden = view !== name;
  /** @type {NodeListOf<HTMLAnchorElement>} */
  const links = document.querySelectorAll(".site-nav a");
  for (const link of links) {
    if (link.dataset.route === name) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
  setView(name);
}

/** The title of each view but the game's, for the document's title. */
const TITLES = { stats: "stats.title", rules: "nav.rules", learn: "lesson.title" };

/**
 * The document's title for the statistics, the rules or the lesson view.
 * @param {ViewName | null} view
 */
export function viewTitle(view) {
  const key = view === "stats" || view === "learn" ? TITLES[view] : TITLES.rules;
  document.title = t("app.pageTitle", { page: t(key) });
}

/** Show what the URL names. */
export async function route() {
  if (location.pathname !== "/" && !location.hash) {
    history.replaceState(null, "", `/#${location.pathname}${location.search}`);
  }
  const hash = location.hash.replace(/^#/, "") || "/";
  // Anything under /game/ is a game address: one that names no game (extra parts, odd characters) is "no such
  // game", never a new deal.
  const game = hash.match(/^\/game\/(.*)$/);
  const deal = hash.match(/^\/deal\/([^/?#]*)(?:\?(.*))?$/);
  if (game) {
    showView("game");
    if (!/^[A-Za-z0-9_-]+$/.test(game[1])) showNoGame();
    else if (gameState()?.id !== game[1]) await loadGame(game[1]);
  } else if (deal) {
    showView("game");
    await openShareLink(decodeURIComponent(deal[1]), deal[2] ?? "");
  } else if (hash === "/daily") {
    // Today's daily deal (the link a daily share text carries): the game already started today, else a new one.
    showView("game");
    await startNewGame({ daily: true }, { replace: true });
  } else if (hash === "/stats") {
    showView("stats");
    viewTitle("stats");
    await showStats();
  } else if (hash === "/rules") {
    showView("rules");
    viewTitle("rules");
  } else if (hash === "/learn") {
    showView("learn");
    viewTitle("learn");
    await showLesson();
  } else {
    await showStartPage();
  }
}

/**
 * A share link: a fresh game of its deal and house rules (the link's history entry replaced by the game's).
 * @param {string} number
 * @param {string} search
 */
async function openShareLink(number, search) {
  const choice = parseShareRoute(number, search);
  if ("error" in choice) showNoGame(choice.error);
  else await startNewGame(choice, { replace: true });
}

/** The start page: the game shown last, else the remembered one, else a new deal. */
async function showStartPage() {
  showView("game");
  const state = gameState();
  const remembered = rememberedGame();
  if (state) {
    history.replaceState(null, "", `#/game/${state.id}`);
    renderGame({});
  } else if (remembered) {
    history.replaceState(null, "", `#/game/${remembered}`);
    await loadGame(remembered, { orNew: true });
  } else {
    await startNewGame({}, { replace: true });
  }
}
