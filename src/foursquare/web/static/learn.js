// @ts-check
// The lesson (#/learn): a fixed teaching deal, one rule at a time. Its steps come from the server
// (GET /api/lesson: each step's cell, card, what it teaches, and what the engine said the placement did);
// the page plays them from that answer alone and never decides a rule: the cards that turn over, which way,
// the face-down count and the win are the server's. The step's cell carries data-tutorial-target (its name)
// and the lesson's container data-tutorial-step (the step's number, the number of steps + 1 once done).
// Also the first visit's offer above the game's board (no remembered game, the lesson never finished or
// dismissed), which is never a dialog and never blocks the game.

import { createCard, setCard } from "./cards.js";
import { placedSentence } from "./describe.js";
import { el, storage } from "./dom.js";
import { cardLabel, cardSymbol, integer, t } from "./i18n.js";

/**
 * @typedef {import("./api.js").LessonStep} LessonStep
 * @typedef {import("./api.js").Lesson} LessonData
 * @typedef {{card: string, faceUp: boolean, height: number}} Pile
 */

/**
 * The lesson's elements of index.html (dom.js's $ types the game's; these are the lesson's own).
 * @param {string} id
 */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));

/** localStorage: "done" once the lesson was finished, "dismissed" once its offer was declined. */
export const STORAGE_LESSON = "foursquare.lesson";

/** @type {LessonData | null} */
let lesson = null;
/** @type {Promise<LessonData> | null} */
let loading = null;
let index = 0; // the step to play (0-based); lesson.steps.length once done
/** @type {Map<string, Pile>} the piles by cell name, as the server's steps left them */
let piles = new Map();
/** @type {Map<string, HTMLElement>} each cell's element, by name */
const slots = new Map();
/** The sentence about the last card placed (the game's words), empty before the first. */
let said = "";
let playReal = () => {};

/** The lesson's steps, asked of the server once. */
function fetchLesson() {
  loading ??= fetch("/api/lesson", { headers: { Accept: "application/json" }, credentials: "same-origin" }).then(
    async (response) => {
      if (!response.ok) throw new Error(`GET /api/lesson: ${response.status}`);
      return /** @type {LessonData} */ (await response.json());
    },
  );
  loading.catch(() => {
    loading = null; // asked again next time
  });
  return loading;
}

/**
 * Wire the lesson's buttons and the first visit's offer; `real` starts a real game (app.js's).
 * @param {() => void} real
 */
export function setupLesson(real) {
  playReal = real;
  $("btn-lesson-play").addEventListener("click", () => playReal());
  $("btn-lesson-again").addEventListener("click", () => {
    restart();
    render({ focus: true });
  });
  $("btn-offer-learn").addEventListener("click", () => {
    $("lesson-offer").hidden = true;
    location.hash = "#/learn";
  });
  $("btn-offer-dismiss").addEventListener("click", () => {
    storage(STORAGE_LESSON, "dismissed");
    $("lesson-offer").hidden = true;
  });
  const board = $("lesson-board");
  board.addEventListener("click", (event) => {
    const slot = /** @type {Element} */ (event.target).closest(".lesson-slot");
    if (slot instanceof HTMLElement && board.contains(slot)) choose(slot);
  });
  board.addEventListener("keydown", (/** @type {KeyboardEvent} */ event) => {
    const slot = /** @type {Element} */ (event.target).closest(".lesson-slot");
    if (!(slot instanceof HTMLElement) || (event.key !== "Enter" && event.key !== " ")) return;
    event.preventDefault();
    choose(slot);
  });
}

/**
 * Whether this visit should be offered the lesson: no remembered game, and the lesson never finished nor its
 * offer declined. Asked before the first route (which remembers a new game).
 * @param {string | null} remembered the remembered game's id
 */
export function isFirstVisit(remembered) {
  return remembered === null && storage(STORAGE_LESSON) === null;
}

/** Show the offer above the game's board (a line, not a dialog: the game goes on under it). */
export function offerLesson() {
  $("lesson-offer").hidden = false;
}

