"""The page when the server is down, refuses or forgets: driven in Chromium against a real ``foursquare serve``.

Each test here runs its own server (stopped and started again on the same port and database, or with its own
limits), so what one test does to it (a restart, a client over its limit) never reaches another test.
"""

from __future__ import annotations

import os
import random
import re
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest

from browser_support import (
    BROWSER_MARKS,
    GUARD_S,
    WAIT_MS,
    browser,
    catalogue,
    click_cell,
    expect,
    free_port,
    new_page,
    open_home,
    shot,
    start_deal,
    wait_turn,
)
from foursquare.store import Store

pytestmark = BROWSER_MARKS
__all__ = ["browser"]  # fixtures are found by name in this module's namespace

#: A guard against a server that never answers, never a speed requirement.
START_GUARD_S = 90
#: The lowest port the test's servers take (below the system's ephemeral range; above the well-known services').
PRIVATE_PORTS_FROM = 20000


def port_outside_the_ephemeral_range() -> int:
    """A free port that no other process is given when it asks for any (port 0): the system hands those out from
    its ephemeral range. While the test's server is stopped, a port from that range may go to another test's
    process — a Dask worker, say, which takes the browser's connections and never answers them — and the page,
    waiting, would never say that the server cannot be reached; nor could the server start again there."""
    low = int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    for port in random.Random().sample(range(PRIVATE_PORTS_FROM, low), 200):
        with socket.socket() as sock:
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    return free_port()  # an unusual range: the ephemeral port, as before


class Server:
    """``foursquare serve`` on one port and one database, which a test stops and starts again."""

    def __init__(self, folder: Path, env: dict[str, str] | None = None) -> None:
        self.port = port_outside_the_ephemeral_range()
        self.url = f"http://127.0.0.1:{self.port}"
        self.db = folder / "games.db"
        self.log = folder / "serve.log"
        self.env = {**os.environ, "PYTHONUNBUFFERED": "1", **(env or {})}
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        command = [sys.executable, "-m", "foursquare.cli", "serve", "--port", str(self.port), "--db", str(self.db)]
        # The output goes to a file: a pipe nobody reads fills up and blocks the server.
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=self.env)
        deadline = time.monotonic() + START_GUARD_S
        while True:
            if self.process.poll() is not None:
                pytest.fail(f"foursquare serve exited with {self.process.returncode}:\n{self.log.read_text()}")
            try:
                if httpx.get(self.url + "/", timeout=5).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"foursquare serve did not answer within {START_GUARD_S} s")
            time.sleep(0.2)

    def stop(self) -> None:
        if self.process is None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=GUARD_S)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.process = None


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    served = Server(tmp_path)
    served.start()
    try:
        yield served
    finally:
        served.stop()


def game_id(page: Any) -> str:
    match = re.fullmatch(r".*#/game/([A-Za-z0-9_-]+)", page.url)
    assert match, page.url
    return match.group(1)


def player_client(page: Any, server: Server) -> httpx.Client:
    """An HTTP client with the page's player cookie: the same player, in another "tab"."""
    cookies = {c["name"]: c["value"] for c in page.context.cookies() if c["name"] == "fs_player"}
    return httpx.Client(base_url=server.url, cookies=cookies, timeout=GUARD_S)


def wait_for_kept_catalogue(page: Any) -> None:
    """Wait until the service worker keeps the page's catalogue (fetched by the worker itself, see pwa.js)."""
    page.wait_for_function(
        "async () => !!(await caches.match('/api/messages/en')) && !!(await caches.match('/api/languages'))",
        polling=200,
    )


# --- the server down ----------------------------------------------------------------------------------------


def test_a_reload_while_the_server_is_down_opens_the_page_which_recovers_by_itself(
    browser: Any, server: Server
) -> None:
    page = new_page(browser)
    game = open_home(page, server.url)
    # The first visit installs the service worker, which does not control this tab (it came from the network)
    # but keeps the page's shell, and the catalogue this tab fetched once the page says which (pwa.js).
    assert page.evaluate("navigator.serviceWorker.ready.then((r) => r.active !== null)")
    assert page.evaluate("navigator.serviceWorker.controller") is None
    wait_for_kept_catalogue(page)

    server.stop()
    page.reload()
    # The shell, in the page's language, says it cannot reach the server; no error escapes the page.
    banner = page.locator("#offline-banner")
    expect(banner).to_have_text(catalogue()["connection.lost"])
    expect(page.locator("body")).to_have_class(re.compile(r"\bready\b"))
    expect(page.locator(".site-nav a[data-route='game']")).to_have_text(catalogue()["nav.play"])
    assert page.locator(".toast-error").count() == 0  # the banner says it; not an error on top of it
    shot(page, "offline-reload-server-down")
    assert page.errors == []

    # The server is back: the page asks again by itself and shows the game, with no reload.
    server.start()
    expect(banner).to_be_hidden(timeout=WAIT_MS)
    wait_turn(page, 0)
    assert game_id(page) == game
    click_cell(page, 0, 0)
    assert page.errors == []
    page.context.close()


