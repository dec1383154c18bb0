"""A person controls their own account: names and removes passkeys (the last one only when confirmed), lists the
browsers signed in and signs them out, one or all but this one; idle sessions end, and the purges forget idle
sessions, expired challenges, old rate counts and the accounts nobody can sign in to again.

The passkeys are :mod:`test_accounts`' software authenticator; time is its frozen clock, moved by hand.
"""

from __future__ import annotations

import re
import sqlite3
import time
from datetime import timedelta
from typing import Any

import pytest

from foursquare.store import PasskeyNameError, Store
from foursquare.store.accounts import NAME_LENGTH, SESSION_IDLE, passkey_name
from foursquare.store.tokens import anonymous_player
from foursquare.web.devices import device_of
from foursquare.web.retention import Purged, RetentionSettings, longest_window, purge
from foursquare.web.routes.account import RenameBody
from test_accounts import Authenticator, Clock, app, clock, cookie, create_passkey, device, finished_game, sign_in

# Fixtures are found by name in this module's namespace.
__all__ = ["app", "clock", "device"]

PHONE = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126 Mobile Safari/537"
LAPTOP = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:127.0) Gecko/20100101 Firefox/127.0"


def two_devices(device: Any) -> tuple[Any, Any, Authenticator]:
    """A phone that made a passkey and a laptop signed in with it (a synced passkey), each with its User-Agent; and
    the passkey as last used (its counter moved on)."""
    phone, laptop = device(), device()
    phone.headers["user-agent"] = PHONE
    laptop.headers["user-agent"] = LAPTOP
    key = Authenticator()
    assert create_passkey(phone, key).status_code == 201
    synced = key.copy()
    assert sign_in(laptop, synced).status_code == 200
    return phone, laptop, synced


def passkeys(client: Any) -> list[dict[str, Any]]:
    answer: list[dict[str, Any]] = client.get("/api/account").json()["passkeys"]
    return answer


def sessions(client: Any) -> list[dict[str, Any]]:
    response = client.get("/api/account/sessions")
    assert response.status_code == 200, response.text
    answer: list[dict[str, Any]] = response.json()["sessions"]
    return answer


def refused(response: Any) -> tuple[int, str]:
    return response.status_code, response.json()["code"]


# --- the signed-in devices -----------------------------------------------------------------------------------------


def test_the_sessions_list_names_each_device_shortly_and_marks_this_one(device: Any, clock: Clock) -> None:
    phone, laptop, _ = two_devices(device)
    clock.when += timedelta(hours=2)
    listed = sessions(phone)  # the phone is used two hours later: it comes first
    assert [(s["browser"], s["system"], s["current"]) for s in listed] == [
        ("Chrome", "Android", True),
        ("Firefox", "Windows", False),
    ]
    assert listed[0]["last_seen_at"] > listed[1]["last_seen_at"] == listed[1]["created_at"]
    assert all(len(s["handle"]) == 16 and set(s["handle"]) <= set("0123456789abcdef") for s in listed)
    assert all(s["created_at"] and s["last_seen_at"] for s in listed)
    assert PHONE not in str(listed) and "Pixel" not in str(listed)  # never the header, nor the phone's model
    assert sorted(s["current"] for s in sessions(laptop)) == [False, True]


def test_signing_out_another_device_makes_it_a_stranger_and_keeps_this_one(device: Any) -> None:
    phone, laptop, _ = two_devices(device)
    game = finished_game(phone)
    other = next(s for s in sessions(phone) if not s["current"])
    answer = phone.delete(f"/api/account/sessions/{other['handle']}")
    assert answer.status_code == 200, answer.text
    assert answer.json()["ended"] == 1
    assert [s["current"] for s in answer.json()["sessions"]] == [True]
    assert not laptop.get("/api/account").json()["signed_in"]
    assert laptop.get(f"/api/games/{game['id']}").json().get("outcome") == "won"  # a finished game: anyone may look
    assert laptop.get("/api/stats").json()["played"] == 0  # but its statistics are the account's, not its own now
    assert phone.get("/api/account").json()["signed_in"]
    again = phone.delete(f"/api/account/sessions/{other['handle']}")
    assert refused(again) == (404, "no_session")


