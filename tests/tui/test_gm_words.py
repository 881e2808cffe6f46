"""Internal words said in the GM's (issue 25, item 12): the log's edits and settings, the sheet's
stat labels and its heading without the app's id."""

from __future__ import annotations

from engine import apply, describe, new_fight
from engine import commands as C
from engine.core import SETTINGS
from engine.events import SETTING_WORDS, SettingChanged
from engine.ruleset import get_ruleset
from tests.tui.statblocks import WYRM, fight_with
from tests.tui.support import cid
from tui.panes import sheet


def test_the_log_says_flags_and_settings_in_the_gms_words() -> None:
    f = new_fight("d20", seed=1)
    f, _ = apply(f, C.AddCombatant("Goblin", stats=(("hp", 7),)))
    f, ev = apply(f, C.EditCombatant("c1", flags=("minion", "hidden")))
    assert describe(ev[0]) == "Goblin: now a minion, hidden from the players"
    f, ev = apply(f, C.EditCombatant("c1", flags=("minion", "shield")))
    assert describe(ev[0]) == "Goblin: now flagged shield; no longer hidden from the players"
    f, ev = apply(f, C.EditCombatant("c1", stats=(("ac", 15),), resist=("fire",), kind="npc"))
    line = describe(ev[0])
    assert "Armor Class 15" in line and "resistant to fire" in line, line
    f, ev = apply(f, C.Setting("view_health", "numbers"))
    assert describe(ev[0]) == "Players' view: enemies' health as numbers"


def test_every_setting_has_its_words() -> None:
    for key, values in SETTINGS.items():
        for value in values:
            assert (key, value) in SETTING_WORDS, (key, value)
            assert key not in describe(SettingChanged(key, value))


def test_the_sheet_names_stats_in_words_and_shows_no_id() -> None:
    rs = get_ruleset("warhammer")
    f = new_fight("warhammer", seed=1)
    f, _ = apply(f, C.AddCombatant("Beastman", stats=(("wounds", 12), ("s", 48))))
    c = f.combatants[0]
    text = sheet(f, rs, c).plain
    assert "Strength" in text and "48" in text
    lines = [line.split() for line in text.splitlines()]
    assert ["s", "48"] not in lines and not any(w[:1] == ["s"] for w in lines), text
    assert c.id not in text.split()  # "c1": the app's id, never the GM's word
    assert "NPC · enemy" in text and "· c1" not in text
    # a library creature's ability scores and saves, named
    s = fight_with(WYRM)
    wyrm = s.state.get(cid(s, "Ember Wyrm"))
    text = sheet(s.state, get_ruleset("d20"), wyrm).plain
    assert "Wisdom score" in text and "Constitution save bonus" in text
    assert "wis " not in text and "con_save" not in text, text