def test_a_proxys_gateway_error_is_told_as_an_unreachable_server(browser: Any, server: Server) -> None:
    # No service worker: the test answers the API with page.route, which a service worker would bypass.
    page = new_page(browser, service_workers="block")
    open_home(page, server.url)
    # A reverse proxy whose server is down answers 502 with a page of its own, not the API's error.
    page.route("**/api/**", lambda route: route.fulfill(status=502, body="<html>Bad Gateway</html>"))
    page.click('#board .slot.legal[data-row="0"][data-col="0"]')
    expect(page.locator("#offline-banner")).to_have_text(catalogue()["connection.lost"])
    assert page.locator(".toast-error").count() == 0
    page.unroute("**/api/**")
    expect(page.locator("#offline-banner")).to_be_hidden(timeout=WAIT_MS)
    click_cell(page, 0, 0)
    assert page.errors == []
    page.context.close()


def test_a_page_that_gets_no_catalogue_waits_for_the_server_and_then_starts(browser: Any, server: Server) -> None:
    # No service worker, so no copy of a catalogue: the page's shell arrives, and then no answer from the API.
    page = new_page(browser, service_workers="block")
    refused: list[str] = []

    def no_answer(route: Any) -> None:
        refused.append(route.request.url)
        route.abort("connectionrefused")

    page.route("**/api/**", no_answer)
    page.goto(server.url + "/")
    # It has no word to say yet; it asks again (the catalogue, then the server until it answers), with no error.
    deadline = time.monotonic() + WAIT_MS / 1000
    while len(refused) < 2 and time.monotonic() < deadline:
        page.wait_for_timeout(200)  # the page's events are handled meanwhile
    assert len(refused) >= 2, refused
    assert "ready" not in (page.get_attribute("body", "class") or "")
    assert page.errors == []
    page.unroute("**/api/**")
    wait_turn(page, 0)
    expect(page.locator("#deal-label")).to_have_text(catalogue()["panel.dealHidden"])
    assert page.errors == []
    page.context.close()


# --- a live game's deal -------------------------------------------------------------------------------------


def test_play_this_deal_is_offered_only_once_the_game_is_over(browser: Any, server: Server) -> None:
    owner = new_page(browser)
    owned = open_home(owner, server.url)
    visitor = new_page(browser)
    visitor.goto(f"{server.url}/game/{owned}")
    expect(visitor.locator("#readonly-text")).to_have_text(catalogue()["share.watching"])
    expect(visitor.locator("#btn-play-deal")).to_be_hidden()
    # The server refuses the copy of a live game too, whatever a page sends.
    status = visitor.evaluate(
        f"fetch('/api/games', {{method: 'POST', headers: {{'Content-Type': 'application/json'}},"
        f" body: JSON.stringify({{like: '{owned}'}})}}).then((r) => r.status)"
    )
    assert status == 409

    # The owner plays the game to its end (in another tab); the visitor's page follows it and offers the deal.
    with player_client(owner, server) as client:
        state = client.get(f"/api/games/{owned}").json()
        while state["outcome"] == "playing":
            row, col = state["legal"][0]
            answer = client.post(f"/api/games/{owned}/moves", json={"row": row, "col": col, "turn": state["turn"]})
            assert answer.status_code == 200, answer.text
            state = answer.json()
    expect(visitor.locator("#readonly-text")).to_have_text(catalogue()["share.watchingOver"])
    expect(visitor.locator("#btn-play-deal")).to_be_visible()
    visitor.click("#btn-play-deal")
    wait_turn(visitor, 0)
    assert game_id(visitor) != owned
    expect(visitor.locator("#readonly")).to_be_hidden()
    expect(visitor.locator("#deal-label")).to_have_text(f"Deal #{state['deal']}")
    assert owner.errors == [] and visitor.errors == []
    owner.context.close()
    visitor.context.close()


# --- refusals -----------------------------------------------------------------------------------------------


