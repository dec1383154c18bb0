"""What lets the server face the internet: security headers on every answer, and the allowed host names.

Both are plain ASGI middleware that :func:`foursquare.web.app.create_app` puts outside everything else,
so that every answer carries the headers — a page, a static file, an API answer, a 404, a 413, a 500.

>>> content_security_policy()["script-src"]
"'self'"
>>> host_name(b"[::1]:8000"), host_name(b"Example.org:80"), host_name(b"localhost")
('::1', 'example.org', 'localhost')
"""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Iterable

from starlette.datastructures import MutableHeaders
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from foursquare.web.messages import request_translator, say_in

CSP = {
    "default-src": "'self'",
    "script-src": "'self'",  # no inline script, no eval: an injected <script> or onclick never runs
    "style-src": "'self'",  # the page styles through style.css and the CSSOM, never style="" or <style>
    "img-src": "'self' data:",
    "connect-src": "'self'",
    "font-src": "'self'",
    "manifest-src": "'self'",
    "worker-src": "'self'",
    "object-src": "'none'",
    "base-uri": "'none'",
    "form-action": "'self'",
    "frame-ancestors": "'none'",  # no other site may frame the game (clickjacking)
}
"""The Content-Security-Policy of every answer, directive by directive."""

HEADERS = {
    "X-Content-Type-Options": "nosniff",
    # A page URL holds a game id, which is the key to the game: never send it to another site.
    "Referrer-Policy": "same-origin",
    "X-Frame-Options": "DENY",  # frame-ancestors for browsers that predate it
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=(), accelerometer=(), "
    "gyroscope=(), magnetometer=(), display-capture=()",
}
"""The other security headers of every answer (HSTS belongs to the TLS proxy in front, if any)."""

LOOPBACK_HOSTS = ("localhost", "127.0.0.1", "::1")
"""The host names a server bound to a loopback address answers by default."""


def content_security_policy(**extra: str) -> dict[str, str]:
    """:data:`CSP`, with sources added to some directives (``style_src="'sha256-…'"``)."""
    policy = dict(CSP)
    for name, sources in extra.items():
        directive = name.replace("_", "-")
        policy[directive] = f"{policy.get(directive, '')} {sources}".strip()
    return policy


def csp_header(policy: dict[str, str]) -> str:
    return "; ".join(f"{name} {sources}" for name, sources in policy.items())


def sha256_source(text: str) -> str:
    """The CSP source that allows exactly this inline ``<script>`` or ``<style>`` text."""
    digest = base64.b64encode(hashlib.sha256(text.encode()).digest()).decode()
    return f"'sha256-{digest}'"


class SecurityHeaders:
    """Add :data:`HEADERS` and the CSP to every HTTP answer; an answer that sets its own CSP keeps it."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.csp = csp_header(CSP)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                headers.setdefault("Content-Security-Policy", self.csp)
                for name, value in HEADERS.items():
                    headers[name] = value
            await send(message)

        await self.app(scope, receive, send_with_headers)


def host_name(header: bytes) -> str:
    """The host name of a ``Host`` header, without its port, lower case (IPv6 without brackets)."""
    text = header.decode("latin-1").strip().lower()
    if text.startswith("["):
        return text[1:].partition("]")[0]
    return text.rpartition(":")[0] if text.count(":") == 1 else text


def host_allowed(host: str, allowed: Iterable[str]) -> bool:
    """``host`` is one of ``allowed``: a name, ``*.example.org`` (any sub-domain) or ``*`` (any host)."""
    for pattern in allowed:
        pattern = pattern.lower()
        if pattern in ("*", host) or (pattern.startswith("*.") and host.endswith(pattern[1:])):
            return True
    return False


class AllowedHosts:
    """Refuse a request whose ``Host`` header is not allowed with 400 ``bad_host`` (DNS rebinding, host spoofing).

    Like Starlette's ``TrustedHostMiddleware``, with the API's error body. The paths of ``exempt`` are answered
    whatever the host: the probes (``/healthz``, ``/readyz``), which a proxy's health check or an orchestrator asks
    by the server's address (Caddy sends ``Host: 127.0.0.1:8000``), and which read nothing and change nothing that
    another site could use.
    """

    def __init__(self, app: ASGIApp, allowed: Iterable[str], exempt: Iterable[str] = ()) -> None:
        self.app = app
        self.allowed = tuple(allowed)
        self.exempt = frozenset(exempt)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"] in self.exempt:
            await self.app(scope, receive, send)
            return
        header = dict(scope["headers"]).get(b"host", b"")
        if not host_allowed(host_name(header), self.allowed):
            headers = dict(scope["headers"])
            t = request_translator(headers.get(b"accept-language", b"").decode("latin-1"))
            detail = say_in(t, "bad_host", host=repr(header.decode("latin-1")[:100]))
            refusal = JSONResponse({"detail": detail, "code": "bad_host"}, status_code=400)  # errors.py's shape
            await refusal(scope, receive, send)
            return
        await self.app(scope, receive, send)
