"""``foursquare study run|report|export|import``: studies over many deals, stored, resumable, reported."""

from __future__ import annotations

import argparse
import base64
import contextlib
import html
import itertools
import json
import os
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from foursquare.cli.extras import require_extra
from foursquare.cli.options import (
    DEFAULT_NODES,
    DEFAULT_NODES_SECONDS,
    CommandError,
    add_variant_options,
    deal_range,
    node_budget,
    positive_float,
    positive_int,
    seed_number,
    variant_of,
)
from foursquare.cli.parser import OptionError, help_text
from foursquare.files import atomic_path, write_text
from foursquare.i18n import Translator, translator

#: The keys of the plots' labels (``foursquare.study.plots``): ``cli.study.plot.<key>`` in the catalogue.
PLOT_LABELS = (
    "optimal_title",
    "players_title",
    "time_title",
    "rates_title",
    "score",
    "deals_share",
    "seconds",
    "solved_share",
    "win_rate",
    "optimum",
    "winnable",
)
HTML_COLUMNS = ("what", "variant", "settings", "deals", "done", "figures")
# Caps on the options of ``study run``, so that a typing slip is an error rather than a machine brought down.
WORKERS_PER_PROCESSOR = 4
MAX_TIMEOUT = 86_400.0  # the solver's seconds per deal: a day
MAX_MOVE_TIME = 3_600.0  # the best player's seconds per move: an hour


def plot_labels(t: Translator) -> dict[str, str]:
    return {key: t(f"cli.study.plot.{key}") for key in PLOT_LABELS}


def register(sub: Any, t: Translator | None = None) -> None:
    t = t or sub.translator
    p = sub.add_parser("study", help=help_text(t, "cli.study.help"), description=t("cli.study.description"))
    commands = p.add_subparsers(
        dest="study_command",
        metavar="SUBCOMMAND",
        required=True,
        help=help_text(
            t, "cli.study.commands.help", run="run", report="report", export="export", **{"import": "import"}
        ),
    )
    _register_run(commands, t)
    r = commands.add_parser("report", help=help_text(t, "cli.study.report.help"))
    _add_db(r, t)
    r.add_argument("--json", action="store_true", help=help_text(t, "cli.study.report.json.help"))
    r.add_argument("--html", metavar="FILE", help=help_text(t, "cli.study.report.html.help"))
    r.add_argument("--plots", metavar="DIR", help=help_text(t, "cli.study.report.plots.help"))
    r.set_defaults(run=run_report)
    e = commands.add_parser("export", help=help_text(t, "cli.study.export.help"))
    _add_db(e, t)
    e.add_argument(
        "--format",
        required=True,
        choices=("jsonl", "csv", "parquet"),
        help=help_text(t, "cli.study.export.format.help"),
    )
    e.add_argument("--out", metavar="FILE", help=help_text(t, "cli.study.export.out.help"))
    e.set_defaults(run=run_export)
    i = commands.add_parser("import", help=help_text(t, "cli.study.import.help", export="export"))
    i.add_argument("file", metavar="FILE", help=help_text(t, "cli.study.import.file.help"))
    _add_db(i, t)
    i.set_defaults(run=run_import)


def _register_run(commands: Any, t: Translator) -> None:
    p = commands.add_parser("run", help=help_text(t, "cli.study.run.help"))
    p.add_argument(
        "--what",
        required=True,
        choices=("solver", "expert", "best", "greedy", "random"),
        help=help_text(t, "cli.study.what.help"),
    )
    p.add_argument("--deals", required=True, type=deal_ranges, metavar="A-B", help=help_text(t, "cli.study.deals.help"))
    p.add_argument("--timeout", type=timeout_seconds, metavar="S", help=help_text(t, "cli.study.timeout.help"))
    default = t.number(DEFAULT_NODES)
    nodes_help = help_text(t, "cli.study.nodes.help", default=default, seconds=t.number(DEFAULT_NODES_SECONDS))
    p.add_argument("--nodes", type=node_budget, metavar="N", help=nodes_help)
    p.add_argument("--seed", type=seed_number, default=0, help=help_text(t, "cli.study.seed.help"))
    p.add_argument("--time", type=move_seconds, metavar="S", help=help_text(t, "cli.study.time.help"))
    _add_db(p, t)
    where = p.add_mutually_exclusive_group()
    where.add_argument("--workers", type=workers_number, metavar="N", help=help_text(t, "cli.study.workers.help"))
    where.add_argument(
        "--scheduler",
        metavar="tcp://HOST:PORT",
        help=help_text(t, "cli.study.scheduler.help", library="dask.distributed"),
    )
    p.add_argument("--json", action="store_true", help=help_text(t, "cli.study.json.help"))
    p.add_argument("--no-progress", action="store_true", help=help_text(t, "cli.study.no_progress.help"))
    add_variant_options(p)
    p.set_defaults(run=run_study)