def test_this_browser_signs_out_by_signing_out_not_by_its_handle(device: Any) -> None:
    phone, _, _ = two_devices(device)
    mine = next(s for s in sessions(phone) if s["current"])
    assert refused(phone.delete(f"/api/account/sessions/{mine['handle']}")) == (409, "current_session")
    assert phone.get("/api/account").json()["signed_in"]


def test_sign_out_everywhere_else_keeps_only_this_browser(device: Any) -> None:
    phone, laptop, key = two_devices(device)
    tablet = device()
    assert sign_in(tablet, key.copy()).status_code == 200
    answer = laptop.post("/api/account/sign-out-everywhere")
    assert answer.status_code == 200, answer.text
    assert answer.json()["ended"] == 2
    assert [s["current"] for s in answer.json()["sessions"]] == [True]
    assert laptop.get("/api/account").json()["signed_in"]
    assert not phone.get("/api/account").json()["signed_in"] and not tablet.get("/api/account").json()["signed_in"]
    assert laptop.post("/api/account/sign-out-everywhere").json()["ended"] == 0


def test_another_accounts_session_cannot_be_ended(device: Any) -> None:
    phone, _, _ = two_devices(device)
    stranger = device()
    assert create_passkey(stranger, Authenticator()).status_code == 201
    theirs = sessions(stranger)[0]["handle"]
    assert refused(phone.delete(f"/api/account/sessions/{theirs}")) == (404, "no_session")
    assert stranger.get("/api/account").json()["signed_in"]


def test_an_anonymous_browser_has_no_sessions_to_list_or_end(device: Any) -> None:
    browser = device()
    assert refused(browser.get("/api/account/sessions")) == (409, "not_signed_in")
    assert refused(browser.delete("/api/account/sessions/0123456789abcdef")) == (409, "not_signed_in")
    assert refused(browser.post("/api/account/sign-out-everywhere")) == (409, "not_signed_in")
    assert refused(browser.delete("/api/account/sessions/not-a-handle")) == (422, "bad_request")


def test_a_session_idle_for_thirty_days_has_ended_and_a_used_one_lives_on(device: Any, clock: Clock) -> None:
    phone, laptop, _ = two_devices(device)
    clock.when += SESSION_IDLE - timedelta(hours=2)
    assert phone.get("/api/account").json()["signed_in"]  # the phone is used: its session moves on
    clock.when += timedelta(hours=3)
    assert not laptop.get("/api/account").json()["signed_in"]
    assert [s["current"] for s in sessions(phone)] == [True]


def test_only_a_cookie_of_no_session_nor_account_is_remembered_anonymous(device: Any, app: Any, clock: Clock) -> None:
    """The server remembers anonymous cookies (no read to know who they are); a session's never, alive or not."""
    phone, laptop, _ = two_devices(device)
    store: Store = app.state.store
    stranger = device()
    assert stranger.get("/api/games").status_code == 200
    assert store.accounts.known_player(cookie(stranger)) == anonymous_player(cookie(stranger))
    account = store.accounts.player_of(cookie(phone))
    assert account is not None and account != anonymous_player(cookie(phone))
    assert store.accounts.player_of(account) is None  # an account's own id is no cookie
    clock.when += SESSION_IDLE + timedelta(hours=1)
    assert not laptop.get("/api/account").json()["signed_in"]  # idle: the laptop's cookie is anonymous now
    for remembered in (cookie(phone), cookie(laptop), account):
        assert store.accounts.known_player(remembered) is None


# --- the passkeys ----------------------------------------------------------------------------------------------------


def test_a_passkey_is_named_trimmed_and_its_name_forgotten(device: Any) -> None:
    phone, _, _ = two_devices(device)
    (key,) = passkeys(phone)
    assert key["name"] is None and key["id"]
    answer = phone.patch(f"/api/account/credentials/{key['id']}", json={"name": "  My phone  "})
    assert answer.status_code == 200, answer.text
    assert answer.json()["passkeys"][0]["name"] == "My phone"
    assert passkeys(phone)[0]["name"] == "My phone"
    forgotten = phone.patch(f"/api/account/credentials/{key['id']}", json={"name": "   "})
    assert forgotten.json()["passkeys"][0]["name"] is None


