"""A Cosmere adversary's abilities from the starter bestiary (issue 24): its reaction is used at once,
spending its focus; its area ability opens the area dialog filled in (the GM marks who resisted)."""

from __future__ import annotations

from pathlib import Path

import engine.library as L
from engine import commands as C
from engine import new_fight
from saves.session import Session
from tests.tui.support import app_on, burst, cid, dialog_error, of, sync
from tui.area import AreaDialog
from tui.main import MainScreen


def sentry_fight() -> Session:
    s = Session.memory(new_fight("cosmere", seed=3))
    for name in ("Kal", "Shal"):
        s.apply(C.AddCombatant(name, kind="pc", side="party", stats=(("health", 30),)))
    sb = next(x for x in L.starter("cosmere") if x.name == "Stormwall Sentry")
    s.apply(L.to_add(sb, 1)[0])
    s.apply(C.StartFight())
    return s


@sync
async def test_the_sentry_reacts_and_sweeps(tmp_path: Path) -> None:
    s = sentry_fight()
    app = app_on(s, tmp_path)
    sentry = cid(s, "Stormwall Sentry")
    focus = of(s, "Stormwall Sentry").pool("focus").current
    async with app.run_test(size=(80, 24)) as pilot:
        app.screen.select(sentry)  # type: ignore[attr-defined]
        await burst(pilot, "u")
        dlg = app.screen
        dlg.query_one("#user").value = sentry
        dlg.query_one("#what").focus()
        await burst(pilot, "h", "o", "enter")
        assert isinstance(app.screen, MainScreen), dialog_error(pilot)
        use = s.history.nodes[s.history.cursor].command
        assert isinstance(use, C.UseAbility) and (use.name, use.act, use.spend) == (
            "Hold the Line",
            "reaction",
            (("focus", 1),),
        )
        assert of(s, "Stormwall Sentry").pool("focus").current == focus - 1
        await burst(pilot, "u")
        dlg = app.screen
        dlg.query_one("#user").value = sentry
        dlg.query_one("#what").focus()
        await burst(pilot, "c", "r", "enter")
        area = app.screen
        assert isinstance(area, AreaDialog), dialog_error(pilot)
        ticked = sorted(c.name for n, c in enumerate(area.targets) if area.checked(f"hit-{n}"))
        assert ticked == ["Kal", "Shal"] and area.value("condition") == "Prone" and area.value("amount") == "2d10+3"
        # off its turn an action is refused by the engine, its line in the dialog, nothing spent
        await burst(pilot, "enter")
        assert isinstance(app.screen, AreaDialog)
        assert "it is not Stormwall Sentry's turn" in dialog_error(pilot)
        assert of(s, "Stormwall Sentry").pool("focus").current == focus - 1 and not of(s, "Kal").conditions
