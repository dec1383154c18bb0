"""``foursquare study run|report|export``: studies over many deals, stored, resumable, reported."""

from __future__ import annotations

import argparse
import base64
import html
import json
import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

from foursquare.cli.options import (
    CommandError,
    add_variant_options,
    deal_range,
    positive_float,
    positive_int,
    seed_number,
    variant_of,
)

TEXT = {
    "progress": "{what} on deals {deals}",
    "dashboard": "dashboard: {url}",
    "rate": "{rate} deals/s",
    "none": "no study in {db} yet",
    "head": "{what}, {variant} ({settings}), deals {deals}: {done} done",
    "solver_counts": "  winnable {winnable}, unwinnable {unwinnable}, unresolved {unresolved}; "
    "winnable {lo:.2%}-{hi:.2%} (95% Wilson; the unresolved counted unwinnable, then winnable)",
    "solver_scores": "  optimal score of the {proven} proven deals: mean {mean:.3f}; {counts}",
    "players": "  wins {wins}/{games} = {rate:.2%} (95% CI {lo:.2%}-{hi:.2%}), mean score {mean:.3f} "
    "(a loss scores 0), {ms:.2f} ms per move",
    "solver_only": "--timeout is the solver's: a player plays without one (see --time for best)",
    "players_only": "--seed and --time are the players': the solver has no randomness (see --timeout)",
    "best_only": "--time is the best player's thinking time per move; {what} does not think",
    "parquet_out": "--format parquet writes a binary file: give --out FILE",
    "html_title": "Foursquare studies",
    "html_intro": "Every figure below comes from the study database {db} (foursquare study report).",
}
LABELS = {
    "optimal_title": "Optimal score of the proven deals (0: unwinnable)",
    "players_title": "Players' scores against the optimum of the same deals",
    "time_title": "Solver: deals settled within a time (cumulative)",
    "rates_title": "Win rate per variant (95% intervals)",
    "score": "score (cards left in the stock at the win)",
    "deals_share": "share of deals",
    "seconds": "seconds",
    "solved_share": "share of deals settled",
    "win_rate": "win rate",
    "optimum": "optimum",
    "winnable": "winnable",
}
HTML_COLUMNS = ("what", "variant", "settings", "deals", "done", "figures")


def register(sub: Any) -> None:
    p = sub.add_parser("study", help="run and report studies over many deals", description=__doc__)
    commands = p.add_subparsers(
        dest="study_command", metavar="SUBCOMMAND", required=True,
        help="run: compute a study's missing deals; report: its figures; export: its rows",
    )
    _register_run(commands)
    r = commands.add_parser("report", help="the figures of every study in a database")
    _add_db(r)
    r.add_argument("--json", action="store_true", help="one JSON object")
    r.add_argument("--html", metavar="FILE", help="also write one self-contained HTML page")
    r.add_argument("--plots", metavar="DIR", help="also write the plots as PNG files")
    r.set_defaults(run=run_report)
    e = commands.add_parser("export", help="one row per deal, as JSON lines, CSV or Parquet")
    _add_db(e)
    e.add_argument(
        "--format", required=True, choices=("jsonl", "csv", "parquet"), help="one line or row per deal in this format"
    )
    e.add_argument("--out", metavar="FILE", help="default: standard output")
    e.set_defaults(run=run_export)


def _register_run(commands: Any) -> None:
    p = commands.add_parser("run", help="compute a study's missing deals (resumable)")
    p.add_argument(
        "--what", required=True, choices=("solver", "best", "greedy", "random"),
        help="the perfect-information solver, or a player's games (one seeded game per deal)",
    )
    p.add_argument(
        "--deals", required=True, type=deal_ranges, metavar="A-B", help="deals A to B (or A-B,C-D,... not overlapping)"
    )
    p.add_argument("--timeout", type=positive_float, metavar="S", help="solver: seconds per deal (default 10)")
    p.add_argument("--seed", type=seed_number, default=0, help="players: the random seed (default 0)")
    p.add_argument("--time", type=positive_float, metavar="S", help="best player: thinking time per move")
    _add_db(p)
    where = p.add_mutually_exclusive_group()
    where.add_argument("--workers", type=positive_int, metavar="N", help="local worker processes (default: cores)")
    where.add_argument("--scheduler", metavar="tcp://HOST:PORT", help="an existing dask.distributed scheduler")
    p.add_argument("--json", action="store_true", help="print the study's report as JSON")
    add_variant_options(p)
    p.set_defaults(run=run_study)


def deal_ranges(text: str) -> list[tuple[int, int]]:
    """``A-B`` or several ``A-B,C-D``; each part as :func:`foursquare.cli.options.deal_range` reads it."""
    return [deal_range(part.strip()) for part in text.split(",")]


