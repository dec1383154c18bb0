"""What every browser test shares: the real server, Debian's Chromium, and helpers that drive the page.

Playwright's sync API drives Debian's ``/usr/bin/chromium`` (never a downloaded browser). The server runs
as a subprocess on a free port with a temporary database. Screenshots go to ``test-artifacts/screenshots/``
(git-ignored) for a human to look at. A browser test module starts with ``pytestmark = BROWSER_MARKS``
and imports the fixtures it uses (``server``, ``browser``, ``winning``) from here.
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from foursquare.engine import Game, Move, Placement

CHROMIUM = Path("/usr/bin/chromium")
ROOT = Path(__file__).resolve().parent.parent
SCREENSHOTS = ROOT / "test-artifacts" / "screenshots"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 375, "height": 740}

NEEDS_CHROMIUM = pytest.mark.skipif(
    not CHROMIUM.exists(), reason="Debian's chromium is not installed at /usr/bin/chromium"
)
#: The marks of the one browser test that ``make check`` runs too (tests/test_browser_smoke.py).
SMOKE_MARKS = [pytest.mark.browser, NEEDS_CHROMIUM]
BROWSER_MARKS = [*SMOKE_MARKS, pytest.mark.slow]
#: How long any wait for the page (or a test's own request) may last: a guard against hanging, never a speed
#: requirement. Two make tests and tools/busy.py on two cores (load 20) took an analysis past 120 s and a page's
#: frame past 90 s. Playwright's own defaults are 30 s for actions, 5 s for expect.
WAIT_MS = 300_000
GUARD_S = WAIT_MS / 1000
"""The same guard in seconds, for the tests' own HTTP clients."""

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright (the Python package) is not installed")
expect = sync_api.expect
expect.set_options(timeout=WAIT_MS)


# --- fixtures ------------------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


START_GUARD = 300.0
"""Seconds for the server to answer its first request: only a hang reaches it (a busy machine may take a minute)."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The real server as a subprocess; yields its base URL."""
    import httpx

    port = free_port()
    folder = tmp_path_factory.mktemp("browser")
    db, log_path = folder / "games.db", folder / "serve.log"
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    # The server's output goes to a file: a pipe nobody reads fills up and blocks the server.
    with log_path.open("wb") as log:
        proc = subprocess.Popen(
            [sys.executable, "-m", "foursquare.cli", "serve", "--port", str(port), "--db", str(db)],
            stdout=log,
            stderr=subprocess.STDOUT,
            env=env,
        )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + START_GUARD
    try:
        while True:
            if proc.poll() is not None:
                output = log_path.read_text(errors="replace")
                pytest.fail(f"foursquare serve exited with {proc.returncode}:\n{output}")
            try:
                if httpx.get(base + "/", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"foursquare serve did not answer within {START_GUARD:.0f} s")
            time.sleep(0.2)
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as playwright:
        # Playwright's own limit for a launch is 30 s, a clock a busy machine can beat: the guard of every wait here.
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, timeout=WAIT_MS)
        try:
            yield chromium
        finally:
            chromium.close()


FUNCTION = re.compile(r"^\s*(async\s+)?(function\b|\([^()]*\)\s*=>|\w+\s*=>)")


def under_csp(page: Any) -> Any:
    """Make ``page.wait_for_function`` work under the page's content security policy.

    Playwright polls a predicate given as a bare expression with ``eval`` inside the page, which the policy
    forbids (no ``'unsafe-eval'``); given as a function, it does not. Bare expressions become functions.
    """
    wait_for_function = page.wait_for_function

    def wait(expression: Any, *args: Any, **kwargs: Any) -> Any:
        if isinstance(expression, str) and not FUNCTION.match(expression):
            expression = f"() => ({expression})"
        return wait_for_function(expression, *args, **kwargs)

    page.wait_for_function = wait
    return page


def new_page(browser: Any, viewport: dict[str, int] = DESKTOP, **options: Any) -> Any:
    """A fresh browser context (so a fresh player cookie) and page; page errors fail the test.

    The page is in English (``Accept-Language: en-US``) unless ``options`` name another ``locale``.
    """
    options.setdefault("locale", "en-US")
    context = browser.new_context(viewport=viewport, **options)
    open_page = context.new_page
    context.new_page = lambda: under_csp(open_page())  # a second tab of the test is wrapped too
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.errors = errors
    console: list[str] = []
    page.on("console", lambda message: console.append(f"{message.type}: {message.text}"))
    page.console_lines = console
    page.set_default_timeout(WAIT_MS)
    PAGES.append(page)
    return page


#: The pages :func:`new_page` opened, which a failing test's report describes (conftest.py).
PAGES: list[Any] = []

# What a page shows that says why a wait for it may never have ended.
PAGE_STATE_JS = """() => {
  const text = (id) => document.getElementById(id)?.textContent?.trim() ?? null;
  const data = (id) => ({...(document.getElementById(id)?.dataset ?? {})});
  return {url: location.href, body: {...document.body.dataset}, classes: document.body.className,
          viewGame: data("view-game"), board: data("board"), boardMessage: text("board-message"),
          banner: document.getElementById("offline-banner")?.hidden === false ? text("offline-banner") : null,
          toasts: [...document.querySelectorAll(".toast")].map((toast) => toast.textContent.trim()),
          controlled: Boolean(navigator.serviceWorker?.controller), online: navigator.onLine};
}"""


