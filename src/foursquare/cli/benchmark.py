"""``foursquare rl evaluate`` and ``foursquare rl leaderboard``: the benchmark's two commands (docs/benchmark.md).

``evaluate`` plays an agent (one of ours by name, or Python code) on test deals and writes its per-deal
submission (:mod:`foursquare.rl.evaluate`); ``leaderboard`` ranks submissions and compares each with the next
deal by deal (:mod:`foursquare.rl.leaderboard`). :mod:`foursquare.cli.rl` adds them to the ``rl`` group.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from foursquare.cli.errors import CommandError
from foursquare.cli.extras import require_extra
from foursquare.cli.options import deal_range, non_negative_seconds, positive_int, seed_number, whole_number_up_to
from foursquare.cli.parser import help_text
from foursquare.i18n import Translator

#: :data:`foursquare.rl.agents.AGENT_NAMES` and the test sets, repeated so that parsing imports no Gymnasium
#: (``tests/test_rl_benchmark.py`` checks that they agree).
AGENT_NAMES = ("random", "greedy", "rollout", "best", "expert", "solver")
PLAYERS = ("random", "greedy", "best", "expert")
TEST_SETS = {"quick": (1, 1000), "full": (1, 20_000)}
LAST_TEST_DEAL = 20_000
FORMATS = ("table", "markdown", "json")
#: Words of code in the messages, the same in every language.
CODE = {
    "module": "module:name",
    "file": "path/to/file.py:name",
    "choose": "choose",
    "name": "--name",
    "evaluate": "foursquare rl evaluate",
    "leaderboard": "foursquare rl leaderboard",
}
MAX_JOBS = 64


def add_commands(commands: Any, t: Translator) -> None:
    """Add ``evaluate`` and ``leaderboard`` to the ``rl`` group's subcommands."""
    e = commands.add_parser(
        "evaluate",
        help=help_text(t, "cli.rl.evaluate.help"),
        description=t("cli.rl.evaluate.description", leaderboard=CODE["leaderboard"]),
    )
    names = ", ".join(AGENT_NAMES)
    e.add_argument("agent", metavar="AGENT", help=help_text(t, "cli.rl.evaluate.agent.help", names=names, **CODE))
    e.add_argument("-o", "--output", required=True, metavar="FILE", help=help_text(t, "cli.rl.evaluate.output.help"))
    spans = {f"{name}_deals": f"{t.number(lo)}–{t.number(hi)}" for name, (lo, hi) in TEST_SETS.items()}
    e.add_argument("--test", choices=tuple(TEST_SETS), default=None,
                   help=help_text(t, "cli.rl.evaluate.test.help", quick="quick", full="full", **spans))  # fmt: skip
    e.add_argument("--deals", type=deal_range, metavar="A-B",
                   help=help_text(t, "cli.rl.evaluate.deals.help", first=1, last=LAST_TEST_DEAL))  # fmt: skip
    e.add_argument("--name", metavar="NAME", help=help_text(t, "cli.rl.evaluate.name.help"))
    e.add_argument("--seed", type=seed_number, default=0, help=help_text(t, "cli.rl.evaluate.seed.help", zero=0))
    e.add_argument("--jobs", type=whole_number_up_to(MAX_JOBS), default=1, metavar="N",
                   help=help_text(t, "cli.rl.evaluate.jobs.help", names=", ".join(PLAYERS), one=1))  # fmt: skip
    e.add_argument(
        "--train-steps", type=positive_int, metavar="N", help=help_text(t, "cli.rl.evaluate.train_steps.help")
    )
    e.add_argument("--train-seconds", type=non_negative_seconds, metavar="S",
                   help=help_text(t, "cli.rl.evaluate.train_seconds.help"))  # fmt: skip
    e.add_argument("--json", action="store_true", help=help_text(t, "cli.rl.evaluate.json.help"))
    e.set_defaults(run=run_evaluate)

    b = commands.add_parser(
        "leaderboard",
        help=help_text(t, "cli.rl.leaderboard.help"),
        description=t("cli.rl.leaderboard.description"),
    )
    b.add_argument("submissions", nargs="+", metavar="SUBMISSION",
                   help=help_text(t, "cli.rl.leaderboard.submissions.help", evaluate=CODE["evaluate"]))  # fmt: skip
    b.add_argument("--against", metavar="AGENT", help=help_text(t, "cli.rl.leaderboard.against.help"))
    b.add_argument("--format", choices=FORMATS, default="table",
                   help=help_text(t, "cli.rl.leaderboard.format.help", **{f: f for f in FORMATS}))  # fmt: skip
    b.set_defaults(run=run_leaderboard)


