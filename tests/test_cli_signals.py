"""Signals through a real process: Ctrl-C (SIGINT), SIGTERM and SIGHUP stop a command with one line on standard
error, ``foursquare: interrupted``, the documented exit status (130, 143, 129) and no traceback.

A test waits for the command to be at work by the CPU time it has used (a count, not a guess of the clock):
more than a whole short run of the same command takes, start-up and the loading of the compiled code included.
"""

from __future__ import annotations

import os
import resource
import signal
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from foursquare.cli import EXIT_HANGUP, EXIT_INTERRUPTED, EXIT_TERMINATED, STOP_SIGNALS
from foursquare.cli.signals import Signals, Stopped
from process_support import group_usage

FOURSQUARE = [sys.executable, "-m", "foursquare.cli"]
WAIT = 120.0  # seconds: a bound only a hang reaches
AT_WORK = 0.3  # CPU seconds beyond a whole short run: the command is surely past its start-up, at its work
INTERRUPTED = "foursquare: interrupted\n"
#: A search that runs for minutes at least (unproven after 90 s on one core), whatever the machine.
LONG_SOLVE = ["solve", "--deal", "46", "--adjacency", "diagonal", "--count-buried", "--timeout", "86400"]
ENV = {**os.environ, "LANGUAGE": "en", "PYTHONWARNINGS": "error"}


