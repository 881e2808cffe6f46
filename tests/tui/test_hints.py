"""Issue 25, item 6: a field's hint must not pass for a value (it shows marked and in italics), and
damage with dice but no type says so before it is dealt (the attack dialogs' odds line, the area
dialog under its type field): resistances are never skipped unseen. Keys are sent in bursts."""

from __future__ import annotations

from pathlib import Path

from engine.rules.cosmere.commands import StartTurn
from tests.tui.support import app_on, burst, cid, demo_session, sync
from tui.area import AreaDialog
from tui.dialogs.fields import HINT_MARK, Field
from tui.rulesets.cosmere.dialogs import CosmereAttackDialog
from tui.rulesets.d20.dialogs import D20AttackDialog

UNTYPED = "No damage type: a hit is dealt untyped"


def odds(dlg: object) -> str:
    return str(dlg.query_one("#odds").render())  # type: ignore[attr-defined]


def line_of(field: Field) -> tuple[str, bool]:
    """The field's line as drawn, and whether its text is in italics."""
    strip = field.render_line(0)
    italic = all(seg.style is not None and seg.style.italic for seg in strip if seg.text.strip())
    return strip.text.strip(), italic


@sync
async def test_d20_hint_is_marked_and_dice_without_a_type_say_so_before_the_roll(tmp_path: Path) -> None:
    s = demo_session("d20", start=True)
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("w")
        dlg = app.screen
        assert isinstance(dlg, D20AttackDialog)
        dlg.query_one("#weapon_pick").value = -1  # type: ignore[attr-defined]  # other: typed by hand
        for wid in ("damage", "type"):
            dlg.query_one(f"#{wid}", Field).value = ""
        dlg.query_one("#damage", Field).focus()
        await pilot.pause()
        text, italic = line_of(dlg.query_one("#type", Field))
        assert text.startswith(HINT_MARK + "slashing") and italic  # a hint, not "slashing" typed
        await burst(pilot, "1", "d", "6")
        assert UNTYPED in odds(dlg)
        await burst(pilot, "tab", "f", "i", "r", "e")
        assert dlg.value("type") == "fire" and UNTYPED not in odds(dlg)
        text, italic = line_of(dlg.query_one("#type", Field))
        assert text == "fire" and not italic  # a value: no mark, upright
        await burst(pilot, "backspace", "backspace", "backspace", "backspace")
        assert dlg.value("type") == "" and UNTYPED in odds(dlg)
        await burst(pilot, "shift+tab", "backspace", "backspace", "backspace")
        assert dlg.value("damage") == "" and UNTYPED not in odds(dlg) and "No damage dice" in odds(dlg)


@sync
async def test_cosmere_attack_with_dice_and_no_type_says_so(tmp_path: Path) -> None:
    s = demo_session("cosmere", start=True)
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        app.commit(StartTurn(cid(s, "Kaladin")))
        await pilot.pause()
        await pilot.press("w")
        dlg = app.screen
        assert isinstance(dlg, CosmereAttackDialog)
        dlg.query_one("#weapon_pick").value = -1  # type: ignore[attr-defined]
        for wid in ("damage", "type"):
            dlg.query_one(f"#{wid}", Field).value = ""
        dlg.query_one("#damage", Field).focus()
        await pilot.pause()
        await burst(pilot, "2", "d", "6")
        assert UNTYPED in odds(dlg)
        await burst(pilot, "tab", "k", "e", "e", "n")
        assert dlg.value("type") == "keen" and UNTYPED not in odds(dlg)


@sync
async def test_area_damage_without_a_type_says_so_under_the_field(tmp_path: Path) -> None:
    s = demo_session("d20", start=True)
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("D")
        dlg = app.screen
        assert isinstance(dlg, AreaDialog)
        note = dlg.query_one("#type-note")
        assert not note.display  # nothing typed yet: nothing to say
        await burst(pilot, "8", "d", "6")
        assert note.display and "No damage type" in str(note.render())
        await burst(pilot, "tab", "tab", "f", "i", "r", "e")
        assert dlg.value("type") == "fire" and not note.display
