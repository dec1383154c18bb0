"""The player's install: ``pip install`` with no extra is light (site-packages at most 250 MB, no numba, llvmlite nor
OR-Tools), and the hint, the lesson and the terminal game work there — the hint from the kernel compiled when the
package was built (docs/performance.md, "Cold start").

The install is the wheel that ``python -m build`` makes from the checkout (through its sdist), installed alone in a
fresh venv: what ``pip install foursquare-solitaire`` gives a player, and what ``pip install .`` of the checkout
builds too. It is made once per test run and shared with tests/test_release.py and tests/test_extras.py
(tests/release_support.py): a build of the package compiles the kernel, about 40 s of a core.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from foursquare import record
from foursquare.engine import Game, Move
from foursquare.players import hint
from pty_support import Terminal
from release_support import core_venv

MAX_SITE_PACKAGES = 250 * 1024 * 1024  # bytes: the bound on the player's install
EXTRAS_ONLY = {"numba", "llvmlite", "ortools", "pandas", "fastapi", "uvicorn", "distributed", "matplotlib", "gymnasium"}

pytestmark = pytest.mark.slow  # a virtual environment, a build and pseudo-terminals


class Install:
    """A virtual environment with the checkout installed without extras."""

    def __init__(self, home: Path) -> None:
        self.home = home
        self.bin = home / "bin"
        self.site_packages = next(home.glob("lib/python3*/site-packages"))

    def foursquare(self, *args: str, data: Path, **options: object) -> subprocess.CompletedProcess[str]:
        env = {**os.environ, "FOURSQUARE_DATA_DIR": str(data), "LANG": "C.UTF-8"}
        env.pop("LANGUAGE", None)
        env.pop("FOURSQUARE_KERNEL", None)
        return subprocess.run(
            [str(self.bin / "foursquare"), *args],
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
            **options,  # type: ignore[call-overload]
        )


@pytest.fixture(scope="module")
def install(tmp_path_factory: pytest.TempPathFactory) -> Install:
    return Install(core_venv(tmp_path_factory).parent)


def size(folder: Path) -> int:
    return sum(path.lstat().st_size for path in folder.rglob("*") if path.is_file() and not path.is_symlink())


def test_the_install_is_light_and_has_no_compiler(install: Install) -> None:
    assert size(install.site_packages) <= MAX_SITE_PACKAGES
    listed = subprocess.run(
        [str(install.bin / "python"), "-m", "pip", "list", "--format", "json"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    installed = {entry["name"].lower() for entry in json.loads(listed)}
    assert "foursquare-solitaire" in installed
    assert installed.isdisjoint(EXTRAS_ONLY)
    built = list((install.site_packages / "foursquare" / "kernel").glob("_compiled*.so"))
    assert len(built) == 1


def test_the_hint_runs_on_the_compiled_kernel(install: Install, tmp_path: Path) -> None:
    game = Game(deal=5)
    for name in ("D4", "D3"):
        game.place(*Move.from_name(name))
    saved = tmp_path / "game.json"
    saved.write_text(json.dumps(record.to_json(game)))
    answer = install.foursquare("hint", str(saved), "--json", data=tmp_path / "data")
    assert answer.returncode == 0, answer.stderr
    moves = json.loads(answer.stdout)["moves"]
    best = hint(game.view())  # this checkout's, by numba or by its own compiled module: the same numbers
    assert [(m["cell"], m["expected_score"], m["win_probability"]) for m in moves] == [
        (a.move.name, a.expected_score, a.win_probability) for a in best
    ]


def test_a_command_of_the_solver_names_its_extra(install: Install, tmp_path: Path) -> None:
    solved = install.foursquare("solve", "--deal", "3", data=tmp_path / "data")
    assert solved.returncode == 2
    assert solved.stderr == (
        "foursquare: error: foursquare solve needs the solver extra: pip install 'foursquare-solitaire[solver]'\n"
    )


@pytest.fixture
def terminal(install: Install, tmp_path: Path) -> Iterator[list[Terminal]]:
    opened: list[Terminal] = []
    yield opened
    for term in opened:
        with contextlib.suppress(OSError):
            term.close()


def test_the_terminal_game_and_its_hint_key(install: Install, terminal: list[Terminal], tmp_path: Path) -> None:
    program = (str(install.bin / "foursquare"), "play")
    term = Terminal("--deal", "5", data_dir=tmp_path / "data", program=program, unset=("FOURSQUARE_KERNEL",))
    terminal.append(term)
    term.wait_screen("Move 1 of 40")
    term.press("h")
    term.wait_screen("#1")
    assert "Best moves, ranked by expected score" in term.side_text()
    term.press("q")
    assert term.finish() == 0


def test_the_lesson(install: Install, terminal: list[Terminal], tmp_path: Path) -> None:
    program = (str(install.bin / "foursquare"), "learn")
    env = {"LANG": "en_US.UTF-8", "LANGUAGE": "en"}
    term = Terminal(data_dir=tmp_path / "data", program=program, env=env, unset=("FOURSQUARE_KERNEL",))
    terminal.append(term)
    term.wait_screen("Step 1 of")
    term.press("\r")  # the cursor starts on the first step's cell
    term.wait_screen("Step 2 of")
    term.press("q")
    assert term.finish() == 0
