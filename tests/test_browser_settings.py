"""The page's settings, theme, installability and connection, in a real headless Chromium.

Settings (theme, four-colour deck, reduced motion) remembered per browser; the system's colour scheme
followed live until a theme is picked; the web-app manifest, its icons and the service worker; a neutral
notice while the server cannot be reached and for a tab that fell behind; a finished game's result brought
into view on a phone; and screenshots of desktop and phone in light, dark and four-colour.
"""

from __future__ import annotations

import json
import re
import struct
import time
from typing import Any

import httpx

from browser_support import (
    BROWSER_MARKS,
    DESKTOP,
    GUARD_S,
    PHONE,
    SCREENSHOTS,
    WAIT_MS,
    browser,
    catalogue,
    click_cell,
    expect,
    new_page,
    no_horizontal_overflow,
    open_home,
    server,
    shot,
    start_deal,
    turn_of,
    wait_turn,
    winning,
)
from foursquare.engine import Game, Move

pytestmark = BROWSER_MARKS
# Fixtures are found by name in this module's namespace.
__all__ = ["browser", "server", "winning"]

# The colour of a card's face (its corner rank and pips), drawn by the page's own cards.js.
CARD_COLOUR = """async (name) => {
  const { createCard } = await import('/static/cards.js');
  const card = createCard(name, true);
  document.body.append(card);
  const colour = getComputedStyle(card.querySelector('.card-front')).color;
  card.remove();
  return colour;
}"""

# How long a card takes to turn over (its CSS transition), on the card to place.
FLIP_TRANSITION = "getComputedStyle(document.querySelector('#hand-card .card-inner')).transitionDuration"


def open_settings(page: Any) -> None:
    page.click("#btn-settings")
    expect(page.locator("#settings-dialog")).to_be_visible()


def close_settings(page: Any) -> None:
    page.click("#settings-close")
    expect(page.locator("#settings-dialog")).to_be_hidden()


def html(page: Any, name: str) -> str | None:
    value: str | None = page.get_attribute("html", f"data-{name}")
    return value


def player_client(page: Any, server: str) -> httpx.Client:
    """An HTTP client with the page's player cookie: the same player, in another "tab"."""
    cookies = {c["name"]: c["value"] for c in page.context.cookies() if c["name"] == "fs_player"}
    return httpx.Client(base_url=server, cookies=cookies, timeout=GUARD_S)


def move_elsewhere(client: httpx.Client, game_id: str) -> int:
    """Place the card to place on the first legal cell, as another tab would; returns the new turn."""
    state = client.get(f"/api/games/{game_id}").json()
    row, col = state["legal"][0]
    answer = client.post(f"/api/games/{game_id}/moves", json={"row": row, "col": col, "turn": state["turn"]})
    assert answer.status_code == 200, answer.text
    turn: int = answer.json()["turn"]
    return turn


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


# --- settings ------------------------------------------------------------------------------------------


