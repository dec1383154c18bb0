"""The page in each of its languages, at desktop and phone size, in Chromium.

For every language and the pseudo-language ``qps``: the page comes up in the language of ``Accept-Language``
alone (``<html lang>``, the title, the navigation); the language menu switches it and the choice survives a
reload; the game, a finished game's analysis, the statistics and the rules fit their boxes. In ``qps`` (every
message bracketed ⟦…⟧) no Latin-letter word outside the brackets is left in any text, ``aria-label``, ``title``
or ``placeholder``: nothing the page shows escapes the catalogue; in Kannada and Bengali, no Latin word but
identifiers (cell names, card codes, keys). Screenshots:
``test-artifacts/screenshots/i18n-<code>-<desktop|phone>-<view>.png``.
"""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest

from browser_support import (
    BROWSER_MARKS,
    DESKTOP,
    GUARD_S,
    WAIT_MS,
    browser,
    click_cell,
    expect,
    new_page,
    server,
    shot,
    wait_turn,
)
from foursquare.i18n import LANGUAGES, translator
from web_support import as_player

pytestmark = BROWSER_MARKS
__all__ = ["browser", "server"]

PHONE = {"width": 360, "height": 640}
SIZES = {"desktop": DESKTOP, "phone": PHONE}
CODES = [*LANGUAGES, "qps"]
# What each language's browser sends: regional tags and Tagalog's alias, as real browsers do.
ACCEPT = {"en": "en-GB", "uz": "uz-Latn-UZ", "hr": "hr-HR", "fil": "tl", "kn": "kn-IN", "bn": "bn-BD", "qps": "qps"}
MENU = list(LANGUAGES)

# Every text node, aria-label, title, placeholder (and the like) of the page, with the language it is written
# in (the nearest lang attribute: the menu names each language in itself).
TEXTS = """() => {
  const out = [];
  const langOf = (node) => (node.closest ? node : node.parentElement)?.closest("[lang]")?.lang ?? "";
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (node.parentElement.closest("script, style, svg.sprite")) continue;
    // A date is Intl's, in the language's conventions (qps has English's: its month names are no message).
    if (node.parentElement.closest("time") && document.documentElement.lang === "qps") continue;
    if (node.textContent.trim()) out.push([langOf(node), node.textContent]);
  }
  for (const el of document.querySelectorAll("[aria-label], [title], [placeholder], [aria-valuetext], [alt]")) {
    for (const name of ["aria-label", "title", "placeholder", "aria-valuetext", "alt"]) {
      const value = el.getAttribute(name);
      if (value && value.trim()) out.push([langOf(el), value]);
    }
  }
  for (const el of document.querySelectorAll("svg title, svg desc")) out.push([langOf(el), el.textContent]);
  out.push([document.documentElement.lang, document.title]);
  return out;
}"""

# Elements whose content is wider (or, clipping, taller) than their box: text that overflows or is cut off.
OVERFLOWS = """() => {
  const found = [];
  for (const el of document.querySelectorAll("body *")) {
    if (el.closest("svg, .sprite, .visually-hidden, .card, .board, dialog:not([open]), [hidden]")) continue;
    const style = getComputedStyle(el);
    if (style.display === "none" || style.visibility === "hidden" || el.getClientRects().length === 0) continue;
    if (el.clientWidth <= 1 && el.clientHeight <= 1) continue;  // visually hidden, for screen readers
    if (["auto", "scroll"].includes(style.overflowX)) continue;  // a scroll box: its content may be wider
    const wide = el.scrollWidth - el.clientWidth > 1 && el.clientWidth > 0;
    const clipped = style.overflowY === "hidden" && el.scrollHeight - el.clientHeight > 1 && el.clientHeight > 0;
    if (wide || clipped) {
      const id = el.id ? "#" + el.id : "";
      const cls = el.className && typeof el.className === "string" ? "." + el.className.split(" ").join(".") : "";
      const sizes = `${el.scrollWidth}x${el.scrollHeight} in ${el.clientWidth}x${el.clientHeight}`;
      found.push(`${el.tagName.toLowerCase()}${id}${cls}: ${sizes}`);
    }
  }
  const width = document.documentElement.scrollWidth;
  if (width > window.innerWidth) found.push(`page ${width}px wide`);
  return found;
}"""

# What may stand outside ⟦…⟧: cell names (D4) and the board's column letters, the ace's "A", the game's name.
IDENTIFIER = re.compile(r"^(?:[A-G][1-7]?|Foursquare)$")
BRACKETED = re.compile(r"⟦[^⟦⟧]*⟧")


