"""Options never silently ignored and no absurd value taken: each is honoured, or refused with one line and exit 2.

Run in the test's own process (:func:`cli_support.run_main`): the exit status and the streams are what a process
gives, and signals are not the point here (``test_cli_signals.py``).
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from cli_support import run_main
from foursquare import record
from foursquare.cli import autoplay, bench, build_parser, options, solve
from foursquare.cli.records import outcome_text
from foursquare.engine import Game
from foursquare.i18n import LANGUAGES, translator
from foursquare.players import make_player, play_game


def refused(result: subprocess.CompletedProcess[str], *words: str) -> None:
    """Exit 2, nothing on standard output, one error line saying ``words``."""
    assert result.returncode == 2, result
    assert result.stdout == "" and "Traceback" not in result.stderr
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith("foursquare") and all(word in last for word in words), result.stderr


def parses(*args: str) -> object:
    return build_parser().parse_args(list(args))


# --- absurd numbers


@pytest.mark.parametrize("threads", ["100000", "257", "0", "-1", "1.5"])
def test_solve_threads_are_from_1_to_256(threads: str) -> None:
    refused(run_main("solve", "--deal", "1", "--threads", threads), "--threads", repr(threads))
    assert parses("solve", "--deal", "1", "--threads", "256").threads == 256  # type: ignore[attr-defined]


def test_the_command_line_s_limit_of_threads_is_the_solver_s() -> None:
    from foursquare.solver import THREADS_LIMIT, SolverError
    from foursquare.solver import solve as solve_stock

    assert solve.MAX_THREADS == THREADS_LIMIT
    with pytest.raises(SolverError, match="from 1 to 256"):
        solve_stock(Game(deal=1).stock, threads=THREADS_LIMIT + 1)


def test_the_command_line_s_node_budgets_are_the_solver_s_and_the_study_s() -> None:
    from foursquare.cli import options
    from foursquare.solver import DEFAULT_NODES
    from foursquare.study.work import MAX_NODE_BUDGET

    assert (options.MAX_NODES, options.DEFAULT_NODES) == (MAX_NODE_BUDGET, DEFAULT_NODES)


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("solve", "--deal", "1", "--timeout", "inf"), ("at most 86,400 seconds", "'inf'")),
        (("solve", "--deal", "1", "--timeout", "1e30"), ("at most 86,400 seconds",)),
        (("solve", "--deal", "1", "--timeout", "nan"), ("positive number of seconds", "'nan'")),
        (("solve", "--deal", "1", "--timeout", "0"), ("positive number of seconds",)),
        (("solve", "--deal", "1", "--timeout", "-1"), ("positive number of seconds",)),
        (("autoplay", "--deal", "1", "--delay", "inf"), ("at most 86,400 seconds",)),
        (("autoplay", "--deal", "1", "--delay", "nan"), ("0 or more seconds",)),
        (("autoplay", "--deal", "1", "--time", "86401"), ("at most 86,400 seconds",)),
        (("hint", "game.json", "--time", "inf"), ("at most 86,400 seconds",)),
        (("analyze", "game.json", "--time", "1e308"), ("at most 86,400 seconds",)),
    ],
)
def test_seconds_are_more_than_0_and_at_most_a_day(args: tuple[str, ...], words: tuple[str, ...]) -> None:
    refused(run_main(*args), *words)


@pytest.mark.parametrize("seed", ["-1", str(2**64), str(10**30)])
def test_a_seed_is_from_0_to_the_largest_64_bit_number(seed: str) -> None:
    for command in (("autoplay", "--deal", "1", "--player", "random"), ("deal", "--winnable"), ("hint", "g.json")):
        refused(run_main(*command, "--seed", seed), "seed must be a whole number from 0 to 18446744073709551615")


def test_the_largest_seed_plays() -> None:
    result = run_main("autoplay", "--deal", "1", "--player", "random", "--seed", str(options.MAX_SEED), "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["deal"] == 1


def test_counts_of_processes_and_deals_have_a_maximum() -> None:
    refused(run_main("autoplay", "--deals", "1-5", "--jobs", "100000"), "--jobs", "at most 64")
    jobs = parses("autoplay", "--deals", "1-5", "--jobs", "64").jobs  # type: ignore[attr-defined]
    assert jobs == autoplay.MAX_JOBS == 64
    huge = f"0-{2**64 - 1}"  # autoplay sums the games as they end: a range of any size runs in bounded memory
    assert parses("autoplay", "--deals", huge).deals == (0, 2**64 - 1)  # type: ignore[attr-defined]
    refused(run_main("bench", "--deals", "1-100001"), "--deals", "at most 100,000 deals")
    assert parses("bench", "--deals", "1-100000").deals == (1, bench.MAX_DEALS)  # type: ignore[attr-defined]


def test_a_negative_count_is_explained_not_taken_for_an_option() -> None:
    refused(run_main("solve", "--deal", "1", "--threads", "-4"), "at least 1", "'-4'")


# --- options never silently ignored


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("deal", "5", "--winnable"), ("deal number or --winnable, not both",)),
        (("deal", "5", "--seed", "3"), ("--seed applies only with --winnable",)),
        (("deal", "5", "--adjacency", "diagonal"), ("--adjacency applies only with --winnable",)),
        (("deal", "5", "--count-buried"), ("--count-buried applies only with --winnable",)),
        (("autoplay", "--deal", "1", "--jobs", "2"), ("--jobs applies only with --deals",)),
        (("autoplay", "--deals", "1-2", "--delay", "0"), ("--delay applies only with --deal",)),
        (("autoplay", "--deal", "1", "--json", "--delay", "0"), ("--delay and --json cannot be used together",)),
        (("autoplay", "--deal", "1", "--player", "greedy", "--time", "1"), ("--time does not apply to the greedy",)),
        (("autoplay", "--deals", "1-2", "--player", "random", "--time", "1"), ("--time does not apply to the random",)),
        (("autoplay", "--deals", "1-2", "--player", "expert", "--time", "1"), ("--time does not apply to the expert",)),
        (("autoplay", "--deal", "1", "--player", "greedy", "--seed", "1"), ("--seed does not apply to the greedy",)),
        (("autoplay",), ("give --deal N to watch one game or --deals A-B",)),
    ],
)
def test_an_option_that_would_be_ignored_is_refused(args: tuple[str, ...], words: tuple[str, ...]) -> None:
    refused(run_main(*args), *words)


def test_solve_of_a_record_refuses_house_rules_the_record_does_not_follow(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    record.write(Game(deal=3), path)
    for option in (["--adjacency", "diagonal"], ["--adjacency", "orthogonal"], ["--count-buried"]):
        refused(run_main("solve", "--record", str(path), *option), option[0], "its own house rules")


def test_deal_takes_what_it_uses() -> None:
    assert run_main("deal", "5").returncode == 0
    winnable = run_main("deal", "--winnable", "--seed", "3", "--adjacency", "diagonal", "--json")
    assert winnable.returncode == 0, winnable.stderr
    assert json.loads(winnable.stdout)["variant"]["adjacency"] == "diagonal"


def test_autoplay_of_one_deal_prints_one_json_object_with_json() -> None:
    result = run_main("autoplay", "--deal", "1", "--player", "greedy", "--json", "--adjacency", "diagonal")
    assert result.returncode == 0 and result.stderr == ""
    data = json.loads(result.stdout)  # one object, nothing else
    game = record.load(data["record"])
    expected = Game(deal=1, variant=game.variant)
    play_game(make_player("greedy"), expected)
    assert game.moves == expected.moves and game.variant.adjacency == "diagonal"
    assert data == {
        "player": "greedy",
        "deal": 1,
        "variant": {"adjacency": "diagonal", "count_buried": False},
        **record.outcome_json(expected.outcome()),
        "played": expected.turn,
        "seconds_per_move": data["seconds_per_move"],
        "record": record.to_json(expected),
    }
    assert data["seconds_per_move"] >= 0
    many = json.loads(run_main("autoplay", "--deals", "1-1", "--player", "greedy", "--json").stdout)
    assert many["player"] == data["player"] and set(many) & set(data) == {"player", "seconds_per_move"}


def greedy_game(deal: int) -> Game:
    game = Game(deal=deal)
    play_game(make_player("greedy"), game)
    return game


def test_the_demo_s_last_line_says_the_score_once() -> None:
    won = next(game for game in map(greedy_game, range(1, 500)) if game.outcome().status == "won")
    lost = greedy_game(1)
    assert lost.outcome().status == "lost"
    for game in (won, lost):
        result = run_main("autoplay", "--deal", str(game.deal), "--player", "greedy", "--delay", "0")
        last = result.stdout.strip().splitlines()[-1]
        assert last == f"{outcome_text(game.outcome(), translator('en'))}; cards played: {game.turn}"
        assert last.count("score") == (game.outcome().status == "won")


# --- records: deep nesting, and where the JSON goes wrong in the reader's language


def test_a_deeply_nested_record_is_a_record_error_not_a_bug(tmp_path: Path) -> None:
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000)
    for command in (("replay", str(path)), ("solve", "--record", str(path)), ("hint", str(path))):
        result = run_main(*command)
        refused(result, str(path), "this is not a game record: its JSON is nested too deeply")
        assert "internal error" not in result.stderr
    with pytest.raises(record.RecordError) as error:
        record.loads('{"moves": ' * 50_000)
    assert error.value.code == "too_deep"


@pytest.mark.parametrize(
    ("text", "fault"),
    [
        ("", "expecting_value"),
        ('{"format": "foursquare-game" "version": 1}', "expecting_comma"),
        ('{"format" "foursquare-game"}', "expecting_colon"),
        ("{'format': 1}", "expecting_name"),
        ('{"format": "foursquare-game', "unterminated_string"),
        ('{"format": "four\tsquare"}', "control_character"),
        ('{"format": "\\q"}', "bad_escape"),
        ('{"format": "\\u12"}', "bad_escape"),
        ("{}\n{}", "extra_data"),
    ],
)
def test_a_record_that_is_not_json_says_where_and_what_in_the_reader_s_language(
    text: str, fault: str, tmp_path: Path
) -> None:
    with pytest.raises(json.JSONDecodeError) as parsed:
        json.loads(text)
    line, column = parsed.value.lineno, parsed.value.colno
    with pytest.raises(record.RecordError) as error:
        record.loads(text)
    assert (error.value.code, error.value.params["fault"]) == ("not_json", fault)
    assert (error.value.params["line"], error.value.params["column"]) == (line, column)
    path = tmp_path / "bad.json"
    path.write_text(text)
    english = run_main("replay", str(path))
    refused(english, "this is not a game record: it is not valid JSON (", f"line {line}, column {column}")
    assert english.stderr.endswith(")\n")
    croatian = run_main("--lang", "hr", "replay", str(path))
    refused(croatian, "ovo nije zapis igre: nije ispravan JSON (", f"retku {line}, stupcu {column}")
    assert "Expecting" not in croatian.stderr and "Invalid" not in croatian.stderr


def test_every_json_fault_is_worded_in_every_language() -> None:
    faults = {code for _, code in record.JSON_FAULTS} | {"other"}
    for code in [*LANGUAGES, "en"]:
        t = translator(code)
        for fault in faults:
            assert t.has(f"cli.json.{fault}"), (code, fault)
            assert "{" not in t(f"cli.json.{fault}", line=3, column=7)


def test_a_record_with_a_byte_order_mark_is_read(tmp_path: Path) -> None:
    path = tmp_path / "notepad.json"
    path.write_text("\ufeff" + record.dumps(Game(deal=17)), encoding="utf-8")
    result = run_main("replay", "--json", str(path))
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["played"] == 0
