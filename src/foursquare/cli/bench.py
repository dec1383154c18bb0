"""``foursquare bench``: greedy playouts, compiled kernel against the pure-Python engine."""

from __future__ import annotations

import argparse
import json
from typing import Any

from foursquare.cli.options import add_variant_options, deal_range, variant_of

TEXT = {
    "title": "greedy playouts over deals {lo}-{hi} ({games}, {variant})",
    "games_1": "1 game",
    "games_n": "{count} games",
    "kernel": "kernel: {gps:,.0f} games/s ({seconds:.3f} s; compiling or loading the cache took {compile:.2f} s)",
    "engine": "engine: {gps:,.0f} games/s ({seconds:.3f} s)",
    "speedup": "speedup: {speedup:,.0f}x",
    "check": "both won {wins} games with a total score of {score}",
}


def register(sub: Any) -> None:
    p = sub.add_parser("bench", help="measure playout speed", description="Greedy playouts: kernel vs engine.")
    p.add_argument("--deals", type=deal_range, default=(1, 1000), metavar="A-B", help="the deals (default 1-1000)")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    add_variant_options(p)
    p.set_defaults(run=run_bench)


def run_bench(args: argparse.Namespace) -> int:
    """Time both implementations; a disagreement between them is raised by the library as a bug."""
    from foursquare.bench import bench, check_agreement  # numba: slow to import, so only when needed

    variant = variant_of(args)
    report = bench(args.deals, variant)
    if args.json:
        print(json.dumps(report))
        check_agreement(report)
        return 0
    lo, hi = report["deals"]
    variant_text = ", ".join(f"{k}={v}" for k, v in variant.to_json().items())
    count = report["games"]
    games = TEXT["games_1"] if count == 1 else TEXT["games_n"].format(count=count)
    print(TEXT["title"].format(lo=lo, hi=hi, games=games, variant=variant_text))
    k, e = report["kernel"], report["engine"]
    print(TEXT["kernel"].format(gps=k["games_per_second"], seconds=k["seconds"], compile=k["compile_seconds"]))
    print(TEXT["engine"].format(gps=e["games_per_second"], seconds=e["seconds"]))
    print(TEXT["speedup"].format(speedup=report["speedup"]))
    check_agreement(report)
    print(TEXT["check"].format(wins=report["wins"], score=report["total_score"]))
    return 0
