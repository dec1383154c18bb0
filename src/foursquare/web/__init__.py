"""Foursquare in the browser: the JSON API and SQLite storage behind ``foursquare serve``.

:func:`foursquare.web.server.create_app` builds the FastAPI application; :mod:`foursquare.web.store`
keeps the games. The page itself lives in ``static/``.
"""
