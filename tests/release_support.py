"""The release as people take it, made once per test run and shared by every test worker: the sdist and the wheel
``python -m build`` makes, and the wheel installed alone in a fresh venv (the core, no extra): the player's install.

Each takes minutes (the build's isolated environments, the kernel compiled ahead of time, pip installing the
dependencies), so a module that needs them calls :func:`release` or :func:`core_venv` rather than making its own:
``tests/test_release.py`` (the archives, the installed wheel's games), ``tests/test_light_install.py`` (the
install's size, the hint on the compiled kernel, the lesson) and ``tests/test_extras.py`` (a command of a missing
extra) share one build and one venv, where each made its own before (three compiles of the kernel, about 40 s of a
core each). Never install anything into the shared venv: another module's test would no longer see the core alone.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

import pytest

ROOT = Path(__file__).resolve().parents[1]
LOCK = ROOT / "requirements" / "ci.txt"
GUARD = 1800  # seconds: a bound that only a hang reaches (pip may download the dependencies), no speed requirement


class Release(NamedTuple):
    sdist: Path
    wheel: Path


def release(tmp_path_factory: pytest.TempPathFactory) -> Release:
    """``python -m build``: the sdist, then the wheel built from it, each in an isolated environment of the build's
    requirements at the lock's versions. The wheel's name is globbed: a compiled part makes it platform-specific."""
    out = _made_once(tmp_path_factory, "dist", _build)
    [sdist] = out.glob("*.tar.gz")
    [wheel] = out.glob("*.whl")
    return Release(sdist, wheel)


def core_venv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel installed in a fresh venv, its dependencies at the lock's versions: the venv's ``bin`` folder."""
    wheel = release(tmp_path_factory).wheel
    return _made_once(tmp_path_factory, "venv", lambda venv: _install(wheel, venv)) / "bin"


def outside(**env: str) -> dict[str, str]:
    """This environment without what would lead a program to the repository's sources or the tests' venv."""
    environment = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
    return {**environment, **env}


def _build(out: Path) -> None:
    built = subprocess.run(
        [sys.executable, "-m", "build", "--outdir", str(out), str(ROOT)],
        # The solver's numba cache (FOURSQUARE_SOLVER_CACHE, when setup.py fills it) is for installs with the solver
        # extra: the core venv has no numba, and no test here reads the cache, so the build skips it.
        env={**os.environ, "PIP_CONSTRAINT": str(LOCK), "FOURSQUARE_SOLVER_CACHE": "0"},
        capture_output=True,
        text=True,
        timeout=GUARD,
    )
    assert built.returncode == 0, built.stdout[-3000:] + built.stderr[-3000:]


def _install(wheel: Path, venv: Path) -> None:
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=GUARD)
    pip = subprocess.run(
        [venv / "bin" / "python", "-m", "pip", "install", "--quiet", "--constraint", LOCK, wheel],
        env=outside(),
        capture_output=True,
        text=True,
        timeout=GUARD,
    )
    assert pip.returncode == 0, pip.stdout[-3000:] + pip.stderr[-3000:]


def _made_once(tmp_path_factory: pytest.TempPathFactory, name: str, make: Callable[[Path], None]) -> Path:
    """The folder ``name`` of this test run, which the first worker to ask makes while the others wait for it."""
    base = tmp_path_factory.getbasetemp()
    shared = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base  # the run's folder under xdist
    folder = shared / f"release-{name}"
    with open(shared / f"release-{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (folder / ".made").exists():  # not yet, or a worker failed to: (again) from scratch
            shutil.rmtree(folder, ignore_errors=True)
            folder.mkdir()
            make(folder)
            (folder / ".made").touch()
    return folder
