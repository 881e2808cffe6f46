"""A combatant's economy is drawn from the engine's items (Ruleset.economy_items) by one renderer for
the tracker row (views.economy_cell) and one for the sheet (panes.economy_lines), in every bundled
ruleset (issue 12). What the engine marks barred is dim in the tracker row and says "barred (why)" on
the sheet: a d20 creature incapacitated on its own turn, one down and out, a nine-phase combatant
that has taken its one turn in the phase."""

from __future__ import annotations

from pathlib import Path

from rich.style import Style
from rich.text import Text

from engine import commands as C
from engine import get_ruleset
from engine.rules.ninephase.commands import Activity
from saves.session import Session
from tests.tui.support import app_on, cid, demo_session, main_screen, pane_text, select, sync
from tui.panes import economy_lines
from tui.rulesets import RulesetUI, get_ui
from tui.views import ROLES, economy_cell

SHIPPED = ("d20", "cosmere", "ninephase", "warhammer")
TAGGED = {r: Style(link=f"role:{r}") for r in ROLES}  # each role told apart by its link


def roles_at(t: Text, i: int) -> set[str]:
    out = set()
    for sp in t.spans:
        if sp.start <= i < sp.end and isinstance(sp.style, Style) and sp.style.link:
            out.add(sp.style.link.removeprefix("role:"))
    return out


def marks(t: Text, cell: str) -> dict[str, set[str]]:
    """The roles of each mark of the turn cell `cell` ("A B M R") where it stands in row `t`."""
    at = t.plain.index(" " + cell + " ") + 1
    return {ch: roles_at(t, at + i) for i, ch in enumerate(cell) if ch != " "}


async def sheet_of(pilot) -> str:  # type: ignore[no-untyped-def]
    """The sheet as on screen, its wrapping and gaps taken out."""
    return " ".join((await pane_text(pilot, "sheet")).split())


def tracker_marks(pilot, who: str, cell: str) -> dict[str, str]:  # type: ignore[no-untyped-def]
    """Which of the app's own styles ("pip" bright, "dim") each mark of the row's turn cell has."""
    tracker = main_screen(pilot).query_one("#tracker")
    st = tracker.role_styles()  # type: ignore[attr-defined]
    row = next(r.text for r in tracker._rows if r.cid == who)  # type: ignore[attr-defined]
    at = row.plain.index(" " + cell + " ") + 1
    out = {}
    for i, ch in enumerate(cell):
        if ch == " ":
            continue
        styles = [sp.style for sp in row.spans if sp.start <= at + i < sp.end]
        out[ch] = "pip" if st["pip"] in styles else "dim" if st["dim"] in styles else "?"
    return out


def test_every_bundled_slice_draws_the_economy_with_the_shared_renderers() -> None:
    for rid in SHIPPED:
        ui = get_ui(rid)
        assert type(ui).economy_text is RulesetUI.economy_text, rid  # no sheet economy code of its own
        s = demo_session(rid, start=True)
        f = s.state
        rs = get_ruleset(rid)
        for c in f.combatants:
            assert ui.economy_text(f, rs, c, TAGGED).plain == economy_lines(f, rs, c, TAGGED).plain
            row = next(r.text for r in ui.tracker_rows(f, rs, 160, TAGGED) if r.cid == c.id)
            assert " " + economy_cell(f, c, TAGGED).plain + " " in row.plain, (rid, c.name, row.plain)


# --- d20: incapacitated on its own turn, down and out -------------------------------------------


@sync
async def test_d20_stunned_on_its_own_turn_its_action_bonus_move_and_reaction_are_barred(tmp_path: Path) -> None:
    s = demo_session("d20", start=True)
    who = s.state.current
    name = s.state.get(who).name
    app = app_on(s, tmp_path)
    async with app.run_test(size=(160, 48)) as pilot:
        await select(pilot, name)
        assert tracker_marks(pilot, who, "A B M R") == {"A": "pip", "B": "pip", "M": "pip", "R": "pip"}
        assert "Action available Bonus available Move 30 of 30 ft" in await sheet_of(pilot)
        s.apply(C.AddCondition(who, "Stunned"))
        app.refresh_fight()
        await pilot.pause()
        # was: A B M bright (available) and only R dim; the engine says none of them may be used
        assert tracker_marks(pilot, who, "A B M R") == {"A": "dim", "B": "dim", "M": "dim", "R": "dim"}
        sheet = await sheet_of(pilot)
        for part in ("Action barred (Stunned)", "Bonus barred (Stunned)", "Move barred (Stunned)"):
            assert part in sheet, sheet
        assert "Reaction barred (Stunned)" in sheet and "available" not in sheet.split("Gambit")[0]