def describe_pages() -> str:
    """What every page this test process still has open shows, its errors and its console: for a failure's report
    (a wait that ran out says only what it waited for)."""
    parts = []
    for page in PAGES:
        if page.is_closed():
            continue
        try:
            state = page.evaluate(PAGE_STATE_JS)
        except Exception as exc:  # a page that cannot answer: the report says so
            state = f"(no answer: {exc})"
        parts.append(f"page {page.url}\n  state: {state}\n  errors: {page.errors}\n  console (last 20):")
        parts.extend(f"    {line}" for line in page.console_lines[-20:])
    return "\n".join(parts)


def shot(page: Any, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True, animations="disabled")


def turn_of(page: Any) -> int:
    return int(page.get_attribute("#board", "data-turn"))


def wait_turn(page: Any, turn: int) -> None:
    """Wait for ``turn``, shown long enough (the page's dead time) for the card to place to take a click."""
    page.wait_for_selector(f'#board[data-turn="{turn}"]')
    page.wait_for_function("document.body.dataset.busy !== 'true'")
    page.wait_for_function(
        "document.getElementById('board').dataset.armed === 'true'"
        " || document.getElementById('view-game').dataset.outcome !== 'playing'"
    )


def open_home(page: Any, server: str) -> str:
    """Load the start page (which deals a random game); return the game id from the URL."""
    page.goto(server + "/")
    wait_turn(page, 0)
    match = re.fullmatch(r".*#/game/([A-Za-z0-9_-]+)", page.url)
    assert match, page.url
    return match.group(1)


def click_cell(page: Any, row: int, col: int) -> None:
    turn = turn_of(page)
    page.click(f'#board .slot.legal[data-row="{row}"][data-col="{col}"]')
    wait_turn(page, turn + 1)


def page_with_deal(browser: Any, server: str, deal: int) -> Any:
    """A fresh page playing the numbered ``deal`` from its first card."""
    page = new_page(browser)
    open_home(page, server)
    start_deal(page, deal)
    return page


def start_deal(page: Any, deal: int) -> None:
    """Start a numbered deal through the new-game dialog."""
    page.click("#btn-new")
    page.check('input[name="dealkind"][value="numbered"]')
    page.fill("#new-deal", str(deal))
    page.click("#new-start")
    expect(page.locator("#deal-label")).to_have_text(f"Deal #{deal}")
    wait_turn(page, 0)


FLIP_RECORDER = """() => {
  window.__flipSeen = 0;
  new MutationObserver((records) => {
    for (const r of records) {
      if (r.target.classList && r.target.classList.contains('flipping')) window.__flipSeen++;
    }
  }).observe(document.getElementById('board'), {subtree: true, attributes: true, attributeFilter: ['class']});
}"""


STATIC = ROOT / "src" / "foursquare" / "web" / "static"
SUITS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}


def catalogue(code: str = "en") -> dict[str, str]:
    """The plain (no plural) messages of the page's catalogue of a language (English by default)."""
    from foursquare.i18n import page_messages

    return {key: value for key, value in page_messages(code).items() if isinstance(value, str)}


def symbol(card: str) -> str:
    """A card as the page writes it, e.g. "10♥"."""
    return card[:-1] + SUITS[card[-1]]


def flip_reasons(placement: Placement) -> list[str]:
    """What the page must say of why each line turned, e.g. "Row: 9♣ is higher than every other face-up card"."""
    messages = catalogue()
    said = []
    for line in ("row", "column"):
        reasons = {f.reason for f in placement.flips if f.line == line}
        for reason in reasons:
            why = messages[f"flip.reason.{reason}"].format(card=symbol(placement.card.name))
            said.append(f"{messages[f'flip.line.{line}']}: {why}, so ")
    return said


def no_horizontal_overflow(page: Any) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    inner = page.evaluate("window.innerWidth")
    assert width <= inner, f"page is {width}px wide in a {inner}px viewport"


# --- a winning line, found with the engine (the test knows the stock; the page never does) -------------


def _winning_moves(game: Game, seen: set[Any], budget: list[int], limit: int) -> list[Move] | None:
    """Depth-first search for a win within ``limit`` cards, empty cells first (they fill the grid sooner)."""
    if budget[0] <= 0:
        return None
    budget[0] -= 1
    status = game.outcome().status
    if status == "won":
        return []
    if status == "lost" or game.turn >= limit:
        return None
    key = game.key()
    if key in seen:
        return None
    seen.add(key)
    for move in sorted(game.legal_moves, key=lambda m: game.pile(m.row, m.col) is not None):
        game.place(move.row, move.col)
        rest = _winning_moves(game, seen, budget, limit)
        game.pop()
        if rest is not None:
            return [move, *rest]
    return None


@pytest.fixture(scope="module")
def winning() -> tuple[int, list[Move]]:
    """A deal and a short winning line of it, found by a bounded search (a quick win keeps the test short)."""
    for limit in (24, 28, 32, 40):
        for deal in range(1, 100):
            line = _winning_moves(Game(deal=deal), set(), [20_000], limit)
            if line is not None:
                return deal, line
    pytest.fail("no winning line found in deals 1..99")
