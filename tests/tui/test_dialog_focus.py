"""Where am I in a dialog (issue 14, item 1): the focused field's label carries a mark that needs no
colour, the mark follows tab, and the start dialog opens on its first field so tab walks the list."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Static

from tests.tui.support import app_on, demo_session, sync
from tui.dialogs import Choice, Dialog, StartDialog


def marked(dialog: Dialog) -> list[str]:
    out = []
    for label in dialog.query(".label").results(Static):
        text = str(label.content)
        if label.has_class("-focus"):
            assert text.startswith(Dialog.FOCUS_MARK), text
            out.append(text[len(Dialog.FOCUS_MARK) :])
        else:
            assert not text.startswith(Dialog.FOCUS_MARK), text  # one mark, on the focused field only
    return out


@sync
async def test_the_focused_field_is_marked_and_the_mark_follows_tab(tmp_path: Path) -> None:
    s = demo_session("d20", start=True)
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("w")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, Dialog)
        first = marked(dialog)
        assert first == ["Target"]  # the attack dialog opens on the target
        await pilot.press("tab")
        await pilot.pause()
        assert marked(dialog) == ["Attack bonus"]  # a weapon typed by hand: its bonus and damage right after the target
        await pilot.press("shift+tab", "shift+tab")
        await pilot.pause()
        assert marked(dialog) == ["Attacker"]
        # on a button no label is marked
        for _ in range(40):
            await pilot.press("tab")
            await pilot.pause()
            if app.focused is not None and app.focused.id == "ok":
                break
        assert app.focused is not None and app.focused.id == "ok"
        assert marked(dialog) == []


@sync
async def test_the_start_dialog_opens_on_its_first_field_and_tab_goes_down_the_list(tmp_path: Path) -> None:
    s = demo_session("d20")
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("s")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, StartDialog)
        names = [c.name for c in s.state.combatants]
        assert marked(dialog) == [names[0]]
        assert app.focused is not None and (app.focused.id or "").startswith("init-")  # on the first die
        await pilot.press("tab")  # the next combatant's die (the surprised boxes come after the dice)
        await pilot.pause()
        assert marked(dialog) == [names[1]]
        assert app.focused is not None and (app.focused.id or "").startswith("init-")
        dice = len(dialog.query("#fields Input"))
        for _ in range(dice - 1):
            await pilot.press("tab")
        await pilot.pause()
        assert app.focused is not None and (app.focused.id or "").startswith("surprised-")  # then the boxes
        assert marked(dialog) == [names[0]]
        await pilot.press("enter")  # enter from a field still starts the fight
        await pilot.pause()
        assert s.state.started


@sync
async def test_typing_into_a_choice_searches_visibly_and_never_steps_it_unseen(tmp_path: Path) -> None:
    s = demo_session("d20", start=True)
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("w")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, Dialog)
        what = dialog.query_one("#what", Choice)
        what.focus()
        await pilot.pause()
        await pilot.press("space")  # space used to step a choice: now it leaves it alone
        assert what.value == "attack"
        await pilot.press("g", "r")
        await pilot.pause()
        assert what.value == "grapple" and "typed: gr" in str(what.render())
        await pilot.press("z")  # nothing starts with "grz": the value stays, and the line says so
        await pilot.pause()
        assert what.value == "grapple" and "no match: grz" in str(what.render())
        await pilot.press("backspace", "backspace", "backspace", "s", "h", "o", "v", "e", "space", "p")
        await pilot.pause()
        assert what.value == "prone"
        assert "typed: shove p" in str(what.render())
        await pilot.press("right")  # the arrows still step it, and end the search
        await pilot.pause()
        assert "typed" not in str(what.render())


@sync
async def test_next_before_the_start_opens_the_start_dialog(tmp_path: Path) -> None:
    s = demo_session("warhammer")
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, StartDialog)  # a GM's first press is n: it used to do nothing
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("space")
        await pilot.pause()
        assert isinstance(app.screen, StartDialog)
        await pilot.press("enter")
        await pilot.pause()
        assert s.state.started


@sync
async def test_at_80x24_what_happened_sits_in_the_pane_title_not_a_toast(tmp_path: Path) -> None:
    from tests.tui.support import main_screen, notifications

    s = demo_session("d20", start=True)
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("d", "5", "enter")
        await pilot.pause()
        main = main_screen(pilot)
        title = str(main.query_one("#sheet").border_title)
        assert "takes 5 damage" in title and not any("damage" in n for n in notifications(pilot))
        await pilot.press("ctrl+z")
        await pilot.pause()
        assert "Undid:" in str(main.query_one("#sheet").border_title)
        main._untell()  # the timer's end: the title is as it was
        assert "Undid" not in str(main.query_one("#sheet").border_title)
    wide = app_on(demo_session("d20", start=True), tmp_path)
    async with wide.run_test(size=(160, 48)) as pilot:
        await pilot.press("d", "5", "enter")
        await pilot.pause()
        assert any("takes 5 damage" in n for n in notifications(pilot))  # the log is in view there too


@sync
async def test_undo_at_the_start_says_there_is_nothing_to_undo(tmp_path: Path) -> None:
    from engine import new_fight
    from saves.session import Session
    from tests.tui.support import main_screen, notifications

    s = Session.memory(new_fight("d20", "Empty", 1))
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("ctrl+z")
        await pilot.pause()
        # at 80x24 in the pane's title, as every "what just happened" line (not a toast over the sheet)
        assert "Nothing to undo." in str(main_screen(pilot).query_one("#sheet").border_title)
        await pilot.press("ctrl+y")
        await pilot.pause()
        assert "Nothing to redo." in str(main_screen(pilot).query_one("#sheet").border_title)
    app = app_on(Session.memory(new_fight("d20", "Empty", 1)), tmp_path)
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.press(*["ctrl+z"] * 6)  # held down: one line that replaces the last, not six toasts
        await pilot.pause()
        assert notifications(pilot) == ["Nothing to undo."]
