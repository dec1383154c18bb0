"""``/docs``: the interactive OpenAPI description (Swagger UI), with a content security policy of its own.

Swagger UI loads its script and style from a CDN and starts with an inline script, which the site's policy
(:mod:`foursquare.web.security`) forbids; this one page allows exactly those: the CDN, and the inline script
by its hash (Swagger UI also sets inline styles). It shows nothing without access to the CDN.
"""

from __future__ import annotations

import re

from fastapi import APIRouter
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import HTMLResponse

from foursquare.web.routing import Route
from foursquare.web.security import content_security_policy, csp_header, sha256_source

CDN = "https://cdn.jsdelivr.net"
ICON = "https://fastapi.tiangolo.com"

router = APIRouter(include_in_schema=False, route_class=Route)


@router.get("/docs")
def swagger_ui() -> HTMLResponse:
    page = get_swagger_ui_html(openapi_url="/openapi.json", title="Foursquare API")
    html = bytes(page.body).decode()
    inline = " ".join(sha256_source(script) for script in re.findall(r"<script>(.*?)</script>", html, flags=re.S))
    policy = content_security_policy(script_src=f"{CDN} {inline}", style_src=f"{CDN} 'unsafe-inline'", img_src=ICON)
    return HTMLResponse(html, headers={"Content-Security-Policy": csp_header(policy)})
