"""The server's connections and small HTTP edges: a deadline for each request, forwarded headers, HEAD, exact
JSON numbers.

The deadline (``foursquare.web.connections``) is checked twice: step by step, on uvicorn's protocol with a
fake transport and a clock the test moves (no waiting); and as an attacker tries it, with hundreds of half-sent
requests to a real ``foursquare serve``, whose own clock closes them (slow). Forwarded headers are sent to a real
server too, with and without ``--trusted-proxies``.
"""

from __future__ import annotations

import asyncio
import resource
import selectors
import socket
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from decimal import Decimal
from pathlib import Path
from typing import Annotated, Any

import httpx
import pytest
import uvicorn
from fastapi import APIRouter, FastAPI
from fastapi.testclient import TestClient
from pydantic import BaseModel, ConfigDict, Field, StrictInt
from uvicorn.server import ServerState

from cli_support import run_main
from foursquare.cli import serve as serve_command
from foursquare.web.app import create_app
from foursquare.web.connections import DEFAULT_REQUEST_TIMEOUT, DeadlineH11Protocol, deadline_protocol
from foursquare.web.errors import install_error_handlers
from foursquare.web.fields import WHOLE, Integer, read_json
from foursquare.web.routing import Route
from test_server_process import serving
from web_support import as_player

GUARD = 120.0
"""Seconds only a hang reaches: the server's deadline is 1 s, but a busy machine may take long to act on it (and
a client of this test's may take longer than 1 s to send its request: it tries again, see
:func:`stats_despite_the_deadline`)."""


# --- the deadline, step by step ----------------------------------------------------------------------------


class FakeTimer:
    """What ``loop.call_later`` returns, for a test to fire by hand."""

    def __init__(self, delay: float, callback: Callable[..., object], args: tuple[Any, ...]) -> None:
        self.delay, self.callback, self.args = delay, callback, args
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True

    def fire(self) -> None:
        assert not self.cancelled
        self.callback(*self.args)


class FakeTransport:
    """A connection's transport: what the server wrote, and whether it closed the connection."""

    def __init__(self) -> None:
        self.written = bytearray()
        self.closed = False

    def write(self, data: bytes) -> None:
        self.written += data

    def close(self) -> None:
        self.closed = True

    def is_closing(self) -> bool:
        return self.closed

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return {"peername": ("127.0.0.1", 50000), "sockname": ("127.0.0.1", 8000)}.get(name, default)

    def pause_reading(self) -> None:
        pass

    def resume_reading(self) -> None:
        pass


async def hello(scope: dict[str, Any], receive: Callable[..., Any], send: Callable[..., Any]) -> None:
    """An ASGI app that reads the whole body and answers ``ok``."""
    if scope["type"] != "http":
        return
    while (await receive()).get("more_body"):
        pass
    await send({"type": "http.response.start", "status": 200, "headers": [(b"content-length", b"2")]})
    await send({"type": "http.response.body", "body": b"ok"})


class Connection:
    """One connection to the protocol, on an event loop whose timers only the test fires."""

    def __init__(self, loop: asyncio.AbstractEventLoop, seconds: float = 7) -> None:
        self.loop = loop
        self.timers: list[FakeTimer] = []
        loop.call_later = self._call_later  # type: ignore[method-assign,assignment]
        protocol = deadline_protocol(seconds)
        config = uvicorn.Config(hello, http=protocol, proxy_headers=False, log_config=None)
        self.protocol: DeadlineH11Protocol = protocol(config, ServerState(), {}, _loop=loop)
        self.transport = FakeTransport()
        self.seconds = seconds
        self.protocol.connection_made(self.transport)  # type: ignore[arg-type]

    def _call_later(self, delay: float, callback: Callable[..., object], *args: Any) -> FakeTimer:
        timer = FakeTimer(delay, callback, args)
        self.timers.append(timer)
        return timer

    def deadlines(self) -> list[FakeTimer]:
        """The request deadlines still to come (not uvicorn's keep-alive timer)."""
        return [t for t in self.timers if not t.cancelled and t.delay == self.seconds]

    def send(self, data: bytes) -> None:
        self.protocol.data_received(data)
        for _ in range(100):  # let the app answer: a few turns of the loop, no waiting
            self.loop.run_until_complete(asyncio.sleep(0))