def test_a_change_without_the_player_cookie_gets_one_and_is_made_again(browser: Any, server: Server) -> None:
    page = new_page(browser)
    open_home(page, server.url)
    wait_for_kept_catalogue(page)
    answers: list[tuple[str, str, int]] = []
    page.on("response", lambda r: answers.append((r.request.method, r.url.removeprefix(server.url), r.status)))
    # The cookie is gone (cleared by the player) when the page's next change leaves: it is refused 403 no_player,
    # so the page gets a cookie by a GET and makes the change again. The cookies are cleared as that request
    # leaves, since the service worker may still be keeping the catalogue, a GET that would bring a new cookie.
    cleared: list[str] = []

    def clear_before_the_first_post(route: Any) -> None:
        if route.request.method == "POST" and not cleared:
            cleared.append(route.request.url)
            page.context.clear_cookies()
        route.continue_()

    page.route("**/api/games", clear_before_the_first_post)
    start_deal(page, 7)
    api = [answer for answer in answers if answer[1].startswith("/api/")]
    assert api == [("POST", "/api/games", 403), ("GET", "/api/stats", 200), ("POST", "/api/games", 201)]
    assert [c["name"] for c in page.context.cookies()] == ["fs_player"]
    assert page.locator(".toast-error").count() == 0
    click_cell(page, 0, 0)
    assert page.errors == []
    page.context.close()


def test_too_many_new_games_are_refused_in_the_catalogues_words_and_not_asked_again(
    browser: Any, tmp_path: Path
) -> None:
    limited = Server(tmp_path, env={"FOURSQUARE_RATE_GAMES": "2/hour"})
    limited.start()
    try:
        page = new_page(browser)
        open_home(page, limited.url)  # the first game
        start_deal(page, 5)  # the second
        posts: list[str] = []
        page.on("request", lambda request: posts.append(request.url) if request.method == "POST" else None)
        page.click("#btn-new")
        page.check('input[name="dealkind"][value="numbered"]')
        page.fill("#new-deal", "6")
        page.click("#new-start")
        expect(page.locator(".toast-error .toast-text").last).to_have_text(catalogue()["error.code.rate_limited"])
        shot(page, "offline-rate-limited")
        # The game shown stays, and plays on; the refused request was made once, not again.
        expect(page.locator("#deal-label")).to_have_text("Deal #5")
        click_cell(page, 0, 0)
        assert [url for url in posts if url.endswith("/api/games")] == [limited.url + "/api/games"]
        assert page.errors == []
        page.context.close()
    finally:
        limited.stop()


# --- a game the server forgot -------------------------------------------------------------------------------


def purge_unplayed(server: Server) -> int:
    """What the server does to a game left unplayed for an hour, done now (the store's clock two hours on)."""
    later = datetime.now(UTC) + timedelta(hours=2)
    store = Store(server.db, clock=lambda: later)
    try:
        return store.retention.purge_unplayed(timedelta(hours=1))
    finally:
        store.close()


def test_the_players_game_removed_unplayed_is_replaced_by_a_new_one_of_its_kind(browser: Any, server: Server) -> None:
    page = new_page(browser)
    open_home(page, server.url)
    # A numbered deal with house rules, reloaded once the server has removed it: the same deal and rules again.
    page.click("#btn-new")
    page.check('input[name="dealkind"][value="numbered"]')
    page.fill("#new-deal", "42")
    page.check("#new-diagonal")
    page.click("#new-start")
    expect(page.locator("#deal-label")).to_have_text("Deal #42")
    wait_turn(page, 0)
    removed = game_id(page)
    assert purge_unplayed(server) >= 1
    page.reload()
    expect(page.locator("#deal-label")).to_have_text("Deal #42")
    wait_turn(page, 0)
    assert game_id(page) != removed
    expect(page.locator("#variant-tags")).to_contain_text(catalogue()["variant.diagonal"])
    expect(page.locator("#no-game")).to_be_hidden()

    # Today's daily deal, removed while shown: the player's click deals it again, and a notice says why.
    page.click("#btn-new")
    page.check('input[name="dealkind"][value="daily"]')
    page.uncheck("#new-diagonal")
    page.click("#new-start")
    expect(page.locator("#deal-label")).to_contain_text("Daily deal")
    wait_turn(page, 0)
    daily = game_id(page)
    assert purge_unplayed(server) >= 1
    page.click("#board .slot.legal >> nth=0")
    expect(page.locator(".toast-info .toast-text").last).to_have_text(catalogue()["notice.expired"])
    expect(page.locator("#deal-label")).to_contain_text("Daily deal")
    wait_turn(page, 0)
    assert game_id(page) != daily
    assert page.locator(".toast-error").count() == 0
    click_cell(page, 0, 0)
    assert page.errors == []
    page.context.close()