def test_settings_change_theme_deck_and_motion_and_survive_a_reload(browser: Any, server: str) -> None:
    page = new_page(browser, color_scheme="light")
    open_home(page, server)
    messages = catalogue()
    expect(page.locator("#btn-settings")).to_have_attribute("aria-label", messages["settings.open"])
    open_settings(page)
    expect(page.locator("#settings-title")).to_have_text(messages["settings.title"])
    expect(page.locator('#settings-form input[name="theme"][value="system"]')).to_be_checked()
    expect(page.locator('#settings-form input[name="motion"][value="system"]')).to_be_checked()
    expect(page.locator("#settings-four-colour")).not_to_be_checked()

    # Two colours: clubs look like spades, diamonds like hearts.
    assert page.evaluate(CARD_COLOUR, "5C") == page.evaluate(CARD_COLOUR, "5S")
    assert page.evaluate(CARD_COLOUR, "5D") == page.evaluate(CARD_COLOUR, "5H")

    page.check('#settings-form input[name="theme"][value="dark"]')
    expect(page.locator("html")).to_have_attribute("data-theme", "dark")
    expect(page.locator('meta[name="theme-color"]')).to_have_attribute("content", "#12161b")
    page.check("#settings-four-colour")
    expect(page.locator("html")).to_have_attribute("data-deck", "four")
    page.check('#settings-form input[name="motion"][value="reduce"]')
    expect(page.locator("html")).to_have_attribute("data-motion", "reduce")
    shot(page, "settings-dialog-dark-four-colour")
    close_settings(page)

    # Four colours: each suit its own; clubs and diamonds differ from spades and hearts.
    colours = {suit: page.evaluate(CARD_COLOUR, f"5{suit}") for suit in "CDHS"}
    assert len(set(colours.values())) == 4, colours
    assert colours["C"] != colours["S"] and colours["D"] != colours["H"]
    # Reduced motion: cards turn over without a transition, whatever the system says.
    assert page.evaluate(FLIP_TRANSITION) == "0s"

    turn = turn_of(page)
    page.reload()
    wait_turn(page, turn)
    assert (html(page, "theme"), html(page, "deck"), html(page, "motion")) == ("dark", "four", "reduce")
    assert page.evaluate(CARD_COLOUR, "5C") == colours["C"]
    open_settings(page)
    expect(page.locator('#settings-form input[name="theme"][value="dark"]')).to_be_checked()
    expect(page.locator("#settings-four-colour")).to_be_checked()
    expect(page.locator('#settings-form input[name="motion"][value="reduce"]')).to_be_checked()

    # Motion "off" animates even when the system asks for reduced motion; "system" follows it again.
    page.emulate_media(reduced_motion="reduce")
    page.check('#settings-form input[name="motion"][value="full"]')
    expect(page.locator("html")).to_have_attribute("data-motion", "full")
    assert page.evaluate(FLIP_TRANSITION) != "0s"
    page.check('#settings-form input[name="motion"][value="system"]')
    expect(page.locator("html")).to_have_attribute("data-motion", "reduce")
    page.emulate_media(reduced_motion="no-preference")
    expect(page.locator("html")).to_have_attribute("data-motion", "full")
    page.uncheck("#settings-four-colour")
    expect(page.locator("html")).to_have_attribute("data-deck", "two")
    page.check('#settings-form input[name="theme"][value="light"]')
    expect(page.locator("html")).to_have_attribute("data-theme", "light")
    close_settings(page)
    stored = page.evaluate("['fs.theme', 'fs.deck', 'fs.motion'].map((key) => localStorage.getItem(key))")
    assert stored == ["light", None, None]
    assert page.errors == []
    page.context.close()


def test_the_system_dark_mode_is_followed_live_until_a_theme_is_picked(browser: Any, server: str) -> None:
    page = new_page(browser, color_scheme="dark")
    open_home(page, server)
    theme_color = page.locator('meta[name="theme-color"]')
    expect(page.locator("html")).to_have_attribute("data-theme", "dark")
    expect(theme_color).to_have_attribute("content", "#12161b")
    # The system switches while the page is open: the page follows, both ways.
    page.emulate_media(color_scheme="light")
    expect(page.locator("html")).to_have_attribute("data-theme", "light")
    expect(theme_color).to_have_attribute("content", "#f3efe6")
    page.emulate_media(color_scheme="dark")
    expect(page.locator("html")).to_have_attribute("data-theme", "dark")

    # A theme picked in the settings holds, whatever the system does, across a reload too.
    open_settings(page)
    page.check('#settings-form input[name="theme"][value="light"]')
    close_settings(page)
    expect(page.locator("html")).to_have_attribute("data-theme", "light")
    page.emulate_media(color_scheme="light")
    page.emulate_media(color_scheme="dark")
    page.wait_for_timeout(200)
    assert html(page, "theme") == "light"
    turn = turn_of(page)
    page.reload()
    wait_turn(page, turn)
    assert html(page, "theme") == "light"

    # Back to "Same as the system": dark again, and live again.
    open_settings(page)
    page.check('#settings-form input[name="theme"][value="system"]')
    close_settings(page)
    expect(page.locator("html")).to_have_attribute("data-theme", "dark")
    assert page.evaluate("localStorage.getItem('fs.theme')") is None
    page.emulate_media(color_scheme="light")
    expect(page.locator("html")).to_have_attribute("data-theme", "light")

    # The header's quick toggle is a choice too: the system is no longer followed.
    page.click("#theme-toggle")
    expect(page.locator("html")).to_have_attribute("data-theme", "dark")
    page.emulate_media(color_scheme="dark")
    page.emulate_media(color_scheme="light")
    page.wait_for_timeout(200)
    assert html(page, "theme") == "dark"
    assert page.errors == []
    page.context.close()


