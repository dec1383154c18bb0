"""The page as served (web/assets.py, tools/build_page.mjs): compressed, built, content-hashed, cached for good.

The page and the static files are compressed, the API's games never (BREACH: a game's answer carries what the
request asked next to what the server keeps); a built file carries its content's hash in its name and the immutable
cache header; a build older than the sources is not served (the sources are); the build itself is checked with
esbuild when Node and the pinned packages are there.
"""

from __future__ import annotations

import gzip
import json
import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from starlette.applications import Starlette
from starlette.routing import Mount

from foursquare.web.app import create_app
from foursquare.web.assets import IMMUTABLE, StaticAssets, current_build, find_build, source_digest
from foursquare.web.routes.page import STATIC_DIR
from foursquare.web.routes.pwa import served_files
from web_support import as_player

ROOT = Path(__file__).resolve().parent.parent
BUILD = ROOT / "tools" / "build_page.mjs"
GZIP = {"Accept-Encoding": "gzip"}
IDENTITY = {"Accept-Encoding": "identity"}


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(tmp_path / "games.db")) as client:
        yield as_player(client)


def raw(client: TestClient, path: str, headers: dict[str, str]) -> tuple[int, dict[str, str], bytes]:
    """The status, headers and body as sent (not decompressed)."""
    with client.stream("GET", path, headers=headers) as answer:
        return answer.status_code, dict(answer.headers), b"".join(answer.iter_raw())


@pytest.mark.parametrize("path", ["/", "/stats", "/deal/7", "/sw.js", "/api/messages/en", "/static/app.js",
                                  "/static/style.css", "/static/engine.js"])  # fmt: skip
def test_the_page_and_its_files_are_compressed(client: TestClient, path: str) -> None:
    status, headers, body = raw(client, path, GZIP)
    assert status == 200
    assert headers["content-encoding"] == "gzip"
    assert "accept-encoding" in headers["vary"].lower()
    assert int(headers["content-length"]) == len(body)
    plain = gzip.decompress(body)
    status, headers, body = raw(client, path, IDENTITY)
    assert status == 200 and "content-encoding" not in headers
    assert body == plain


def test_the_page_keeps_its_headers_compressed(client: TestClient) -> None:
    answer = client.get("/", headers={**GZIP, "Accept-Language": "bn"})
    assert answer.headers["cache-control"] == "no-cache"
    assert "accept-language" in answer.headers["vary"].lower()
    assert answer.headers["content-type"] == "text/html; charset=utf-8"
    assert "script-src 'self'" in answer.headers["content-security-policy"]
    assert '<html lang="bn"' in answer.text


def test_the_games_answers_are_never_compressed(client: TestClient) -> None:
    # A game's answer carries the request's own text beside what the server keeps: never compressed (BREACH).
    created = client.post("/api/games", json={"deal": 1}, headers=GZIP)
    assert created.status_code in (200, 201) and "content-encoding" not in created.headers
    game = created.json()
    moved = client.post(f"/api/games/{game['id']}/moves", json={"row": 0, "col": 0, "turn": 0}, headers=GZIP)
    assert moved.status_code == 200 and "content-encoding" not in moved.headers
    for path in (f"/api/games/{game['id']}", "/api/stats", "/api/account"):
        answer = client.get(path, headers=GZIP)
        assert "content-encoding" not in answer.headers, path


def test_fonts_and_images_are_sent_as_they_are(client: TestClient) -> None:
    for path in ("/static/icons/icon-512.png", "/static/fonts/NotoSansBengali-Regular.woff2"):
        answer = client.get(path, headers=GZIP)
        assert answer.status_code == 200 and "content-encoding" not in answer.headers, path


