"""A limit on request bodies: no request of the API needs more than a few hundred bytes."""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from foursquare.web.errors import error_response


class BodyLimit:
    """Refuse a request body over ``limit`` bytes with 413 ``too_large``, never reading more than that.

    A declared ``Content-Length`` over the limit is answered at once; a body sent without one is read up to
    the limit first (the API's bodies are small) and handed on whole.
    """

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        too_large = error_response(413, "too_large", f"the request body is over {self.limit} bytes")
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None:
            if not declared.isdigit() or int(declared) > self.limit:
                await too_large(scope, receive, send)
                return
            await self.app(scope, receive, send)
            return
        messages: list[Message] = []
        size = 0
        while True:
            message = await receive()
            messages.append(message)
            size += len(message.get("body", b""))
            if size > self.limit:
                await too_large(scope, receive, send)
                return
            if message["type"] != "http.request" or not message.get("more_body", False):
                break

        async def replay() -> Message:
            return messages.pop(0) if messages else await receive()

        await self.app(scope, replay, send)
