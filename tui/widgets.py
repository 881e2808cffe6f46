"""The main screen's panes. None of them owns game data: each is handed the fight and re-renders.

The tracker and the log use Textual's line API: they render only the lines on screen, so a fight
with hundreds of combatants or a long log costs no more per key press than a small one.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Sequence

from rich.color import Color
from rich.console import Console
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.color import Color as TColor
from textual.geometry import Region, Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.widget import Widget

from engine.ruleset import Ruleset
from engine.state import Fight
from tui.text import clean, span
from tui.views import ROLES, Row, Styles, tracker_rows

# Theme-aware styles for the roles views.py and panes.py use. One definition, shared by every pane.
ROLE_CSS = """
    & > .role--header { color: $text-muted; text-style: bold; }
    & > .role--group { color: $text-muted; }
    & > .role--group-current { color: $accent; text-style: bold; }
    & > .role--current { color: $accent; text-style: bold; }
    & > .role--current-mark { background: $block-cursor-background; color: $block-cursor-foreground; text-style: bold; }
    & > .role--current-row { background: $block-cursor-background 18%; }
    & > .role--done { color: $text-muted; }
    & > .role--down { color: $text-disabled; text-style: strike; }
    & > .role--party { color: $success; }
    & > .role--enemy { color: $error; }
    & > .role--neutral { color: $warning; }
    & > .role--good { color: $success; }
    & > .role--warn { color: $warning; }
    & > .role--bad { color: $error; text-style: bold; }
    & > .role--dim { color: $text-disabled; }
    & > .role--badge { background: $warning 30%; color: $text; }
    & > .role--phase-current { background: $accent 35%; }
    & > .role--act { color: $primary; text-style: bold; }
    & > .role--react { color: $secondary; text-style: bold; }
    & > .role--channel { color: $accent; text-style: italic; }
    & > .role--pip { color: $primary; }
    & > .role--hp-hurt { color: $warning; }
    & > .role--hp-bloodied { color: $error; }
    & > .role--hp-critical { color: $error; text-style: bold reverse; }
    & > .role--hp-dying { color: $secondary; text-style: bold reverse; }
    & > .role--hp-down { color: $text-disabled; }
"""

# A theme may give the health bands colours of its own (themes/*.toml, [variables]): Textual's themes
# have no such variables and take the defaults above, so CSS cannot name them (an unknown variable is a
# parse error); RoleStyles lays them over the CSS colours instead.
THEME_COLOURS = {
    "hp-hurt": "health-hurt",
    "hp-bloodied": "health-bloodied",
    "hp-critical": "health-critical",
    "hp-dying": "health-dying",
}

ROLE_CLASSES = {f"role--{r}" for r in ROLES}
log = logging.getLogger("fracas.tui")


def strip_of(text: Text, console: Console) -> Strip:
    """One line of Text as a Strip, its own base style included (Text.render leaves that to the
    console, and a Strip has no console: a log line coloured as a whole would lose its colour)."""
    segments: Iterable[Segment] = text.render(console)
    if text.style:
        base = console.get_style(text.style) if isinstance(text.style, str) else text.style
        segments = Segment.apply_style(segments, base)  # under the spans' own styles
    return Strip(list(segments), text.cell_len)


def _role_style(widget: Widget, name: str) -> Style:
    """Only what the role's rule sets (a colour, a background, bold...), with colours that have an
    alpha ($text-muted, $warning 30%) blended over the pane's background as the full style has them."""
    full = widget.get_component_rich_style(name)
    part = widget.get_component_rich_style(name, partial=True)
    return Style(
        color=full.color if part.color is not None else None,
        bgcolor=full.bgcolor if part.bgcolor is not None else None,
        bold=part.bold,
        italic=part.italic,
        strike=part.strike,
        underline=part.underline,
        dim=part.dim,
        reverse=part.reverse,
    )


