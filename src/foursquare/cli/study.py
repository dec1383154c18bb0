"""``foursquare study run|report|export|import``: studies over many deals, stored, resumable, reported."""

from __future__ import annotations

import argparse
import base64
import html
import itertools
import json
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from foursquare.cli.extras import require_extra
from foursquare.cli.options import (
    CommandError,
    add_variant_options,
    deal_range,
    positive_float,
    positive_int,
    seed_number,
    variant_of,
)
from foursquare.cli.parser import help_text
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
        choices=("solver", "best", "greedy", "random"),
        help=help_text(t, "cli.study.what.help"),
    )
    p.add_argument("--deals", required=True, type=deal_ranges, metavar="A-B", help=help_text(t, "cli.study.deals.help"))
    p.add_argument("--timeout", type=positive_float, metavar="S", help=help_text(t, "cli.study.timeout.help"))
    p.add_argument("--seed", type=seed_number, default=0, help=help_text(t, "cli.study.seed.help"))
    p.add_argument("--time", type=positive_float, metavar="S", help=help_text(t, "cli.study.time.help"))
    _add_db(p, t)
    where = p.add_mutually_exclusive_group()
    where.add_argument("--workers", type=positive_int, metavar="N", help=help_text(t, "cli.study.workers.help"))
    where.add_argument(
        "--scheduler",
        metavar="tcp://HOST:PORT",
        help=help_text(t, "cli.study.scheduler.help", library="dask.distributed"),
    )
    p.add_argument("--json", action="store_true", help=help_text(t, "cli.study.json.help"))
    add_variant_options(p)
    p.set_defaults(run=run_study)


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
    """Compute the deals of the study not yet stored, with a progress bar on standard error."""
    require_extra("study", "foursquare study run", args.translator)
    from foursquare.study import StudySettings, StudyStore, deal_list
    from foursquare.study import run_study as run
    from foursquare.study.report import deal_ranges as ranges_text
    from foursquare.study.report import study_summary

    t: Translator = args.translator
    _check_settings(args)
    _check_overlap(args.deals, t)
    settings = StudySettings(args.what, variant_of(args), timeout=args.timeout, seed=args.seed, time_budget=args.time)
    deals = deal_list(args.deals)
    with StudyStore(_db_path(args)) as store, _ProgressBar(args.what, ranges_text(deals), t) as show:
        study = run(store, settings, deals, workers=args.workers, scheduler=args.scheduler, progress=show)
        rows = [r for r in store.results(study) if r.deal in set(deals)]
        summary = study_summary(study, rows)
    print(json.dumps(summary) if args.json else _summary_text(summary, t))
    return 0


def _check_settings(args: argparse.Namespace) -> None:
    """Refuse an option that does not apply to ``--what`` rather than silently ignore it."""
    t: Translator = args.translator
    if args.what != "solver" and args.timeout is not None:
        raise CommandError(t("cli.study.solver_only", timeout="--timeout", time="--time", best="best"))
    if args.what == "solver" and (args.seed != 0 or args.time is not None):
        raise CommandError(t("cli.study.players_only", seed="--seed", time="--time", timeout="--timeout"))
    if args.what in ("greedy", "random") and args.time is not None:
        raise CommandError(t("cli.study.best_only", time="--time", what=args.what))


