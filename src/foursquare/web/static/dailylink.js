// @ts-check
// The daily deal in the navigation: its link (#/daily, today's daily deal) says when the next one comes, in the
// player's own time zone and language ("next at 01:00"), and is drawn again when that time has come.

import { dayEnd, localTime } from "./daily.js";
import { t } from "./i18n.js";

let timer = 0;

/** Say when the next daily deal comes under the navigation's link to the daily deal (again at that time). */
export function renderDailyLink() {
  const note = document.getElementById("nav-daily-next");
  if (!note) return;
  const next = dayEnd(new Date().toISOString().slice(0, 10));
  note.textContent = t("nav.dailyNext", { time: localTime(next, { timeOnly: true }) });
  note.dataset.next = next.toISOString();
  clearTimeout(timer);
  timer = setTimeout(renderDailyLink, Math.min(next.getTime() - Date.now() + 1000, 2 ** 31 - 1));
}
