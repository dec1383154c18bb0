"""An agent played on test deals, and its per-deal *submission* (``foursquare rl evaluate``; docs/benchmark.md).

A submission is one JSON object: the agent, the deals, every game (deal, won, score, moves, the agent's seconds),
the metrics of :mod:`foursquare.rl.protocol` and the compute — the moves played, the wall time and the time per
move, and the training's steps and time when the submitter gives them. :func:`read_submission` checks one
before :mod:`foursquare.rl.leaderboard` reads it.
"""

from __future__ import annotations

import datetime as dt
import gzip
import json
import os
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, TypedDict

from foursquare import __version__
from foursquare.engine import Game
from foursquare.errors import FoursquareError
from foursquare.files import atomic_path, write_text
from foursquare.players import PLAYER_NAMES, GameResult, iter_play_deals
from foursquare.rl.agents import Agent, AgentError
from foursquare.rl.protocol import TEST_SETS, Metrics, ProtocolError, check_test_deal, metrics

FORMAT = "foursquare-rl-submission"
VERSION = 1


class SubmissionError(FoursquareError):
    """A file that is not a submission this version can read, or submissions that cannot be ranked together.
    Codes (with ``path`` where a file is meant): ``cannot_read`` (``reason``), ``not_json`` (``detail``),
    ``not_submission``, ``version`` (``found``, ``expected``), ``bad_field`` (``field``), ``bad_deal`` (``game``,
    ``deal``), ``bad_result`` (``game``), ``repeated_deal`` (``game``, ``deal``), ``no_games``; ``same_name``
    (``agent``) and ``no_against`` (``agent``, ``names``) for a leaderboard."""


class GameRow(TypedDict):
    deal: int
    won: bool
    score: int
    moves: int
    #: The agent's time to choose its moves in this game.
    seconds: float


class Compute(TypedDict):
    moves: int
    wall_seconds: float
    seconds_per_move: float
    train_steps: int | None
    train_seconds: float | None
    cpu_count: int | None
    load_average: list[float] | None


class Submission(TypedDict):
    format: str
    version: int
    agent: str
    spec: str
    sees_stock: bool
    #: ``"quick"`` or ``"full"`` when the deals are one of the test sets, else ``None`` (a part of one).
    test_set: str | None
    deals: list[int]
    rules: str
    seed: int
    foursquare: str
    created: str
    compute: Compute
    metrics: Metrics
    games: list[GameRow]


def named_test_set(deals: range) -> str | None:
    """The name of the test set ``deals`` is, if it is one."""
    return next((name for name, test in TEST_SETS.items() if test == deals), None)


def play_agent(agent: Agent, deals: range, *, seed: int = 0, jobs: int = 1) -> Iterator[GameResult]:
    """The agent's games of ``deals`` in order (built-in players on ``jobs`` processes; any other on one)."""
    for deal in deals:
        check_test_deal(deal)
    if agent.spec in PLAYER_NAMES and agent.make is not None:
        yield from iter_play_deals(agent.spec, deals, seed=seed, jobs=jobs)
        return
    if jobs > 1:
        names = ", ".join(PLAYER_NAMES)
        raise AgentError(
            f"only the players {names} play on several processes, not {agent.spec}",
            "one_process",
            agent=agent.spec,
            names=names,
        )
    for deal in deals:
        try:
            yield agent.play(Game(deal=deal), seed)
        except Exception as exc:  # the agent's own code failed, or chose an illegal cell: say where
            error = f"{type(exc).__name__}: {exc}"
            raise AgentError(
                f"{agent.spec} failed on deal {deal}: {error}", "failed", agent=agent.spec, deal=deal, error=error
            ) from exc


def evaluate(
    agent: Agent,
    deals: range,
    *,
    seed: int = 0,
    jobs: int = 1,
    train_steps: int | None = None,
    train_seconds: float | None = None,
    progress: Callable[[], None] | None = None,
) -> Submission:
    """Play every deal (test deals only) and make the submission."""
    load = _load_average()
    start = time.perf_counter()
    results: list[GameResult] = []
    for result in play_agent(agent, deals, seed=seed, jobs=jobs):
        results.append(result)
        if progress is not None:
            progress()
    wall = time.perf_counter() - start
    games: list[GameRow] = [
        {"deal": r.deal, "won": r.won, "score": r.score, "moves": r.moves, "seconds": sum(r.move_seconds)}
        for r in results
    ]
    moves = sum(g["moves"] for g in games)
    return {
        "format": FORMAT,
        "version": VERSION,
        "agent": agent.name,
        "spec": agent.spec,
        "sees_stock": agent.sees_stock,
        "test_set": named_test_set(deals),
        "deals": [deals[0], deals[-1]],
        "rules": "standard",
        "seed": seed,
        "foursquare": __version__,
        "created": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "compute": {
            "moves": moves,
            "wall_seconds": wall,
            "seconds_per_move": sum(g["seconds"] for g in games) / moves if moves else 0.0,
            "train_steps": train_steps,
            "train_seconds": train_seconds,
            "cpu_count": os.cpu_count(),
            "load_average": load,
        },
        "metrics": metrics((g["deal"], g["won"], g["score"]) for g in games),
        "games": games,
    }