/** Show the lesson from its first step (the view is shown by routing.js). */
export async function showLesson() {
  const container = $("lesson");
  container.dataset.waiting = t("busy.waiting"); // shown while the answer is slow to come (style.css)
  container.setAttribute("aria-busy", "true");
  try {
    lesson = await fetchLesson();
  } catch {
    $("lesson-sentence").textContent = t("error.network");
    return;
  } finally {
    container.setAttribute("aria-busy", "false");
  }
  $("lesson-offer").hidden = true;
  restart();
  render({ focus: true });
}

/** The language changed: the lesson again in the new words, where it stands. */
export function rerenderLesson() {
  if (lesson) render({ focus: false });
}

function restart() {
  index = 0;
  piles = new Map();
  said = "";
  $("lesson-hint").textContent = "";
}

/**
 * The step's sentence: what to do, and why (lesson.step.<code>).
 * @param {LessonStep} step
 */
function stepSentence(step) {
  const limit = lesson ? lesson.max_face_down : 0;
  return t(`lesson.step.${step.code}`, { card: cardSymbol(step.card), cell: step.cell, limit: integer(limit) });
}

/**
 * A cell was clicked, or Enter pressed on it: the step's cell advances; another gets a gentle hint.
 * @param {HTMLElement} slot
 */
function choose(slot) {
  if (!lesson || index >= lesson.steps.length) return;
  const step = lesson.steps[index];
  if (slot.dataset.cell !== step.cell) {
    $("lesson-hint").textContent = t("lesson.wrong", { cell: step.cell });
    return;
  }
  advance(step);
}

/**
 * Play `step`: its card on its cell, and every card the server says turned.
 * @param {LessonStep} step
 */
function advance(step) {
  const pile = piles.get(step.cell);
  piles.set(step.cell, { card: step.card, faceUp: true, height: (pile?.height ?? 0) + 1 });
  for (const flip of step.flips) {
    const turned = piles.get(flip.cell);
    if (turned) turned.faceUp = flip.face_up;
  }
  const head = placedSentence({ row: step.row, col: step.col, cell: step.cell, card: step.card }, step.flips);
  const nothing = step.flips.length ? "" : ` ${t("lesson.nothing")}`;
  said = `${head}${nothing}`;
  index += 1;
  $("lesson-hint").textContent = "";
  render({ focus: true, turned: new Set(step.flips.map((flip) => flip.cell)) });
}

/**
 * Draw the lesson where it stands.
 * @param {{focus?: boolean, turned?: Set<string>}} how `focus`: move focus to the step's cell (or the done
 *   panel); `turned`: the cells whose card turns over now (animated)
 */
function render({ focus = false, turned = new Set() }) {
  if (!lesson) return;
  const { steps } = lesson;
  const step = index < steps.length ? steps[index] : null;
  const container = $("lesson");
  container.dataset.tutorialStep = String(index + 1);
  drawBoard(step, turned);
  const total = integer(steps.length);
  $("lesson-progress").textContent = step ? t("lesson.progress", { number: integer(step.number), total }) : "";
  const hand = $("lesson-hand");
  if (step) {
    const card = /** @type {HTMLElement | null} */ (hand.querySelector(".card"));
    if (card) setCard(card, step.card, true, false);
    else hand.replaceChildren(createCard(step.card, true));
  } else {
    hand.replaceChildren();
  }
  $("lesson-hand-slot").hidden = step === null;
  const down = index === 0 ? 0 : steps[index - 1].face_down;
  $("lesson-facedown").textContent = t("lesson.faceDown", {
    count: integer(down),
    limit: integer(lesson.max_face_down),
  });
  $("lesson-facedown").classList.toggle("at-limit", down >= lesson.max_face_down);
  $("lesson-said").textContent = said;
  $("lesson-sentence").textContent = step ? stepSentence(step) : "";
  const done = $("lesson-done");
  done.hidden = step !== null;
  if (step === null) storage(STORAGE_LESSON, "done");
  if (!focus) return;
  if (step) slots.get(step.cell)?.focus({ preventScroll: false });
  else $("lesson-done-title").focus();
}