def cpu_seconds(pid: int) -> float:
    """The CPU time process ``pid`` has used, its threads included."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


@pytest.fixture(scope="module")
def start_up() -> float:
    """The CPU seconds of a whole short solve: Python, the program, the compiled search loaded from numba's
    cache, a search of a few thousand positions. Measured on a second run: the first may compile the search
    (20 s and more on a fresh checkout), and the tests would then wait for that much work of every command."""
    for _ in range(2):
        before = children_cpu()
        done = subprocess.run([*FOURSQUARE, "solve", "--deal", "3", "--threads", "1"], capture_output=True,
                              text=True, env=ENV, timeout=600)  # fmt: skip
        assert done.returncode == 0, done.stderr
    return children_cpu() - before


def start(arguments: list[str], preexec_fn: Callable[[], None] | None = None) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [*FOURSQUARE, *arguments], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV,
        preexec_fn=preexec_fn,
    )


def wait_until(process: subprocess.Popen[str], ready: Callable[[], bool]) -> None:
    deadline = time.monotonic() + WAIT
    while not ready():
        assert process.poll() is None, f"it ended first: {process.communicate()}"
        assert time.monotonic() < deadline, "it never got to work"
        time.sleep(0.02)


@pytest.fixture
def processes() -> Iterator[list[subprocess.Popen[str]]]:
    started: list[subprocess.Popen[str]] = []
    yield started
    for process in started:
        if process.poll() is None:
            process.kill()
            process.wait()


def interrupted_at_work(
    arguments: list[str], signum: int, at_work: float, processes: list[subprocess.Popen[str]], again: bool = False
) -> subprocess.CompletedProcess[str]:
    """Run the command, wait until it has used ``at_work`` CPU seconds, send ``signum`` (twice with ``again``)."""
    process = start(arguments)
    processes.append(process)
    wait_until(process, lambda: cpu_seconds(process.pid) >= at_work)
    process.send_signal(signum)
    if again:  # a second one, while it stops
        process.send_signal(signum)
    out, err = process.communicate(timeout=WAIT)
    return subprocess.CompletedProcess(arguments, process.returncode, out, err)


def test_the_exit_statuses_are_those_a_shell_reports() -> None:
    assert STOP_SIGNALS == {signal.SIGINT: 130, signal.SIGTERM: 143, signal.SIGHUP: 129}
    assert (EXIT_INTERRUPTED, EXIT_TERMINATED, EXIT_HANGUP) == (130, 143, 129)


@pytest.mark.slow
@pytest.mark.parametrize("threads", ["1", "2"])
def test_ctrl_c_stops_a_search_with_one_line_every_time(
    threads: str, start_up: float, processes: list[subprocess.Popen[str]]
) -> None:
    """The signal used to land in the compiled search's clock: a SystemError's traceback, 4 times in 5 (three
    tries would all have missed it 1 time in 125)."""
    for _ in range(3):
        result = interrupted_at_work([*LONG_SOLVE, "--threads", threads], signal.SIGINT, start_up + AT_WORK, processes)
        assert (result.returncode, result.stderr, result.stdout) == (EXIT_INTERRUPTED, INTERRUPTED, "")


@pytest.mark.slow
@pytest.mark.parametrize(("signum", "status"), [(signal.SIGTERM, 143), (signal.SIGHUP, 129)], ids=["TERM", "HUP"])
def test_sigterm_and_sighup_stop_a_search_with_one_line(
    signum: int, status: int, start_up: float, processes: list[subprocess.Popen[str]]
) -> None:
    for threads in ("1", "2"):
        result = interrupted_at_work([*LONG_SOLVE, "--threads", threads], signum, start_up + AT_WORK, processes)
        assert (result.returncode, result.stderr, result.stdout) == (status, INTERRUPTED, "")


@pytest.mark.slow
def test_a_second_ctrl_c_while_it_stops_prints_no_traceback(
    start_up: float, processes: list[subprocess.Popen[str]]
) -> None:
    for threads in ("1", "3"):
        result = interrupted_at_work([*LONG_SOLVE, "--threads", threads], signal.SIGINT, start_up + AT_WORK, processes,
                                     again=True)  # fmt: skip
        assert (result.returncode, result.stderr) == (EXIT_INTERRUPTED, INTERRUPTED)


@pytest.mark.slow
def test_a_signal_the_caller_ignores_stays_ignored(start_up: float, processes: list[subprocess.Popen[str]]) -> None:
    """``nohup``: SIGHUP is ignored, so the command goes on; Ctrl-C still stops it."""

    def ignore_sighup() -> None:
        signal.signal(signal.SIGHUP, signal.SIG_IGN)

    process = start([*LONG_SOLVE, "--threads", "1"], preexec_fn=ignore_sighup)
    processes.append(process)
    wait_until(process, lambda: cpu_seconds(process.pid) >= start_up + AT_WORK)
    process.send_signal(signal.SIGHUP)
    used = cpu_seconds(process.pid)
    wait_until(process, lambda: cpu_seconds(process.pid) >= used + 0.5)  # still searching
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=WAIT)
    assert (process.returncode, err, out) == (EXIT_INTERRUPTED, INTERRUPTED, "")


@pytest.mark.slow
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["INT", "TERM"])
def test_a_demo_and_a_long_autoplay_stop_with_one_line(
    signum: int, start_up: float, processes: list[subprocess.Popen[str]]
) -> None:
    for arguments in (["autoplay", "--player", "greedy", "--deals", "0-999999"],
                      ["autoplay", "--player", "best", "--deal", "5", "--time", "60"]):  # fmt: skip
        result = interrupted_at_work(arguments, signum, start_up + AT_WORK, processes)
        assert (result.returncode, result.stderr) == (STOP_SIGNALS[signum], INTERRUPTED), result


def run_python(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, env=ENV,
                          timeout=WAIT)  # fmt: skip


def test_a_signal_unwinds_so_a_file_being_written_is_left_as_it_was(tmp_path: Path) -> None:
    """The handlers raise where the program is: ``atomic_path`` removes its temporary file, the target stays."""
    (tmp_path / "keep.json").write_text("the old file")
    result = run_python(f"""
        import os, signal, sys
        from foursquare import files
        from foursquare.cli.signals import Signals, Stopped
        signals = Signals()
        signals.arm()
        try:
            with files.atomic_path({str(tmp_path / "keep.json")!r}) as temporary:
                temporary.write_text("half of the new")
                os.kill(os.getpid(), signal.SIGTERM)
                for _ in range(10**8):
                    pass
        except Stopped as exc:
            print(signals.status(exc))
        """)
    assert (result.returncode, result.stdout, result.stderr) == (0, "143\n", "")
    assert [p.name for p in tmp_path.iterdir()] == ["keep.json"]
    assert (tmp_path / "keep.json").read_text() == "the old file"


def test_a_second_signal_while_it_unwinds_is_ignored_and_a_third_ends_it() -> None:
    result = run_python("""
        import os, signal
        from foursquare.cli.signals import Signals
        Signals().arm()
        try:
            os.kill(os.getpid(), signal.SIGINT)
            for _ in range(10**8):
                pass
        except KeyboardInterrupt:
            os.kill(os.getpid(), signal.SIGINT)
            print("the second is ignored", flush=True)
            os.kill(os.getpid(), signal.SIGINT)
            for _ in range(10**8):
                pass
            print("never printed")
        """)
    assert (result.returncode, result.stdout, result.stderr) == (-signal.SIGINT, "the second is ignored\n", "")


def test_a_signal_while_a_weakref_callback_runs_still_stops_the_command(tmp_path: Path) -> None:
    """Python drops an exception raised in a weakref callback (the garbage collector runs them anywhere) with an
    "Exception ignored" traceback: the handler's is raised again where the program goes on."""
    result = run_python("""
        import os, signal, time, weakref
        from foursquare.cli.signals import Signals, Stopped

        class Thing:
            pass

        def callback(reference):
            os.kill(os.getpid(), signal.SIGTERM)
            for _ in range(10**8):
                pass

        signals = Signals()
        signals.arm()
        try:
            thing = Thing()
            reference = weakref.ref(thing, callback)
            del thing
            time.sleep(30)  # the signal came back and woke it
            print("went on to the end")
        except Stopped as exc:
            print(signals.status(exc))
        """)
    assert (result.returncode, result.stdout, result.stderr) == (0, "143\n", "")