def run_evaluate(args: argparse.Namespace) -> int:
    """Play the agent, write its submission, print its metrics."""
    t: Translator = args.translator
    require_extra("rl", "foursquare rl evaluate", t)
    lo, hi = _deals(args, t)
    from foursquare.cli.progress import working  # rich's progress loads with the work, not for --help
    from foursquare.rl.agents import AgentError, load_agent  # Gymnasium: only once the options are right
    from foursquare.rl.evaluate import evaluate, write_submission

    try:
        agent = load_agent(args.agent, args.name)
        with working(t("cli.rl.evaluate.working", deals=hi - lo + 1, agent=agent.name), t):
            submission = evaluate(
                agent, range(lo, hi + 1), seed=args.seed, jobs=args.jobs,
                train_steps=args.train_steps, train_seconds=args.train_seconds,
            )  # fmt: skip
    except AgentError as exc:
        raise CommandError(_error_text(exc, t)) from None
    write_submission(args.output, submission)
    if args.json:
        print(json.dumps({k: v for k, v in submission.items() if k != "games"}))
        return 0
    m, c = submission["metrics"], submission["compute"]
    print(
        t(
            "cli.rl.evaluate.done",
            agent=agent.name,
            wins=m["wins"],
            games=m["games"],
            rate=t.percent(m["win_rate"], 1),
            low=t.percent(m["win_ci95"][0], 1),
            high=t.percent(m["win_ci95"][1], 1),
            score=t.number(m["mean_score"], 2),
            score_low=t.number(m["score_ci95"][0], 2),
            score_high=t.number(m["score_ci95"][1], 2),
            normalised=t.number(m["normalised_score"], 3),
        )
    )
    print(
        t(
            "cli.rl.evaluate.compute",
            moves=c["moves"],
            seconds=t.number(c["wall_seconds"], 1),
            per_move=t.number(c["seconds_per_move"] * 1000, 3),
            path=args.output,
        )
    )
    return 0


def _deals(args: argparse.Namespace, t: Translator) -> tuple[int, int]:
    if args.deals is not None and args.test is not None:
        raise CommandError(t("cli.rl.evaluate.deals_and_test", deals="--deals", test="--test"))
    if args.deals is None:
        return TEST_SETS[args.test or "quick"]
    lo, hi = args.deals
    if lo < 1 or hi > LAST_TEST_DEAL:
        raise CommandError(t("cli.rl.evaluate.not_test_deals", deals="--deals", first=1, last=LAST_TEST_DEAL))
    return lo, hi


def run_leaderboard(args: argparse.Namespace) -> int:
    """Read the submissions, rank them, print the table (or Markdown, or JSON)."""
    t: Translator = args.translator
    require_extra("rl", "foursquare rl leaderboard", t)
    from foursquare.rl.evaluate import SubmissionError, read_submission
    from foursquare.rl.leaderboard import leaderboard

    try:
        rows = leaderboard([read_submission(path) for path in args.submissions], args.against)
    except SubmissionError as exc:
        raise CommandError(_error_text(exc, t)) from None
    if args.format == "json":
        print(json.dumps(rows))
    else:
        print(leaderboard_text(rows, t, markdown=args.format == "markdown"))
    return 0