# In Kannada and Bengali, whose scripts are not Latin, the Latin words left are identifiers only: cell names
# and card codes (D4, AC, 10S), keys (U, R, H, N), the rules' X, the deal algorithm's SplitMix64, next() and i, and
# the export's file format, JSON (named as such: the export's help says the file is JSON).
IDENTIFIER_IN_SCRIPT = re.compile(
    r"^(?:[A-G][1-7]|[A-Z]|(?:10|[2-9]|A)[CDHS]|SplitMix64|next|i|UTC|Foursquare|JSON)$"
)
NON_LATIN = ("kn", "bn")


def latin_words(texts: list[list[str]], code: str) -> list[str]:
    """The Latin-letter words, identifiers aside, in the texts written in ``code`` (a non-Latin script)."""
    found = []
    for lang, text in texts:
        words = [word for word in re.findall(r"[A-Za-z][A-Za-z0-9]*", text) if not IDENTIFIER_IN_SCRIPT.match(word)]
        if lang == code and words:
            found.append(f"{words} in {text!r}")
    return found


def untranslated(texts: list[list[str]], code: str) -> list[str]:
    """The Latin-letter words outside ⟦…⟧ in the texts written in ``code`` (the pseudo-language)."""
    found = []
    for lang, text in texts:
        if lang != code:
            continue  # a language's own name in the menu
        rest = text
        while BRACKETED.search(rest):
            rest = BRACKETED.sub(" ", rest)
        words = [word for word in re.findall(r"[A-Za-z][A-Za-z0-9]*", rest) if not IDENTIFIER.match(word)]
        if words:
            found.append(f"{words} in {text!r}")
    return found


@pytest.fixture(scope="module")
def finished_game(server: str) -> tuple[str, str]:
    """A player (their cookie) and a game of theirs played to its end (deal 1, each card on the first legal cell)."""
    with httpx.Client(base_url=server, timeout=GUARD_S) as client:
        as_player(client)
        state = client.post("/api/games", json={"deal": 1}).json()
        while state["outcome"] == "playing":
            row, col = state["legal"][0]
            body = {"row": row, "col": col, "turn": state["turn"]}
            state = client.post(f"/api/games/{state['id']}/moves", json=body).json()
        assert client.get(f"/api/games/{state['id']}/analysis", timeout=GUARD_S).status_code == 200  # computed once
        return client.cookies["fs_player"], state["id"]


def page_in(browser: Any, server: str, code: str, size: str, cookie: str) -> Any:
    """A page whose browser is set to ``code`` (its Accept-Language and navigator.languages), nothing chosen yet."""
    page = new_page(browser, SIZES[size], locale=ACCEPT[code])
    page.context.add_cookies([{"name": "fs_player", "value": cookie, "url": server}])
    return page


def check_language(page: Any, code: str) -> None:
    t = translator(code)
    expect(page.locator("html")).to_have_attribute("lang", code)
    nav = page.locator(".site-nav a:not(.nav-daily)")
    expect(nav).to_have_text([t("nav.play"), t("nav.stats"), t("nav.rules"), t("nav.learn")])
    expect(page.locator(".site-nav .nav-daily > span")).to_have_text(t("new.daily"))  # and when the next comes
    if code != "en":  # translated: not the English words
        assert t("nav.rules") != translator("en")("nav.rules")