def _theme_colour(widget: Widget, variable: str) -> Color | None:
    """The current theme's own colour for `variable`, blended over the pane's background; None when
    the theme has none, or one that is not a colour (a hand-edited theme file is not trusted)."""
    value = widget.app.current_theme.variables.get(variable)
    if not isinstance(value, str):
        return None
    try:
        colour = TColor.parse(value)
    except Exception:  # any text that is not a colour: keep the default
        return None
    return (widget.background_colors[1] + colour).rich_color


class RoleStyles:
    """Rich styles for the roles, read from the widget's component classes (so they follow the theme),
    with the health bands' colours of the theme when it has them (THEME_COLOURS)."""

    def __init__(self) -> None:
        self._cache: dict[str, Style] | None = None

    def get(self, widget: Widget) -> Styles:
        if self._cache is None:
            cache = {r: _role_style(widget, f"role--{r}") for r in ROLES}
            for role, variable in THEME_COLOURS.items():
                colour = _theme_colour(widget, variable)
                if colour is not None:
                    cache[role] = cache[role] + Style(color=colour)
            tint = cache["current-row"].bgcolor
            if tint is not None and tint.triplet is None:
                # an ANSI theme's colours do not blend: its "tint" would be the cursor's own colour,
                # and the acting row would pass for the selection; the marker alone says it there
                cache["current-row"] = Style()
            self._cache = cache
        return self._cache

    def clear(self) -> None:
        self._cache = None