def max_workers() -> int:
    """The most local worker processes a run starts: ``WORKERS_PER_PROCESSOR`` per processor."""
    return WORKERS_PER_PROCESSOR * (os.cpu_count() or 1)


def workers_number(text: str) -> int:
    """``--workers``: at least 1, at most :func:`max_workers` (each worker is a process of its own)."""
    value = positive_int(text)
    if value > max_workers():
        raise OptionError("cli.study.too_many_workers", value=repr(text), max=str(max_workers()))
    return value


def _seconds_up_to(limit: float) -> Callable[[str], float]:
    def seconds(text: str) -> float:
        value = positive_float(text)
        if value > limit:
            raise OptionError("cli.study.too_long", value=repr(text), max=f"{limit:g}")
        return value

    return seconds


timeout_seconds = _seconds_up_to(MAX_TIMEOUT)
move_seconds = _seconds_up_to(MAX_MOVE_TIME)


def deal_ranges(text: str) -> list[tuple[int, int]]:
    """``A-B`` or several ``A-B,C-D``; each part as :func:`foursquare.cli.options.deal_range` reads it."""
    return [deal_range(part.strip()) for part in text.split(",")]


def _check_overlap(ranges: list[tuple[int, int]], t: Translator) -> None:
    """Ranges that share a deal are refused in words here (the library would say it in English)."""
    ordered = sorted(ranges)
    for (lo1, hi1), (lo2, hi2) in itertools.pairwise(ordered):
        if lo2 <= hi1:
            raise CommandError(t("cli.study.overlap", first=f"{lo1}-{hi1}", second=f"{lo2}-{hi2}"))


def _add_db(parser: argparse.ArgumentParser, t: Translator) -> None:
    parser.add_argument("--db", metavar="PATH", help=help_text(t, "cli.study.db.help", file="studies.db"))


def _db_path(args: argparse.Namespace) -> Path:
    from foursquare.study.store import default_db_path

    return Path(args.db) if args.db else default_db_path()


def run_study(args: argparse.Namespace) -> int:
    """Compute the deals of the study not yet stored, with a progress bar on standard error.

    The deals are ranges, never listed: a study of any size starts at once. Interrupted (Ctrl-C, or a signal
    the command line turns into an exception), the rows stored so far stay and the next run continues them."""
    require_extra("study", "foursquare study run", args.translator)
    from foursquare.study import Deals, StudySettings, StudyStore
    from foursquare.study import run_study as run
    from foursquare.study.report import study_summary

    t: Translator = args.translator
    _check_settings(args)
    _check_overlap(args.deals, t)
    settings = StudySettings(
        args.what, variant_of(args), timeout=args.timeout, seed=args.seed, time_budget=args.time, node_budget=args.nodes
    )
    deals = Deals.of(args.deals)
    with StudyStore(_db_path(args)) as store, _progress(args, deals) as show:
        study = run(store, settings, deals, workers=args.workers, scheduler=args.scheduler, progress=show)
        summary = study_summary(study, (r for r in store.iter_results(study) if r.deal in deals))
    print(json.dumps(summary) if args.json else _summary_text(summary, t))
    return 0


def _progress(args: argparse.Namespace, deals: Any) -> contextlib.AbstractContextManager[Callable[[Any], None] | None]:
    """The progress bar, unless ``--no-progress`` or standard error is not a terminal (a log, a pipe)."""
    if args.no_progress or not sys.stderr.isatty():
        return contextlib.nullcontext(None)
    return _ProgressBar(args.what, deals.text(), deals.count, args.translator)


