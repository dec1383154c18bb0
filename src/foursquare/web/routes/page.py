"""The web page: ``static/index.html`` at each of its routes, and the files under ``/static``.

``/deal/{number}?adjacency=…&count_buried=…`` is a share link: the page starts a fresh game of that
deal with those house rules for whoever opens it (and says so plainly if the link is malformed).

The page is served in the language the request's ``Accept-Language`` negotiates (English when it names none
of the game's): ``<html lang>``, the document's title and ``<meta name="foursquare-language">`` are filled
in, so that the page's script loads that catalogue first and the first paint is already in the language.
The meta tag is empty when the header names none of the game's languages: the page then tries
``navigator.languages`` before English.
A language the player chose in the page's menu (remembered in the browser) still wins over this one.

The page is the built one (``static/dist/index.html``, pointing at the minified bundles) when a current build is
present, else ``static/index.html`` and the source modules (:mod:`foursquare.web.assets`); it is sent gzipped to a
browser that takes it (it holds no secret and no text of the request's but a language code of the game's own).
"""

from __future__ import annotations

from functools import cache
from html import escape
from pathlib import Path

from fastapi import APIRouter, Request
from fastapi.responses import Response

from foursquare.i18n import ENGLISH, negotiate, parse_accept_language, translator
from foursquare.web.assets import current_build, encode
from foursquare.web.errors import PageMissingError
from foursquare.web.routing import Route

STATIC_DIR = Path(__file__).resolve().parent.parent / "static"
PAGE_ROUTES = ("/", "/stats", "/rules", "/daily", "/learn", "/game/{game_id}", "/deal/{deal}")
LANGUAGE_META = "foursquare-language"

router = APIRouter(include_in_schema=False, route_class=Route)


@cache
def _index(path: Path, mtime_ns: int) -> str:  # the file's modification time: an edited file is read again
    return path.read_text(encoding="utf-8")


@cache
def page_bytes(source: str, code: str) -> bytes:
    return page_html(source, code).encode()


@cache
def page_html(source: str, code: str) -> str:
    """``index.html`` with the language ``code`` (or ``""``: none negotiated) filled in: lang, dir, title, meta."""
    t = translator(code or ENGLISH.code)
    lang = t.language
    html = source.replace('<html lang="en"', f'<html lang="{lang.code}" dir="{lang.direction}"', 1)
    html = html.replace("<title>Foursquare</title>", f"<title>{escape(t('app.title'))}</title>", 1)
    meta = f'<meta name="{LANGUAGE_META}" content="{code}">'
    return html.replace("<meta charset=\"utf-8\">", f'<meta charset="utf-8">\n  {meta}', 1)


def index_path() -> Path:
    """The page's ``index.html``: the build's while it is current (``make page``), else the source's."""
    build = current_build(STATIC_DIR)
    return build.index if build else STATIC_DIR / "index.html"


def page(request: Request) -> Response:
    index = index_path()
    if not index.is_file():
        raise PageMissingError("no_page", path="static/index.html")
    negotiated = negotiate(parse_accept_language(request.headers.get("accept-language", "")))
    code = negotiated.code if negotiated else ""
    body, encoding = encode(page_bytes(_index(index, index.stat().st_mtime_ns), code), request.headers)
    headers = {"Cache-Control": "no-cache", **encoding, "Vary": "Accept-Language, Accept-Encoding"}
    return Response(body, media_type="text/html; charset=utf-8", headers=headers)


for path in PAGE_ROUTES:
    router.add_api_route(path, page, methods=["GET"])