def check_view(page: Any, code: str, size: str, view: str) -> None:
    """The view fits its boxes, says nothing outside the catalogue (in qps), and is photographed."""
    page.evaluate("async () => { await document.fonts.ready; }")
    shot(page, f"i18n-{code}-{size}-{view}")
    assert page.evaluate(OVERFLOWS) == [], f"{view} overflows in {code} at {size}"
    if code == "qps":
        assert untranslated(page.evaluate(TEXTS), code) == [], f"{view}: text outside the catalogue"
    if code in NON_LATIN:
        assert latin_words(page.evaluate(TEXTS), code) == [], f"{view}: words of another language"


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("code", CODES)
def test_the_page_speaks_the_browsers_language(
    browser: Any, server: str, finished_game: tuple[str, str], code: str, size: str
) -> None:
    cookie, finished = finished_game
    t = translator(code)
    page = page_in(browser, server, code, size, cookie)
    # A fresh game: the page in the language of Accept-Language from its first paint.
    page.goto(server + "/#/deal/2")
    wait_turn(page, 0)
    check_language(page, code)
    # The server negotiated it (the page was served in it), before any script ran.
    assert page.get_attribute('meta[name="foursquare-language"]', "content") == code
    assert page.title() == t("app.pageTitle", page=t("panel.deal", deal="2"))
    if code == "qps":
        # A hint, a card placed (the board's caption says why cards turned), the dialogs.
        page.click("#btn-hint")
        expect(page.locator("#hint-list li").first).to_be_visible(timeout=WAIT_MS)
        check_view(page, code, size, "game")
        cell = page.locator("#board .slot.legal").first
        click_cell(page, int(cell.get_attribute("data-row")), int(cell.get_attribute("data-col")))
        page.click("#btn-restart")
        expect(page.locator("#confirm-dialog")).to_be_visible()
        check_view(page, code, size, "restart")
        page.click("#confirm-cancel")
        page.click("#btn-new")
        expect(page.locator("#new-dialog")).to_be_visible()
        page.check('input[name="dealkind"][value="numbered"]')
        page.fill("#new-deal", "x")
        page.click("#new-start")
        expect(page.locator("#new-deal-error")).not_to_be_empty()
        check_view(page, code, size, "new")
        page.click("#new-cancel")
    else:
        check_view(page, code, size, "game")

    page.goto(f"{server}/#/game/{finished}")
    expect(page.locator("#analysis-body .analysis-verdict")).to_be_visible(timeout=WAIT_MS)
    expect(page.locator("#replay-chart svg.chart")).to_be_visible()
    page.locator("#analysis").scroll_into_view_if_needed()
    check_view(page, code, size, "analysis")

    page.goto(server + "/#/stats")
    expect(page.locator("#stats-tiles .tile").first).to_be_visible()
    expect(page.locator(".games-table tbody tr").first).to_be_visible()
    assert page.title() == t("app.pageTitle", page=t("stats.title"))
    check_view(page, code, size, "stats")

    page.goto(server + "/#/rules")
    expect(page.locator("#rules-body .rules-reading").first).to_be_visible()
    assert page.title() == t("app.pageTitle", page=t("nav.rules"))
    check_view(page, code, size, "rules")

    # The language menu: each language named in itself; a choice switches at once, every view drawn again in
    # it (here the finished game: its result, its analysis, its replay), and is remembered.
    page.goto(f"{server}/#/game/{finished}")
    expect(page.locator("#analysis-body h4")).to_have_text(t("over.costliest"), timeout=WAIT_MS)
    page.click("#btn-settings")
    names = page.locator("#settings-languages .language-name")
    expect(names).to_have_text([language.name for language in LANGUAGES.values()])
    assert [names.nth(i).get_attribute("lang") for i in range(len(LANGUAGES))] == MENU
    check_view(page, code, size, "settings")
    other = MENU[(MENU.index(code) + 1) % len(MENU)] if code in MENU else "bn"
    page.click(f'#settings-languages input[value="{other}"]')
    check_language(page, other)
    there = translator(other)
    # The installed app is named in the chosen language too, whatever the browser's.
    manifest = page.locator('link[rel="manifest"]').get_attribute("href")
    assert manifest == f"/static/manifest.webmanifest?lang={other}"
    assert page.evaluate("(url) => fetch(url).then((r) => r.json())", manifest)["name"] == there("app.footer")
    expect(page.locator("#over-title")).to_have_text(there("over.lost"))
    expect(page.locator("#analysis-body h4")).to_have_text(there("over.costliest"))
    expect(page.locator("#replay-caption")).to_contain_text(there("replay.position", turn=40, total=40))
    expect(page.locator("#settings-title")).to_have_text(there("settings.title"))
    page.keyboard.press("Escape")
    page.click('.site-nav a[data-route="rules"]')
    expect(page).to_have_title(there("app.pageTitle", page=there("nav.rules")))
    expect(page.locator("#rules-body h2").first).to_have_text(there("rules.cards.title"))
    page.reload()
    expect(page.locator("#rules-body h2").first).to_have_text(there("rules.cards.title"))
    check_language(page, other)
    assert page.errors == []
    page.context.close()


def test_a_browser_in_no_language_of_ours_gets_english(browser: Any, server: str) -> None:
    page = new_page(browser, DESKTOP, locale="de-DE")
    page.goto(server + "/#/rules")
    check_language(page, "en")
    assert page.errors == []
    page.context.close()
