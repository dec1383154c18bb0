"""Accounts with passkeys (``/api/account/…``): create one from the anonymous player, sign in on another device,
sign out, delete, export — and every refusal, with real WebAuthn objects made by a software authenticator.

:class:`Authenticator` is a FIDO2 authenticator in software (an ES256 key per credential, ``none`` attestation,
a signature counter), built with ``cryptography`` and ``cbor2`` (what the ``webauthn`` library itself uses); the
server verifies its answers with the ``webauthn`` library exactly as it verifies a browser's. Time is a frozen
clock given to ``create_app``; nothing here sleeps.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import sqlite3
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import cbor2
import pytest
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from fastapi.testclient import TestClient

from db_support import every_value
from foursquare.engine import Variant
from foursquare.store import SCHEMA_VERSION, Store
from foursquare.store import daily as daily_module
from foursquare.store.tokens import stored_player
from foursquare.web import create_app
from foursquare.web.rate_limits import RateLimits
from test_api import WINS, move, new_game, play_out
from web_support import UNHURRIED, as_player

WON_DEAL = 1
DAY = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
TODAY = DAY.date().isoformat()


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Key:
    """One credential of the authenticator: its private key, the account's user handle, its counter."""

    private: ec.EllipticCurvePrivateKey
    user_handle: bytes
    rp_id: str
    sign_count: int = 0


@dataclass
class Authenticator:
    """A passkey authenticator in software: it makes credentials and signs with them, as a browser's does.

    ``origin`` is what its client data names (the browser writes the page's origin there).
    """

    origin: str = "http://testserver"
    keys: dict[bytes, Key] = field(default_factory=dict)

    def create(self, options: dict[str, Any], *, origin: str | None = None) -> dict[str, Any]:
        """The answer of ``navigator.credentials.create(options)``, as ``PublicKeyCredential.toJSON()`` writes it."""
        credential_id = os.urandom(16)
        private = ec.generate_private_key(ec.SECP256R1())
        rp_id = options["rp"]["id"]
        self.keys[credential_id] = Key(private, unb64(options["user"]["id"]), rp_id)
        numbers = private.public_key().public_numbers()
        cose = cbor2.dumps({1: 2, 3: -7, -1: 1, -2: numbers.x.to_bytes(32, "big"), -3: numbers.y.to_bytes(32, "big")})
        flags = 0x01 | 0x04 | 0x40  # user present, user verified, attested credential data
        auth_data = (
            hashlib.sha256(rp_id.encode()).digest() + bytes([flags]) + (0).to_bytes(4, "big")
            + bytes(16) + len(credential_id).to_bytes(2, "big") + credential_id + cose
        )  # fmt: skip
        client_data = self.client_data("webauthn.create", options["challenge"], origin)
        attestation = cbor2.dumps({"fmt": "none", "attStmt": {}, "authData": auth_data})
        return {
            "id": b64(credential_id),
            "rawId": b64(credential_id),
            "type": "public-key",
            "response": {"clientDataJSON": b64(client_data), "attestationObject": b64(attestation),
                         "transports": ["internal"]},
            "authenticatorAttachment": "platform",
        }  # fmt: skip

    def get(self, options: dict[str, Any], *, origin: str | None = None, count: int | None = None) -> dict[str, Any]:
        """The answer of ``navigator.credentials.get(options)``: the first credential of the options' site."""
        credential_id, key = next((cid, key) for cid, key in self.keys.items() if key.rp_id == options["rpId"])
        key.sign_count = key.sign_count + 1 if count is None else count
        auth_data = hashlib.sha256(key.rp_id.encode()).digest() + bytes([0x05]) + key.sign_count.to_bytes(4, "big")
        client_data = self.client_data("webauthn.get", options["challenge"], origin)
        signature = key.private.sign(auth_data + hashlib.sha256(client_data).digest(), ec.ECDSA(hashes.SHA256()))
        return {
            "id": b64(credential_id),
            "rawId": b64(credential_id),
            "type": "public-key",
            "response": {"clientDataJSON": b64(client_data), "authenticatorData": b64(auth_data),
                         "signature": b64(signature), "userHandle": b64(key.user_handle)},
        }  # fmt: skip

    def client_data(self, kind: str, challenge: str, origin: str | None) -> bytes:
        data = {"type": kind, "challenge": challenge, "origin": origin or self.origin, "crossOrigin": False}
        return json.dumps(data).encode()

    def copy(self) -> Authenticator:
        """The same credentials on another device (a synced passkey)."""
        return Authenticator(self.origin, {cid: Key(k.private, k.user_handle, k.rp_id, k.sign_count)
                                           for cid, k in self.keys.items()})  # fmt: skip


