"""Where the terminal game keeps its games: one record per game in the user's data directory.

Every interactive game is written there after every move (atomically, by :func:`foursquare.record.write`),
so quitting, a closed terminal or a killed process loses nothing: the next ``foursquare play`` offers to
continue the last unfinished game. A file's name tells when the game started and how its deal was chosen
(``20261201-045012-random.json``), because a random deal's number stays hidden until the game ends.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from foursquare import record
from foursquare.engine import Game
from foursquare.store import DATA_DIR_ENV, data_dir

__all__ = [
    "DATA_DIR_ENV",
    "DEAL_KINDS",
    "DealKind",
    "Kept",
    "data_dir",
    "games_dir",
    "kept_files",
    "kind_of",
    "last_unfinished",
    "new_path",
]

DealKind = Literal["deal", "random", "winnable"]
DEAL_KINDS: tuple[DealKind, ...] = ("deal", "random", "winnable")


def games_dir() -> Path:
    """The folder of the terminal game's records (not created here)."""
    return data_dir() / "games"


def new_path(kind: DealKind) -> Path:
    """A fresh file name for a game starting now, its folder created; never the name of an existing file."""
    directory = games_dir()
    directory.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    path = directory / f"{stamp}-{kind}.json"
    number = 2
    while path.exists():
        path = directory / f"{stamp}-{number}-{kind}.json"
        number += 1
    return path


def kind_of(path: Path) -> DealKind:
    """How the deal of a kept game was chosen, from its file name (``deal`` for any other file)."""
    for kind in DEAL_KINDS:
        if path.stem.endswith("-" + kind):
            return kind
    return "deal"


@dataclass(frozen=True)
class Kept:
    """A game found in the data directory."""

    path: Path
    game: Game
    kind: DealKind


def kept_files() -> list[Path]:
    """The records of the data directory, the most recently saved first (the numbers of ``play --list``)."""
    directory = games_dir()
    if not directory.is_dir():
        return []
    return sorted(directory.glob("*.json"), key=lambda path: (-_modified(path), path.name))


def last_unfinished() -> Kept | None:
    """The most recently saved game that has a card down and is not over; unreadable files are skipped."""
    for path in kept_files():
        try:
            game = record.read(path)
        except record.RecordError:
            continue
        if game.turn and not game.is_over():
            return Kept(path, game, kind_of(path))
    return None


def _modified(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0
