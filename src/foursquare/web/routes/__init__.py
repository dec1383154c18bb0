"""The API's routes, one router per concern; :func:`foursquare.web.app.create_app` includes them all.

- :mod:`.games`: start, list, show and play games (moves, undo, redo, restart);
- :mod:`.analysis`: advice and hindsight — the hint while playing; the analysis, record and replay after;
- :mod:`.stats`: the player's statistics;
- :mod:`.page`: the web page itself (``/``, ``/game/{id}``, ``/stats``, ``/rules``) and its static files.
"""
