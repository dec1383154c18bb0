"""The page's types of the JSON API (static/api-types.d.ts) are the server's: generated from its own /openapi.json by
the pinned openapi-typescript (tools/api_types.py, ``make api-types``), and current."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent
TOOL = ROOT / "tools" / "api_types.py"
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
