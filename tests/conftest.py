"""For every test: the pilot of an app test waits on the app's work, not on the clock
(tests/pilot_waits.py), and the apps of a test process parse each block of Textual CSS once
(tests/shared_css.py)."""

from __future__ import annotations

from tests import pilot_waits, shared_css

pilot_waits.install()
shared_css.install()