@pytest.fixture
def loop() -> Iterator[asyncio.AbstractEventLoop]:
    loop = asyncio.new_event_loop()
    yield loop
    loop.close()


REQUEST = b"GET / HTTP/1.1\r\nHost: example.org\r\n\r\n"


def test_a_connection_that_sends_nothing_is_closed_at_its_deadline(loop: asyncio.AbstractEventLoop) -> None:
    connection = Connection(loop)
    [deadline] = connection.deadlines()
    assert not connection.transport.closed
    deadline.fire()
    assert connection.transport.closed and connection.transport.written == b""


def test_half_sent_headers_do_not_put_the_deadline_off(loop: asyncio.AbstractEventLoop) -> None:
    connection = Connection(loop)
    for part in (b"GET / HTTP/1.1\r\n", b"Host: exam", b"ple.org\r\nX-Slow: 1\r\n"):
        connection.send(part)
    [deadline] = connection.deadlines()
    deadline.fire()
    assert connection.transport.closed and connection.transport.written == b""


def test_a_whole_request_stops_the_clock_and_its_answer_starts_the_next(loop: asyncio.AbstractEventLoop) -> None:
    connection = Connection(loop)
    [first] = connection.deadlines()
    connection.send(REQUEST)
    assert first.cancelled and not connection.transport.closed
    assert connection.transport.written.startswith(b"HTTP/1.1 200 OK\r\n")
    assert connection.transport.written.endswith(b"\r\n\r\nok")
    [second] = connection.deadlines()  # the next request has its own time, from the answer
    assert second is not first
    connection.send(REQUEST)  # a second request on the same connection, in time
    assert second.cancelled and not connection.transport.closed
    assert connection.transport.written.count(b"HTTP/1.1 200 OK") == 2
    [third] = connection.deadlines()
    third.fire()  # and nothing more comes
    assert connection.transport.closed


def test_a_body_sent_too_slowly_is_cut_off(loop: asyncio.AbstractEventLoop) -> None:
    connection = Connection(loop)
    connection.send(b"POST / HTTP/1.1\r\nHost: example.org\r\nContent-Length: 10\r\n\r\n12345")
    [deadline] = connection.deadlines()
    deadline.fire()
    assert connection.transport.closed and b"200" not in connection.transport.written


def test_the_clock_stops_when_the_connection_is_lost(loop: asyncio.AbstractEventLoop) -> None:
    connection = Connection(loop)
    [deadline] = connection.deadlines()
    connection.protocol.connection_lost(None)
    assert deadline.cancelled


# --- the deadline, as an attacker tries it ----------------------------------------------------------------


def half_sent(port: int) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=GUARD)
    sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: slow")  # and never the end of the headers
    return sock


def wait_until_closed(socks: list[socket.socket]) -> list[socket.socket]:
    """Wait until the server has closed every one of ``socks`` (or :data:`GUARD` passes); those still open."""
    open_ = set(socks)
    deadline = time.monotonic() + GUARD
    with selectors.DefaultSelector() as selector:
        for sock in socks:
            selector.register(sock, selectors.EVENT_READ)
        while open_ and time.monotonic() < deadline:
            for key, _ in selector.select(timeout=1):
                closed = key.fileobj
                assert isinstance(closed, socket.socket)
                try:
                    data = closed.recv(4096)
                except ConnectionError:
                    data = b""
                assert data == b"", data  # closed, never answered
                selector.unregister(closed)
                open_.discard(closed)
    return list(open_)


CLOSED_BEFORE_ANSWERED = 20
"""Connections of a well-behaved client that the 1 s deadline may close before its request was whole, at most."""


