"""The page's files as they are served: the built bundles when present and current, compressed, cached for good.

``tools/build_page.mjs`` (``make page``; ``make serve`` and ``make test`` run it) writes ``static/dist/``: the page's
modules bundled and minified (``app-<hash>.js``), its style sheets in one (``page-<hash>.css``), the theme's
first-paint script (``theme-init-<hash>.js``), each with a gzip copy (``.gz``), an ``index.html`` that points at
them, and ``manifest.json``: the digest of the sources they were built from and the source files they replace.
The built files are not committed (a bundle goes stale with every commit of a module, and its diff says nothing);
``make`` builds them, and a wheel built after ``make page`` ships them. Without them (a pip install from a
checkout with no Node), or when they are older than the sources (a module edited since: the digest differs), the
server serves the source modules as they are — unminified, compressed on the fly, and the same page.

Compression (gzip) is for the page's own public files only: ``/static/…``, the page (:mod:`.routes.page`), the
service worker and the catalogues. An answer of the API that could carry a secret next to text an attacker chose
(BREACH) is never compressed, and the moves' path is not touched at all: nothing is added in front of the API.
A built file's name changes with its content, so it is sent with ``Cache-Control: public, max-age=31536000,
immutable``; every other file is revalidated (its ETag) as before.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import logging
import mimetypes
import re
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path

from starlette.datastructures import Headers, MutableHeaders
from starlette.middleware.gzip import GZipMiddleware
from starlette.staticfiles import StaticFiles
from starlette.types import Message, Receive, Scope, Send

log = logging.getLogger(__name__)

DIST = "dist"
IMMUTABLE = "public, max-age=31536000, immutable"
HASHED = re.compile(r"/dist/[A-Za-z0-9_.-]+-[0-9a-f]{12}\.(?:js|css)$")
"""The path of a built file whose name carries its content's hash."""
SOURCE_SUFFIXES = (".js", ".css", ".html")
# Level 6 (zlib's default) for what is compressed per request: within a percent or two of 9, at a third of the CPU.
LEVEL = 6


@dataclass(frozen=True)
class Build:
    """A current build of the page: its ``index.html``, and the names (relative to ``static/``) of its files."""

    index: Path
    files: tuple[str, ...]
    replaces: frozenset[str]


def source_digest(static_dir: Path) -> str:
    """The digest of the page's sources as ``tools/build_page.mjs`` computes it: every ``.js``, ``.css`` and
    ``.html`` file of ``static_dir`` (not its folders), by name."""
    digest = hashlib.sha256()
    for path in sorted(p for p in static_dir.iterdir() if p.is_file() and p.suffix in SOURCE_SUFFIXES):
        digest.update(path.name.encode() + b"\0")
        digest.update(path.read_bytes())
        digest.update(b"\0")
    return digest.hexdigest()


def find_build(static_dir: Path) -> Build | None:
    """The build in ``static_dir/dist`` if it was built from the sources there now; else None (serve the sources)."""
    dist = static_dir / DIST
    try:
        manifest = json.loads((dist / "manifest.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if manifest.get("sources") != source_digest(static_dir):
        log.warning("static/dist/ was built from other sources than static/ holds: serving the sources (make page)")
        return None
    files = tuple(sorted(str(name) for name in manifest["files"].values()))
    if not (dist / "index.html").is_file() or not all((static_dir / name).is_file() for name in files):
        return None
    return Build(index=dist / "index.html", files=files, replaces=frozenset(manifest["replaces"]))


# The page's files do not change while the server runs: a release is a restart (as for the service worker).
current_build = cache(find_build)


def accepts_gzip(headers: Headers) -> bool:
    return "gzip" in headers.get("accept-encoding", "")


@lru_cache(maxsize=64)
def gzipped(data: bytes) -> bytes:
    """``data`` compressed (kept: the page, the service worker and the catalogues are a few constant answers)."""
    return gzip.compress(data, compresslevel=9, mtime=0)


def encode(data: bytes, headers: Headers) -> tuple[bytes, dict[str, str]]:
    """The body to send for ``data`` (one of a few constant public answers) and the headers it needs."""
    if len(data) >= 500 and accepts_gzip(headers):
        return gzipped(data), {"Content-Encoding": "gzip", "Vary": "Accept-Encoding"}
    return data, {"Vary": "Accept-Encoding"}


def headers_only(send: Send) -> Send:
    """``send`` for a HEAD answered as a GET: the GET's headers (its compressed length), no body."""

    async def send_headers(message: Message) -> None:
        if message["type"] != "http.response.body":
            await send(message)
        elif not message.get("more_body", False):
            await send({"type": "http.response.body", "body": b""})

    return send_headers


class StaticAssets:
    """``/static``: Starlette's ``StaticFiles``, a built file's gzip copy sent as it is, the rest gzipped per request
    (not fonts nor images: Starlette's ``GZipMiddleware`` leaves them), built files cached as immutable."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.files = StaticFiles(directory=directory, check_dir=False)
        self.compressed = GZipMiddleware(self.files, minimum_size=500, compresslevel=LEVEL)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope["path"]
        if scope["type"] != "http" or not HASHED.search(path):
            if scope["type"] == "http" and scope["method"] == "HEAD":
                await self.compressed(dict(scope, method="GET"), receive, headers_only(send))
            else:
                await self.compressed(scope, receive, send)
            return
        name = path.rsplit("/", 1)[1]
        precompressed = accepts_gzip(Headers(scope=scope)) and (self.directory / DIST / (name + ".gz")).is_file()
        media_type = mimetypes.guess_type(name)[0] or "application/octet-stream"
        if media_type == "application/javascript":
            media_type = "text/javascript"
        content_type = media_type + ("; charset=utf-8" if media_type.startswith("text/") else "")

        async def send_immutable(message: Message) -> None:
            if message["type"] == "http.response.start" and message["status"] in (200, 304):
                headers = MutableHeaders(scope=message)
                headers["Cache-Control"] = IMMUTABLE
                headers["Vary"] = "Accept-Encoding"
                if precompressed:
                    headers["Content-Encoding"] = "gzip"
                    if message["status"] == 200:
                        headers["Content-Type"] = content_type
            await send(message)

        if not precompressed:
            await self.files(scope, receive, send_immutable)
            return
        inner = dict(scope, path=path + ".gz")
        if "raw_path" in scope and scope["raw_path"] is not None:
            inner["raw_path"] = scope["raw_path"] + b".gz"
        await self.files(inner, receive, send_immutable)