class Tracker(ScrollView, can_focus=True):
    """The initiative list / phase groups / phase board, one line per combatant, with a cursor.

    Its role styles (ROLE_CSS) colour the other panes too: they share its background, and working
    the styles out once rather than per pane is quicker at start-up.
    """

    COMPONENT_CLASSES = ROLE_CLASSES | {"tracker--cursor"}
    DEFAULT_CSS = (
        """
    Tracker { height: 1fr; scrollbar-size-horizontal: 0; }
    Tracker > .tracker--cursor { background: $block-cursor-blurred-background; }
    Tracker:focus > .tracker--cursor { background: $block-cursor-background; color: $block-cursor-foreground; }
    Tracker {"""
        + ROLE_CSS
        + "}"
    )
    # priority, as the main screen's own keys: a binding that is not runs only once its key has
    # climbed back up to the app, a few messages later, and the keys typed after it ran first ("down d"
    # in one burst damaged the row the cursor left). The screen's keys still come first.
    BINDINGS = [
        Binding("up,k", "cursor(-1)", "Up", show=False, id="up", priority=True),
        Binding("down,j", "cursor(1)", "Down", show=False, id="down", priority=True),
        Binding("pageup", "cursor(-10)", "Page up", show=False, id="page_up", priority=True),
        Binding("pagedown", "cursor(10)", "Page down", show=False, id="page_down", priority=True),
        Binding("home", "cursor(-100000)", "First", show=False, id="first", priority=True),
        Binding("end", "cursor(100000)", "Last", show=False, id="last", priority=True),
    ]

    class Selected(Message):
        """The GM moved the cursor to another combatant."""

        def __init__(self, cid: str) -> None:
            self.cid = cid
            super().__init__()

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._fight: Fight | None = None
        self._rs: Ruleset | None = None
        self._rows: list[Row] = []
        self._cursor = -1  # index into _rows of the selected combatant's row
        self._strips: dict[tuple[int, bool], Strip] = {}
        self._styles = RoleStyles()
        self._built_styles: Styles | None = None  # the role styles the rows were built with
        self._built_width = -1
        self._base: Style | None = None
        self._pending = ""

    # --- data in ------------------------------------------------------------------------------
    def show(self, fight: Fight, rs: Ruleset, selected: str = "") -> None:
        self._fight, self._rs = fight, rs
        self._pending = selected or self.selected  # kept for a build that waits for the width
        self._rebuild(self._pending)

    @property
    def selected(self) -> str:
        if 0 <= self._cursor < len(self._rows):
            return self._rows[self._cursor].cid or ""
        return ""

    def role_styles(self) -> Styles:
        return self._styles.get(self)

    @property
    def row_ids(self) -> list[str]:
        return [r.cid for r in self._rows if r.cid]

    def _rebuild(self, selected: str) -> None:
        if self._fight is None or self._rs is None or not self.size.width:
            return  # not laid out yet: on_resize builds the rows once the width is known
        width = self.size.width
        old = self._rows
        was = self.selected
        st = self._styles.get(self)
        self._built_styles = st
        new = tracker_rows(self._fight, self._rs, width, st)
        same_shape = width == self._built_width and len(old) == len(new)
        self._built_width = width
        self._rows = new
        cursor = next((i for i, r in enumerate(new) if r.cid and r.cid == selected), -1)
        if cursor < 0:
            cursor = next((i for i, r in enumerate(new) if r.cid), -1)
        if same_shape:
            # rows of unchanged combatants are the same objects (views.py caches them): repaint only
            # the lines that differ, so a key press in a big fight redraws a handful of lines
            changed = [i for i, (a, b) in enumerate(zip(old, new, strict=True)) if a is not b]
            if cursor != self._cursor:
                changed += [self._cursor, cursor]
            self._cursor = cursor
            for i in changed:
                self._repaint(i)
            self._follow_cursor(acting=True)
            return
        self._cursor = cursor
        self._strips.clear()
        self.virtual_size = Size(width, len(new))
        self._follow_cursor(acting=True)
        self.refresh()
        if self.selected != was:
            # the first build (once the width is known) picks a combatant: the sheet follows
            self.post_message(self.Selected(self.selected))

    def _repaint(self, index: int) -> None:
        self._strips.pop((index, True), None)
        self._strips.pop((index, False), None)
        y = 0 if index == 0 else index - int(self.scroll_y)
        if 0 <= y < self.size.height:
            self.refresh(Region(0, y, self.size.width, 1))

    def select(self, cid: str) -> None:
        for i, r in enumerate(self._rows):
            if r.cid == cid:
                self._move_to(i)
                return

    # --- cursor -------------------------------------------------------------------------------
    def action_cursor(self, delta: int) -> None:
        body = [i for i, r in enumerate(self._rows) if r.cid]
        if not body:
            return
        pos = body.index(self._cursor) if self._cursor in body else 0
        new = body[max(0, min(len(body) - 1, pos + delta))]
        self._move_to(new)
        self.post_message(self.Selected(self._rows[new].cid or ""))

    def _move_to(self, index: int) -> None:
        if index == self._cursor:
            return
        old = self._cursor
        self._cursor = index
        self._repaint(old)
        self._repaint(index)
        self._follow_cursor()

    LOOK_AHEAD = 2  # rows kept in view below the acting one, in a pane of 8 rows or more

    def _follow_cursor(self, acting: bool = False) -> None:
        """Keep the cursor's row on screen (line 0 is the fixed column header); with `acting` (a new
        state, a new size) the current turn's row too, when both fit: the GM who looked down the
        list still sees whose turn it is. The GM moving the cursor scrolls for the cursor alone."""
        height = max(1, self.size.height - 1)
        if self._cursor < 1:
            return
        top = want = int(self.scroll_y)
        for i, index in enumerate((self._cursor, self._current_index() if acting else -1)):
            body = index - 1
            if body < 0 or (i and abs(body - (self._cursor - 1)) >= height):
                continue  # no such row, or too far from the cursor to show both: the cursor wins
            if body < want:
                want = body
            elif body >= want + height:
                want = body - height + 1
        if acting and height >= self.LOOK_AHEAD * 4 and self._current_index() == self._cursor:
            # the turn's row followed down the list: the next ones in line show below it
            ahead = min(self._cursor - 1 + self.LOOK_AHEAD, len(self._rows) - 2)
            if ahead >= want + height:
                want = ahead - height + 1
        if want != top:
            self._strips.clear()  # every line moves
            self.scroll_to(y=want, animate=False, immediate=True)

    def _current_index(self) -> int:
        """The row of the combatant whose turn it is (-1: none)."""
        cur = self._fight.current if self._fight is not None else ""
        if not cur:
            return -1
        if 0 <= self._cursor < len(self._rows) and self._rows[self._cursor].cid == cur:
            return self._cursor  # the usual case, found without a walk down the rows
        return next((i for i, r in enumerate(self._rows) if r.cid == cur), -1)

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None or offset.y == 0:
            return
        index = offset.y + int(self.scroll_y)
        if 0 <= index < len(self._rows) and self._rows[index].cid:
            self._move_to(index)
            self.post_message(self.Selected(self._rows[index].cid or ""))

    # --- rendering ----------------------------------------------------------------------------
    def _size_updated(self, size: Size, virtual_size: Size, container_size: Size, layout: bool = True) -> bool:
        """Textual lays the main screen out again on every return from a dialog (the dialog's
        removal asks for it), and ScrollView then redraws the tracker's scrollbar, every line,
        whatever changed: the dearest part of that frame. When the sizes are all as last time,
        the scrollbar is as it was drawn (its position follows scroll_y on its own).
        (A private Textual hook, checked against 8.2: see it again when Textual is upgraded.)"""
        key = (size, virtual_size, container_size, self.virtual_size, self.styles.gutter.totals)
        if key == self.__dict__.get("_sized_as"):
            return self._container_size != container_size  # what ScrollView answers here
        self.__dict__["_sized_as"] = key
        return super()._size_updated(size, virtual_size, container_size, layout)

    def on_resize(self, event: events.Resize) -> None:
        self._strips.clear()
        if event.size.width != self._built_width:
            self._built_width = -1  # a new width lays every row out again
            self._rebuild(self.selected or self._pending)
        else:
            self._follow_cursor(acting=True)

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        self._strips.clear()  # cached lines are per screen row... by index; scrolling moves them all
        super().watch_scroll_y(old_value, new_value)

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._styles.clear()
        self._strips.clear()
        self._base = None
        if self._fight is not None:
            # Textual calls this before it styles the role components (Stylesheet.replace_rules, then
            # _process_component_classes, checked against 8.2): rows built now would keep the old
            # theme's colours, so they are built once the new styles are in
            self.call_next(self._restyle)

    def _restyle(self) -> None:
        self._styles.clear()  # read again: a refresh in between may have cached the old colours
        self._strips.clear()
        self._base = None
        if self._rows and self._styles.get(self) == self._built_styles:
            # restyled with the same roles (start-up styles the screen more than once, a class
            # change restyles everything): the rows are as they were, only their lines are redrawn
            self.refresh()
            return
        self._built_width = -1
        self._rebuild(self.selected)

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        if self._base is None:
            self._base = self.rich_style
        base = self._base
        index = 0 if y == 0 else y + int(self.scroll_y)
        if index >= len(self._rows):
            return Strip.blank(width, base)
        selected = index == self._cursor
        key = (index, selected)
        strip = self._strips.get(key)
        if strip is None:
            text = self._rows[index].text
            if selected:
                text = text.copy()
                text.pad_right(max(0, width - text.cell_len))
                text.stylize(self.get_component_rich_style("tracker--cursor"))
            strip = strip_of(text, self.app.console)
            strip = strip.crop_extend(0, width, base).apply_style(base)
            if len(self._strips) > 2000:
                self._strips.clear()
            self._strips[key] = strip
        return strip


