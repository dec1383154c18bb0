"""The core installs alone: a command whose extra is missing says in one line which extra to install (exit 2).

The fast tests hide an extra's modules from the check in this process; the slow one plays a game in line mode in a
fresh venv with the package and no extra, and asks it to serve: the wheel built from the checkout, installed alone
once per test run and shared with tests/test_release.py and tests/test_light_install.py (tests/release_support.py).
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from importlib.machinery import ModuleSpec
from pathlib import Path

import pytest

from foursquare.cli import extras, main
from release_support import core_venv


@pytest.fixture
def without(monkeypatch: pytest.MonkeyPatch) -> Iterator[set[str]]:
    """The top-level modules named in the yielded set look uninstalled to the extras' check."""
    hidden: set[str] = set()
    real = extras.find_spec

    def find_spec(name: str) -> ModuleSpec | None:
        return None if name in hidden else real(name)

    monkeypatch.setattr(extras, "find_spec", find_spec)
    yield hidden


def test_every_extra_is_installed_for_the_tests() -> None:
    assert {extra: extras.missing_modules(extra) for extra in extras.EXTRAS} == {extra: [] for extra in extras.EXTRAS}


@pytest.mark.parametrize(
    ("hidden", "arguments", "extra", "command"),
    [
        ("uvicorn", ["serve"], "web", "foursquare serve"),
        ("distributed", ["study", "run", "--what", "greedy", "--deals", "1-2"], "study", "foursquare study run"),
        ("matplotlib", ["study", "report", "--html", "x.html"], "study", "foursquare study report"),
        ("gymnasium", ["bench", "--rl"], "rl", "foursquare bench --rl"),
        ("numba", ["solve", "--deal", "3"], "solver", "foursquare solve"),
        ("numba", ["deal", "--winnable"], "solver", "foursquare deal --winnable"),
        ("numba", ["autoplay", "--player", "expert", "--deal", "3"], "solver", "foursquare autoplay --player expert"),
        ("numba", ["play", "--winnable"], "solver", "foursquare play --winnable"),
    ],
)
def test_a_missing_extra_is_one_line_and_exit_2(
    without: set[str],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    hidden: str,
    arguments: list[str],
    extra: str,
    command: str,
) -> None:
    monkeypatch.setenv("FOURSQUARE_DATA_DIR", str(tmp_path))
    monkeypatch.chdir(tmp_path)
    without.add(hidden)
    assert main(["--lang", "en", *arguments]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == f"foursquare: error: {command} needs the {extra} extra: pip install 'foursquare-solitaire[{extra}]'\n"
    assert list(tmp_path.iterdir()) == []  # refused before it wrote anything


def test_the_message_is_in_the_players_language(without: set[str], capsys: pytest.CaptureFixture[str]) -> None:
    without.add("fastapi")
    assert main(["--lang", "hr", "serve"]) == 2
    err = capsys.readouterr().err
    assert "za foursquare serve potreban je dodatni paket web: pip install 'foursquare-solitaire[web]'" in err


def test_the_report_without_plots_needs_no_extra(
    without: set[str], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    without.update({"matplotlib", "distributed"})
    # No study database yet: the report says so, rather than asking for matplotlib it does not need.
    assert main(["--lang", "en", "study", "report", "--db", str(tmp_path / "none.db")]) == 2
    assert "needs the study extra" not in capsys.readouterr().err


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    from foursquare import __version__

    with pytest.raises(SystemExit) as exit_:
        main(["--version"])
    assert exit_.value.code == 0
    assert capsys.readouterr().out == f"foursquare {__version__}\n"


@pytest.mark.slow
def test_pip_install_without_extras_plays_and_names_the_extra_to_serve(
    tmp_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    bin_ = core_venv(tmp_path_factory)
    python = str(bin_ / "python")
    listed = subprocess.run([python, "-m", "pip", "list"], check=True, capture_output=True, text=True).stdout
    installed = {line.split()[0].lower() for line in listed.splitlines()[2:]}
    assert "foursquare-solitaire" in installed
    assert installed.isdisjoint({"fastapi", "uvicorn", "distributed", "dask", "matplotlib", "pillow", "gymnasium"})

    env = {**os.environ, "FOURSQUARE_DATA_DIR": str(tmp_path / "data"), "LANG": "C.UTF-8"}
    env.pop("LANGUAGE", None)
    foursquare = str(bin_ / "foursquare")
    played = subprocess.run(
        [foursquare, "play", "--deal", "1"], input="D4\nD5\nq\n", env=env, capture_output=True, text=True, timeout=600
    )
    assert played.returncode == 0, played.stderr
    assert "placed 3S at D4" in played.stdout and "placed AH at D5" in played.stdout

    served = subprocess.run([foursquare, "serve"], env=env, capture_output=True, text=True, timeout=600)
    assert served.returncode == 2
    assert served.stderr == (
        "foursquare: error: foursquare serve needs the web extra: pip install 'foursquare-solitaire[web]'\n"
    )