def _add_db(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--db", metavar="PATH", help="the study database (default: studies.db in the data directory)")


def _db_path(args: argparse.Namespace) -> Path:
    from foursquare.study.store import default_db_path

    return Path(args.db) if args.db else default_db_path()


def run_study(args: argparse.Namespace) -> int:
    """Compute the deals of the study not yet stored, with a progress bar on standard error."""
    from foursquare.study import StudySettings, StudyStore, deal_list
    from foursquare.study import run_study as run
    from foursquare.study.report import deal_ranges as ranges_text
    from foursquare.study.report import study_summary

    _check_settings(args)
    settings = StudySettings(args.what, variant_of(args), timeout=args.timeout, seed=args.seed, time_budget=args.time)
    deals = deal_list(args.deals)
    with StudyStore(_db_path(args)) as store, _ProgressBar(args.what, ranges_text(deals)) as show:
        study = run(store, settings, deals, workers=args.workers, scheduler=args.scheduler, progress=show)
        rows = [r for r in store.results(study) if r.deal in set(deals)]
        summary = study_summary(study, rows)
    print(json.dumps(summary) if args.json else _summary_text(summary))
    return 0


def _check_settings(args: argparse.Namespace) -> None:
    """Refuse an option that does not apply to ``--what`` rather than silently ignore it."""
    if args.what != "solver" and args.timeout is not None:
        raise CommandError(TEXT["solver_only"])
    if args.what == "solver" and (args.seed != 0 or args.time is not None):
        raise CommandError(TEXT["players_only"])
    if args.what in ("greedy", "random") and args.time is not None:
        raise CommandError(TEXT["best_only"].format(what=args.what))


class _ProgressBar:
    """A rich progress bar on standard error: deals done, rate, time left and the dashboard's address."""

    def __init__(self, what: str, deals: str) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

        rate = TextColumn("{task.fields[rate]}")
        columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), rate, TimeRemainingColumn())
        self._bar = Progress(*columns, TextColumn("{task.fields[dashboard]}"), console=Console(stderr=True))
        self._task = self._bar.add_task(TEXT["progress"].format(what=what, deals=deals), rate="", dashboard="")
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
        dashboard = TEXT["dashboard"].format(url=progress.dashboard) if progress.dashboard else ""
        elapsed = task.elapsed or 0.0
        speed = (progress.done - self._first) / elapsed if elapsed > 0 else 0.0
        rate = TEXT["rate"].format(rate=f"{speed:.1f}") if speed else ""
        self._bar.update(self._task, completed=progress.done, total=progress.total, rate=rate, dashboard=dashboard)


def run_report(args: argparse.Namespace) -> int:
    """Every study's figures as text or JSON; optionally the plots and an HTML page."""
    from foursquare.study import StudyStore
    from foursquare.study.plots import write_plots
    from foursquare.study.report import report

    db = _db_path(args)
    if not db.exists():
        raise ValueError(TEXT["none"].format(db=db))
    with StudyStore(db) as store:
        data = report(store)
        studies = [(study, store.results(study)) for study in store.studies()]
    if args.plots:
        write_plots(studies, args.plots, LABELS)
    if args.html:
        with tempfile.TemporaryDirectory() as tmp:
            pictures = write_plots(studies, args.plots or tmp, LABELS)
            page = report_html(data, db, pictures)
        _write_atomic(Path(args.html), page)
    if args.json:
        print(json.dumps(data))
    elif not data["studies"]:
        print(TEXT["none"].format(db=db))
    else:
        print("\n".join(_summary_text(s) for s in data["studies"]))
    return 0


def _summary_text(s: dict[str, Any]) -> str:
    variant = s["variant"]["adjacency"] + (", count-buried" if s["variant"]["count_buried"] else "")
    settings = ", ".join(f"{k} {v}" for k, v in s["settings"].items() if v is not None)
    lines = [
        TEXT["head"].format(what=s["what"], variant=variant, settings=settings, deals=s["deals"] or "-", done=s["done"])
    ]
    if s["what"] == "solver":
        lo, hi = s["winnable_ci95"]
        lines.append(TEXT["solver_counts"].format(lo=lo, hi=hi, **s))
        counts = ", ".join(f"{k}: {v}" for k, v in s["score_counts"].items())
        proven = sum(s["score_counts"].values())
        lines.append(TEXT["solver_scores"].format(proven=proven, mean=s["mean_optimal_score"], counts=counts))
    else:
        lo, hi = s["ci95"]
        ms = s["seconds_per_move"] * 1000
        lines.append(
            TEXT["players"].format(
                wins=s["wins"], games=s["games"], rate=s["win_rate"], lo=lo, hi=hi, mean=s["mean_score"], ms=ms
            )
        )
    return "\n".join(lines)


def report_html(data: dict[str, Any], db: Path, pictures: list[Path]) -> str:
    """One page with the report's table and its plots inlined (no file or network beside it)."""
    rows = []
    for s in data["studies"]:
        figures = _summary_text(s).split("\n")[1:]
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
    head = "".join(f"<th>{html.escape(c)}</th>" for c in HTML_COLUMNS)
    title = html.escape(TEXT["html_title"])
    return (
        f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{title}</title>'
        "<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}"
        "td,th{border:1px solid #999;padding:4px 8px;vertical-align:top;font-size:14px}img{max-width:100%}</style>"
        f"</head><body><h1>{title}</h1><p>{html.escape(TEXT['html_intro'].format(db=db))}</p>"
        f"<table><tr>{head}</tr>{''.join(rows)}</table>{images}</body></html>\n"
    )


def run_export(args: argparse.Namespace) -> int:
    """One row per deal to a file (written atomically) or standard output."""
    from foursquare.study import StudyStore
    from foursquare.study.export import write_csv, write_jsonl, write_parquet

    db = _db_path(args)
    if not db.exists():
        raise ValueError(TEXT["none"].format(db=db))
    if args.format == "parquet" and not args.out:
        raise ValueError(TEXT["parquet_out"])
    with StudyStore(db) as store:
        if args.format == "parquet":
            out = Path(args.out)
            tmp = out.with_name(out.name + ".tmp")
            write_parquet(store, str(tmp))
            tmp.replace(out)
            return 0
        writer = write_jsonl if args.format == "jsonl" else write_csv
        if not args.out:
            writer(store, sys.stdout)
            return 0
        _write_atomic(Path(args.out), lambda f: writer(store, f))
    return 0


def _write_atomic(path: Path, content: str | Callable[[TextIO], object]) -> None:
    """Write a text file through a temporary one beside it, so a reader never sees half of it."""
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "w", encoding="utf-8", newline="") as f:
        if isinstance(content, str):
            f.write(content)
        else:
            content(f)
        f.flush()
        os.fsync(f.fileno())
    tmp.replace(path)