class Lines(Widget, can_focus=True):
    """Lines of text in a pane that scrolls itself.

    No virtual size: new content changes no geometry, so it never costs Textual a layout of the
    whole screen. With FOLLOW the newest line stays at the bottom (the log) unless the GM scrolls up.
    """

    FOLLOW = False
    BINDINGS = [  # priority, as the tracker's: in the order typed with the main screen's keys
        Binding("up,k", "scroll_by(-1)", "Up", show=False, id="scroll_up", priority=True),
        Binding("down,j", "scroll_by(1)", "Down", show=False, id="scroll_down", priority=True),
        Binding("pageup", "scroll_by(-10)", "Page up", show=False, id="scroll_page_up", priority=True),
        Binding("pagedown", "scroll_by(10)", "Page down", show=False, id="scroll_page_down", priority=True),
        Binding("home", "scroll_by(-1000000)", "Top", show=False, id="scroll_top", priority=True),
        Binding("end", "scroll_by(1000000)", "Bottom", show=False, id="scroll_bottom", priority=True),
    ]

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._strips: list[Strip] = []
        self._offset = 0  # top-anchored: first line shown; FOLLOW: lines hidden below the view
        self._final: dict[int, Strip] = {}
        self._base: Style | None = None
        self._styled: dict[int, tuple[Strip, Strip]] = {}
        self._styled_width = -1
        self._banner: list[Text] = []  # lines over the pane's top: the rest of a message (set_banner)

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._final.clear()
        self._styled.clear()
        self._base = None

    def set_banner(self, lines: Sequence[Text]) -> None:
        """Lines shown over the pane's top lines, under its title: the rest of a message the title
        has no room for on a narrow screen (MainScreen.tell_inline); none: the pane as it is."""
        new = list(lines)
        if new == self._banner:
            return
        rows = max(len(new), len(self._banner))
        self._banner = new
        for y in range(rows):
            self._final.pop(y, None)
        self.refresh(Region(0, 0, self.size.width, rows))

    @property
    def banner(self) -> str:
        """The banner's text (tests read it)."""
        return "\n".join(t.plain for t in self._banner)

    def set_strips(self, strips: list[Strip], keep: bool = True) -> None:
        old_top, old = self._top(), self._strips
        self._strips = strips
        if not keep:
            self._offset = 0
        top, height, width = self._top(), self.size.height, self.size.width
        if self.FOLLOW or top != old_top or not height:
            self._final.clear()
            self.refresh()
            return
        # repaint only the lines that differ (a sheet is mostly the same text, and mostly blank
        # below it): every line Textual repaints costs, even an empty one
        for y in range(height):
            i = top + y
            a = old[i] if i < len(old) else None
            b = strips[i] if i < len(strips) else None
            more = y == height - 1 and (len(old) > top + height or len(strips) > top + height)
            if a is None and b is None and not more:
                continue
            if not more and a is not None and b is not None and a.text == b.text and list(a) == list(b):
                continue
            self._final.pop(y, None)
            self.refresh(Region(0, y, width, 1))

    @property
    def plain(self) -> str:
        """The whole text as laid out (tests read it)."""
        return "\n".join(s.text.rstrip() for s in self._strips)

    def _top(self, height: int | None = None) -> int:
        if height is None:
            height = self.size.height
        n = len(self._strips)
        if self.FOLLOW:
            return max(0, n - height - self._offset)
        return max(0, min(self._offset, n - height))

    def action_scroll_by(self, delta: int) -> None:
        height, n = self.size.height, len(self._strips)
        limit = max(0, n - height)
        if self.FOLLOW:
            self._offset = max(0, min(limit, self._offset - delta))
        else:
            self._offset = max(0, min(limit, self._top() + delta))
        self._final.clear()
        self.refresh()

    def on_mouse_scroll_up(self, event: events.MouseScrollUp) -> None:
        event.stop()
        self.action_scroll_by(-3)

    def on_mouse_scroll_down(self, event: events.MouseScrollDown) -> None:
        event.stop()
        self.action_scroll_by(3)

    def on_resize(self, event: events.Resize) -> None:
        self._final.clear()

    def render_line(self, y: int) -> Strip:
        # the size once a line: Widget.size works it out from the region each time it is asked,
        # and this runs for every line of the pane on each repaint
        width, height = self.size
        if self._base is None or self._styled_width != width:
            self._base = self.rich_style
            self._styled.clear()
            self._styled_width = width
        base = self._base
        strip = self._final.get(y)
        if strip is not None:
            return strip
        if y < len(self._banner):
            strip = strip_of(self._banner[y], self.app.console).crop_extend(0, width, base).apply_style(base)
            self._final[y] = strip
            return strip
        top = self._top(height)
        index = top + y
        n = len(self._strips)
        more = n - (top + height)
        if y == height - 1 and more > 0:
            # the last line says there is more, since there is no scrollbar
            what = "newer" if self.FOLLOW else "more"
            key = "end" if self.FOLLOW else "↓"
            line = span(f"… {more} {what} line{'s' if more != 1 else ''} (tab to this pane, {key})", "dim italic")
            strip = strip_of(line, self.app.console)
            strip = strip.crop_extend(0, width, base).apply_style(base)
        elif index < n:
            src = self._strips[index]
            hit = self._styled.get(id(src))
            if hit is not None and hit[0] is src:
                strip = hit[1]
            else:
                # the same source line (a log event's) is styled once, however often it scrolls
                strip = src.crop_extend(0, width, base).apply_style(base)
                if len(self._styled) > 5000:
                    self._styled.clear()
                self._styled[id(src)] = (src, strip)
        else:
            strip = Strip.blank(width, base)
        self._final[y] = strip
        return strip


