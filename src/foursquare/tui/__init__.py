"""The terminal game: ``foursquare play``.

Two ways to play, chosen by what stdin and stdout are:

**Interactive** (both are terminals): a full-screen board drawn with rich, the row numbers on its left
edge and the column letters below it (the cells' names: D4 is the first card's), and the last move and
what it turned over told by those names. A cell is chosen four ways: its one-key label (letters i-z and
digits, never a command key nor a column letter; a cell keeps its key while it stays legal), the arrow keys
and Enter or space, its name typed as a column letter then a row number (``e4``: a-g start a name), or a
mouse click where the terminal reports clicks (xterm SGR mode 1006). Commands: ``u`` undo, ``r`` redo,
``s`` start over, ``n`` a new random deal, ``h`` the hint (the ranked moves of
:func:`foursquare.players.hint`, worked out on a thread), ``?`` the rules, the symbols and the keys, ``q``
quit. At the end: ``n`` new random deal, ``s`` same deal again, ``u`` take back the last card, ``q`` quit.
The terminal is restored on every exit path (Ctrl-C included: exit status 130). A random deal's number is
shown only once the game is over. At 80 × 22 and more the board is framed with the side panel beside it;
down to 37 × 11 a compact one-line-per-row board keeps the card to place on the second line; smaller
terminals are told the size needed. Where the output encoding cannot show box lines and suit symbols
(``LANG=C``, ``PYTHONIOENCODING=ascii``) everything is drawn in ASCII (``10H``); with ``NO_COLOR`` the
placed card keeps its heavy border.

Every interactive game is kept in the user's data directory (:mod:`foursquare.tui.saved`), written
atomically after every move; ``foursquare play`` offers to continue the last unfinished one, and
``foursquare play FILE`` continues a saved record (and keeps saving it there). Each game that ends is
recorded in the games database of the data directory (:mod:`foursquare.store`), once, marked assisted if
a card was taken back or a hint shown: ``foursquare stats`` shows the figures.

**Lines** (otherwise: stdin or stdout is not a terminal), for scripts and tests. One command per
line, blank lines ignored, case-insensitive:

* ``D4``       a cell's name (column letter A-G, row number 1-7; the first card lies at D4): place the
               card there; ``ROW COL``, two integers (``0 1``, ``-1 2``; ``0,1`` too), is read as well;
* ``u``        undo;   ``r`` redo;   ``q`` quit.

Cells are named as in every front end: ``Move.name``, the 7 × 7 area around the first card, D4.

Output is plain text, one fact per line, each starting with a fixed word. At the start::

    deal 5                    (a random deal: "deal: random (its number is shown when the game ends)")
    variant: orthogonal adjacency                    (", covered face-down cards count" with --count-buried)
    card to place: 3S (40 cards left in the stock)
    legal: D4

After every accepted command::

    placed 3S at D4           ("undone: 3S from D4" / "redone: 3S at D4")
    turned over: 3S at D4 face down (Row), 5C at D5 face up (Column)     ("turned over: nothing";
                              after an undo the line reads "turned back: ...")
    <grid_text(game)>
    face down: 1 of 4
    card to place: AH (39 cards left in the stock)
    legal: D3, C4, E4, D5

("1 card" in the singular.) When a placement ends the game, the last two lines are replaced by the
outcome and the program exits with status 0, reading no further input::

    won: score 7              ("lost: more than 4 cards face down" / "lost: the stock ran out")
    deal 1234                 (only for a random deal, whose number was hidden until now)

``q`` or the end of input before the end prints ``stopped: game not finished, N cards placed``
(plus the ``deal`` line for a random deal) and exits 0. An illegal move, a malformed line, or an
undo/redo with nothing to undo/redo prints one line to stderr (``illegal: F4: A card goes next to
another card, or on a pile.``, ``bad command ...``, ``cannot undo: ...``) and play continues, the game
unchanged. Line mode does not keep games in the data directory (scripts would fill it).

Every word is in the player's language (``t``, the command line's: ``--lang`` or the environment), line
mode's too; the English above is the ``en`` catalogue's. Card names (``3S``), cell names and deal numbers
stay as they are in every language, so a script still finds them; numbers follow the language's digits.

``--save FILE`` writes the record (``foursquare.record.write``, atomic) at the start and after every
move, undo and redo; an unwritable path is reported before play starts (exit status 2), and so is a
FILE that already exists, unless the player, asked on a terminal, agrees to replace it. Further games
of an interactive run go to ``FILE-2.json``, ``FILE-3.json``... (for ``FILE.json``), never over an
existing file.
"""

from __future__ import annotations

import io
import os
import sys
from pathlib import Path

from rich.console import Console

