"""The layers depend only on the ones below: no library module imports a front end or a front end's tools."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "src" / "foursquare"
FRONT_ENDS = ("cli", "tui", "web")
# What only the front ends may import: themselves, and the tools that print, parse options or colour text.
FRONT_END_ONLY = (*(f"foursquare.{name}" for name in FRONT_ENDS), "rich", "argparse")


def _imports(path: Path) -> list[tuple[str, int]]:
    """The absolute imports of a module, with their lines."""
    found: list[tuple[str, int]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(alias.name, node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append((node.module, node.lineno))
    return found


def _library_modules() -> list[Path]:
    return [
        path
        for path in sorted(PACKAGE.rglob("*.py"))
        if path.relative_to(PACKAGE).parts[0] not in FRONT_ENDS and path.name != "__main__.py"
    ]


def test_library_code_imports_no_front_end() -> None:
    modules = _library_modules()
    assert any(p.parts[-2:] == ("rl", "env.py") for p in modules) and len(modules) > 40
    wrong = [
        f"{path.relative_to(PACKAGE)}:{line} imports {name}"
        for path in modules
        for name, line in _imports(path)
        if any(name == banned or name.startswith(banned + ".") for banned in FRONT_END_ONLY)
    ]
    assert not wrong, wrong
