// Foursquare in the browser: the game view, game over with analysis and replay, the new-game
// dialog, routes and shortcuts (statistics and rules live in stats.js and rules.js).
// The server is the only judge of the rules; this page draws its answers.

import { api, ApiError } from "./api.js";
import { Board } from "./board.js";
import { createCard, flipDuration, setCard } from "./cards.js";
import { $, el, errorMessage, storage, toast } from "./dom.js";
import { cardSymbol, decimal, integer, joinList, parseCard, percent, t, translateTree, variantText } from "./i18n.js";
import { renderRules } from "./rules.js";
import { setupStats, showStats } from "./stats.js";

const STORAGE_GAME = "fs.game";
const STORAGE_THEME = "fs.theme";
const MAX_FACE_DOWN = 4;
const DECK = 40;
const MAX_COSTLY = 5;

// --- theme ---------------------------------------------------------------------------------------

function applyTheme(theme) {
  document.documentElement.dataset.theme = theme;
  const dark = theme === "dark";
  const button = $("theme-toggle");
  button.setAttribute("aria-pressed", String(dark));
  const label = t(dark ? "theme.toLight" : "theme.toDark");
  $("theme-toggle-label").textContent = label;
  button.title = label;
  document.querySelector('meta[name="theme-color"]').content = dark ? "#15191f" : "#f3efe6";
}

function setupTheme() {
  applyTheme(document.documentElement.dataset.theme === "dark" ? "dark" : "light");
  $("theme-toggle").addEventListener("click", () => {
    const next = document.documentElement.dataset.theme === "dark" ? "light" : "dark";
    storage(STORAGE_THEME, next);
    applyTheme(next);
  });
}

// --- the game ------------------------------------------------------------------------------------

const game = {
  state: null,
  busy: false,
  hint: null,
  hintTurn: null,
  replay: null,
  analysis: null,
  loadToken: 0,
  version: 0, // bumped whenever a new state arrives, so late answers (hints) for an older one are dropped
};

/** Take a state from the server as the current one. */
function adopt(state) {
  game.state = state;
  game.version += 1;
}

const board = new Board($("board"), { onPlace: (row, col) => place(row, col) });

function isPlaying() {
  return game.state && game.state.outcome === "playing";
}

function setBusy(busy) {
  game.busy = busy;
  document.body.dataset.busy = busy ? "true" : "false";
}

function displayCoords(row, col) {
  return board.displayCoords(row, col);
}

function renderHand(name) {
  const slot = $("hand-card");
  let card = slot.querySelector(".card");
  if (!name) {
    if (card) card.remove();
    slot.classList.add("empty");
    return;
  }
  slot.classList.remove("empty");
  if (!card) {
    card = createCard(name, true);
    card.classList.add("hand-draggable");
    slot.append(card);
  } else {
    setCard(card, name, true, false);
  }
  card.classList.remove("dealt");
  void card.offsetWidth;
  card.classList.add("dealt");
}

function renderGauges(stockLeft, faceDown) {
  $("stock-left").textContent = t("panel.stockValue", { count: stockLeft });
  $("stock-bar-fill").style.width = `${(100 * stockLeft) / DECK}%`;
  $("face-down").textContent = t("panel.faceDownValue", { count: faceDown, max: MAX_FACE_DOWN });
  const meter = $("face-down-meter");
  const pips = Math.max(MAX_FACE_DOWN, faceDown);
  if (meter.children.length !== pips) {
    meter.replaceChildren(...Array.from({ length: pips }, () => el("span", { class: "pip" })));
  }
  [...meter.children].forEach((pip, index) => pip.classList.toggle("on", index < faceDown));
  const gauge = $("face-down-gauge");
  gauge.classList.toggle("warn", faceDown === MAX_FACE_DOWN - 1);
  gauge.classList.toggle("danger", faceDown >= MAX_FACE_DOWN);
}

/**
 * What turned over and why, e.g. "Row: 9♣ is higher than every other face-up card, so 4♠ turned face down."
 * The reason is read off the server's flips (the cards that were face up are those now face down); the
 * page never decides whether cards turn.
 */
