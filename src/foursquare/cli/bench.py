"""``foursquare bench``: greedy playouts, compiled kernel against the pure-Python engine; with ``--rl``, the
reinforcement-learning environments' steps per second (:mod:`foursquare.rl.bench`)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from foursquare.cli.errors import CommandError
from foursquare.cli.extras import require_extra
from foursquare.cli.options import add_variant_options, deal_range_up_to, variant_of
from foursquare.cli.parser import OptionError, help_text
from foursquare.i18n import Translator

#: The greedy playouts' deals unless ``--deals`` says otherwise, and the most it takes (the engine's games are all
#: dealt before the clock starts).
DEFAULT_DEALS = (1, 1000)
MAX_DEALS = 100_000
#: ``foursquare.rl.bench``'s limits and defaults, repeated so that parsing the command line does not import
#: Gymnasium and numba (``tests/test_bench_rl.py`` checks that they agree).
MAX_ENVS = 16_384
MAX_SECONDS = 600.0
DEFAULT_SIZES = (1, 64, 1024)
DEFAULT_SECONDS = 2.0
#: The names that stay as they are in every language.
NAMES = {
    "rl": "--rl",
    "vector": "FoursquareVectorEnv",
    "env": "FoursquareEnv",
    "sync": "SyncVectorEnv",
    "library": "Gymnasium",
}


def env_sizes(text: str) -> list[int]:
    """``--sizes``: numbers of environments, ``1,64,1024``; each from 1 to :data:`MAX_ENVS`, repeats dropped."""
    sizes: list[int] = []
    for piece in text.split(","):
        try:
            n = int(piece.strip())
        except ValueError:
            raise OptionError("cli.bench.rl.sizes_format", example="1,64,1024", value=repr(text)) from None
        if not 1 <= n <= MAX_ENVS:
            raise OptionError("cli.bench.rl.size_range", min="1", max=str(MAX_ENVS), value=repr(piece.strip()))
        if n not in sizes:
            sizes.append(n)
    return sizes


def measure_seconds(text: str) -> float:
    """``--seconds``: more than 0 and at most :data:`MAX_SECONDS` (three measurements per size)."""
    try:
        value = float(text)
    except ValueError:
        raise OptionError("cli.option.seconds_not_number", value=repr(text)) from None
    if not value > 0:  # also nan
        raise OptionError("cli.option.seconds_not_positive", value=repr(text))
    if value > MAX_SECONDS:  # also inf
        raise OptionError("cli.bench.rl.seconds_too_long", max=f"{MAX_SECONDS:g}", value=repr(text))
    return value


def register(sub: Any, t: Translator | None = None) -> None:
    t = t or sub.translator
    p = sub.add_parser("bench", help=help_text(t, "cli.bench.help"), description=t("cli.bench.description"))
    deals = deal_range_up_to(MAX_DEALS)
    p.add_argument("--deals", type=deals, metavar="A-B", help=help_text(t, "cli.bench.deals.help"))
    p.add_argument("--json", action="store_true", help=help_text(t, "cli.bench.json.help"))
    p.add_argument("--rl", action="store_true", help=help_text(t, "cli.bench.rl.help", **NAMES))
    default_sizes = ",".join(str(n) for n in DEFAULT_SIZES)
    p.add_argument(
        "--sizes",
        type=env_sizes,
        metavar="N,N,…",
        help=help_text(t, "cli.bench.rl.sizes.help", rl="--rl", default=default_sizes),
    )
    p.add_argument(
        "--seconds",
        type=measure_seconds,
        metavar="S",
        help=help_text(t, "cli.bench.rl.seconds.help", rl="--rl", default=f"{DEFAULT_SECONDS:g}"),  # as typed
    )
    add_variant_options(p)
    p.set_defaults(run=run_bench)


def run_bench(args: argparse.Namespace) -> int:
    _check_options(args)
    if args.rl:
        return run_bench_rl(args)
    return run_bench_playouts(args)


def _check_options(args: argparse.Namespace) -> None:
    """Refuse an option that does not apply to the benchmark asked for rather than silently ignore it."""
    t: Translator = args.translator
    if args.rl and args.deals is not None:
        raise CommandError(t("cli.bench.rl.no_deals", deals="--deals", rl="--rl"))
    if not args.rl:
        for option, value in (("--sizes", args.sizes), ("--seconds", args.seconds)):
            if value is not None:
                raise CommandError(t("cli.bench.rl.only_with_rl", option=option, rl="--rl"))


def run_bench_playouts(args: argparse.Namespace) -> int:
    """Time both implementations; a disagreement between them is raised by the library as a bug."""
    from foursquare.bench import bench, check_agreement  # numba: slow to import, so only when needed

    t: Translator = args.translator
    variant = variant_of(args)
    report = bench(args.deals or DEFAULT_DEALS, variant)
    if args.json:
        print(json.dumps(report))
        check_agreement(report)
        return 0
    lo, hi = report["deals"]
    games = t("cli.bench.games", count=report["games"])
    print(t("cli.bench.title", deals=f"{lo}-{hi}", games=games, variant=_variant_text(report["variant"])))
    k, e = report["kernel"], report["engine"]
    print(
        t(
            "cli.bench.kernel",
            speed=t.number(k["games_per_second"], 0),
            seconds=t.number(k["seconds"], 3),
            compile=t.number(k["compile_seconds"], 2),
        )
    )
    print(t("cli.bench.engine", speed=t.number(e["games_per_second"], 0), seconds=t.number(e["seconds"], 3)))
    print(t("cli.bench.speedup", speedup=t.number(report["speedup"], 0)))
    check_agreement(report)
    print(t("cli.bench.check", count=report["wins"], score=report["total_score"]))
    return 0


def run_bench_rl(args: argparse.Namespace) -> int:
    """Steps per second of the environments; one JSON object with ``--json``, else a table."""
    t: Translator = args.translator
    require_extra("rl", "foursquare bench --rl", t)
    from foursquare.rl.bench import bench_rl  # Gymnasium and numba: slow to import, so only when needed

    sizes = args.sizes or list(DEFAULT_SIZES)
    seconds = args.seconds if args.seconds is not None else DEFAULT_SECONDS
    with _status(sizes, t) as progress:
        report = bench_rl(sizes, seconds, variant_of(args), progress=progress)
    print(json.dumps(report) if args.json else rl_text(report, t))
    return 0


@contextmanager
def _status(sizes: list[int], t: Translator) -> Iterator[Callable[[Any], None] | None]:
    """What is being measured, on standard error while it is a terminal (the run takes a while)."""
    if not sys.stderr.isatty():
        yield None
        return
    from rich.console import Console
    from rich.markup import escape

    remaining = iter(sizes[1:])
    status = Console(stderr=True).status(escape(t("cli.bench.rl.progress", count=sizes[0])))

    def progress(_: Any) -> None:
        following = next(remaining, None)
        if following is not None:
            status.update(escape(t("cli.bench.rl.progress", count=following)))

    with status:
        yield progress


def _variant_text(variant: Mapping[str, Any]) -> str:
    return ", ".join(f"{k}={v}" for k, v in variant.items())


def rl_text(report: Mapping[str, Any], t: Translator) -> str:
    """The report as a table: one column per number of environments, one row per figure, in steps/s."""
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    m = report["machine"]
    sizes = list(report["sizes"].values())
    title = t("cli.bench.rl.title", seconds=report["seconds"], variant=_variant_text(report["variant"]))

    def load(values: list[float] | None) -> str:
        return "?" if values is None else t.number(values[0], 2)

    count = m["cpu_count"] or 0
    machine = t(
        "cli.bench.rl.machine",
        count=count,
        usable=m["cpus_usable"] if m["cpus_usable"] is not None else count,
        model=m["cpu_model"] or "?",
        system=f"{m['system']} {m['architecture']}",
        python=f"{m['python_implementation']} {m['python']}",
        before=load(m["load_average_before"]),
        after=load(m["load_average_after"]),
    )
    table = Table(box=None, padding=(0, 1), pad_edge=False)
    table.add_column("")
    for size in sizes:
        table.add_column(escape(t("cli.bench.rl.col.size", count=size["num_envs"])), justify="right")
    figures = ("loop", "loop_cpu", "step", "step_cpu")
    kinds = (
        ("vector", t("cli.bench.rl.kind.vector", vector=NAMES["vector"], option="copy=False")),
        ("vector_copy", t("cli.bench.rl.kind.vector_copy", vector=NAMES["vector"], option="copy=True")),
        ("sync", t("cli.bench.rl.kind.sync", **NAMES)),
    )
    for kind, heading in kinds:
        table.add_row(escape(heading))
        for figure in figures:
            cells = [t.number(round(size[kind][figure])) for size in sizes]  # bn: ১,২৩,৪৫৭
            table.add_row("  " + escape(_figure_label(figure, t)), *cells)
    table.add_row(escape(t("cli.bench.rl.kind.speedup", **NAMES)))
    for figure in figures:
        cells = [t("cli.bench.rl.times", ratio=t.number(size["speedup_" + figure], 1)) for size in sizes]
        table.add_row("  " + escape(_figure_label(figure, t)), *cells)
    console = Console(width=None if sys.stdout.isatty() else 160, no_color=True, highlight=False)
    with console.capture() as captured:
        console.print(table)
    lines = [line.rstrip() for line in captured.get().splitlines()]
    note = t("cli.bench.rl.note", numpy="numpy", taskset="taskset -c 0")
    return "\n".join([title, machine, "", *lines, "", note])


def _figure_label(figure: str, t: Translator) -> str:
    return t(f"cli.bench.rl.{figure}", step="step()")