def _check_settings(args: argparse.Namespace) -> None:
    """Refuse an option that does not apply to ``--what`` rather than silently ignore it."""
    t: Translator = args.translator
    for option, value in (("--timeout", args.timeout), ("--nodes", args.nodes)):
        if args.what != "solver" and value is not None:
            raise CommandError(t("cli.study.solver_only", timeout=option, time="--time", best="best"))
    if args.what == "solver" and (args.seed != 0 or args.time is not None):
        raise CommandError(t("cli.study.players_only", seed="--seed", time="--time", timeout="--timeout"))
    if args.what in ("expert", "greedy", "random") and args.time is not None:
        raise CommandError(t("cli.study.best_only", time="--time", what=args.what))


class _ProgressBar:
    """A rich progress bar on standard error: deals done of the total (known from the start), the rate of this
    run's deals, the time left and the dashboard's address."""

    def __init__(self, what: str, deals: str, total: int, t: Translator) -> None:
        from rich.console import Console
        from rich.markup import escape
        from rich.progress import BarColumn, Progress, TextColumn
        from rich.table import Column

        from foursquare.cli.progress import CountColumn, TimeLeftColumn

        self._t = t
        # What must stay whole (the count, the rate, the time left) never wraps; a long description is cut short.
        rate = TextColumn("{task.fields[rate]}", markup=False, table_column=Column(no_wrap=True))
        about = TextColumn("{task.description}", table_column=Column(no_wrap=True, overflow="ellipsis", max_width=30))
        columns = (
            about,
            BarColumn(bar_width=20),
            CountColumn(t, Column(no_wrap=True)),
            rate,
            TimeLeftColumn(t, Column(no_wrap=True)),
        )
        dashboard = TextColumn("{task.fields[dashboard]}", markup=False)
        self._bar = Progress(*columns, dashboard, console=Console(stderr=True))
        description = escape(t("cli.study.progress", what=what, deals=deals))
        self._task = self._bar.add_task(description, total=total, rate="", dashboard="", left=None)
        self._started = False

    def __enter__(self) -> Callable[[Any], None]:
        self._bar.__enter__()
        return self._update

    def __exit__(self, *exc: Any) -> None:
        self._bar.__exit__(*exc)

    def _update(self, progress: Any) -> None:
        task = self._bar.tasks[0]
        t = self._t
        dashboard = t("cli.study.dashboard", url=progress.dashboard) if progress.dashboard else ""
        elapsed = task.elapsed or 0.0
        speed = progress.computed / elapsed if elapsed > 0 else 0.0  # deals found stored do not count
        rate = t("cli.study.rate", rate=t.number(speed, 1)) if speed else ""
        # The time left at the rate shown, so that the two agree (rich's estimate is of the last seconds alone).
        left = max(0, progress.total - progress.done) / speed if speed else None
        shown = {"completed": progress.done, "total": progress.total, "rate": rate, "dashboard": dashboard}
        shown["left"] = left
        if not self._started:  # the deals found stored are no progress of this run: not in rich's speed either
            self._started = True
            self._bar.reset(self._task, **shown)
            return
        self._bar.update(self._task, **shown)


def run_report(args: argparse.Namespace) -> int:
    """Every study's figures as text or JSON; optionally the plots and an HTML page (read in one pass per study:
    a study of any size)."""
    if args.plots or args.html:  # drawn with matplotlib; the figures alone need nothing more
        require_extra("study", "foursquare study report", args.translator)
    from foursquare.study import StudyStore
    from foursquare.study.plots import missing_plots, write_plots
    from foursquare.study.report import report

    t: Translator = args.translator
    db = _db_path(args)
    if not db.exists():
        raise CommandError(t("cli.study.none", db=str(db)))
    with StudyStore(db, read_only=True) as store:  # a report writes nothing into the database
        data = report(store)
        missing = missing_plots(store.studies()) if data["studies"] else ()
        if args.plots:
            write_plots(store, args.plots, plot_labels(t))
            for note in _missing_notes(missing, t, page=False):
                print(note, file=sys.stderr)
        if args.html:
            with tempfile.TemporaryDirectory() as tmp:
                pictures = write_plots(store, args.plots or tmp, plot_labels(t))
                page = report_html(data, db, pictures, t, _missing_notes(missing, t, page=True))
            write_text(args.html, page)
    if args.json:
        print(json.dumps(data))
    elif not data["studies"]:
        print(t("cli.study.none", db=str(db)))
    else:
        print("\n".join(_summary_text(s, t) for s in data["studies"]))
    return 0


