"""The base dialog: heading, fields, message line and buttons; what enter, ctrl+s and escape do; a
failure inside is one line in the dialog, never the end of the app. Each dialog builds one command
(or a small batch) and hands it to the app's commit (one transaction: Host.commit, Session.apply_all)."""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Button, Checkbox, Input, OptionList, Static

from engine import RuleError
from engine.commands import Command
from engine.state import Combatant, Fight
from tui.dialogs.fields import Choice, Field
from tui.dialogs.forms import SIDE_WORDS, FormError, rolls_owed, table_rolls
from tui.host import FightAccess
from tui.text import clean, literal, span

if TYPE_CHECKING:
    from tui.host import Host

log = logging.getLogger("fracas.tui")


# --- the base dialog ---------------------------------------------------------------------------


def row(label: str, *widgets: Widget, id: str | None = None) -> Horizontal:
    return Horizontal(Static(Text(label), classes="label"), *widgets, classes="row", id=id)


def _label_of(widget: Widget) -> Static | None:
    """The label a field sits beside: the nearest `.label` before it in its row or grid (or before
    the box holding it, one level up), None for a widget without one (buttons, lists)."""
    node: Widget | None = widget
    for _ in range(2):
        if node is None or not isinstance(node.parent, Widget):
            return None
        siblings = list(node.parent.children)
        for sib in reversed(siblings[: siblings.index(node)]):
            if isinstance(sib, Static) and sib.has_class("label"):
                return sib
        if node.parent.has_class("row") or isinstance(node.parent, Grid):
            return None
        node = node.parent
    return None


def field(
    value: str = "", placeholder: str = "", *, id: str, number: bool = False, kind: type[Field] = Field
) -> Input:
    # a number field takes any text and is checked on apply (parse_int): a typo like "1O" is refused
    # with a message, where an integer-only field would silently drop the letter and keep "1"
    del number
    return kind(value, placeholder=placeholder, id=id, compact=True)


def _settling(fn: Callable[..., None]) -> Callable[..., None]:
    """Wrap a dialog's submit or cancel: a bug inside it is one line in the dialog, not a crash, and
    afterwards the keys the app held since enter (or escape) are let go (FracasApp.dialog_settled)."""

    @functools.wraps(fn)
    def run(self: Dialog, *args: Any, **kwargs: Any) -> None:
        try:
            fn(self, *args, **kwargs)
        except Exception as exc:  # a bug, not the GM's doing: the fight is untouched
            self.internal_error(exc)
        finally:
            self.fracas.dialog_settled(self)

    run._settles = True  # type: ignore[attr-defined]
    return run


class FieldsBox(VerticalScroll):
    """A dialog's fields, scrolled when they do not fit the screen (tab scrolls to the field it goes
    to): the line under them says how many lines are out of sight and where, since a scrollbar
    alone went unseen at 80x24."""

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        super().watch_scroll_y(old_value, new_value)
        self.tell_more()

    def on_resize(self) -> None:
        self.tell_more()  # its own size, or its fields' (one shown or hidden)

    def tell_more(self) -> None:
        if not self.is_attached:
            return
        found = self.screen.query("#more")
        if not found:
            return
        line = found.first(Static)
        above = round(self.scroll_y)
        below = max(0, round(self.max_scroll_y) - above)
        up = f"▲ {above} line{'s' if above != 1 else ''} above"
        down = f"▼ {below} more line{'s' if below != 1 else ''} below"
        if above and below:
            text = f"{up} · {down}"
        elif below:
            text = f"{down} (tab goes down to them)"
        elif above:
            text = f"{up} (shift+tab goes back up)"
        else:
            text = ""
        line.update(Text(text))
        line.set_class(bool(text), "-shown")