/**
 * The lesson's grid: the square its steps fill, each cell with its pile; the step's cell marked.
 * @param {LessonStep | null} step
 * @param {Set<string>} turned
 */
function drawBoard(step, turned) {
  if (!lesson) return;
  const board = $("lesson-board");
  const cells = new Map(lesson.steps.map((s) => [s.cell, s]));
  const rows = [...cells.values()].map((s) => s.row);
  const cols = [...cells.values()].map((s) => s.col);
  const [minRow, maxRow, minCol, maxCol] = [Math.min(...rows), Math.max(...rows), Math.min(...cols), Math.max(...cols)];
  board.style.setProperty("--rows", String(maxRow - minRow + 1));
  board.style.setProperty("--cols", String(maxCol - minCol + 1));
  if (slots.size === 0) {
    for (const s of cells.values()) {
      const slot = el("div", { class: "slot lesson-slot", "data-cell": s.cell });
      slot.style.setProperty("grid-row", String(s.row - minRow + 1));
      slot.style.setProperty("grid-column", String(s.col - minCol + 2));
      slots.set(s.cell, slot);
      board.append(slot);
    }
    // The cells' names on the edges, as on the game's board: the row numbers left, the column letters below.
    for (const s of cells.values()) {
      const row = s.cell.slice(1);
      const column = s.cell.slice(0, 1);
      if (!board.querySelector(`[data-edge-row="${row}"]`)) {
        const edge = el("span", { class: "edge edge-row", "data-edge-row": row, "aria-hidden": "true", text: row });
        edge.style.setProperty("grid-row", String(s.row - minRow + 1));
        edge.style.setProperty("grid-column", "1");
        board.append(edge);
      }
      if (!board.querySelector(`[data-edge-column="${column}"]`)) {
        const attributes = { class: "edge edge-column", "data-edge-column": column, "aria-hidden": "true" };
        const edge = el("span", { ...attributes, text: column });
        edge.style.setProperty("grid-row", String(maxRow - minRow + 2));
        edge.style.setProperty("grid-column", String(s.col - minCol + 2));
        board.append(edge);
      }
    }
  }
  for (const [name, slot] of slots) drawSlot(slot, name, step, turned.has(name));
}

/**
 * One cell: its pile (a card, face up or down, and a height badge), its accessible name, and whether it is the
 * step's target (focusable, marked with data-tutorial-target).
 * @param {HTMLElement} slot
 * @param {string} name
 * @param {LessonStep | null} step
 * @param {boolean} turning
 */
function drawSlot(slot, name, step, turning) {
  const pile = piles.get(name);
  const target = step !== null && step.cell === name;
  slot.classList.toggle("occupied", pile !== undefined);
  slot.classList.toggle("legal", target);
  slot.classList.toggle("lesson-target", target);
  // Every cell has a role for its name (aria-label is refused on a bare div): the step's a button, the others an
  // image of their pile.
  if (target) {
    slot.dataset.tutorialTarget = name;
    slot.tabIndex = 0;
    slot.setAttribute("role", "button");
  } else {
    delete slot.dataset.tutorialTarget;
    slot.removeAttribute("tabindex");
    slot.setAttribute("role", "img");
  }
  let card = /** @type {HTMLElement | null} */ (slot.querySelector(".card"));
  if (!pile) {
    card?.remove();
  } else if (card) {
    setCard(card, pile.card, pile.faceUp, turning);
  } else {
    card = createCard(pile.card, pile.faceUp);
    slot.append(card);
  }
  let badge = slot.querySelector(".lesson-badge");
  if (pile && pile.height > 1) {
    badge ??= slot.appendChild(el("span", { class: "lesson-badge", "aria-hidden": "true" }));
    badge.textContent = t("card.pileBadge", { count: integer(pile.height) });
  } else {
    badge?.remove();
  }
  const label = target
    ? t("lesson.target", { cell: name, card: cardSymbol(step.card) })
    : pile
      ? t("lesson.cell", { cell: name, card: cardLabel(pile.card, pile.faceUp) })
      : t("lesson.cellEmpty", { cell: name });
  slot.setAttribute("aria-label", label);
}
