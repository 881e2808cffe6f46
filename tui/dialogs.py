"""The dialogs: each builds one command (or a small batch) from what the GM typed.

Bad input never leaves the dialog: a value that does not parse, or a command the engine refuses
(RuleError), is shown in the dialog's message line and the dialog stays open with what was typed.
Enter in any text field applies, ctrl+s applies from anywhere, escape cancels. Imported on first use,
so none of this costs anything at start-up.
"""

from __future__ import annotations

import functools
import logging
import re
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple, cast

from msgspec.structs import replace as replace_struct
from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.reactive import reactive
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Button, Checkbox, Input, OptionList, Static
from textual.widgets.option_list import Option

from engine import RuleError, get_ruleset
from engine import commands as C
from engine import events as E
from engine.commands import Command
from engine.ruleset import Ruleset
from engine.state import Combatant, Duration, Fight
from tui.rulesets import RulesetUI, get_ui
from tui.text import clean, literal, span

if TYPE_CHECKING:
    from tui.app import FracasApp

log = logging.getLogger("fracas.tui")


class FormError(ValueError):
    """What the GM typed cannot be read; the message says which field and why."""


# --- parsing what was typed --------------------------------------------------------------------

_INT = re.compile(r"[+-]?\d+")


def parse_int(text: str, label: str, low: int | None = None, high: int | None = None) -> int:
    s = text.strip()
    if not s:
        raise FormError(f"{label}: give a number.")
    if not _INT.fullmatch(s):
        raise FormError(f"{label}: give a whole number, not '{clean(s)}'.")
    v = int(s)
    if (low is not None and v < low) or (high is not None and v > high):
        raise FormError(f"{label}: {v} is outside {low} to {high}.")
    return v


def optional_int(text: str, label: str, low: int | None = None, high: int | None = None) -> int | None:
    return None if not text.strip() else parse_int(text, label, low, high)


def amount_or_dice(text: str, what: str) -> tuple[int | None, str]:
    """'7' is an amount; anything else is a dice expression the engine parses (and explains)."""
    s = text.strip()
    if not s:
        raise FormError(f"How much {what}? Give a number or dice like 2d6+3.")
    if s.isdigit():
        return int(s), ""
    if s.startswith("-"):
        raise FormError(f"Give the {what} as a positive number or dice, not '{clean(s)}'.")
    return None, s


def parse_given(text: str) -> tuple[int, ...] | None:
    """Dice rolled at the table: numbers separated by spaces or commas."""
    s = text.strip()
    if not s:
        return None
    parts = [p for p in re.split(r"[\s,]+", s) if p]
    if not all(p.isdigit() for p in parts):
        raise FormError(f"Table dice: give the numbers rolled, like '4 6', not '{clean(s)}'.")
    return tuple(int(p) for p in parts)


def words(text: str) -> tuple[str, ...]:
    return tuple(w.strip() for w in text.split(",") if w.strip())


# --- initiative as the table gives it: the die rolled, or the total the player calls out ------------

INIT_TYPED: list[tuple[str | Text, str]] = [
    # the same words in every ruleset: d20's die and total, Warhammer's d100 and its SL
    ("the die rolled (the app works it out)", "die"),
    ("the result called out (total, SL)", "total"),
]


def typed_initiative(text: str, mode: str, label: str) -> C.Initiative | None:
    """A typed initiative: the die (mode "die") or the total called out; None when left empty."""
    if mode == "total":
        v = optional_int(text, label, -10_000, 10_000)
        return None if v is None else C.Initiative(total=v)
    # no range for a die: the engine checks it and says what the die can show
    v = optional_int(text, label)
    return None if v is None else C.Initiative(dice=(v,))


def initiative_unit(ui: RulesetUI) -> str:
    """What an initiative value is called in the sheet beyond "Initiative" ("SL" for success levels)."""
    return ui.sheet_initiative.removeprefix("Initiative").strip()


def initiative_shown(f: Fight, c: Combatant, given: C.Initiative | None, *, table: bool) -> Text:
    """The initiative a typed die or total gives `c`, worked out by the ruleset's own path before
    anything is sent ("= 17"); empty: rolled by the app, or waiting for the table's die."""
    if given is None:
        return Text("" if table else "rolled", style="dim")
    try:
        value, _, _, _ = get_ruleset(f.ruleset).roll_initiative(c, given, f.rng)
    except RuleError:
        return Text("= ?", style="bold")  # applying says why
    unit = initiative_unit(get_ui(f.ruleset))
    return span(f"= {unit} {value:+d}" if unit else f"= {value}", "bold")


# --- dice in a number field: 5d8+5 is rolled, or its average (the fight's add_health setting) ------

HEALTH_DICE: list[tuple[str | Text, str]] = [
    ("the average of the dice", "fixed"),
    ("rolled from the dice", "rolled"),
]


def dice_average(expr: str) -> int:
    """The average of a dice expression, rounded down as statblocks print it (5d8+5: 27); for kept
    dice (4d6kh3) the middle of its range."""
    from engine.dice import parse

    e = parse(expr)
    return (e.minimum() + e.maximum()) // 2


def number_or_dice(text: str, label: str, low: int, high: int) -> tuple[int | None, str]:
    """A whole number (value, "") or a dice expression (None, the dice) the engine parses."""
    s = text.strip()
    if "d" not in s.lower():  # no die in it: a number, with the number's own message ("1O")
        return parse_int(s, label, low, high), ""
    from engine.dice import parse

    try:
        parse(s)
    except RuleError as exc:
        raise FormError(f"{label}: a number or dice like 5d8+5 ({exc})") from None
    return None, s


# --- who rolls: the app, or the table (the fight's roll_pc / roll_npc settings) ------------------

SIDE_KEYS = {"pc": "roll_pc", "npc": "roll_npc"}
SIDE_WORDS = {"pc": "PCs", "npc": "NPCs"}


def table_rolls(f: Fight, cid: str) -> bool:
    """True when the fight's setting has the table roll for this combatant's side."""
    c = f.find(cid) if cid else None
    return c is not None and f.setting(SIDE_KEYS.get(c.kind, "roll_npc"), "app") == "table"


def rolls_owed(f: Fight, cmd: Command) -> tuple[Any, ...]:
    """The start-of-turn rolls `cmd` is about to make for combatants whose side the table rolls for."""
    if not isinstance(cmd, (C.NextTurn, C.StartTurn, C.StartFight)) or cmd.rolls:
        return ()  # not a turn-moving command, or its dice are already given
    if not any(v == "table" for k, v in f.settings if k in SIDE_KEYS.values()):
        return ()  # the app rolls for everyone: no dry run needed
    from engine.core import rolls_due

    return tuple(d for d in rolls_due(f, cmd) if table_rolls(f, d.who))


def send(app: FracasApp, cmd: Command, *, announce: bool = False) -> None:
    """Send a turn-moving command; when it would roll start-of-turn dice for a side the table rolls
    for, ask for those dice first. A refusal is a notification (no dialog is open)."""
    session = app.session
    if session is not None:
        due = rolls_owed(session.state, cmd)
        if due:
            app.push_screen(TableRollsDialog(cmd, due, announce))
            return
    app.try_commit(cmd, announce=announce)


# --- a compact chooser -------------------------------------------------------------------------


class OwnKeys:
    """A dialog's field that runs its own key bindings (backspace, delete, the arrows, home, space on
    a box) itself, in the order its keys came, not once the key has bubbled up to the app.

    Textual hands a key to the focused widget; one the widget does not take (everything but text, for
    a field) climbs the DOM a message at a time, and only at the app is the widget's binding run. In
    a burst of keys (a paste, a fast typist, tmux's send-keys) the keys after it have reached the
    field by then: "12", backspace, "3" typed the 3 and then deleted it (12), and after a tab (which
    the app moves at once) the binding ran in the next field. Run here, it is where and when it was
    typed for. The binding is the widget's own, found as the app would find it (the keymap applied);
    keys it does not bind still climb to the dialog and the app, as before."""

    TYPES_TEXT: ClassVar[bool] = False  # printable keys are its text (a field), not bindings

    async def _on_key(self, event: events.Key) -> None:
        if self.TYPES_TEXT and event.is_printable:
            return  # the field types it
        widget = cast(Widget, self)  # a mixin of widgets only
        bindings = widget._bindings
        keymap = widget.app._keymap
        if keymap:  # the GM's keys, as Textual's binding chain applies them (to a copy)
            bindings = bindings.copy()
            bindings.apply_keymap(keymap)
        for binding in bindings.key_to_bindings.get(event.key, ()):
            if not binding.priority and await widget.app.run_action(binding.action, widget):
                event.stop()
                event.prevent_default()
                return


class Field(OwnKeys, Input):
    """A dialog's text field (see OwnKeys)."""

    TYPES_TEXT = True


class CatalogSearch(Field):
    """The condition dialog's name: up and down move in the list under it, as its own keys, so they
    come in order with the letters typed before them (see OwnKeys)."""

    BINDINGS = [
        Binding("down", "screen.list(1)", show=False, id="catalog_down"),
        Binding("up", "screen.list(-1)", show=False, id="catalog_up"),
    ]


class LibrarySearch(Field):
    """The add dialog's name: up and down move in the library under it (as CatalogSearch); they
    scrolled the form instead when it did not fit the screen."""

    BINDINGS = [
        Binding("down", "screen.list(1)", show=False, id="library_down"),
        Binding("up", "screen.list(-1)", show=False, id="library_up"),
    ]