def _error_text(exc: Any, t: Translator) -> str:
    """An agent's or a submission's error in the run's language (its code's message; else its English)."""
    key = f"cli.rl.error.{exc.code}"
    if not exc.code or not t.has(key):
        return str(exc)
    return t(key, **CODE, **{name: str(value) for name, value in exc.params.items()})


def leaderboard_text(rows: list[Any], t: Translator, markdown: bool = False) -> str:
    """The leaderboard as a table of the terminal, or in Markdown (docs/benchmark.md's table)."""
    headers = [
        t("cli.rl.leaderboard.col.rank"),
        t("cli.rl.leaderboard.col.agent"),
        t("cli.rl.leaderboard.col.deals"),
        t("cli.rl.leaderboard.col.wins"),
        t("cli.rl.leaderboard.col.score"),
        t("cli.rl.leaderboard.col.normalised"),
        t("cli.rl.leaderboard.col.time"),
        t("cli.rl.leaderboard.col.paired"),
        t("cli.rl.leaderboard.col.only"),
    ]
    body = [_cells(row, t) for row in rows]
    note = t("cli.rl.leaderboard.note")
    if markdown:
        lines = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
        lines += ["| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |" for cells in body]
        return "\n".join([*lines, "", note])
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    table = Table(box=None, padding=(0, 1), pad_edge=False)
    for i, header in enumerate(headers):
        table.add_column(escape(header), justify="left" if i in (1, 7) else "right", no_wrap=True)
    for cells in body:
        table.add_row(*(escape(cell) for cell in cells))
    console = Console(width=None if sys.stdout.isatty() else 240, no_color=True, highlight=False)
    with console.capture() as captured:
        console.print(table)
    lines = [line.rstrip() for line in captured.get().splitlines()]
    return "\n".join([*lines, "", note])


def _cells(row: Any, t: Translator) -> list[str]:
    m, c = row["metrics"], row["compute"]
    agent = t("cli.rl.leaderboard.sees_stock", agent=row["agent"]) if row["sees_stock"] else row["agent"]
    lo, hi = row["deals"] if len(row["deals"]) == 2 else ("?", "?")
    deals = row["test_set"] or f"{lo}-{hi}"
    wins = t(
        "cli.rl.leaderboard.wins",
        wins=m["wins"], games=m["games"], rate=t.percent(m["win_rate"], 1),
        low=t.percent(m["win_ci95"][0], 1), high=t.percent(m["win_ci95"][1], 1),
    )  # fmt: skip
    score = t.number(m["mean_score"], 2) + " " + _interval(m["score_ci95"], 2, t)
    normalised = t.number(m["normalised_score"], 3) + " " + _interval(m["normalised_ci95"], 3, t)
    per_move = t.number(c["seconds_per_move"] * 1000, 3)
    paired = only = ""
    if row["paired"] is not None:
        p = row["paired"]
        paired = t(
            "cli.rl.leaderboard.paired",
            difference=_signed(p["mean_difference"], t), interval=_interval(p["ci95"], 2, t, signed=True),
            agent=row["compared_with"], deals=p["deals"],
        )  # fmt: skip
        only = f"{t.number(p['only_a_won'])} / {t.number(p['only_b_won'])}"
    return [t.number(row["rank"]), agent, deals, wins, score, normalised, per_move, paired, only]


def _interval(bounds: list[float], digits: int, t: Translator, signed: bool = False) -> str:
    low, high = (_signed(x, t, digits) if signed else t.number(x, digits) for x in bounds)
    return t("cli.rl.leaderboard.interval", low=low, high=high)


def _signed(value: float, t: Translator, digits: int = 2) -> str:
    return ("+" if value >= 0 else "−") + t.number(abs(value), digits)


__all__ = ["add_commands", "leaderboard_text", "run_evaluate", "run_leaderboard"]