# --- installable ---------------------------------------------------------------------------------------


def test_the_manifest_is_served_with_icons_of_the_right_sizes(server: str) -> None:
    page_html = httpx.get(server + "/").text
    assert '<link rel="manifest" href="/static/manifest.webmanifest">' in page_html
    answer = httpx.get(server + "/static/manifest.webmanifest")
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("application/manifest+json")
    manifest = json.loads(answer.text)
    assert manifest["name"] and manifest["short_name"] == "Foursquare"
    assert (manifest["start_url"], manifest["scope"], manifest["display"]) == ("/", "/", "standalone")
    assert manifest["theme_color"].startswith("#") and manifest["background_color"].startswith("#")
    pngs = [icon for icon in manifest["icons"] if icon["type"] == "image/png"]
    assert {(icon["sizes"], icon["purpose"]) for icon in pngs} >= {
        ("192x192", "any"),
        ("512x512", "any"),
        ("512x512", "maskable"),
    }
    for icon in manifest["icons"]:
        image = httpx.get(server + icon["src"])
        assert image.status_code == 200, icon
        assert image.headers["content-type"] == icon["type"], icon
        if icon["type"] == "image/png":
            width, height = png_size(image.content)
            assert f"{width}x{height}" == icon["sizes"], icon


def page_script(server: str) -> str:
    """The page's module: the built bundle (static/dist/app-<hash>.js) when the page is built, else app.js."""
    found = re.search(r'<script type="module" src="([^"]+)"', httpx.get(server + "/").text)
    assert found is not None
    return found.group(1)


def test_the_service_worker_is_served_from_the_root_and_never_caches_the_api(server: str) -> None:
    answer = httpx.get(server + "/sw.js")
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/javascript")
    assert answer.headers["cache-control"] == "no-cache"
    script = answer.text
    assert "__VERSION__" not in script and "__FILES__" not in script
    files = json.loads(script.split("const FILES = ", 1)[1].split(";\n", 1)[0])
    assert page_script(server) in files and "/static/manifest.webmanifest" in files
    assert "/static/icons/icon-512.png" in files
    assert all(f.startswith("/static/") for f in files)
    for url in files[:5]:
        assert httpx.get(server + url).status_code == 200, url