class LogView(Lines):
    """The log, newest last. Lines wrap to the pane's width; wrapping is cached per event."""

    FOLLOW = True
    DEFAULT_CSS = "LogView { height: 1fr; }"

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._entries: Sequence[tuple[object, Text]] = ()
        self._wrapped: dict[tuple[object, int], list[Strip]] = {}
        self._width = -1
        self._laid_out: Sequence[tuple[object, Text]] | None = None  # the entries the lines show

    def show(self, entries: Sequence[tuple[object, Text]]) -> None:
        """entries: (a stable key per event, its line). The view follows the newest line."""
        self._entries = entries
        self._offset = 0
        self._layout()

    def clear_cache(self) -> None:
        self._wrapped.clear()

    def _layout(self) -> None:
        if not self.size.width:
            return  # hidden (a small screen shows another pane): on_resize lays it out when shown
        width = max(10, self.size.width)
        self._width = width
        self._laid_out = self._entries
        console = self.app.console
        lines: list[Strip] = []
        cache = self._wrapped
        if len(cache) > 20_000:
            cache.clear()
        for key, text in self._entries:
            got = cache.get((key, width))
            if got is None:
                wrapped = list(text.wrap(console, width, overflow="fold")) or [Text("")]
                got = [strip_of(t, console) for t in wrapped]
                cache[(key, width)] = got
            lines.extend(got)
        self.set_strips(lines)

    def on_resize(self, event: events.Resize) -> None:
        super().on_resize(event)
        # shown again after events came in while it was hidden, or at a new width
        if max(10, event.size.width) != self._width or self._laid_out is not self._entries:
            self._layout()