function flipSentence(flips, placedCard) {
  const parts = [];
  for (const line of ["row", "column"]) {
    const inLine = flips.filter((f) => f.line === line);
    if (inLine.length === 0) continue;
    const what = [];
    for (const faceUp of [false, true]) {
      const cards = inLine.filter((f) => f.face_up === faceUp).map((f) => cardSymbol(f.card));
      if (cards.length) what.push(t(faceUp ? "flip.up" : "flip.down", { cards: joinList(cards) }));
    }
    const wasUp = inLine.find((f) => !f.face_up);
    let reason;
    if (!placedCard) reason = null;
    else if (!wasUp) reason = t("flip.reason.allDown");
    else {
      const higher = parseCard(placedCard).rank > parseCard(wasUp.card).rank;
      reason = t(higher ? "flip.reason.higher" : "flip.reason.lower", { card: cardSymbol(placedCard) });
    }
    const lineName = t(`flip.line.${line}`);
    parts.push(
      reason
        ? t("flip.explained", { line: lineName, reason, what: joinList(what) })
        : t("flip.sentence", { line: lineName, what: joinList(what) }),
    );
  }
  return parts.join(" ");
}

function hintBoardBadges() {
  if (!game.hint || game.hintTurn !== game.state.turn) return [];
  return game.hint.slice(0, 3).map((move) => ({
    row: move.row,
    col: move.col,
    label: t("hint.badge", { pct: percent(move.win_probability), score: decimal(move.expected_score) }),
  }));
}

/** Draw the whole game view from a server state; `change` describes what the last request did. */
function renderGame(change = {}) {
  const state = game.state;
  document.title = t("app.pageTitle", {
    page: state.deal !== null ? t("panel.deal", { deal: state.deal }) : t("panel.dealHidden"),
  });
  const playing = isPlaying();
  const view = $("view-game");
  view.dataset.outcome = state.outcome;
  view.dataset.turn = String(state.turn);
  const boardEl = $("board");
  const keepFocus = board.hasFocus();

  if (playing || !game.replay) {
    board.render({
      cells: state.cells,
      legal: state.legal,
      card: state.card,
      interactive: playing,
      placed: change.placed ?? null,
      flyFrom: change.flyFrom ?? null,
      hint: hintBoardBadges(),
    });
    renderHand(state.card);
    renderGauges(state.stock_left, state.face_down);
  }
  boardEl.dataset.turn = String(state.turn);
  if (keepFocus && playing) board.focus();

  $("btn-undo").disabled = !(playing && state.can_undo);
  $("btn-redo").disabled = !(playing && state.can_redo);
  $("btn-hint").disabled = !playing;
  $("btn-restart").disabled = !(playing && state.turn > 0);
  $("actions").hidden = !playing;
  $("hand-help").hidden = !playing;
  $("hand-caption").textContent = t(playing ? "panel.toPlace" : "replay.nextCard");

  const dealLabel = $("deal-label");
  dealLabel.textContent = state.deal !== null ? t("panel.deal", { deal: state.deal }) : t("panel.dealHidden");
  dealLabel.title = state.deal !== null ? "" : t("panel.dealHiddenNote");
  $("variant-tags").replaceChildren(...variantText(state.variant).map((text) => el("span", { class: "tag", text })));

  if (change.message !== undefined) $("board-message").textContent = change.message;

  renderHintBox();
  if (!playing) showGameOver(change.justEnded === true);
  else {
    $("over").hidden = true;
    $("replay").hidden = true;
  }
}

function placedMessage(placed, flips) {
  const shown = displayCoords(placed.row, placed.col);
  const head = t("flip.placed", { card: cardSymbol(placed.card), row: shown.row, col: shown.col });
  const tail = flipSentence(flips, placed.card);
  return tail ? t("text.sentences", { a: head, b: tail }) : head;
}

async function loadGame(id) {
  const token = ++game.loadToken;
  setBusy(true);
  try {
    const state = await api.getGame(id);
    if (token !== game.loadToken) return;
    setGameState(state, { message: "" });
  } catch (error) {
    if (token !== game.loadToken) return;
    if (error instanceof ApiError && error.status === 404) {
      if (storage(STORAGE_GAME) === id) storage(STORAGE_GAME, null);
      toast(t("error.notFound"), "error");
      await startNewGame({}, { replace: true });
      return;
    }
    toast(errorMessage(error), "error");
  } finally {
    if (token === game.loadToken) setBusy(false);
  }
}

