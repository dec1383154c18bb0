"""``foursquare play`` on a pseudo-terminal, as a player sees it: keys in, the screen read back with pyte."""

from __future__ import annotations

import codecs
import fcntl
import os
import re
import select
import signal
import struct
import subprocess
import sys
import termios
import time
import unicodedata
from pathlib import Path

import pyte
from wcwidth import wcwidth

from foursquare.tui.board import BOARD_WIDTH

PLAY = [sys.executable, "-m", "foursquare.cli", "play"]
ANSI = re.compile(r"\x1b\[[0-9;?<]*[A-Za-z]")
FRAME_END = "\x1b[J"  # the game's frames end by erasing below them (tui.terminal.Screen.draw_lines)


class IndicScreen(pyte.Screen):  # type: ignore[misc]
    """pyte's screen, but a mark of combining class 0 (Bengali ো, Kannada ೆ ಾ, a zero-width joiner: no cell
    for rich) joins the previous cell as rich counts it, where pyte would drop it and the rest of the text."""

    def draw(self, data: str) -> None:
        run: list[str] = []
        for char in data:
            mark = unicodedata.category(char) in ("Mn", "Mc", "Me", "Cf")
            if mark and wcwidth(char) == 0 and not unicodedata.combining(char):
                if run:
                    super().draw("".join(run))
                    run = []
                x, y = self.cursor.x, self.cursor.y
                if x > 0:
                    cell = self.buffer[y][x - 1]
                    self.buffer[y][x - 1] = cell._replace(data=cell.data + char)
            else:
                run.append(char)
        if run:
            super().draw("".join(run))


