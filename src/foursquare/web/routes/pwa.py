"""What makes the page installable: its service worker at ``/sw.js``.

A service worker controls only the paths under its own URL, so it is served from the root (the page lives
at ``/``, ``/game/…``, ``/stats``, ``/rules``), not from ``/static/``. The server writes into it the list of
the page's files and a digest of them: a new release is then a new script, which the browser installs with a
new cache, dropping the old one. The web-app manifest is ``static/manifest.webmanifest``, served at its
static address with its name, short name and description from the catalogue (``app.footer``, ``app.title``,
``app.description``) in the language of ``?lang=CODE`` — the language the player chose in the page's menu,
which the page writes into its ``<link rel="manifest">`` — else of the request's ``Accept-Language``: an
installed app then bears its name in the language the page speaks, not the browser's.

The web fonts (``static/fonts/``: Bengali and Kannada) are not in the list: a browser downloads a font only
when its script is shown, and the service worker keeps a copy of what was fetched, as it does of the
language's catalogue (``/api/messages/{code}``) — so the page works offline in the language in use, and
nobody downloads every font and catalogue up front.

When the page is served built (:mod:`foursquare.web.assets`), the list holds the built files instead of the
sources they replace (and never the build's gzip copies, its manifest or its index, which the page's route serves),
so the worker keeps exactly what the page loads. The script is sent gzipped to a browser that takes it.
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from pathlib import Path

from fastapi import APIRouter, Request
from fastapi.responses import Response

from foursquare.i18n import language, translator
from foursquare.web.assets import DIST, current_build, encode
from foursquare.web.errors import PageMissingError
from foursquare.web.messages import request_language
from foursquare.web.routes.page import STATIC_DIR
from foursquare.web.routing import Route

router = APIRouter(include_in_schema=False, route_class=Route)

WORKER = "sw.js"
MANIFEST = "manifest.webmanifest"
NOT_PRECACHED = ("fonts/",)
"""Folders of ``static/`` cached only once fetched (fonts, loaded only for the scripts shown)."""
TYPES_ONLY = ".d.ts"
"""Type declarations, which tsc reads and the page never loads (``api-types.d.ts``, the API's generated types)."""


def served_files(static_dir: Path) -> list[Path]:
    """The files of ``static_dir`` that the page may load: the build's instead of those it replaces when it is
    current (:func:`~foursquare.web.assets.current_build`), else the sources, never the build nor type declarations."""
    build = current_build(static_dir)
    built = {static_dir / name for name in build.files} if build else set()

    def served(path: Path) -> bool:
        relative = path.relative_to(static_dir)
        if relative.parts[0].startswith(DIST):  # dist/, or a build being written (dist.tmp-PID)
            return path in built
        return not (build and len(relative.parts) == 1 and path.name in build.replaces)

    return sorted(
        path
        for path in static_dir.rglob("*")
        if path.is_file()
        and path.name != WORKER
        and not path.name.startswith(".")
        and not path.name.endswith(TYPES_ONLY)
        and served(path)
    )


def worker_script(static_dir: Path = STATIC_DIR) -> str:
    """``sw.js`` of ``static_dir`` with its version (a digest of every file served) and the files to keep."""
    source = static_dir / WORKER
    if not source.is_file():
        raise PageMissingError("no_page", path=f"static/{WORKER}")
    files = served_files(static_dir)
    build = current_build(static_dir)
    digest = hashlib.sha256()
    if build:  # the page itself is the build's index.html
        digest.update(build.index.read_bytes())
    for path in files:
        digest.update(path.relative_to(static_dir).as_posix().encode())
        digest.update(path.read_bytes())
    names = [path.relative_to(static_dir).as_posix() for path in files]
    urls = [f"/static/{name}" for name in names if not name.startswith(NOT_PRECACHED)]
    text = source.read_text(encoding="utf-8")
    return text.replace('"__VERSION__"', json.dumps(digest.hexdigest()[:16])).replace("__FILES__", json.dumps(urls))


# The page's files do not change while the server runs: a release is a restart.
installed_worker_script = cache(worker_script)


@cache
def _worker_bytes() -> bytes:
    return installed_worker_script().encode()


@router.get("/sw.js")
def service_worker(request: Request) -> Response:
    # no-cache: the browser asks again on each visit, so it learns of a new release at once.
    body, encoding = encode(_worker_bytes(), request.headers)
    return Response(
        body,
        media_type="text/javascript",
        headers={"Cache-Control": "no-cache", "Service-Worker-Allowed": "/", **encoding},
    )


def manifest_json(code: str, static_dir: Path = STATIC_DIR) -> str:
    """The web-app manifest in the language ``code``: its names and description from the catalogue.

    >>> manifest = json.loads(manifest_json("bn"))
    >>> manifest["short_name"], manifest["lang"], manifest["dir"]
    ('ফোরস্কয়ার', 'bn', 'ltr')
    """
    source = static_dir / MANIFEST
    if not source.is_file():
        raise PageMissingError("no_page", path=f"static/{MANIFEST}")
    manifest = json.loads(source.read_text(encoding="utf-8"))
    t = translator(code)
    manifest.update(
        name=t("app.footer"), short_name=t("app.title"), description=t("app.description"),
        lang=t.language.code, dir=t.language.direction,
    )
    return json.dumps(manifest, ensure_ascii=False, indent=2)


@router.get(f"/static/{MANIFEST}")
def web_app_manifest(request: Request, lang: str = "") -> Response:
    chosen = language(lang) if lang else None  # a code the game does not speak: as if none were given
    code = (chosen or request_language(request.headers.get("accept-language"))).code
    return Response(
        manifest_json(code),
        media_type="application/manifest+json",
        headers={"Cache-Control": "no-cache", "Vary": "Accept-Language"},
    )