class _ProgressBar:
    """A rich progress bar on standard error: deals done, rate, time left and the dashboard's address."""

    def __init__(self, what: str, deals: str, t: Translator) -> None:
        from rich.console import Console
        from rich.markup import escape
        from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

        from foursquare.cli.progress import CountColumn

        self._t = t
        rate = TextColumn("{task.fields[rate]}", markup=False)
        columns = (TextColumn("{task.description}"), BarColumn(), CountColumn(t), rate, TimeRemainingColumn())
        dashboard = TextColumn("{task.fields[dashboard]}", markup=False)
        self._bar = Progress(*columns, dashboard, console=Console(stderr=True))
        description = escape(t("cli.study.progress", what=what, deals=deals))
        self._task = self._bar.add_task(description, rate="", dashboard="")
        self._first: int | None = None

    def __enter__(self) -> Callable[[Any], None]:
        self._bar.__enter__()
        return self._update

    def __exit__(self, *exc: Any) -> None:
        self._bar.__exit__(*exc)

    def _update(self, progress: Any) -> None:
        task = self._bar.tasks[0]
        if self._first is None:
            self._first = progress.done  # resumed deals do not count towards the rate
        t = self._t
        dashboard = t("cli.study.dashboard", url=progress.dashboard) if progress.dashboard else ""
        elapsed = task.elapsed or 0.0
        speed = (progress.done - self._first) / elapsed if elapsed > 0 else 0.0
        rate = t("cli.study.rate", rate=t.number(speed, 1)) if speed else ""
        self._bar.update(self._task, completed=progress.done, total=progress.total, rate=rate, dashboard=dashboard)


def run_report(args: argparse.Namespace) -> int:
    """Every study's figures as text or JSON; optionally the plots and an HTML page."""
    if args.plots or args.html:  # drawn with matplotlib; the figures alone need nothing more
        require_extra("study", "foursquare study report", args.translator)
    from foursquare.study import StudyStore
    from foursquare.study.plots import write_plots
    from foursquare.study.report import report

    t: Translator = args.translator
    db = _db_path(args)
    if not db.exists():
        raise CommandError(t("cli.study.none", db=str(db)))
    with StudyStore(db) as store:
        data = report(store)
        studies = [(study, store.results(study)) for study in store.studies()]
    if args.plots:
        write_plots(studies, args.plots, plot_labels(t))
    if args.html:
        with tempfile.TemporaryDirectory() as tmp:
            pictures = write_plots(studies, args.plots or tmp, plot_labels(t))
            page = report_html(data, db, pictures, t)
        write_text(args.html, page)
    if args.json:
        print(json.dumps(data))
    elif not data["studies"]:
        print(t("cli.study.none", db=str(db)))
    else:
        print("\n".join(_summary_text(s, t) for s in data["studies"]))
    return 0


def _summary_text(s: dict[str, Any], t: Translator) -> str:
    variant = s["variant"]["adjacency"] + (", count-buried" if s["variant"]["count_buried"] else "")
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


def report_html(data: dict[str, Any], db: Path, pictures: list[Path], t: Translator | None = None) -> str:
    """One page with the report's table and its plots inlined (no file or network beside it)."""
    t = t or translator("en")
    rows = []
    for s in data["studies"]:
        figures = _summary_text(s, t).split("\n")[1:]
        cells = [s["what"], json.dumps(s["variant"]), json.dumps(s["settings"]), s["deals"], str(s["done"])]
        cells.append("<br>".join(html.escape(f.strip()) for f in figures))
        rows.append(
            "<tr>" + "".join(f"<td>{c if i == 5 else html.escape(c)}</td>" for i, c in enumerate(cells)) + "</tr>"
        )
    images = "".join(
        f'<figure><img alt="{html.escape(p.stem)}" src="data:image/png;base64,'
        f'{base64.b64encode(p.read_bytes()).decode()}"></figure>'
        for p in pictures
    )
    head = "".join(f"<th>{html.escape(t(f'cli.study.html.col.{c}'))}</th>" for c in HTML_COLUMNS)
    title = html.escape(t("cli.study.html.title"))
    intro = html.escape(t("cli.study.html.intro", db=str(db), command="foursquare study report"))
    return (
        f'<!doctype html><html lang="{t.code}"><head><meta charset="utf-8"><title>{title}</title>'
        "<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}"
        "td,th{border:1px solid #999;padding:4px 8px;vertical-align:top;font-size:14px}img{max-width:100%}</style>"
        f"</head><body><h1>{title}</h1><p>{intro}</p>"
        f"<table><tr>{head}</tr>{''.join(rows)}</table>{images}</body></html>\n"
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
    with StudyStore(db) as store:
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


