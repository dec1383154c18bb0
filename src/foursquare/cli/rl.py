"""``foursquare rl dataset``: reinforcement-learning research tools; the offline datasets of
:mod:`foursquare.rl.dataset`, in Minari's format. The benchmark's ``evaluate`` and ``leaderboard`` come from
:mod:`foursquare.cli.benchmark`."""

from __future__ import annotations

import argparse
import json
import os
import re
from pathlib import Path
from typing import Any

from foursquare.cli.benchmark import add_commands
from foursquare.cli.errors import CommandError
from foursquare.cli.extras import require_extra
from foursquare.cli.options import deal_range, seed_number
from foursquare.cli.parser import help_text
from foursquare.i18n import Translator

#: The sources of episodes (:data:`foursquare.rl.dataset.SOURCES`, repeated so that parsing imports no numba).
SOURCES = ("expert", "solver")
#: The test deals no dataset holds (:data:`foursquare.rl.dataset.TEST_DEALS`).
FIRST_TEST, LAST_TEST = 1, 20_000
#: Minari's own root: the environment variable, else this folder under the home directory.
ROOT_VARIABLE = "MINARI_DATASETS_PATH"
DEFAULT_ROOT = Path("~") / ".minari" / "datasets"
#: A dataset's id as Minari names them.
ID_FORM = "namespace/name-vN"
ID_PATTERN = re.compile(r"(?:[A-Za-z0-9_.-]+/)*[A-Za-z0-9_.-]+-v[0-9]+", re.ASCII)


def register(sub: Any, t: Translator | None = None) -> None:
    t = t or sub.translator
    p = sub.add_parser("rl", help=help_text(t, "cli.rl.help"), description=t("cli.rl.description"))
    commands = p.add_subparsers(
        dest="rl_command", metavar="SUBCOMMAND", required=True, help=help_text(t, "cli.rl.commands.help")
    )
    d = commands.add_parser("dataset", help=help_text(t, "cli.rl.dataset.help", format="Minari"))
    d.add_argument("--source", choices=SOURCES, required=True,
                   help=help_text(t, "cli.rl.dataset.source.help", expert="expert", solver="solver"))  # fmt: skip
    d.add_argument("--deals", type=deal_range, required=True, metavar="A-B",
                   help=help_text(t, "cli.rl.dataset.deals.help", first=FIRST_TEST, last=LAST_TEST))  # fmt: skip
    root_help = help_text(t, "cli.rl.dataset.root.help", variable=ROOT_VARIABLE, default=str(DEFAULT_ROOT))
    d.add_argument("--root", metavar="DIR", help=root_help)
    id_help = help_text(t, "cli.rl.dataset.id.help", form=ID_FORM, default="foursquare/SOURCE-v0")
    d.add_argument("--id", dest="dataset_id", metavar="ID", help=id_help)
    d.add_argument("--seed", type=seed_number, default=0, help=help_text(t, "cli.rl.dataset.seed.help", default=0))
    d.add_argument("--json", action="store_true", help=help_text(t, "cli.rl.dataset.json.help"))
    d.set_defaults(run=run_dataset)
    add_commands(commands, t)  # evaluate and leaderboard (foursquare.cli.benchmark)


def run_dataset(args: argparse.Namespace) -> int:
    """Play the deals, write the dataset, print what it holds."""
    t: Translator = args.translator
    require_extra("rl", "foursquare rl dataset", t)
    require_extra("data", "foursquare rl dataset", t)
    lo, hi = args.deals
    if lo <= LAST_TEST:
        raise CommandError(t("cli.rl.dataset.test_deals", deals="--deals", first=FIRST_TEST, last=LAST_TEST,
                             start=LAST_TEST + 1))  # fmt: skip
    from foursquare.rl import dataset  # numba and Gymnasium: only once the options are right

    dataset_id = args.dataset_id or f"foursquare/{args.source}-v0"
    if not ID_PATTERN.fullmatch(dataset_id):
        raise CommandError(
            t("cli.rl.dataset.bad_id", id=repr(dataset_id), form=ID_FORM, example="foursquare/expert-v0")
        )
    root = Path(args.root or os.environ.get(ROOT_VARIABLE) or DEFAULT_ROOT.expanduser())
    if (root / dataset_id).exists():  # before the games are played, which may take hours
        raise CommandError(t("cli.rl.dataset.dataset_exists", path=str(root / dataset_id), option="--id"))
    from foursquare.cli.progress import working  # rich's progress loads with the work, not for --help

    with working(t("cli.rl.dataset.working", count=hi - lo + 1), t):
        games = list(dataset.episodes(args.source, range(lo, hi + 1), seed=args.seed))
        try:
            path = dataset.write_dataset(dataset_id, games, root, source=args.source)
        except dataset.DatasetError as exc:
            params = {k: str(v) for k, v in exc.params.items()}
            raise CommandError(t(f"cli.rl.dataset.{exc.code}", option="--id", **params)) from None
    report = dataset.summary(path, args.source, games)
    if args.json:
        print(json.dumps(report))
        return 0
    print(t("cli.rl.dataset.done", count=report["episodes"], steps=report["steps"],
            score=t.number(report["mean_score"], 2), path=str(path), id=dataset_id))  # fmt: skip
    return 0