from foursquare import record
from foursquare.engine import Game, Move, Variant
from foursquare.i18n import ENGLISH, Translator, translator
from foursquare.store import default_path
from foursquare.tui import saved
from foursquare.tui.glyphs import ASCII, for_terminal
from foursquare.tui.interactive import Interactive
from foursquare.tui.keys import CELL_KEYS, CellKeys
from foursquare.tui.lines import play_lines
from foursquare.tui.session import (
    PlayError,
    Session,
    check_save_path,
    new_game,
    outcome_line,
    outcome_words,
    what_it_holds,
)
from foursquare.tui.terminal import Screen, terminal
from foursquare.tui.text import COMMAND_PLAY, COMMAND_STATS, DATA_DIR_VARIABLE, cards, command_analyze, command_deal

__all__ = ["CELL_KEYS", "CellKeys", "PlayError", "Session", "outcome_line", "play", "play_lines"]


def play(
    variant: Variant,
    *,
    deal: int | None = None,
    winnable: bool = False,
    save: str | None = None,
    resume: str | None = None,
    t: Translator | None = None,
) -> int:
    """Play in the terminal (see the package docstring); the exit status of ``foursquare play``.

    ``resume`` is a record to continue (its variant wins over ``variant``); it is saved back to itself
    unless ``save`` names another file. ``t`` is the player's language (English by default): every word of
    the game, in both modes, is its.
    """
    t = t or translator(ENGLISH.code)
    interactive = sys.stdin.isatty() and sys.stdout.isatty()
    session = _session(variant, deal, winnable, save, resume, interactive, t)
    warning = offer = None
    if interactive:
        session.history = default_path()
        offer = saved.last_unfinished() if resume is None and deal is None and not winnable else None
        if session.keep is None:
            try:
                session.keep, session.keep_is_new = saved.new_path(session.kind), True
            except OSError as exc:  # play on, saying so: the player may still --save elsewhere
                warning = t(
                    "term.cannot_keep",
                    path=str(saved.games_dir()),
                    error=str(exc.strerror or exc),
                    variable=DATA_DIR_VARIABLE,
                    option="--save FILE",
                )
    error = session.write()
    if error is not None:
        raise PlayError(error.removeprefix("warning: "))
    if interactive:
        return play_interactive(session, offer, warning=warning)
    return play_lines(session, sys.stdin, sys.stdout, sys.stderr)


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
    session: Session, offer: saved.Kept | None = None, console: Console | None = None, warning: str | None = None
) -> int:
    """The full-screen game; returns the exit status (130 after Ctrl-C, like the rest of the CLI).

    ``warning`` is shown on the first frame (the game cannot be kept in the data directory)."""
    console = console or Console(highlight=False)
    glyphs = for_terminal(sys.stdout)
    if glyphs is ASCII and isinstance(sys.stdout, io.TextIOWrapper):
        sys.stdout.reconfigure(errors="replace")  # a character we missed shows as "?" rather than end the game
    status = 0
    screen = Screen(console, ascii_only=glyphs is ASCII)
    try:
        with terminal(console, sys.stdin.fileno(), screen) as keyboard:
            game = Interactive(session, keyboard, screen, glyphs)
            game.message = warning
            game.run(offer)
    except KeyboardInterrupt:  # the terminal is already restored by now
        status = 130
    _drop_if_empty(session)
    for line in goodbye(session):
        print(line, flush=True)  # not wrapped: commands must stay whole to be copied
    return status


def _drop_if_empty(session: Session) -> None:
    """A game quit before its first card is not worth keeping in the data directory."""
    if session.keep is not None and session.keep_is_new and not session.game.turn:
        session.keep.unlink(missing_ok=True)


def goodbye(session: Session) -> list[str]:
    """What is printed after the full screen closes: how the game ended, or where it is kept."""
    game: Game = session.game
    t = session.t
    lines: list[str] = []
    outcome = game.outcome()
    path = session.record_path
    if outcome.is_over:
        lines.append(t("term.goodbye_finished", deal=str(game.deal), outcome=outcome_words(outcome, t)))
    elif game.turn:
        lines.append(t("term.goodbye_unfinished", placed=cards(t, game.turn), path=str(session.keep or path)))
        lines.append(t("term.goodbye_continue", command=COMMAND_PLAY + ("" if session.keep else f" {path}")))
        if session.deal_shown and game.deal is not None:
            lines.append(t("term.goodbye_again", deal=str(game.deal), command=command_deal(game.deal)))
    lines.extend(t("term.goodbye_saved", path=p) for p in session.saved)
    if outcome.is_over and path is not None:
        lines.append(t("term.end_analyze", command=command_analyze(path)))
    if outcome.is_over and session.history is not None:
        lines.append(t("term.end_stats", command=COMMAND_STATS))
    return lines


def cell_labels(game: Game) -> dict[Move, str]:
    """The keys of ``game``'s legal cells, as they stand after its moves were played from the start."""
    return dict(CellKeys.replayed(game).update(game))
