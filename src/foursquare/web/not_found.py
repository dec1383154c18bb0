"""The "page not found" page a browser gets for an unknown address (programs get JSON, see :mod:`.errors`).

It is self-contained — its style is inline, allowed by its own CSP hash, so it shows even when the page's
files are missing — and says only a few words of the catalogue (``server.page_not_found.*``), in the language
of the request's ``Accept-Language``, never the address asked for.

>>> wants_html("/nowhere", "text/html,application/xhtml+xml,*/*;q=0.8"), wants_html("/api/x", "text/html")
(True, False)
>>> wants_html("/nowhere", "*/*"), wants_html("/nowhere", "application/json")
(False, False)
"""

from __future__ import annotations

from html import escape

from fastapi.responses import HTMLResponse

from foursquare.i18n import Translator
from foursquare.web.messages import english, say_in
from foursquare.web.security import content_security_policy, csp_header, sha256_source

STYLE = """
:root { color-scheme: light; --bg: #f3efe6; --card: #fffdf8; --text: #1f2328; --muted: #59636e; --accent: #1f6f54;
  --on-accent: #fff; }
@media (prefers-color-scheme: dark) {
  :root:not([data-theme="light"]) { color-scheme: dark; --bg: #12161b; --card: #1b2129; --text: #e8eaed;
    --muted: #a3acb7; --accent: #3fa37f; --on-accent: #0d1a14; }
}
:root[data-theme="dark"] { color-scheme: dark; --bg: #12161b; --card: #1b2129; --text: #e8eaed; --muted: #a3acb7;
  --accent: #3fa37f; --on-accent: #0d1a14; }
body { margin: 0; min-height: 100vh; display: grid; place-items: center; background: var(--bg); color: var(--text);
  font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
main { margin: 1rem; padding: 2rem 2.5rem; max-width: 28rem; text-align: center; background: var(--card);
  border-radius: 14px; box-shadow: 0 6px 24px rgb(0 0 0 / 0.12); }
.status { margin: 0; font-size: 3.5rem; font-weight: 700; letter-spacing: 0.05em; color: var(--accent); }
h1 { margin: 0.25rem 0 0.5rem; font-size: 1.4rem; }
p { margin: 0 0 1.5rem; color: var(--muted); }
a { display: inline-block; padding: 0.6rem 1.2rem; border-radius: 8px; background: var(--accent);
  color: var(--on-accent); font-weight: 600; text-decoration: none; }
a:focus-visible { outline: 3px solid var(--text); outline-offset: 2px; }
"""

PAGE = """<!doctype html>
<html lang="{lang}" dir="{direction}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>{page_title}</title>
<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">
<script src="/static/theme-init.js"></script>
<style>{style}</style>
</head>
<body>
<main>
<p class="status">404</p>
<h1>{title}</h1>
<p>{text}</p>
<a href="/">{link}</a>
</main>
</body>
</html>
"""

POLICY = csp_header(content_security_policy(style_src=sha256_source(STYLE)))


def wants_html(path: str, accept: str) -> bool:
    """A browser's navigation (it accepts HTML) to an address outside the API."""
    return not path.startswith("/api/") and "text/html" in accept.lower()


def not_found_page(t: Translator | None = None) -> HTMLResponse:
    """404, the "page not found" page in ``t``'s language (English by default), with a link to the game."""
    t = t or english()
    words = {key: escape(say_in(t, f"page_not_found.{key}")) for key in ("title", "text", "link")}
    page_title = escape(t("app.pageTitle", page=say_in(t, "page_not_found.title")))
    lang = t.language
    html = PAGE.format(style=STYLE, lang=lang.code, direction=lang.direction, page_title=page_title, **words)
    return HTMLResponse(html, status_code=404, headers={"Content-Security-Policy": POLICY, "Cache-Control": "no-cache"})
