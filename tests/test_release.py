"""The release as people take it: the sdist and the wheel that ``python -m build`` makes, their metadata as the
package index reads it, and the wheel installed in a fresh venv playing whole games as a player does.

The archives are built and the wheel installed once for the module (slow: most of it is pip installing the core's
dependencies at the lock's versions); the changelog and the classifiers are checked in ``make check`` too.
"""

from __future__ import annotations

import email
import email.policy
import json
import os
import re
import subprocess
import sys
import tarfile
import tomllib
import zipfile
from pathlib import Path
from typing import NamedTuple

import pytest
from trove_classifiers import classifiers as KNOWN_CLASSIFIERS

from foursquare import __version__, tui
from foursquare.engine import Game
from pty_support import Terminal
from test_play import WON_ORTHOGONAL, commands, greedy_game

ROOT = Path(__file__).resolve().parents[1]
LOCK = ROOT / "requirements" / "ci.txt"
NAME = f"foursquare_solitaire-{__version__}"
GUARD = 1800  # seconds: a bound that only a hang reaches (pip may download the dependencies), no speed requirement


def test_the_changelog_has_a_dated_section_for_this_version() -> None:
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    sections = re.findall(r"^## \[([^\]]+)\](?: - (\d{4}-\d{2}-\d{2}))?$", text, re.MULTILINE)
    assert sections[0] == ("Unreleased", "")  # where the next change's line goes
    assert [version for version, _ in sections[1:2]] == [__version__]  # the newest release is the package's
    assert all(date for _, date in sections[1:])


def test_the_classifiers_are_the_package_indexs() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert [name for name in project["classifiers"] if name not in KNOWN_CLASSIFIERS] == []
    # The license expression says it; the index refuses a License classifier beside one (PEP 639).
    assert not [name for name in project["classifiers"] if name.startswith("License ::")]


class Release(NamedTuple):
    sdist: Path
    wheel: Path


@pytest.fixture(scope="module")
def release(tmp_path_factory: pytest.TempPathFactory) -> Release:
    """``python -m build``: the sdist, then the wheel built from it, in an isolated environment of the build's
    requirements at the lock's versions. The wheel's name is globbed: a compiled part makes it platform-specific."""
    out = tmp_path_factory.mktemp("dist")
    built = subprocess.run(
        [sys.executable, "-m", "build", "--outdir", str(out), str(ROOT)],
        env={**os.environ, "PIP_CONSTRAINT": str(LOCK)},
        capture_output=True,
        text=True,
        timeout=GUARD,
    )
    assert built.returncode == 0, built.stdout[-3000:] + built.stderr[-3000:]
    [sdist] = out.glob("*.tar.gz")
    [wheel] = out.glob("*.whl")
    assert sdist.name == f"{NAME}.tar.gz" and wheel.name.startswith(f"{NAME}-")
    return Release(sdist, wheel)