def stats_despite_the_deadline(url: str) -> httpx.Response:
    """``GET /api/stats`` as a new player, again on a new connection whenever the server closed one unanswered.

    The server's deadline is 1 s from the connection's opening (or the previous answer) to the whole request: on
    a busy machine this process may well be kept waiting longer than that between connecting and sending, and the
    server then rightly closes the connection. Trying again is what a client does; counted, never timed."""
    closed: list[httpx.TransportError] = []
    while len(closed) < CLOSED_BEFORE_ANSWERED:
        try:
            with httpx.Client(base_url=url, timeout=GUARD) as http:
                return as_player(http).get("/api/stats")
        except (httpx.RemoteProtocolError, httpx.ReadError, httpx.WriteError) as exc:  # closed, never answered
            closed.append(exc)
    raise AssertionError(f"{len(closed)} connections closed before an answer: {closed}")


@pytest.mark.slow
def test_hundreds_of_half_sent_requests_neither_stop_others_nor_stay_open(tmp_path: Path) -> None:
    soft_limit = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    count = min(300, soft_limit // 4)  # this process and the server each hold one descriptor per connection
    with serving(tmp_path / "games.db", "--request-timeout", "1") as (url, _), ExitStack() as stack:
        port = int(url.rsplit(":", 1)[1])
        socks = [stack.enter_context(half_sent(port)) for _ in range(count)]
        assert stats_despite_the_deadline(url).status_code == 200  # answered meanwhile
        still_open = wait_until_closed(socks)
        assert not still_open, f"{len(still_open)} of {count} half-sent connections were not closed"
        assert stats_despite_the_deadline(url).status_code == 200  # and the server goes on


@pytest.mark.parametrize(
    ("option", "value", "error"),
    [
        ("--request-timeout", "0", "--request-timeout: expected a number of seconds from 1 to 3600, not '0'"),
        ("--request-timeout", "3601", "--request-timeout: expected a number of seconds from 1 to 3600, not '3601'"),
        ("--request-timeout", "soon", "--request-timeout: expected a number of seconds from 1 to 3600, not 'soon'"),
        ("--request-timeout", "nan", "--request-timeout: expected a number of seconds from 1 to 3600, not 'nan'"),
        ("--trusted-proxies", "proxy.local", "--trusted-proxies: 'proxy.local' is not an IP address or network"),
        ("--trusted-proxies", "10.0.0.1/8", "--trusted-proxies: '10.0.0.1/8' is not an IP address or network"),
        ("--trusted-proxies", " , ", "--trusted-proxies: give at least one address, e.g. --trusted-proxies 127.0.0.1"),
    ],
)
def test_a_bad_connection_option_is_a_one_line_usage_error(tmp_path: Path, option: str, value: str, error: str) -> None:
    result = run_main("serve", option, value, "--db", str(tmp_path / "games.db"))
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.splitlines() == [result.stderr.strip()]  # one line, no usage block
    assert result.stderr.startswith(f"foursquare: error: argument {error}")
    assert not (tmp_path / "games.db").exists()


def test_the_options_read_addresses_networks_and_seconds() -> None:
    assert serve_command.proxy_list("127.0.0.1, ::1,10.0.0.0/8,") == ["127.0.0.1", "::1", "10.0.0.0/8"]
    assert serve_command.proxy_list("0:0:0:0:0:0:0:1") == ["::1"]  # as Python writes it, as uvicorn compares it
    assert [serve_command.request_timeout(text) for text in ("1", "2.5", "3600")] == [1.0, 2.5, 3600.0]
    assert serve_command.REQUEST_TIMEOUT == DEFAULT_REQUEST_TIMEOUT  # the command line's default is the server's


# --- forwarded headers, from the proxies named only ----------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("trusted", [False, True])
def test_forwarded_headers_are_believed_from_trusted_proxies_only(tmp_path: Path, trusted: bool) -> None:
    extra = ["--trusted-proxies", "127.0.0.1"] if trusted else []
    forwarded = {"X-Forwarded-Proto": "https", "X-Forwarded-For": "203.0.113.7"}
    with serving(tmp_path / "games.db", *extra) as (url, process):
        answer = httpx.get(f"{url}/api/stats", headers=forwarded, timeout=GUARD)
        assert answer.status_code == 200
        cookie = answer.headers["set-cookie"]
        # https, as the proxy says: the cookie goes over TLS only, and only this host may set it (__Host-).
        assert cookie.startswith("__Host-fs_player=" if trusted else "fs_player=")
        assert ("; secure" in cookie.lower()) is trusted
        assert process.stdout is not None  # uvicorn's access log
        log = wait_for_line(process.stdout.read, '"GET /api/stats HTTP/1.1" 200')
        client = log.split(" - ")[0].split()[-1].rsplit(":", 1)[0]
        assert client == ("203.0.113.7" if trusted else "127.0.0.1"), log


def wait_for_line(read: Callable[[], str], text: str) -> str:
    """The first line of a growing log with ``text`` in it (the access log is written after the answer)."""
    seen = ""
    deadline = time.monotonic() + GUARD
    while True:
        seen += read()
        found = [line for line in seen.splitlines() if text in line]
        if found:
            return found[0]
        assert time.monotonic() < deadline, f"no {text!r} in the log:\n{seen}"
        time.sleep(0.1)


# --- HEAD ----------------------------------------------------------------------------------------------------


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(tmp_path / "games.db")) as client:
        yield as_player(client)


