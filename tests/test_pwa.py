"""The service worker's script (``/sw.js``): served from the root, never cached, versioned by the page's files."""

from __future__ import annotations

import json
from pathlib import Path

from fastapi.testclient import TestClient

from foursquare.i18n import LANGUAGES, translator
from foursquare.web.app import create_app
from foursquare.web.assets import current_build
from foursquare.web.routes.page import STATIC_DIR
from foursquare.web.routes.pwa import worker_script
from web_support import as_player


def files_and_version(script: str) -> tuple[list[str], str]:
    files = json.loads(script.split("const FILES = ", 1)[1].split(";\n", 1)[0])
    version = json.loads(script.split("const VERSION = ", 1)[1].split(";\n", 1)[0])
    return files, version


def test_sw_js_is_served_from_the_root_uncached_with_the_page_files(tmp_path: Path) -> None:
    with TestClient(create_app(tmp_path / "games.db")) as client:
        as_player(client)
        answer = client.get("/sw.js")
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/javascript")
    assert answer.headers["cache-control"] == "no-cache"
    files, version = files_and_version(answer.text)
    assert len(version) == 16
    # The page's script and style sheets: the built ones when the page is built (web/assets.py), else the sources.
    build = current_build(STATIC_DIR)
    page = [f"/static/{name}" for name in build.files] if build else ["/static/app.js", "/static/style.css"]
    assert {*page, "/static/manifest.webmanifest"} <= set(files)
    assert "/static/sw.js" not in files
    assert "/static/api-types.d.ts" not in files  # tsc's, never loaded by the page
    assert not [f for f in files if "/api/" in f or not f.startswith("/static/")]
    assert not [f for f in files if f.endswith((".gz", "/manifest.json"))]  # the build's copies, its manifest
    # The fonts are fetched only for a script shown (and kept once fetched): none is precached.
    assert build or "/static/fonts.css" in files
    assert not [f for f in files if f.startswith("/static/fonts/")]


def test_a_changed_static_file_is_a_new_version(tmp_path: Path) -> None:
    (tmp_path / "sw.js").write_text('const VERSION = "__VERSION__";\nconst FILES = __FILES__;\n', encoding="utf-8")
    (tmp_path / "app.js").write_text("one", encoding="utf-8")
    (tmp_path / ".hidden").write_text("ignored", encoding="utf-8")
    files, first = files_and_version(worker_script(tmp_path))
    assert files == ["/static/app.js"]
    assert files_and_version(worker_script(tmp_path))[1] == first
    (tmp_path / "app.js").write_text("two", encoding="utf-8")
    assert files_and_version(worker_script(tmp_path))[1] != first


def test_a_font_changes_the_version_but_is_not_precached(tmp_path: Path) -> None:
    (tmp_path / "sw.js").write_text('const VERSION = "__VERSION__";\nconst FILES = __FILES__;\n', encoding="utf-8")
    (tmp_path / "fonts").mkdir()
    (tmp_path / "fonts" / "a.woff2").write_bytes(b"one")
    files, first = files_and_version(worker_script(tmp_path))
    assert files == []
    (tmp_path / "fonts" / "a.woff2").write_bytes(b"two")
    assert files_and_version(worker_script(tmp_path))[1] != first


def test_the_worker_keeps_the_catalogues_once_fetched_and_no_other_api_answer() -> None:
    source = (Path(__file__).resolve().parent.parent / "src/foursquare/web/static/sw.js").read_text(encoding="utf-8")
    assert 'path === "/api/languages" || path.startsWith("/api/messages/")' in source


def test_the_installed_apps_name_and_description_are_in_every_language(tmp_path: Path) -> None:
    english = translator("en")
    with TestClient(create_app(tmp_path / "games.db")) as client:
        for code in LANGUAGES:
            t = translator(code)
            manifest = client.get("/static/manifest.webmanifest", headers={"Accept-Language": code}).json()
            assert (manifest["lang"], manifest["dir"]) == (code, "ltr")
            assert manifest["name"] == t("app.footer") and manifest["short_name"] == t("app.title")
            assert manifest["description"] == t("app.description")
            if code != "en":  # the name keeps "Foursquare" in Latin letters in some languages, never the rest
                assert manifest["name"] != english("app.footer"), code
                assert manifest["description"] != english("app.description"), code


def test_the_language_chosen_on_the_page_wins_over_the_browsers(tmp_path: Path) -> None:
    with TestClient(create_app(tmp_path / "games.db")) as client:
        chosen = client.get("/static/manifest.webmanifest?lang=bn", headers={"Accept-Language": "en-GB, en"})
        assert chosen.status_code == 200 and chosen.headers["content-type"].startswith("application/manifest+json")
        assert chosen.json()["lang"] == "bn" and chosen.json()["name"] == translator("bn")("app.footer")
        # A regional form chooses its language; a code the game does not speak is as if none were given.
        assert client.get("/static/manifest.webmanifest?lang=hr-HR").json()["lang"] == "hr"
        unknown = client.get("/static/manifest.webmanifest?lang=de", headers={"Accept-Language": "fil"})
        assert unknown.status_code == 200 and unknown.json()["lang"] == "fil"
        junk = client.get("/static/manifest.webmanifest", params={"lang": "../../\u0000" * 50})
        assert junk.status_code == 200 and junk.json()["lang"] == "en"
