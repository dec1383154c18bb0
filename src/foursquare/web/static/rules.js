// The rules view: the rules in our own words (from the catalogue) and a pictured example.

import { createCard } from "./cards.js";
import { $, el } from "./dom.js";
import { t, tLines } from "./i18n.js";

// --- rules ---------------------------------------------------------------------------------------

/** A picture of the turning rule: a row before and after a high card lands at its end. */
function rulesExample() {
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

/** Fill the rules view from the catalogue. */
export function renderRules() {
  const paragraphs = tLines("rules.body").map((text) => el("p", { text }));
  paragraphs.splice(3, 0, rulesExample());
  $("rules-body").replaceChildren(...paragraphs);
  $("rules-controls").replaceChildren(...tLines("rules.controlsBody").map((text) => el("li", { text })));
}
