"""The games database moved to :mod:`foursquare.store` (the terminal game records its games there too).

This name is kept so that code written against it goes on working; new code imports :mod:`foursquare.store`.
"""

from foursquare.store import *  # noqa: F403
from foursquare.store import __all__ as __all__
