"""Read-only storage for tests: a folder seen through a read-only bind mount.

Permission bits do not stop root (CI runs the suite as root), so a test of "read-only storage" needs storage
that is read-only for everyone. A bind mount needs the privilege to mount; where it is missing the test is
skipped with the reason.
"""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest


def _run(*command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, capture_output=True, text=True, check=False)


@contextmanager
def read_only_view(folder: Path) -> Iterator[Path]:
    """``folder`` as read-only storage, at a new path beside it, for the block's duration."""
    view = folder.parent / f"{folder.name}-read-only"
    view.mkdir()
    mounted = _run("mount", "--bind", str(folder), str(view))
    if mounted.returncode != 0:
        view.rmdir()
        pytest.skip(f"cannot bind-mount a folder here: {mounted.stderr.strip()}")
    try:
        remounted = _run("mount", "-o", "remount,ro,bind", str(view))
        if remounted.returncode != 0:
            pytest.skip(f"cannot make a bind mount read-only here: {remounted.stderr.strip()}")
        yield view
    finally:
        if _run("umount", str(view)).returncode != 0:
            _run("umount", "-l", str(view))  # a connection still open somewhere: detach it
        view.rmdir()


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` (by relative path) and its bytes: to show that nothing was written."""
    return {str(path.relative_to(folder)): path.read_bytes() for path in sorted(folder.rglob("*")) if path.is_file()}