def test_d20_sheet_styles_the_barred_value_dim_and_the_label_as_a_header() -> None:
    s = demo_session("d20", start=True)
    who = s.state.current
    s.apply(C.AddCondition(who, "Stunned"))
    f = s.state
    t = economy_lines(f, get_ruleset("d20"), f.get(who), TAGGED)
    at = t.plain.index("Action barred (Stunned)")
    assert roles_at(t, at) == {"header"} and roles_at(t, at + len("Action ")) == {"dim"}
    gambit = t.plain.index("can declare")
    assert roles_at(t, gambit) == {"good"}  # the Gambit is still open: bright


@sync
async def test_d20_an_npc_down_and_out_has_its_reaction_barred(tmp_path: Path) -> None:
    s = demo_session("d20", start=True)
    npc = next(c for c in s.state.combatants if c.kind == "npc" and c.id != s.state.current)
    app = app_on(s, tmp_path)
    async with app.run_test(size=(160, 48)) as pilot:
        await select(pilot, npc.name)
        assert tracker_marks(pilot, npc.id, "A B M R")["R"] == "pip"
        assert "Not its turn Reaction available" in await sheet_of(pilot)
        s.apply(C.Damage(npc.id, 1000))
        app.refresh_fight()
        await pilot.pause()
        # was: R bright and "Reaction available"; at 0 hit points it does nothing
        assert tracker_marks(pilot, npc.id, "A B M R")["R"] == "dim"
        assert "Not its turn Reaction barred (down)" in await sheet_of(pilot)


# --- nine-phase: one turn a phase ---------------------------------------------------------------


def _ninephase() -> tuple[Session, str]:
    s = demo_session("ninephase", start=True)
    return s, cid(s, "Aldric")


@sync
async def test_ninephase_reaction_and_master_are_barred_once_its_turn_in_the_phase_is_taken(tmp_path: Path) -> None:
    s, aldric = _ninephase()
    app = app_on(s, tmp_path)
    async with app.run_test(size=(160, 48)) as pilot:
        await select(pilot, "Aldric")
        assert tracker_marks(pilot, aldric, "R M") == {"R": "pip", "M": "pip"}
        assert "Reaction available Master Action available" in await sheet_of(pilot)
        s.apply(Activity(aldric, "Strike", cost=1))
        app.refresh_fight()
        await pilot.pause()
        # was: R and M bright, "Reaction available   Master Action available"
        assert tracker_marks(pilot, aldric, "R M") == {"R": "dim", "M": "dim"}
        sheet = await sheet_of(pilot)
        assert "Reaction barred (one turn a phase) Master Action barred (one turn a phase)" in sheet, sheet
        assert "Actions 2 of 3 left this round" in sheet
        # the next phase it may act again: bright, available
        s.apply(C.NextTurn())
        app.refresh_fight()
        await pilot.pause()
        assert tracker_marks(pilot, aldric, "R M") == {"R": "pip", "M": "pip"}
        assert "Reaction available Master Action available" in await sheet_of(pilot)


def test_ninephase_barred_count_is_dim_and_an_open_one_unstyled() -> None:
    s, aldric = _ninephase()
    rs = get_ruleset("ninephase")
    t = economy_lines(s.state, rs, s.state.get(aldric), TAGGED)
    assert roles_at(t, t.plain.index("3 of 3")) == set()
    s.apply(Activity(aldric, "Strike", cost=1))
    t = economy_lines(s.state, rs, s.state.get(aldric), TAGGED)
    assert roles_at(t, t.plain.index("2 of 3")) == {"dim"}


# --- Warhammer: the bonus parries' gap is theirs -------------------------------------------------


def test_warhammer_bonus_parries_take_the_gap_before_them_in_their_style() -> None:
    s = demo_session("warhammer", start=True)
    f = s.state
    c = next(c for c in f.combatants if c.economy.parries)
    t = economy_cell(f, c, TAGGED)
    p = t.plain.index(" P")
    assert roles_at(t, p) == {"pip"} and roles_at(t, p + 1) == {"pip"}
    r = t.plain.index("R")
    assert roles_at(t, r - 1) == set()  # the gap before the reactions is plain
    assert "Bonus parries" in economy_lines(f, get_ruleset("warhammer"), c, TAGGED).plain
