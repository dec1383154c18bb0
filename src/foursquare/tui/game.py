"""``foursquare play``: the first game of a run and where it is kept, then the full-screen game (rich, read key by
key: :mod:`.interactive`, :mod:`.terminal`) or line mode (:mod:`.lines`), and what is said at the end.

Each mode loads only its own modules: line mode nothing of the full screen's (rich's console, the screens, the key
loop), which load when the full-screen game starts (:func:`play_interactive`).
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from foursquare import record
from foursquare.engine import Game, Move, Variant
from foursquare.files import FileWriteError
from foursquare.i18n import ENGLISH, Translator, translator
from foursquare.store import default_path
from foursquare.tui import saved
from foursquare.tui.keys import CellKeys
from foursquare.tui.session import (
    PlayError,
    Session,
    check_save_path,
    new_game,
    outcome_words,
    what_it_holds,
)
from foursquare.tui.text import (
    COMMAND_PLAY,
    COMMAND_STATS,
    DATA_DIR_VARIABLE,
    NO_MOUSE_VARIABLE,
    cards,
    command_analyze,
    command_deal,
)

if TYPE_CHECKING:
    from rich.console import Console

    from foursquare.tui.terminal import Interrupted

__all__ = ["cell_labels", "full_screen", "goodbye", "play", "play_interactive"]


def play(
    variant: Variant,
    *,
    deal: int | None = None,
    winnable: bool = False,
    save: str | None = None,
    resume: str | None = None,
    t: Translator | None = None,
    mouse: bool = True,
) -> int:
    """Play in the terminal (see the package docstring); the exit status of ``foursquare play``.

    ``resume`` is a record to continue (its variant wins over ``variant``); it is saved back to itself
    unless ``save`` names another file. ``t`` is the player's language (English by default): every word of
    the game, in both modes, is its. ``mouse`` False (or :data:`NO_MOUSE_VARIABLE` set) leaves the mouse to the
    terminal, whose own text selection then works.
    """
    t = t or translator(ENGLISH.code)
    interactive = full_screen(sys.stdin, sys.stdout)
    session = _session(variant, deal, winnable, save, resume, interactive, t)
    warning = offer = None
    if interactive:
        session.history = default_path()
        offer = saved.last_unfinished() if resume is None and deal is None and not winnable else None
        if session.keep is None:
            warning = _keep_in_data_dir(session)
    error = session.write()
    if error is not None:
        raise PlayError(error.removeprefix("warning: "))
    if interactive:
        mouse = mouse and not os.environ.get(NO_MOUSE_VARIABLE)
        return play_interactive(session, offer, warning=warning, mouse=mouse)
    from foursquare.tui.lines import play_lines

    return play_lines(session, sys.stdin, sys.stdout, sys.stderr)


def full_screen(stdin: TextIO, stdout: TextIO) -> bool:
    """Whether the game takes the whole screen: both ends are a terminal, and one that moves its cursor (a
    ``TERM=dumb`` terminal, such as an editor's shell buffer, gets line mode, which writes plain lines)."""
    return stdin.isatty() and stdout.isatty() and os.environ.get("TERM", "") != "dumb"


def _keep_in_data_dir(session: Session) -> str | None:
    """Give the session its file in the data directory; when none can be written there, the warning to show
    (the game is played all the same, kept only where ``--save`` says)."""
    t = session.t
    try:
        path = saved.new_path(session.kind)
        record.write(session.game, path)
    except (OSError, FileWriteError) as exc:
        reason = exc.params["reason"] if isinstance(exc, FileWriteError) else exc.strerror or exc
        return t(
            "term.cannot_keep",
            path=str(saved.games_dir()),
            error=str(reason),
            variable=DATA_DIR_VARIABLE,
            option="--save FILE",
        )
    session.keep, session.keep_is_new = path, True
    return None


def _session(
    variant: Variant,
    deal: int | None,
    winnable: bool,
    save: str | None,
    resume: str | None,
    interactive: bool,
    t: Translator,
) -> Session:
    """The first game of the run and where it is written, every --save question asked and answered."""
    if save is not None:
        check_save_path(save, t)
        if resume is None or not _same_file(save, resume):
            _may_replace(save, interactive, t)
    if resume is None:
        if winnable and interactive:
            print(t("term.finding_deal"), flush=True)
        game = new_game(variant, deal, winnable)
        return Session(game, game.variant, deal_shown=deal is not None, winnable=winnable, save=save, t=t)
    game = record.read(resume)
    check_save_path(resume, t)
    kept = Path(resume)
    if kept.resolve().parent == saved.games_dir().resolve():  # a game of the data directory goes on in its file
        kind = saved.kind_of(kept)
        return Session(game, game.variant, kind == "deal", kind == "winnable", save=save, keep=kept, t=t)
    return Session(game, game.variant, deal_shown=True, winnable=False, save=save or resume, t=t)


def _same_file(first: str, second: str) -> bool:
    return os.path.abspath(first) == os.path.abspath(second)


def _may_replace(path: str, interactive: bool, t: Translator) -> None:
    """Ask before a --save path that holds something is replaced; refuse when nobody can be asked."""
    holds = what_it_holds(path, t)
    if holds is None:
        return
    if interactive:
        try:
            answer = input(t("term.replace_question", holds=holds, y="y", n="N"))
        except EOFError:
            answer = ""
        if answer.strip().lower() in ("y", "yes"):
            return
    raise PlayError(t("term.not_replaced", holds=holds, option="--save", command=f"{COMMAND_PLAY} {path}"))


def play_interactive(
    session: Session,
    offer: saved.Kept | None = None,
    console: Console | None = None,
    warning: str | None = None,
    mouse: bool = True,
) -> int:
    """The full-screen game; returns the exit status: 130 after Ctrl-C, like the rest of the CLI, and 128 + the
    signal's number after a signal that ends the program (143 for ``kill``, 129 for a closed terminal), which
    is handed on to the handler it had before once the game is kept and the goodbye said.

    ``warning`` is shown on the first frame (the game cannot be kept in the data directory)."""
    from rich.console import Console

    from foursquare.tui.glyphs import ASCII, for_terminal
    from foursquare.tui.interactive import Interactive
    from foursquare.tui.terminal import Interrupted, Screen, terminal

    console = console or Console(highlight=False)
    glyphs = for_terminal(sys.stdout)
    if glyphs is ASCII and isinstance(sys.stdout, io.TextIOWrapper):
        sys.stdout.reconfigure(errors="replace")  # a character we missed shows as "?" rather than end the game
    status = 0
    signalled: Interrupted | None = None
    screen = Screen(console, ascii_only=glyphs is ASCII)
    try:
        with terminal(console, sys.stdin.fileno(), screen, mouse=mouse) as keyboard:
            game = Interactive(session, keyboard, screen, glyphs)
            game.message = warning
            game.run(offer)
    except KeyboardInterrupt:  # the terminal is already restored by now
        status = 130
    except Interrupted as exc:
        signalled, status = exc, exc.exit_status
    _drop_if_empty(session)
    with contextlib.suppress(OSError):  # a closed terminal (SIGHUP) hears no goodbye
        for line in goodbye(session):
            print(line, flush=True)  # not wrapped: commands must stay whole to be copied
    return signalled.finish() if signalled is not None else status


def _drop_if_empty(session: Session) -> None:
    """A game quit before its first card is not worth keeping in the data directory."""
    if session.keep is not None and session.keep_is_new and not session.game.turn:
        session.keep.unlink(missing_ok=True)


def goodbye(session: Session) -> list[str]:
    """What is printed after the full screen closes: how the game ended, or where it is kept (and, truthfully,
    when it is kept nowhere or only as it was some cards ago), then the games left during the run."""
    game: Game = session.game
    t = session.t
    lines: list[str] = []
    outcome = game.outcome()
    path = session.record_path
    if outcome.is_over:
        lines.append(t("term.goodbye_finished", deal=str(game.deal), outcome=outcome_words(outcome, t)))
    elif game.turn:
        placed = cards(t, game.turn)
        if path is None or not session.written:
            lines.append(t("term.goodbye_not_kept", placed=placed))
        else:
            if session.is_kept:
                lines.append(t("term.goodbye_unfinished", placed=placed, path=path))
            else:
                saved_cards = cards(t, len(session.written))
                lines.append(t("term.goodbye_kept_earlier", placed=placed, path=path, saved=saved_cards))
            newest = session.keep is not None and session.is_kept  # what a bare `foursquare play` offers
            lines.append(t("term.goodbye_continue", command=COMMAND_PLAY + ("" if newest else f" {path}")))
        if session.deal_shown and game.deal is not None:
            lines.append(t("term.goodbye_again", deal=str(game.deal), command=command_deal(game.deal)))
    lines.extend(t("term.goodbye_saved", path=p) for p in session.saved)
    if outcome.is_over and path is not None and session.is_kept:
        lines.append(t("term.end_analyze", command=command_analyze(path)))
    if outcome.is_over and session.history is not None:
        lines.append(t("term.end_stats", command=COMMAND_STATS))
    lines.extend(t("term.goodbye_left", path=p, command=f"{COMMAND_PLAY} {p}") for p in _still_left(session))
    return lines


def _still_left(session: Session) -> list[str]:
    """The files of the games left during the run that still hold an unfinished game (none was continued)."""
    left = []
    for path in dict.fromkeys(session.left):
        try:
            game = record.read(path)
        except record.RecordError:
            continue
        if game.turn and not game.is_over():
            left.append(path)
    return left


def cell_labels(game: Game) -> dict[Move, str]:
    """The keys of ``game``'s legal cells, as they stand after its moves were played from the start."""
    return dict(CellKeys.replayed(game).update(game))
