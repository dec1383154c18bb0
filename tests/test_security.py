"""A server that can face the internet: security headers on every answer, a 404 for every unknown address
(a page for a browser, JSON for programs), and a page that runs under its content security policy."""

from __future__ import annotations

import re
from collections.abc import Iterator
from html.parser import HTMLParser
from importlib.metadata import version
from pathlib import Path
from typing import Any

import fastapi_offline
import pytest
from fastapi.testclient import TestClient

from browser_support import (
    NEEDS_CHROMIUM,
    PHONE,
    STATIC,
    WAIT_MS,
    browser,
    click_cell,
    expect,
    new_page,
    server,
    shot,
    start_deal,
    wait_turn,
    winning,
)
from foursquare.engine import Game, Move
from foursquare.web import create_app
from foursquare.web.deps import get_store
from foursquare.web.messages import say
from foursquare.web.security import CSP, HEADERS, sha256_source
from web_support import as_player

# Fixtures are found by name in this module's namespace.
__all__ = ["browser", "server", "winning"]

BROWSER_HTML = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"  # what a browser's navigation accepts


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(tmp_path / "games.db"), raise_server_exceptions=False) as client:
        as_player(client)
        yield client


def policy(header: str) -> dict[str, str]:
    return {name: sources for name, _, sources in (d.strip().partition(" ") for d in header.split(";"))}


def assert_secured(response: Any) -> None:
    for name, value in HEADERS.items():
        assert response.headers[name] == value, (response.url, name)
    csp = policy(response.headers["content-security-policy"])
    assert csp["frame-ancestors"] == "'none'" and csp["base-uri"] == "'none'" and csp["object-src"] == "'none'"
    assert "'unsafe-inline'" not in csp["script-src"] and "'unsafe-eval'" not in csp["script-src"]


# --- headers on every answer ---------------------------------------------------------------------------


def test_every_kind_of_answer_carries_the_security_headers(client: TestClient) -> None:
    game = client.post("/api/games", json={"deal": 1}).json()
    answers = {
        "page": client.get("/"),
        "game page": client.get(f"/game/{game['id']}"),
        "static": client.get("/static/app.js"),
        "api": client.get(f"/api/games/{game['id']}"),
        "api 201": client.post("/api/games", json={}),
        "openapi": client.get("/openapi.json"),
        "unknown game": client.get("/api/games/nope"),
        "unknown path": client.get("/nowhere", headers={"accept": BROWSER_HTML}),
        "unknown api path": client.get("/api/nowhere"),
        "missing static": client.get("/static/nope.js"),
        "wrong method": client.delete("/api/games"),
        "bad body": client.post("/api/games", json={"deal": -1}),
        "too large": client.post("/api/games", content=b"[" * 70_000),
        "conflict": client.post(f"/api/games/{game['id']}/undo"),
    }
    statuses = {name: response.status_code for name, response in answers.items()}
    assert statuses == {
        "page": 200, "game page": 200, "static": 200, "api": 200, "api 201": 201, "openapi": 200,
        "unknown game": 404, "unknown path": 404, "unknown api path": 404, "missing static": 404,
        "wrong method": 405, "bad body": 422, "too large": 413, "conflict": 409,
    }  # fmt: skip
    for response in answers.values():
        assert_secured(response)
    assert answers["page"].headers["content-security-policy"] == "; ".join(f"{k} {v}" for k, v in CSP.items())


def test_even_an_internal_error_carries_them(client: TestClient) -> None:
    def broken() -> None:
        raise RuntimeError("the disk caught fire")

    client.app.dependency_overrides[get_store] = broken  # type: ignore[attr-defined]
    response = client.get("/api/stats")
    assert (response.status_code, response.json()) == (500, {"detail": "internal error", "code": "internal"})
    assert_secured(response)


