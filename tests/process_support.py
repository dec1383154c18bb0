"""What a test reads of running processes from /proc: a process group's members and the CPU time they used."""

from __future__ import annotations

import os
from pathlib import Path


def group_usage(pgid: int) -> tuple[int, float]:
    """The processes of group ``pgid`` (a command and the workers it started) and the CPU time they have used."""
    count, total = 0, 0.0
    for entry in Path("/proc").iterdir():
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split() if entry.name.isdigit() else []
        except OSError:  # gone meanwhile
            continue
        if fields and int(fields[2]) == pgid:
            count += 1
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return count, total
