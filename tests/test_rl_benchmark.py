"""The benchmark (docs/benchmark.md): its protocol, the agents, and ``foursquare rl evaluate`` and ``leaderboard``
as a researcher drives them, from a Python file to a leaderboard row."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import foursquare.rl as R
from foursquare.cli import benchmark as cli_benchmark
from foursquare.rl import agents, protocol
from foursquare.rl.evaluate import SubmissionError, evaluate, read_submission, write_submission
from foursquare.rl.leaderboard import leaderboard

AGENT_FILE = '''
import numpy as np

def last_cell(observation, mask):
    """The last legal cell: a policy of the environments' observation and mask."""
    return int(np.flatnonzero(mask)[-1])

def off_the_board(observation, mask):
    return 0 if mask[24] == 0 else 24

class Greedy:
    """A class: made anew for each deal, its instances choose from views as the built-in players do."""
    def __init__(self):
        from foursquare.players import make_player
        self.player = make_player("greedy")
    def choose(self, view):
        return self.player.choose(view)
'''


def run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "foursquare.cli", *args], capture_output=True, text=True, cwd=cwd, timeout=600
    )


# --- the protocol ------------------------------------------------------------------------------------------


def test_the_optima_are_the_solvers_study() -> None:
    """docs/results.md: every optimum of deals 1-1,000 proven, mean 23.83; deal 5980 the lowest, 18."""
    quick = protocol.TEST_SETS["quick"]
    assert sum(map(protocol.optimum, quick)) == 23_830 and all(map(protocol.proven, quick))
    assert protocol.optimum(5980) == 18 and protocol.optimum(14428) == 19
    full = protocol.TEST_SETS["full"]
    assert sum(not protocol.proven(d) for d in full) == 15 and full == R.TEST_DEALS
    with pytest.raises(protocol.ProtocolError, match="deal 20001 is not a test deal"):
        protocol.optimum(20_001)


def test_metrics_and_paired_differences() -> None:
    m = protocol.metrics([(1, True, 24), (2, True, 12), (3, False, 0), (4, True, 18)])
    assert (m["games"], m["wins"], m["win_rate"], m["mean_score"]) == (4, 3, 0.75, 13.5)
    assert m["win_ci95"] == pytest.approx([0.3006, 0.9544], abs=1e-4)  # Wilson
    half = 1.959963984540054 * np.std([24, 12, 0, 18], ddof=1) / 2
    assert m["score_ci95"] == pytest.approx([13.5 - half, 13.5 + half])
    assert m["normalised_score"] == pytest.approx((24 + 12 + 0 + 18) / 24 / 4)  # deals 1-4: optimum 24
    assert protocol.metrics([(1, False, 0), (2, True, 1)])["score_ci95"][0] == 0.0  # never below 0
    a = {d: protocol.Game(d, s > 0, s) for d, s in [(1, 20), (2, 0), (3, 10)]}
    b = {d: protocol.Game(d, s > 0, s) for d, s in [(1, 18), (2, 5), (4, 3)]}
    p = protocol.paired(a, b)
    assert (p["deals"], p["mean_difference"], p["only_a_won"], p["only_b_won"]) == (2, -1.5, 0, 1)


# --- the agents --------------------------------------------------------------------------------------------


def test_the_command_line_knows_the_agents_and_test_sets_without_importing_them() -> None:
    assert cli_benchmark.AGENT_NAMES == agents.AGENT_NAMES
    assert {k: range(lo, hi + 1) for k, (lo, hi) in cli_benchmark.TEST_SETS.items()} == protocol.TEST_SETS
    assert R.TEST_DEALS[-1] == cli_benchmark.LAST_TEST_DEAL


@pytest.mark.slow  # rollouts of whole games
def test_the_rollout_agent_plays_the_vector_environments_rollout_actions() -> None:
    deals = list(range(1, 33))
    envs = R.FoursquareVectorEnv(len(deals))
    envs.reset(options={"deals": deals})
    scores = np.zeros(len(deals))
    done = np.zeros(len(deals), dtype=bool)
    while not done.all():
        _, rewards, terminated, _, _ = envs.step(envs.rollout_actions())
        scores[~done] += rewards[~done]
        done |= terminated
    played = evaluate(agents.load_agent("rollout"), range(1, 33))
    assert [g["score"] for g in played["games"]] == scores.tolist()


def test_a_python_file_function_class_and_player(tmp_path: Path) -> None:
    path = tmp_path / "agent.py"
    path.write_text(AGENT_FILE, encoding="utf-8")
    last = evaluate(agents.load_agent(f"{path}:last_cell"), range(1, 4))
    assert last["agent"] == "last_cell" and last["spec"] == f"{path}:last_cell" and not last["sees_stock"]
    assert last["compute"]["moves"] == sum(g["moves"] for g in last["games"]) > 0
    fresh = evaluate(agents.load_agent(f"{path}:Greedy", name="mine"), range(1, 30))
    ours = evaluate(agents.load_agent("greedy"), range(1, 30), jobs=2)
    assert fresh["agent"] == "mine" and fresh["games"] == [dict(g, seconds=f["seconds"]) for g, f in
                                                           zip(ours["games"], fresh["games"], strict=True)]  # fmt: skip
    player = agents.load_agent("foursquare.rl.agents:RolloutPlayer")
    assert [g["score"] for g in evaluate(player, range(1, 6))["games"]] == [
        g["score"] for g in evaluate(agents.load_agent("rollout"), range(1, 6))["games"]
    ]
    with pytest.raises(agents.AgentError, match="failed on deal 1: ActionError"):
        evaluate(agents.load_agent(f"{path}:off_the_board"), range(1, 2))
    with pytest.raises(agents.AgentError, match="only the players"):
        evaluate(agents.load_agent(f"{path}:last_cell"), range(1, 3), jobs=2)


@pytest.mark.parametrize(
    ("spec", "code"),
    [
        ("nobody", "unknown_agent"),
        ("missing.py:policy", "no_file"),
        ("no_such_module_here:policy", "no_module"),
        ("foursquare.rl.agents:nothing", "no_attribute"),
        ("foursquare.rl.agents:AGENT_NAMES", "not_a_policy"),
    ],
)
def test_an_agent_that_cannot_be_used_says_why(spec: str, code: str) -> None:
    with pytest.raises(agents.AgentError) as error:
        agent = agents.load_agent(spec)
        evaluate(agent, range(1, 2))
    assert error.value.code == code


def test_the_solver_knows_the_stock_and_scores_the_optimum() -> None:
    solver = evaluate(agents.load_agent("solver"), range(1, 4))
    assert solver["sees_stock"] and solver["metrics"]["normalised_score"] == 1.0
    assert [g["score"] for g in solver["games"]] == [protocol.optimum(d) for d in (1, 2, 3)]


def test_a_submission_is_checked_when_read(tmp_path: Path) -> None:
    good = evaluate(agents.load_agent("greedy"), range(1, 11))
    packed = tmp_path / "greedy.json.gz"
    write_submission(packed, good)
    assert read_submission(packed) == read_submission(packed) and read_submission(packed)["games"] == good["games"]
    path = tmp_path / "greedy.json"
    write_submission(path, good)
    assert read_submission(path)["metrics"] == good["metrics"]
    assert len(path.read_text().splitlines()) < 60 + len(good["games"])  # one game a line
    tampered = json.loads(path.read_text())
    tampered["metrics"]["mean_score"] = 24.0  # the metrics are recomputed from the games
    path.write_text(json.dumps(tampered))
    assert read_submission(path)["metrics"] == good["metrics"]
    for change, code in [
        (lambda d: d["games"].append(d["games"][0]), "repeated_deal"),
        (lambda d: d["games"][0].update(deal=20_001), "bad_deal"),
        (lambda d: d["games"][0].update(won=False, score=3), "bad_result"),
        (lambda d: d.update(version=2), "version"),
        (lambda d: d.update(format="x"), "not_submission"),
        (lambda d: d.update(games=[]), "no_games"),
        (lambda d: d.update(sees_stock="no"), "bad_field"),
    ]:
        data = json.loads(json.dumps(good))
        change(data)
        path.write_text(json.dumps(data))
        with pytest.raises(SubmissionError) as error:
            read_submission(path)
        assert error.value.code == code
    with pytest.raises(SubmissionError, match="two submissions name the agent 'greedy'"):
        leaderboard([good, good])


def test_random_and_greedy_and_the_leaderboards_order() -> None:
    subs = [evaluate(agents.load_agent(name), range(1, 41)) for name in ("random", "greedy", "rollout")]
    rows = leaderboard(subs)
    assert [r["agent"] for r in rows] == ["rollout", "greedy", "random"]
    assert rows[0]["compared_with"] == "greedy" and rows[-1]["paired"] is None
    assert rows[0]["paired"]["mean_difference"] == pytest.approx(  # type: ignore[index]
        rows[0]["metrics"]["mean_score"] - rows[1]["metrics"]["mean_score"]
    )
    assert rows[2]["metrics"]["mean_score"] == 0 and rows[2]["metrics"]["normalised_score"] == 0
    against = leaderboard(subs, against="random")
    assert [r["compared_with"] for r in against] == ["random", "random", None]


def test_a_maskable_ppo_model_is_an_agent(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """examples/maskable_ppo_agent.py plays a model saved by the example (here an untrained one)."""
    pytest.importorskip("sb3_contrib")
    examples = Path(__file__).resolve().parent.parent / "examples"
    monkeypatch.syspath_prepend(str(examples))
    import train_maskable_ppo as example

    from foursquare.rl.sb3 import MaskableVecEnv

    model_path = tmp_path / "untrained.zip"
    example.make_model(MaskableVecEnv(2, 0), example.parse_args([])).save(model_path)
    monkeypatch.setenv("FOURSQUARE_MODEL", str(model_path))
    played = evaluate(agents.load_agent(f"{examples / 'maskable_ppo_agent.py'}:policy", name="ppo"), range(1, 3))
    assert played["agent"] == "ppo" and played["metrics"]["games"] == 2 and played["compute"]["moves"] > 2
    monkeypatch.setenv("FOURSQUARE_MODEL", str(tmp_path / "none.zip"))
    with pytest.raises(agents.AgentError) as error:
        agents.load_agent(f"{examples / 'maskable_ppo_agent.py'}:policy")
    assert error.value.code == "load_failed"


# --- the two commands ----------------------------------------------------------------------------------------


def test_from_a_python_file_to_a_leaderboard_row_with_two_commands(tmp_path: Path) -> None:
    (tmp_path / "agent.py").write_text(AGENT_FILE, encoding="utf-8")
    mine = run("rl", "evaluate", "agent.py:last_cell", "--deals", "1-20", "-o", "mine.json", cwd=tmp_path)
    assert mine.returncode == 0, mine.stderr
    assert "last_cell: won 0 of 20 deals" in mine.stdout and "written to mine.json" in mine.stdout
    ours = run("rl", "evaluate", "rollout", "--deals", "1-20", "-o", "rollout.json", "--train-steps", "5", cwd=tmp_path)
    assert ours.returncode == 0, ours.stderr
    board = run("rl", "leaderboard", "mine.json", "rollout.json", cwd=tmp_path)
    assert board.returncode == 0, board.stderr
    lines = board.stdout.splitlines()
    assert lines[0].split()[:3] == ["#", "agent", "deals"]
    assert lines[1].split()[:3] == ["1", "rollout", "1-20"] and "against last_cell, 20 deals" in lines[1]
    assert lines[2].split()[:3] == ["2", "last_cell", "1-20"]
    rows = json.loads(run("rl", "leaderboard", "mine.json", "rollout.json", "--format", "json", cwd=tmp_path).stdout)
    assert [r["agent"] for r in rows] == ["rollout", "last_cell"] and rows[0]["compute"]["train_steps"] == 5
    markdown = run("rl", "leaderboard", "mine.json", "rollout.json", "--format", "markdown", cwd=tmp_path).stdout
    assert markdown.startswith("| # | agent | deals |") and "| 1 | rollout | 1-20 |" in markdown
    assert json.loads((tmp_path / "mine.json").read_text())["games"][0]["deal"] == 1
    quiet = run("rl", "evaluate", "random", "--deals", "1-3", "-o", "r.json", "--json", cwd=tmp_path)
    summary = json.loads(quiet.stdout)
    assert summary["metrics"]["games"] == 3 and "games" not in summary and summary["compute"]["moves"] > 0


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("evaluate", "nobody", "-o", "x.json"), "no agent nobody: give one of random, greedy, rollout"),
        (("evaluate", "agent.py:nothing", "-o", "x.json"), "agent.py has no nothing"),
        (("evaluate", "agent.py:off_the_board", "--deals", "1", "-o", "x.json"), "failed on deal 1: ActionError"),
        (("evaluate", "greedy", "--deals", "20000-20001", "-o", "x.json"), "--deals must lie within the test deals"),
        (("evaluate", "greedy", "--deals", "1-2", "--test", "quick", "-o", "x.json"), "give --deals or --test"),
        (("evaluate", "agent.py:last_cell", "--jobs", "2", "--deals", "1", "-o", "x.json"), "only the players"),
        (("leaderboard", "agent.py"), "agent.py is not JSON"),
        (("leaderboard", "missing.json"), "cannot read missing.json"),
    ],
)
def test_the_commands_refuse_what_they_cannot_do(args: tuple[str, ...], message: str, tmp_path: Path) -> None:
    (tmp_path / "agent.py").write_text(AGENT_FILE, encoding="utf-8")
    result = run("rl", *args, cwd=tmp_path)
    assert result.returncode == 2 and message in result.stderr, result.stderr
    assert "Traceback" not in result.stderr and not (tmp_path / "x.json").exists()


def test_the_commands_speak_the_language(tmp_path: Path) -> None:
    (tmp_path / "agent.py").write_text(AGENT_FILE, encoding="utf-8")
    result = run("rl", "evaluate", "agent.py:last_cell", "--deals", "1-2", "-o", "a.json", "--lang", "hr", cwd=tmp_path)
    assert result.returncode == 0 and "pobijedio u 0 od 2 dijeljenja" in result.stdout, result.stdout
    bad = run("rl", "evaluate", "nobody", "-o", "a.json", "--lang", "bn", cwd=tmp_path)
    assert bad.returncode == 2 and "nobody নামে কোনো এজেন্ট নেই" in bad.stderr
    board = run("rl", "leaderboard", "a.json", "--lang", "uz", cwd=tmp_path)
    assert board.returncode == 0 and "tarqatmalar" in board.stdout.splitlines()[0]


def test_the_help_of_both_commands(tmp_path: Path) -> None:
    for command in ("evaluate", "leaderboard"):
        result = run("rl", command, "--help", cwd=tmp_path)
        assert result.returncode == 0 and "usage: foursquare rl " + command in result.stdout
    assert "path/to/file.py:name" in run("rl", "evaluate", "--help", cwd=tmp_path).stdout
