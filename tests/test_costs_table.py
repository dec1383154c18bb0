"""The table of each test file's seconds (tests/costs.json) that orders the files for the workers, and the tool that
writes it from a JUnit XML report (tools/test_costs.py)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TOOL = ROOT / "tools" / "test_costs.py"

REPORT = """<?xml version="1.0" encoding="utf-8"?>
<testsuites><testsuite name="pytest">
<testcase classname="tests.test_a" name="test_one" time="1.6"/>
<testcase classname="tests.test_a" name="test_two" time="2.0"/>
<testcase classname="tests.test_b" name="test_slow" time="12.4"/>
<testcase classname="tests.test_c" name="test_quick" time="0.01"/>
<testcase classname="docs.rules.md" name="rules.md" time="3.0"/>
</testsuite></testsuites>
"""


def test_every_file_of_the_table_is_a_test_file_and_the_longest_come_first() -> None:
    costs = json.loads((ROOT / "tests" / "costs.json").read_text(encoding="utf-8"))
    assert costs and all((ROOT / path).is_file() and path.startswith("tests/test_") for path in costs)
    assert list(costs.values()) == sorted(costs.values(), reverse=True)


def test_the_tool_sums_each_files_seconds_longest_first(tmp_path: Path) -> None:
    report = tmp_path / "report.xml"
    report.write_text(REPORT, encoding="utf-8")
    script = f"import pathlib, runpy; print(runpy.run_path({str(TOOL)!r})['costs'](pathlib.Path({str(report)!r})))"
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == str({"tests/test_b.py": 12, "tests/test_a.py": 4, "tests/test_c.py": 1})


def test_the_tool_says_how_to_call_it() -> None:
    done = subprocess.run([sys.executable, str(TOOL)], capture_output=True, text=True)
    assert done.returncode == 2 and "usage: python tools/test_costs.py REPORT.xml" in done.stderr
