"""A daily game left open past its date says so on its page, in headless Chromium: once the date is over, its deal
can be known, so the game no longer counts for that day nor as clean (docs/api.md, "The daily deal").

The date is moved back in the database rather than the clock forward: the page, the server and the test then
agree on "today" however long the test takes, and the stored game is exactly one left open since yesterday.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from browser_support import BROWSER_MARKS, browser, catalogue, expect, new_page, shot, wait_turn
from test_server_process import serving

pytestmark = BROWSER_MARKS

# Fixtures are found by name in this module's namespace.
__all__ = ["browser"]


@pytest.fixture(scope="module")
def database(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("late") / "games.db"


@pytest.fixture(scope="module")
def server(database: Path) -> Iterator[str]:
    with serving(database) as (url, _process):
        yield url


def yesterday() -> str:
    return (datetime.now(UTC).date() - timedelta(days=1)).isoformat()


@pytest.mark.parametrize("code", ["en", "bn"])
def test_a_daily_game_open_past_its_date_says_it_no_longer_counts(
    browser: Any, server: str, database: Path, code: str
) -> None:
    page = new_page(browser, locale={"en": "en-GB", "bn": "bn-BD"}[code])
    page.goto(f"{server}/daily")
    wait_turn(page, 0)
    page.locator("#board .slot.legal").first.click()
    wait_turn(page, 1)
    expect(page.locator("#late-tag")).to_be_hidden()
    match = re.search(r"#/game/([A-Za-z0-9_-]+)", page.url)
    assert match, page.url
    with sqlite3.connect(database) as conn:  # the game was started yesterday and left open overnight
        conn.execute("UPDATE games SET daily = ? WHERE id = ?", (yesterday(), match.group(1)))
    page.reload()
    wait_turn(page, 1)
    late = page.locator("#late-tag")
    expect(late).to_be_visible()
    expect(late).to_have_text(catalogue(code)["panel.dailyLate"])
    expect(page.locator("#assisted-tag")).to_be_hidden()  # not yet: nothing was played since midnight
    page.locator("#board .slot.legal").first.click()
    wait_turn(page, 2)
    expect(page.locator("#assisted-tag")).to_be_visible()  # played on knowing what may be known: not clean
    shot(page, f"daily-late-{code}")
    assert page.errors == []
