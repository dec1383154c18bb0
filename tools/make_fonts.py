"""Subset Noto Sans Bengali and Kannada (SIL OFL 1.1) into the page's web fonts.

The page must show Bengali and Kannada on machines without fonts for them, so it ships its own, cut down to
the scripts' Unicode blocks (and the few shared marks shaping needs) and compressed as WOFF2; ``fonts.css``
gives each a ``unicode-range``, so a browser downloads one only when text in its script is shown. The
language menu names Bengali and Kannada in themselves: those two words get a tiny font of their own, so that
opening the menu does not fetch a whole script.

Run by hand after changing the ranges (needs Debian's fonts-noto-core, and fonttools with brotli):
``python tools/make_fonts.py``; the outputs are committed under ``src/foursquare/web/static/fonts/``.
"""

from __future__ import annotations

from pathlib import Path

from fontTools import subset

ROOT = Path(__file__).resolve().parent.parent
SOURCE = Path("/usr/share/fonts/truetype/noto")
OUT = ROOT / "src" / "foursquare" / "web" / "static" / "fonts"

#: Zero-width (non-)joiners and the dotted circle that shaping inserts before a lone mark; the danda.
SHARED = "U+200C-200D,U+25CC,U+0964-0965"
SCRIPTS = {
    "Bengali": "U+0980-09FF," + SHARED,
    "Kannada": "U+0C80-0CFF," + SHARED,
}
#: The language menu's names of the two languages (foursquare.i18n.LANGUAGES).
ENDONYMS = {"Bengali": "বাংলা", "Kannada": "ಕನ್ನಡ"}


def options(**extra: object) -> subset.Options:
    chosen = subset.Options()
    chosen.flavor = "woff2"
    chosen.layout_features = ["*"]  # Indic shaping needs its conjunct and mark features
    chosen.name_IDs = ["*"]  # keep the copyright and licence names the OFL asks for
    chosen.notdef_outline = True
    for name, value in extra.items():
        setattr(chosen, name, value)
    return chosen


def make(source: Path, target: Path, *, unicodes: str = "", text: str = "") -> None:
    chosen = options()
    font = subset.load_font(str(source), chosen)
    subsetter = subset.Subsetter(chosen)
    subsetter.populate(unicodes=subset.parse_unicodes(unicodes) if unicodes else [], text=text)
    subsetter.subset(font)
    subset.save_font(font, str(target), chosen)
    print(f"{target.relative_to(ROOT)}: {target.stat().st_size} bytes")


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for script, unicodes in SCRIPTS.items():
        for weight in ("Regular", "Bold"):
            source = SOURCE / f"NotoSans{script}-{weight}.ttf"
            make(source, OUT / f"NotoSans{script}-{weight}.woff2", unicodes=unicodes)
        make(SOURCE / f"NotoSans{script}-Regular.ttf", OUT / f"{script}-endonym.woff2", text=ENDONYMS[script])


if __name__ == "__main__":
    main()