function setGameState(state, change = {}) {
  const newGame = !game.state || game.state.id !== state.id;
  if (newGame) {
    game.hint = null;
    game.replay = null;
    game.analysis = null;
    $("board").replaceChildren();
    board.slots.clear();
  }
  adopt(state);
  storage(STORAGE_GAME, state.id);
  const target = `#/game/${state.id}`;
  if (location.hash !== target) history.replaceState(null, "", target);
  renderGame(change);
}

/** Place the card at (row, col); `fly` animates it from the hand (not after a drag: it is already there). */
async function place(row, col, { fly = true } = {}) {
  if (!isPlaying() || game.busy) return;
  setBusy(true);
  const before = game.state;
  const handCard = $("hand-card").querySelector(".card");
  const flyFrom = fly && handCard ? handCard.getBoundingClientRect() : null;
  try {
    const result = await api.move(before.id, row, col, before.turn);
    game.hint = null;
    const ended = result.outcome !== "playing";
    adopt(result);
    renderGame({ placed: result.placed, flyFrom, message: "", justEnded: ended });
    $("board-message").textContent = placedMessage(result.placed, result.flips ?? []);
  } catch (error) {
    await handleActionError(error);
  } finally {
    setBusy(false);
  }
}

async function handleActionError(error) {
  toast(errorMessage(error), "error");
  if (error instanceof ApiError && error.status === 409 && game.state) {
    try {
      game.hint = null;
      setGameState(await api.getGame(game.state.id), { message: "" });
    } catch (again) {
      toast(errorMessage(again), "error");
    }
  }
}

async function simpleAction(call, message = "") {
  if (!game.state || game.busy) return;
  setBusy(true);
  try {
    const state = await call(game.state.id);
    game.hint = null;
    adopt(state);
    renderGame({ message });
  } catch (error) {
    await handleActionError(error);
  } finally {
    setBusy(false);
  }
}

const undo = () => isPlaying() && game.state.can_undo && simpleAction(api.undo);
const redo = () => isPlaying() && game.state.can_redo && simpleAction(api.redo);

async function restart() {
  if (!isPlaying() || game.state.turn === 0) return;
  const dialog = $("confirm-dialog");
  $("confirm-text").textContent = t("action.restartConfirm");
  dialog.returnValue = "";
  dialog.showModal();
  $("confirm-cancel").focus();
  const answer = await new Promise((resolve) =>
    dialog.addEventListener("close", () => resolve(dialog.returnValue), { once: true }),
  );
  if (answer === "ok") {
    await simpleAction(api.restart, t("toast.restarted"));
  }
}

// --- hint ----------------------------------------------------------------------------------------

async function requestHint() {
  if (!isPlaying() || game.busy) return;
  const turn = game.state.turn;
  const id = game.state.id;
  const version = game.version;
  game.hint = [];
  game.hintTurn = turn;
  $("hint-box").hidden = false;
  $("hint-loading").hidden = false;
  $("hint-list").replaceChildren();
  try {
    const answer = await api.hint(id);
    if (game.version !== version || game.state.id !== id || answer.turn !== turn) return;
    game.hint = answer.moves ?? [];
    renderGame({});
    const best = game.hint[0];
    if (best) {
      const shown = displayCoords(best.row, best.col);
      $("board-message").textContent = t("hint.announce", {
        row: shown.row,
        col: shown.col,
        pct: percent(best.win_probability),
        score: decimal(best.expected_score),
      });
    }
  } catch (error) {
    if (game.version !== version) return;
    game.hint = null;
    renderHintBox();
    await handleActionError(error);
  }
}