class Pane(Lines):
    """A pane of text from panes.py (sheet, conditions) that scrolls when the text is long.

    It is given a function of its width: the sheet lays its stats out in columns that fit.
    """

    DEFAULT_CSS = "Pane { height: 1fr; }"

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._build: Callable[[int], Text] = lambda width: Text("")
        self._shown: tuple[int, Text] | None = None
        self._pending = False  # given new text while hidden: lay it out when shown

    def update(self, build: Callable[[int], Text], keep: bool = True) -> None:
        self._build = build
        self._layout(keep)

    def _layout(self, keep: bool = True) -> None:
        if not self.size.width:
            self._pending = True  # hidden, or not laid out yet: on_resize lays the text out
            return
        self._pending = False
        width = max(10, self.size.width)
        try:
            text = self._build(width)
        except Exception as exc:  # one bad entry (from a file, a bug) is a line here, not the end of the app
            log.exception("a pane could not be built")
            text = Text(f"This cannot be shown: {type(exc).__name__}: {clean(str(exc))}")
        if self._shown is not None and self._shown[0] == width and self._shown[1] == text:
            return  # the same text as on screen: nothing to lay out or repaint
        self._shown = (width, text)
        console = self.app.console
        strips: list[Strip] = []
        for line in text.split("\n", allow_blank=True):
            # most sheet lines fit: only the long ones go through rich's (slow) wrapping
            if line.cell_len <= width:
                strips.append(strip_of(line, console))
            else:
                strips.extend(strip_of(t, console) for t in line.wrap(console, width, overflow="fold"))
        self.set_strips(strips, keep)

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._shown = None

    def on_resize(self, event: events.Resize) -> None:
        super().on_resize(event)
        if self._pending or self._shown is None or max(10, event.size.width) != self._shown[0]:
            self._layout()


