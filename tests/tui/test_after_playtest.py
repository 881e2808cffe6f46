"""What a play-test at 80x24 found: an attack's outcome cut off the narrow screen's message (the
economy came first), and a downed ally left selected made the next attack's default target."""

from __future__ import annotations

from pathlib import Path

from engine import commands as C
from engine.events import ActionUsed, Damaged
from tests.tui.support import app_on, cid, demo_session, main_screen, of, select, sync
from tui.app import summary
from tui.rulesets.d20.dialogs import D20AttackDialog


def test_what_happened_comes_before_what_it_cost() -> None:
    used = ActionUsed("c1", "Bandit 3", "action", "Attack")
    hit = Damaged("c2", "Brannoc", 5, 5, "slashing", left=29)
    text = summary([used, hit])
    assert text.index("Brannoc") < text.index("Attack")


@sync
async def test_a_downed_ally_selected_is_not_the_next_attack_s_target(tmp_path: Path) -> None:
    s = demo_session("d20", start=True)
    captain = cid(s, "Bandit Captain")
    s.apply(C.Damage(cid(s, "Bandit 1"), amount=50))  # down
    while s.state.current != captain:
        s.apply(C.NextTurn())
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await select(pilot, "Bandit 1")
        await pilot.press("w")
        dlg = app.screen
        assert isinstance(dlg, D20AttackDialog)
        target = of(s, "Bandit 1").id
        assert dlg.choice("target") != target
        assert s.state.get(dlg.choice("target")).side == "party"
        await pilot.press("escape")
        # a foe selected is still the target, downed or not (the GM may mean it)
        await select(pilot, "Brannoc")
        await pilot.press("w")
        assert app.screen.choice("target") == of(s, "Brannoc").id  # type: ignore[attr-defined]
        await pilot.press("escape")
        assert app.screen is main_screen(pilot)
