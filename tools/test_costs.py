"""Write tests/costs.json, the seconds each test file took, from a JUnit XML report of a whole run.

``make test`` hands the files to its workers longest first (tests/conftest.py), so that no long file starts last and
runs on alone while the other workers sit idle. Refresh the table after a file's cost changes much::

    .venv/bin/pytest -q -n 4 --dist loadfile --junitxml=/tmp/report.xml
    .venv/bin/python tools/test_costs.py /tmp/report.xml
"""

from __future__ import annotations

import json
import sys
import xml.etree.ElementTree as ElementTree
from collections import defaultdict
from pathlib import Path

COSTS = Path(__file__).resolve().parent.parent / "tests" / "costs.json"


def costs(report: Path) -> dict[str, int]:
    """Seconds per file (whole seconds, at least 1), longest first."""
    seconds: dict[str, float] = defaultdict(float)
    for case in ElementTree.parse(report).getroot().iter("testcase"):
        path = case.get("file") or case.get("classname", "").replace(".", "/") + ".py"
        if Path(path).name.startswith("test_"):  # not a doctest of docs/ or src/: few seconds in all
            seconds[path] += float(case.get("time", 0))
    return {path: max(1, round(total)) for path, total in sorted(seconds.items(), key=lambda kv: (-kv[1], kv[0]))}


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python tools/test_costs.py REPORT.xml", file=sys.stderr)
        return 2
    COSTS.write_text(json.dumps(costs(Path(argv[0])), indent=0) + "\n", encoding="utf-8")
    print(f"wrote {COSTS}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
