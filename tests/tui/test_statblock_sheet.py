"""The sheet shows a library creature's whole statblock (issue 24): its attacks, its abilities under
when they are used with what limits them (Fire Breath ready or spent and on what roll, legendary
actions left), its spells with DC, bonus and slots left, its traits with their text, its immunities;
the tracker marks a spent breath. At 80x24 the sheet pane scrolls to all of it."""

from __future__ import annotations

from pathlib import Path

from msgspec.structs import replace

from engine import commands as C
from engine import get_ruleset
from engine.state import Fight
from tests.tui.statblocks import BOSS, MAGE, WYRM, fight_with
from tests.tui.support import app_on, cid, main_screen, pane_text, select, sync
from tui.panes import sheet
from tui.views import tracker_rows

RS = get_ruleset("d20")


def spent(f: Fight, who: str, key: str, left: int = 0) -> Fight:
    """`f` with `who`'s pool `key` down to `left` (what spending it does, without the commands)."""
    c = f.get(who)
    pools = tuple(replace(p, current=left) if p.key == key else p for p in c.resources)
    return replace(f, combatants=tuple(replace(x, resources=pools) if x.id == who else x for x in f.combatants))


def test_the_wyrm_sheet_has_its_whole_statblock() -> None:
    s = fight_with(WYRM, MAGE, BOSS)
    wyrm = cid(s, "Ember Wyrm")
    text = sheet(s.state, RS, s.state.get(wyrm)).plain
    assert "Fire Breath ready   Legendary actions 3/3   Legendary Resistance 3/3" in text
    assert "Immune: fire" in text and "Condition immune: Frightened" in text
    assert "Attacks\n Bite +14, 2d10+8 piercing + 2d6 fire (reach 10 ft)" in text
    assert "Tail +14, 2d8+8 bludgeoning (reach 15 ft); The target makes a DC 22 Strength save or is knocked" in text
    assert "Actions\n Multiattack: Bite, Claw, Claw\n Fire Breath (recharge 5-6): DC 21 Dex, 18d6 fire" in text
    assert "half on a save (60-foot cone) · ready\n   The wyrm exhales fire" in text
    assert "Legendary actions 3/3 a round, at the end of another's turn\n Tail Sweep" in text
    assert "Wing Gust (legendary, costs 2): DC 22 Dex, 2d6+8 bludgeoning, none on a save, Prone" in text
    assert "Legendary Resistance 3/3 (a failed save becomes a success)" in text
    assert "Traits\n Ash Shroud: Smoke clings to it" in text
    later = spent(spent(s.state, wyrm, "Fire Breath"), wyrm, "Legendary actions", 1)
    text = sheet(later, RS, later.get(wyrm)).plain
    assert "Fire Breath spent (5-6)   Legendary actions 1/3" in text
    assert "half on a save (60-foot cone) · spent, recharges on 5-6" in text
    assert "Legendary actions 1/3 a round" in text


def test_the_mage_sheet_has_its_spells_and_slots_left() -> None:
    s = fight_with(MAGE)
    mage = cid(s, "Court Mage")
    f = spent(s.state, mage, "Spell slots 2", 1)
    text = sheet(f, RS, f.get(mage)).plain
    assert "Slots 1st 4/4 2nd 1/3 3rd 2/2" in text
    assert "Spells (Int): save DC 14, +6 to hit; slots 1st 4/4, 2nd 1/3, 3rd 2/2" in text
    assert " Spark (cantrip): +6 to hit, 2d10 fire" in text
    assert " Binding Word (level 2): DC 14 Wis, Restrained" in text


def test_a_reaction_is_under_reactions_and_a_typed_combatant_has_no_statblock_part() -> None:
    s = fight_with(BOSS)
    text = sheet(s.state, RS, s.state.get(cid(s, "Bandit Chief"))).plain
    assert "Reactions\n Parry (reaction)\n   Adds 2 to its AC" in text
    plain = sheet(s.state, RS, s.state.get(cid(s, "Ayla"))).plain
    assert "Attacks" not in plain and "Actions" not in plain


def test_the_tracker_marks_a_spent_breath() -> None:
    s = fight_with(WYRM)
    wyrm = cid(s, "Ember Wyrm")
    row = next(r for r in tracker_rows(s.state, RS, 80) if r.cid == wyrm).text.plain
    assert "✗" not in row
    f = spent(s.state, wyrm, "Fire Breath")
    row = next(r for r in tracker_rows(f, RS, 80) if r.cid == wyrm).text.plain
    assert row.rstrip().endswith("✗Fire Breath")
    f = replace(f, combatants=tuple(replace(c, conditions=()) for c in f.combatants))
    narrow = next(r for r in tracker_rows(f, RS, 50) if r.cid == wyrm).text.plain
    assert "✗" in narrow  # cut to fit, never pushing the row past its width
    assert len(narrow.rstrip()) <= 50


@sync
async def test_the_sheet_scrolls_to_the_traits_at_80x24(tmp_path: Path) -> None:
    s = fight_with(WYRM, start=False)
    s.apply(C.StartFight())
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await select(pilot, "Ember Wyrm")
        text = await pane_text(pilot, "sheet")
        assert "Fire Breath ready" in text and "Ash Shroud" in text
        pane = main_screen(pilot).query_one("#sheet")
        assert pane.max_scroll_y > 0  # longer than the screen: it scrolls
