"""``foursquare bench``: greedy playouts, compiled kernel against the pure-Python engine."""

from __future__ import annotations

import argparse
import json
from typing import Any

from foursquare.cli.options import add_variant_options, deal_range, variant_of
from foursquare.cli.parser import help_text
from foursquare.i18n import Translator


def register(sub: Any, t: Translator | None = None) -> None:
    t = t or sub.translator
    p = sub.add_parser("bench", help=help_text(t, "cli.bench.help"), description=t("cli.bench.description"))
    p.add_argument(
        "--deals", type=deal_range, default=(1, 1000), metavar="A-B", help=help_text(t, "cli.bench.deals.help")
    )
    p.add_argument("--json", action="store_true", help=help_text(t, "cli.bench.json.help"))
    add_variant_options(p)
    p.set_defaults(run=run_bench)


def run_bench(args: argparse.Namespace) -> int:
    """Time both implementations; a disagreement between them is raised by the library as a bug."""
    from foursquare.bench import bench, check_agreement  # numba: slow to import, so only when needed

    t: Translator = args.translator
    variant = variant_of(args)
    report = bench(args.deals, variant)
    if args.json:
        print(json.dumps(report))
        check_agreement(report)
        return 0
    lo, hi = report["deals"]
    variant_text = ", ".join(f"{k}={v}" for k, v in variant.to_json().items())
    games = t("cli.bench.games", count=report["games"])
    print(t("cli.bench.title", deals=f"{lo}-{hi}", games=games, variant=variant_text))
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
