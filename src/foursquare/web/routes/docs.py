"""``/docs``: the interactive OpenAPI description (Swagger UI), with a content security policy of its own.

Swagger UI's script and style are the files of the ``fastapi-offline`` package, served from this server at
addresses that name the package's version (so a browser may keep them a year: a new version is a new address).
The page starts Swagger UI with an inline script, which the site's policy (:mod:`foursquare.web.security`)
forbids; this one page allows exactly that script, by its hash (Swagger UI styles through the CSSOM, which the
policy allows). It names no other site: no CDN, no icon but the game's own.
"""

from __future__ import annotations

import re
from importlib.metadata import version
from pathlib import Path

import fastapi_offline
from fastapi import APIRouter
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import FileResponse, HTMLResponse

from foursquare.web.routing import Route
from foursquare.web.security import content_security_policy, csp_header, sha256_source

ASSETS = Path(fastapi_offline.__file__).parent / "static"
"""The folder of the package's Swagger UI files."""
PREFIX = f"/docs/{version('fastapi-offline')}"
"""Where this server serves them: an address of the package's version."""
SCRIPT, STYLE = "swagger-ui-bundle.js", "swagger-ui.css"
KEPT_A_YEAR = "public, max-age=31536000, immutable"

router = APIRouter(include_in_schema=False, route_class=Route)


@router.get("/docs")
def swagger_ui() -> HTMLResponse:
    page = get_swagger_ui_html(
        openapi_url="/openapi.json",
        title="Foursquare API",
        swagger_js_url=f"{PREFIX}/{SCRIPT}",
        swagger_css_url=f"{PREFIX}/{STYLE}",
        swagger_favicon_url="/static/favicon.svg",
        swagger_ui_parameters={"validatorUrl": None},  # Swagger UI would ask validator.swagger.io
    )
    html = bytes(page.body).decode()
    inline = " ".join(sha256_source(script) for script in re.findall(r"<script>(.*?)</script>", html, flags=re.S))
    policy = content_security_policy(script_src=inline)
    return HTMLResponse(html, headers={"Content-Security-Policy": csp_header(policy)})


@router.get(f"{PREFIX}/{SCRIPT}")
def swagger_ui_script() -> FileResponse:
    return FileResponse(ASSETS / SCRIPT, media_type="text/javascript", headers={"Cache-Control": KEPT_A_YEAR})


@router.get(f"{PREFIX}/{STYLE}")
def swagger_ui_style() -> FileResponse:
    return FileResponse(ASSETS / STYLE, media_type="text/css", headers={"Cache-Control": KEPT_A_YEAR})