@pytest.mark.parametrize(
    "path",
    ["/", "/stats", "/rules", "/deal/7?adjacency=diagonal", "/sw.js", "/static/manifest.webmanifest",
     "/static/app.js", "/static/style.css", "/docs", "/openapi.json"],
)  # fmt: skip
def test_head_answers_as_get_does_without_the_body(client: TestClient, path: str) -> None:
    get, head = client.get(path), client.head(path)
    assert (get.status_code, head.status_code) == (200, 200)
    assert head.content == b""
    assert head.headers.get("content-encoding") == get.headers.get("content-encoding")  # gzip: the page, its files
    with client.stream("GET", path) as sent:
        length = len(b"".join(sent.iter_raw()))  # as sent, compressed or not
    assert head.headers["content-length"] == get.headers["content-length"] == str(length)
    assert head.headers["content-type"] == get.headers["content-type"]
    assert head.headers["content-security-policy"] == get.headers["content-security-policy"]


def test_head_of_a_game_page(client: TestClient) -> None:
    game = client.post("/api/games", json={"deal": 3}).json()
    head = client.head(f"/game/{game['id']}")
    assert head.status_code == 200 and head.content == b""
    assert head.headers["content-type"].startswith("text/html")


@pytest.mark.parametrize("path", ["/api/stats", "/api/languages", "/api/messages/en", "/api/games"])
def test_head_of_an_api_get(client: TestClient, path: str) -> None:
    get, head = client.get(path), client.head(path)
    assert (get.status_code, head.status_code, head.content) == (200, 200, b"")
    assert head.headers["content-length"] == get.headers["content-length"]


def test_head_of_a_game(client: TestClient) -> None:
    game = client.post("/api/games", json={"deal": 3}).json()
    head = client.head(f"/api/games/{game['id']}")
    assert (head.status_code, head.content) == (200, b"")


def test_head_of_an_address_that_answers_post_only_is_405(client: TestClient) -> None:
    head = client.head("/api/games/x/moves")
    assert head.status_code == 405
    assert "HEAD" not in head.headers["allow"] and "POST" in head.headers["allow"]


def test_every_get_route_of_a_router_with_route_answers_head_and_the_document_lists_get_only() -> None:
    router = APIRouter(prefix="/api", route_class=Route)

    @router.get("/thing/{n}")
    def thing(n: int) -> dict[str, int]:
        return {"n": n}

    @router.post("/thing/{n}")
    def change(n: int) -> dict[str, int]:
        return {"n": -n}

    app = FastAPI()
    app.include_router(router)
    install_error_handlers(app)
    with TestClient(app) as client:
        head = client.head("/api/thing/5")
        assert (head.status_code, head.content, head.headers["content-length"]) == (200, b"", "7")
        assert client.head("/api/thing/x").status_code == 422  # the GET's validation, without its body
        assert client.post("/api/thing/5").json() == {"n": -5}
    assert list(app.openapi()["paths"]["/api/thing/{n}"]) == ["get", "post"]


