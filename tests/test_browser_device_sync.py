"""Games played on the device reach the server by themselves once it answers again (issue 42, "Back online"):
driven in Chromium against a real ``foursquare serve``, the network cut by the browser and the server stopped.

The server lists each game once, with ``"offline": true`` and its exact moves, however often the page sends it; a
game played on after it was sent is sent again; a tampered record is refused, stays on the device, and the page
says why. The tests wait for the page's and the server's states, never for a time.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from typing import Any

from browser_support import BROWSER_MARKS, WAIT_MS, browser, catalogue, new_page, open_home
from foursquare.engine import Game, Variant
from test_browser_device import DEVICE_GAMES_JS, NOTE_TOASTS_JS, go_offline, href, play, same_as_engine, toast_shown
from test_browser_offline import Server, server

pytestmark = BROWSER_MARKS
__all__ = ["browser", "server"]  # fixtures are found by name in this module's namespace

# The player's games as the server lists them, each with its record's moves or its turn (the page's own cookie).
SERVER_GAMES_JS = """async () => {
  const list = await (await fetch("/api/games?per_page=100", {cache: "no-store"})).json();
  const games = [];
  for (const summary of list.games) {
    const game = await (await fetch(`/api/games/${summary.id}`, {cache: "no-store"})).json();
    games.push({id: summary.id, offline: summary.offline, state_offline: game.offline, deal: summary.deal,
                variant: summary.variant, turn: game.turn, outcome: game.outcome, assisted: game.assisted,
                moves: game.outcome === "playing" ? null
                  : (await (await fetch(`/api/games/${summary.id}/record`, {cache: "no-store"})).json()).moves});
  }
  return {total: list.total, games};
}"""


def device_games(page: Any) -> list[dict[str, Any]]:
    games: list[dict[str, Any]] = page.evaluate(DEVICE_GAMES_JS)
    return games


def wait_device(page: Any, predicate: Callable[[list[dict[str, Any]]], bool]) -> None:
    """Wait until ``predicate`` holds of this device's kept games (read again as the page's tasks run: IndexedDB
    tells no one of a change)."""
    deadline = time.monotonic() + WAIT_MS / 1000  # a guard against a hang, not a measure: the state is waited for
    while not predicate(device_games(page)):
        assert time.monotonic() < deadline, device_games(page)
        page.wait_for_timeout(100)


def sent(game: Game) -> Callable[[list[dict[str, Any]]], bool]:
    """Whether the device keeps ``game`` alone, the server holding its moves as they are now."""
    moves = json.dumps(moves_of(game), separators=(",", ":"))  # JSON.stringify's
    return lambda games: len(games) == 1 and games[0].get("sent") == moves


def moves_of(game: Game) -> list[list[int]]:
    return [[move.row, move.col] for move in game.moves]


def test_games_played_offline_reach_the_server_once_with_their_exact_moves(browser: Any, server: Server) -> None:
    page = new_page(browser)
    page.context.add_init_script(NOTE_TOASTS_JS)
    open_home(page, server.url)  # the one online visit: the page's files, and the player's cookie
    go_offline(page, server)

    # A whole game on the device (diagonal adjacency), then a second one left in progress.
    page.goto(f"{server.url}/deal/31?adjacency=diagonal")
    finished = Game(deal=31, variant=Variant(adjacency="diagonal"))
    same_as_engine(page, finished)
    rng = random.Random(31)
    while finished.outcome().status == "playing":
        play(page, finished, rng.choice(finished.legal_moves))
    page.goto(f"{server.url}/deal/{2**64 - 1}")
    open_game = Game(deal=2**64 - 1)
    same_as_engine(page, open_game)
    for _ in range(3):
        play(page, open_game, open_game.legal_moves[0])
    open_id = href(page).rsplit("/", 1)[1]

    # The server back: both games reach it by themselves; the one over is then forgotten on the device.
    page.context.set_offline(False)
    server.start()
    wait_device(page, sent(open_game))
    listed = page.evaluate(SERVER_GAMES_JS)
    assert listed["total"] == 3  # the two, and the server's game of the first visit
    by_rules = {game["variant"]["adjacency"]: game for game in listed["games"] if game["offline"]}
    over, playing = by_rules["diagonal"], by_rules["orthogonal"]
    assert over["deal"] == 31
    assert (over["offline"], over["state_offline"], over["assisted"]) == (True, True, True)
    assert over["variant"] == {"adjacency": "diagonal", "count_buried": False}
    assert (over["outcome"], over["turn"], over["moves"]) == (finished.outcome().status, finished.turn,
                                                               moves_of(finished))  # fmt: skip
    assert (playing["offline"], playing["turn"], playing["outcome"]) == (True, 3, "playing")
    [kept] = device_games(page)
    assert kept["id"] == open_id and kept.get("refused") is None

    # Played on while the server answers: the game is sent again and written over, never stored twice; a reload
    # sends nothing new.
    play(page, open_game, open_game.legal_moves[-1])
    wait_device(page, sent(open_game))
    page.reload()
    same_as_engine(page, open_game)
    listed = page.evaluate(SERVER_GAMES_JS)
    assert listed["total"] == 3
    assert next(g for g in listed["games"] if g["offline"] and g["outcome"] == "playing")["turn"] == 4
    stats = page.evaluate("async () => (await fetch('/api/stats', {cache: 'no-store'})).json()")
    assert (stats["played"], stats["clean"]["played"], stats["daily"]["played"]) == (1, 0, 0)
    assert page.locator(".toast-error").count() == 0
    assert page.errors == []
    page.context.close()


TAMPER_JS = """async (id) => new Promise((resolve, reject) => {
  const opened = indexedDB.open("foursquare");
  opened.onsuccess = () => {
    const tx = opened.result.transaction("games", "readwrite");
    const store = tx.objectStore("games");
    const read = store.get(id);
    read.onsuccess = () => {
      const game = read.result;
      game.record.moves.push([5, 5]);  // no card can be laid there: the record is no game any more
      store.put(game);
    };
    tx.oncomplete = () => { opened.result.close(); resolve(null); };
    tx.onerror = () => reject(tx.error);
  };
  opened.onerror = () => reject(opened.error);
})"""


def test_a_tampered_record_is_refused_kept_on_the_device_and_the_page_says_why(browser: Any, server: Server) -> None:
    page = new_page(browser)
    page.context.add_init_script(NOTE_TOASTS_JS)
    open_home(page, server.url)
    go_offline(page, server)
    page.goto(f"{server.url}/deal/9")
    game = Game(deal=9)
    same_as_engine(page, game)
    for _ in range(2):
        play(page, game, game.legal_moves[0])
    device_id = href(page).rsplit("/", 1)[1]
    page.evaluate(TAMPER_JS, device_id)

    page.context.set_offline(False)
    server.start()
    toast_shown(page, catalogue()["error.code.bad_record"])
    wait_device(page, lambda games: len(games) == 1 and games[0].get("refused") == "bad_record")
    [kept] = device_games(page)
    assert kept["id"] == device_id and kept["record"]["moves"] == [*moves_of(game), [5, 5]]
    assert [game["offline"] for game in page.evaluate(SERVER_GAMES_JS)["games"]] == [False]  # the first visit's
    page.context.close()
