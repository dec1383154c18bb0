"""The probes of a proxy, a supervisor or an orchestrator: ``GET /healthz`` and ``GET /readyz``.

Plain text, one word, never stored (:mod:`foursquare.web.health` says what each checks). Outside ``/api/``: no
cookie, no rate limit; answered whatever the ``Host`` (:data:`PROBES`); out of the OpenAPI document, which is the
game's API for its clients, not the operators' probes (a fuzzer of that document should not spend its examples on
them either).
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import PlainTextResponse

from foursquare.web.health import Health
from foursquare.web.routing import Route

router = APIRouter(include_in_schema=False, route_class=Route)

NO_STORE = {"Cache-Control": "no-store"}

PROBES = ("/healthz", "/readyz")
"""The probes' paths: answered whatever the ``Host`` (``--allowed-hosts`` does not apply: a health check asks by
the server's address)."""


@router.get("/healthz")
async def healthz() -> PlainTextResponse:
    """The process is up: 200 at once, nothing read."""
    return PlainTextResponse("ok\n", headers=NO_STORE)


@router.get("/readyz")
async def readyz(request: Request) -> PlainTextResponse:
    """The server can serve: 200 ``ready``, or 503 and the reason's word (``draining``, ``pool``, ``warming``,
    ``database``, ``schema``)."""
    health: Health = request.app.state.health
    reason = await health.not_ready()
    if reason is None:
        return PlainTextResponse("ready\n", headers=NO_STORE)
    return PlainTextResponse(f"{reason}\n", status_code=503, headers=NO_STORE)