@pytest.mark.parametrize("name", ["x" * (NAME_LENGTH + 1), "line\nbreak", "tab\there", "bell\x07", "rtl\u202eover"])
def test_a_name_too_long_or_with_a_control_character_is_refused(device: Any, name: str) -> None:
    phone, _, _ = two_devices(device)
    (key,) = passkeys(phone)
    answer = phone.patch(f"/api/account/credentials/{key['id']}", json={"name": name})
    assert refused(answer) == (422, "bad_request")
    assert "name" in answer.json()["detail"]
    assert passkeys(phone)[0]["name"] is None


def test_the_name_rules_of_the_store_are_the_apis() -> None:
    assert passkey_name("x" * NAME_LENGTH + "   ") == "x" * NAME_LENGTH
    assert passkey_name("Téléphone de Zoë 📱 ব্রাউজার") == "Téléphone de Zoë 📱 ব্রাউজার"
    pattern = re.compile(RenameBody.model_json_schema()["properties"]["name"]["anyOf"][0]["pattern"])
    for character in map(chr, range(0x3000)):
        try:
            passkey_name(f"a{character}b")
        except PasskeyNameError:
            assert not pattern.match(f"a{character}b"), hex(ord(character))
        else:
            assert pattern.match(f"a{character}b"), hex(ord(character))
    with pytest.raises(PasskeyNameError, match="at most 64 characters, not 65") as too_long:
        passkey_name("y" * 65)
    assert too_long.value.code == "name_too_long" and isinstance(too_long.value, ValueError)
    with pytest.raises(PasskeyNameError, match=r"U\+000A at 4") as control:
        passkey_name("line\nbreak")
    assert control.value.code == "name_control" and control.value.params == {"position": 4}


def test_a_passkey_is_removed_but_the_last_one_only_when_confirmed(device: Any) -> None:
    phone, laptop, key = two_devices(device)
    options = phone.post("/api/account/passkeys/options").json()
    assert phone.post("/api/account/passkeys", json=key.create(options)).status_code == 201
    first, second = passkeys(phone)
    answer = phone.delete(f"/api/account/credentials/{first['id']}")
    assert answer.status_code == 200, answer.text
    assert [p["id"] for p in answer.json()["passkeys"]] == [second["id"]]
    assert refused(phone.delete(f"/api/account/credentials/{first['id']}")) == (404, "no_passkey")
    last = phone.delete(f"/api/account/credentials/{second['id']}")
    assert refused(last) == (409, "last_passkey")
    assert "confirm=true" in last.json()["detail"]
    assert len(passkeys(phone)) == 1
    gone = phone.delete(f"/api/account/credentials/{second['id']}?confirm=true")
    assert gone.status_code == 200 and gone.json()["passkeys"] == []
    # The browsers signed in stay so; a new passkey can be added; a new device can no longer sign in.
    assert phone.get("/api/account").json()["signed_in"] and laptop.get("/api/account").json()["signed_in"]
    assert refused(sign_in(device(), key)) == (403, "unknown_passkey")
    assert create_passkey(laptop, Authenticator()).status_code == 201
    assert len(passkeys(phone)) == 1


def test_another_accounts_passkey_cannot_be_renamed_or_removed(device: Any) -> None:
    phone, _, _ = two_devices(device)
    stranger = device()
    assert create_passkey(stranger, Authenticator()).status_code == 201
    (theirs,) = passkeys(stranger)
    path = f"/api/account/credentials/{theirs['id']}"
    assert refused(phone.patch(path, json={"name": "mine now"})) == (404, "no_passkey")
    assert refused(phone.delete(f"{path}?confirm=true")) == (404, "no_passkey")
    assert passkeys(stranger) == [theirs]
    anonymous = device()
    assert refused(anonymous.patch(path, json={"name": "x"})) == (409, "not_signed_in")
    assert refused(anonymous.delete(f"{path}?confirm=true")) == (409, "not_signed_in")


def test_the_controls_are_refused_to_other_sites_and_cookieless_requests(device: Any, app: Any) -> None:
    phone, _, _ = two_devices(device)
    (key,) = passkeys(phone)
    other = next(s for s in sessions(phone) if not s["current"])
    changes = [
        ("PATCH", f"/api/account/credentials/{key['id']}", {"name": "x"}),
        ("DELETE", f"/api/account/credentials/{key['id']}?confirm=true", None),
        ("DELETE", f"/api/account/sessions/{other['handle']}", None),
        ("POST", "/api/account/sign-out-everywhere", None),
    ]
    for method, path, body in changes:
        answer = phone.request(method, path, json=body, headers={"sec-fetch-site": "cross-site"})
        assert refused(answer) == (403, "cross_site"), path
    assert len(passkeys(phone)) == 1 and len(sessions(phone)) == 2


