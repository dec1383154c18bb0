"""The page's types of the JSON API (static/api-types.d.ts) are the server's: generated from its own /openapi.json by
the pinned openapi-typescript (tools/api_types.py, ``make api-types``), current, and what tsc checks the page against,
so that a model changed on one side only fails the build."""

from __future__ import annotations

import importlib.util
import json
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
TOOL = ROOT / "tools" / "api_types.py"
STATIC = ROOT / "src" / "foursquare" / "web" / "static"
TSC = ROOT / "node_modules" / ".bin" / "tsc"
GENERATOR = ROOT / "node_modules" / ".bin" / "openapi-typescript"


@pytest.fixture(scope="module")
def api_types() -> ModuleType:
    if not GENERATOR.exists() or shutil.which("node") is None:
        pytest.skip("openapi-typescript is not installed: run `npm ci` at the repository root (needs Node.js)")
    spec = importlib.util.spec_from_file_location("api_types", TOOL)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_committed_types_are_those_of_the_servers_openapi_document(api_types: ModuleType) -> None:
    check = subprocess.run(
        [sys.executable, str(TOOL), "--check"], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert check.returncode == 0, check.stdout + check.stderr


def test_the_page_names_every_schema_it_reads_from_the_generated_file() -> None:
    source = (STATIC / "api.js").read_text(encoding="utf-8")
    assert '@typedef {import("./api-types").components["schemas"]} Schemas' in source
    assert "@property" not in source, "a type of the API written by hand: name the schema of api-types.d.ts instead"


def renamed(document: dict[str, Any], schema: str, field: str, name: str) -> dict[str, Any]:
    """``document`` with a field of one of its schemas renamed, as a change of the model would rename it."""
    changed: dict[str, Any] = json.loads(json.dumps(document))
    model = changed["components"]["schemas"][schema]
    model["properties"] = {name if key == field else key: value for key, value in model["properties"].items()}
    model["required"] = [name if key == field else key for key in model["required"]]
    return changed


@pytest.mark.slow
def test_a_field_renamed_on_the_server_fails_the_pages_type_check(api_types: ModuleType, tmp_path: Path) -> None:
    if not TSC.exists():
        pytest.skip("TypeScript is not installed: run `npm ci` at the repository root (needs Node.js)")
    document = renamed(api_types.openapi_document(), "GameState", "can_undo", "undo_allowed")
    page = tmp_path / "static"
    shutil.copytree(STATIC, page, ignore=shutil.ignore_patterns("dist", "fonts", "icons"))
    (page / "api-types.d.ts").write_text(api_types.typescript(document), encoding="utf-8")
    config = {"extends": str(ROOT / "tsconfig.json"), "include": ["static/**/*.js"], "exclude": ["static/sw.js"]}
    (tmp_path / "tsconfig.json").write_text(json.dumps(config), encoding="utf-8")
    checked = subprocess.run(
        [str(TSC), "--noEmit", "--pretty", "false", "-p", str(tmp_path / "tsconfig.json")],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert checked.returncode != 0
    unknown = {line.split("(")[0] for line in checked.stdout.splitlines() if "Property 'can_undo' does not" in line}
    assert {"static/connection.js", "static/game.js", "static/view.js"} <= unknown, checked.stdout
