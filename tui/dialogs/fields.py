"""The dialogs' own fields: a text field, the searches of the catalog and the library, a compact
chooser (Choice) and a tick box, each with the keys the settings file may remap."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar, Self, cast

from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.message import Message
from textual.reactive import reactive
from textual.strip import Strip
from textual.widget import Widget
from textual.widgets import Checkbox, Input

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


HINT_MARK = "› "  # before a field's hint: a hint ("slashing (optional)") must never pass for a value typed


class Field(OwnKeys, Input):
    """A dialog's text field (see OwnKeys). While it is empty its hint shows marked and in italics
    (dim too), cut with an ellipsis where it does not fit: grey alone read as filled in (play-test:
    "slashing (optional)" taken for the damage type, and the hit logged untyped)."""

    TYPES_TEXT = True

    def render_line(self, y: int) -> Strip:
        if y != 0 or self.value or not self.placeholder:
            return super().render_line(y)
        width = self.scrollable_content_region.width
        hint = Text(HINT_MARK + self.placeholder, style=Style(italic=True), end="", no_wrap=True, overflow="ellipsis")
        hint.stylize(self.get_component_rich_style("input--placeholder"))
        if self.has_focus and self._cursor_visible:
            hint.stylize(self.get_component_rich_style("input--cursor"), 0, 1)
        console = self.app.console
        strip = Strip(console.render(hint, self.app.console_options.update_width(max(1, width))))
        return strip.apply_style(self.rich_style)


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
    LABEL_AT_LEAST = 16  # cells an option keeps before the "3/7" count gives way to it
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
        raw = self.options[self.index][0]
        label = raw.copy() if isinstance(raw, Text) else Text(raw)
        t = Text(end="", no_wrap=True)
        if self.typed:
            # first, so a long option cannot push it out of sight
            found = self._match(self.typed) is not None
            t.append(f"typed: {self.typed} " if found else f"no match: {self.typed} ", style="bold reverse")
            t.append(" ")
        count = Text(f"  {self.index + 1}/{len(self.options)}", style="dim") if len(self.options) > 2 else Text()
        # an option longer than the row is cut with an ellipsis between the arrows, so ▶ (there is
        # another) stays in sight; the count goes first when the option would be left too short
        room = self.content_size.width
        if room > 0:
            fixed = t.cell_len + 4  # "◀ " and " ▶"
            if label.cell_len > room - fixed - count.cell_len and room - fixed - count.cell_len < self.LABEL_AT_LEAST:
                count = Text()
            if label.cell_len > room - fixed - count.cell_len:
                label.truncate(max(1, room - fixed - count.cell_len), overflow="ellipsis")
        t.append("◀ ")
        t.append_text(label)
        t.append(" ▶")
        t.append_text(count)
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

    # the focused box is drawn ▸X◂ (or ▸ ◂): which box the next space ticks shows without colour, in
    # a row of several boxes too (the row's label mark says the row, not the box)
    @property  # type: ignore[override]
    def BUTTON_LEFT(self) -> str:  # noqa: N802 (Textual's name)
        return "▸" if self.has_focus else "▐"

    @property  # type: ignore[override]
    def BUTTON_RIGHT(self) -> str:  # noqa: N802 (Textual's name)
        return "◂" if self.has_focus else "▌"


def shown(widget: Widget) -> bool:
    """Whether `widget` is on its screen: mounted, and neither it nor a box holding it hidden (by
    `display` or by the dialogs' "hidden" class, which the stylesheet may not have applied yet)."""
    node: Any = widget
    while isinstance(node, Widget):
        if not node.display or node.has_class("hidden"):
            return False
        node = node.parent
    return widget.is_attached


class TickList:
    """Boxes that make one list (the targets of an area, of a Cosmere attack), one way everywhere:
    the whole list is one tab stop, up and down go between its rows, left and right between the
    boxes of a row, space ticks; the focused box is drawn ▸X◂ (Tick), not told by colour alone.

    One box at a time takes part in tab's round: the one last focused while it is shown, else the
    first one shown (the others refuse it: ListTick.allow_focus). So tab leaves the list from any
    box, and shift+tab comes back to the box it left."""

    def __init__(self) -> None:
        self.boxes: list[ListTick] = []
        self.current: ListTick | None = None

    def stop(self) -> ListTick | None:
        """The box that tab lands on."""
        if self.current is not None and shown(self.current):
            return self.current
        order = sorted(self.boxes, key=lambda b: (b.col, b.row))
        return next((b for b in order if shown(b)), None)

    def place(self, chain: list[Widget]) -> list[Widget]:
        """A dialog's focus chain with the list's stop where the list begins, before the fields in
        its rows (a target's save total): tab comes onto the list, then goes through those fields."""
        stop = self.stop()
        if stop is None or stop not in chain:
            return chain
        rows = {b.parent for b in self.boxes}
        out = [w for w in chain if w is not stop]
        at = next((i for i, w in enumerate(out) if w.parent in rows), chain.index(stop))
        out.insert(at, stop)
        return out

    def step(self, box: ListTick, delta: int) -> None:
        """Up or down: the same column of the next row shown, else that row's first box."""
        rows = sorted({b.row for b in self.boxes if shown(b)})
        if box.row not in rows:
            return
        i = rows.index(box.row) + delta
        if not 0 <= i < len(rows):
            return
        row_of = [b for b in self.boxes if b.row == rows[i] and shown(b)]
        same = [b for b in row_of if b.col == box.col]
        (same or sorted(row_of, key=lambda b: b.col))[0].focus()

    def across(self, box: ListTick, delta: int) -> None:
        """Left or right: the next box shown in the same row."""
        row_of = sorted((b for b in self.boxes if b.row == box.row and shown(b)), key=lambda b: b.col)
        if box in row_of and 0 <= row_of.index(box) + delta < len(row_of):
            row_of[row_of.index(box) + delta].focus()


class ListTick(Tick):
    """A box of a TickList, at (row, col) in it. Its keys are its own (OwnKeys): in a burst,
    "down space" ticks the box the down went to."""

    BINDINGS = [
        Binding("up", "step(-1)", "Previous", show=False, id="list_up"),
        Binding("down", "step(1)", "Next", show=False, id="list_down"),
        Binding("left", "across(-1)", "Box to the left", show=False, id="list_left"),
        Binding("right", "across(1)", "Box to the right", show=False, id="list_right"),
    ]

    def __init__(
        self,
        label: str | Text,
        value: bool = False,
        *,
        group: TickList,
        row: int,
        col: int = 0,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(label, value, id=id, classes=classes, compact=True)
        self.group, self.row, self.col = group, row, col
        group.boxes.append(self)

    def allow_focus(self) -> bool:
        return self.group.stop() is self

    def focus(self, scroll_visible: bool = True) -> Self:
        self.group.current = self  # the list's tab stop from now on (and focusable: set_focus checks)
        return super().focus(scroll_visible)

    async def _on_click(self, event: events.Click) -> None:
        # not the list's stop, it cannot take the focus by itself: a click moves the list's stop here
        self.focus()
        await super()._on_click(event)

    def action_step(self, delta: int) -> None:
        self.group.step(self, delta)

    def action_across(self, delta: int) -> None:
        self.group.across(self, delta)