def test_the_controls_are_rate_limited(tmp_path: Any) -> None:
    from fastapi.testclient import TestClient

    from foursquare.web import create_app
    from foursquare.web.rate_limits import RateLimits

    limited = create_app(str(tmp_path / "games.db"), rate_limits=RateLimits(passkeys="2/minute"))
    with TestClient(limited) as client:
        client.get("/api/stats")
        codes = [client.post("/api/account/sign-out-everywhere").status_code for _ in range(3)]
    assert codes == [409, 409, 429]


def test_a_session_keeps_the_short_device_name_never_the_header() -> None:
    assert device_of(PHONE) == "Chrome/Android" and device_of(LAPTOP) == "Firefox/Windows"
    edge = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126 Edg/126"
    assert device_of(edge) == "Edge/Windows"
    assert device_of("x" * 100_000) is None
    assert all(len(device_of(agent) or "") <= 40 for agent in (PHONE, LAPTOP, edge, "SamsungBrowser/24 Android"))


# --- the purges ------------------------------------------------------------------------------------------------------


def test_the_purges_forget_idle_sessions_expired_challenges_and_old_rate_counts(
    device: Any, app: Any, clock: Clock
) -> None:
    phone, laptop, _ = two_devices(device)
    store: Store = app.state.store
    laptop.post("/api/account/sign-in/options")  # a challenge never answered
    store.rates.take("LIMITER/passkeys/203.0.113.9/30/1/minute", 30, 60, now=time.time() - 2 * 86_400)
    store.rates.take("LIMITER/passkeys/203.0.113.9/300/1/day", 300, 86_400, now=time.time() - 60)
    assert purge(store, RetentionSettings()) == Purged(0, 0, 0, 0, 0, 1)  # only the count older than a day
    clock.when += timedelta(minutes=6)
    assert purge(store, RetentionSettings()).challenges == 1
    clock.when += SESSION_IDLE - timedelta(hours=1)
    phone.get("/api/account")  # the phone is used; the laptop is not
    clock.when += timedelta(hours=2)
    round_ = purge(store, RetentionSettings())
    assert (round_.sessions, round_.accounts) == (1, 0)
    assert [s["current"] for s in sessions(phone)] == [True]


def test_an_account_nobody_can_sign_in_to_is_purged_with_its_games(device: Any, app: Any) -> None:
    phone, laptop, _ = two_devices(device)
    store: Store = app.state.store
    game = finished_game(phone)
    (only,) = passkeys(phone)
    assert phone.delete(f"/api/account/credentials/{only['id']}?confirm=true").status_code == 200
    assert purge(store, RetentionSettings()).accounts == 0  # two browsers are still signed in
    assert laptop.post("/api/account/sign-out").status_code == 200
    assert purge(store, RetentionSettings()).accounts == 0
    assert phone.get(f"/api/games/{game['id']}").status_code == 200
    assert phone.post("/api/account/sign-out").status_code == 200
    assert purge(store, RetentionSettings()).accounts == 1
    assert phone.get(f"/api/games/{game['id']}").status_code == 404


def test_the_rate_counts_are_kept_for_the_longest_window_of_the_limits() -> None:
    assert longest_window({}) == timedelta(days=1)
    assert longest_window({"FOURSQUARE_RATE_EXPORTS": "5/2 months"}) == timedelta(days=60)


def test_the_purges_use_the_indexes(tmp_path: Any) -> None:
    Store(str(tmp_path / "games.db")).close()
    with sqlite3.connect(tmp_path / "games.db") as conn:
        plans = {
            query: " ".join(row[3] for row in conn.execute(f"EXPLAIN QUERY PLAN {query}", ("x",)))
            for query in (
                "DELETE FROM sessions WHERE last_seen_at <= ?",
                "DELETE FROM challenges WHERE expires_at <= ?",
                "DELETE FROM rate_hits WHERE at < ?",
            )
        }
    assert all("USING" in plan and "INDEX" in plan for plan in plans.values()), plans