#: The title (a key of :data:`PLOT_LABELS`) of each plot, by file name.
PLOT_TITLES = {
    "optimal_scores.png": "optimal_title",
    "player_scores.png": "players_title",
    "solver_time.png": "time_title",
    "win_rates.png": "rates_title",
}


def _missing_notes(missing: tuple[str, ...], t: Translator, *, page: bool) -> list[str]:
    """Why each plot left out is missing: the kind of study it is drawn from is not in the database. The plots
    are named by file for the terminal; for the HTML page (``page``, which shows no file names) by their titles,
    each in the page language's quotation marks (``<q>``), and the notes are HTML."""
    from foursquare.study.plots import PLAYER_PLOTS, SOLVER_PLOTS

    def note(key: str, plots: tuple[str, ...], command: str) -> str:
        if not page:
            return t(key, plots=", ".join(plots), command=command)
        marker = "\x00"  # where the titles go, once the rest is escaped
        titles = ", ".join(f"<q>{html.escape(t(f'cli.study.plot.{PLOT_TITLES[p]}'))}</q>" for p in plots)
        return html.escape(t(key, plots=marker, command=command)).replace(marker, titles)

    notes = []
    solver = tuple(p for p in SOLVER_PLOTS if p in missing)
    player = tuple(p for p in PLAYER_PLOTS if p in missing)
    if solver:
        notes.append(note("cli.study.plots.no_solver", solver, "foursquare study run --what solver"))
    if player:
        notes.append(note("cli.study.plots.no_player", player, "foursquare study run --what expert|best|greedy|random"))
    return notes


def _summary_text(s: dict[str, Any], t: Translator) -> str:
    variant = variant_text(s["variant"])
    settings = ", ".join(f"{k} {v}" for k, v in s["settings"].items() if v is not None)
    deals = s["deals"] or "-"
    lines = [t("cli.study.head", what=s["what"], variant=variant, settings=settings, deals=deals, done=s["done"])]
    if s["what"] == "solver":
        lo, hi = s["winnable_ci95"]
        counts = ", ".join(f"{t.number(int(k))}: {t.number(v)}" for k, v in s["score_counts"].items())
        proven = sum(s["score_counts"].values())
        lines.append(
            "  "
            + t(
                "cli.study.solver_counts",
                winnable=s["winnable"],
                unwinnable=s["unwinnable"],
                unresolved=s["unresolved"],
                low=t.percent(lo, 2),
                high=t.percent(hi, 2),
            )
        )
        mean = "-" if s["mean_optimal_score"] is None else t.number(s["mean_optimal_score"], 3)
        lines.append("  " + t("cli.study.solver_scores", proven=proven, mean=mean, counts=counts))
    else:
        lo, hi = s["ci95"]
        lines.append(
            "  "
            + t(
                "cli.study.players",
                wins=s["wins"],
                games=s["games"],
                rate=t.percent(s["win_rate"], 2),
                low=t.percent(lo, 2),
                high=t.percent(hi, 2),
                mean=t.number(s["mean_score"], 3),
                ms=t.number(s["seconds_per_move"] * 1000, 2),
            )
        )
    return "\n".join(lines)


def variant_text(variant: dict[str, Any]) -> str:
    """The house rules as the options that choose them read: ``orthogonal``, ``diagonal, count-buried``."""
    return str(variant["adjacency"]) + (", count-buried" if variant["count_buried"] else "")


