"""Offline datasets of whole games on training deals, in Farama's Minari format (the ``data`` extra).

Two sources, each a dataset of its own:

``expert``
    the games of the ``expert`` player (:mod:`foursquare.players.expert`), which never sees the stock order:
    demonstrations an agent can learn from without cheating.
``solver``
    the perfect-information solver's best line of each deal (:func:`foursquare.solver.solve`, a node budget):
    play that knows the whole stock, the upper reference of offline learning; a deal with no win found is
    left out.

Every deal must be a training deal: none of the test deals :data:`TEST_DEALS` (docs/benchmark.md), so that an
agent learned from the data is never tested on a deal it has seen. Each episode is the
``foursquare/Foursquare-v0`` environment's, default options: the observations (one more than the actions), the
actions, the rewards (the score at the end), the terminations and truncations, and ``infos["action_mask"]``;
its metadata's ``options`` are ``{"deal": N}``, which ``env.reset(options=...)`` replays.

>>> import tempfile
>>> root = tempfile.mkdtemp()
>>> path = write_dataset("foursquare/solver-v0", solver_episodes([20_001, 20_002]), root, source="solver")
>>> data = load_dataset("foursquare/solver-v0", root)  # minari.load_dataset with MINARI_DATASETS_PATH=root
>>> data.total_episodes, [int(e.rewards.sum()) for e in data.iterate_episodes()]
(2, [24, 24])
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
import warnings
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from foursquare import __version__
from foursquare.cards import deal_stock
from foursquare.engine import Game, Move
from foursquare.errors import FoursquareError
from foursquare.players import make_player
from foursquare.rl.encoding import action_of_move
from foursquare.rl.env import FoursquareEnv
from foursquare.rl.settings import TEST_DEALS  # 1 to 20,000: never in a dataset
from foursquare.solver import DEFAULT_NODES, solve

#: The sources of episodes, each a dataset's ``algorithm_name``.
SOURCES = ("expert", "solver")
#: The environment every episode is an episode of.
ENV_ID = "foursquare/Foursquare-v0"
#: Minari's reference scores, for ``minari.get_normalized_score``: random play's mean score (it never wins) and
#: the solver's stock-known mean on the test deals 1-1,000 (docs/benchmark.md's normalisation, random 0, optimum 1).
REF_MIN_SCORE = 0.0
REF_MAX_SCORE = 23.83
DATA_FORMAT = "arrow"  # pyarrow: Minari's other format, HDF5, would need h5py besides
DESCRIPTIONS = {
    "expert": "Games of Foursquare's expert player (hindsight optimisation over sampled stocks, kept safe by "
    "Monte Carlo rollouts), which never sees the stock order, on training deals (none of deals 1-20,000).",
    "solver": "The perfect-information solver's best line of each training deal (none of deals 1-20,000): "
    "play that knows the whole stock order, an upper reference, not a policy a player could follow.",
}


class DatasetError(FoursquareError):
    """A dataset that cannot be made as asked: a test deal among the deals, an unknown source, an id taken."""


@dataclass(frozen=True)
class Episode:
    """One game as the environment saw it: ``observations`` and ``masks`` have one row more than ``actions``."""

    deal: int
    observations: npt.NDArray[np.int8]
    actions: npt.NDArray[np.int64]
    rewards: npt.NDArray[np.float64]
    terminations: npt.NDArray[np.bool_]
    truncations: npt.NDArray[np.bool_]
    masks: npt.NDArray[np.int8]


def check_train_deals(deals: Iterable[int]) -> list[int]:
    """``deals`` as a list, each a positive deal number outside :data:`TEST_DEALS` (else :class:`DatasetError`)."""
    chosen = [int(d) for d in deals]
    if not chosen:
        raise DatasetError("no deals: a dataset needs at least one", "no_deals")
    for deal in chosen:
        if deal < 1:
            raise DatasetError(f"deal {deal} is not a deal number (1 or more)", "bad_deal", deal=deal)
        if deal in TEST_DEALS:
            raise DatasetError(
                f"deal {deal} is a test deal ({TEST_DEALS.start}-{TEST_DEALS.stop - 1}): a dataset holds training "
                f"deals only, from {TEST_DEALS.stop} on",
                "test_deal",
                deal=deal,
                first=TEST_DEALS.start,
                last=TEST_DEALS.stop - 1,
            )
    return chosen


def play_episode(deal: int, choose: Callable[[Game], int]) -> Episode:
    """Play ``deal`` in the environment, each action ``choose(game)`` of the engine game so far."""
    env = FoursquareEnv()
    obs, info = env.reset(options={"deal": deal})
    observations, masks = [obs], [info["action_mask"]]
    actions: list[int] = []
    rewards: list[float] = []
    terminated = False
    while not terminated:
        action = choose(env.game())
        obs, reward, terminated, _, info = env.step(np.int64(action))
        observations.append(obs)
        masks.append(info["action_mask"])
        actions.append(action)
        rewards.append(float(reward))
    n = len(actions)
    ended = np.zeros(n, dtype=bool)
    ended[-1] = True
    return Episode(deal, np.stack(observations), np.array(actions, dtype=np.int64), np.array(rewards), ended,
                   np.zeros(n, dtype=bool), np.stack(masks))  # fmt: skip


def expert_episodes(deals: Iterable[int], seed: int = 0) -> Iterator[Episode]:
    """The expert player's game of each deal (it sees only the game's view, never the stock order)."""
    player = make_player("expert", seed=seed)
    for deal in check_train_deals(deals):
        yield play_episode(deal, lambda game: action_of_move(player.choose(game.view())))


def solver_episodes(deals: Iterable[int], max_nodes: int = DEFAULT_NODES) -> Iterator[Episode]:
    """The solver's best line of each deal found within ``max_nodes`` positions (no win found: no episode)."""
    for deal in check_train_deals(deals):
        solution = solve(deal_stock(deal), max_nodes=max_nodes)
        if solution.best_score is None:
            continue
        yield play_episode(deal, _follow(iter(solution.line)))