@pytest.mark.slow
def test_twine_passes_both_archives_strictly(release: Release) -> None:
    checked = subprocess.run(
        [sys.executable, "-m", "twine", "check", "--strict", str(release.sdist), str(release.wheel)],
        capture_output=True,
        text=True,
        timeout=GUARD,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert checked.stdout.count("PASSED") == 2


@pytest.mark.slow
def test_the_sdist_holds_the_licences_the_changelog_and_the_sources(release: Release) -> None:
    with tarfile.open(release.sdist) as sdist:
        files = {member.name.removeprefix(f"{NAME}/"): member for member in sdist.getmembers()}
        for name in ("LICENSE", "CHANGELOG.md", "src/foursquare/web/static/fonts/OFL.txt"):
            extracted = sdist.extractfile(files[name])
            assert extracted is not None and extracted.read() == (ROOT / name).read_bytes()
    assert {"README.md", "pyproject.toml", "src/foursquare/__init__.py", "src/foursquare/locale/foursquare.pot"} <= set(
        files
    )


@pytest.mark.slow
def test_the_wheel_holds_the_licences_and_its_description_the_changelog(release: Release) -> None:
    info = f"{NAME}.dist-info"
    with zipfile.ZipFile(release.wheel) as wheel:
        assert wheel.read(f"{info}/licenses/LICENSE") == (ROOT / "LICENSE").read_bytes()
        assert f"{info}/licenses/src/foursquare/web/static/fonts/OFL.txt" in wheel.namelist()
        assert {"foursquare/py.typed", "foursquare/locale/foursquare.pot", "foursquare/web/static/index.html"} <= set(
            wheel.namelist()
        )
        metadata = email.message_from_bytes(wheel.read(f"{info}/METADATA"), policy=email.policy.compat32)
    assert metadata["Version"] == __version__
    assert metadata["License-Expression"] == "MIT AND OFL-1.1"
    description = metadata.get_payload()
    assert isinstance(description, str)
    # The index's page: the README, then the changelog, which the wheel carries no other way.
    assert description.startswith("# Foursquare\n")
    assert "\n# Changelog\n" in description and f"\n## [{__version__}] - " in description


@pytest.fixture(scope="module")
def installed(release: Release, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel installed in a fresh venv, its dependencies at the lock's versions: the venv's ``bin`` folder."""
    venv = tmp_path_factory.mktemp("venv")
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=GUARD)
    pip = subprocess.run(
        [venv / "bin" / "python", "-m", "pip", "install", "--quiet", "--constraint", LOCK, release.wheel],
        env=outside(),
        capture_output=True,
        text=True,
        timeout=GUARD,
    )
    assert pip.returncode == 0, pip.stdout[-3000:] + pip.stderr[-3000:]
    return venv / "bin"


def outside(**env: str) -> dict[str, str]:
    """This environment without what would lead a program to the repository's sources or the tests' venv."""
    environment = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
    return {**environment, **env}


def run(program: Path, *args: str, stdin: str = "", cwd: Path) -> subprocess.CompletedProcess[str]:
    completed = subprocess.run(
        [str(program), *args],
        input=stdin,
        env=outside(FOURSQUARE_DATA_DIR=str(cwd / "data")),
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=GUARD,
    )
    assert completed.returncode == 0, completed.stdout[-3000:] + completed.stderr[-3000:]
    return completed


@pytest.mark.slow
def test_the_installed_command_runs_the_wheels_code(installed: Path, tmp_path: Path) -> None:
    where = run(installed / "python", "-c", "import foursquare; print(foursquare.__file__)", cwd=tmp_path)
    assert Path(where.stdout.strip()).is_relative_to(installed.parent)  # not the repository's src/
    assert run(installed / "foursquare", "--version", cwd=tmp_path).stdout == f"foursquare {__version__}\n"


@pytest.mark.slow
def test_the_installed_wheel_plays_a_whole_game_through_a_pipe_and_replays_it(installed: Path, tmp_path: Path) -> None:
    game = greedy_game(WON_ORTHOGONAL)
    score = game.outcome().score
    play = ("play", "--deal", str(WON_ORTHOGONAL), "--save", "game.json")
    played = run(installed / "foursquare", *play, stdin=commands(game.moves), cwd=tmp_path)
    assert played.stderr == ""
    assert played.stdout.splitlines()[-1] == f"won: score {score}"
    replayed = json.loads(run(installed / "foursquare", "replay", "game.json", "--json", cwd=tmp_path).stdout)
    assert (replayed["outcome"], replayed["score"], replayed["played"]) == ("won", score, len(game.moves))


@pytest.mark.slow
def test_the_installed_wheel_plays_a_whole_game_on_a_terminal_and_counts_it(installed: Path, tmp_path: Path) -> None:
    game = greedy_game(WON_ORTHOGONAL)
    replay = Game(deal=WON_ORTHOGONAL)
    keys = ""
    for move in game.moves:
        keys += tui.cell_labels(replay)[move]
        replay.place(*move)
    term = Terminal(
        "--deal",
        str(WON_ORTHOGONAL),
        data_dir=tmp_path / "data",
        program=(str(installed / "foursquare"), "play"),
        unset=("PYTHONPATH", "VIRTUAL_ENV"),
    )
    try:
        at = term.wait_for("Press a cell's key")
        term.press(keys)
        at = term.wait_for(f"YOU WON!  SCORE {game.outcome().score}", at)
        term.wait_for("Play another?", at)
        term.press("q")
        assert term.finish() == 0
    finally:
        term.close()
    stats = json.loads(run(installed / "foursquare", "stats", "--json", cwd=tmp_path).stdout)
    assert (stats["played"], stats["won"], stats["best_score"]) == (1, 1, game.outcome().score)
