"""Compile the message catalogues ahead of time: ``python -m foursquare.i18n.compile [LOCALE_DIR]``.

Each catalogue file (the template, each language's PO file) is read with Babel and its messages written as
:func:`foursquare.i18n.catalogue.load` gives them, as JSON beside it (``foursquare.po.json``), stamped with the
SHA-256 of the file, so that a command loads them without Babel (:mod:`foursquare.i18n.catalogue`). setup.py
compiles the catalogues of the package it builds (a wheel holds them), or of the checkout for an editable install
(``pip install -e``, the Makefile's installs); run it again after editing a catalogue (until then the game reads
the file with Babel, more slowly). tests/test_startup.py runs it too.
Each file is written whole or not at all (a temporary file renamed over it), so a command reading it meanwhile
sees the old one or the new one.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path

from foursquare.i18n.catalogue import (
    COMPILED_FORMAT,
    DOMAIN,
    LOCALE_DIR,
    compiled_path,
    read_messages,
    stamp,
)
from foursquare.i18n.languages import ENGLISH, LANGUAGES, Language


def sources(locale_dir: Path = LOCALE_DIR) -> list[tuple[Path, Language | None]]:
    """Every catalogue file under ``locale_dir`` with its language (None for the template), template first."""
    found: list[tuple[Path, Language | None]] = [(locale_dir / f"{DOMAIN}.pot", None)]
    for code, language in LANGUAGES.items():
        if language is not ENGLISH:
            found.append((locale_dir / code / "LC_MESSAGES" / f"{DOMAIN}.po", language))
    return found


def compile_catalogue(source: Path, language: Language | None) -> Path:
    """Write the compiled messages of one catalogue file beside it; its path."""
    data = source.read_bytes()
    messages = read_messages(source, language)
    content = {"format": COMPILED_FORMAT, "source": source.name, "sha256": stamp(data), "messages": messages}
    target = compiled_path(source)
    handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as file:
            json.dump(content, file, ensure_ascii=False, separators=(",", ":"))
        os.chmod(temporary, 0o644)
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return target


def compile_all(locale_dir: Path = LOCALE_DIR) -> list[Path]:
    """Compile every catalogue file under ``locale_dir`` (the package's, or a build's copy of it)."""
    return [compile_catalogue(source, language) for source, language in sources(locale_dir)]


def main(argv: list[str] | None = None) -> int:
    arguments = sys.argv[1:] if argv is None else argv
    locale_dir = Path(arguments[0]) if arguments else LOCALE_DIR
    for path in compile_all(locale_dir):
        print(f"foursquare: compiled {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
