"""``foursquare bench --rl``: the environments' steps per second, as a user runs it, in JSON, as text and in
other languages; and the bad input it refuses. No test asserts a speed: the machine may be busy."""

from __future__ import annotations

import json
import math
import os
import platform
import subprocess
import sys
from typing import Any

import pytest

import foursquare.rl.bench as RB
from cli_support import run_main
from foursquare.cli import bench as cli_bench
from foursquare.engine import Variant
from foursquare.i18n import translator
from foursquare.kernel import vector as V
from test_cli_i18n import ALLOWED, escaped_words, flat, run

FIGURES = ("loop", "step", "loop_cpu", "step_cpu")
#: What the table names as it is, in every language: the classes, the library, options and the command.
NAMES = {"FoursquareVectorEnv", "FoursquareEnv", "SyncVectorEnv", "Gymnasium", "numpy", "taskset", "step", "copy"}


def run_cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """The command in this process, its lines unwrapped (wide enough for any table)."""
    return run_main(*args, env={**os.environ, "COLUMNS": "500", **(env or {})})


def positive(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value) and value > 0


def fake_report(sizes: tuple[int, ...] = (1, 2)) -> dict[str, Any]:
    """A report of the library's shape with made-up figures, for the text renderings (no measuring)."""
    rates = {"loop": 123456.7, "step": 234567.8, "loop_cpu": 130000.0, "step_cpu": 240000.0, "steps": 1000}
    size = {kind: dict(rates) for kind in RB.KINDS} | {f"speedup_{f}": 12.34 for f in FIGURES}
    machine = RB.machine(load_average_before=[1.5, 1.0, 0.5])
    return {
        "measured_at": "2026-12-01T06:34:00+00:00",
        "seconds": 2.0,
        "variant": Variant().to_json(),
        "machine": machine,
        "sizes": {str(n): size | {"num_envs": n} for n in sizes},
    }


# --- as a user runs it ---------------------------------------------------------------------------------------


@pytest.mark.slow  # a benchmark of every size
def test_json_reports_every_size_with_the_machine() -> None:
    proc = run_cli("bench", "--rl", "--json", "--sizes", "1,4", "--seconds", "0.05")
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    data = json.loads(proc.stdout)
    assert set(data) == {"measured_at", "seconds", "variant", "machine", "sizes"}
    assert data["seconds"] == 0.05
    assert data["variant"] == {"adjacency": "orthogonal", "count_buried": False}
    assert list(data["sizes"]) == ["1", "4"]
    for key, size in data["sizes"].items():
        assert size["num_envs"] == int(key)
        for kind in ("vector", "vector_copy", "sync"):
            assert set(size[kind]) == {*FIGURES, "steps"}
            assert all(positive(size[kind][figure]) for figure in FIGURES), size[kind]
            assert size[kind]["steps"] > 0 and size[kind]["steps"] % int(key) == 0
        for figure in FIGURES:
            assert positive(size[f"speedup_{figure}"])
            assert size[f"speedup_{figure}"] == pytest.approx(size["vector"][figure] / size["sync"][figure])
    machine = data["machine"]
    assert machine["python"] == platform.python_version()
    assert machine["cpu_count"] == os.cpu_count()
    assert machine["cpus_usable"] is None or 1 <= machine["cpus_usable"] <= machine["cpu_count"]
    for library in ("numpy", "numba", "gymnasium", "foursquare"):
        assert isinstance(machine[library], str) and machine[library]


def test_house_rules_reach_the_environments() -> None:
    proc = run_cli("bench", "--rl", "--json", "--sizes", "2", "--seconds", "0.02", "--adjacency", "diagonal")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["variant"] == {"adjacency": "diagonal", "count_buried": False}
    for kind in RB.KINDS:  # each kind of batch plays under the rules asked for (the observation says so)
        obs, _ = RB.make_envs(kind, 2, Variant("diagonal", True)).reset(seed=0)
        assert (obs[:, V.OBS_DIAGONAL] == 1).all() and (obs[:, V.OBS_COUNT_BURIED] == 1).all(), kind


@pytest.mark.parametrize("sizes", ["0", "-3", "1000000000", "abc", "1,,4", "1.5", ""])
def test_bad_sizes_are_refused_without_a_traceback(sizes: str) -> None:
    proc = run_cli("bench", "--rl", "--json", f"--sizes={sizes}")
    assert proc.returncode == 2 and proc.stdout == ""
    assert "Traceback" not in proc.stderr
    assert proc.stderr.startswith("foursquare: error: argument --sizes: ") and proc.stderr.count("\n") == 1