@pytest.fixture
def handlers() -> Iterator[None]:
    """The test process's handlers, put back after a test that lets a signal in."""
    if threading.current_thread() is not threading.main_thread():
        pytest.skip("signal handlers are set on the main thread only")
    saved = {signum: signal.getsignal(signum) for signum in STOP_SIGNALS}
    yield
    for signum, handler in saved.items():
        signal.signal(signum, handler)


def test_a_signal_while_the_program_loads_is_held_until_the_command_starts(handlers: None) -> None:
    signals = Signals()
    signals.install()
    os.kill(os.getpid(), signal.SIGTERM)  # nothing is raised: the program is still loading
    with pytest.raises(Stopped) as stopped:
        signals.arm()
    assert stopped.value.signum == signal.SIGTERM and signals.status(stopped.value) == EXIT_TERMINATED


def test_without_a_signal_the_previous_handlers_are_put_back(handlers: None) -> None:
    before = {signum: signal.getsignal(signum) for signum in STOP_SIGNALS}
    signals = Signals()
    signals.arm()
    assert all(signal.getsignal(signum) == signals.handle for signum in STOP_SIGNALS)
    signals.restore()
    assert {signum: signal.getsignal(signum) for signum in STOP_SIGNALS} == before


def test_the_command_in_this_process_leaves_the_handlers_as_they_were(handlers: None) -> None:
    from cli_support import run_main

    before = {signum: signal.getsignal(signum) for signum in STOP_SIGNALS}
    assert run_main("deal", "1").returncode == 0
    assert run_main("deal", "x").returncode == 2
    assert {signum: signal.getsignal(signum) for signum in STOP_SIGNALS} == before


