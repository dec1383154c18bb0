"""The service worker's script (``/sw.js``): served from the root, never cached, versioned by the page's files."""

from __future__ import annotations

import json
from pathlib import Path

from fastapi.testclient import TestClient

from foursquare.web.app import create_app
from foursquare.web.routes.pwa import worker_script


def files_and_version(script: str) -> tuple[list[str], str]:
    files = json.loads(script.split("const FILES = ", 1)[1].split(";\n", 1)[0])
    version = json.loads(script.split("const VERSION = ", 1)[1].split(";\n", 1)[0])
    return files, version


def test_sw_js_is_served_from_the_root_uncached_with_the_page_files(tmp_path: Path) -> None:
    with TestClient(create_app(tmp_path / "games.db")) as client:
        answer = client.get("/sw.js")
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/javascript")
    assert answer.headers["cache-control"] == "no-cache"
    files, version = files_and_version(answer.text)
    assert len(version) == 16
    assert {"/static/app.js", "/static/style.css", "/static/manifest.webmanifest"} <= set(files)
    assert "/static/sw.js" not in files
    assert not [f for f in files if "/api/" in f or not f.startswith("/static/")]


def test_a_changed_static_file_is_a_new_version(tmp_path: Path) -> None:
    (tmp_path / "sw.js").write_text('const VERSION = "__VERSION__";\nconst FILES = __FILES__;\n', encoding="utf-8")
    (tmp_path / "app.js").write_text("one", encoding="utf-8")
    (tmp_path / ".hidden").write_text("ignored", encoding="utf-8")
    files, first = files_and_version(worker_script(tmp_path))
    assert files == ["/static/app.js"]
    assert files_and_version(worker_script(tmp_path))[1] == first
    (tmp_path / "app.js").write_text("two", encoding="utf-8")
    assert files_and_version(worker_script(tmp_path))[1] != first