def settings_text(settings: dict[str, Any], t: Translator) -> str:
    """A study's settings (``report --json``'s ``settings``) as a person reads them: ``10 s per deal``."""
    parts = []
    if settings.get("timeout") is not None:
        parts.append(t("cli.study.html.timeout", seconds=t.number(settings["timeout"])))
    if settings.get("node_budget") is not None:
        parts.append(t("cli.study.html.node_budget", nodes=t.number(settings["node_budget"])))
    if "seed" in settings:
        parts.append(t("cli.study.html.seed", seed=str(settings["seed"])))
    if "time_budget" in settings:
        budget = settings["time_budget"]
        no_budget = t("cli.study.html.playouts")
        parts.append(no_budget if budget is None else t("cli.study.html.time_budget", seconds=t.number(budget)))
    if settings.get("version"):
        parts.append(t("cli.study.html.version", version=str(settings["version"])))
    return "; ".join(parts)


def report_html(
    data: dict[str, Any], db: Path, pictures: list[Path], t: Translator | None = None, notes: Sequence[str] = ()
) -> str:
    """One page with the report's table and its plots inlined (no file or network beside it); ``notes`` (HTML) say
    why a plot is missing."""
    t = t or translator("en")
    rows = []
    for s in data["studies"]:
        figures = _summary_text(s, t).split("\n")[1:]
        cells = [s["what"], variant_text(s["variant"]), settings_text(s["settings"], t), s["deals"] or "-"]
        cells.append(t.number(s["done"]))
        cells = [html.escape(c) for c in cells]
        cells.append("<br>".join(html.escape(f.strip()) for f in figures))
        rows.append("<tr>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
    images = "".join(
        f'<figure><img alt="{html.escape(p.stem)}" src="data:image/png;base64,'
        f'{base64.b64encode(p.read_bytes()).decode()}"></figure>'
        for p in pictures
    )
    missing = "".join(f'<p class="note">{note}</p>' for note in notes)
    head = "".join(f"<th>{html.escape(t(f'cli.study.html.col.{c}'))}</th>" for c in HTML_COLUMNS)
    title = html.escape(t("cli.study.html.title"))
    intro = html.escape(t("cli.study.html.intro", db=str(db), command="foursquare study report"))
    return (
        f'<!doctype html><html lang="{t.code}"><head><meta charset="utf-8"><title>{title}</title>'
        "<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}"
        "td,th{border:1px solid #999;padding:4px 8px;vertical-align:top;font-size:14px}img{max-width:100%}"
        ".note{font-style:italic}</style>"
        f"</head><body><h1>{title}</h1><p>{intro}</p>"
        f"<table><tr>{head}</tr>{''.join(rows)}</table>{missing}{images}</body></html>\n"
    )


def run_export(args: argparse.Namespace) -> int:
    """One row per deal to a file (written atomically) or standard output."""
    from foursquare.study import StudyStore
    from foursquare.study.export import write_csv, write_jsonl, write_parquet

    t: Translator = args.translator
    db = _db_path(args)
    if not db.exists():
        raise CommandError(t("cli.study.none", db=str(db)))
    if args.format == "parquet" and not args.out:
        raise CommandError(t("cli.study.parquet_out", format="--format parquet", out="--out FILE"))
    with StudyStore(db, read_only=True) as store:
        if args.format == "parquet":
            with atomic_path(args.out, suffix=".parquet") as temporary:
                write_parquet(store, str(temporary))
            return 0
        writer = write_jsonl if args.format == "jsonl" else write_csv
        if not args.out:
            writer(store, sys.stdout)
            return 0
        write_text(args.out, lambda f: writer(store, f))
    return 0


def run_import(args: argparse.Namespace) -> int:
    """Rows of an exported file into a database (all of them or, on a bad line, none)."""
    from foursquare.study import StudyStore
    from foursquare.study.importing import import_rows, read_rows

    t: Translator = args.translator
    rows = read_rows(args.file)  # the whole file is checked before the database is opened
    db = _db_path(args)
    with StudyStore(db) as store:
        added = import_rows(store, rows)
    kept = sum(len(r) for r in rows.values()) - added
    print(t("cli.study.imported", count=added, db=str(db)))
    if kept:
        print(t("cli.study.import_kept", count=kept))
    return 0
