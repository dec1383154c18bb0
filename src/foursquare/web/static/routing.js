// Routes: #/game/ID (a game), #/stats, #/rules and #/ (the start page: the remembered game, or a new one).
// The server serves the page at /game/ID, /stats and /rules too; those become hash routes.

import { $ } from "./dom.js";
import { loadGame, rememberedGame, startNewGame } from "./game.js";
import { t } from "./i18n.js";
import { showStats } from "./stats.js";
import { gameState } from "./store.js";
import { renderGame } from "./view.js";

const VIEWS = ["game", "stats", "rules"];

/** The view shown ("game", "stats" or "rules"). */
export const currentView = () => document.body.dataset.view;

export function showView(name) {
  for (const view of VIEWS) $(`view-${view}`).hidden = view !== name;
  for (const link of document.querySelectorAll(".site-nav a")) {
    if (link.dataset.route === name) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
  document.body.dataset.view = name;
}

/** Show what the URL names. */
export async function route() {
  if (location.pathname !== "/" && !location.hash) {
    history.replaceState(null, "", `/#${location.pathname}`);
  }
  const hash = location.hash.replace(/^#/, "") || "/";
  const match = hash.match(/^\/game\/([A-Za-z0-9_-]+)$/);
  if (match) {
    showView("game");
    if (gameState()?.id !== match[1]) await loadGame(match[1]);
  } else if (hash === "/stats") {
    showView("stats");
    document.title = t("app.pageTitle", { page: t("stats.title") });
    await showStats();
  } else if (hash === "/rules") {
    showView("rules");
    document.title = t("app.pageTitle", { page: t("nav.rules") });
  } else {
    await showStartPage();
  }
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
    await loadGame(remembered);
  } else {
    await startNewGame({}, { replace: true });
  }
}
