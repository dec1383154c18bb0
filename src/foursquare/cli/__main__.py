"""``python -m foursquare.cli``: the ``foursquare`` command."""

import sys

from foursquare.cli import main

sys.exit(main())