class Line(Widget):
    """One line of text (the header): drawn from a cached strip, so an update costs one line."""

    DEFAULT_CSS = "Line { height: 1; }"

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._text = Text("")
        self._strip: Strip | None = None

    def show(self, text: Text) -> None:
        if text == self._text:
            return
        self._text = text
        self._strip = None
        self.refresh()

    def render(self) -> Text:  # for tests and screenshots of the text alone
        return self._text

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._strip = None

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        base = self.rich_style
        if y > 0:
            return Strip.blank(width, base)
        if self._strip is None or self._strip.cell_length != width:
            self._strip = strip_of(self._text, self.app.console).crop_extend(0, width, base).apply_style(base)
        return self._strip


class KeyBar(Widget):
    """The footer: the keys that apply now, on one line.

    One widget drawing one line of text, where Textual's Footer rebuilds a widget per key whenever
    the bindings change (every dialog opened or closed); this keeps dialogs and key presses quick.
    A key's label is clickable.
    """

    DEFAULT_CSS = """
    KeyBar { dock: bottom; height: 1; background: $footer-background; color: $footer-foreground; }
    KeyBar > .keybar--key { color: $footer-key-foreground; text-style: bold; }
    KeyBar > .keybar--disabled { color: $footer-foreground 50%; }
    """
    COMPONENT_CLASSES = {"keybar--key", "keybar--disabled"}

    def __init__(self, order: Sequence[str] = ()) -> None:
        super().__init__()
        self._order = {bid: i for i, bid in enumerate(order)}  # binding ids, most wanted first
        self._spots: list[tuple[int, int, str]] = []  # (start, end, key) for clicks
        self._text: Text | None = None  # what is on screen

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, lambda _screen: self._bindings_changed())

    def _bindings_changed(self) -> None:
        # the signal comes on every return from a dialog, mostly with the same keys: a repaint of
        # the footer then costs more than working its text out again
        if self._text is None:
            self.refresh()  # not drawn yet (start-up): render works it out once
            return
        text = self._build()
        if text != self._text:
            self._text = text
            self.refresh()

    def on_resize(self, event: events.Resize) -> None:
        self._text = None

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._text = None

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    def render(self) -> Text:
        if self._text is None:
            self._text = self._build()
        return self._text

    def _build(self) -> Text:
        app = self.app
        key_style = self.get_component_rich_style("keybar--key", partial=True)
        off_style = self.get_component_rich_style("keybar--disabled", partial=True)
        items: list[tuple[Text, str, int]] = []
        seen: set[str] = set()
        palette: Text | None = None
        palette_key = ""
        for key, active in self.screen.active_bindings.items():
            binding = active.binding
            if binding.action in ("command_palette", "app.command_palette"):
                palette = span(f" {app.get_key_display(binding)} ", key_style)
                palette.append("Palette ")
                palette_key = key
                continue
            if not binding.show or binding.action in seen:
                continue
            seen.add(binding.action)
            item = span(f" {app.get_key_display(binding)} ", key_style if active.enabled else off_style)
            item.append(f"{binding.description} ", style="" if active.enabled else off_style)
            items.append((item, key, self._order.get(binding.id or "", len(self._order))))
        items.sort(key=lambda x: x[2])  # stable: bindings keep their order within a rank
        # whole items, as many as fit beside the palette key (which is always shown)
        room = self.size.width - (palette.cell_len if palette is not None else 0)
        t = Text(no_wrap=True, end="")
        spots: list[tuple[int, int, str]] = []
        for item, key, _ in items:
            if t.cell_len + item.cell_len > room:
                break
            spots.append((t.cell_len, t.cell_len + item.cell_len, key))
            t.append_text(item)
        if palette is not None:
            t.append(" " * max(0, room - t.cell_len))
            spots.append((t.cell_len, t.cell_len + palette.cell_len, palette_key))
            t.append_text(palette)
        self._spots = spots
        return t

    def on_click(self, event: events.Click) -> None:
        for start, end, key in self._spots:
            if start <= event.x < end:
                self.app.simulate_key(key)
                return
