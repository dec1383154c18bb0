"""Keep the message catalogues in step: ``python tools/catalogues.py update [CODE]`` or ``status``.

``update`` merges the English template (``src/foursquare/locale/foursquare.pot``) into every language's PO
file: new messages arrive untranslated, removed ones are dropped, an English text that changed marks its
translation fuzzy (to be checked), and the order and headers follow the template. ``status`` lists what each
language still lacks. Translators' tools (Poedit, Lokalize, Weblate) open the same files.
"""

from __future__ import annotations

import sys
from io import BytesIO
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from foursquare.i18n.catalogue import TEMPLATE, po_path  # noqa: E402
from foursquare.i18n.languages import ENGLISH, LANGUAGES  # noqa: E402


def read(path: Path, locale: str | None = None) -> Catalog:
    with path.open("rb") as file:
        return read_po(file, locale=locale)


def write(catalog: Catalog, path: Path) -> None:
    buffer = BytesIO()
    write_po(buffer, catalog, width=0, omit_header=False, include_previous=False)
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_suffix(".tmp")
    temporary.write_bytes(buffer.getvalue())
    temporary.replace(path)


def update(only: str | None = None) -> None:
    template = read(TEMPLATE)
    for language in LANGUAGES.values():
        if language is ENGLISH or (only is not None and language.code != only):
            continue
        path = po_path(language.code)
        old = read(path, language.cldr) if path.exists() else Catalog(locale=language.cldr)
        new = Catalog(
            locale=language.cldr,
            domain="foursquare",
            project="Foursquare",
            language_team=f"{language.name} <{language.code}>",
            header_comment=old.header_comment if path.exists() else _header(language.name),
            creation_date=template.creation_date,
            revision_date=old.revision_date if path.exists() else template.creation_date,
            fuzzy=False,
        )
        for message in template:
            if not message.id:
                continue
            previous = old.get(message.id, message.context)
            kept = previous is not None
            if not kept:  # the English changed: keep the old text as a fuzzy suggestion
                previous = next((m for m in old if m.context == message.context and m.id), None)
            string = previous.string if previous is not None else ("",) * _forms(new) if message.pluralizable else ""
            if message.pluralizable and not isinstance(string, tuple):
                string = (string,) + ("",) * (_forms(new) - 1)
            flags = set(message.flags) | ({"fuzzy"} if previous is not None and not kept else set())
            if previous is not None and kept and previous.fuzzy:
                flags.add("fuzzy")
            new[message.id] = Message(
                message.id, string, context=message.context, auto_comments=message.auto_comments,
                user_comments=previous.user_comments if previous is not None else [], flags=flags,
            )
        write(new, path)
        print(f"{language.code}: {path.relative_to(ROOT)}")


def _forms(catalog: Catalog) -> int:
    return catalog.num_plurals


def _header(name: str) -> str:
    return f"# Foursquare's messages in {name}.\n#\n# Glossary: (see the translator's notes below)\n#"


def status() -> int:
    missing_total = 0
    for language in LANGUAGES.values():
        if language is ENGLISH:
            continue
        catalog = read(po_path(language.code), language.cldr)
        missing = [m.context for m in catalog if m.id and (m.fuzzy or not _complete(m))]
        missing_total += len(missing)
        print(f"{language.code}: {len(missing)} to translate" + (f" (first: {missing[0]})" if missing else ""))
    return 1 if missing_total else 0


def _complete(message: Message) -> bool:
    if isinstance(message.string, tuple):
        return all(message.string)
    return bool(message.string)


if __name__ == "__main__":
    command = sys.argv[1] if len(sys.argv) > 1 else "status"
    if command == "update":
        update(sys.argv[2] if len(sys.argv) > 2 else None)
    elif command == "status":
        sys.exit(status())
    else:
        sys.exit(f"usage: {sys.argv[0]} update|status")
