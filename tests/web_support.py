"""Clients of the web app as a browser is one: with the ``fs_player`` cookie before they change anything.

The server sets the cookie only on a same-origin GET of an ``/api/`` path and refuses a POST without it
(403 ``no_player``, see ``foursquare.web.player``); the page makes such a GET first, and so do these clients.
"""

from __future__ import annotations

from typing import TypeVar

import httpx
from starlette.testclient import TestClient

UNHURRIED = "1000000/minute"
"""A rate of changes no test's loop of moves reaches: a test that sets some limits of its own plays its moves as
fast as the machine allows, past the default rate of changes (``moves``: 10 a second)."""

Client = TypeVar("Client", httpx.Client, TestClient)


def as_player(client: Client) -> Client:
    """``client`` (a TestClient or an httpx.Client) with a new player's cookie, got as the page gets it."""
    response = client.get("/api/stats")
    assert response.status_code == 200, response.text
    assert {"fs_player", "__Host-fs_player"} & set(client.cookies), response.headers
    return client
