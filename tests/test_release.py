"""The release as people take it: the sdist and the wheel that ``python -m build`` makes, their metadata as the
package index reads it, and the wheel installed in a fresh venv playing whole games as a player does.

The archives are built and the wheel installed once per test run (tests/release_support.py; slow: minutes); the
changelog and the classifiers are checked in ``make check`` too.
"""

from __future__ import annotations

import email
import email.policy
import hashlib
import json
import re
import subprocess
import sys
import tarfile
import tomllib
import zipfile
from pathlib import Path

import pytest
from trove_classifiers import classifiers as KNOWN_CLASSIFIERS

from foursquare import __version__, tui
from foursquare.engine import Game
from pty_support import Terminal
from release_support import GUARD, ROOT, Release, core_venv, outside, release
from test_play import WON_ORTHOGONAL, commands, greedy_game

NAME = f"foursquare_solitaire-{__version__}"
PAGE = "src/foursquare/web/static/dist/manifest.json"  # the built page (make page)


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


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Release:
    built = release(tmp_path_factory)
    assert built.sdist.name == f"{NAME}.tar.gz" and built.wheel.name.startswith(f"{NAME}-")
    return built


@pytest.mark.slow
def test_twine_passes_both_archives_strictly(built: Release) -> None:
    checked = subprocess.run(
        [sys.executable, "-m", "twine", "check", "--strict", str(built.sdist), str(built.wheel)],
        capture_output=True,
        text=True,
        timeout=GUARD,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert checked.stdout.count("PASSED") == 2


@pytest.mark.slow
def test_the_sdist_holds_the_licences_the_changelog_and_the_sources(built: Release) -> None:
    with tarfile.open(built.sdist) as sdist:
        files = {member.name.removeprefix(f"{NAME}/"): member for member in sdist.getmembers()}
        for name in ("LICENSE", "CHANGELOG.md", "src/foursquare/web/static/fonts/OFL.txt"):
            extracted = sdist.extractfile(files[name])
            assert extracted is not None and extracted.read() == (ROOT / name).read_bytes()
    assert {"README.md", "pyproject.toml", "src/foursquare/__init__.py", "src/foursquare/locale/foursquare.pot"} <= set(
        files
    )


@pytest.mark.slow
def test_the_wheel_holds_the_licences_and_its_description_the_changelog(built: Release) -> None:
    info = f"{NAME}.dist-info"
    with zipfile.ZipFile(built.wheel) as wheel:
        assert wheel.read(f"{info}/licenses/LICENSE") == (ROOT / "LICENSE").read_bytes()
        assert f"{info}/licenses/src/foursquare/web/static/fonts/OFL.txt" in wheel.namelist()
        assert {"foursquare/py.typed", "foursquare/locale/foursquare.pot", "foursquare/web/static/index.html"} <= set(
            wheel.namelist()
        )
        if (ROOT / PAGE).exists():  # make test builds the page first (make page): the wheel ships it
            assert PAGE.removeprefix("src/") in wheel.namelist()
        # The catalogues as Babel read them at build time, each stamped with its source's hash: commands load them
        # without Babel (foursquare.i18n.compile).
        for source in [
            "foursquare/locale/foursquare.pot",
            *(f"foursquare/locale/{code}/LC_MESSAGES/foursquare.po" for code in ("uz", "hr", "fil", "kn", "bn")),
        ]:
            compiled = json.loads(wheel.read(f"{source}.json"))
            assert compiled["sha256"] == hashlib.sha256(wheel.read(source)).hexdigest(), source
        metadata = email.message_from_bytes(wheel.read(f"{info}/METADATA"), policy=email.policy.compat32)
    assert metadata["Version"] == __version__
    assert metadata["License-Expression"] == "MIT AND OFL-1.1"
    description = metadata.get_payload()
    assert isinstance(description, str)
    # The index's page: the README, then the changelog, which the wheel carries no other way.
    assert description.startswith("# Foursquare\n")
    assert "\n# Changelog\n" in description and f"\n## [{__version__}] - " in description


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return core_venv(tmp_path_factory)


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