function renderHintBox() {
  const box = $("hint-box");
  const current = game.hint && game.state && game.hintTurn === game.state.turn && isPlaying();
  if (!current) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  $("hint-loading").hidden = game.hint.length > 0;
  const cellsByKey = new Map(game.state.cells.map((c) => [`${c.row},${c.col}`, c]));
  $("hint-list").replaceChildren(
    ...game.hint.slice(0, 3).map((move, index) => {
      const shown = displayCoords(move.row, move.col);
      const pile = cellsByKey.get(`${move.row},${move.col}`);
      const where = t("hint.move", { row: shown.row, col: shown.col });
      const button = el(
        "button",
        {
          type: "button",
          class: `hint-item hint-item-${index + 1}`,
          onclick: () => {
            const slot = board.slotFor(move.row, move.col);
            if (slot) slot.focus();
          },
        },
        el("span", {
          class: "hint-where",
          text: pile ? t("hint.whereOnPile", { where, pile: t("hint.onPile", { top: cardSymbol(pile.card) }) }) : where,
        }),
        el("span", { class: "hint-win", text: t("hint.win", { pct: percent(move.win_probability) }) }),
        el("span", { class: "hint-score", text: t("hint.score", { score: decimal(move.expected_score) }) }),
      );
      return el("li", {}, button);
    }),
  );
}

// --- drag and drop (pointer events: mouse, pen and touch) -----------------------------------------

function setupDrag() {
  const slot = $("hand-card");
  let drag = null;

  const clearTarget = () => {
    for (const node of document.querySelectorAll(".slot.drop-target")) node.classList.remove("drop-target");
  };

  slot.addEventListener("pointerdown", (event) => {
    const card = event.target.closest(".card");
    if (!card || !isPlaying() || game.busy || event.button !== 0) return;
    event.preventDefault();
    card.setPointerCapture(event.pointerId);
    const rect = card.getBoundingClientRect();
    drag = {
      card,
      pointerId: event.pointerId,
      startX: event.clientX,
      startY: event.clientY,
      dx: event.clientX - rect.left,
      dy: event.clientY - rect.top,
      ghost: null,
      width: rect.width,
    };
  });

  slot.addEventListener("pointermove", (event) => {
    if (!drag || event.pointerId !== drag.pointerId) return;
    const moved = Math.hypot(event.clientX - drag.startX, event.clientY - drag.startY);
    if (!drag.ghost && moved < 5) return;
    if (!drag.ghost) {
      drag.ghost = drag.card.cloneNode(true);
      drag.ghost.classList.add("drag-ghost");
      drag.ghost.classList.remove("dealt");
      drag.ghost.removeAttribute("role");
      drag.ghost.setAttribute("aria-hidden", "true");
      drag.ghost.style.width = `${drag.width}px`;
      document.body.append(drag.ghost);
      drag.card.classList.add("drag-source");
      document.body.classList.add("dragging");
    }
    drag.ghost.style.transform = `translate(${event.clientX - drag.dx}px, ${event.clientY - drag.dy}px) rotate(-3deg)`;
    clearTarget();
    const target = board.legalSlotAt(event.clientX, event.clientY);
    if (target) target.classList.add("drop-target");
  });

  const finish = (event, drop) => {
    if (!drag || event.pointerId !== drag.pointerId) return;
    const { ghost, card } = drag;
    drag = null;
    clearTarget();
    card.classList.remove("drag-source");
    document.body.classList.remove("dragging");
    if (!ghost) {
      if (drop && isPlaying()) board.focus();
      return;
    }
    ghost.remove();
    if (!drop) return;
    const target = board.legalSlotAt(event.clientX, event.clientY);
    if (target) place(Number(target.dataset.row), Number(target.dataset.col), { fly: false });
  };
  slot.addEventListener("pointerup", (event) => finish(event, true));
  slot.addEventListener("pointercancel", (event) => finish(event, false));
}

// --- game over: outcome, analysis, replay -------------------------------------------------------

