"""The condition dialog's search offers what the GM means (issue 14, item 1 leftover): "conc" in d20 is
Concentrating, not Concealed; what this fight used comes first; and the list shows, with a mark
that needs no colour, what enter takes (docs/conditions.md)."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import OptionList

from engine import commands as C
from tests.tui.support import app_on, cid, demo_session, of, select, sync, type_text
from tui.dialogs import ConditionDialog, condition_matches, conditions_used, rank_conditions


def offered(dialog: ConditionDialog) -> list[str]:
    """The list under the name as the GM reads it, one line an option."""
    ol = dialog.query_one("#catalog", OptionList)
    lines = [str(ol.get_option_at_index(i).prompt) for i in range(ol.option_count)]
    return [line[:2] + line[2:].split("  ")[0] for line in lines]  # the mark, the name


def picked(dialog: ConditionDialog) -> str:
    """The marked line: what enter takes."""
    marked = [line for line in offered(dialog) if line.startswith(dialog.PICK_MARK)]
    assert len(marked) == 1, offered(dialog)
    return marked[0][len(dialog.PICK_MARK) :]


@sync
async def test_conc_is_concentrating_and_the_list_shows_what_enter_takes(tmp_path: Path) -> None:
    s = demo_session("d20", start=True)
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await select(pilot, "Ysolde")
        await pilot.press("c")
        dialog = app.screen
        assert isinstance(dialog, ConditionDialog)
        await type_text(pilot, "conc")
        # both are there to see, the marked one first
        assert [line.strip(" →") for line in offered(dialog)] == ["Concentrating", "Concealed", "New condition: conc"]
        assert picked(dialog) == "Concentrating"
        await pilot.press("enter")
        assert of(s, "Ysolde").has("Concentrating") and not of(s, "Ysolde").has("Concealed")


@sync
async def test_down_moves_the_mark_and_enter_takes_the_marked_one(tmp_path: Path) -> None:
    s = demo_session("d20", start=True)
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await select(pilot, "Ysolde")
        await pilot.press("c")
        dialog = app.screen
        assert isinstance(dialog, ConditionDialog)
        await type_text(pilot, "conc")
        await pilot.press("down")
        assert picked(dialog) == "Concealed"
        await pilot.press("up")
        assert picked(dialog) == "Concentrating"
        await pilot.press("down", "enter")
        assert of(s, "Ysolde").has("Concealed") and not of(s, "Ysolde").has("Concentrating")


@sync
async def test_what_this_fight_used_comes_first(tmp_path: Path) -> None:
    s = demo_session("d20", start=True)
    bandits = [cid(s, f"Bandit {n}") for n in (1, 2)]
    for b in bandits:  # the GM's fog cloud: Concealed twice
        s.apply(C.AddCondition(b, "Concealed"))
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await select(pilot, "Bandit 3")
        await pilot.press("c")
        dialog = app.screen
        assert isinstance(dialog, ConditionDialog)
        assert picked(dialog) == "Concealed"  # with nothing typed, too
        await type_text(pilot, "con")
        assert [line.strip(" →") for line in offered(dialog)][:3] == ["Concealed", "Concentrating", "Confused"]
        await pilot.press("enter")
        assert of(s, "Bandit 3").has("Concealed")


@sync
async def test_an_undone_use_does_not_count_and_a_custom_name_is_offered_again(tmp_path: Path) -> None:
    s = demo_session("d20", start=True)
    s.apply(C.AddCondition(cid(s, "Bandit 1"), "Concealed"))
    s.undo()
    s.apply(C.AddCondition(cid(s, "Bandit 1"), "Hexed"))
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await select(pilot, "Bandit 2")
        await pilot.press("c")
        dialog = app.screen
        assert isinstance(dialog, ConditionDialog)
        await type_text(pilot, "conc")
        assert picked(dialog) == "Concentrating"  # the undone Concealed is not this fight's
        for _ in "conc":
            await pilot.press("backspace")
        await type_text(pilot, "he")
        assert picked(dialog) == "Hexed"  # before Helped: this fight used it
        await pilot.press("enter")
        assert of(s, "Bandit 2").has("Hexed")


@sync
async def test_a_full_name_is_taken_as_typed_even_when_another_was_used_more(tmp_path: Path) -> None:
    s = demo_session("warhammer", start=True)
    for _ in range(3):
        s.apply(C.AddCondition(cid(s, "Ulfberth"), "Stunned"))
        s.apply(C.RemoveCondition(cid(s, "Ulfberth"), "Stunned"))
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await select(pilot, "Ulfberth")
        await pilot.press("c")
        dialog = app.screen
        assert isinstance(dialog, ConditionDialog)
        await type_text(pilot, "s")
        assert picked(dialog) == "Stunned"
        await type_text(pilot, "urprised")
        assert picked(dialog) == "Surprised"
        await pilot.press("enter")
        assert of(s, "Ulfberth").has("Surprised")


def test_the_ranking_rule() -> None:
    names = ["Blinded", "Concealed", "Concentrating", "Prone"]
    assert rank_conditions(names, {}, ()) == names  # nothing to go on: the catalog's order
    assert rank_conditions(names, {}, ("Concentrating", "Prone")) == ["Concentrating", "Prone", "Blinded", "Concealed"]
    s = demo_session("d20", start=True)
    b1, b2 = cid(s, "Bandit 1"), cid(s, "Bandit 2")
    s.apply(C.AddCondition(b1, "Blinded"))
    s.apply(C.AddCondition(b1, "prone"))  # spelled as the GM typed: counted with Prone
    s.apply(C.AddCondition(b2, "Prone"))
    s.apply(C.AddCondition(b2, "Concealed"))  # once, but the latest
    used = conditions_used(s.history)
    assert {k: (u.count, u.name) for k, u in used.items()} == {
        "blinded": (1, "Blinded"),
        "prone": (2, "Prone"),
        "concealed": (1, "Concealed"),
    }
    # more often first, then more recently; then the common ones; then the rest
    assert rank_conditions(names, used, ("Concentrating",)) == ["Prone", "Concealed", "Blinded", "Concentrating"]
    # the rules' own conditions (Surprised at the start) are not the GM's choice
    sur = demo_session("d20")
    sur.apply(C.StartFight(surprised=(cid(sur, "Bandit 1"),)))
    assert of(sur, "Bandit 1").has("Surprised") and conditions_used(sur.history) == {}


def test_what_a_query_finds() -> None:
    names = {"Seriously injured": "", "Stunned": "", "Surprised": "", "Prone": "on the ground, stunned-ish"}
    assert condition_matches("", names) == (list(names), [])
    assert condition_matches("inj", names) == (["Seriously injured"], [])  # a later word's start
    assert condition_matches("stunned", names) == (["Stunned"], ["Prone"])  # exact; then description
    assert condition_matches("s", names)[0] == ["Seriously injured", "Stunned", "Surprised"]
    assert condition_matches("u", names)[0] == ["Seriously injured", "Stunned", "Surprised"]  # inside
