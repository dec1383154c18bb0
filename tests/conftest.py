"""Every test runs in English unless it asks for another language.

The command line and the terminal game follow the POSIX environment (``LANGUAGE`` first), so a developer
whose machine is set to Bengali would otherwise read Bengali where a test expects English. Tests of other
languages set ``LANGUAGE``/``LANG`` or pass ``--lang`` themselves.
"""

from __future__ import annotations

import os

os.environ["LANGUAGE"] = "en"