function showGameOver(justEnded) {
  const state = game.state;
  const over = $("over");
  const wasHidden = over.hidden;
  over.hidden = false;
  over.dataset.outcome = state.outcome;
  $("over-title").textContent = t(state.outcome === "won" ? "over.won" : "over.lost");
  $("over-reason").textContent = state.reason ? t(`over.reason.${state.reason}`) : "";
  $("over-score").textContent = integer(state.score ?? 0);
  $("over-score-note").textContent = state.outcome === "won" ? t("over.scoreValue", { count: state.score ?? 0 }) : "";
  $("over-deal").textContent = state.deal !== null ? t("over.deal", { deal: state.deal }) : "";
  $("btn-same-deal").hidden = state.deal === null;

  if (!game.replay) {
    game.replay = { total: state.turn, turn: state.turn, cache: new Map(), markers: [] };
    setupReplayControls();
    $("replay-marks").replaceChildren();
    // The final grid is on the board already; once any flip has played, show it as the replay's last step.
    const id = state.id;
    setTimeout(() => {
      if (game.state?.id === id && game.replay && game.replay.turn === game.replay.total) showReplay(game.replay.total);
    }, justEnded ? flipDuration() + 250 : 0);
  }
  $("replay").hidden = false;
  updateReplayButtons();
  if (!game.analysis) loadAnalysis();
  if (wasHidden && justEnded) {
    setTimeout(() => $("over-title").focus({ preventScroll: true }), flipDuration() + 150);
    if (state.outcome === "won" && flipDuration() > 0) {
      setTimeout(() => {
        if (game.state?.id === state.id && game.replay?.turn === game.replay?.total) board.celebrate();
      }, flipDuration() + 100);
    }
  }
}

function setupReplayControls() {
  const slider = $("replay-slider");
  slider.max = String(game.replay.total);
  slider.value = String(game.replay.turn);
  $("replay-caption").textContent = t("replay.position", { turn: game.replay.turn, total: game.replay.total });
}

function updateReplayButtons() {
  const replay = game.replay;
  if (!replay) return;
  $("replay-first").disabled = replay.turn === 0;
  $("replay-prev").disabled = replay.turn === 0;
  $("replay-next").disabled = replay.turn >= replay.total;
  $("replay-last").disabled = replay.turn >= replay.total;
  $("replay-slider").value = String(replay.turn);
  $("replay-slider").setAttribute(
    "aria-valuetext",
    replay.turn === 0 ? t("replay.start") : t("replay.position", { turn: replay.turn, total: replay.total }),
  );
}

async function showReplay(turn, markers = []) {
  const replay = game.replay;
  if (!replay || !game.state) return;
  turn = Math.max(0, Math.min(replay.total, turn));
  replay.turn = turn;
  replay.markers = markers;
  updateReplayButtons();
  const id = game.state.id;
  let position = replay.cache.get(turn);
  if (!position) {
    try {
      position = await api.replay(id, turn);
    } catch (error) {
      toast(errorMessage(error), "error");
      return;
    }
    if (!game.state || game.state.id !== id) return;
    replay.cache.set(turn, position);
  }
  if (replay.turn !== turn) return; // a later step was asked for meanwhile
  const placedMarker = position.placed
    ? [{ row: position.placed.row, col: position.placed.col, kind: "placed", label: "" }]
    : [];
  const shownMarkers = markers.length ? markers : placedMarker;
  if (turn !== replay.total) board.stopCelebrating();
  board.render({
    cells: position.cells,
    legal: [],
    card: null,
    interactive: false,
    markers: shownMarkers,
    frame: finalFrame(),
  });
  $("board").dataset.replayTurn = String(turn);
  renderHand(position.card);
  renderGauges(DECK - turn, position.face_down);
  let caption;
  if (turn === 0) caption = t("replay.start");
  else {
    caption = t("replay.position", { turn, total: replay.total });
    if (position.placed) {
      const shown = displayCoords(position.placed.row, position.placed.col);
      let placed = t("replay.placed", { card: cardSymbol(position.placed.card), row: shown.row, col: shown.col });
      const flips = flipSentence(position.flips ?? [], position.placed.card);
      if (flips) placed = t("text.sentences", { a: placed, b: flips });
      caption = t("replay.caption", { position: caption, placed });
    }
  }
  $("replay-caption").textContent = caption;
}

