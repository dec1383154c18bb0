"""Writing a file whole or not at all: the one way the project writes a file a person keeps.

The content goes to a temporary file of a name no other file has, in the target's own folder, which then
replaces the target in one step (``os.replace``): a reader sees the old file or the new one, never half of one,
and a failure at any point — a full disk, Ctrl-C, a bug — leaves the target as it was and no temporary file
behind. A target that exists and is no regular file (``/dev/stdout``, a pipe) is written in place, as it is.
A target that is a folder, a folder that does not exist or a place that cannot be written is a
:class:`FileWriteError` with a code and the path, before anything is written.

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> (folder / "keep.csv.tmp").write_text("someone's notes")
15
>>> write_text(folder / "keep.csv", "deal,score\\n1,7\\n")
>>> sorted(p.name for p in folder.iterdir()), (folder / "keep.csv.tmp").read_text()
(['keep.csv', 'keep.csv.tmp'], "someone's notes")
>>> write_text(folder, "x")
Traceback (most recent call last):
...
foursquare.files.FileWriteError: cannot write ...: it is a folder
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TextIO

from foursquare.errors import FoursquareError


class FileWriteError(FoursquareError):
    """A file cannot be written: code ``is_directory``, ``no_directory``, ``not_a_folder`` or ``cannot_write``.

    Its details: ``path``, ``folder`` (the path's), ``reason`` (in English: the system's words for an OS error).
    """


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


# Read once, at import (os.umask can only be read by setting it): new files get the permissions a plain open() gives.
NEW_FILE_MODE = 0o666 & ~_umask()


def _refuse(code: str, target: Path, reason: str) -> FileWriteError:
    return FileWriteError(
        f"cannot write {target}: {reason}", code, path=str(target), folder=str(target.parent), reason=reason
    )


@contextlib.contextmanager
def atomic_path(target: str | os.PathLike[str], *, suffix: str = ".tmp") -> Iterator[Path]:
    """A new, empty temporary file beside ``target`` for the caller to fill; it then replaces ``target``.

    ``suffix`` ends the temporary name (a program that picks its format from it, such as matplotlib, wants
    ``.png``). If the body raises, the temporary file is removed and ``target`` is untouched.
    """
    target = Path(target)
    folder = target.parent
    if target.is_dir():
        raise _refuse("is_directory", target, "it is a folder")
    if target.exists() and not target.is_file():
        yield from _in_place(target)  # a device or a pipe (/dev/stdout): written as it is, never replaced
        return
    if not folder.is_dir():
        raise _refuse("no_directory", target, f"there is no folder {folder}")
    try:
        handle, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=suffix, dir=folder)
    except OSError as exc:
        raise _refuse("cannot_write", target, exc.strerror or str(exc)) from None
    os.close(handle)
    temporary = Path(name)
    try:
        os.chmod(temporary, target.stat().st_mode & 0o7777 if target.exists() else NEW_FILE_MODE)
        yield temporary
        os.replace(temporary, target)
    except OSError as exc:
        temporary.unlink(missing_ok=True)
        raise _refuse("cannot_write", target, exc.strerror or str(exc)) from None
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


def make_folder(folder: str | os.PathLike[str]) -> Path:
    """``folder``, created with its parents if missing (for files to be written into it).

    :class:`FileWriteError` ``not_a_folder`` if it is a file, ``cannot_write`` if it cannot be made.
    """
    path = Path(folder)
    if path.exists() and not path.is_dir():
        raise _refuse("not_a_folder", path, "it is a file, not a folder")
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise _refuse("cannot_write", path, exc.strerror or str(exc)) from None
    return path


def _in_place(target: Path) -> Iterator[Path]:
    try:
        yield target
    except OSError as exc:
        raise _refuse("cannot_write", target, exc.strerror or str(exc)) from None


def write_text(target: str | os.PathLike[str], content: str | Callable[[TextIO], object]) -> None:
    """Write ``content`` (a text, or a function that writes to the open file) to ``target`` atomically, in UTF-8."""
    with atomic_path(target) as temporary, open(temporary, "w", encoding="utf-8", newline="") as file:
        if isinstance(content, str):
            file.write(content)
        else:
            content(file)
        file.flush()
        if temporary.is_file():  # a device or a pipe written in place has nothing to sync (and says EINVAL)
            os.fsync(file.fileno())
