"""The route class of every router: FastAPI's ``APIRoute``, with the two things HTTP expects of it that it lacks.

- ``HEAD``: a route that answers ``GET`` answers ``HEAD`` too, with the same status and headers and no body, as
  HTTP requires and as Starlette's own routes do (FastAPI's answer ``405`` while ``Allow`` lists ``HEAD``). The
  OpenAPI document still lists the ``GET`` alone.
- Exact numbers in JSON bodies: a number written with a fraction or an exponent is read as the
  :class:`~decimal.Decimal` it is (:func:`foursquare.web.fields.read_json`), not as the nearest float, so
  ``1e-400`` is no ``0`` and ``12345678901234567891.0`` no ``12345678901234567168``.

A router uses it with ``APIRouter(route_class=Route)``:

>>> from fastapi import FastAPI, APIRouter
>>> from fastapi.testclient import TestClient
>>> router = APIRouter(route_class=Route)
>>> @router.get("/hello")
... def hello() -> dict[str, str]:
...     return {"hello": "world"}
>>> app = FastAPI()
>>> app.include_router(router)
>>> answer = TestClient(app).head("/hello")
>>> answer.status_code, answer.headers["content-length"], answer.content
(200, '17', b'')
>>> list(app.openapi()["paths"]["/hello"])
['get']
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any

from fastapi import Request, Response
from fastapi.routing import APIRoute
from starlette.routing import Match
from starlette.types import Message, Receive, Scope, Send

from foursquare.web.fields import read_json


class ExactJsonRequest(Request):
    """A request whose JSON body keeps its numbers exact (:func:`~foursquare.web.fields.read_json`)."""

    async def json(self) -> Any:
        if not hasattr(self, "_json"):
            self._json = read_json(await self.body())
        return self._json


class Route(APIRoute):
    """``APIRoute`` that answers ``HEAD`` wherever it answers ``GET``, and reads JSON numbers exactly."""

    def matches(self, scope: Scope) -> tuple[Match, Scope]:
        match, child_scope = super().matches(scope)
        if match is Match.PARTIAL and self._head_as_get(scope):
            match = Match.FULL
        return match, child_scope

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self._head_as_get(scope):
            # The route answers the GET it was made for; the server sends no body for a HEAD, and neither does this.
            await super().handle({**scope, "method": "GET"}, receive, _without_body(send))
        else:
            await super().handle(scope, receive, send)

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def exact(request: Request) -> Response:
            return await handler(ExactJsonRequest(request.scope, request.receive))

        return exact

    def _head_as_get(self, scope: Scope) -> bool:
        return scope["type"] == "http" and scope["method"] == "HEAD" and "GET" in (self.methods or ())


def _without_body(send: Send) -> Send:
    async def send_headers(message: Message) -> None:
        if message["type"] == "http.response.body":
            message = {**message, "body": b""}
        await send(message)

    return send_headers