def _follow(line: Iterator[Move]) -> Callable[[Game], int]:
    """The chooser that plays ``line``'s moves in turn, whatever the game."""
    return lambda game: action_of_move(next(line))


def episodes(source: str, deals: Iterable[int], *, seed: int = 0, max_nodes: int = DEFAULT_NODES) -> Iterator[Episode]:
    """The episodes of ``source`` (one of :data:`SOURCES`) on ``deals``."""
    if source == "expert":
        return expert_episodes(deals, seed)
    if source == "solver":
        return solver_episodes(deals, max_nodes)
    raise DatasetError(f"unknown source {source!r}: one of {', '.join(SOURCES)}", "bad_source", source=source)


def write_dataset(dataset_id: str, games: Iterable[Episode], root: str | os.PathLike[str], *, source: str) -> Path:
    """Write ``games`` as the Minari dataset ``dataset_id`` (``namespace/name-vN``) under ``root``; its folder.

    The dataset is built in a folder of its own under ``root`` and moved into place whole, so that an
    interrupted run leaves no half-written dataset; an existing dataset of that id is an error."""
    import minari  # the data extra: only when a dataset is made
    from minari.data_collector import EpisodeBuffer

    root = Path(root)
    target = root / dataset_id
    if target.exists():
        raise DatasetError(f"{target} exists: a dataset is never overwritten; remove it or choose another id",
                           "dataset_exists", path=str(target))  # fmt: skip
    buffers = [
        EpisodeBuffer(id=i, options={"deal": e.deal}, observations=e.observations, actions=e.actions,
                      rewards=list(e.rewards), terminations=list(e.terminations), truncations=list(e.truncations),
                      infos={"action_mask": e.masks})
        for i, e in enumerate(games)
    ]  # fmt: skip
    if not buffers:
        raise DatasetError("no episodes to write: the solver found no win on any of the deals", "no_episodes")
    root.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=".minari-", dir=root))
    try:
        with _datasets_path(work), warnings.catch_warnings():
            # The project has no public contact address; Minari only warns that the metadata lacks one.
            warnings.filterwarnings("ignore", message="`author_email` is set to None", category=UserWarning)
            minari.create_dataset_from_buffers(
                dataset_id, buffers, env=ENV_ID, eval_env=ENV_ID, algorithm_name=source,
                author="The Foursquare developers", code_permalink=f"foursquare-solitaire=={__version__} "
                "(foursquare.rl.dataset)", description=DESCRIPTIONS.get(source, source), data_format=DATA_FORMAT,
                ref_min_score=REF_MIN_SCORE, ref_max_score=REF_MAX_SCORE, requirements=[],
            )  # fmt: skip
        target.parent.mkdir(parents=True, exist_ok=True)
        namespace = (work / dataset_id).parent / "namespace_metadata.json"
        if namespace.exists() and not (target.parent / "namespace_metadata.json").exists():
            shutil.copy(namespace, target.parent / "namespace_metadata.json")
        os.replace(work / dataset_id, target)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return target


def load_dataset(dataset_id: str, root: str | os.PathLike[str]) -> Any:
    """``minari.load_dataset(dataset_id)`` from ``root`` (no download)."""
    import minari

    with _datasets_path(Path(root)):
        return minari.load_dataset(dataset_id)


@contextlib.contextmanager
def _datasets_path(root: Path) -> Iterator[None]:
    """Minari's root is the environment variable ``MINARI_DATASETS_PATH``: set for the call, then restored."""
    before = os.environ.get("MINARI_DATASETS_PATH")
    os.environ["MINARI_DATASETS_PATH"] = str(root)
    try:
        yield
    finally:
        if before is None:
            del os.environ["MINARI_DATASETS_PATH"]
        else:
            os.environ["MINARI_DATASETS_PATH"] = before


def summary(path: Path, source: str, games: list[Episode]) -> dict[str, Any]:
    """What a made dataset holds, as ``foursquare rl dataset --json`` prints it."""
    scores = [float(e.rewards.sum()) for e in games]
    return {"path": str(path), "source": source, "episodes": len(games), "steps": sum(len(e.actions) for e in games),
            "deals": [e.deal for e in games], "mean_score": float(np.mean(scores)) if scores else 0.0,
            "wins": sum(s > 0 for s in scores)}  # fmt: skip