# --- exact JSON numbers ----------------------------------------------------------------------------------


class Numbers(BaseModel):
    model_config = ConfigDict(extra="forbid")

    deal: Annotated[StrictInt, Field(ge=0, lt=2**64), WHOLE] | None = None
    row: Integer = 0


@pytest.fixture
def numbers() -> Iterator[TestClient]:
    """An app with one route that takes a body like a new game's, with :class:`Route` as the routers use it."""
    router = APIRouter(route_class=Route)

    @router.post("/numbers")
    def echo(body: Numbers) -> dict[str, Any]:
        return {"deal": None if body.deal is None else str(body.deal), "row": body.row}

    app = FastAPI()
    app.include_router(router)
    install_error_handlers(app)
    with TestClient(app) as client:
        yield client


def post(client: TestClient, body: str) -> Any:
    return client.post("/numbers", content=body, headers={"Content-Type": "application/json"})


@pytest.mark.parametrize(
    ("literal", "deal"),
    [("7", "7"), ("7.0", "7"), ("2e3", "2000"), ("2.31268e5", "231268"), ("0.0", "0"), ("-0.0", "0"), ("0e-500", "0"),
     ("12345678901234567891.0", "12345678901234567891"), ("1844674407370955161.5e1", "18446744073709551615")],
)  # fmt: skip
def test_a_whole_number_is_taken_however_written_and_exactly(numbers: TestClient, literal: str, deal: str) -> None:
    answer = post(numbers, f'{{"deal": {literal}}}')
    assert answer.status_code == 200, answer.text
    assert answer.json()["deal"] == deal


@pytest.mark.parametrize(
    "literal", ["1e-400", "5e-324", "0.5", "1.00000000000000000001", "7.000000000000000000001", "-1e-400"]
)
def test_a_fraction_is_refused_however_small(numbers: TestClient, literal: str) -> None:
    answer = post(numbers, f'{{"deal": {literal}}}')
    assert answer.status_code == 422
    assert answer.json() == {"detail": "bad request: deal must be an integer", "code": "bad_request"}


def test_numbers_out_of_range_are_refused_not_rounded(numbers: TestClient) -> None:
    answer = post(numbers, '{"deal": 1e400}')
    assert answer.status_code == 422
    assert answer.json()["detail"] == "bad request: deal must be less than 18446744073709551616"
    for huge in ("1e5000", "1e99999999999999999999", "1" + "0" * 5000):  # more digits than Python reads as an int
        answer = post(numbers, f'{{"row": {huge}}}')
        assert answer.status_code == 422
        assert answer.json()["detail"] == "bad request: the request body is not valid JSON"


def test_read_json_keeps_every_number_exact() -> None:
    assert read_json('{"a": 1, "b": 1.50, "c": [1e-400]}') == {"a": 1, "b": Decimal("1.50"), "c": [Decimal("1e-400")]}
    with pytest.raises(ValueError, match="more than 4300 digits"):
        read_json("1e4300")


@pytest.mark.parametrize(
    ("literal", "status", "deal"),
    [("1e-400", 422, None), ("2e3", 201, 2000), ("12345678901234567891.0", 201, 12345678901234567891)],
)
def test_a_new_games_deal_is_read_exactly(client: TestClient, literal: str, status: int, deal: int | None) -> None:
    body = f'{{"deal": {literal}}}'
    answer = client.post("/api/games", content=body, headers={"Content-Type": "application/json"})
    assert answer.status_code == status, answer.text
    if deal is None:
        assert answer.json() == {"detail": "bad request: deal must be an integer", "code": "bad_request"}
    else:
        assert answer.json()["deal"] == deal
