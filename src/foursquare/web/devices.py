"""A signed-in browser's short name, from its ``User-Agent``: the browser and the system, nothing more.

The session keeps ``"Chrome/Android"`` (:func:`device_of`), never the header: a version, a phone's model or a
build number would tell a browser apart from its neighbours, and the owner only needs to recognise their own
devices. The API gives both parts apart (:func:`parts_of`), and the page words them in the reader's language.

>>> device_of("Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko)"
...           " Chrome/126.0.0.0 Mobile Safari/537.36")
'Chrome/Android'
>>> device_of("Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko)"
...           " Version/17.5 Mobile/15E148 Safari/604.1")
'Safari/iPhone'
>>> device_of("curl/8.5.0"), device_of(None), parts_of("Firefox/"), parts_of("Firefox/Windows")
(None, None, ('Firefox', None), ('Firefox', 'Windows'))
"""

from __future__ import annotations

BROWSERS = (
    ("Edg/", "Edge"),
    ("EdgiOS/", "Edge"),
    ("OPR/", "Opera"),
    ("SamsungBrowser/", "Samsung Internet"),
    ("Firefox/", "Firefox"),
    ("FxiOS/", "Firefox"),
    ("CriOS/", "Chrome"),
    ("Chromium/", "Chromium"),
    ("Chrome/", "Chrome"),
    ("Safari/", "Safari"),
)
"""Each browser by the token that names it, the more particular first (Edge's header names Chrome too)."""

SYSTEMS = (
    ("Android", "Android"),
    ("iPhone", "iPhone"),
    ("iPad", "iPad"),
    ("CrOS", "ChromeOS"),
    ("Windows", "Windows"),
    ("Macintosh", "macOS"),
    ("Linux", "Linux"),
)
"""Each system by the token that names it, the more particular first (Android's header names Linux too)."""

MAX_HEADER = 1000
"""The part of the header read: a browser's fits, a longer one is a script's."""


def device_of(user_agent: str | None) -> str | None:
    """The short name kept for a browser: ``"browser/system"``, either part empty if unknown; None if both are."""
    text = (user_agent or "")[:MAX_HEADER]
    browser = next((name for token, name in BROWSERS if token in text), "")
    system = next((name for token, name in SYSTEMS if token in text), "")
    return f"{browser}/{system}" if browser or system else None


def parts_of(device: str | None) -> tuple[str | None, str | None]:
    """The browser and the system of a kept name (:func:`device_of`), each None if unknown."""
    if not device:
        return None, None
    browser, _, system = device.partition("/")
    return browser or None, system or None
