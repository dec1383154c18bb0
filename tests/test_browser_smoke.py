"""The one browser test of ``make check``: the page loads in Chromium, deals a game and takes a card.

Everything else the page does is tested by the other ``test_browser*`` modules, marked slow.
"""

from __future__ import annotations

from typing import Any

import pytest

from browser_support import SMOKE_MARKS, browser, click_cell, expect, new_page, open_home, server, start_deal
from foursquare.engine import Game

pytestmark = SMOKE_MARKS
__all__ = ["browser", "server"]  # fixtures are found by name in this module's namespace


def test_the_page_deals_and_places_a_card(browser: Any, server: str) -> None:
    page = new_page(browser)
    open_home(page, server)
    start_deal(page, 1)
    game = Game(deal=1)
    first = game.card_to_place
    assert first is not None
    expect(page.locator("#hand-card .card")).to_have_attribute("aria-label", f"{first.label}, face up")
    click_cell(page, 0, 0)  # the first card's only cell
    game.place(0, 0)
    second = game.card_to_place
    assert second is not None
    expect(page.locator("#hand-card .card")).to_have_attribute("aria-label", f"{second.label}, face up")
    expect(page.locator("#board .slot.legal")).to_have_count(len(game.legal_moves))
    assert page.errors == []


def test_the_page_runs_from_its_built_files(browser: Any, server: str) -> None:
    page = new_page(browser)
    open_home(page, server)
    script = page.evaluate("document.querySelector('script[type=module]').getAttribute('src')")
    if not script.startswith("/static/dist/"):
        pytest.skip("the page is not built (make page), or older than its sources: the server serves the sources")
    loaded = page.evaluate(
        "performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname)"
        ".filter((p) => /^\\/static\\/.*\\.(js|css)$/.test(p))"
    )
    # One bundle, one sheet, the theme's first-paint script; no source module (account.css is added by the script).
    built = [path for path in loaded if path.startswith("/static/dist/")]
    assert set(loaded) - set(built) <= {"/static/account.css"}
    assert {path.rsplit(".", 1)[1] for path in built} == {"js", "css"} and len(built) == 3
    start_deal(page, 1)
    click_cell(page, 0, 0)
    game = Game(deal=1)
    game.place(0, 0)
    second = game.card_to_place
    assert second is not None
    expect(page.locator("#hand-card .card")).to_have_attribute("aria-label", f"{second.label}, face up")
    assert page.errors == []
