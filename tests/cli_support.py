"""The ``foursquare`` command run in the test's own process, answering as ``subprocess.run`` would.

A new process loads numba's compiled code again (a second or more, far more on a cold cache) before it does
anything: where the process itself is not what a test checks (its exit status through a real process,
signals, a terminal, a pipe), :func:`run_main` gives the same ``CompletedProcess`` in a fraction of the time.
Standard input and output are text buffers, so the command sees what it sees through pipes (no terminal).
"""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
import sys
from collections.abc import Iterator, Mapping

from foursquare.cli import main


@contextlib.contextmanager
def _environment(env: Mapping[str, str] | None) -> Iterator[None]:
    """``os.environ`` replaced by ``env`` (when given) for the duration, then restored whole."""
    if env is None:
        yield
        return
    saved = dict(os.environ)
    os.environ.clear()
    os.environ.update(env)
    try:
        yield
    finally:
        os.environ.clear()
        os.environ.update(saved)


def _stream(encoding: str, data: bytes = b"") -> io.TextIOWrapper:
    """A text stream over bytes in ``encoding``, as a pipe is to a process."""
    return io.TextIOWrapper(io.BytesIO(data), encoding=encoding, newline=None if data else "")


def run_main(*args: str, stdin: str = "", env: Mapping[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """``foursquare ARGS`` in this process: exit status (argparse's ``SystemExit`` included), output, errors.

    The streams' encoding is what a process would get (``PYTHONIOENCODING`` of ``env``, else UTF-8), so that
    the command's choice between symbols and ASCII is the same.
    """
    encoding = ((env or os.environ).get("PYTHONIOENCODING") or "utf-8").partition(":")[0] or "utf-8"
    out, err = _stream(encoding), _stream(encoding)
    saved_stdin = sys.stdin
    sys.stdin = _stream("utf-8", stdin.encode())
    try:
        with _environment(env), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(list(args))
            except SystemExit as exc:  # --help, --version and usage errors: argparse exits
                code = 0 if exc.code is None else exc.code if isinstance(exc.code, int) else 1
    finally:
        sys.stdin = saved_stdin
    texts = []
    for stream in (out, err):
        stream.flush()
        texts.append(stream.buffer.getvalue().decode(encoding))  # type: ignore[attr-defined]
    return subprocess.CompletedProcess(["foursquare", *args], code, *texts)
