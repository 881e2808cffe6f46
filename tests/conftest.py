"""For every test: the pilot of an app test waits on the app's work, not on the clock
(tests/pilot_waits.py)."""

from __future__ import annotations

from tests import pilot_waits

pilot_waits.install()
