// @ts-check
// Foursquare in the browser: the entry point, which wires the modules together.
// The server is the only judge of the rules; the page draws its answers. By concern:
//   store.js      the page's shared state: the game state the server sent last, busy, the view shown
//   game.js       the game actions (load, start, place, undo, redo, restart, hint); predict.js foresees a
//                 move with the page's rules (engine.js) to draw it before the server's answer
//   view.js       draws the game view; table.js the grid, the hand and the gauges (board.js, cards.js)
//   describe.js   sentences about a placement (why cards turned: the server's flip reasons)
//   hint.js, over.js, replay.js, analysis.js   the hint; game over, its replay and its analysis
//   share.js      share links, the Share button, another player's game (read-only), "no such game"
//   dialogs.js, drag.js, shortcuts.js, routing.js, theme.js   the rest of the page's behaviour
//   stats.js, rules.js, learn.js   the other views (learn.js: the lesson, and its offer on a first visit);
//                api.js the server; dom.js, i18n.js helpers
//   settings.js, connection.js, pwa.js, reveal.js   settings; server reachability and stale tabs;
//                        the service worker; a finished game's result brought into view on a phone
//   i18n.js      the language: its catalogue from the server (every sentence the page shows), the menu's choice
//   preferences.js, sounds.js, clock.js   the player's preferences (card back, table, sounds, timer), each off by default

import { waitForServer } from "./api.js";
import { $ } from "./dom.js";
import { setupDrag } from "./drag.js";
import { openNewGameDialog, setupNewGameDialog } from "./dialogs.js";
import { place, playThisDeal, redo, rememberedGame, requestHint, restart, startNewGame, undo } from "./game.js";
import { onLanguageChange, setupLanguage, t, translateTree } from "./i18n.js";
import { isFirstVisit, offerLesson, rerenderLesson, setupLesson } from "./learn.js";
import { showAnalysis } from "./over.js";
import { rerenderAnalysis } from "./analysis.js";
import { currentReplay, setupReplayButtons, showReplay } from "./replay.js";
import { route, showView, viewTitle } from "./routing.js";
import { renderRules } from "./rules.js";
import { copyLink, rerenderNoGame, shareLink, shareWhat } from "./share.js";
import { setupShortcuts } from "./shortcuts.js";
import { setupStats, showStats } from "./stats.js";
import { currentView, gameState } from "./store.js";
import { board } from "./table.js";
import { applyTheme, setupTheme } from "./theme.js";
import { setupConnection } from "./connection.js";
import { renderDailyLink } from "./dailylink.js";
import { setupToastPlacement } from "./toastplace.js";
import { setupSync } from "./sync.js";
import { registerServiceWorker } from "./pwa.js";
import { setupReveal } from "./reveal.js";
import { renderLanguageMenu, setupSettings } from "./settings.js";
import { setupPreferences } from "./preferences.js";
import { renderGame } from "./view.js";

const newGame = () => openNewGameDialog(gameState()?.variant);

function setupButtons() {
  $("btn-undo").addEventListener("click", undo);
  $("btn-redo").addEventListener("click", redo);
  $("btn-restart").addEventListener("click", restart);
  $("btn-hint").addEventListener("click", requestHint);
  $("btn-new").addEventListener("click", newGame);
  $("btn-no-game-new").addEventListener("click", newGame);
  $("btn-play-deal").addEventListener("click", playThisDeal);
  const share = () => {
    const state = gameState();
    return state && copyLink(shareLink(state), shareWhat(state));
  };
  $("btn-share").addEventListener("click", share);
  $("btn-over-share").addEventListener("click", share);
  $("btn-analyze").addEventListener("click", showAnalysis);
  $("btn-again").addEventListener("click", () => startNewGame({ variant: gameState()?.variant }));
  $("btn-same-deal").addEventListener("click", () => {
    const state = gameState();
    if (state?.deal !== null && state?.deal !== undefined) startNewGame({ deal: String(state.deal), variant: state.variant });
  });
  // The skip link moves focus to the grid without touching the route in the URL.
  /** @type {HTMLAnchorElement} */ (document.querySelector(".skip-link")).addEventListener("click", async (event) => {
    event.preventDefault();
    if (currentView() !== "game") {
      history.pushState(null, "", "#/");
      await route();
    }
    board.focus({ scroll: true });
  });
}

/** The language changed: every view again, in the new language (the game, its analysis, the other views). */
function rerender() {
  translateTree(document);
  document.title = t("app.title");
  renderRules();
  applyTheme();
  renderLanguageMenu();
  renderDailyLink();
  $("board-message").textContent = "";
  $("offline-banner").textContent = $("offline-banner").hidden ? "" : t("connection.lost");
  const view = currentView();
  if (view === "game" && gameState()) {
    renderGame({});
    rerenderAnalysis();
    const replay = currentReplay();
    if (replay) showReplay(replay.turn);
  } else if (view === "game") {
    rerenderNoGame();
  } else if (view === "stats") {
    showStats();
  } else if (view === "learn") {
    rerenderLesson();
  }
  if (view !== "game") viewTitle(view);
}

async function start() {
  // A touch screen without a mouse is tapped, not clicked: the how-to line says so (before it is translated).
  if (matchMedia("(hover: none) and (pointer: coarse)").matches) $("hand-help").dataset.i18n = "panel.dragHintTouch";
  await setupLanguage(waitForServer);
  onLanguageChange(rerender);
  translateTree(document);
  document.title = t("app.title");
  renderRules();
  renderDailyLink();
  setupTheme();
  setupSettings();
  setupPreferences($("settings-form"));
  setupConnection();
  setupSync();
  setupReveal();
  setupToastPlacement();
  board.onPlace = (row, col) => place(row, col);
  setupDrag((row, col) => place(row, col, { fly: false }));
  setupReplayButtons();
  setupNewGameDialog(startNewGame);
  setupShortcuts({ undo, redo, hint: requestHint, newGame });
  setupButtons();
  setupStats();
  setupLesson(() => {
    showView("game");
    startNewGame({});
  });
  // Asked before the first route remembers a new game, and shown before the board is first drawn (it never
  // moves the board once drawn).
  const opensLesson = location.hash === "#/learn" || location.pathname === "/learn";
  if (isFirstVisit(rememberedGame()) && !opensLesson) offerLesson();
  window.addEventListener("hashchange", route);
  document.body.classList.add("ready");
  route();
  registerServiceWorker();
}

start();
