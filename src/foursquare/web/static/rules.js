// @ts-check
// The rules view: the full rules (docs/rules.md) from the catalogue's rules.* messages, which the terminal's
// rules screen shares, with the readings of the original sheet marked, a pictured example and the controls.

import { createCard } from "./cards.js";
import { $, el } from "./dom.js";
import { t } from "./i18n.js";

// --- rules ---------------------------------------------------------------------------------------

/** A picture of the turning rule: a row before and after a high card lands at its end. */
function rulesExample() {
  /**
   * @param {[string, boolean, boolean][]} cards each card's name, whether it is face up, whether it was just placed
   * @param {string} caption
   */
  const row = (cards, caption) => {
    const strip = el("div", { class: "example-row" });
    for (const [name, faceUp, placed] of cards) {
      const card = createCard(name, faceUp);
      if (placed) card.classList.add("example-placed");
      strip.append(card);
    }
    return el("figure", { class: "example" }, strip, el("figcaption", { text: caption }));
  };
  return el(
    "div",
    { class: "rules-example", role: "group", "aria-label": t("rules.exampleLabel") },
    row(
      [
        ["3C", true, false],
        ["7H", true, false],
        ["9S", true, true],
      ],
      t("rules.exampleBefore"),
    ),
    row(
      [
        ["3C", false, false],
        ["7H", false, false],
        ["9S", true, true],
      ],
      t("rules.exampleAfter"),
    ),
  );
}

const para = (/** @type {string} */ key) => el("p", { text: t(key) });
const list = (/** @type {"ul" | "ol"} */ tag, /** @type {string[]} */ keys) =>
  el(tag, {}, ...keys.map((key) => el("li", { text: t(key) })));
const heading = (/** @type {string} */ key) => el("h2", { text: t(key) });

/**
 * A point the original sheet leaves open, and how this game reads it.
 * @param {string} key
 */
function reading(key) {
  return el("p", { class: "rules-reading" }, el("strong", { class: "rules-reading-label", text: t("rules.readingLabel") }), " ", t(key));
}

const section = (/** @type {Node[]} */ ...children) => el("section", { class: "rules-section" }, ...children);

/** Fill the rules view from the catalogue (again after a change of language). */
export function renderRules() {
  $("rules-body").replaceChildren(
    para("rules.intro"),
    el("p", { class: "rules-note", text: t("rules.readings") }),
    section(heading("rules.cards.title"), para("rules.cards.text"), para("rules.cards.stock")),
    section(
      heading("rules.laying.title"),
      para("rules.laying.take"),
      para("rules.laying.first"),
      para("rules.laying.later"),
      list("ul", ["rules.laying.onPile", "rules.laying.nextTo"]),
      reading("rules.reading.nextTo"),
      reading("rules.reading.box"),
    ),
    section(
      heading("rules.turning.title"),
      para("rules.turning.intro"),
      para("rules.turning.row"),
      para("rules.turning.allDown"),
      para("rules.turning.tie"),
      rulesExample(),
      para("rules.turning.column"),
      para("rules.turning.topOnly"),
      reading("rules.reading.faceDown"),
      reading("rules.reading.flip"),
      reading("rules.reading.tie"),
    ),
    section(
      heading("rules.end.title"),
      para("rules.end.intro"),
      list("ol", ["rules.end.win", "rules.end.faceDown", "rules.end.stock"]),
      para("rules.end.zero"),
      reading("rules.reading.topCount"),
      reading("rules.reading.winFirst"),
    ),
    section(
      heading("rules.house.title"),
      para("rules.house.intro"),
      list("ul", ["rules.house.diagonal", "rules.house.countBuried"]),
      para("rules.house.standard"),
    ),
    section(heading("rules.deals.title"), para("rules.deals.text")),
    section(heading("rules.offline.title"), para("rules.offline.text")),
    section(
      heading("rules.example.title"),
      para("rules.example.deal"),
      list("ol", ["rules.example.first", "rules.example.second", "rules.example.third", "rules.example.fourth"]),
    ),
  );
  // A touch screen without a mouse nor keys: tap, and no keys (as the game's own how-to line, app.js).
  const touch = matchMedia("(hover: none) and (pointer: coarse)").matches;
  const keys = touch ? ["panel.dragHintTouch", "rules.controls.4"] : [1, 2, 3, 4].map((n) => `rules.controls.${n}`);
  $("rules-controls").replaceChildren(...keys.map((key) => el("li", { text: t(key) })));
}
