"""The attacks of the security review, in Chromium: another site's page posting forms, a second profile copying.

The game is served at ``http://127.0.0.1:PORT``; the attacker's page at ``http://localhost:OTHER`` — another
site to the browser (a different host, not only a different port), so the browser treats its requests as a
real attacker's: no ``SameSite=Lax`` cookie, ``Sec-Fetch-Site: cross-site``.
"""

from __future__ import annotations

import http.server
import threading
from collections.abc import Iterator
from typing import Any

import pytest

from browser_support import BROWSER_MARKS, browser, click_cell, expect, new_page, open_home, server, shot

pytestmark = BROWSER_MARKS
__all__ = ["browser", "server"]

TARGETS = {
    "/api/games": "cross_site",
    "/api/games/{game}/restart": "cross_site",
    "/api/no-such-thing": "cross_site",
    "/api/stats": "method_not_allowed",  # no POST there: the router answers 405 before anyone is asked who they are
}
"""Where the attacker's forms post (a route that makes a game, one that changes it, a 404 and a 405), and the
refusal each gets."""


def attacker_page(action: str) -> str:
    """A page that posts a form to ``action`` as soon as it loads, as the page of the review did."""
    form = f'<form id="prize" method="POST" action="{action}"><input name="deal" value="1"></form>'
    return f"<!doctype html><title>Win a prize</title>{form}<script>document.getElementById('prize').submit()</script>"


@pytest.fixture
def attacker() -> Iterator[tuple[str, dict[str, str]]]:
    """Another site: serves whatever HTML is put in ``pages`` (by path), at http://localhost:PORT."""
    pages: dict[str, str] = {}

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = pages.get(self.path, "not here").encode()
            self.send_response(200 if self.path in pages else 404)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    site = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=site.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://localhost:{site.server_address[1]}", pages
    finally:
        site.shutdown()
        site.server_close()


def player_cookie(page: Any) -> str:
    cookies = [c for c in page.context.cookies() if c["name"] == "fs_player"]
    assert len(cookies) == 1, cookies
    assert cookies[0]["httpOnly"] and cookies[0]["sameSite"] == "Lax"
    value: str = cookies[0]["value"]
    return value


def api(page: Any, method: str, path: str, body: Any = None) -> dict[str, Any]:
    """A same-origin request from the page, as its own scripts make them: {status, json}."""
    answer: dict[str, Any] = page.evaluate(
        """async ([method, path, body]) => {
            const init = {method, headers: {"Content-Type": "application/json"}};
            if (body !== null) init.body = JSON.stringify(body);
            const response = await fetch(path, init);
            return {status: response.status, json: await response.json()};
        }""",
        [method, path, body],
    )
    return answer


def test_another_sites_forms_neither_act_nor_take_the_identity(
    browser: Any, server: str, attacker: tuple[str, dict[str, str]]
) -> None:
    page = new_page(browser)
    game = open_home(page, server)
    legal = page.locator("#board .slot.legal").first
    click_cell(page, int(legal.get_attribute("data-row")), int(legal.get_attribute("data-col")))
    cookie = player_cookie(page)
    stats = api(page, "GET", "/api/stats")["json"]
    assert stats["played"] == 0 and api(page, "GET", "/api/games")["json"]["total"] == 1

    site, pages = attacker
    evil = page.context.new_page()  # a tab of the same browser: the player's cookie is in its jar
    for n, (path, refusal) in enumerate(TARGETS.items()):
        action = server + path.format(game=game)
        pages[f"/prize{n}"] = attacker_page(action)
        evil.goto(f"{site}/prize{n}")
        evil.wait_for_url(action)  # the form was sent: the tab shows the game server's answer
        answer = evil.locator("body").inner_text()
        assert f'"code":"{refusal}"' in answer.replace(" ", ""), (path, answer)
    shot(evil, "attack-forms")
    evil.close()

    assert player_cookie(page) == cookie
    assert api(page, "GET", "/api/stats")["json"] == stats
    state = api(page, "GET", f"/api/games/{game}")["json"]
    assert (state["yours"], state["turn"]) == (True, 1)
    assert api(page, "GET", "/api/games")["json"]["total"] == 1
    # The player's own page still plays the game.
    page.reload()
    expect(page.locator("#board")).to_have_attribute("data-turn", "1")
    assert page.errors == []


def test_a_second_profile_cannot_copy_a_live_game(browser: Any, server: str) -> None:
    player = new_page(browser)
    game = open_home(player, server)
    scout = new_page(browser)  # another browser context: another profile, another cookie
    scout.goto(server + "/openapi.json")  # a same-origin document that deals no game
    assert api(scout, "GET", "/api/stats")["status"] == 200
    copy = api(scout, "POST", "/api/games", {"like": game})
    assert (copy["status"], copy["json"]["code"]) == (409, "still_playing"), copy
    assert api(scout, "GET", "/api/games")["json"]["total"] == 0
    assert api(player, "POST", "/api/games", {"like": game})["status"] == 409  # nor the player's own second tab
