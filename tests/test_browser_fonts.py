"""The page draws Bengali and Kannada with the fonts it ships, and fetches each only when it is shown.

The machine may have system fonts for these scripts (Debian's fonts-noto-core); the check asks Chromium
which font actually drew the text (DevTools' ``CSS.getPlatformFontsForNode``): it must be the page's own
web font, not a system one, so a machine without the fonts draws the same.
"""

from __future__ import annotations

from typing import Any

import pytest

from browser_support import BROWSER_MARKS, DESKTOP, browser, new_page, open_home, server

pytestmark = BROWSER_MARKS
__all__ = ["browser", "server"]

SAMPLES = {
    "bn": ("Bengali", "তাস সাজান: সারি ও কলাম ১২৩"),
    "kn": ("Kannada", "ಎಲೆಗಳನ್ನು ಇರಿಸಿ: ಸಾಲು ಮತ್ತು ಕಾಲಮ್"),
}


def fonts_of(page: Any, selector: str) -> list[dict[str, Any]]:
    """The fonts Chromium used to draw the text of ``selector``: [{familyName, isCustomFont, glyphCount}]."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("DOM.enable")
    cdp.send("CSS.enable")
    root = cdp.send("DOM.getDocument", {"depth": -1})["root"]["nodeId"]
    node = cdp.send("DOM.querySelector", {"nodeId": root, "selector": selector})["nodeId"]
    fonts: list[dict[str, Any]] = cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]
    return fonts


def show_text(page: Any, code: str, text: str) -> None:
    page.evaluate(
        """([code, text]) => {
            const p = document.createElement("p");
            p.id = "probe-" + code;
            p.lang = code;
            p.textContent = text;
            document.querySelector("main, body").append(p);
        }""",
        [code, text],
    )
    page.evaluate("async () => { await document.fonts.ready; }")


def test_each_script_is_drawn_with_the_shipped_font_fetched_only_when_shown(browser: Any, server: str) -> None:
    page = new_page(browser, DESKTOP, extra_http_headers={"Accept-Language": "en"})
    fetched: list[str] = []
    page.on("request", lambda request: fetched.append(request.url))
    open_home(page, server)
    page.evaluate("async () => { await document.fonts.ready; }")
    assert not [url for url in fetched if url.endswith(".woff2")], "an English page fetched a script's font"

    for code, (script, text) in SAMPLES.items():
        show_text(page, code, text)
        fonts = fonts_of(page, f"#probe-{code}")
        drawn_by = {font["familyName"]: font for font in fonts}
        assert f"Noto Sans {script}" in drawn_by, fonts
        assert drawn_by[f"Noto Sans {script}"]["isCustomFont"], f"{script} was drawn by a system font: {fonts}"
        assert drawn_by[f"Noto Sans {script}"]["glyphCount"] >= len(text.replace(" ", "")) // 2
        assert any(url.endswith(f"NotoSans{script}-Regular.woff2") for url in fetched)

    other = [url for url in fetched if url.endswith(".woff2") and "NotoSans" not in url]
    assert not other, other
    assert not page.errors


@pytest.mark.parametrize("code", ["bn", "kn"])
def test_the_shipped_fonts_are_served_with_their_licence(server: str, code: str) -> None:
    import urllib.request

    script = SAMPLES[code][0]
    with urllib.request.urlopen(f"{server}/static/fonts/NotoSans{script}-Regular.woff2") as answer:
        assert answer.read(4) == b"wOF2"
    with urllib.request.urlopen(f"{server}/static/fonts/OFL.txt") as answer:
        assert b"SIL OPEN FONT LICENSE Version 1.1" in answer.read()
