"""The server's connections: uvicorn's HTTP/1.1 protocol (h11), with a deadline for each request to arrive.

uvicorn closes a keep-alive connection that stays idle ``timeout_keep_alive`` seconds after an answer, but it
gives no deadline to a connection that has not yet sent a whole request: one that sends a request line and half
its headers, or nothing at all, and then waits, is kept open for as long as its client likes, and a few thousand
of them hold the server's file descriptors and slow everyone else down. :func:`deadline_protocol` is the same
protocol with that deadline: a request — its line, its headers and its body — must have arrived within
``seconds`` of the connection opening (or of the answer to the previous request on it), or the connection is
closed. Once a request has arrived the clock stops: the server may take as long as it needs to answer.

When the server is told to stop, uvicorn closes every connection between two requests at once: a request the
client had just sent on it, not yet read, would be lost, and the client cannot tell whether it was played.
Here such a connection is given :data:`DRAIN_GRACE` seconds more instead: a request already on its way is read
and answered, and a connection still idle then is closed. Every answer from then on says ``Connection: close``
(the one being written included, if its headers are not sent yet), so that the client sends its next request on
a new connection — which the server, no longer listening, refuses at once, and a proxy sends elsewhere.

>>> protocol = deadline_protocol(10)
>>> protocol.request_timeout, issubclass(protocol, H11Protocol)
(10.0, True)
"""

from __future__ import annotations

import asyncio

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

DEFAULT_REQUEST_TIMEOUT = 10.0
"""Seconds a client has to send a whole request: far more than any real client needs, even on a slow link."""

KEEP_ALIVE_TIMEOUT = 5
"""Seconds an idle keep-alive connection stays open after an answer (uvicorn's ``timeout_keep_alive``)."""

DRAIN_GRACE = 1.0
"""Seconds an idle connection stays open once the server is told to stop, for a request already sent on it."""

_WAITING = (h11.IDLE, h11.SEND_BODY)
"""The client's h11 states while its request has not arrived whole: before or within the headers, within the body."""


class DeadlineH11Protocol(H11Protocol):
    """uvicorn's h11 protocol, closing a connection whose request is not whole ``request_timeout`` s after it opened.

    Or after the previous answer on it was sent: each request has the same time.
    """

    request_timeout: float = DEFAULT_REQUEST_TIMEOUT
    _deadline: asyncio.TimerHandle | None = None
    _draining = False

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._start_deadline()

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_deadline()
        super().connection_lost(exc)

    def handle_events(self) -> None:
        super().handle_events()
        if self.conn.their_state not in _WAITING:
            self._cancel_deadline()  # the request is here (or the connection is ending): the clock stops
        if self._draining:
            self._close_after_answer()

    def on_response_complete(self) -> None:
        self._start_deadline()  # for the next request; a request already here (pipelined) stops it at once
        super().on_response_complete()

    def shutdown(self) -> None:
        """The server is stopping: a request being answered is answered (then the connection closes); an idle
        connection is closed once it has stayed idle :data:`DRAIN_GRACE` seconds more."""
        self._draining = True
        if self.cycle is None or self.cycle.response_complete:
            self._unset_keepalive_if_required()
            self.timeout_keep_alive_task = self.loop.call_later(DRAIN_GRACE, self._close_if_idle)
        else:
            self._close_after_answer()

    def _close_after_answer(self) -> None:
        """The answer being made says ``Connection: close``, and the connection closes once it is sent."""
        cycle = self.cycle
        if cycle is None or cycle.response_complete or not cycle.keep_alive:
            return
        cycle.keep_alive = False
        if not cycle.response_started:
            cycle.default_headers = [*cycle.default_headers, (b"connection", b"close")]

    def _close_if_idle(self) -> None:
        self.timeout_keep_alive_task = None
        if self.transport.is_closing():
            return
        if self.cycle is not None and not self.cycle.response_complete:
            self.cycle.keep_alive = False  # a request came meanwhile: closed once it is answered
        elif self.conn.their_state is h11.IDLE and not self.conn.trailing_data[0]:
            self.timeout_keep_alive_handler()  # nothing came: closed now
        # else part of a request has come: its deadline closes the connection if the rest does not

    def _start_deadline(self) -> None:
        self._cancel_deadline()
        self._deadline = self.loop.call_later(self.request_timeout, self._on_deadline)

    def _cancel_deadline(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _on_deadline(self) -> None:
        self._deadline = None
        if not self.transport.is_closing() and self.conn.their_state in _WAITING:
            self.transport.close()


def deadline_protocol(seconds: float) -> type[DeadlineH11Protocol]:
    """The protocol class to give uvicorn (``uvicorn.Config(http=...)``), with a deadline of ``seconds``."""

    class Protocol(DeadlineH11Protocol):
        request_timeout = float(seconds)

    return Protocol
