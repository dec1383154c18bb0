"""One name per cell outside the page: the API's JSON and the text of ``solve``, ``autoplay`` and ``replay``.

The engine's ``Move.name`` (D4 for the first card) is the only naming; these tests check that every front end
shows it and never counts rows and columns from the frame drawn.
"""

from __future__ import annotations

import json
import random
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from cli_support import run_main
from foursquare import record
from foursquare.engine import Game, Move
from foursquare.web import create_app
from web_support import as_player


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(tmp_path / "games.db"), raise_server_exceptions=False) as test_client:
        as_player(test_client)
        yield test_client


def named(cell: dict[str, Any]) -> bool:
    return bool(cell["cell"] == Move(cell["row"], cell["col"]).name)


def test_every_cell_of_the_api_carries_the_engines_name(client: TestClient) -> None:
    """A whole random game: the state's piles, legal cells, placements and flips, and every replay position."""
    state = client.post("/api/games", json={"deal": 7}).json()
    assert state["legal_cells"] == ["D4"] and state["cells"] == []
    assert state["area"] == {
        "min_row": -3, "max_row": 3, "min_col": -3, "max_col": 3,
        "column_names": list("ABCDEFG"), "row_names": list("1234567"),
    }  # fmt: skip
    rng = random.Random(7)
    flips = 0
    while state["outcome"] == "playing":
        assert state["legal_cells"] == [Move(r, c).name for r, c in state["legal"]]
        row, col = rng.choice(state["legal"])
        answer = client.post(f"/api/games/{state['id']}/moves", json={"row": row, "col": col, "turn": state["turn"]})
        state = answer.json()
        assert state["placed"]["cell"] == Move(row, col).name and named(state["placed"])
        assert all(named(f) for f in state["flips"]) and all(named(c) for c in state["cells"])
        flips += len(state["flips"])
    assert flips > 0 and state["legal_cells"] == []
    for turn in range(state["turn"] + 1):
        position = client.get(f"/api/games/{state['id']}/replay", params={"turn": turn}).json()
        assert all(named(c) for c in position["cells"]) and all(named(f) for f in position["flips"])
        assert position["placed"] is None if turn == 0 else named(position["placed"])
    # The record keeps its [row, col] pairs: format v1 does not change.
    moves = client.get(f"/api/games/{state['id']}/record").json()["moves"]
    assert all(isinstance(m, list) and len(m) == 2 for m in moves)


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return run_main(*args)


def test_replay_names_the_cells_on_the_grids_edges_and_in_its_json(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    game = Game(deal=17)
    for row, col in [(0, 0), (0, 1), (-1, 1)]:
        game.place(row, col)
    record.write(game, path)
    text = run("replay", str(path)).stdout.splitlines()
    assert text[0].split() == ["D", "E"]  # the column letters above the grid
    assert [line.split()[0] for line in text[1:3]] == ["3", "4"]  # the row numbers beside it
    cells = json.loads(run("replay", str(path), "--json").stdout)["cells"]
    assert [c["cell"] for c in cells] == ["E3", "D4", "E4"]


def test_autoplay_names_the_cell_of_every_move() -> None:
    result = run("autoplay", "--deal", "1", "--player", "greedy", "--delay", "0")
    assert result.returncode == 0, result.stderr
    moves = [line for line in result.stdout.splitlines() if line.startswith("turn ")]
    assert moves[0] == "turn  1: 3S to D4"
    assert all(line.split(" to ")[1][:2] in {Move(r, c).name for r in range(-3, 4) for c in range(-3, 4)}
               for line in moves)  # fmt: skip