/** The extent of the final grid, which holds every cell the game ever used. */
function finalFrame() {
  const cells = game.state?.cells ?? [];
  if (cells.length === 0) return undefined;
  const rows = cells.map((c) => c.row);
  const cols = cells.map((c) => c.col);
  return { minRow: Math.min(...rows), maxRow: Math.max(...rows), minCol: Math.min(...cols), maxCol: Math.max(...cols) };
}

function setupReplayButtons() {
  const step = (delta) => game.replay && showReplay(game.replay.turn + delta);
  $("replay-first").addEventListener("click", () => game.replay && showReplay(0));
  $("replay-prev").addEventListener("click", () => step(-1));
  $("replay-next").addEventListener("click", () => step(1));
  $("replay-last").addEventListener("click", () => game.replay && showReplay(game.replay.total));
  $("replay-slider").addEventListener("input", (event) => game.replay && showReplay(Number(event.target.value)));
}

async function loadAnalysis() {
  const state = game.state;
  const id = state.id;
  game.analysis = { loading: true };
  const section = $("analysis");
  const body = $("analysis-body");
  section.setAttribute("aria-busy", "true");
  body.replaceChildren(
    el("p", { class: "analysis-loading" }, el("span", { class: "spinner", "aria-hidden": "true" }), el("span", { text: t("over.analysing") })),
  );
  try {
    const analysis = await api.analysis(id);
    if (!game.state || game.state.id !== id) return;
    game.analysis = analysis;
    renderAnalysis(analysis);
  } catch (error) {
    if (!game.state || game.state.id !== id) return;
    game.analysis = null;
    body.replaceChildren(
      el("p", { class: "analysis-error", text: t("over.analysisFailed", { detail: errorMessage(error) }) }),
      el("button", {
        type: "button",
        class: "button",
        text: t("action.retry"),
        onclick: () => loadAnalysis(),
      }),
    );
  } finally {
    if (game.state?.id === id) section.setAttribute("aria-busy", "false");
  }
}

/** Little marks under the replay slider where the mistakes were; each one opens that position. */
function drawMistakeMarks(moves) {
  const total = game.replay?.total ?? 0;
  const marks = $("replay-marks");
  if (!total) {
    marks.replaceChildren();
    return;
  }
  marks.replaceChildren(
    ...moves
      .filter((move) => move.mistake)
      .map((move) =>
        el("button", {
          type: "button",
          class: "replay-mark",
          style: `left: ${(100 * move.index) / total}%`,
          title: t("replay.mistake", { n: move.index + 1, card: cardSymbol(move.card) }),
          "aria-label": t("replay.mistake", { n: move.index + 1, card: cardSymbol(move.card) }),
          tabindex: "-1",
          onclick: () => showMistake(move),
        }),
      ),
  );
}

/** Show the position before a move, with the cell played and the best cell marked. */
function showMistake(move) {
  showReplay(move.index, [
    { row: move.played[0], col: move.played[1], kind: "played", label: t("replay.played") },
    { row: move.best[0], col: move.best[1], kind: "best", label: t("replay.best") },
  ]);
}

