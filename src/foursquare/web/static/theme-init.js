// Runs before the first paint so a reader who chose the dark theme never sees a light flash.
// Light is the default; the choice is remembered in localStorage ("fs.theme").
(function () {
  try {
    var theme = localStorage.getItem("fs.theme");
    if (theme === "dark" || theme === "light") document.documentElement.dataset.theme = theme;
  } catch (e) {
    /* storage disabled: keep the light default */
  }
})();