def create_passkey(client: TestClient, authenticator: Authenticator) -> Any:
    options = client.post("/api/account/passkeys/options")
    assert options.status_code == 200, options.text
    return client.post("/api/account/passkeys", json=authenticator.create(options.json()))


def sign_in(client: TestClient, authenticator: Authenticator, **given: Any) -> Any:
    options = client.post("/api/account/sign-in/options")
    assert options.status_code == 200, options.text
    return client.post("/api/account/sign-in", json=authenticator.get(options.json(), **given))


def cookie(client: TestClient) -> str:
    return client.cookies.get("fs_player") or client.cookies["__Host-fs_player"]


class Clock:
    def __init__(self) -> None:
        self.when = DAY

    def __call__(self) -> datetime:
        return self.when


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def app(database: str, clock: Clock, monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.setattr(daily_module, "daily_deal_number", lambda key, day: WON_DEAL)
    return create_app(database, clock=clock)  # on each engine in turn


@pytest.fixture
def device(app: Any) -> Any:
    """A new browser (a client with its own cookie jar) on the same server; closed at the end of the test."""
    clients: list[TestClient] = []

    def open_one(base_url: str = "http://testserver", cookie: str | None = None) -> TestClient:
        """A browser of its own (``cookie``: with this player cookie, as one copied from another browser)."""
        client = TestClient(app, base_url=base_url, cookies=None if cookie is None else {"fs_player": cookie})
        client.__enter__()
        clients.append(client)
        return client if cookie is not None else as_player(client)

    yield open_one
    for client in clients:
        client.__exit__(None, None, None)


def finished_game(client: TestClient, deal: int = 1) -> dict[str, Any]:
    state = new_game(client, deal=deal)
    for row, col in WINS[deal][1]:
        state = move(client, state, row, col)
    assert state["outcome"] == "won"
    return state


def daily_game(client: TestClient) -> dict[str, Any]:
    response = client.post("/api/games", json={"daily": True})
    assert response.status_code in (200, 201), response.text
    return play_out(client, response.json())


# --- the whole story ---------------------------------------------------------------------------------------------


def test_a_new_browser_is_signed_in_to_nothing(device: Any) -> None:
    answer = device().get("/api/account")
    assert answer.status_code == 200
    assert answer.json() == {"signed_in": False, "created_at": None, "passkeys": []}


def test_a_passkey_made_from_the_anonymous_player_keeps_its_games_and_statistics(device: Any) -> None:
    phone = device()
    won = finished_game(phone)
    live = new_game(phone, deal=2)
    before = (phone.get("/api/stats").json(), phone.get("/api/games").json())
    old_cookie = cookie(phone)
    created = create_passkey(phone, Authenticator())
    assert created.status_code == 201, created.text
    assert created.json()["signed_in"] and created.json()["created_at"].startswith(TODAY)
    assert created.json()["passkeys"][0]["transports"] == ["internal"]
    assert cookie(phone) != old_cookie  # a new cookie names the session
    assert (phone.get("/api/stats").json(), phone.get("/api/games").json()) == before
    assert phone.get(f"/api/games/{live['id']}").json()["yours"]
    assert move(phone, phone.get(f"/api/games/{live['id']}").json(), 0, 0)["turn"] == 1
    # The old cookie, wherever it was seen, is a stranger with nothing.
    stranger = device(cookie=old_cookie)
    assert stranger.get("/api/stats").json()["played"] == 0
    assert not stranger.get(f"/api/games/{won['id']}").json()["yours"]


def test_signing_in_on_another_device_shows_the_account_there_and_brings_that_browsers_games(device: Any) -> None:
    phone, laptop = device(), device()
    finished_game(phone)
    key = Authenticator()
    assert create_passkey(phone, key).status_code == 201
    laptop_game = finished_game(laptop, deal=1)
    signed = sign_in(laptop, key.copy())
    assert signed.status_code == 200, signed.text
    assert signed.json()["signed_in"] and signed.json()["passkeys"][0]["last_used_at"] is not None
    for client in (phone, laptop):
        stats = client.get("/api/stats").json()
        assert (stats["played"], stats["won"]) == (2, 2)
        assert client.get("/api/games").json()["total"] == 2
        assert client.get(f"/api/games/{laptop_game['id']}").json()["yours"]


def test_the_daily_counts_once_per_person_however_many_devices(device: Any, clock: Clock) -> None:
    phone, laptop, other = device(), device(), device()
    first = daily_game(phone)  # the first daily game of the date: the one that counts
    key = Authenticator()
    assert create_passkey(phone, key).status_code == 201
    second = daily_game(laptop)  # played anonymously on the laptop, later
    daily_game(other)
    assert phone.get(f"/api/daily/{TODAY}/results").json()["players"] == 3
    assert sign_in(laptop, key.copy()).status_code == 200
    results = laptop.get(f"/api/daily/{TODAY}/results").json()
    assert results["players"] == 2  # the account's first daily game, and the other player's
    for client in (phone, laptop):
        stats = client.get("/api/stats").json()
        assert stats["played"] == 2 and stats["daily"]["played"] == 1  # two games, one daily
        again = client.post("/api/games", json={"daily": True})
        assert (again.status_code, again.json()["id"]) == (200, first["id"])  # today's daily is the first one
    assert laptop.get(f"/api/games/{second['id']}").json()["yours"]  # the repeat is still the person's game


def test_an_earlier_daily_brought_by_signing_in_becomes_the_one_that_counts(device: Any) -> None:
    laptop, phone = device(), device()
    earlier = daily_game(laptop)
    later = daily_game(phone)
    key = Authenticator()
    assert create_passkey(phone, key).status_code == 201
    assert sign_in(laptop, key.copy()).status_code == 200
    assert phone.post("/api/games", json={"daily": True}).json()["id"] == earlier["id"]
    assert phone.get(f"/api/daily/{TODAY}/results").json()["players"] == 1
    assert later["id"] != earlier["id"]


def test_a_daily_only_opened_before_signing_in_does_not_replace_the_one_played(device: Any) -> None:
    phone, laptop = device(), device()
    opened = phone.post("/api/games", json={"daily": True}).json()  # the daily's page looked at, no card placed
    key = Authenticator()
    assert create_passkey(laptop, key).status_code == 201
    played = daily_game(laptop)
    assert sign_in(phone, key.copy()).status_code == 200
    again = phone.post("/api/games", json={"daily": True})
    assert (again.status_code, again.json()["id"]) == (200, played["id"])  # the game played is the daily
    assert phone.get(f"/api/daily/{TODAY}/results").json()["players"] == 1
    stats = phone.get("/api/stats").json()
    assert (stats["daily"]["played"], stats["daily"]["won"]) == (1, int(played["outcome"] == "won"))
    assert phone.get(f"/api/games/{opened['id']}").json()["yours"]  # still the person's, a repeat


def test_signing_out_makes_a_fresh_anonymous_player_and_the_account_stays(device: Any) -> None:
    phone = device()
    game = finished_game(phone)
    key = Authenticator()
    create_passkey(phone, key)
    signed_cookie = cookie(phone)
    out = phone.post("/api/account/sign-out")
    assert out.status_code == 200 and out.json() == {"signed_in": False, "created_at": None, "passkeys": []}
    assert cookie(phone) != signed_cookie
    assert phone.get("/api/stats").json()["played"] == 0 and phone.get("/api/games").json()["total"] == 0
    assert not phone.get(f"/api/games/{game['id']}").json()["yours"]
    again = phone.post("/api/account/sign-out")
    assert (again.status_code, again.json()["code"]) == (409, "not_signed_in")
    # The session is gone for good: the old cookie is no account's any more.
    stale = device(cookie=signed_cookie)
    assert not stale.get("/api/account").json()["signed_in"]
    assert sign_in(phone, key).status_code == 200
    assert phone.get("/api/stats").json()["played"] == 1


def test_deleting_the_account_deletes_everything_on_every_device(device: Any) -> None:
    phone, laptop = device(), device()
    game = finished_game(phone)
    key = Authenticator()
    create_passkey(phone, key)
    sign_in(laptop, key.copy())
    refused = phone.post("/api/account/delete", json={})
    assert (refused.status_code, refused.json()["code"]) == (422, "bad_request")
    for loose in (1, "true", "yes"):  # only the JSON literal true confirms
        assert phone.post("/api/account/delete", json={"confirm": loose}).status_code == 422, loose
    refused = phone.post("/api/account/delete", json={"confirm": False})
    assert (refused.status_code, refused.json()["code"]) == (422, "bad_request")
    deleted = phone.post("/api/account/delete", json={"confirm": True})
    assert deleted.status_code == 200, deleted.text
    assert deleted.json() == {
        "deleted": {"games": 1, "passkeys": 1, "sessions": 2},
        "account": {"signed_in": False, "created_at": None, "passkeys": []},
    }
    assert phone.get(f"/api/games/{game['id']}").json()["code"] == "unknown_game"
    for client in (phone, laptop):
        assert not client.get("/api/account").json()["signed_in"]
        assert client.get("/api/stats").json()["played"] == 0
    gone = sign_in(phone, key)
    assert (gone.status_code, gone.json()["code"]) == (403, "unknown_passkey")
    again = phone.post("/api/account/delete", json={"confirm": True})
    assert (again.status_code, again.json()["code"]) == (409, "not_signed_in")


def test_the_export_has_the_records_of_finished_games_and_the_states_of_live_ones(device: Any, clock: Clock) -> None:
    phone = device()
    won = finished_game(phone)
    daily = daily_game(phone)
    live = move(phone, new_game(phone), 0, 0)
    answer = phone.get("/api/account/export")
    assert answer.status_code == 200
    assert answer.headers["content-disposition"] == 'attachment; filename="foursquare-games.json"'
    export = answer.json()
    assert (export["format"], export["version"], export["account"]["signed_in"]) == ("foursquare-export", 1, False)
    games = {game["id"]: game for game in export["games"]}
    assert [game["id"] for game in export["games"]] == [won["id"], daily["id"], live["id"]]  # oldest first
    assert games[won["id"]]["record"] == phone.get(f"/api/games/{won['id']}/record").json()
    assert games[won["id"]]["state"] is None
    # Today's daily, over but secret until the day ends, and the live game: their states, which hold no stock.
    for game_id in (daily["id"], live["id"]):
        assert games[game_id]["record"] is None and games[game_id]["state"]["id"] == game_id
    assert games[daily["id"]]["state"]["deal"] is None
    assert '"stock":' not in json.dumps(export)
    create_passkey(phone, Authenticator())
    clock.when += timedelta(days=1)
    export = phone.get("/api/account/export").json()
    assert export["account"]["signed_in"] and len(export["games"]) == 3
    assert export["games"][1]["record"]["deal"] == WON_DEAL  # the day is over: the daily's record is open


def test_a_second_passkey_joins_the_account(device: Any) -> None:
    phone = device()
    create_passkey(phone, Authenticator())
    signed = cookie(phone)
    options = phone.post("/api/account/passkeys/options").json()
    assert len(options["excludeCredentials"]) == 1
    second = Authenticator()
    added = phone.post("/api/account/passkeys", json=second.create(options))
    assert added.status_code == 201 and len(added.json()["passkeys"]) == 2
    assert cookie(phone) == signed  # already signed in: the session goes on
    laptop = device()
    assert sign_in(laptop, second).status_code == 200


@pytest.mark.parametrize("transports", [[], ["carrier-pigeon"]])
def test_a_passkey_whose_browser_named_no_known_transport_does_not_break_the_next_options(
    device: Any, transports: list[str]
) -> None:
    phone = device()
    options = phone.post("/api/account/passkeys/options").json()
    answer = Authenticator().create(options)
    answer["response"]["transports"] = transports  # getTransports() may say nothing (a security key, a browser)
    assert phone.post("/api/account/passkeys", json=answer).status_code == 201
    again = phone.post("/api/account/passkeys/options")
    assert again.status_code == 200, again.text
    assert [d["transports"] for d in again.json()["excludeCredentials"]] == [[]]


# --- the options -------------------------------------------------------------------------------------------------


def test_the_options_name_this_site_and_ask_for_a_discoverable_passkey(device: Any) -> None:
    phone = device()
    options = phone.post("/api/account/passkeys/options").json()
    assert options["rp"] == {"name": "Foursquare", "id": "testserver"}
    assert options["authenticatorSelection"]["residentKey"] == "required"
    assert options["attestation"] == "none" and options["excludeCredentials"] == []
    assert len(unb64(options["challenge"])) == 32 and len(unb64(options["user"]["id"])) == 32
    sign = phone.post("/api/account/sign-in/options").json()
    assert (sign["rpId"], sign["allowCredentials"]) == ("testserver", [])
    assert sign["challenge"] != options["challenge"]


def test_the_origin_follows_the_scheme_and_port_the_page_was_served_at(device: Any) -> None:
    secure = device("https://games.example.org")
    key = Authenticator(origin="https://games.example.org")
    assert create_passkey(secure, key).status_code == 201
    assert "__Host-fs_player" in secure.cookies
    ported = device("http://localhost:8123")
    assert create_passkey(ported, Authenticator(origin="http://localhost:8123")).status_code == 201
    wrong = device("http://localhost:8123")
    answer = create_passkey(wrong, Authenticator(origin="http://localhost:8124"))
    assert (answer.status_code, answer.json()["code"]) == (403, "passkey_refused")


@pytest.mark.parametrize("host", ["http://127.0.0.1:8000", "http://[::1]:8000"])
def test_an_ip_address_cannot_have_passkeys(device: Any, host: str) -> None:
    client = device(host)
    for path in ("/api/account/passkeys/options", "/api/account/sign-in/options"):
        answer = client.post(path)
        assert (answer.status_code, answer.json()["code"]) == (409, "passkey_host"), path
        assert "localhost" in answer.json()["detail"]


# --- refusals ----------------------------------------------------------------------------------------------------


def test_a_challenge_is_used_once(device: Any) -> None:
    phone = device()
    key = Authenticator()
    options = phone.post("/api/account/passkeys/options").json()
    answer = key.create(options)
    assert phone.post("/api/account/passkeys", json=answer).status_code == 201
    replayed = phone.post("/api/account/passkeys", json=answer)
    assert (replayed.status_code, replayed.json()["code"]) == (409, "stale_challenge")
    laptop = device()
    options = laptop.post("/api/account/sign-in/options").json()
    assertion = key.get(options)
    assert laptop.post("/api/account/sign-in", json=assertion).status_code == 200
    replayed = laptop.post("/api/account/sign-in", json=assertion)
    assert (replayed.status_code, replayed.json()["code"]) == (409, "stale_challenge")


def test_a_challenge_expires_and_belongs_to_the_browser_it_was_given_to(device: Any, clock: Clock) -> None:
    phone, thief = device(), device()
    key = Authenticator()
    options = phone.post("/api/account/passkeys/options").json()
    stolen = thief.post("/api/account/passkeys", json=key.create(options))
    assert (stolen.status_code, stolen.json()["code"]) == (409, "stale_challenge")
    options = phone.post("/api/account/passkeys/options").json()
    clock.when += timedelta(minutes=5, seconds=1)
    late = phone.post("/api/account/passkeys", json=key.create(options))
    assert (late.status_code, late.json()["code"]) == (409, "stale_challenge")
    sign_options = phone.post("/api/account/sign-in/options").json()  # a sign-in challenge is no registration's
    wrong = phone.post("/api/account/passkeys", json=key.create({**options, "challenge": sign_options["challenge"]}))
    assert (wrong.status_code, wrong.json()["code"]) == (409, "stale_challenge")


def test_the_challenges_of_a_browser_are_bounded(device: Any, app: Any) -> None:
    phone = device()
    for _ in range(20):
        assert phone.post("/api/account/sign-in/options").status_code == 200
    with app.state.store.database.connect() as conn:
        assert conn.execute("SELECT count(*) FROM challenges").fetchone()[0] == 5


def test_an_unknown_passkey_is_refused(device: Any) -> None:
    phone = device()
    stranger = Authenticator()
    stranger.create(phone.post("/api/account/passkeys/options").json())  # made, never stored
    options = phone.post("/api/account/sign-in/options").json()
    stranger.keys[next(iter(stranger.keys))].rp_id = options["rpId"]
    answer = phone.post("/api/account/sign-in", json=stranger.get(options))
    assert (answer.status_code, answer.json()["code"]) == (403, "unknown_passkey")


def test_a_counter_going_backwards_is_refused(device: Any) -> None:
    phone, laptop = device(), device()
    key = Authenticator()
    create_passkey(phone, key)
    assert sign_in(laptop, key, count=5).status_code == 200
    cloned = sign_in(laptop, key, count=3)
    assert (cloned.status_code, cloned.json()["code"]) == (403, "passkey_refused")
    assert "sign count" in cloned.json()["detail"]


def test_a_signature_that_does_not_verify_is_refused(device: Any) -> None:
    phone, laptop = device(), device()
    key = Authenticator()
    create_passkey(phone, key)
    options = laptop.post("/api/account/sign-in/options").json()
    assertion = key.get(options)
    assertion["response"]["signature"] = b64(b"\x30\x06\x02\x01\x01\x02\x01\x01")
    answer = laptop.post("/api/account/sign-in", json=assertion)
    assert (answer.status_code, answer.json()["code"]) == (403, "passkey_refused")
    options = laptop.post("/api/account/sign-in/options").json()
    assertion = key.get(options)
    assertion["response"]["userHandle"] = b64(b"someone else")
    answer = laptop.post("/api/account/sign-in", json=assertion)
    assert (answer.status_code, answer.json()["code"]) == (403, "passkey_refused")


@pytest.mark.parametrize(
    "spoil",
    [
        lambda a: a["response"].update(attestationObject=b64(b"not cbor at all")),
        lambda a: a["response"].update(attestationObject=b64(cbor2.dumps({"fmt": "none"}))),
        lambda a: a["response"].update(attestationObject=b64(cbor2.dumps({"fmt": "packed", "attStmt": {},
                                                                           "authData": b"short"}))),
        lambda a: a.update(id=b64(b"another id")),
        lambda a: a["response"].update(clientDataJSON=b64(b"[1, 2]")),
        lambda a: a["response"].update(clientDataJSON=b64(b"\xff\xfe")),
        lambda a: a["response"].update(clientDataJSON="AAA"),
    ],
)  # fmt: skip
def test_a_malformed_attestation_is_refused_never_a_500(device: Any, spoil: Any) -> None:
    phone = device()
    answer = Authenticator().create(phone.post("/api/account/passkeys/options").json())
    spoil(answer)
    refused = phone.post("/api/account/passkeys", json=answer)
    assert refused.status_code in (403, 409), refused.text
    assert refused.json()["code"] in ("passkey_refused", "stale_challenge")


@pytest.mark.parametrize(
    "body",
    [{}, {"id": "a b", "rawId": "ab", "type": "public-key", "response": {}}, [], "text",
     {"id": "ab", "rawId": "ab", "type": "password", "response": {"clientDataJSON": "", "attestationObject": ""}}],
)  # fmt: skip
def test_a_body_of_the_wrong_shape_is_a_bad_request(device: Any, body: Any) -> None:
    phone = device()
    for path in ("/api/account/passkeys", "/api/account/sign-in"):
        answer = phone.post(path, json=body)
        assert (answer.status_code, answer.json()["code"]) == (422, "bad_request"), (path, answer.text)


def test_the_same_passkey_twice_is_refused(device: Any) -> None:
    phone = device()
    key = Authenticator()
    options = phone.post("/api/account/passkeys/options").json()
    answer = key.create(options)
    assert phone.post("/api/account/passkeys", json=answer).status_code == 201
    options = phone.post("/api/account/passkeys/options").json()
    again = dict(answer)
    client_data = json.loads(unb64(answer["response"]["clientDataJSON"]))
    client_data["challenge"] = options["challenge"]
    again["response"] = {**answer["response"], "clientDataJSON": b64(json.dumps(client_data).encode())}
    taken = phone.post("/api/account/passkeys", json=again)
    assert (taken.status_code, taken.json()["code"]) == (409, "passkey_taken")


def test_another_sites_requests_and_cookieless_ones_are_refused(device: Any, app: Any) -> None:
    phone = device()
    paths = ("/api/account/passkeys/options", "/api/account/passkeys", "/api/account/sign-in/options",
             "/api/account/sign-in", "/api/account/sign-out", "/api/account/delete")  # fmt: skip
    for path in paths:
        answer = phone.post(path, json={}, headers={"Sec-Fetch-Site": "cross-site"})
        assert (answer.status_code, answer.json()["code"]) == (403, "cross_site"), path
        answer = phone.post(path, json={}, headers={"Origin": "https://evil.example"})
        assert (answer.status_code, answer.json()["code"]) == (403, "cross_site"), path
    with TestClient(app) as bare:
        for path in paths:
            answer = bare.post(path, json={})
            assert (answer.status_code, answer.json()["code"]) == (403, "no_player"), path
            assert "set-cookie" not in answer.headers


def test_an_accounts_own_player_id_is_no_cookie(device: Any, app: Any) -> None:
    phone = device()
    create_passkey(phone, Authenticator())
    with app.state.store.database.connect() as conn:
        (player,) = conn.execute("SELECT player FROM accounts").fetchone()
    intruder = device(cookie=player)
    for answer in (intruder.get("/api/stats"), intruder.post("/api/games", json={"deal": 1})):
        assert (answer.status_code, answer.json()["code"]) == (403, "no_player")


def test_the_passkey_routes_are_rate_limited(tmp_path: Path) -> None:
    app = create_app(tmp_path / "games.db", rate_limits=RateLimits(passkeys="3/minute", moves=UNHURRIED))
    with TestClient(app) as client:
        as_player(client)
        answers = [client.post("/api/account/sign-in/options") for _ in range(4)]
        assert [a.status_code for a in answers] == [200, 200, 200, 429]
        assert answers[-1].json()["code"] == "rate_limited" and int(answers[-1].headers["retry-after"]) > 0
        assert client.post("/api/account/sign-out").json()["code"] == "not_signed_in"  # not counted


def test_the_export_is_rate_limited(tmp_path: Path) -> None:
    # Each export rebuilds every game of the player (some 0.7 s of a core for a thousand games): not in a loop.
    app = create_app(tmp_path / "games.db", rate_limits=RateLimits(exports="2/minute", moves=UNHURRIED))
    with TestClient(app) as client:
        as_player(client)
        answers = [client.get("/api/account/export") for _ in range(3)]
        assert [a.status_code for a in answers] == [200, 200, 429]
        assert answers[-1].json()["code"] == "rate_limited" and int(answers[-1].headers["retry-after"]) > 0


def test_the_limit_is_read_from_the_environment() -> None:
    assert RateLimits.from_environment({"FOURSQUARE_RATE_PASSKEYS": "5/hour"}).passkeys == "5/hour"
    assert RateLimits.from_environment({}).passkeys == "30/minute;300/day"
    assert RateLimits.from_environment({"FOURSQUARE_RATE_EXPORTS": "1/hour"}).exports == "1/hour"


# --- the store ---------------------------------------------------------------------------------------------------


def test_a_schema_4_database_gains_the_accounts_and_keeps_its_games(tmp_path: Path) -> None:
    db_path = tmp_path / "games.db"
    store = Store(db_path)
    game = store.daily.game("alice-0000000000000000", Variant())[0]
    store.close()
    with sqlite3.connect(db_path) as conn:
        for table in ("accounts", "credentials", "sessions", "challenges"):
            conn.execute(f"DROP TABLE {table}")
        conn.execute("PRAGMA user_version = 4")
    store = Store(db_path)
    with sqlite3.connect(db_path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 8
        tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert {"accounts", "credentials", "sessions", "challenges"} <= tables
    assert store.games.get(game.id) == replace(game, player=stored_player("alice-0000000000000000"))
    store.close()


def test_the_store_keeps_no_cookie_only_its_hash(device: Any, app: Any) -> None:
    phone = device()
    create_passkey(phone, Authenticator())
    dump = every_value(app.state.store)
    assert cookie(phone) not in dump
    assert hashlib.sha256(cookie(phone).encode()).hexdigest() in dump
