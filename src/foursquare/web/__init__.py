"""Foursquare in the browser: the JSON API and SQLite storage behind ``foursquare serve``.

- :mod:`~foursquare.web.app` builds the FastAPI application (:func:`create_app`) from the routers in
  :mod:`~foursquare.web.routes` (games; hint, analysis, record and replay; statistics; the page);
- :mod:`~foursquare.web.models` declares every success answer (the source of ``/openapi.json``'s schemas),
  :mod:`~foursquare.web.views` builds the answers about games as those models; :mod:`~foursquare.web.errors`
  the errors (with the sentences of :mod:`~foursquare.web.messages`);
- :mod:`~foursquare.store` (shared with the terminal game) keeps the games in SQLite;
  :mod:`~foursquare.web.deps` hands the store and the player to the routes; :mod:`~foursquare.web.player`
  sets the player cookie;
- :mod:`~foursquare.web.server` listens (:func:`serve`, ``foursquare serve``).

The page itself lives in ``static/`` (``static/app.js`` starts it).
"""

from foursquare.web.app import create_app
from foursquare.web.server import serve

__all__ = ["create_app", "serve"]
