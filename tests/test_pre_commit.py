"""The pre-commit hooks (.pre-commit-config.yaml) are the static checks of ``make check``, run by the venv's tools."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[1]
CONFIG = ROOT / ".pre-commit-config.yaml"
GUARD = 300  # seconds: a bound that only a hang reaches, no speed requirement


def make_check_lints() -> dict[str, str]:
    """The static checks ``make check`` runs beside the tests, by program, as command lines run in the repository."""
    recipe = (ROOT / "Makefile").read_text(encoding="utf-8").split("\ncheck:", 1)[1].split("\n\n", 1)[0]
    commands = re.findall(r"^\t(.+?) > \$\(VENV\)/\w+\.log 2>&1 &", recipe, re.MULTILINE)
    return {command.split()[0]: command for command in (c.replace("$(BIN)", ".venv/bin") for c in commands)}


def hooks() -> list[dict[str, Any]]:
    config = yaml.safe_load(CONFIG.read_text(encoding="utf-8"))
    assert [repo["repo"] for repo in config["repos"]] == ["local"]  # nothing to download when a hook runs
    hooks: list[dict[str, Any]] = config["repos"][0]["hooks"]
    return hooks


def test_the_hooks_are_the_static_checks_of_make_check() -> None:
    lints = make_check_lints()
    assert len(lints) == 4  # ruff, mypy, import-linter, tsc
    by_program = {hook["entry"].split()[0]: hook for hook in hooks()}
    assert by_program.keys() == lints.keys()
    for program, hook in by_program.items():
        assert hook["language"] == "unsupported"  # the tools as installed, at the lock's versions
        if program.startswith(".venv/bin/"):
            assert (Path(sys.executable).parent / Path(program).name).exists()
        command = lints[program].split()
        if hook.get("pass_filenames", True):  # the files committed, among those make check lints (ruff)
            entry = [word for word in hook["entry"].split() if not word.startswith("--")]
            assert command[: len(entry)] == entry
            assert all(re.match(hook["files"], f"{path}/module.py") for path in command[len(entry) :])
        else:  # a whole-project check: exactly make check's
            assert hook["entry"].split() == command


def test_pre_commit_validates_the_config_and_runs_a_hook_offline(tmp_path: Path) -> None:
    pre_commit = [sys.executable, "-m", "pre_commit"]
    env = {**os.environ, "PRE_COMMIT_HOME": str(tmp_path)}  # not the user's cache of hook environments
    validated = subprocess.run(
        [*pre_commit, "validate-config", str(CONFIG)], capture_output=True, text=True, env=env, timeout=GUARD
    )
    assert validated.returncode == 0, validated.stdout + validated.stderr
    this_file = str(Path(__file__).relative_to(ROOT))
    run = [*pre_commit, "run", "ruff", "--files", this_file]
    ran = subprocess.run(run, cwd=ROOT, capture_output=True, text=True, env=env, timeout=GUARD)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert re.search(r"^ruff \(ruff check src tests\)\.+Passed$", ran.stdout, re.MULTILINE), ran.stdout