def test_the_service_worker_registers_and_controls_the_page_on_reload(browser: Any, server: str) -> None:
    page = new_page(browser)
    open_home(page, server)
    scope = page.evaluate("navigator.serviceWorker.ready.then((r) => r.scope)")
    assert scope == server + "/"
    assert any(worker.url == server + "/sw.js" for worker in page.context.service_workers)
    turn = turn_of(page)
    page.reload()
    wait_turn(page, turn)
    controller = page.evaluate("navigator.serviceWorker.controller && navigator.serviceWorker.controller.scriptURL")
    assert controller == server + "/sw.js"
    # The cache holds the page's files, under a versioned name, and no API answer but the page's catalogues
    # (the one in use: none other was fetched); no font of a script the page did not show.
    cached = page.evaluate(
        """async () => {
          const names = await caches.keys();
          const urls = [];
          for (const name of names) for (const r of await (await caches.open(name)).keys()) urls.push(r.url);
          return { names, urls };
        }"""
    )
    assert len(cached["names"]) == 1 and cached["names"][0].startswith("foursquare-")
    assert server + page_script(server) in cached["urls"]
    assert server + "/" in cached["urls"]
    catalogues = [server + "/api/languages", server + "/api/messages/en"]
    assert not [url for url in cached["urls"] if "/api/" in url and url not in catalogues]
    assert set(catalogues) <= set(cached["urls"])
    assert not [url for url in cached["urls"] if "/static/fonts/" in url]
    # The page still plays under the service worker (the API goes to the server).
    cell = page.locator("#board .slot.legal").first
    click_cell(page, int(cell.get_attribute("data-row")), int(cell.get_attribute("data-col")))

    # Offline, the page still opens (from the cache) and says it cannot reach the server; back online, the
    # notice clears itself and the game is shown.
    page.context.set_offline(True)
    page.reload()
    expect(page.locator("#offline-banner")).to_have_text(catalogue()["connection.lost"])
    page.context.set_offline(False)
    expect(page.locator("#offline-banner")).to_be_hidden(timeout=WAIT_MS)
    wait_turn(page, turn + 1)
    assert page.errors == []
    page.context.close()


# --- connection ----------------------------------------------------------------------------------------


def test_an_unreachable_server_is_told_neutrally_and_the_notice_clears_when_it_answers(
    browser: Any, server: str
) -> None:
    # No service worker here: the test cuts the API with page.route, which a service worker would bypass.
    page = new_page(browser, service_workers="block")
    open_home(page, server)
    banner = page.locator("#offline-banner")
    expect(banner).to_be_hidden()
    refused: list[str] = []

    def refuse(route: Any) -> None:
        refused.append(route.request.url)
        route.abort("connectionrefused")

    page.route("**/api/**", refuse)
    page.click('#board .slot.legal[data-row="0"][data-col="0"]')
    expect(banner).to_be_visible()
    expect(banner).to_have_text(catalogue()["connection.lost"])
    assert page.get_attribute("#offline-banner", "role") == "status"
    assert page.locator(".toast-error").count() == 0  # the banner says it; not an error on top of it
    shot(page, "settings-offline-desktop")
    # The page asks again by itself (api.js, after 2 s): that retry is refused too, and the notice stays.
    tried = len(refused)
    deadline = time.monotonic() + WAIT_MS / 1000  # a guard against a hang, not a measure: the retry is waited for
    while len(refused) == tried:
        assert time.monotonic() < deadline, "the page never asked the server again"
        page.wait_for_timeout(100)  # the route's handler runs meanwhile
    expect(banner).to_be_visible()
    # The server answers again: the notice clears itself, and the game goes on.
    page.unroute("**/api/**")
    expect(banner).to_be_hidden(timeout=WAIT_MS)
    wait_turn(page, 0)
    click_cell(page, 0, 0)
    assert page.errors == []
    page.context.close()


def test_a_stale_tab_shows_a_neutral_notice_and_the_fresh_position(browser: Any, server: str) -> None:
    page = new_page(browser)
    game_id = open_home(page, server)
    notice = catalogue()["notice.stale"]
    with player_client(page, server) as client:
        # A move made elsewhere; this tab still shows turn 0, and its click is refused (409 stale_turn).
        turn = move_elsewhere(client, game_id)
        page.click('#board .slot.legal[data-row="0"][data-col="0"]')
        expect(page.locator(".toast-info .toast-text").last).to_have_text(notice)
        wait_turn(page, turn)
        assert page.locator(".toast-error").count() == 0
        state = client.get(f"/api/games/{game_id}").json()
        expect(page.locator("#hand-card .card")).to_have_attribute("data-card", state["card"])

        # The tab comes back into view after a move elsewhere: it catches up by itself, before any click.
        turn = move_elsewhere(client, game_id)
        page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
        wait_turn(page, turn)
        expect(page.locator(".toast-info .toast-text").last).to_have_text(notice)
        assert page.locator(".toast-error").count() == 0
        # Nothing changed elsewhere: coming back says nothing.
        count = page.locator(".toast-info").count()
        page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
        page.wait_for_timeout(500)
        assert page.locator(".toast-info").count() <= count
    assert page.errors == []
    page.context.close()