def test_text_and_help_in_croatian() -> None:
    t = translator("hr")
    proc = run_cli("--lang", "hr", "bench", "--rl", "--sizes", "1,2", "--seconds", "0.02")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert out.startswith(t("cli.bench.rl.title", seconds=0.02, variant="adjacency=orthogonal, count_buried=False"))
    assert "0,02 s" in out.splitlines()[0]  # the language's own decimal comma
    for heading in (t("cli.bench.rl.col.size", count=1), t("cli.bench.rl.col.size", count=2)):
        assert heading in out  # 1 okruženje, 2 okruženja
    assert t("cli.bench.rl.loop_cpu") in out and t("cli.bench.rl.step", step="step()") in out
    assert t("cli.bench.rl.kind.speedup", vector="FoursquareVectorEnv", sync="SyncVectorEnv") in out
    assert "the agent's loop" not in out

    proc = run_cli("--lang", "hr", "bench", "--help")
    assert proc.returncode == 0
    help_rl = t("cli.bench.rl.help", vector="FoursquareVectorEnv", library="Gymnasium", sync="SyncVectorEnv")
    assert flat(help_rl) in flat(proc.stdout)
    assert flat(t("cli.bench.rl.sizes.help", rl="--rl", default="1,64,1024")) in flat(proc.stdout)

    proc = run_cli("--lang", "hr", "bench", "--rl", "--sizes", "99999")
    message = t("cli.bench.rl.size_range", min="1", max=str(RB.MAX_ENVS), value="'99999'")
    assert proc.returncode == 2 and message in proc.stderr and "16384" in message  # as the user would type it


def test_without_gymnasium_it_says_what_to_install() -> None:
    code = "import sys; sys.modules['gymnasium'] = None; from foursquare.cli import main; sys.exit(main(sys.argv[1:]))"
    proc = subprocess.run(
        [sys.executable, "-c", code, "bench", "--rl"], capture_output=True, text=True, timeout=600, check=False
    )
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    needs = "foursquare bench --rl needs the rl extra: pip install 'foursquare-solitaire[rl]'"
    assert proc.stderr.strip() == f"foursquare: error: {needs}"


# --- options that do not apply --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "key"),
    [
        (("bench", "--rl", "--deals", "1-5"), "cli.bench.rl.no_deals"),
        (("bench", "--sizes", "4"), "cli.bench.rl.only_with_rl"),
        (("bench", "--seconds", "1", "--deals", "1-3"), "cli.bench.rl.only_with_rl"),
    ],
)
def test_options_that_do_not_apply_are_refused(
    args: tuple[str, ...], key: str, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run(capsys, *args)
    assert status == 2 and out == ""
    option = "--seconds" if "--seconds" in args else "--sizes"
    message = translator("en")(key, deals="--deals", rl="--rl", option=option)
    assert err.strip() == f"foursquare: error: {message}"


@pytest.mark.parametrize("seconds", ["0", "-1", "nan", "inf", "601", "soon"])
def test_bad_seconds_are_refused(seconds: str, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "bench", "--rl", f"--seconds={seconds}")
    assert status == 2 and out == "" and "error: argument --seconds: " in err


# --- the library and the renderings ----------------------------------------------------------------------------


def test_the_command_line_knows_the_librarys_limits() -> None:
    """The command line repeats them so that parsing does not import Gymnasium; they must agree."""
    assert cli_bench.MAX_ENVS == RB.MAX_ENVS
    assert cli_bench.MAX_SECONDS == RB.MAX_SECONDS
    assert cli_bench.DEFAULT_SIZES == RB.DEFAULT_SIZES
    assert cli_bench.DEFAULT_SECONDS == RB.DEFAULT_SECONDS


def test_the_library_checks_its_arguments() -> None:
    assert RB.check_sizes([64, 1, 64]) == [64, 1]
    for bad in ([0], [RB.MAX_ENVS + 1], [True], [2.0], []):
        with pytest.raises(ValueError, match="environments"):
            RB.check_sizes(bad)  # type: ignore[arg-type]
    for seconds in (0, -1, math.nan, math.inf, RB.MAX_SECONDS + 1):
        with pytest.raises(ValueError, match="seconds"):
            RB.check_seconds(seconds)


def test_a_measurement_takes_at_least_one_step() -> None:
    rates = RB.measure(RB.make_envs("vector", 3, Variant()), seconds=1e-9)
    assert rates["steps"] >= 3 and all(positive(rates[figure]) for figure in FIGURES)


def test_progress_is_told_each_size() -> None:
    seen: list[int] = []
    report = RB.bench_rl([2, 1], seconds=0.01, progress=lambda size: seen.append(size["num_envs"]))
    assert seen == [2, 1] and list(report["sizes"]) == ["2", "1"]


@pytest.mark.parametrize("code", ["en", "uz", "hr", "fil", "kn", "bn"])
def test_the_table_in_each_language(code: str) -> None:
    t = translator(code)
    text = cli_bench.rl_text(fake_report(), t)
    assert t.number(123457) in text and t("cli.bench.rl.times", ratio=t.number(12.3, 1)) in text
    assert t("cli.bench.rl.col.size", count=2) in text
    assert t("cli.bench.rl.note", numpy="numpy", taskset="taskset -c 0") in text
    assert not any(line != line.rstrip() for line in text.splitlines())


def test_the_table_in_the_pseudo_language_leaves_no_english() -> None:
    report = fake_report()
    text = cli_bench.rl_text(report, translator("qps"))
    m = report["machine"]
    for typed in (m["cpu_model"] or "", m["system"], m["architecture"], m["python_implementation"]):
        text = text.replace(typed, " ")
    assert "⟦" in text and escaped_words(text, ALLOWED | NAMES | {"adjacency", "orthogonal", "count_buried"}) == []