class Terminal:
    """``foursquare play ARGS`` on a pty of ``size`` (columns, lines); its games kept in ``data_dir``; ``env``
    added to the environment and the variables named in ``unset`` taken out; ``program`` the command that starts
    the game (this Python's, unless a test runs another installation's ``foursquare play``).

    ``output`` is everything the program wrote; ``screen`` is what a terminal emulator shows of it.
    """

    def __init__(
        self,
        *args: str,
        data_dir: Path,
        size: tuple[int, int] = (100, 32),
        env: dict[str, str] | None = None,
        unset: tuple[str, ...] = (),
        launcher: tuple[str, ...] = (),
        program: tuple[str, ...] | None = None,
    ) -> None:
        columns, lines = size
        self.master, self.slave = os.openpty()
        fcntl.ioctl(self.slave, termios.TIOCSWINSZ, struct.pack("HHHH", lines, columns, 0, 0))
        self.mode = termios.tcgetattr(self.slave)
        environment = {**os.environ, "TERM": "xterm-256color", "FOURSQUARE_DATA_DIR": str(data_dir)}
        environment["PYTHONFAULTHANDLER"] = "1"  # a hung game's stacks, should a test have to abort it
        for name in ("NO_COLOR", "COLUMNS", "LINES", "PYTHONIOENCODING", *unset):
            environment.pop(name, None)
        environment.update(env or {})
        self.process = subprocess.Popen(
            [*launcher, *(program or PLAY), *args],  # PLAY read now: test_learn_cli swaps it
            stdin=self.slave,
            stdout=self.slave,
            stderr=self.slave,
            env=environment,
            close_fds=True,
            start_new_session=True,  # a session of its own, whose controlling terminal is the pty:
            preexec_fn=lambda: fcntl.ioctl(0, termios.TIOCSCTTY, 0),  # so Ctrl-C sends it SIGINT
        )
        self.output = ""
        # A character's bytes may arrive in two reads (Bengali and Kannada take 3 bytes each).
        self.decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self.screen = IndicScreen(columns, lines)
        self.stream = pyte.Stream(self.screen)

    def read(self, timeout: float = 0.0) -> None:
        while select.select([self.master], [], [], timeout)[0]:
            try:
                data = os.read(self.master, 65536)
            except OSError:  # the other side closed
                return
            if not data:
                return
            text = self.decoder.decode(data)
            self.output += text
            self.stream.feed(text)
            timeout = 0.05

    @property
    def plain(self) -> str:
        return ANSI.sub("", self.output)

    def display(self) -> str:
        return "\n".join(line.rstrip() for line in self.screen.display)

    def wait_for(self, text: str, since: int = 0) -> int:
        """Wait until ``text`` appears in the output after offset ``since``; return the offset after it."""
        deadline = time.monotonic() + 60  # a guard against hanging, not a speed requirement
        while time.monotonic() < deadline:
            index = self.plain.find(text, since)
            if index >= 0:
                return index + len(text)
            self.read(0.2)
        raise AssertionError(f"{text!r} never appeared; screen so far:\n{self.plain[-3000:]}")

    def wait_frame(self, since: int) -> None:
        """Wait until a whole frame was drawn after output offset ``since`` (each ends by erasing the rest)."""
        deadline = time.monotonic() + 60  # a guard against hanging, not a speed requirement
        while FRAME_END not in self.output[since:]:
            if time.monotonic() > deadline:
                raise AssertionError(f"no frame drawn; the screen:\n{self.display()}")
            self.read(0.2)

    def wait_screen(self, text: str, timeout: float = 60) -> str:
        """Wait until the screen shows ``text``; return the screen. ``timeout`` guards against hanging: it is no
        speed requirement."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            self.read(0.1)
            shown = self.display()
            if text in shown:
                return shown
        raise AssertionError(f"{text!r} never shown; the screen:\n{self.display()}")

    def side_text(self, column: int = BOARD_WIDTH + 2) -> str:
        """The words on the screen from ``column`` on (the side panel beside the board), lines joined by spaces."""
        return " ".join(" ".join(line[column:].split()) for line in self.screen.display if line[column:].strip())

    def page_through(self, key: str = " ", pages: int = 100) -> list[str]:
        """Every screen shown while ``key`` pages on (the help screen), until the screen stops changing."""
        screens = [self.display()]
        for _ in range(pages):
            since = len(self.output)
            self.press(key)
            self.wait_frame(since)  # the game's answer: a whole frame, changed or not
            if self.display() == screens[-1]:  # the key paged no further: this was the last page
                break
            screens.append(self.display())
        return screens

    def find(self, text: str) -> tuple[int, int]:
        """Where ``text`` is on the screen: (line, column), 0-based."""
        for row, line in enumerate(self.screen.display):
            column = line.find(text)
            if column >= 0:
                return row, column
        raise AssertionError(f"{text!r} is not on the screen:\n{self.display()}")

    def resize(self, columns: int, lines: int) -> None:
        """Resize the terminal, as a window manager does (the kernel sends SIGWINCH)."""
        fcntl.ioctl(self.slave, termios.TIOCSWINSZ, struct.pack("HHHH", lines, columns, 0, 0))
        self.screen.resize(lines, columns)

    def press(self, keys: str) -> None:
        os.write(self.master, keys.encode())

    def click(self, row: int, column: int) -> None:
        """A left click at a 0-based screen position, as xterm reports it in SGR mode (1006)."""
        self.press(f"\x1b[<0;{column + 1};{row + 1}M\x1b[<0;{column + 1};{row + 1}m")

    def finish(self) -> int:
        """The exit status, reading the output meanwhile: a child writing more than the pty holds (the rest of
        a frame, the restored screen) would otherwise block on its write and never exit."""
        deadline = time.monotonic() + 60  # a guard against hanging, not a speed requirement
        while self.process.poll() is None and time.monotonic() < deadline:
            self.read(0.1)
        if self.process.poll() is None:  # hung: its threads' stacks (faulthandler) say where, then fail
            self.process.send_signal(signal.SIGABRT)
            time.sleep(1)
            self.read(0.5)
            raise AssertionError(f"the game did not exit; its last output:\n{self.plain[-6000:]}")
        self.read(0.2)
        return self.process.returncode

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        os.close(self.master)
        os.close(self.slave)
