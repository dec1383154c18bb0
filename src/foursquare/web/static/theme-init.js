// @ts-check
// Runs before the first paint, so that neither the theme nor the deck flashes in the wrong colours.
// It applies the choices remembered in localStorage (settings.js writes them):
//   fs.theme  "light" | "dark" | absent: follow the system (prefers-color-scheme)
//   fs.deck   "four" | absent: the four-colour deck (clubs and diamonds in their own colours)
//   fs.motion "reduce" | "full" | absent: follow the system (prefers-reduced-motion)
//   fs.back, fs.table  the card back and the table's colour (preferences.js, which keeps the same lists)
// as data-theme, data-deck, data-motion, data-back and data-table on <html>, which style.css and preferences.css read. theme.js and settings.js
// keep them up to date afterwards (and follow the system live while no choice is made).
(function () {
  var root = document.documentElement;
  /** @param {string} key */
  var read = function (key) {
    try {
      return localStorage.getItem(key);
    } catch (e) {
      return null; /* storage disabled: follow the system */
    }
  };
  /** @param {string} query */
  var system = function (query) {
    return window.matchMedia && window.matchMedia(query).matches;
  };
  var theme = read("fs.theme");
  if (theme !== "dark" && theme !== "light") theme = system("(prefers-color-scheme: dark)") ? "dark" : "light";
  root.dataset.theme = theme;
  root.dataset.deck = read("fs.deck") === "four" ? "four" : "two";
  var motion = read("fs.motion");
  if (motion !== "reduce" && motion !== "full") motion = system("(prefers-reduced-motion: reduce)") ? "reduce" : "full";
  root.dataset.motion = motion;
  var back = read("fs.back");
  root.dataset.back = back === "red" || back === "green" || back === "grey" ? back : "blue";
  var table = read("fs.table");
  root.dataset.table = table === "blue" || table === "red" || table === "grey" ? table : "green";
})();