class Dialog(FightAccess, ModalScreen[None]):
    DEFAULT_CSS = """
    Dialog { align: center middle; background: $background; }
    Dialog > #dialog {
        width: 80; max-width: 100%; height: auto; max-height: 100%;
        border: round $primary; background: $surface; padding: 0 1;
    }
    Dialog #heading { height: auto; text-style: bold; }
    Dialog #fields { height: auto; max-height: 16; margin-top: 1; }
    Dialog #more { height: 1; color: $text-muted; display: none; }
    Dialog #more.-shown { display: block; }
    Dialog .row { height: auto; min-height: 1; }
    Dialog .label { width: 24; height: 1; color: $text-muted; }
    Dialog .label.-focus { color: $text; text-style: bold reverse; }
    Dialog #buttons Button:focus { text-style: bold reverse; }
    Dialog .wide-label { height: auto; color: $text-muted; }
    Dialog Input { width: 1fr; }
    Dialog Checkbox { width: auto; height: 1; border: none; padding: 0; }
    Dialog OptionList {
        height: auto; max-height: 8; border: none; padding: 0; background: $boost;
        text-wrap: nowrap; text-overflow: ellipsis;
    }
    Dialog OptionList:focus { border: none; background-tint: $primary 10%; }
    Dialog #error { height: auto; color: $error; text-style: bold; display: none; }
    Dialog #error.-shown { display: block; }
    Dialog #buttons { height: 1; margin-top: 1; }
    Dialog #buttons Button { margin-right: 2; min-width: 10; }
    Dialog #hint { color: $text-muted; height: 1; }
    Dialog .shown { width: 12; height: 1; padding-left: 1; }
    Dialog .hidden { display: none; }
    """
    BINDINGS = [
        Binding("escape", "cancel", "Cancel", id="dialog_cancel"),
        Binding("ctrl+s", "submit", "Apply", id="dialog_submit"),
        # enter on a chooser applies too (fields, lists and buttons handle their own enter first)
        Binding("enter", "submit", "Apply", show=False, id="dialog_enter"),
    ]
    OK = "Apply"
    HINT = "enter or ctrl+s: apply · space: tick · esc: cancel · tab: next field"
    ANNOUNCE = True  # say what happened in a notification (the log may be hidden on a small screen)

    # keys typed after enter or escape are held by the app until this dialog has applied, refused or
    # closed (FracasApp.on_event): they belong to whatever is on screen then
    HOLDS_KEYS = True
    # a prompt the fight raised, not one the GM opened (an owed save): undo and redo close it and step
    # (FracasApp._step_from_prompt)
    RAISED = False

    def __init__(self, who: str = "") -> None:
        super().__init__()
        self.who = who
        self._opened = False  # set once on screen: a failure before that closes the dialog
        self._failed = False
        self._build_error: Exception | None = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for name in ("action_submit", "action_cancel"):
            fn = cls.__dict__.get(name)
            if fn is not None and not getattr(fn, "_settles", False):
                setattr(cls, name, _settling(fn))

    @property
    def fracas(self) -> Host:
        """The app, as far as a dialog needs it (tui/host.py)."""
        return self.app  # type: ignore[return-value]

    @property
    def target(self) -> Combatant:
        return self.fight.get(self.who)

    def heading(self) -> Text:
        return Text("")

    def fields(self) -> ComposeResult:
        yield from ()

    def build(self) -> Command | list[Command]:
        raise NotImplementedError

    def compose(self) -> ComposeResult:
        # a failure while building (a bad entry in a file, a bug) is reported once mounted, and the
        # dialog closes: Textual would otherwise end the app
        try:
            heading = self.heading()
        except Exception as exc:
            heading, self._build_error = Text(""), exc
        with Vertical(id="dialog"):
            yield Static(heading, id="heading")
            with FieldsBox(id="fields", can_focus=False):
                if self._build_error is None:
                    try:
                        yield from self.fields()
                    except Exception as exc:
                        self._build_error = exc
            yield Static(id="more")  # says there are fields out of sight, above or below
            yield Static(id="error")
            with Horizontal(id="buttons"):
                yield Button(self.OK, id="ok", variant="primary", compact=True)
                yield Button("Cancel", id="cancel", compact=True)
            yield Static(Text(self.HINT), id="hint")

    # the most of the screen's height the fields take (the heading, the buttons and the lines under
    # the fields keep the rest); fewer when those need more (Dialog.fit_fields)
    FIELDS_SHARE = 0.7

    def on_resize(self) -> None:
        self.fit_fields()

    def fit_fields(self) -> None:
        """The fields' height limit in lines, from the screen's height less what the rest of the
        dialog takes: the dialog then fits the screen with its buttons and no blank rows (a limit in
        vh left the dialog as tall as its fields unscrolled, the rows under its hint blank)."""
        found = self.query("#fields")
        if not found or not self.is_attached:
            return
        fields = found.first(FieldsBox)
        height = self.size.height or self.app.size.height
        rest = 2 + fields.styles.margin.top + 1  # the dialog's border, the gap above and the "more" line
        for w in self.query_one("#dialog").children:
            if w is not fields and w.id != "more" and w.display:
                rest += w.outer_size.height + w.styles.margin.top + w.styles.margin.bottom
        room = max(3, min(int(height * self.FIELDS_SHARE), height - rest))
        if fields.styles.max_height is None or fields.styles.max_height.value != room:
            fields.styles.max_height = room
            focused = self.focused
            if focused is not None and fields in focused.ancestors:
                # the field being typed in stays in sight when the lines under the fields grow
                self.call_after_refresh(lambda: focused.scroll_visible(animate=False))

    # --- where am I: the focused field's label is marked with FOCUS_MARK and reversed, so the field
    # the next keys go to is plain in every theme and without colour (a text cursor alone is not)
    FOCUS_MARK = "▸ "

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        self._mark_label(_label_of(event.widget))

    def _mark_label(self, label: Static | None) -> None:
        old = getattr(self, "_marked", None)
        if old is not None and old[0] is not label:
            old[0].remove_class("-focus")
            old[0].update(old[1])
            self._marked = None
        if label is None or (old is not None and old[0] is label):
            return
        content = label.content
        text = content if isinstance(content, Text) else Text(str(content))
        self._marked = (label, content)
        label.add_class("-focus")
        label.update(Text(self.FOCUS_MARK) + text)

    def on_screen_resume(self) -> None:
        # focus is placed by now: keys typed while the dialog was opening come in
        self._opened = True
        self.call_after_refresh(self.fit_fields)  # the rest of the dialog is laid out by then
        self.call_after_refresh(self.fracas.release_typeahead)

    # messages a key can turn into; once handled, what enter (or escape) was going to do is done
    _SETTLING = (Input.Submitted, OptionList.OptionSelected, Button.Pressed)

    async def _on_message(self, message: Message) -> None:
        """Every handler of the dialog runs here: one that fails (a bad entry in a file, a bug) is a
        line in the dialog, or a notice and the dialog closed if it was still being built, never the
        end of the app."""
        try:
            await super()._on_message(message)
        except Exception as exc:
            if self._build_error is None:
                self.internal_error(exc)
        if isinstance(message, events.Mount) and self._build_error is not None:
            self.internal_error(self._build_error)  # its own on_mount may have failed too: this is why
        if isinstance(message, self._SETTLING):
            self.fracas.dialog_settled(self)

    def internal_error(self, exc: Exception) -> None:
        log.exception("dialog %s failed", type(self).__name__)
        what = f"Internal error ({type(exc).__name__}): {clean(str(exc))}"
        if self._failed:
            return  # already closed for it: one notice is enough
        if not self._opened or not self.is_attached or not self.query("#error"):
            # broken while being built: nothing on it can be trusted; the screen below carries on
            self._failed = True
            self.fracas.notify(f"Could not open the dialog. {what}", severity="error", timeout=10, markup=False)
            if self.is_attached and self.app.screen is self:
                self.dismiss()
            self.fracas.dialog_settled(self)
            self.fracas.call_after_refresh(self.fracas.release_typeahead)  # keys typed meanwhile go on
            return
        self.show_error(what + " Nothing was changed.")

    def value(self, wid: str) -> str:
        return self.query_one(f"#{wid}", Input).value

    def choice(self, wid: str) -> Any:
        return self.query_one(f"#{wid}", Choice).value

    def checked(self, wid: str) -> bool:
        return self.query_one(f"#{wid}", Checkbox).value

    def table_note(self, cid: str) -> Text:
        """A line for the heading when the table rolls for `cid`'s side."""
        c = self.fight.find(cid) if cid else None
        if c is None or not table_rolls(self.fight, cid):
            return Text("")
        return span(f"\nThe table rolls for {SIDE_WORDS.get(c.kind, 'NPCs')}: type the dice rolled.", "bold")

    def require_dice(self, cid: str, expr: str, wid: str = "given") -> None:
        """Refuse to roll for a side the table rolls for: the cursor goes to the dice field."""
        if expr and not self.value(wid).strip() and table_rolls(self.fight, cid):
            self.query_one(f"#{wid}", Input).focus()
            c = self.fight.get(cid)
            side = SIDE_WORDS.get(c.kind, "NPCs")
            raise FormError(f"The table rolls for {side}: type the dice rolled for {clean(c.name)} (the app will not).")

    def show_error(self, message: str) -> None:
        err = self.query_one("#error", Static)
        err.update(literal(message))
        err.add_class("-shown")
        self.call_after_refresh(self.fit_fields)  # its lines come off the fields' room

    @on(Input.Changed)
    @on(Choice.Changed)
    @on(Checkbox.Changed)
    def _clear_error(self) -> None:
        # a refusal is about what was applied: once the GM changes a field it no longer applies
        err = self.query("#error")
        if err and err.first().has_class("-shown"):
            err.first().remove_class("-shown")
            self.call_after_refresh(self.fit_fields)

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_submit()

    @on(Button.Pressed, "#ok")
    def _ok(self) -> None:
        self.action_submit()

    @on(Button.Pressed, "#cancel")
    def _cancel(self) -> None:
        self.action_cancel()

    @_settling
    def action_cancel(self) -> None:
        self.dismiss()

    def remembered(self) -> list[Command]:
        """Settings the GM changed in the dialog (how typed numbers read), sent after its command so
        the next dialog opens the same way."""
        return []

    @_settling
    def action_submit(self) -> None:
        try:
            cmds = self.build()
            extra = self.remembered()
            due = rolls_owed(self.fight, cmds) if isinstance(cmds, Command) else ()
            if due:
                from engine import apply  # a preview only: the dice are asked for before it is sent

                apply(self.fight, cmds)  # a refusal shows here, before the dice are asked for
                if extra:
                    self.fracas.commit(extra)
            else:
                # one batch, all or nothing: a refusal leaves even the remembered setting; that goes
                # first, so one undo takes back the command itself
                self.fracas.commit(cmds, announce=self.ANNOUNCE, first=extra)
        except (FormError, RuleError) as exc:
            self.show_error(str(exc))
            return
        self.dismiss()
        if due:
            from tui.dialogs.table import TableRollsDialog  # that module's dialogs build on this one

            assert isinstance(cmds, Command)
            self.app.push_screen(TableRollsDialog(cmds, due, self.ANNOUNCE))


def name_of(f: Fight, cid: str) -> Text:
    c = f.find(cid)
    return literal(c.name) if c else Text("?")


def picker_order(f: Fight) -> list[Combatant]:
    """The combatants as a picker lists them: standing first, then the downed; each group in turn
    order once the fight has one (the order the GM sees in the tracker), else as added."""
    place = {cid: i for i, cid in enumerate(f.order)}
    late = len(place)
    return sorted(f.combatants, key=lambda c: (c.down, place.get(c.id, late)))


def combatant_options(
    f: Fight, none: str | None = None, exclude: Iterable[str] = (), *, standing_first: bool = False
) -> list[tuple[str | Text, str]]:
    skip = set(exclude)
    out: list[tuple[str | Text, str]] = [(none, "")] if none is not None else []
    listed = picker_order(f) if standing_first else f.combatants
    out.extend((literal(c.name), c.id) for c in listed if c.id not in skip)
    return out