function renderAnalysis(analysis) {
  const body = $("analysis-body");
  const perfect = analysis.perfect ?? {};
  const parts = [];
  const verdict =
    perfect.winnable === true ? "over.winnable" : perfect.winnable === false ? "over.notWinnable" : "over.unknownWinnable";
  parts.push(el("p", { class: `analysis-verdict verdict-${String(perfect.winnable)}`, text: t(verdict) }));
  if (perfect.best_score !== null && perfect.best_score !== undefined) {
    parts.push(el("p", { class: "analysis-best", text: t("over.bestScore", { score: perfect.best_score }) }));
  } else if (perfect.winnable !== false && perfect.upper_bound !== null && perfect.upper_bound !== undefined) {
    parts.push(el("p", { class: "analysis-best", text: t("over.bestScoreUnknown", { bound: perfect.upper_bound }) }));
  }
  const moves = analysis.moves ?? [];
  drawMistakeMarks(moves);
  const costly = (analysis.costliest ?? [])
    .map((index) => moves.find((m) => m.index === index) ?? moves[index])
    .filter(Boolean)
    .slice(0, MAX_COSTLY);
  const mistakes = moves.filter((m) => m.mistake).length;
  parts.push(el("p", { class: "analysis-mistakes", text: t("over.mistakes", { count: mistakes }) }));
  parts.push(el("h4", { text: t("over.costliest") }));
  if (costly.length === 0) {
    parts.push(el("p", { class: "analysis-clean", text: t("over.noMistakes") }));
  } else {
    // Coordinates are told relative to the final grid, the frame the replay draws every step in.
    const frame = finalFrame() ?? { minRow: 0, minCol: 0 };
    const origin = { row: frame.minRow, col: frame.minCol };
    const at = ([row, col]) => ({ row: row - origin.row + 1, col: col - origin.col + 1 });
    parts.push(
      el(
        "ol",
        { class: "costly-list" },
        ...costly.map((move) => {
          const played = at(move.played);
          const best = at(move.best);
          const line = t("over.moveLine", {
            n: move.index + 1,
            card: cardSymbol(move.card),
            prow: played.row,
            pcol: played.col,
            brow: best.row,
            bcol: best.col,
          });
          const loss = t("over.moveLoss", {
            pct: percent(Math.max(0, move.win_probability_loss ?? 0)),
            score: decimal(Math.max(0, move.expected_score_loss ?? 0)),
          });
          return el(
            "li",
            { class: "costly-move" },
            el("span", { class: "costly-line", text: line }),
            el("span", { class: "costly-loss", text: loss }),
            el("button", {
              type: "button",
              class: "button button-small",
              text: t("over.show"),
              "aria-label": t("over.showLabel", { line }),
              onclick: () => showMistake(move),
            }),
          );
        }),
      ),
    );
  }
  body.replaceChildren(...parts);
}

// --- new game ------------------------------------------------------------------------------------

const MAX_DEAL = 18446744073709551615n;

function setupNewGameDialog() {
  const dialog = $("new-dialog");
  const form = $("new-form");
  const dealInput = $("new-deal");
  const error = $("new-deal-error");

  const syncKind = () => {
    const numbered = form.elements.dealkind.value === "numbered";
    dealInput.disabled = !numbered;
    if (!numbered) error.textContent = "";
  };
  for (const radio of form.elements.dealkind) radio.addEventListener("change", syncKind);
  dealInput.addEventListener("input", () => {
    form.elements.dealkind.value = "numbered";
    error.textContent = "";
  });
  dealInput.addEventListener("focus", () => {
    form.elements.dealkind.value = "numbered";
    dealInput.disabled = false;
  });
  $("new-cancel").addEventListener("click", () => dialog.close("cancel"));

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const options = {
      variant: {
        adjacency: $("new-diagonal").checked ? "diagonal" : "orthogonal",
        count_buried: $("new-buried").checked,
      },
    };
    if (form.elements.dealkind.value === "numbered") {
      const text = dealInput.value.trim();
      if (!/^[0-9]{1,20}$/.test(text) || BigInt(text) > MAX_DEAL) {
        error.textContent = t("new.numberInvalid");
        dealInput.setAttribute("aria-invalid", "true");
        dealInput.focus();
        return;
      }
      dealInput.removeAttribute("aria-invalid");
      options.deal = BigInt(text).toString();
    }
    dialog.close("start");
    await startNewGame(options);
  });
}

function openNewGameDialog() {
  const dialog = $("new-dialog");
  if (dialog.open) return;
  const variant = game.state?.variant;
  if (variant) {
    $("new-diagonal").checked = variant.adjacency === "diagonal";
    $("new-buried").checked = variant.count_buried;
  }
  $("new-deal-error").textContent = "";
  $("new-deal").disabled = $("new-form").elements.dealkind.value !== "numbered";
  dialog.showModal();
}

async function startNewGame(options, { replace = false } = {}) {
  setBusy(true);
  try {
    const state = await api.newGame(options);
    game.state = null;
    if (replace) history.replaceState(null, "", `#/game/${state.id}`);
    else history.pushState(null, "", `#/game/${state.id}`);
    showView("game");
    setGameState(state, { message: "" });
    board.focus();
  } catch (error) {
    toast(errorMessage(error), "error");
  } finally {
    setBusy(false);
  }
}

