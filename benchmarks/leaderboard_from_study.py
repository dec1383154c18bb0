"""Submissions of the quick test set for the slow agents, from the study rows of docs/results (rows.csv.gz).

``best`` and ``expert`` (seed 0) and ``solver`` (the default node budget) take minutes to hours on deals 1-1,000;
docs/results.md's study already played them, with the same seed and budget, so their games are the ones
``foursquare rl evaluate`` plays (docs/benchmark.md checks a part of each against the command's own run). This
writes them as submissions, each game's seconds as the study stored them:

    .venv/bin/python benchmarks/leaderboard_from_study.py benchmarks/leaderboard
"""

from __future__ import annotations

import csv
import gzip
import sys
from pathlib import Path
from typing import Any

from foursquare import __version__
from foursquare.rl.agents import SEES_STOCK
from foursquare.rl.evaluate import FORMAT, VERSION, Submission, write_submission
from foursquare.rl.protocol import metrics

ROWS = Path(__file__).resolve().parent.parent / "docs" / "results" / "rows.csv.gz"
QUICK = range(1, 1001)


def study_games(what: str) -> list[dict[str, Any]]:
    """The study's games of deals 1-1,000, standard rules, as a submission's games."""
    games = {}
    with gzip.open(ROWS, "rt", encoding="utf-8") as file:
        for row in csv.DictReader(file):
            if row["what"] != what or row["adjacency"] != "orthogonal" or row["count_buried"] != "False":
                continue
            if what == "solver" and row["node_budget"] != "10000000":
                continue
            deal = int(row["deal"])
            if deal not in QUICK:
                continue
            if what == "solver":
                score = int(row["best_score"])
                games[deal] = {"deal": deal, "won": True, "score": score, "moves": 40 - score}
            else:
                games[deal] = {"deal": deal, "won": row["outcome"] == "won", "score": int(row["score"]),
                               "moves": int(row["moves"])}  # fmt: skip
            games[deal]["seconds"] = float(row["seconds"])
    return [games[d] for d in QUICK]


def submission(name: str) -> Submission:
    """The agent's submission, the study's games in it."""
    games = study_games(name)
    moves = sum(g["moves"] for g in games)
    seconds = sum(g["seconds"] for g in games)
    return {
        "format": FORMAT,
        "version": VERSION,
        "agent": name,
        "spec": name,
        "sees_stock": name in SEES_STOCK,
        "test_set": "quick",
        "deals": [1, 1000],
        "rules": "standard",
        "seed": 0,
        "foursquare": __version__,
        "created": "2026-12-05T00:00:00+00:00",  # the study's rows (docs/results.md)
        "compute": {
            "moves": moves,
            "wall_seconds": seconds,
            "seconds_per_move": seconds / moves,
            "train_steps": None,
            "train_seconds": None,
            "cpu_count": 2,
            "load_average": None,
        },
        "metrics": metrics((g["deal"], g["won"], g["score"]) for g in games),
        "games": games,  # type: ignore[typeddict-item]
    }


def main(folder: str) -> None:
    for name in ("best", "expert", "solver"):
        made = submission(name)
        write_submission(Path(folder) / f"{name}.json.gz", made)
        print(name, made["metrics"])


if __name__ == "__main__":
    main(sys.argv[1])
