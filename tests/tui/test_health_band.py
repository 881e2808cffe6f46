"""Health at a glance in the tracker (issue 14, item 6): the health cell's band (hurt, bloodied at half
or less, critical at a quarter or less) in colours of its own in every theme and marked for a GM
without colour; a PC at Death's Door looks nothing like a dead NPC; it all fits at 80x24."""

from __future__ import annotations

from pathlib import Path

import pytest
from msgspec.structs import replace
from rich.style import Style
from textual.theme import Theme

from engine import commands as C
from engine import get_ruleset
from engine.state import Combatant, Condition, Pool
from saves.session import Session
from tests.tui.support import app_on, cid, demo_session, main_screen, sync
from tui.rulesets.warhammer import zero_wounds
from tui.views import PLAIN, ROLES, health_band, health_text, tracker_rows
from tui.widgets import Tracker

TAGGED = {r: Style(link=f"role:{r}") for r in ROLES}  # each role told apart by its link


def _pc(current: int, maximum: int = 40, **kw: object) -> Combatant:
    return Combatant("c1", "Ysolde", kind="pc", side="party", health=(Pool("hp", current, maximum),), **kw)  # type: ignore[arg-type]


def _npc(current: int, maximum: int = 40) -> Combatant:
    return Combatant("c2", "Goblin", health=(Pool("hp", current, maximum),))


def _roles(t: object) -> set[str]:
    spans = t.spans  # type: ignore[attr-defined]
    return {str(s.style.link).removeprefix("role:") for s in spans if isinstance(s.style, Style) and s.style.link}


@pytest.mark.parametrize(
    ("current", "band", "mark"),
    [(40, "unhurt", ""), (39, "hurt", ""), (21, "hurt", ""), (20, "bloodied", "½"), (11, "bloodied", "½"),
     (10, "critical", "¼"), (1, "critical", "¼")],
)
def test_the_band_follows_the_numbers_and_is_marked_without_colour(current: int, band: str, mark: str) -> None:
    c = _npc(current)
    assert health_band(c.health[0]) == band
    text = health_text(c.health[0], c, TAGGED, 10)
    assert text.plain == f"{current}/40" + (f" {mark}" if mark else "")
    role = {"unhurt": "good"}.get(band, f"hp-{band}")
    assert role in _roles(text)


def test_at_zero_a_pc_is_dying_and_an_npc_is_down() -> None:
    pc, npc = _pc(0), _npc(0)
    assert health_text(pc.health[0], pc, TAGGED, 10).plain == "0/40 dying"
    assert health_text(npc.health[0], npc, TAGGED, 10).plain == "0/40 down"
    assert _roles(health_text(pc.health[0], pc, TAGGED, 10)) == {"hp-dying"}
    assert _roles(health_text(npc.health[0], npc, TAGGED, 10)) == {"hp-down"}
    companion = Combatant("c3", "Grey Wolf", kind="pc", side="party", owner="c1", health=(Pool("hp", 0, 11),))
    assert health_text(companion.health[0], companion, PLAIN, 10).plain == "0/11 down"  # a companion drops


@pytest.mark.parametrize(
    ("width", "shown"),
    [(0, "0/120+5 dying"), (13, "0/120+5 dying"), (12, "0/120+5 ✚"), (9, "0/120+5 ✚"), (8, "0/120+5✚"),
     (7, "0/120 ✚"),
     (6, "0/120✚"), (4, "0 ✚")],
)
def test_a_narrow_column_gives_up_the_word_and_the_numbers_before_the_mark(width: int, shown: str) -> None:
    c = Combatant("c1", "Ysolde", kind="pc", side="party", health=(Pool("hp", 0, 120, temp=5),))
    assert health_text(c.health[0], c, PLAIN, width).plain == shown


def test_warhammer_at_zero_wounds_reads_as_the_engine_does() -> None:
    s = demo_session("warhammer", start=True)
    f = s.state
    pc = next(c for c in f.combatants if c.kind == "pc")
    assert zero_wounds(pc).word == "fights" and not zero_wounds(pc).out  # Resolve: every PC fights on
    goblin = next(c for c in f.combatants if c.name == "Goblin 1")
    assert zero_wounds(goblin).out  # a minion collapses
    # the engine's sentence for each says the same
    rs = get_ruleset("warhammer")
    assert "fights on" in rs.dropped_state(f, pc) and "collapses" in rs.dropped_state(f, goblin)
    # a champion without Resolve owes a Willpower test; its outcome decides the band
    champ = Combatant("c9", "Orc Boss", flags=("champion",), health=(Pool("wounds", 0, 20),))
    assert zero_wounds(champ).word == "test" and "Willpower test decides" in rs.dropped_state(f, champ)
    passed = replace(champ, conditions=(Condition("Fighting on"),))
    failed = replace(champ, conditions=(Condition("Stopped fighting"),))
    assert zero_wounds(passed).word == "fights" and zero_wounds(failed).out
    assert "stopped fighting" in rs.dropped_state(f, failed)


def _downed(rules: str) -> tuple[Session, str, str]:
    """The demo, started, with a PC and an NPC at 0 (each ruleset's damage brings them there)."""
    s = demo_session(rules, start=True)
    pc = next(c for c in s.state.combatants if c.kind == "pc" and not c.owner)
    npc = next(c for c in s.state.combatants if c.kind == "npc" and c.side == "enemy")
    for who in (pc, npc):
        for _ in range(4):  # nine-phase takes Grit first
            s.apply(C.Damage(who.id, 200))
    return s, pc.id, npc.id


