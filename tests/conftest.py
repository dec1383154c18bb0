"""Every test runs in English unless it asks for another language, with the signals a terminal sends.

The command line and the terminal game follow the POSIX environment (``LANGUAGE`` first), so a developer
whose machine is set to Bengali would otherwise read Bengali where a test expects English. Tests of other
languages set ``LANGUAGE``/``LANG`` or pass ``--lang`` themselves.

A suite started in the background (``make test &``, ``nohup``, some CI runners) ignores SIGINT or SIGHUP, and a
process it starts inherits that: the command then rightly leaves them ignored (as ``nohup`` asks), and the tests
that send them would see nothing happen. So the tests' processes get the dispositions a terminal's foreground
job has; the tests of an ignored signal ignore it themselves.
"""

from __future__ import annotations

import os
import signal

os.environ["LANGUAGE"] = "en"

if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)
if signal.getsignal(signal.SIGHUP) is signal.SIG_IGN:
    signal.signal(signal.SIGHUP, signal.SIG_DFL)
