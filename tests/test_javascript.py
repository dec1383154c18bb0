"""The page's JavaScript is type-checked: each module opts in, and TypeScript's checker passes on all of them."""

from __future__ import annotations

import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
STATIC = ROOT / "src" / "foursquare" / "web" / "static"
TSC = ROOT / "node_modules" / ".bin" / "tsc"
CONFIGS = ("tsconfig.json", "tsconfig.sw.json")  # the page, and the service worker (another global scope)

# The kinds of element dom.js's `$` returns by id, and the tag index.html must give each (None: any tag).
KINDS = {"ButtonId": "button", "InputId": "input", "DialogId": "dialog", "FormId": "form", "ElementId": None}


class _Ids(HTMLParser):
    """The tag of every element of a page that has an id."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: dict[str, str] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        element_id = dict(attrs).get("id")
        if element_id:
            self.tags[element_id] = tag


def _typed_ids() -> dict[str, list[str]]:
    """The ids of each kind that dom.js declares (its `@typedef {"a" | "b"} ButtonId` and the others)."""
    source = (STATIC / "dom.js").read_text(encoding="utf-8")
    found: dict[str, list[str]] = {}
    for union, kind in re.findall(r"@typedef \{([^{}]*)\} (\w+Id)\b", source):
        found[kind] = re.findall(r'"([^"]+)"', union)
    return found


def test_every_script_is_checked() -> None:
    scripts = sorted(STATIC.glob("*.js"))
    assert len(scripts) > 25
    unchecked = [path.name for path in scripts if not path.read_text(encoding="utf-8").startswith("// @ts-check\n")]
    assert unchecked == []


def test_the_ids_the_scripts_look_up_are_in_the_page_with_their_tags() -> None:
    typed = _typed_ids()
    assert set(typed) == set(KINDS)
    assert "btn-undo" in typed["ButtonId"] and "board" in typed["ElementId"]
    page = _Ids()
    page.feed((STATIC / "index.html").read_text(encoding="utf-8"))
    wrong = [
        f"{element_id}: {page.tags.get(element_id, 'missing')}, not {KINDS[kind] or 'an element'}"
        for kind, ids in typed.items()
        for element_id in ids
        if element_id not in page.tags or KINDS[kind] not in (None, page.tags[element_id])
    ]
    assert wrong == []


@pytest.mark.slow
@pytest.mark.parametrize("config", CONFIGS)
def test_typescript_finds_no_error(config: str) -> None:
    if not TSC.exists() or shutil.which("node") is None:
        pytest.skip("TypeScript is not installed: run `npm ci` at the repository root (needs Node.js)")
    checked = subprocess.run(
        [str(TSC), "--noEmit", "--pretty", "false", "-p", config],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
