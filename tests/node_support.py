"""Running the page's JavaScript tests under Node (``node --test``) from pytest, on cases the Python side wrote."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Sequence
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def node_tests(files: Sequence[Path], variable: str, cases: Path | None, what: str) -> str:
    """Run ``node --test`` on ``files`` with ``cases`` named by the environment ``variable`` (None: the files'
    committed cases); their TAP report, or a failure with it. Skipped without Node (``what``: what cannot run)."""
    node = shutil.which("node")
    if node is None:
        pytest.skip(f"Node.js is not installed (Debian's nodejs): {what} cannot be run")
    env = {key: value for key, value in os.environ.items() if key != variable}
    if cases is not None:
        env[variable] = str(cases)
    command = [node, "--test", "--test-reporter=tap", *map(str, files)]
    run = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, check=False, timeout=900)
    if run.returncode != 0:
        pytest.fail(f"{' '.join(command)} failed (exit {run.returncode}):\n{run.stdout}\n{run.stderr}")
    return run.stdout
