"""Play deals FIRST..LAST with a variant of the expert player and with the best player, and compare them.

    .venv/bin/python benchmarks/expert_variants.py 1 40 safety=0.15 per_rank=1 [jobs=2] > variants.jsonl

Settings are ``ExpertPlayer``'s keyword arguments (``width``, ``safety``, ``per_rank``, ``search_nodes``); none
gives the expert as ``make_player("expert")`` makes it. One JSON line per deal and player (outcome, score,
wall-clock seconds of each move), then the summary: wins and mean score of each, the paired difference of
the scores with its standard error, the expert's time per move (mean, p50, p95) and the deals each lost.
The games are the same on every run (seeded players, node-bounded searches); the times are not.
"""

from __future__ import annotations

import json
import statistics
import sys
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from foursquare.engine import Game
from foursquare.players import make_player, play_game, warm_up
from foursquare.players.expert import ExpertPlayer


def play(job: tuple[str, int, dict[str, Any]]) -> dict[str, Any]:
    who, deal, settings = job
    if who == "best":
        player: Any = make_player("best", seed=0)
    else:
        player = ExpertPlayer(0, **settings) if settings else make_player("expert", seed=0)
    result = play_game(player, Game(deal=deal))
    return {"player": who, "deal": deal, "won": result.won, "score": result.score,
            "times": [round(t, 4) for t in result.move_seconds]}


def summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    by = {who: {r["deal"]: r for r in rows if r["player"] == who} for who in ("best", "expert")}
    deals = sorted(by["expert"])
    diffs = [by["expert"][d]["score"] - by["best"][d]["score"] for d in deals]
    times = sorted(t for d in deals for t in by["expert"][d]["times"])
    out: dict[str, Any] = {"deals": len(deals)}
    for who, games in by.items():
        out[who] = {"wins": sum(g["won"] for g in games.values()),
                    "mean_score": round(statistics.fmean(g["score"] for g in games.values()), 3),
                    "lost": [d for d in deals if not games[d]["won"]]}
    out["difference"] = round(statistics.fmean(diffs), 3)
    out["standard_error"] = round(statistics.stdev(diffs) / len(diffs) ** 0.5, 3) if len(diffs) > 1 else None
    out["expert_seconds_per_move"] = {"mean": round(statistics.fmean(times), 3), "p50": times[len(times) // 2],
                                      "p95": times[int(0.95 * (len(times) - 1))]}
    return out


def main() -> None:
    first, last = int(sys.argv[1]), int(sys.argv[2])
    settings: dict[str, Any] = {}
    jobs = 2
    for item in sys.argv[3:]:
        key, value = item.split("=")
        if key == "jobs":
            jobs = int(value)
        else:
            settings[key] = float(value) if "." in value else int(value)
    work = [(who, deal, settings) for deal in range(first, last + 1) for who in ("best", "expert")]
    rows = []
    with ProcessPoolExecutor(jobs, initializer=warm_up, initargs=("expert",)) as pool:
        for row in pool.map(play, work):
            rows.append(row)
            print(json.dumps(row), flush=True)
    print(json.dumps({"settings": settings, **summary(rows)}))


if __name__ == "__main__":
    main()