def test_a_command_in_this_process_stopped_by_a_signal_gives_the_program_its_handlers_back(handlers: None) -> None:
    from cli_support import run_main
    from foursquare.cli import records

    before = {signum: signal.getsignal(signum) for signum in STOP_SIGNALS}

    def signalled(args: object) -> int:
        os.kill(os.getpid(), signal.SIGTERM)  # raised by the command's handler, here
        raise AssertionError("the signal did not stop the command")

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(records, "_winnable_deal", signalled)
        result = run_main("deal", "--winnable")
    assert (result.returncode, result.stderr) == (EXIT_TERMINATED, INTERRUPTED)
    assert {signum: signal.getsignal(signum) for signum in STOP_SIGNALS} == before  # the next Ctrl-C is ours


def test_an_interrupt_in_a_command_is_one_line_and_status_130(monkeypatch: pytest.MonkeyPatch) -> None:
    from cli_support import run_main
    from foursquare.cli import records

    def interrupted(args: object) -> int:
        raise KeyboardInterrupt

    monkeypatch.setattr(records, "_winnable_deal", interrupted)
    result = run_main("deal", "--winnable")
    assert (result.returncode, result.stdout, result.stderr) == (EXIT_INTERRUPTED, "", INTERRUPTED)
    translated = run_main("--lang", "hr", "deal", "--winnable")
    assert (translated.returncode, translated.stderr) == (EXIT_INTERRUPTED, "foursquare: prekinuto\n")


@pytest.mark.slow
# The group's signal (Ctrl-C; a closed terminal takes the same path) and the command's alone (kill PID).
@pytest.mark.parametrize(("signum", "whole_group"), [(signal.SIGINT, True), (signal.SIGTERM, False)])
def test_autoplay_on_several_processes_stops_them_all_with_one_line(
    signum: int, whole_group: bool, start_up: float, processes: list[subprocess.Popen[str]]
) -> None:
    """Ctrl-C and a closed terminal reach every process of the group, ``kill PID`` the command alone: either way
    the workers end with it, at once, without a traceback of theirs (they used to print one each, or to go on
    playing every deal handed out while the command waited)."""
    process = subprocess.Popen(
        [*FOURSQUARE, "autoplay", "--player", "greedy", "--deals", "0-999999", "--jobs", "2"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV, start_new_session=True,
    )  # fmt: skip
    processes.append(process)
    # The command's own CPU time grows slowly while its workers play: wait for both workers, and count theirs.
    def at_work() -> bool:
        count, cpu = group_usage(process.pid)
        return count >= 3 and cpu >= start_up + AT_WORK

    wait_until(process, at_work)
    if whole_group:
        os.killpg(process.pid, signum)
    else:
        process.send_signal(signum)
    out, err = process.communicate(timeout=WAIT)
    assert (process.returncode, err, out) == (STOP_SIGNALS[signum], INTERRUPTED, "")
    deadline = time.monotonic() + WAIT
    while True:
        try:
            os.killpg(process.pid, 0)
        except ProcessLookupError:
            break
        if time.monotonic() > deadline:
            os.killpg(process.pid, signal.SIGKILL)
            raise AssertionError("a worker outlived the command")
        time.sleep(0.05)


@pytest.mark.slow
def test_autoplay_killed_outright_leaves_no_worker(processes: list[subprocess.Popen[str]]) -> None:
    """SIGKILL gives the command no moment to stop its workers: the system ends them with it (they used to wait
    for work forever)."""
    process = subprocess.Popen(
        [*FOURSQUARE, "autoplay", "--player", "greedy", "--deals", "0-999999", "--jobs", "2"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV, start_new_session=True,
    )  # fmt: skip
    processes.append(process)
    wait_until(process, lambda: group_usage(process.pid)[0] >= 3)  # the command and both workers
    process.kill()
    process.communicate(timeout=WAIT)
    deadline = time.monotonic() + WAIT  # a guard, not a speed
    while (left := group_usage(process.pid)[0]) and time.monotonic() < deadline:
        time.sleep(0.05)
    if left:
        os.killpg(process.pid, signal.SIGKILL)
    assert left == 0, "a worker outlived the command killed outright"


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP, signal.SIGINT])
def test_a_signal_while_python_tears_the_command_down_does_not_kill_it(tmp_path: Path, signum: int) -> None:
    """Python puts the default actions back before it tears its modules down (a while, after a report's plots):
    a signal then used to kill the command whose work was done (-15, seen in clean-clone runs of study report)."""
    program = tmp_path / "foursquare"  # the command itself, as its script is named
    program.write_text(textwrap.dedent(f"""
        import os, sys
        from foursquare.cli import main

        class SignalAtTeardown:
            def __del__(self):  # runs as the modules are torn down, after Python's signal handling has ended
                os.kill(os.getpid(), {int(signum)})
                os.write(2, b"torn down\\n")

        keep = SignalAtTeardown()
        sys.exit(main(["deal", "1"]))
    """))
    result = subprocess.run([sys.executable, str(program)], capture_output=True, text=True, env=ENV, timeout=120)
    assert (result.returncode, result.stderr) == (0, "torn down\n")
    assert result.stdout.startswith("3S AH 5C")  # deal 1, whole


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP, signal.SIGINT])
def test_a_signal_once_the_command_is_done_neither_kills_it_nor_raises(tmp_path: Path, signum: int) -> None:
    """The command's work is done and its output whole: a signal during the rest of its exit (Python's own
    cleanup) changes nothing, where the system's default action used to kill it halfway (-15, no line)."""
    program = tmp_path / "foursquare"  # the command itself, as its script is named
    program.write_text(textwrap.dedent(f"""
        import os, sys
        from foursquare.cli import main
        status = main(["deal", "1"])
        os.kill(os.getpid(), {int(signum)})  # on its way out
        print("exited normally", file=sys.stderr)
        sys.exit(status)
    """))
    result = subprocess.run([sys.executable, str(program)], capture_output=True, text=True, env=ENV, timeout=120)
    assert (result.returncode, result.stderr) == (0, "exited normally\n")
    assert result.stdout.startswith("3S AH 5C")  # deal 1, whole