def submission_text(submission: Submission) -> str:
    """The submission as JSON text: indented, one game a line."""
    head = json.dumps({**submission, "games": []}, indent=1)
    games = ",\n".join("  " + json.dumps(game) for game in submission["games"])
    return head.replace('"games": []', '"games": [\n' + games + "\n ]") + "\n"


def write_submission(path: str | os.PathLike[str], submission: Submission) -> None:
    """Write the submission as JSON (gzip-compressed when ``path`` ends with ``.gz``), atomically (a
    ``FileWriteError`` says why it cannot be)."""
    text = submission_text(submission)
    if str(path).endswith(".gz"):
        with atomic_path(path) as temporary, gzip.GzipFile(temporary, "wb", mtime=0) as file:
            file.write(text.encode("utf-8"))
        return
    write_text(path, text)


def read_submission(path: str | os.PathLike[str]) -> Submission:
    """A submission read and checked: its games are test deals, each once, and its metrics are recomputed
    from them (a file edited by hand cannot claim more than its games)."""
    path = str(path)
    try:
        raw = Path(path).read_bytes()
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise SubmissionError(f"cannot read {path}: {reason}", "cannot_read", path=path, reason=reason) from None
    try:
        data = json.loads(gzip.decompress(raw) if path.endswith(".gz") else raw.decode("utf-8"))
    except (OSError, EOFError, UnicodeDecodeError, json.JSONDecodeError) as exc:  # a bad gzip is an OSError
        raise SubmissionError(f"{path} is not JSON: {exc}", "not_json", path=path, detail=str(exc)) from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise SubmissionError(f'{path} is not a submission (no "format": "{FORMAT}")', "not_submission", path=path)
    if data.get("version") != VERSION:
        found = repr(data.get("version"))
        raise SubmissionError(
            f"{path} is a submission of version {found}; this reads {VERSION}",
            "version",
            path=path,
            found=found,
            expected=VERSION,
        )
    for key, kind in (("agent", str), ("spec", str), ("games", list), ("compute", dict), ("sees_stock", bool)):
        if not isinstance(data.get(key), kind):
            raise SubmissionError(f"{path}: {key!r} must be a {kind.__name__}", "bad_field", path=path, field=key)
    data["games"] = _checked_games(path, data["games"])
    data["metrics"] = metrics((g["deal"], g["won"], g["score"]) for g in data["games"])
    return data  # type: ignore[return-value]


def _checked_games(path: str, games: Sequence[Any]) -> list[GameRow]:
    seen: set[int] = set()
    rows: list[GameRow] = []
    for number, game in enumerate(games, start=1):
        where = f"{path}: game {number}"
        fields = game if isinstance(game, dict) else {}
        deal, won, score = fields.get("deal"), fields.get("won"), fields.get("score")
        try:
            check_test_deal(deal)  # type: ignore[arg-type]
        except ProtocolError:
            raise SubmissionError(
                f"{where}: deal {deal!r} is not a test deal", "bad_deal", path=path, game=number, deal=repr(deal)
            ) from None
        scored = isinstance(score, int) and not isinstance(score, bool) and 0 <= score <= 40
        if not isinstance(won, bool) or not scored or (score and not won):
            raise SubmissionError(
                f"{where}: 'won' must be true or false and 'score' a whole number 0-40, 0 after a loss",
                "bad_result",
                path=path,
                game=number,
            )
        if deal in seen:
            raise SubmissionError(
                f"{where}: deal {deal} is played twice", "repeated_deal", path=path, game=number, deal=deal
            )
        seen.add(deal)  # type: ignore[arg-type]
        moves, seconds = fields.get("moves", 0), fields.get("seconds", 0.0)
        rows.append({"deal": deal, "won": won, "score": score, "moves": moves, "seconds": seconds})  # type: ignore[typeddict-item]
    if not rows:
        raise SubmissionError(f"{path} holds no games", "no_games", path=path)
    return rows


def _load_average() -> list[float] | None:
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except (AttributeError, OSError):  # Windows has none
        return None


__all__ = [
    "FORMAT",
    "VERSION",
    "Compute",
    "GameRow",
    "Submission",
    "SubmissionError",
    "evaluate",
    "named_test_set",
    "play_agent",
    "read_submission",
    "write_submission",
]
