"""A player's identity cannot be taken by another site, and one client cannot crowd out the others.

What an attacker tried, request by request: a form another site auto-submits (``Sec-Fetch-Site: cross-site``,
or only an ``Origin`` from an older browser), to any ``/api/`` path, with and without the victim's cookie; a
script that floods new games, hints and analyses. The browser's own view of the same attack is in
``tests/test_browser_attacks.py``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from foursquare.web import create_app
from foursquare.web.player import COOKIE
from foursquare.web.rate_limits import RateLimits, RateLimitSettingsError
from web_support import UNHURRIED, as_player

CROSS_SITE = {"sec-fetch-site": "cross-site", "origin": "https://evil.example"}
FORM = {"content-type": "application/x-www-form-urlencoded"}


@pytest.fixture
def app(tmp_path: Path) -> Any:
    return create_app(
        tmp_path / "games.db",
        rate_limits=RateLimits(games="5/hour", hints="2/hour", analyses="2/hour", moves=UNHURRIED),
    )


@pytest.fixture
def player(app: Any) -> Iterator[TestClient]:
    with TestClient(app, raise_server_exceptions=False) as client:
        yield as_player(client)


def new_game(client: TestClient, **body: Any) -> dict[str, Any]:
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    state: dict[str, Any] = response.json()
    return state


# --- the cookie -----------------------------------------------------------------------------------------------


def test_a_new_player_gets_the_cookie_from_a_get_and_never_from_a_change(app: Any) -> None:
    with TestClient(app) as browser:
        refused = browser.post("/api/games", json={"deal": 1})
        assert (refused.status_code, refused.json()["code"]) == (403, "no_player")
        assert "set-cookie" not in refused.headers and "/api/" in refused.json()["detail"]
        first = browser.get("/api/stats")
        cookie = first.headers["set-cookie"]
        assert cookie.startswith(f"{COOKIE}=") and "httponly" in cookie.lower() and "samesite=lax" in cookie.lower()
        assert "secure" not in cookie.lower()  # plain HTTP: a Secure cookie would never come back
        assert "set-cookie" not in browser.get("/api/stats").headers  # set once
        assert browser.post("/api/games", json={"deal": 1}).status_code == 201


def test_over_https_the_cookie_is_secure_and_this_hosts_alone(app: Any) -> None:
    with TestClient(app, base_url="https://games.example.org") as browser:
        cookie = browser.get("/api/games").headers["set-cookie"]
        assert cookie.startswith("__Host-fs_player=")  # no sibling sub-domain can plant one in its place
        assert "; secure" in cookie.lower() and "httponly" in cookie.lower() and "samesite=lax" in cookie.lower()
        assert "domain=" not in cookie.lower() and "path=/" in cookie.lower()
        assert browser.post("/api/games", json={"deal": 1}).status_code == 201
        # A plain fs_player cookie (what a sibling sub-domain could set for the whole domain) is no identity here.
        with TestClient(browser.app, base_url="https://games.example.org", cookies={COOKIE: "x" * 22}) as planted:
            assert planted.post("/api/games", json={"deal": 1}).json()["code"] == "no_player"


def test_only_a_get_gives_the_cookie(app: Any) -> None:
    with TestClient(app) as browser:
        for method in ("HEAD", "OPTIONS"):
            assert "set-cookie" not in browser.request(method, "/api/stats").headers, method


def test_a_page_or_a_static_file_sets_no_cookie(app: Any) -> None:
    with TestClient(app) as browser:
        for path in ("/", "/static/app.js", "/rules"):
            assert "set-cookie" not in browser.get(path).headers, path


# --- another site's requests ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "refusal"),
    [
        ("/api/games", (403, "cross_site")),
        ("/api/games/x/restart", (403, "cross_site")),
        ("/api/no-such-thing", (403, "cross_site")),
        ("/api/stats", (405, "method_not_allowed")),  # no POST there: the router says so, whoever asks
    ],
)
def test_another_sites_form_neither_acts_nor_replaces_the_identity(
    player: TestClient, path: str, refusal: tuple[int, str]
) -> None:
    game = new_game(player, deal=3)
    cookie = player.cookies[COOKIE]
    before = player.get("/api/stats").json()
    # The browser sends no SameSite=Lax cookie with another site's POST: the request comes without it.
    with TestClient(player.app, raise_server_exceptions=False) as elsewhere:
        response = elsewhere.post(path, content="deal=1", headers={**CROSS_SITE, **FORM})
        assert (response.status_code, response.json()["code"]) == refusal, response.text
        assert "set-cookie" not in response.headers
        # Nor when the browser does send the cookie (a browser without SameSite): still refused.
        elsewhere.cookies.set(COOKIE, cookie)
        response = elsewhere.post(path, content="deal=1", headers={**CROSS_SITE, **FORM})
        assert (response.status_code, response.json()["code"]) == refusal
        assert "set-cookie" not in response.headers
    assert player.cookies[COOKIE] == cookie
    assert player.get("/api/stats").json() == before
    assert player.get(f"/api/games/{game['id']}").json()["yours"] is True
    assert player.get("/api/games").json()["total"] == 1


@pytest.mark.parametrize(
    ("headers", "refused"),
    [
        ({"sec-fetch-site": "same-site"}, True),  # another port or sub-domain: another origin
        ({"sec-fetch-site": "cross-site"}, True),
        ({"sec-fetch-site": "same-origin"}, False),
        ({"sec-fetch-site": "none"}, False),  # the user's own doing (typed, bookmarked)
        ({"origin": "http://testserver"}, False),  # a browser that sends Origin only
        ({"origin": "http://testserver:80"}, False),
        ({"origin": "http://testserver:8080"}, True),
        ({"origin": "https://testserver"}, False),  # behind a TLS proxy the server speaks HTTP: the host is what counts
        ({"origin": "https://testserver:8443"}, True),
        ({"origin": "null"}, True),  # a sandboxed frame or a file
        ({"origin": "http://evil.example"}, True),
        ({}, False),  # a script: no browser, no cross-site forgery
    ],
)
def test_what_counts_as_another_sites_request(player: TestClient, headers: dict[str, str], refused: bool) -> None:
    response = player.post("/api/games", json={"deal": 1}, headers=headers)
    assert (response.status_code == 403) is refused, response.text
    if refused:
        assert response.json()["code"] == "cross_site"


def test_another_site_may_link_to_a_game_and_its_page_reads_it(player: TestClient) -> None:
    game = new_game(player, deal=3)
    with TestClient(player.app) as visitor:
        link = {"sec-fetch-site": "cross-site", "sec-fetch-mode": "navigate"}
        assert visitor.get(f"/game/{game['id']}", headers=link).status_code == 200
        read = visitor.get(f"/api/games/{game['id']}", headers={"sec-fetch-site": "cross-site"})
        assert read.status_code == 200 and read.json()["yours"] is False
        assert "set-cookie" not in read.headers  # a cross-site read gives no identity either


# --- fair use --------------------------------------------------------------------------------------------------


def test_a_flooding_client_is_limited_and_another_client_is_not(app: Any) -> None:
    with (
        TestClient(app, client=("203.0.113.9", 4000)) as flood,
        TestClient(app, client=("198.51.100.7", 4000)) as honest,
    ):
        as_player(flood), as_player(honest)
        answers = [flood.post("/api/games", json={"deal": n}) for n in range(8)]
        assert [a.status_code for a in answers] == [201] * 5 + [429] * 3
        refused = answers[-1]
        assert refused.json()["code"] == "rate_limited" and refused.json()["detail"].startswith("too many requests")
        assert 1 <= int(refused.headers["retry-after"]) <= 3600
        # A new cookie does not help: the limit is the address's.
        flood.cookies.clear()
        as_player(flood)
        assert flood.post("/api/games", json={"deal": 1}).status_code == 429
        assert honest.post("/api/games", json={"deal": 1}).status_code == 201


def test_a_refused_request_spends_no_other_window(tmp_path: Path) -> None:
    app = create_app(tmp_path / "games.db", rate_limits=RateLimits(games="2/hour;4/day", moves=UNHURRIED))
    with TestClient(app, client=("203.0.113.11", 4000)) as client:
        as_player(client)
        statuses = [client.post("/api/games", json={"deal": n}).status_code for n in range(6)]
        assert statuses == [201, 201, 429, 429, 429, 429]
        limits: RateLimits = app.state.rate_limits
        stats = limits._limiter.get_window_stats(limits._items["games"][1], "games", "203.0.113.11")
        assert stats.remaining == 2  # the day's window counted the two answered, not the four refused


def test_another_sites_hint_requests_spend_nothing(app: Any) -> None:
    with TestClient(app, client=("203.0.113.12", 4000), raise_server_exceptions=False) as player:
        as_player(player)
        game = new_game(player, deal=1)
        for _ in range(5):  # what <img src=".../hint"> on another site's page makes the visitor's browser send
            answer = player.get(f"/api/games/{game['id']}/hint", headers={"sec-fetch-site": "cross-site"})
            assert (answer.status_code, answer.json()["code"]) == (403, "cross_site")
        assert player.get(f"/api/games/{game['id']}/hint").status_code != 429


def test_hints_and_analyses_are_limited_per_client(app: Any) -> None:
    with TestClient(app, client=("203.0.113.10", 4000), raise_server_exceptions=False) as flood:
        as_player(flood)
        game = new_game(flood, deal=1)
        hints = [flood.get(f"/api/games/{game['id']}/hint").status_code for _ in range(3)]
        assert hints[2] == 429 and 429 not in hints[:2]
        analyses = [flood.get(f"/api/games/{game['id']}/analysis").status_code for _ in range(3)]
        assert analyses == [409, 409, 429]  # counted even when refused: a script learns nothing by probing


@pytest.mark.parametrize(
    ("first", "second", "one_client"),
    [
        ("2001:db8:1:2::1", "2001:db8:1:2:ffff::9", True),  # an IPv6 client is its /64 network
        ("2001:db8:1:2::1", "2001:db8:1:3::1", False),
        ("::ffff:203.0.113.20", "::ffff:203.0.113.21", False),  # IPv4 clients of a dual-stack server
        ("::ffff:203.0.113.20", "203.0.113.20", True),
    ],
)
def test_which_addresses_are_one_client(app: Any, first: str, second: str, one_client: bool) -> None:
    with TestClient(app, client=(first, 4000)) as one, TestClient(app, client=(second, 4000)) as other:
        as_player(one), as_player(other)
        for n in range(5):
            new_game(one, deal=n)
        assert other.post("/api/games", json={"deal": 9}).status_code == (429 if one_client else 201)


@pytest.mark.parametrize(
    ("environ", "message"),
    [
        ({"FOURSQUARE_RATE_GAMES": "lots"}, "FOURSQUARE_RATE_GAMES must be a rate such as '60/minute'"),
        ({"FOURSQUARE_RATE_HINTS": "0/minute"}, "FOURSQUARE_RATE_HINTS: 0 per minute must be 1 to"),
        ({"FOURSQUARE_RATE_ANALYSES": "10/fortnight"}, "FOURSQUARE_RATE_ANALYSES must be a rate"),
        ({"FOURSQUARE_RATE_GAMES": "99999999999/second"}, "FOURSQUARE_RATE_GAMES: 99999999999 per second must be 1 to"),
    ],
)
def test_absurd_limits_are_refused_by_name(environ: dict[str, str], message: str) -> None:
    with pytest.raises(RateLimitSettingsError, match="^" + message.replace("(", r"\(")):
        RateLimits.from_environment(environ)


def test_the_default_limits_are_generous_and_the_environment_changes_them() -> None:
    assert RateLimits.from_environment({}) == RateLimits()
    assert RateLimits().games == "60/minute;1000/day"
    assert RateLimits.from_environment({"FOURSQUARE_RATE_GAMES": "10/second"}).games == "10/second"


# --- bounded data -----------------------------------------------------------------------------------------------


def test_a_player_may_keep_only_so_many_live_games(tmp_path: Path) -> None:
    from foursquare.web.retention import RetentionSettings

    app = create_app(tmp_path / "games.db", retention=RetentionSettings(live_games=3))
    with TestClient(app, raise_server_exceptions=False) as player:
        as_player(player)
        games = [new_game(player, deal=n) for n in range(3)]
        for body in ({"deal": 9}, {}, {"winnable": True}):
            refused = player.post("/api/games", json=body)
            assert (refused.status_code, refused.json()["code"]) == (409, "too_many_games"), body
            assert "3 games in progress" in refused.json()["detail"]
        daily = player.post("/api/games", json={"daily": True})
        assert daily.json()["code"] == "too_many_games"
        # Finishing one makes room; another player is not affected.
        state = games[0]
        while state["outcome"] == "playing":
            row, col = state["legal"][0]
            state = player.post(
                f"/api/games/{state['id']}/moves", json={"row": row, "col": col, "turn": state["turn"]}
            ).json()
        assert player.post("/api/games", json={"daily": True}).status_code == 201
        with TestClient(app) as other:
            assert as_player(other).post("/api/games", json={}).status_code == 201


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_a_body_with_no_json_number_is_no_json(player: TestClient, constant: str) -> None:
    answer = player.post("/api/games", content=f'{{"deal": {constant}}}', headers={"content-type": "application/json"})
    assert (answer.status_code, answer.json()["detail"]) == (422, "bad request: the request body is not valid JSON")