#: ``foursquare solve`` whose exact stage runs until it is stopped (a unit of CP-SAT's work per position of the
#: budget: 100,000 units), and which says when CP-SAT's search has begun (its first log line).
EXACT_STAGE_SOLVE = textwrap.dedent("""
    import sys
    from foursquare.cli import main
    from foursquare.solver import driver, sat

    driver.NODES_PER_WORK = 1
    logged = sat.WinModel._on_log
    said = []

    def first_line_said(self, line):
        if not said:
            said.append(line)
            print("searching", flush=True)
        logged(self, line)

    sat.WinModel._on_log = first_line_said
    sys.exit(main(["solve", "--deal", "2273", "--nodes", "100000"]))
""")


@pytest.mark.slow
def test_ctrl_c_stops_the_exact_stage_with_one_line(processes: list[subprocess.Popen[str]]) -> None:
    """CP-SAT's own SIGINT handler once took Ctrl-C: the program aborted (``std::bad_function_call``) or went on.
    Sent once CP-SAT has worked a CPU second past its first log line, three times over."""
    for _ in range(3):
        result = interrupted_exact_stage(processes)
        assert (result.returncode, result.stderr, result.stdout) == (EXIT_INTERRUPTED, INTERRUPTED, "")


def interrupted_exact_stage(processes: list[subprocess.Popen[str]]) -> subprocess.CompletedProcess[str]:
    process = subprocess.Popen([sys.executable, "-c", EXACT_STAGE_SOLVE], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, env=ENV)  # fmt: skip
    processes.append(process)
    assert process.stdout is not None and process.stdout.readline() == "searching\n", process.communicate()
    searching = cpu_seconds(process.pid)
    wait_until(process, lambda: cpu_seconds(process.pid) >= searching + 1.0)
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=WAIT)
    return subprocess.CompletedProcess(EXACT_STAGE_SOLVE, process.returncode, out, err)
