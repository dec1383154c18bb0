"""``python -m foursquare``: the ``foursquare`` command, for an environment whose scripts are not on the PATH."""

import sys

from foursquare.cli import main

sys.exit(main())
