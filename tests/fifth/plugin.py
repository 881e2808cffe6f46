"""Plain list registered for good when imported: what a ruleset living outside Fracas does in its own
package. `pytest -p tests.fifth.plugin ...` loads it before collection, so every test that loops over
the registries (`engine.ruleset_ids()`, `tui.rulesets.registered()`) covers it."""

from __future__ import annotations

from engine import register_ruleset
from tests.fifth.plainlist import COMMANDS, EVENTS, PlainList
from tests.fifth.slice import PlainListUI
from tui.rulesets import register

register_ruleset(PlainList(), commands=COMMANDS, events=EVENTS)
register(PlainListUI())