def test_the_docs_page_loads_nothing_from_another_site(client: TestClient) -> None:
    """Swagger UI's script and style come from the installed package, at addresses of its version; the page's
    policy names no other origin (only its one inline script, by its hash), and its markup no other address."""
    response = client.get("/docs")
    assert response.status_code == 200
    assert_secured(response)
    header = response.headers["content-security-policy"]
    csp = policy(header)
    (inline,) = re.findall(r"<script>(.*?)</script>", response.text, flags=re.S)
    assert csp["script-src"] == f"'self' {sha256_source(inline)}" and csp["style-src"] == "'self'"
    assert not re.search(r"https?:|//|\*", header), header
    addresses = re.findall(r'(?:src|href)="([^"]*)"', response.text)
    assert addresses and all(address.startswith("/") and not address.startswith("//") for address in addresses)
    assert "/static/favicon.svg" in addresses  # the game's own icon
    assert client.get("/redoc").status_code == 404  # one interactive description is enough


def test_the_docs_assets_are_the_packages_and_kept_a_year(client: TestClient) -> None:
    page = client.get("/docs").text
    package = Path(fastapi_offline.__file__).parent / "static"
    for name, kind in [("swagger-ui-bundle.js", "text/javascript"), ("swagger-ui.css", "text/css")]:
        (address,) = re.findall(rf'"(/docs/[^"]*/{re.escape(name)})"', page)
        asset = client.get(address)
        assert asset.status_code == 200 and asset.headers["content-type"].startswith(kind), address
        assert asset.content == (package / name).read_bytes()
        assert asset.headers["cache-control"] == "public, max-age=31536000, immutable"
        assert_secured(asset)
        # The address names the version: another version's is no file (so a year's cache is never stale).
        assert client.get(address.replace(version("fastapi-offline"), "0.0.0")).status_code == 404
    for other in ("redoc.standalone.js", "favicon.png", "../routes/docs.py"):
        assert client.get(f"/docs/{version('fastapi-offline')}/{other}").status_code == 404


# --- 405 ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("method", "path", "allow"),
    [
        ("DELETE", "/api/games", "GET, HEAD, POST"),
        ("PUT", "/api/games/some-game/moves", "POST"),
        ("PATCH", "/api/games/some-game", "GET, HEAD"),
        ("DELETE", "/api/stats", "GET, HEAD"),
        ("TRACE", "/api/account/sign-out", "POST"),
    ],
)
def test_a_method_the_path_does_not_declare_is_405_before_the_player_check(
    tmp_path: Path, method: str, path: str, allow: str
) -> None:
    with TestClient(create_app(tmp_path / "games.db")) as stranger:  # no cookie: a change would be 403 no_player
        for headers in ({}, {"origin": "https://elsewhere.example"}):
            response = stranger.request(method, path, headers=headers)
            assert response.status_code == 405, (method, path, headers, response.text)
            assert response.json() == {"detail": "method not allowed", "code": "method_not_allowed"}
            assert response.headers["allow"] == allow
            assert "set-cookie" not in response.headers
            assert_secured(response)
        # A method the path declares still needs the cookie, and only this site's pages may send it.
        refused = stranger.post("/api/games", json={})
        assert (refused.status_code, refused.json()["code"]) == (403, "no_player")


# --- 404 ---------------------------------------------------------------------------------------------------


def test_an_unknown_address_is_a_page_for_a_browser_and_json_for_a_program(client: TestClient) -> None:
    page = client.get("/no/such/page", headers={"accept": BROWSER_HTML})
    assert page.status_code == 404 and page.headers["content-type"].startswith("text/html")
    for key in ("title", "text", "link"):
        assert say(f"page_not_found.{key}") in page.text
    assert '<a href="/">' in page.text
    assert "no/such/page" not in page.text  # the address asked for is never echoed (no reflected markup)
    # Self-contained: its one <style> is allowed by its hash, and it has no inline script.
    (style,) = re.findall(r"<style>(.*?)</style>", page.text, flags=re.S)
    csp = policy(page.headers["content-security-policy"])
    assert csp["style-src"] == f"'self' {sha256_source(style)}" and csp["script-src"] == "'self'"
    assert not re.search(r"<script>|\son\w+=|\sstyle=", page.text)
    not_found = {"detail": "not found", "code": "not_found"}
    for path, accept in [("/no/such/page", "*/*"), ("/no/such/page", "application/json"), ("/api/nope", BROWSER_HTML)]:
        response = client.get(path, headers={"accept": accept})
        assert (response.status_code, response.json()) == (404, not_found), (path, accept)