class Choice(OwnKeys, Widget, can_focus=True):
    """One line, one value of a few: left/right (or a click) to change it. Typing picks the first
    option whose label starts with what was typed, and shows what was typed beside it (a "no match"
    when nothing fits, leaving the value as it was): text meant for another field never changes a
    choice unseen. Space is left alone for the same reason (it used to step the choice)."""

    DEFAULT_CSS = """
    Choice { width: 1fr; height: 1; background: $boost; padding: 0 1; }
    Choice:focus { background: $primary 35%; text-style: bold; }
    """
    BINDINGS = [
        Binding("left", "move(-1)", "Previous", show=False, id="choice_previous"),
        Binding("right", "move(1)", "Next", show=False, id="choice_next"),
    ]
    index: reactive[int] = reactive(0)
    typed: reactive[str] = reactive("")  # what was typed to search the options ("" = not searching)

    class Changed(Message):
        def __init__(self, choice: Choice) -> None:
            self.choice = choice
            super().__init__()

        @property
        def control(self) -> Choice:
            return self.choice

    def __init__(self, options: Sequence[tuple[str | Text, Any]], value: Any = None, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.options = list(options)
        self.set_reactive(Choice.index, next((i for i, (_, v) in enumerate(self.options) if v == value), 0))

    @property
    def value(self) -> Any:
        return self.options[self.index][1] if self.options else None

    @value.setter
    def value(self, v: Any) -> None:
        for i, (_, val) in enumerate(self.options):
            if val == v:
                self.index = i

    def render(self) -> Text:
        if not self.options:
            return Text("(none)")
        label = self.options[self.index][0]
        t = Text(end="")
        if self.typed:
            # first, so a long option cannot push it out of sight
            found = self._match(self.typed) is not None
            t.append(f"typed: {self.typed} " if found else f"no match: {self.typed} ", style="bold reverse")
            t.append(" ")
        t.append("◀ ")
        t.append_text(label if isinstance(label, Text) else Text(label))
        t.append(" ▶")
        if len(self.options) > 2:
            t.append(f"  {self.index + 1}/{len(self.options)}", style="dim")
        return t

    def action_move(self, delta: int) -> None:
        self.typed = ""
        if self.options:
            self.index = (self.index + delta) % len(self.options)

    def _match(self, typed: str) -> int | None:
        low = typed.casefold()
        for i, (label, _) in enumerate(self.options):
            if (label.plain if isinstance(label, Text) else label).casefold().startswith(low):
                return i
        return None

    def on_key(self, event: events.Key) -> None:
        ch = event.character
        if event.key == "backspace" and self.typed:
            self.typed = self.typed[:-1]
        elif ch is not None and len(ch) == 1 and ch.isprintable() and not (ch == " " and not self.typed):
            self.typed += ch
        else:
            return
        event.stop()
        event.prevent_default()
        i = self._match(self.typed) if self.typed else None
        if i is not None:
            self.index = i
        self.refresh()

    def on_blur(self) -> None:
        self.typed = ""

    def watch_index(self) -> None:
        self.post_message(self.Changed(self))

    def on_click(self) -> None:
        self.action_move(1)


class Tick(OwnKeys, Checkbox, inherit_bindings=False):
    """A checkbox that space ticks. Enter is left to the dialog, where it applies: a GM who presses
    enter to confirm must never flip a box instead (a critical, a surprise) by accident."""

    BINDINGS = [Binding("space", "toggle_button", "Toggle", show=False, id="tick")]

    @property  # type: ignore[override]
    def BUTTON_INNER(self) -> str:  # noqa: N802 (Textual's name)
        # X only when ticked: a box that is off must not look like one that is on without colour
        return "X" if self.value else " "


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


class Dialog(ModalScreen[None]):
    DEFAULT_CSS = """
    Dialog { align: center middle; background: $background; }
    Dialog > #dialog {
        width: 80; max-width: 100%; height: auto; max-height: 100%;
        border: round $primary; background: $surface; padding: 0 1;
    }
    Dialog #heading { height: auto; text-style: bold; }
    Dialog #fields { height: auto; max-height: 70vh; margin-top: 1; }
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
    def fracas(self) -> FracasApp:
        return self.app  # type: ignore[return-value]

    @property
    def fight(self) -> Fight:
        session = self.fracas.session
        assert session is not None
        return session.state

    @property
    def rules(self) -> Ruleset:
        return get_ruleset(self.fight.ruleset)

    @property
    def ui(self) -> RulesetUI:
        """The app slice of the fight's ruleset: its form hints and its own dialogs."""
        return get_ui(self.fight.ruleset)

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
            with VerticalScroll(id="fields", can_focus=False):
                if self._build_error is None:
                    try:
                        yield from self.fields()
                    except Exception as exc:
                        self._build_error = exc
            yield Static(id="error")
            with Horizontal(id="buttons"):
                yield Button(self.OK, id="ok", variant="primary", compact=True)
                yield Button("Cancel", id="cancel", compact=True)
            yield Static(Text(self.HINT), id="hint")

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

    @on(Input.Changed)
    @on(Choice.Changed)
    @on(Checkbox.Changed)
    def _clear_error(self) -> None:
        # a refusal is about what was applied: once the GM changes a field it no longer applies
        err = self.query("#error")
        if err and err.first().has_class("-shown"):
            err.first().remove_class("-shown")

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


# --- health ------------------------------------------------------------------------------------


class HealthDialog(Dialog):
    """Damage, healing or temporary health: a number or dice, with a damage type."""

    WORDS = {"damage": "Damage to ", "heal": "Heal ", "temp": "Temporary health for "}

    def __init__(self, who: str, mode: str = "damage") -> None:
        super().__init__(who)
        self.mode = mode
        self.OK = {"damage": "Damage", "heal": "Heal", "temp": "Give"}[mode]

    def heading(self) -> Text:
        c = self.target
        t = Text(self.WORDS[self.mode]) + literal(c.name)
        pools = ", ".join(f"{p.key} {p.current}/{p.max}" + (f"+{p.temp}" if p.temp else "") for p in c.health)
        t.append(f"   ({pools})", style="dim")
        return t + self.table_note(self.roller)

    @property
    def roller(self) -> str:
        """Whose dice these are: the combatant whose turn it is (the attacker, the healer), else the
        target itself (a trap, a potion, a nine-phase hit)."""
        f = self.fight
        return f.current if f.current and f.find(f.current) else self.who

    def fields(self) -> ComposeResult:
        what = {"damage": "Damage", "heal": "Healing", "temp": "Temporary health"}[self.mode]
        yield row(what, field(placeholder="a number, or dice: 2d6+3", id="amount"))
        yield row("Table dice (optional)", field(placeholder="the dice rolled at the table: 4 6", id="given"))
        if self.mode == "damage":
            yield row("Damage type", field(placeholder="fire, slashing, ... (optional)", id="type"))
        c = self.target
        if self.mode != "temp" and len(c.health) > 1:
            order = self.rules.damage_order
            if self.mode == "damage":
                opts: list[tuple[str | Text, str]] = [(f"default: {' then '.join(order)}", "")]
                opts += [(f"{p.key} first", p.key) for p in c.health]
            else:
                opts = [(p.key, p.key) for p in c.health]
            yield row("Track", Choice(opts, id="pool"))

    def build(self) -> Command:
        what = {"damage": "damage", "heal": "healing", "temp": "temporary health"}[self.mode]
        amount, dice = amount_or_dice(self.value("amount"), what)
        given = parse_given(self.value("given"))
        if given is not None and not dice:
            raise FormError("Table dice go with a dice expression (like 2d6), not a plain number.")
        self.require_dice(self.roller, dice)
        pool = self.choice("pool") if self.query("#pool") else ""
        if self.mode == "damage":
            typ = self.value("type").strip()
            return C.Damage(self.who, amount, dice, given, typ, pool or "")
        if self.mode == "heal":
            return C.Heal(self.who, amount, dice, given, pool or "")
        return C.TempHealth(self.who, amount, dice, given)


# --- conditions --------------------------------------------------------------------------------

DURATION_LABELS = {
    "manual": "Until removed",
    "turn_end": "Until the end of a turn",
    "turn_start": "Until the start of a turn",
    "round_end": "Until the end of a round",
    "phase_end": "Until the end of a phase",
    "rounds": "For a number of rounds",
    "seconds": "For a time (seconds)",
    "rest": "For the rest of this round",
}


USED_LOOKBACK = 2000  # commands of the fight's history read for what it used (the latest ones)


class Used(NamedTuple):
    count: int  # how many times the GM put it on someone
    last: int  # when last: higher is later
    name: str  # as the GM last typed it


def conditions_used(history: Any, lookback: int = USED_LOOKBACK) -> dict[str, Used]:
    """The conditions the GM put on someone in this fight (the condition dialog's commands on the
    history's current path, the latest `lookback` of them), by lower-cased name. Conditions the
    rules put on by themselves (Surprised at the start, a Warhammer wound) are not the GM's choice
    and do not count."""
    from engine.area import KeptCondition

    used: dict[str, Used] = {}
    nodes = history.nodes
    i, n = history.cursor, 0
    while i >= 0 and n < lookback:
        cmd = nodes[i].command
        if isinstance(cmd, C.AddCondition | KeptCondition):
            name = cmd.name.strip()
            seen = used.get(name.lower())
            # walking back from the latest: the first seen is the latest, in its latest spelling
            used[name.lower()] = Used(1, -n, name) if seen is None else seen._replace(count=seen.count + 1)
        i, n = nodes[i].parent, n + 1
    return used


def rank_conditions(names: Sequence[str], used: dict[str, Used], common: Sequence[str]) -> list[str]:
    """`names` in the order the condition dialog offers them: those used in this fight (more often
    first, then more recently), then the ruleset's common ones in their order, then the rest as given."""
    common_at = {n.lower(): i for i, n in enumerate(common)}
    at = {n: i for i, n in enumerate(names)}

    def key(name: str) -> tuple[int, int, int]:
        low = name.lower()
        if low in used:
            return (0, -used[low].count, -used[low].last)
        if low in common_at:
            return (1, common_at[low], 0)
        return (2, at[name], 0)

    return sorted(names, key=key)


def condition_matches(query: str, names: dict[str, str]) -> tuple[list[str], list[str]]:
    """What a typed query finds in `names` (name -> description), both lists keeping `names`' order:
    by name (exactly, then at its start, then at a later word's start, then anywhere) and by
    description only."""
    q = query.strip().lower()
    if not q:
        return list(names), []
    groups: list[list[str]] = [[], [], [], []]
    described = []
    for n, d in names.items():
        low = n.lower()
        if low == q:
            groups[0].append(n)
        elif low.startswith(q):
            groups[1].append(n)
        elif any(w.startswith(q) for w in low.split()[1:]):
            groups[2].append(n)
        elif q in low:
            groups[3].append(n)
        elif q in d.lower():
            described.append(n)
    return [n for g in groups for n in g], described


class ConditionDialog(Dialog):
    """Search the ruleset's conditions (or type a new name) and give a duration.

    The list under the name shows what was found, best first, and "→" marks what enter takes
    (docs/conditions.md: the ones used in this fight, then the ruleset's common ones)."""

    BINDINGS = [
        Binding("down", "list(1)", show=False, id="catalog_down"),
        Binding("up", "list(-1)", show=False, id="catalog_up"),
    ]
    OK = "Add"
    PICK_MARK = "→ "

    def heading(self) -> Text:
        return Text("Condition on ") + literal(self.target.name)

    def _kinds(self) -> list[str]:
        rs = self.rules
        kinds = list(getattr(rs, "durations", ("manual", "turn_start", "turn_end", "round_end", "phase_end")))
        kinds = self.ui.condition_durations(self.fight, kinds)
        return [k for k in dict.fromkeys(kinds) if k in DURATION_LABELS]

    def fields(self) -> ComposeResult:
        f = self.fight
        yield row("Condition", field(placeholder="type to search, or a new name", id="search", kind=CatalogSearch))
        yield OptionList(id="catalog")
        yield row("Duration", Choice([(DURATION_LABELS[k], k) for k in self._kinds()], id="kind"))
        current = f.current or self.who
        yield row("Whose turn", Choice(combatant_options(f), current, id="whose"), id="row-whose")
        yield row("How many turns", field("1", id="count", number=True), id="row-count")
        yield row("Round", field(str(max(1, f.round)), id="round", number=True), id="row-round")
        yield row("Phase (1-9)", field(str(max(1, f.phase)), id="phase", number=True), id="row-phase")
        yield row("Rounds", field("1", id="rounds", number=True), id="row-rounds")
        yield row("Seconds", field("6", id="seconds", number=True), id="row-seconds")
        yield row("Level", field("1", id="level", number=True))
        per_turn = row("Damage each turn", field(placeholder="dice, e.g. 1d4 (optional)", id="dice"))
        # only some rulesets' conditions deal damage at the start of a turn (d20's Bleeding, Burning)
        per_turn.display = self.ui.condition_dice
        yield per_turn
        yield row("Note", field(placeholder="(optional)", id="note"))

    def on_mount(self) -> None:
        # the list follows the search field (up/down there move it); tab skips it
        self.query_one("#catalog", OptionList).can_focus = False
        self._ranked = self._rank()
        self._filter("")
        self._show_duration_fields()

    def _catalog(self) -> dict[str, str]:
        return dict(self.rules.conditions)

    def _rank(self) -> dict[str, str]:
        """The catalog, and the names the GM typed in this fight that it lacks, in the order offered
        (worked out once, as the dialog opens)."""
        names = self._catalog()
        session = self.fracas.session
        used = conditions_used(session.history) if session is not None else {}
        known = {n.lower() for n in names}
        for low, u in used.items():  # a condition of the GM's own, used here before: offered again
            if low not in known:
                names[u.name] = "used in this fight"
        rid = self.fight.ruleset
        common = self.ui.common_conditions  # the slice's own list (tui/rulesets/base.py)
        from engine.area import sustaining

        lead = sustaining(rid)
        common = ((lead,) if lead else ()) + tuple(common)
        return {n: names[n] for n in rank_conditions(list(names), used, common)}

    def _refilter(self) -> None:
        """The list for what the field holds now, unless it is listed already. In a burst the field's
        Changed messages come after its keys, up and down among them, each with the text of its
        moment: the list follows the field itself, not them (see OwnKeys)."""
        typed = self.value("search")
        if typed != getattr(self, "_filtered", None):
            self._filter(typed)

    def _filter(self, query: str) -> None:
        self._filtered = query
        ol = self.query_one("#catalog", OptionList)
        ol.clear_options()
        q = query.strip().lower()
        names = getattr(self, "_ranked", None) or self._catalog()
        # option ids are counters, never names (a name need not be unique or a valid id)
        self._names: dict[str, str] = {}
        self._prompts: list[Text] = []

        def entry(name: str, desc: str) -> Option:
            t = span(name, "bold")
            t.append(f"  {desc}", style="dim")
            oid = f"cat-{len(self._names)}"
            self._names[oid] = name
            return Option(t, id=oid)

        # names that match what was typed (exactly, at the start, at a word's start, inside), in the
        # ranked order within each; then a new name; then conditions whose description mentions it
        found, described = condition_matches(query, names)
        custom = []
        if q and not any(n.lower() == q for n in names):
            custom = [Option(Text("New condition: ", no_wrap=True) + literal(query.strip()), id="custom")]
        options = [entry(n, names[n]) for n in found] + custom + [entry(n, names[n]) for n in described]
        if not options:
            note = "Type a name: this ruleset has no catalog of conditions."
            options = [Option(span(note, "dim"), id="none", disabled=True)]
        pick = next((i for i, o in enumerate(options) if not o.disabled), None)
        for i, o in enumerate(options):
            prompt = o.prompt if isinstance(o.prompt, Text) else Text(str(o.prompt))
            self._prompts.append(prompt)
            if not o.disabled:
                o._set_prompt(Text(self.PICK_MARK if i == pick else "  ") + prompt)
        self._marked_at = pick
        ol.add_options(options)
        ol.highlighted = pick

    def _mark_pick(self, index: int | None) -> None:
        """The mark on the option enter takes, so it is plain without colour (a highlight is not)."""
        ol = self.query_one("#catalog", OptionList)
        old = getattr(self, "_marked_at", None)
        if old == index:
            return
        for i, mark in ((old, "  "), (index, self.PICK_MARK)):
            if i is not None and 0 <= i < min(ol.option_count, len(self._prompts)):
                if not ol.get_option_at_index(i).disabled:
                    ol.replace_option_prompt_at_index(i, Text(mark) + self._prompts[i])
        self._marked_at = index

    @on(OptionList.OptionHighlighted, "#catalog")
    def _highlighted(self, event: OptionList.OptionHighlighted) -> None:
        self._mark_pick(event.option_index)

    @on(Input.Changed, "#search")
    def _search(self, event: Input.Changed) -> None:
        self._refilter()

    def action_list(self, delta: int) -> None:
        self._refilter()
        ol = self.query_one("#catalog", OptionList)
        if ol.option_count:
            ol.highlighted = max(0, min(ol.option_count - 1, (ol.highlighted or 0) + delta))
            self._mark_pick(ol.highlighted)

    @on(OptionList.OptionSelected, "#catalog")
    def _picked(self, event: OptionList.OptionSelected) -> None:
        self.action_submit()

    @on(Choice.Changed, "#kind")
    def _kind_changed(self) -> None:
        self._show_duration_fields()

    def _show_duration_fields(self) -> None:
        kind = self.choice("kind")
        visible = {
            "turn_end": {"whose", "count"},
            "turn_start": {"whose", "count"},
            "round_end": {"round"},
            "phase_end": {"round", "phase"},
            "rounds": {"rounds"},
            "seconds": {"seconds"},
        }.get(kind, set())
        for name in ("whose", "count", "round", "phase", "rounds", "seconds"):
            self.query_one(f"#row-{name}").set_class(name not in visible, "hidden")

    def _condition_name(self) -> str:
        self._refilter()
        ol = self.query_one("#catalog", OptionList)
        opt = ol.highlighted_option
        typed = self.value("search").strip()
        if opt is not None and opt.id in getattr(self, "_names", {}):
            return self._names[opt.id]
        if typed:
            return typed
        raise FormError("Which condition? Type a name or pick one from the list.")

    def _duration(self) -> Duration:
        kind = self.choice("kind")
        f = self.fight
        if kind in ("turn_end", "turn_start"):
            whose = self.choice("whose") or self.who
            return Duration(kind=kind, who=whose, count=parse_int(self.value("count"), "Turns", 1, 1000))
        if kind == "round_end":
            return Duration(kind="round_end", round=parse_int(self.value("round"), "Round", 1, 100_000))
        if kind == "phase_end":
            return Duration(
                kind="phase_end",
                round=parse_int(self.value("round"), "Round", 1, 100_000),
                phase=parse_int(self.value("phase"), "Phase", 1, 9),
            )
        if kind in ("rounds", "seconds", "rest"):
            # durations in the ruleset's own time (nine-phase counts them from the current phase)
            amount = 0
            if kind == "rounds":
                amount = parse_int(self.value("rounds"), "Rounds", 1, 10_000)
            elif kind == "seconds":
                amount = parse_int(self.value("seconds"), "Seconds", 1, 60_000)
            made = self.ui.duration(kind, f, amount)
            if made is not None:
                return made
        return Duration()

    def build(self) -> Command:
        return C.AddCondition(
            self.who,
            self._condition_name(),
            self._duration(),
            level=parse_int(self.value("level"), "Level", 1, 20),
            dice=self.value("dice").strip(),
            note=self.value("note"),
        )


class RemoveConditionDialog(Dialog):
    OK = "Remove"
    HINT = "enter: remove the highlighted one · esc: cancel"

    def heading(self) -> Text:
        return Text("End a condition on ") + literal(self.target.name)

    def fields(self) -> ComposeResult:
        f = self.fight
        from tui.views import remaining

        opts = []
        # positions, not names: two conditions of one name (from a file) must not clash
        self._names = [cond.name for cond in self.target.conditions]
        for i, cond in enumerate(self.target.conditions):
            t = literal(cond.name, "bold")
            t.append(f"  {remaining(f, cond)}", style="dim")
            opts.append(Option(t, id=f"cond-{i}"))
        yield OptionList(*opts, id="conditions")

    def on_mount(self) -> None:
        ol = self.query_one("#conditions", OptionList)
        if ol.option_count:
            ol.highlighted = 0
        ol.focus()

    @on(OptionList.OptionSelected)
    def _picked(self, event: OptionList.OptionSelected) -> None:
        self.action_submit()

    def build(self) -> Command:
        i = self.query_one("#conditions", OptionList).highlighted
        if i is None or not 0 <= i < len(self._names):
            raise FormError("Pick the condition to end.")
        return C.RemoveCondition(self.who, self._names[i])


# --- combatants --------------------------------------------------------------------------------

KINDS = [("NPC", "npc"), ("PC", "pc")]
Stats = tuple[tuple[str, int], ...]
SIDES = [("enemy", "enemy"), ("party", "party"), ("neutral", "neutral")]


class _CombatantForm(Dialog):
    """Fields shared by adding and editing a combatant."""

    def _stat_grid(self, values: dict[str, int]) -> Grid:
        cells: list[Widget] = []
        for spec in self.rules.stats:
            cells.append(Static(Text(spec.label), classes="label"))
            cells.append(field(str(values.get(spec.key, spec.default)), id=f"stat-{spec.key}", number=True))
        grid = Grid(*cells, id="stats")
        grid.styles.grid_size_columns = 4
        grid.styles.grid_columns = "18 1fr 18 1fr"
        grid.styles.height = "auto"
        grid.styles.grid_rows = "1"
        grid.styles.grid_gutter_horizontal = 1
        return grid

    def _stats(self) -> tuple[tuple[str, int], ...]:
        stats, _ = self._stats_per_copy(1)
        return stats

    # --- dice in the health fields: "5d8+5" is its average or rolled (the fight's add_health) ------
    @functools.cached_property
    def _seed(self) -> int:
        """The app's own dice for rolled health (the fight's are not spent on it), fixed while the
        dialog is open: what the note shows is what is added."""
        import secrets

        return secrets.randbits(62)

    def _health_dice(self) -> dict[str, str]:
        """Health fields holding dice: stat key -> the dice typed."""
        keys = set(self.rules.damage_order)
        out = {}
        for spec in self.rules.stats:
            if spec.key in keys:
                _, dice = number_or_dice(self.value(f"stat-{spec.key}"), spec.label, spec.low, spec.high)
                if dice:
                    out[spec.key] = dice
        return out

    @property
    def health_mode(self) -> str:
        """"fixed" (the average of typed dice, the statblock's number) or "rolled"."""
        return str(self.choice("health")) if self.query("#health") else self.fight.setting("add_health", "fixed")

    def _stats_per_copy(self, count: int) -> tuple[Stats, tuple[Stats, ...]]:
        """The stats, and per copy the health rolled from typed dice (empty: every copy the same)."""
        from engine.dice import Rng, roll

        health = self._health_dice()
        shared: list[tuple[str, int]] = []
        rolled: dict[str, list[int]] = {}
        rng = Rng(seed=self._seed)
        for spec in self.rules.stats:
            text = self.value(f"stat-{spec.key}")
            dice = health.get(spec.key)
            if not dice:
                shared.append((spec.key, parse_int(text, spec.label, spec.low, spec.high)))
                continue
            if self.health_mode != "rolled":
                value = dice_average(dice)
            else:
                values = []
                for _ in range(count):
                    r, rng = roll(dice, rng)
                    values.append(max(1, r.total))
                rolled[spec.key] = values
                value = values[0]
            if not spec.low <= value <= spec.high:
                raise FormError(f"{spec.label}: {dice} gives {value}, outside {spec.low} to {spec.high}.")
            shared.append((spec.key, value))
        if count == 1 or not rolled:
            return tuple(shared), ()
        copies = tuple(tuple((k, v[i]) for k, v in rolled.items()) for i in range(count))
        return tuple(shared), copies

    def health_note(self, count: int) -> Text:
        """What typed health dice give, shown before the GM confirms: "Hit points 5d8+5: rolled 31"."""
        try:
            health = self._health_dice()
            if not health:
                return Text("")
            stats, copies = self._stats_per_copy(count)
        except (FormError, RuleError) as exc:
            return Text(str(exc), style="bold")
        labels = {spec.key: spec.label for spec in self.rules.stats}
        t = Text()
        for key, dice in health.items():
            if t.plain:
                t.append("\n")
            t.append(f"{labels[key]} {dice}: ")
            if copies:
                t.append("rolled " + ", ".join(str(dict(c)[key]) for c in copies), style="bold")
            else:
                how = "rolled" if self.health_mode == "rolled" else "average"
                t.append(f"{how} {dict(stats)[key]}", style="bold")
        t.append("  (ctrl+r: average or rolled)", style="dim")
        return t

    def remembered(self) -> list[Command]:
        """Dice typed in a health field: the average-or-rolled choice is the fight's for next time."""
        try:
            typed = bool(self._health_dice())
        except FormError:
            typed = False
        if typed and self.health_mode != self.fight.setting("add_health", "fixed"):
            return [C.Setting("add_health", self.health_mode)]
        return []

    def action_health(self) -> None:
        self.query_one("#health", Choice).action_move(1)
        self._dice_shown()

    def _dice_shown(self) -> None:
        """The health choice and the note follow what the fields hold (hooked by each form)."""

    def _extra_fields(self, c: Combatant | None) -> ComposeResult:
        ui = self.ui
        yield row("Flags", field(", ".join(c.flags) if c else "", ui.flag_hint, id="flags"))
        if ui.damage_types:
            yield row("Resists", field(", ".join(c.resist) if c else "", "damage types, comma separated", id="resist"))
            yield row("Vulnerable to", field(", ".join(c.vulnerable) if c else "", "damage types", id="vulnerable"))
        yield row("Note", field(c.note if c else "", "(optional)", id="note"))

    @on(Choice.Changed, "#kind")
    def _kind(self, event: Choice.Changed) -> None:
        # a PC is usually on the party's side; only nudge a side the GM has not touched
        side = self.query("#side")
        if side and not getattr(self, "_side_touched", False):
            self.query_one("#side", Choice).value = "party" if event.choice.value == "pc" else "enemy"
            self._side_touched = False

    @on(Choice.Changed, "#side")
    def _side(self, event: Choice.Changed) -> None:
        if self.query_one("#side", Choice).has_focus:
            self._side_touched = True


# "Goblin x4" (or "Goblin ×4", "goblin x 4"): four of them
_COUNT_SUFFIX = re.compile(r"^(.*?\S)\s+[x×]\s*(\d+)$", re.IGNORECASE)
LIBRARY_SHOWN = 6  # matches listed as the GM types (the list scrolls for more)
HEALTH_MODES: list[tuple[str | Text, str]] = [
    ("the statblock's number", "fixed"),
    ("rolled from its dice", "rolled"),
]


def split_count(text: str) -> tuple[str, int | None]:
    """"Goblin x4" -> ("Goblin", 4); a name without a count -> (name, None)."""
    m = _COUNT_SUFFIX.match(text.strip())
    if m and m.group(1).strip():
        return m.group(1).strip(), int(m.group(2)) if len(m.group(2)) <= 3 else 1000
    return text.strip(), None


def _word_prefixes(query: str, name: str) -> bool:
    """Every word typed starts a word of the name: "gob" or "bug bear" pick the entry outright;
    a looser match ("gbln") is listed but the typed name stays a new combatant."""
    words_of = name.casefold().split()
    return all(any(w.startswith(q) for w in words_of) for q in query.casefold().split())


class AddDialog(_CombatantForm):
    """Type a name: the library (the starter bestiary and the GM's own) is searched as you type;
    enter adds the highlighted creature ("Goblin x4": four, numbered), each copy keeping its
    statblock. A new combatant is the last option, and also what is added once any field below the
    name was changed: custom combatants work as they always did."""

    BINDINGS = [
        Binding("down", "list(1)", show=False, id="library_down"),
        Binding("up", "list(-1)", show=False, id="library_up"),
        Binding("ctrl+r", "health", show=False, id="library_health"),
    ]
    DEFAULT_CSS = """
    AddDialog #library { max-height: 6; }
    AddDialog #library-note { height: auto; color: $text-muted; }
    """
    OK = "Add"
    HINT = "enter: add · ↑↓: library · ctrl+r: health · esc: cancel · tab: next field"

    def heading(self) -> Text:
        return Text(f"Add combatants ({self.rules.title})")

    @property
    def joins(self) -> bool:
        """Added to a fight under way in a ruleset with initiative: it is asked for (or rolled)."""
        f = self.fight
        return f.started and not f.ended and self.rules.rolls_initiative()

    def fields(self) -> ComposeResult:
        yield row("Name", field(placeholder="Goblin, or search the library: gob x4", id="name", kind=LibrarySearch))
        yield OptionList(id="library")
        yield Static(id="library-note")
        if self.joins:
            # the fight is under way: the newcomer's place in the order, the first field after the name
            mode = self.fight.setting("init_typed", "die")
            yield row(
                "Initiative",
                field(placeholder="empty: rolled; 14, or one each", id="join_init"),
                Choice([("die", "die"), ("total", "total")], mode, id="join_typed"),
                id="r-join",
            )
        health = self.fight.setting("add_health", "fixed")
        ch = Choice(HEALTH_MODES, health, id="health")
        ch.can_focus = False  # ctrl+r (or a click) changes it: the tab order stays as it was
        yield row("Health (ctrl+r)", ch, id="r-health")
        yield row("How many", field("1", id="count", number=True))
        yield row("PC or NPC", Choice(KINDS, "npc", id="kind"))
        yield row("Side", Choice(SIDES, "enemy", id="side"))
        yield self._stat_grid({})
        f = self.fight
        if self.ui.companions:
            leaders = [c.id for c in f.combatants if c.owner]
            yield row("Companion of", Choice(combatant_options(f, "nobody (own initiative)", leaders), "", id="owner"))
        yield from self._extra_fields(None)

    def on_mount(self) -> None:
        self._entries: list[Any] = []  # engine.library Entry values, loaded once
        self._shown: list[Any] = []  # the matches listed, in order
        self._library_problem = ""
        from saves import library as S
        from saves.errors import SaveError

        try:
            # a damaged entry of the GM's costs that entry; a file that cannot be read, only itself
            self._entries, problem = S.load_usable(self.fight.ruleset)
            self._library_problem = clean(problem)
        except (RuleError, OSError, SaveError) as exc:  # the starter bestiary still serves
            import engine.library as L

            self._library_problem = clean(str(exc))
            try:
                self._entries = [L.Entry(sb) for sb in L.starter(self.fight.ruleset)]
            except RuleError:
                self._entries = []
        self.query_one("#library", OptionList).can_focus = False  # up/down in the name field move it
        # what a custom combatant's fields hold as composed: changed ones mean "my own, not the library's"
        self._composed = self._custom_values()
        self._filter("")
        self.query_one("#name", Input).focus()

    def _custom_values(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for w in self.query("Input").results(Input):
            if w.id not in ("name", "count", "join_init"):  # its initiative is the moment's, not its own
                out[w.id or ""] = w.value
        for c in self.query(Choice).results(Choice):
            if c.id not in ("health", "owner", "join_typed"):  # a library companion is still the library's
                out[c.id or ""] = c.value
        return out

    def _custom_edited(self) -> bool:
        return self._custom_values() != getattr(self, "_composed", {})

    def _refilter(self) -> None:
        """The library list for what the name holds now (as ConditionDialog._refilter)."""
        typed = self.value("name")
        if typed != getattr(self, "_filtered", None):
            self._filter(typed)

    def _filter(self, typed: str) -> None:
        import engine.library as L

        self._filtered = typed
        ol = self.query_one("#library", OptionList)
        ol.clear_options()
        query, _ = split_count(typed)
        self._shown = L.search(self._entries, query, limit=50) if query else []
        options: list[Option] = []
        for i, e in enumerate(self._shown):
            sb = e.statblock
            kind = L.kind_of(sb)
            t = literal(sb.name, "bold")
            dice = kind.health_dice(sb)
            bits = [sb.type, f"{kind.health(sb)} health" + (f" ({dice})" if dice else ""), e.origin]
            t.append_text(literal("  " + " · ".join(b for b in bits if b), "dim"))
            options.append(Option(t, id=f"lib-{i}"))
        if query:
            options.append(Option(Text("New combatant: ", no_wrap=True) + literal(query), id="custom"))
        ol.add_options(options)
        ol.display = bool(options)
        first_is_it = bool(self._shown) and _word_prefixes(query, self._shown[0].statblock.name)
        ol.highlighted = (0 if first_is_it else len(options) - 1) if options else None
        self._note()

    def _picked(self) -> Any | None:
        """The library entry enter would add (None: a new combatant, as typed)."""
        ol = self.query_one("#library", OptionList)
        opt = ol.highlighted_option
        if opt is None or not (opt.id or "").startswith("lib-") or self._custom_edited():
            return None
        i = int((opt.id or "")[4:])
        return self._shown[i] if i < len(self._shown) else None

    def _note(self) -> None:
        """One line under the list: what enter adds."""
        import engine.library as L

        entry = self._picked()
        dice = L.kind_of(entry.statblock).health_dice(entry.statblock) if entry is not None else ""
        typed = Text("") if entry is not None else self.health_note(self._count_or_one())
        # nothing to roll: no choice to offer; the choice's words follow what is rolled
        ch = self.query_one("#health", Choice)
        want = HEALTH_MODES if entry is not None else HEALTH_DICE
        if ch.options != want:
            ch.options = list(want)
            ch.refresh()
        self.query_one("#r-health").display = bool(dice) or bool(typed.plain)
        t = Text()
        if self._library_problem:
            t.append(self._library_problem + "\n", style="bold")
        if entry is not None:
            sb = entry.statblock
            _, count = split_count(self.value("name"))
            t.append("enter adds ")
            t.append_text(literal(f"{sb.name} x{count}" if count else sb.name, "bold"))
            t.append(" from the library, with its attacks; change a field below for your own", style="dim")
        elif self._shown and self._custom_edited():
            t.append("a new combatant (a field below was changed)", style="dim")
        for extra in (typed, self._join_note()):
            if extra.plain:
                if t.plain:
                    t.append("\n")
                t.append_text(extra)
        note = self.query_one("#library-note", Static)
        note.update(t)
        note.display = bool(t.plain)

    @on(Input.Changed, "#name")
    def _search(self, event: Input.Changed) -> None:
        self._refilter()

    @on(Input.Changed)
    @on(Choice.Changed)
    def _maybe_custom(self, event: Message) -> None:
        if self.is_mounted and getattr(event, "control", None) is not self.query_one("#name"):
            self._note()

    @on(OptionList.OptionHighlighted, "#library")
    def _moved(self) -> None:
        self._note()

    @on(OptionList.OptionSelected, "#library")
    def _chosen(self) -> None:
        self.action_submit()

    def action_list(self, delta: int) -> None:
        self._refilter()
        ol = self.query_one("#library", OptionList)
        if ol.option_count:
            ol.highlighted = max(0, min(ol.option_count - 1, (ol.highlighted or 0) + delta))

    def _dice_shown(self) -> None:
        self._note()

    def remembered(self) -> list[Command]:
        out = super().remembered()  # the choice for dice typed in a health field
        mode = self.health_mode
        if not out and self._picked() is not None and mode != self.fight.setting("add_health", "fixed"):
            out.append(C.Setting("add_health", mode))  # the fight remembers it for the next add
        if self.query("#join_typed") and self.value("join_init").strip():
            mode = self.choice("join_typed")
            if mode != self.fight.setting("init_typed", "die"):
                out.append(C.Setting("init_typed", mode))
        return out

    def _count_or_one(self) -> int:
        try:
            return self._count()
        except FormError:
            return 1

    def _join_initiative(self, count: int) -> tuple[C.Initiative, ...] | None:
        """What the newcomers join the order with: typed (one for all, or one per copy), else rolled
        by the ruleset, one each. None: not asked (before the start, a companion, no initiative)."""
        owner = self.choice("owner") if self.query("#owner") else ""
        if not self.query("#join_init") or owner:
            return None
        text = self.value("join_init").strip()
        if not text:
            return (C.Initiative(),)  # the ruleset rolls for each copy, in the same command
        parts = [p for p in re.split(r"[\s,]+", text) if p]
        if len(parts) not in (1, count):
            raise FormError(f"Initiative: one for all, or one for each of the {count} ({len(parts)} given).")
        mode = self.choice("join_typed")
        label = "Initiative total" if mode == "total" else "Initiative die"
        out = []
        for p in parts:
            given = typed_initiative(p, mode, label)
            assert given is not None  # parts are never empty
            out.append(given)
        return tuple(out)

    def _join_note(self) -> Text:
        """The initiative each newcomer gets and where it goes, worked out by a dry run of the one
        command enter sends (rolled ones included: the engine is pure, so they fall the same)."""
        if not self.query("#join_init") or not self.is_mounted:
            return Text("")
        from engine import apply

        try:
            cmds = self.build()
            cmd = cmds if isinstance(cmds, Command) else cmds[0]
            _, events = apply(self.fight, cmd)
        except (FormError, RuleError) as exc:
            return Text(str(exc), style="bold") if self.value("join_init").strip() else Text("")
        rolled = [e for e in events if isinstance(e, E.InitiativeRolled)]
        if not rolled:
            return Text("")
        unit = initiative_unit(self.ui)
        t = Text("Initiative: ")
        for i, e in enumerate(rolled[:6]):
            if i:
                t.append(", ")
            t.append_text(literal(e.name))
            t.append(f" {unit} {e.value:+d}" if unit else f" {e.value}", style="bold")
        if len(rolled) > 6:
            t.append(f", +{len(rolled) - 6} more")
        how = "typed" if self.value("join_init").strip() else "rolled"
        t.append(f" ({how}; placed in the order)", style="dim")
        return t

    def _count(self) -> int:
        _, suffix = split_count(self.value("name"))
        if suffix is not None:
            if not 1 <= suffix <= 50:
                raise FormError("How many: between 1 and 50 at once.")
            return suffix
        return parse_int(self.value("count"), "How many", 1, 50)

    def build(self) -> Command | list[Command]:
        self._refilter()
        entry = self._picked()
        owner = self.choice("owner") if self.query("#owner") else ""
        if entry is not None:
            return self._from_library(entry.statblock, owner or "")
        name, _ = split_count(self.value("name"))
        if not name:
            raise FormError("Give the combatant a name.")
        count = self._count()
        stats, copies = self._stats_per_copy(count)
        return C.AddCombatant(
            name,
            kind=self.choice("kind"),
            side=self.choice("side"),
            stats=stats,
            count=count,
            copies=copies,
            initiative=self._join_initiative(count),
            owner=owner or "",
            flags=words(self.value("flags")),
            resist=words(self.value("resist")) if self.query("#resist") else (),
            vulnerable=words(self.value("vulnerable")) if self.query("#vulnerable") else (),
            note=self.value("note"),
        )

    def _from_library(self, sb: Any, owner: str) -> list[Command]:
        """The one AddCombatant of the copies (each keeps the statblock); a changed health choice is
        sent before it (remembered), so one undo takes the copies back."""
        import engine.library as L
        from engine.dice import Rng

        mode = self.choice("health")
        count = self._count()
        # the rolled numbers go into the command, so a replay never rerolls; a seed of the app's own
        # (the fight's dice are not spent on it), the same while the dialog is open
        cmd, _ = L.to_add(sb, count, mode, Rng(seed=self._seed))
        if owner:
            cmd = replace_struct(cmd, owner=owner)
        cmd = replace_struct(cmd, initiative=self._join_initiative(count))
        return [cmd]  # the health choice, if changed, is remembered (remembered) before it


class EditDialog(_CombatantForm):
    BINDINGS = [Binding("ctrl+r", "health", show=False, id="library_health")]
    OK = "Save"

    def heading(self) -> Text:
        return Text("Edit ") + literal(self.target.name)

    def fields(self) -> ComposeResult:
        import engine.library as L

        c = self.target
        self._side_touched = True  # editing: never change the side behind the GM's back
        yield row("Name", field(c.name, id="name"))
        yield row("PC or NPC", Choice(KINDS, c.kind, id="kind"))
        yield row("Side", Choice(SIDES, c.side, id="side"))
        yield self._stat_grid(dict(c.stats))
        # dice typed in a health field (5d8+5): its average or rolled, as the add dialog does
        ch = Choice(HEALTH_DICE, self.fight.setting("add_health", "fixed"), id="health")
        ch.can_focus = False  # ctrl+r (or a click) changes it: the tab order stays as it was
        r = row("Health (ctrl+r)", ch, id="r-health")
        r.display = False
        yield r
        yield Static(id="dice-note", classes="wide-label")
        yield from self._extra_fields(c)
        kept = L.statblock_of(self.fight.ruleset, c)
        # the statblock's own name ("Goblin", not "Goblin 3"): saving it again replaces that entry
        yield row(
            "Library",
            Tick("save to the library as", id="save_library", compact=True),
            field(kept.name if kept is not None else c.name, id="library_name"),
        )

    @_settling
    def action_submit(self) -> None:
        """The edit (if any field changed), then the save to the library when ticked: one line says
        where it went."""
        from saves import library as S
        from saves.errors import SaveError

        save = self.checked("save_library")
        try:
            name = self.value("library_name").strip()
            if save and not name:
                raise FormError("Save to the library as: give the entry a name.")
            cmd = self.build()
            changed = any(getattr(cmd, f) is not None for f in cmd.__struct_fields__ if f != "who")
            if changed or not save:
                self.fracas.commit([cmd, *self.remembered()], announce=self.ANNOUNCE)
            if save:
                rid = self.fight.ruleset
                sb = S.save_combatant(rid, self.fight.get(self.who), name=name)
                where = S.library_path(rid)
                self.fracas.notify(clean(f"Saved {sb.name} to your {rid} library ({where})."), markup=False)
        except (FormError, RuleError, OSError, SaveError) as exc:
            self.show_error(str(exc))
            return
        self.dismiss()

    @on(Input.Changed)
    def _dice_shown(self) -> None:
        """Dice in a health field: the average-or-rolled choice shows, and what they give."""
        if not self.is_mounted:
            return
        note = self.health_note(1)
        self.query_one("#r-health").display = bool(note.plain)
        self.query_one("#dice-note", Static).update(note)

    def build(self) -> C.EditCombatant:
        c = self.target
        name = self.value("name").strip()
        old = dict(c.stats)
        changed = tuple((k, v) for k, v in self._stats() if old.get(k) != v)
        new_words = {key: words(self.value(key)) for key in ("flags", "resist", "vulnerable") if self.query(f"#{key}")}
        note = self.value("note")
        return C.EditCombatant(
            c.id,
            name=name if name != c.name else None,
            kind=self.choice("kind") if self.choice("kind") != c.kind else None,
            side=self.choice("side") if self.choice("side") != c.side else None,
            stats=changed or None,
            flags=new_words["flags"] if new_words.get("flags", c.flags) != c.flags else None,
            resist=new_words["resist"] if "resist" in new_words and new_words["resist"] != c.resist else None,
            vulnerable=(
                new_words["vulnerable"]
                if "vulnerable" in new_words and new_words["vulnerable"] != c.vulnerable
                else None
            ),
            note=note if note != c.note else None,
        )


# --- starting and ordering ---------------------------------------------------------------------


class TypedInitiative(Dialog):
    """A dialog where initiative is typed: the die rolled or the total the player calls out, as the
    "Initiative typed is" choice says; each field shows the initiative it gives before it is sent."""

    # the choice when the fight has none remembered ("die": what the start dialog always took)
    TYPED_DEFAULT = "die"

    def typed_row(self, mode: str = "") -> Horizontal | None:
        """The die-or-total choice, for a ruleset with an initiative number (None otherwise); it
        opens on `mode`, else on what the fight remembers."""
        if not self.rules.rolls_initiative():
            return None
        mode = mode or self.fight.setting("init_typed", self.TYPED_DEFAULT)
        return row("Initiative typed is", Choice(INIT_TYPED, mode, id="init_typed"), id="r-typed")

    @property
    def typed_mode(self) -> str:
        return self.choice("init_typed") if self.query("#init_typed") else self.TYPED_DEFAULT

    def remembered(self) -> list[Command]:
        mode = self.typed_mode
        if self.query("#init_typed") and mode != self.fight.setting("init_typed", "die"):
            return [C.Setting("init_typed", mode)]
        return []

    def shown_row(self, label: str | Text, *widgets: Widget, slot: str) -> Horizontal:
        """A row whose initiative field is followed by what it gives ("= 17")."""
        text = label if isinstance(label, Text) else Text(label)
        shown = Static(id=f"shown-{slot}", classes="shown")
        return Horizontal(Static(text, classes="label"), *widgets, shown, classes="row")

    def show_initiative(self, slot: str, c: Combatant, text: str) -> None:
        try:
            given = typed_initiative(text, self.typed_mode, "Initiative")
            shown = initiative_shown(self.fight, c, given, table=table_rolls(self.fight, c.id))
        except FormError:
            shown = span("= ?", "bold")
        for w in self.query(f"#shown-{slot}").results(Static):
            w.update(shown)

    def refresh_shown(self) -> None:
        """Every field's result again (the choice changed, or the dialog opened)."""


class StartDialog(TypedInitiative):
    OK = "Start"
    ANNOUNCE = False  # the tracker and header show the new round at once
    HINT = "enter: start · tab: next field · space: tick · esc: cancel"

    def heading(self) -> Text:
        ui = self.ui
        how = ui.start_hint
        sides = [SIDE_WORDS[k] for k, key in SIDE_KEYS.items() if self.fight.setting(key, "app") == "table"]
        if sides and ui.start_rolls:
            how = how.split(". ")[0] + "."  # the app does not fill in a blank die for those sides
            if len(sides) == 1:
                other = "NPC" if sides[0] == "PCs" else "PC"
                how += f" Leave a{'n' if other == 'NPC' else ''} {other}'s die blank and the app rolls it."
            return (
                span("Start the fight\n", "bold")
                + Text(how)
                + span(f"\nThe table rolls for {' and '.join(sides)}: type their dice.", "bold")
            )
        return span("Start the fight\n", "bold") + Text(how)

    def fields(self) -> ComposeResult:
        f = self.fight
        ui = self.ui
        typed = self.typed_row() if ui.start_rolls else None
        if typed is not None:
            yield typed
        # ids are positions (slot): a combatant id comes from a file and need not be a valid widget id
        for i, c in enumerate(f.combatants):
            widgets: list[Widget] = []
            if ui.start_rolls:
                widgets.append(Tick(Text("surprised"), id=f"surprised-{i}", compact=True))
                if not (ui.companions and c.owner):  # a companion acts on its owner's initiative
                    widgets.append(field(placeholder=self.hint(c), id=f"init-{i}", number=True))
            name = literal(c.name)
            if typed is not None and any(w.id == f"init-{i}" for w in widgets):
                yield self.shown_row(name, *widgets, slot=str(i))
            else:
                yield Horizontal(Static(name, classes="label"), *widgets, classes="row")

    @property
    def focus_chain(self) -> list[Widget]:
        """Tab walks the dice down the list, then the surprised boxes: "15", tab, "12" gives the next
        combatant its die (a box between them took the 12 and lost it)."""
        chain = super().focus_chain
        head: list[Widget] = []
        dice: list[Widget] = []
        ticks: list[Widget] = []
        tail: list[Widget] = []
        for w in chain:
            wid = w.id or ""
            if wid.startswith("init-"):
                dice.append(w)
            elif wid.startswith("surprised-"):
                ticks.append(w)
            else:
                (tail if dice or ticks else head).append(w)
        return head + dice + ticks + tail

    def hint(self, c: Combatant) -> str:
        """What an initiative field takes: the die or the total; the table's, or optional."""
        what = "total" if self.typed_mode == "total" else "die"
        return f"the table's {what}" if table_rolls(self.fight, c.id) else f"{what} (optional)"

    def slot(self, cid: str) -> int:
        """The position of combatant `cid`: its fields' ids are "surprised-<slot>" and "init-<slot>"."""
        return next(i for i, c in enumerate(self.fight.combatants) if c.id == cid)

    def on_mount(self) -> None:
        self.refresh_shown()
        # the table rolls for a side: the cursor starts on the first die to type
        f = self.fight
        first = next(
            (i for i, c in enumerate(f.combatants) if self.query(f"#init-{i}") and table_rolls(f, c.id)), None
        )
        if first is not None:
            self.query_one(f"#init-{first}", Input).focus()
            return
        # otherwise the first combatant's die, so tab walks down the list's dice as it is on screen,
        # then its surprised boxes (starting on the Start button sent the first tab to Cancel);
        # enter still starts from any
        fields = self.query("#fields Input") or self.query("#fields Tick")
        if fields:
            fields.first().focus()
        else:
            self.query_one("#ok", Button).focus()

    def refresh_shown(self) -> None:
        if not self.query("#init_typed"):
            return
        for i, c in enumerate(self.fight.combatants):
            if self.query(f"#init-{i}"):
                self.show_initiative(str(i), c, self.value(f"init-{i}"))

    @on(Input.Changed)
    def _typed(self, event: Input.Changed) -> None:
        wid = event.input.id or ""
        if wid.startswith("init-") and self.query("#init_typed"):
            i = int(wid[5:])
            self.show_initiative(str(i), self.fight.combatants[i], event.value)

    @on(Choice.Changed, "#init_typed")
    def _mode(self) -> None:
        if self.is_mounted:
            self.refresh_shown()
            for i, c in enumerate(self.fight.combatants):
                for w in self.query(f"#init-{i}").results(Input):
                    w.placeholder = self.hint(c)

    def build(self) -> Command:
        f = self.fight
        surprised = []
        initiative = []
        totals = []
        for i, c in enumerate(f.combatants):
            if self.query(f"#surprised-{i}") and self.checked(f"surprised-{i}"):
                surprised.append(c.id)
            if self.query(f"#init-{i}"):
                given = typed_initiative(self.value(f"init-{i}"), self.typed_mode, f"{clean(c.name)}'s initiative")
                self.require_dice(c.id, "initiative", f"init-{i}")
                if given is not None and given.total is not None:
                    totals.append((c.id, given.total))
                elif given is not None and given.dice is not None:
                    initiative.append((c.id, given.dice))
        return C.StartFight(tuple(initiative), tuple(surprised), totals=tuple(totals))


class InitiativeDialog(TypedInitiative):
    OK = "Set"
    TYPED_DEFAULT = "total"

    def heading(self) -> Text:
        c = self.target
        what = self.ui.initiative_title
        return Text(f"{what} and place in the order: ") + literal(c.name)

    def fields(self) -> ComposeResult:
        c = self.target
        f = self.fight
        pos = f.order.index(c.id) + 1 if c.id in f.order else 1
        self._pos = pos
        # the field holds the current value: a total, whatever the start dialog was typed in
        typed = self.typed_row("total")
        if typed is not None:
            yield typed
        init = field("" if c.initiative is None else str(c.initiative), id="initiative")
        yield self.shown_row("Initiative", init, slot="initiative")
        yield row(f"Place (1-{len(f.order)})", field(str(pos), id="position", number=True))

    def on_mount(self) -> None:
        self.refresh_shown()
        self.query_one("#initiative", Input).focus()

    def remembered(self) -> list[Command]:
        return []  # it opens on the total (the value it shows): the start dialog's choice stays

    def refresh_shown(self) -> None:
        if self.query("#init_typed"):
            self.show_initiative("initiative", self.target, self.value("initiative"))

    @on(Input.Changed, "#initiative")
    @on(Choice.Changed, "#init_typed")
    def _typed(self) -> None:
        if self.is_mounted:
            self.refresh_shown()

    def build(self) -> list[Command]:
        c = self.target
        f = self.fight
        out: list[Command] = []
        given = typed_initiative(self.value("initiative"), self.typed_mode, "Initiative")
        init: int | None = None
        if given is not None and given.total is not None:
            init = given.total
        elif given is not None:
            # the die as the ruleset reads it (its bonus added, Warhammer's SL worked out)
            init, _, _, _ = self.rules.roll_initiative(c, given, f.rng)
        if init is not None and init != c.initiative:
            out.append(C.SetInitiative(c.id, init))
        pos = parse_int(self.value("position"), "Place", 1, max(1, len(f.order)))
        if pos != self._pos:
            out.append(C.Reorder(c.id, pos - 1))  # after a new initiative, so the GM's place wins
        if not out:
            raise FormError("Nothing changed.")
        return out


# --- acting ------------------------------------------------------------------------------------

def acting_user(f: Fight, selected: str) -> str:
    """Who acts: the combatant whose turn it is (Cosmere: the one acting), else the selected one."""
    return f.current if f.current and f.find(f.current) is not None else selected


def cannot_act(f: Fight, cid: str) -> str:
    """Why `cid` can use nothing now, in one line ("" when it can)."""
    c = f.find(cid) if cid else None
    if c is None:
        return "Select the combatant who acts first."
    if c.down:
        return f"{clean(c.name)} is down and cannot act: select another combatant, or heal it first."
    return ""


class ActingDialog(Dialog):
    """A dialog for what one combatant does on its turn: it opens on the combatant whose turn it is
    (the one acting in Cosmere; the selected one when nobody's turn is under way), with a picker
    for another (a reaction off its turn); the selected row, when it is someone else, is the
    target where there is one. It does not open for a combatant that is down (one line says why)."""

    USER = "Who"

    def __init__(self, who: str = "") -> None:
        super().__init__(who)
        self.selected = who  # the row highlighted in the tracker
        self.refusal = ""
        self._resolved = False

    def compose(self) -> ComposeResult:
        if not self._resolved:
            self._resolved = True
            try:
                self.who = acting_user(self.fight, self.selected)
                self.refusal = cannot_act(self.fight, self.who)
            except Exception as exc:  # a bug: reported once mounted, like any failure while building
                self._build_error = exc
        yield from super().compose()

    def on_mount(self) -> None:
        # runs after the subclasses' own on_mount (Textual calls each class's): a user that cannot
        # act closes the dialog at once, with the reason instead
        if self.refusal:
            self._failed = True
            self.dismiss()
            self.fracas.tell(self.refusal, inline=False)
            self.fracas.dialog_settled(self)
            self.fracas.call_after_refresh(self.fracas.release_typeahead)

    @property
    def preset(self) -> str:
        """The target the tracker's selection offers: the selected row when it is not the user."""
        return self.selected if self.selected != self.who and self.fight.find(self.selected) else ""

    def user_row(self) -> Horizontal:
        return row(self.USER, Choice(combatant_options(self.fight, standing_first=True), self.who, id="user"))

    @on(Choice.Changed, "#user")
    def _user_changed(self, event: Choice.Changed) -> None:
        if not self.is_mounted or event.choice.value == self.who:
            return
        self.who = event.choice.value
        self.query_one("#heading", Static).update(self.heading())
        self.user_changed()

    def user_changed(self) -> None:
        """The user changed (self.who is the new one): fields that depend on it follow."""

    def retarget(self, wid: str, options: list[tuple[str | Text, str]]) -> None:
        """Give the target chooser `wid` new options (the user left out), keeping its choice if still there."""
        for ch in self.query(f"#{wid}").results(Choice):
            keep = ch.value
            with self.prevent(Choice.Changed):
                ch.options = options
                ch.set_reactive(Choice.index, 0)
                ch.value = keep
            ch.refresh()

    def build(self) -> Command | list[Command]:
        why = cannot_act(self.fight, self.who)
        if why:
            raise FormError(why)
        return self.use()

    def use(self) -> Command | list[Command]:
        raise NotImplementedError


class UseDialog(ActingDialog):
    """Spend part of the action economy: what the ruleset's slice lists (tui/rulesets/), a name for
    the log, and the cost or the target where the ruleset asks for them."""

    OK = "Use"

    def heading(self) -> Text:
        c = self.target
        t = literal(c.name)
        t.append(f" uses…   ({self.rules.describe_economy(c)})", style="dim")
        return t

    def fields(self) -> ComposeResult:
        ui = self.ui
        yield self.user_row()
        yield row("What", Choice(list(ui.use_choices), id="what"))
        yield row("Name", field(placeholder=ui.use_name_hint, id="name"))
        if ui.use_cost:
            yield row("Cost (actions)", Choice([("1", 1), ("2", 2), ("3", 3)], 1, id="cost"))
        if ui.use_target:
            yield row("Target", Choice(self._targets(), self.preset, id="target"))

    def _targets(self) -> list[tuple[str | Text, str]]:
        return combatant_options(self.fight, "nobody in particular", [self.who], standing_first=True)

    def user_changed(self) -> None:
        self.retarget("target", self._targets())

    def on_mount(self) -> None:
        self.query_one("#what", Choice).focus()  # what is used, the field changed most

    def use(self) -> Command:
        cost = self.choice("cost") if self.query("#cost") else 1
        target = self.choice("target") if self.query("#target") else ""
        return C.UseAction(self.who, self.choice("what"), self.value("name").strip(), cost, target or "")


class RulesDialog(Dialog):
    """One ruleset command for one combatant (the selected one by default); a roll in it is the
    table's when the fight's setting says so for that combatant's side."""

    TITLE = ""
    WHO = "Who"

    def heading(self) -> Text:
        return Text(self.TITLE) + self.table_note(self.who)

    def who_row(self) -> Horizontal:
        return row(self.WHO, Choice(combatant_options(self.fight), self.who, id="who"))

    @property
    def subject(self) -> str:
        return self.choice("who") or ""

    @on(Choice.Changed, "#who")
    def _who_changed(self) -> None:
        if self.is_mounted:
            self.query_one("#heading", Static).update(Text(self.TITLE) + self.table_note(self.subject))

    def on_mount(self) -> None:
        self.initial_focus()  # subclasses hook in here: Textual runs every class's on_mount

    def initial_focus(self) -> None:
        given = self.query("#given")
        if given and table_rolls(self.fight, self.subject):
            given.first().focus()
            return
        first = self.query(Input)
        if first:
            first.first().focus()
        else:
            self.query_one("#ok").focus()

    def given_or_total(self, expr: str) -> tuple[tuple[int, ...] | None, int | None]:
        """The table's dice or the total it called out (not both); one of them when the table rolls."""
        given = parse_given(self.value("given"))
        total = optional_int(self.value("total"), "Total", 0, 100_000) if self.query("#total") else None
        if given is not None and total is not None:
            raise FormError("Give the dice or the total, not both.")
        if total is None:
            self.require_dice(self.subject, expr, "given")
        return given, total



# --- dice, resources, notes --------------------------------------------------------------------


class RollDialog(Dialog):
    OK = "Roll"

    def fields(self) -> ComposeResult:
        f = self.fight
        yield row("Dice", field(self.ui.roll_dice, "2d6+3, 4d6kh3, d20 adv, d%", id="dice"))
        yield row("For", Choice(combatant_options(f, "nobody (a table roll)"), self.who, id="for"))
        yield row("Kind", Choice([("a roll", "roll"), ("a saving throw", "save")], "roll", id="kind"))
        yield row("Against DC", field(placeholder="for a saving throw (optional)", id="dc", number=True))
        yield row("Label", field(placeholder="Perception, Dex save, ... (optional)", id="label"))
        yield row("Table dice (optional)", field(placeholder="the dice rolled at the table: 17", id="given"))

    def heading(self) -> Text:
        return Text("Roll dice") + self.table_note(self.who)

    def on_mount(self) -> None:
        if table_rolls(self.fight, self.who):
            self.query_one("#given", Input).focus()  # the dice are usually right: the number is missing
            return
        inp = self.query_one("#dice", Input)
        inp.focus()
        inp.action_select_all()

    def build(self) -> Command:
        dice = self.value("dice").strip()
        if not dice:
            raise FormError("Which dice? For example 2d6+3.")
        who = self.choice("for") or ""
        given = parse_given(self.value("given"))
        label = self.value("label").strip()
        self.require_dice(who, dice)
        dc = optional_int(self.value("dc"), "DC", 0, 1000)
        if self.choice("kind") == "save":
            if not who:
                raise FormError("A saving throw is made by a combatant: choose who.")
            return C.SavingThrow(who, dice, dc, given, label)
        if dc is not None:
            raise FormError("A DC goes with a saving throw: choose 'a saving throw' as the kind.")
        return C.Roll(dice, given, who, label)


class ResourceDialog(Dialog):
    OK = "Apply"

    def heading(self) -> Text:
        c = self.target
        t = literal(c.name)
        t.append("   " + ", ".join(f"{p.key} {p.current}/{p.max}" for p in c.resources), style="dim")
        return t

    def fields(self) -> ComposeResult:
        c = self.target
        yield row("Resource", Choice([(p.key, p.key) for p in c.resources], id="key"))
        yield row("Spend or restore", Choice([("spend", "spend"), ("restore", "restore")], id="how"))
        yield row("Amount", field("1", id="amount", number=True))

    def build(self) -> Command:
        amount = parse_int(self.value("amount"), "Amount", 1, 1000)
        key = self.choice("key")
        if self.choice("how") == "spend":
            return C.SpendResource(self.who, key, amount)
        return C.RestoreResource(self.who, key, amount)


class NoteDialog(Dialog):
    OK = "Note"

    def heading(self) -> Text:
        return Text("A note in the log")

    def fields(self) -> ComposeResult:
        yield row("Note", field(placeholder="what happened", id="text"))
        yield row("About", Choice(combatant_options(self.fight, "the fight"), self.who, id="about"))

    def build(self) -> Command:
        text = self.value("text")
        if not text.strip():
            raise FormError("Write the note first.")
        return C.Note(text, self.choice("about") or "")


# --- the table's dice ----------------------------------------------------------------------------


class TableRollsDialog(Dialog):
    """The dice a turn-moving command is about to roll on its own (Bleeding, Burning, Confused,
    dangerous terrain) for a side the table rolls for: one field per roll, sent in the command's
    `rolls`. Cancel and nothing moves on."""

    OK = "Go on"

    def __init__(self, cmd: Command, due: Sequence[Any], announce: bool = False) -> None:
        super().__init__()
        self.cmd = cmd
        self.due = tuple(due)
        self.ANNOUNCE = announce

    def heading(self) -> Text:
        return span("The table rolls these\n", "bold") + Text("Type the dice rolled for each before play goes on.")

    TYPED: list[tuple[str | Text, str]] = [("each die rolled", "die"), ("the total called out", "total")]

    def fields(self) -> ComposeResult:
        f = self.fight
        yield row("Typed is", Choice(self.TYPED, "die", id="typed"))
        for i, d in enumerate(self.due):
            c = f.find(d.who)
            label = f"{clean(c.name) if c else d.who}: {d.what}"
            yield Horizontal(
                Static(Text(label[:23]), classes="label"),
                field(placeholder=f"{d.expr}: the dice rolled", id=f"roll-{i}"),
                Static(id=f"shown-{i}", classes="shown"),
                classes="row",
            )

    def on_mount(self) -> None:
        self.query_one("#roll-0", Input).focus()  # the dice, not the choice of how they are typed

    @property
    def total_typed(self) -> bool:
        return bool(self.choice("typed") == "total")

    @on(Input.Changed)
    @on(Choice.Changed, "#typed")
    def _shown(self) -> None:
        """What each roll comes to, before play goes on ("= 7")."""
        if not self.is_mounted:
            return
        for i, d in enumerate(self.due):
            inp = self.query_one(f"#roll-{i}", Input)
            inp.placeholder = f"{d.expr}: the total" if self.total_typed else f"{d.expr}: the dice rolled"
            try:
                g = self._given(i, d)
                shown = Text("") if g is None else span(f"= {self._total(d, g)}", "bold")
            except (FormError, RuleError):
                shown = span("= ?", "bold")
            self.query_one(f"#shown-{i}", Static).update(shown)

    def _given(self, i: int, d: Any) -> C.GivenRoll | None:
        text = self.value(f"roll-{i}")
        if self.total_typed:
            total = optional_int(text, "Total", 0, 100_000)
            return None if total is None else C.GivenRoll(d.who, d.what, total=total)
        dice = parse_given(text)
        return None if dice is None else C.GivenRoll(d.who, d.what, dice=dice)

    def _total(self, d: Any, g: C.GivenRoll) -> int:
        from engine.dice import roll

        if g.total is not None:
            return g.total
        r, _ = roll(d.expr, self.fight.rng, g.dice)
        return r.total

    def build(self) -> Command:
        from msgspec.structs import replace

        f = self.fight
        given = []
        for i, d in enumerate(self.due):
            c = f.find(d.who)
            what = f"{clean(c.name) if c else d.who}'s {d.what}"
            g = self._given(i, d)
            if g is None:
                self.query_one(f"#roll-{i}", Input).focus()
                how = "the total rolled" if self.total_typed else "the dice rolled"
                raise FormError(f"{what}: type {how} for {d.expr}.")
            given.append(g)
        return replace(self.cmd, rolls=self._reached(given))  # type: ignore[call-arg]

    def _reached(self, given: list[C.GivenRoll]) -> tuple[C.GivenRoll, ...]:
        """The typed rolls the command still reaches. The numbers typed can change what follows (a
        Bleeding roll that drops the combatant leaves no Confused roll to make), and the engine
        refuses a roll nothing asked for: keep each one only if, after those kept, it is still due."""
        from msgspec.structs import replace

        from engine import apply
        from engine.core import rolls_due

        f = self.fight
        kept: list[C.GivenRoll] = []
        for g in given:
            try:
                apply(f, replace(self.cmd, rolls=(*kept, g)))  # type: ignore[call-arg]
            except RuleError:
                due = rolls_due(f, replace(self.cmd, rolls=tuple(kept)))  # type: ignore[call-arg]
                if any(d.who == g.who and d.what.lower() == g.what.lower() for d in due):
                    raise  # it was due: the number itself is refused (a 5 on a d4)
                continue
            kept.append(g)
        return tuple(kept)


class DiceSettingDialog(Dialog):
    """Per side, the app rolls or the table does (the fight's roll_pc / roll_npc settings)."""

    OK = "Set"
    HOW = [("the app rolls", "app"), ("the table rolls: ask me", "table")]

    def heading(self) -> Text:
        return span("Who rolls the dice\n", "bold") + Text(
            "When the table rolls, dialogs wait for the numbers and turn-start rolls are asked for."
        )

    def fields(self) -> ComposeResult:
        f = self.fight
        for kind, key in SIDE_KEYS.items():
            yield row(f"{SIDE_WORDS[kind]}' rolls", Choice(self.HOW, f.setting(key, "app"), id=key))

    def build(self) -> list[Command]:
        f = self.fight
        out: list[Command] = []
        for key in SIDE_KEYS.values():
            v = self.choice(key)
            if v != f.setting(key, "app"):
                out.append(C.Setting(key, v))
        if not out:
            raise FormError("Nothing changed.")
        return out
