"""The web page: ``static/index.html`` at each of its routes, and the files under ``/static``.

``/deal/{number}?adjacency=…&count_buried=…`` is a share link: the page starts a fresh game of that
deal with those house rules for whoever opens it (and says so plainly if the link is malformed).
"""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse

from foursquare.web.errors import PageMissingError

STATIC_DIR = Path(__file__).resolve().parent.parent / "static"
PAGE_ROUTES = ("/", "/stats", "/rules", "/game/{game_id}", "/deal/{deal}")

router = APIRouter(include_in_schema=False)


def page() -> FileResponse:
    index = STATIC_DIR / "index.html"
    if not index.is_file():
        raise PageMissingError("no_page", path="static/index.html")
    return FileResponse(index, headers={"Cache-Control": "no-cache"})


for path in PAGE_ROUTES:
    router.add_api_route(path, page, methods=["GET"])