def fake_build(static: Path, sources: str | None = None) -> None:
    """A build in ``static/dist`` as tools/build_page.mjs writes one (of ``sources``, else of static/ now)."""
    (static / "app.js").write_text("export const a = 1;\n", encoding="utf-8")
    (static / "index.html").write_text('<script type="module" src="/static/app.js"></script>', encoding="utf-8")
    (static / "sw.js").write_text('const VERSION = "__VERSION__";\nconst FILES = __FILES__;\n', encoding="utf-8")
    (static / "favicon.svg").write_text("<svg/>", encoding="utf-8")
    dist = static / "dist"
    dist.mkdir()
    (dist / "app-0123456789ab.js").write_text("const a=1;export{a};", encoding="utf-8")
    (dist / "app-0123456789ab.js.gz").write_bytes(gzip.compress(b"const a=1;export{a};"))
    (dist / "index.html").write_text('<script type="module" src="/static/dist/app-0123456789ab.js"></script>')
    manifest = {
        "sources": sources or source_digest(static),
        "files": {"app.js": "dist/app-0123456789ab.js"},
        "replaces": ["app.js"],
    }
    (dist / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")


def test_a_current_build_replaces_its_sources_in_the_service_workers_list(tmp_path: Path) -> None:
    fake_build(tmp_path)
    build = find_build(tmp_path)
    assert build is not None and build.files == ("dist/app-0123456789ab.js",)
    served = [path.relative_to(tmp_path).as_posix() for path in served_files(tmp_path)]
    assert served == ["dist/app-0123456789ab.js", "favicon.svg", "index.html"]


def test_type_declarations_are_no_source_of_the_page_and_are_not_precached(tmp_path: Path) -> None:
    fake_build(tmp_path)
    (tmp_path / "api-types.d.ts").write_text("export interface components {}\n", encoding="utf-8")
    assert find_build(tmp_path) is not None  # tsc's generated types leave the build current
    served = [path.relative_to(tmp_path).as_posix() for path in served_files(tmp_path)]
    assert served == ["dist/app-0123456789ab.js", "favicon.svg", "index.html"]


def test_a_build_of_other_sources_is_not_served(tmp_path: Path) -> None:
    fake_build(tmp_path, sources="0" * 64)
    assert find_build(tmp_path) is None
    served = [path.relative_to(tmp_path).as_posix() for path in served_files(tmp_path)]
    assert served == ["app.js", "favicon.svg", "index.html"]


def test_a_built_file_is_immutable_and_sent_precompressed(tmp_path: Path) -> None:
    fake_build(tmp_path)
    app = Starlette(routes=[Mount("/static", StaticAssets(tmp_path))])
    with TestClient(app) as client:
        status, headers, body = raw(client, "/static/dist/app-0123456789ab.js", GZIP)
        assert status == 200
        assert headers["cache-control"] == IMMUTABLE
        assert headers["content-encoding"] == "gzip"
        assert headers["content-type"] == "text/javascript; charset=utf-8"
        assert gzip.decompress(body) == b"const a=1;export{a};"
        again = client.get("/static/dist/app-0123456789ab.js", headers={**GZIP, "If-None-Match": headers["etag"]})
        assert again.status_code == 304 and again.headers["cache-control"] == IMMUTABLE
        status, headers, body = raw(client, "/static/dist/app-0123456789ab.js", IDENTITY)
        assert (status, body, headers["cache-control"]) == (200, b"const a=1;export{a};", IMMUTABLE)
        assert "content-encoding" not in headers
        # A source file, or a missing one, is revalidated as before: never cached for good.
        assert "immutable" not in client.get("/static/app.js").headers.get("cache-control", "")
        missing = client.get("/static/dist/app-ba9876543210.js")
        assert missing.status_code == 404 and "immutable" not in missing.headers.get("cache-control", "")


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The page built by tools/build_page.mjs into a folder of its own (not the one served)."""
    if shutil.which("node") is None or not (ROOT / "node_modules" / "esbuild").is_dir():
        pytest.skip("esbuild is not installed: run `npm ci` at the repository root (needs Node.js)")
    out = tmp_path_factory.mktemp("build") / "dist"
    subprocess.run(["node", str(BUILD), "--out", str(out)], cwd=ROOT, check=True, capture_output=True)
    return out


def test_the_build_bundles_the_page_minified_under_hashed_names(built: Path) -> None:
    manifest = json.loads((built / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["sources"] == source_digest(STATIC_DIR)  # the same digest in Node and in Python
    assert set(manifest["files"]) == {"app.js", "theme-init.js", "page.css"}
    for name in manifest["files"].values():
        text = (built.parent / name).read_text(encoding="utf-8")
        digest = re.fullmatch(r"dist/[a-z-]+-([0-9a-f]{12})\.(js|css)", name)
        assert digest, name
        assert gzip.decompress((built.parent / (name + ".gz")).read_bytes()).decode() == text
    app = (built.parent / manifest["files"]["app.js"]).read_text(encoding="utf-8")
    sources = sum(len((STATIC_DIR / name).read_bytes()) for name in manifest["replaces"] if name.endswith(".js"))
    assert len(app) < sources * 0.6  # minified: no comments, short names
    assert "@ts-check" not in app and "\nimport " not in app  # one bundle, nothing left to fetch
    assert {"app.js", "engine.js", "policy.js", "style.css", "theme-init.js"} <= set(manifest["replaces"])
    html = (built / "index.html").read_text(encoding="utf-8")
    for name in manifest["files"].values():
        assert f'"/static/{name}"' in html
    assert "/static/app.js" not in html and "/static/style.css" not in html


def test_the_served_build_is_current_when_there_is_one(client: TestClient) -> None:
    build = current_build(STATIC_DIR)
    if build is None:
        pytest.skip("the page is not built (make page): the server serves its sources")
    page = client.get("/").text
    for name in build.files:
        assert f"/static/{name}" in page
        status, headers, _ = raw(client, f"/static/{name}", GZIP)
        assert (status, headers["cache-control"], headers["content-encoding"]) == (200, IMMUTABLE, "gzip")
    script = client.get("/sw.js").text
    files = json.loads(script.split("const FILES = ", 1)[1].split(";\n", 1)[0])
    assert {f"/static/{name}" for name in build.files} <= set(files)
    assert "/static/app.js" not in files and "/static/engine.js" not in files