@pytest.mark.parametrize(
    "path",
    [
        "/%00", "/%ff%fe", "/..%2f..%2fetc%2fpasswd", "/static/../../pyproject.toml", "/static/", "/static",
        "/static/%2e%2e/app.py", "/game/", "/game/a/b", "/api/", "/api/games/", "/api/games/x/y/z", "/" + "a" * 5000,
        "/api/games/%00/moves", "/index.html", "/.env", "/%E2%82%AC",
    ],
)  # fmt: skip
def test_no_address_is_a_server_error(client: TestClient, path: str) -> None:
    for accept in (BROWSER_HTML, "*/*"):
        response = client.get(path, headers={"accept": accept}, follow_redirects=False)
        assert response.status_code in (307, 404, 405), (path, response.status_code, response.text[:200])
        assert_secured(response)


# --- the page under its policy -------------------------------------------------------------------------------


class MarkupCheck(HTMLParser):
    """Collects what the policy forbids in markup: inline script, style attributes, event-handler attributes."""

    def __init__(self) -> None:
        super().__init__()
        self.forbidden: list[str] = []
        self.in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        names = dict(attrs)
        if tag == "script" and "src" not in names:
            self.forbidden.append("inline <script>")
        if tag == "style":
            self.forbidden.append("<style>")
        self.forbidden += [f"{tag} {name}=" for name in names if name == "style" or name.startswith("on")]


def test_the_page_has_no_markup_the_policy_forbids() -> None:
    check = MarkupCheck()
    check.feed((STATIC / "index.html").read_text(encoding="utf-8"))
    assert check.forbidden == []
    for script in STATIC.glob("**/*.js"):
        text = script.read_text(encoding="utf-8")
        # style="" through markup or setAttribute is inline style; the CSSOM (element.style…) is allowed.
        assert not re.search(r"""setAttribute\(\s*["']style|innerHTML|\beval\(|new Function\(""", text), script