// --- routing -------------------------------------------------------------------------------------

function showView(name) {
  for (const view of ["game", "stats", "rules"]) $(`view-${view}`).hidden = view !== name;
  for (const link of document.querySelectorAll(".site-nav a")) {
    if (link.dataset.route === name) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
  document.body.dataset.view = name;
}

async function route() {
  // Real paths (/game/ID, /stats, /rules) are served the same page: turn them into hash routes.
  if (location.pathname !== "/" && !location.hash) {
    history.replaceState(null, "", `/#${location.pathname}`);
  }
  const hash = location.hash.replace(/^#/, "") || "/";
  const match = hash.match(/^\/game\/([A-Za-z0-9_-]+)$/);
  if (match) {
    showView("game");
    if (!game.state || game.state.id !== match[1]) await loadGame(match[1]);
    return;
  }
  if (hash === "/stats") {
    showView("stats");
    document.title = t("app.pageTitle", { page: t("stats.title") });
    await showStats();
    return;
  }
  if (hash === "/rules") {
    showView("rules");
    document.title = t("app.pageTitle", { page: t("nav.rules") });
    return;
  }
  // The start page: resume the remembered game, else deal a new one.
  showView("game");
  const remembered = storage(STORAGE_GAME);
  if (game.state) {
    history.replaceState(null, "", `#/game/${game.state.id}`);
    renderGame({});
  } else if (remembered) {
    history.replaceState(null, "", `#/game/${remembered}`);
    await loadGame(remembered);
  } else {
    await startNewGame({}, { replace: true });
  }
}

// --- keyboard shortcuts --------------------------------------------------------------------------

function setupShortcuts() {
  document.addEventListener("keydown", (event) => {
    if (document.querySelector("dialog[open]")) return;
    const target = event.target;
    if (target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement || target.isContentEditable) return;
    if (document.body.dataset.view !== "game") return;
    const key = event.key.toLowerCase();
    if (event.ctrlKey || event.metaKey) {
      if (key === "z" && !event.shiftKey) undo();
      else if ((key === "z" && event.shiftKey) || key === "y") redo();
      else return;
      event.preventDefault();
      return;
    }
    if (event.altKey) return;
    if (game.replay && !isPlaying()) {
      // After the game: the arrow keys (and Home/End) step through the replay.
      const steps = { ArrowLeft: -1, ArrowRight: 1 };
      if (event.key in steps) showReplay(game.replay.turn + steps[event.key]);
      else if (event.key === "Home") showReplay(0);
      else if (event.key === "End") showReplay(game.replay.total);
      else if (key === "n") openNewGameDialog();
      else return;
      event.preventDefault();
      return;
    }
    if (key === "u") undo();
    else if (key === "r") redo();
    else if (key === "h") requestHint();
    else if (key === "n") openNewGameDialog();
    else return;
    event.preventDefault();
  });
}

// --- start ---------------------------------------------------------------------------------------

function start() {
  translateTree(document);
  document.title = t("app.title");
  renderRules();
  setupTheme();
  setupDrag();
  setupReplayButtons();
  setupNewGameDialog();
  setupShortcuts();
  $("btn-undo").addEventListener("click", undo);
  $("btn-redo").addEventListener("click", redo);
  $("btn-restart").addEventListener("click", restart);
  $("btn-hint").addEventListener("click", requestHint);
  $("btn-new").addEventListener("click", openNewGameDialog);
  $("btn-again").addEventListener("click", () => startNewGame({ variant: game.state?.variant }));
  $("btn-same-deal").addEventListener("click", () => {
    if (game.state?.deal !== null && game.state?.deal !== undefined) {
      startNewGame({ deal: String(game.state.deal), variant: game.state.variant });
    }
  });
  setupStats();
  // The skip link moves focus to the grid without touching the route in the URL.
  document.querySelector(".skip-link").addEventListener("click", async (event) => {
    event.preventDefault();
    if (document.body.dataset.view !== "game") {
      history.pushState(null, "", "#/");
      await route();
    }
    board.focus({ scroll: true });
  });
  window.addEventListener("hashchange", route);
  document.body.classList.add("ready");
  route();
}

start();