@pytest.mark.parametrize("rules", ["d20", "cosmere", "ninephase", "warhammer"])
def test_in_every_ruleset_a_pc_at_deaths_door_is_not_struck_through_like_a_dead_npc(rules: str) -> None:
    s, pc, npc = _downed(rules)
    f = s.state
    assert f.get(pc).down and f.get(npc).down
    rows = {r.cid: r for r in tracker_rows(f, get_ruleset(rules), 80, TAGGED) if r.cid}
    pc_row, npc_row = rows[pc], rows[npc]
    assert "down" in _roles(npc_row.text) and "hp-down" in _roles(npc_row.text)
    assert "down" not in _roles(pc_row.text) and "hp-dying" in _roles(pc_row.text)
    # the word where the column has room (the nine-phase board leaves its HP column 7 cells: the mark)
    words = (" fights", " !") if rules == "warhammer" else (" dying", " ✚")
    assert any(w in pc_row.text.plain for w in words), pc_row.text.plain
    assert " down" in npc_row.text.plain or " ✗" in npc_row.text.plain


@pytest.mark.parametrize("rules", ["d20", "cosmere", "ninephase", "warhammer"])
def test_every_band_fits_the_tracker_at_80_columns(rules: str) -> None:
    """A row never runs past its width, and each band's mark is on it (the cell shortens, never wraps)."""
    s = demo_session(rules, start=True)
    foes = [c for c in s.state.combatants if c.kind == "npc"][:3]
    for c, target in zip(foes, (lambda m: m // 2, lambda m: m // 4, lambda m: 0), strict=False):
        for _ in range(4):  # nine-phase's damage takes Grit first
            p = s.state.get(c.id).health[0]
            if p.current > target(p.max):
                s.apply(C.Damage(c.id, p.current - target(p.max)))
    f = s.state
    width = 78  # the tracker's width at 80x24 (no border at that size; a scrollbar at most)
    rows = {r.cid: r for r in tracker_rows(f, get_ruleset(rules), width, PLAIN) if r.cid}
    for r in rows.values():
        assert r.text.cell_len <= width and "\n" not in r.text.plain
    for c in foes:
        band = health_band(f.get(c.id).health[0])
        mark = {"bloodied": "½", "critical": "¼"}.get(band)
        if mark:
            assert mark in rows[c.id].text.plain, (c.name, band, rows[c.id].text.plain)
    assert any(f.get(c.id).down and (" down" in rows[c.id].text.plain or " ✗" in rows[c.id].text.plain) for c in foes)


@sync
async def test_the_bands_have_colours_of_their_own_in_every_theme(tmp_path: Path) -> None:
    """hurt, bloodied and critical never look alike, nor a dying PC like a dead NPC; the project's
    themes bring their own band colours ([variables] in themes/*.toml)."""
    s, _, _ = _downed("d20")
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        t = main_screen(pilot).query_one(Tracker)
        for name in sorted(app.available_themes):
            app.theme = name
            await pilot.pause()
            st = t.role_styles()
            bands = ("hp-hurt", "hp-bloodied", "hp-critical")
            looks = [(st[r].color, st[r].bgcolor, st[r].reverse, st[r].bold) for r in bands]
            assert len(set(looks)) == 3, name
            assert (st["hp-dying"].color, st["hp-dying"].reverse) != (st["hp-down"].color, st["hp-down"].reverse), name
            if name.startswith("fracas-"):
                theme = app.get_theme(name)
                assert theme is not None and "health-bloodied" in theme.variables
                assert st["hp-bloodied"].color != st["bad"].color  # its own orange, not the error red


@sync
async def test_a_theme_whose_band_colour_is_not_a_colour_keeps_the_default(tmp_path: Path) -> None:
    s = demo_session("d20", start=True)
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        t = main_screen(pilot).query_one(Tracker)
        app.register_theme(Theme("broken-bands", primary="#336699", variables={"health-hurt": "not a colour"}))
        app.register_theme(Theme("plain-bands", primary="#336699"))
        app.theme = "plain-bands"
        await pilot.pause()
        default = t.role_styles()["hp-hurt"]
        app.theme = "broken-bands"
        await pilot.pause()
        assert t.role_styles()["hp-hurt"] == default and app.is_running


@sync
async def test_the_tracker_shows_the_band_on_screen_at_80x24(tmp_path: Path) -> None:
    s = demo_session("d20", start=True)
    s.apply(C.Damage(cid(s, "Bandit Captain"), 30))  # 15 of 45: bloodied
    s.apply(C.Damage(cid(s, "Bandit 1"), 9))  # 2 of 11: critical
    s.apply(C.Damage(cid(s, "Brannoc"), 50))  # 0 of 34: Death's Door
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        t = main_screen(pilot).query_one(Tracker)
        lines = {r.cid: r.text.plain for r in t._rows if r.cid}
        assert "15/45 ½" in lines[cid(s, "Bandit Captain")]
        assert "2/11 ¼" in lines[cid(s, "Bandit 1")]
        assert "0/34 dying" in lines[cid(s, "Brannoc")]