VIOLATIONS = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (e) => {
  const where = `${e.sourceFile}:${e.lineNumber}`;
  window.__violations.push(`${e.effectiveDirective} blocked ${e.blockedURI || "inline"} at ${where}`);
});
"""


def secured_page(browser: Any, **options: Any) -> Any:
    """A page that records every CSP violation and every console complaint about a policy."""
    page = new_page(browser, **options)
    page.add_init_script(VIOLATIONS)
    page.complaints = []
    page.on(
        "console",
        lambda message: (
            page.complaints.append(message.text)
            if re.search(r"Content.Security.Policy|Permissions.Policy|Refused to", message.text)
            else None
        ),
    )
    return page


def violations(page: Any) -> list[str]:
    found: list[str] = page.evaluate("window.__violations")
    return found + page.complaints


def analysis_with_a_mistake(deal: int, line: list[Move]) -> dict[str, Any]:
    """An analysis of the winning line in which move 2 is a mistake (so the replay draws its mark)."""
    game = Game(deal=deal)
    moves = []
    for index, move in enumerate(line):
        card = game.card_to_place
        assert card is not None
        mistake = index == 1
        moves.append({
            "index": index, "card": card.name, "played": list(move), "best": list(move),
            "played_win_probability": 0.5 if mistake else 0.9, "best_win_probability": 0.9,
            "played_expected_score": 5.0 if mistake else 9.0, "best_expected_score": 9.0,
            "win_probability_loss": 0.4 if mistake else 0.0, "expected_score_loss": 4.0 if mistake else 0.0,
            "forced": len(game.legal_moves) == 1, "mistake": mistake,
        })  # fmt: skip
        game.place(move.row, move.col)
    outcome = game.outcome()
    return {
        "outcome": outcome.status, "reason": outcome.reason, "score": outcome.score, "deal": deal, "moves": moves,
        "costliest": [1], "perfect": {"status": "optimal", "winnable": True, "best_score": outcome.score,
                                      "upper_bound": outcome.score, "line": []},
    }  # fmt: skip


@pytest.mark.browser
@pytest.mark.slow
@NEEDS_CHROMIUM
def test_the_page_runs_under_its_policy_without_a_violation(
    browser: Any, server: str, winning: tuple[int, list[Move]]
) -> None:
    deal, line = winning
    page = secured_page(browser)
    page.route("**/api/games/*/analysis", lambda route: route.fulfill(json=analysis_with_a_mistake(deal, line)))
    response = page.goto(server + "/")
    assert response is not None and "script-src 'self'" in response.headers["content-security-policy"]
    wait_turn(page, 0)
    # The dialogs, the hint, the theme, a whole game, its analysis and replay, the statistics, the rules.
    page.click("#btn-hint")
    expect(page.locator(".hint-item").first).to_be_visible(timeout=WAIT_MS)
    page.click(".theme-toggle")
    start_deal(page, deal)
    for move in line:
        click_cell(page, *move)
    expect(page.locator("#over")).to_be_visible()
    expect(page.locator("#analysis")).to_have_attribute("aria-busy", "false")
    mark = page.locator("#replay-marks .replay-mark")
    expect(mark).to_have_count(1)
    assert page.evaluate("document.querySelector('#replay-marks .replay-mark').style.left") != ""
    mark.click()
    expect(page.locator("#board")).to_have_attribute("data-replay-turn", "1")
    page.click("#replay-last")
    page.click('.site-nav a[data-route="stats"]')
    expect(page.locator(".tile-won dd")).to_have_text("1")
    page.goto(server + "/#/rules")
    expect(page.locator("#rules-title")).to_be_visible()
    page.goto(server + "/")  # back to the finished game
    wait_turn(page, len(line))
    assert violations(page) == []
    assert page.errors == []

    # The recorder works: inline style set through markup is refused, and reported.
    page.evaluate("document.body.setAttribute('style', 'outline: 1px solid red')")
    page.wait_for_function("window.__violations.length > 0")
    assert "style-src-attr" in page.evaluate("window.__violations")[0]
    page.context.close()


@pytest.mark.browser
@pytest.mark.slow
@NEEDS_CHROMIUM
def test_the_not_found_page_in_the_browser(browser: Any, server: str) -> None:
    for name, options in [
        ("desktop-light", {}),
        ("phone-dark", {"viewport": PHONE, "color_scheme": "dark"}),
    ]:
        page = secured_page(browser, **options)
        response = page.goto(server + "/no/such/page")
        assert response is not None and response.status == 404
        expect(page.locator("h1")).to_have_text(say("page_not_found.title"))
        background = page.evaluate("getComputedStyle(document.body).backgroundColor")
        assert background == ("rgb(18, 22, 27)" if "dark" in name else "rgb(243, 239, 230)")  # styled, in its theme
        shot(page, f"not-found-{name}")
        assert violations(page) == []
        page.click("a")
        wait_turn(page, 0)
        assert page.errors == []
        page.context.close()


@pytest.mark.browser
@pytest.mark.slow
@NEEDS_CHROMIUM
def test_the_docs_page_in_the_browser_asks_only_this_server(browser: Any, server: str) -> None:
    page = secured_page(browser)
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    response = page.goto(server + "/docs")
    assert response is not None and response.status == 200
    # Swagger UI ran: it read /openapi.json and drew its operations.
    expect(page.locator('.opblock-summary-path[data-path="/api/games/{game_id}/moves"]')).to_be_visible()
    # It works: an operation tried (its answer highlighted), a schema opened.
    page.click('.opblock-summary-path[data-path="/api/stats"]')
    page.click(".try-out__btn")
    page.click(".execute")
    expect(page.locator(".live-responses-table tr.response .response-col_status")).to_have_text("200")
    title = page.locator(".json-schema-2020-12__title", has_text=re.compile(r"^Stats$"))
    stats = page.locator("section.models article[data-json-schema-level='0']").filter(has=title)
    stats.locator(".json-schema-2020-12-expand-deep-button").click()
    expect(stats.locator(".json-schema-2020-12-property").first).to_be_visible()
    shot(page, "docs")
    assert violations(page) == []
    assert page.errors == []
    assert f"{server}/openapi.json" in asked
    assert [url for url in asked if not url.startswith((f"{server}/", "data:"))] == []
    page.context.close()