# --- phone ---------------------------------------------------------------------------------------------


def test_on_a_phone_the_result_of_a_finished_game_is_scrolled_into_view(
    browser: Any, server: str, winning: tuple[int, list[Move]]
) -> None:
    deal, line = winning
    page = new_page(browser, PHONE)
    open_home(page, server)
    start_deal(page, deal)
    for move in line[:-1]:
        click_cell(page, move.row, move.col)
    # The player looks at the bottom of the page (the board) as the last card goes down.
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    click_cell(page, line[-1].row, line[-1].col)
    expect(page.locator("#over")).to_be_visible()
    page.wait_for_function(
        """() => {
          const r = document.getElementById('over-title').getBoundingClientRect();
          return r.height > 0 && r.top >= 0 && r.bottom <= window.innerHeight;
        }"""
    )
    score = page.locator("#over-score").bounding_box()
    assert score is not None and score["y"] >= 0 and score["y"] + score["height"] <= PHONE["height"]
    # What the player sees (the viewport, not the whole page).
    page.screenshot(path=str(SCREENSHOTS / "settings-phone-finished-viewport.png"), animations="disabled")
    assert page.errors == []
    page.context.close()


# --- screenshots ---------------------------------------------------------------------------------------


def screenshots_deal() -> tuple[int, list[tuple[int, int]]]:
    """A deal whose first few cards, played on the first legal cell each, put all four suits face up."""
    for deal in range(1, 200):
        game = Game(deal=deal)
        moves = []
        for _ in range(8):
            move = game.legal_moves[0]
            game.place(move.row, move.col)
            moves.append((move.row, move.col))
        suits = {cell.top.suit for cell in game.cells() if cell.top_face_up}
        if len(suits) == 4:
            return deal, moves
    raise AssertionError("no deal shows four suits in eight cards")


def test_screenshots_of_desktop_and_phone_in_light_dark_and_four_colour(browser: Any, server: str) -> None:
    deal, moves = screenshots_deal()
    for size, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        page = new_page(browser, viewport, color_scheme="light")
        open_home(page, server)
        start_deal(page, deal)
        for row, col in moves:
            click_cell(page, row, col)
        page.mouse.move(0, 0)
        shot(page, f"settings-{size}-light")
        open_settings(page)
        page.check('#settings-form input[name="theme"][value="dark"]')
        shot(page, f"settings-{size}-dialog-dark")
        close_settings(page)
        shot(page, f"settings-{size}-dark")
        open_settings(page)
        page.check("#settings-four-colour")
        close_settings(page)
        shot(page, f"settings-{size}-dark-four-colour")
        open_settings(page)
        page.check('#settings-form input[name="theme"][value="light"]')
        close_settings(page)
        shot(page, f"settings-{size}-light-four-colour")
        no_horizontal_overflow(page)
        if viewport is PHONE:
            # The narrowest phones: the header's links and its two round buttons still fit on one line.
            page.set_viewport_size({"width": 320, "height": 640})
            no_horizontal_overflow(page)
            button = page.locator("#btn-settings").bounding_box()
            assert button is not None and button["x"] + button["width"] <= 320
            assert button["width"] == button["height"]  # round, not squeezed
        assert page.errors == []
        page.context.close()
