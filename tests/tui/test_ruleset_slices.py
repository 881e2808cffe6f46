"""The app's slices of the rulesets (tui/rulesets/, issue 12): only they name a ruleset; a ruleset the
app has no slice for is refused in one line when its fight is opened; a fifth ruleset needs only its
own files (an engine ruleset and an app slice, each registering itself)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from msgspec.structs import replace
from rich.text import Text

import engine
import engine.ruleset
import engine.state
from engine import commands as C
from engine import new_fight, ruleset_ids
from engine.ruleset import Events, Ruleset, begin_turn, finish_turn
from engine.state import Clock, Fight
from saves.session import Session
from tests.tui.support import app_on, main_screen, pane_text, sync
from tui import cli
from tui.rows import Now
from tui.rulesets import REGISTRY, Action, RulesetUI, UnknownRuleset, get_ui, register
from tui.views import Column, Row, Styles, health_cell, list_rows, name_cell

TUI = Path(__file__).resolve().parents[2] / "tui"
SHIPPED = ("cosmere", "d20", "ninephase", "warhammer")


class ToyClock(Clock, frozen=True, gc=False, omit_defaults=True, tag="toy"):
    place: int = 0  # the index in `order` of whose turn it is

    @property
    def number(self) -> int:
        return self.place

    def with_number(self, n: int) -> ToyClock:
        return ToyClock(n)


class Toy(Ruleset):
    """A fifth engine ruleset (like tests/engine/fifth_ruleset.py, with no commands of its own):
    plain turns in the order added."""

    id = "toy"
    title = "Toy"
    summary = "Turns in the order added."
    clock_type = ToyClock

    def start(self, f: Fight, cmd: C.StartFight, ev: Events) -> Fight:
        f = replace(f, order=tuple(c.id for c in f.combatants), round=1, clock=ToyClock(0))
        return begin_turn(self, f, f.order[0], ev)

    def advance(self, f: Fight, ev: Events) -> Fight:
        f = finish_turn(self, f, ev)
        live = [x for x in f.order if f.find(x)]
        i = (f.phase + 1) % len(live)
        f = replace(f, clock=ToyClock(i), round=f.round + (i == 0))
        return begin_turn(self, f, live[i], ev)


@pytest.fixture(autouse=True)
def _toy_in_the_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    """The engine knows the toy ruleset during each test here, and only then (the other tests loop
    over the engine's registry)."""
    monkeypatch.setitem(engine.ruleset.REGISTRY, "toy", Toy())
    monkeypatch.setitem(engine.state.CLOCK_TYPES, "toy", ToyClock)  # what register_ruleset does too


def test_no_code_outside_the_slices_names_a_ruleset() -> None:
    ids = sorted({*SHIPPED, *ruleset_ids()})
    names = "|".join(map(re.escape, ids))
    pattern = re.compile(rf"""["']({names})["']""")
    found = []
    for path in sorted(TUI.rglob("*.py")):
        if (TUI / "rulesets") in path.parents:
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if pattern.search(line):
                found.append(f"{path.relative_to(TUI.parent)}:{n}: {line.strip()}")
    assert not found, "a ruleset id outside tui/rulesets/:\n" + "\n".join(found)


def test_every_shipped_ruleset_has_a_slice() -> None:
    for rid in SHIPPED:
        assert get_ui(rid).id == rid


def test_an_unknown_ruleset_is_one_clear_error() -> None:
    with pytest.raises(UnknownRuleset) as err:
        get_ui("toy")
    message = str(err.value)
    assert "\n" not in message and "'toy'" in message and "d20" in message


def _toy_file(tmp_path: Path) -> Path:
    path = tmp_path / "toy.fracas"
    s = Session.create(path, new_fight("toy", "Toy fight"))
    s.apply(C.AddCombatant("Pip"))
    s.close()
    return path


def test_opening_a_fight_of_a_ruleset_the_app_cannot_show_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _toy_file(tmp_path)
    before = path.read_bytes()
    assert cli.main([str(path)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("fracas: ")
    assert "'toy'" in err and "Traceback" not in err
    assert path.read_bytes() == before  # never touched
    assert cli.main(["new", "toy", "--dir", str(tmp_path / "new")]) == 1
    assert "'toy'" in capsys.readouterr().err
    assert not (tmp_path / "new").exists() or not any((tmp_path / "new").iterdir())  # no file made


@sync
async def test_the_start_screen_refuses_it_in_one_line(tmp_path: Path) -> None:
    from tui.app import make_app
    from tui.start import StartScreen

    path = _toy_file(tmp_path)
    app = make_app(start_screen=True, config_path=tmp_path / "config.toml")
    async with app.run_test(size=(100, 30)) as pilot:
        screen = app.screen
        assert isinstance(screen, StartScreen)
        # the new-fight list offers only what the app can show
        ol = screen.query_one("#rules")
        assert "toy" not in [ol.get_option_at_index(i).id for i in range(ol.option_count)]  # type: ignore[attr-defined]
        screen._open(path)
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert isinstance(app.screen, StartScreen)
        messages = [str(n.message) for n in app._notifications]
        assert any("'toy'" in m and "\n" not in m for m in messages)


class ToyUI(RulesetUI):
    """A fifth ruleset's whole app slice: a tracker row."""

    id = "toy"

    def tracker_rows(self, f: Fight, rs: Ruleset, width: int, st: Styles) -> list[Row]:
        cols = [Column("Name", 0, name_cell), Column("HP", 8, health_cell)]
        return list_rows(f, rs, cols, width, st)

    def economy_text(self, f: Fight, rs: Ruleset, c, st: Styles) -> Text:  # type: ignore[no-untyped-def]
        return Text("Toy turn", end="")


@sync
async def test_a_fifth_ruleset_needs_only_its_own_slice(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(REGISTRY, "toy", ToyUI())  # what its module's register() line does
    s = Session.memory(new_fight("toy", "Toy fight"))
    s.apply(C.AddCombatant("Pip"))
    s.apply(C.AddCombatant("Quill"))
    s.apply(C.StartFight())
    app = app_on(s, tmp_path)
    async with app.run_test(size=(130, 40)) as pilot:
        main = main_screen(pilot)
        lines = [r.text.plain for r in main.query_one("#tracker")._rows]  # type: ignore[attr-defined]
        assert any("Pip" in line for line in lines) and any("Quill" in line for line in lines)
        assert "Toy turn" in await pane_text(pilot, "sheet")
        # the optional generic actions and the other rulesets' own are not offered
        for action in ("attack", "use", "initiative", "speed", "fortune", "activity", "owed"):
            assert not main.check_action(action, ()), action
        first = s.state.current
        await pilot.press("n")
        assert s.state.current != first and app.is_running


@pytest.mark.parametrize("rid", SHIPPED)
def test_the_actions_a_slice_leaves_to_the_engine_are_offered_by_it(rid: str) -> None:
    # the rows say it themselves now (`engine`, `offer`: tui/rows.py), no longer a set beside them
    from engine import get_ruleset
    from tests.tui.support import demo_session

    ui = get_ui(rid)
    f = demo_session(rid, start=True).state
    keys = {a.key for a in get_ruleset(rid).actions(f)}
    rows = [a for a in ui.actions if a.engine]
    # a key the engine does not list would hide the action for good
    assert {a.offer_key for a in ui.actions if a.offer_key is not None} <= keys
    for a in rows:
        now = Now(f, None, lambda: ui.offered(f))
        assert ui.check(a.action, now) == next(x.available for x in get_ruleset(rid).actions(f) if x.key == a.offer_key)


class _ClashUI(RulesetUI):
    id = "d20"  # an engine ruleset that exists, so the offers are checked too
    actions = (Action("shove", "b", "shove", "Shove", "Shove", "Shove someone", offer=None),)


def test_a_slice_key_that_clashes_with_a_generic_action_is_refused_naming_both() -> None:
    before = dict(REGISTRY)
    try:
        with pytest.raises(ValueError, match=r"'shove' takes the key 'b', which is the generic action 'hide'"):
            register(_ClashUI())
    finally:
        REGISTRY.clear()
        REGISTRY.update(before)
    assert REGISTRY["d20"] is before["d20"]


def test_a_slice_key_that_clashes_with_the_tracker_or_its_own_rows_is_refused() -> None:
    class Tracker(_ClashUI):
        actions = (Action("shove", "j", "shove", "Shove", "Shove", "Shove someone", offer=None),)

    class Twice(_ClashUI):
        actions = (
            Action("shove", "z", "shove", "Shove", "Shove", "Shove someone", offer=None),
            Action("trip", "z", "trip", "Trip", "Trip", "Trip someone", offer=None),
        )

    with pytest.raises(ValueError, match=r"'shove' takes the key 'j', which is the binding 'down'"):
        register(Tracker())
    with pytest.raises(ValueError, match=r"'trip' takes the key 'z', which is the d20 action 'shove'"):
        register(Twice())
    assert isinstance(REGISTRY["d20"], RulesetUI) and not isinstance(REGISTRY["d20"], _ClashUI)


def test_an_optional_generic_key_the_slice_lacks_is_free() -> None:
    # nine-phase's activity takes u: it has no generic use, so the key is its own
    assert get_ui("ninephase").row("activity") is not None and "use" not in get_ui("ninephase").offers
    assert next(a for a in get_ui("ninephase").actions if a.action == "activity").keys == "u"


def test_an_action_that_differs_from_its_engine_offer_is_refused_not_silently_disabled() -> None:
    class Renamed(_ClashUI):
        # the engine offers "owed"; this row's action is "settle", which the engine never lists
        actions = (Action("settle", None, "settle", "Settle", "Settle", "Settle an owed roll", engine=True),)

    class Named(_ClashUI):
        actions = (
            Action("settle", None, "settle", "Settle", "Settle", "Settle an owed roll", engine=True, offer="owed"),
        )

    before = dict(REGISTRY)
    try:
        with pytest.raises(ValueError, match=r"'settle' stands for the engine offer 'settle', which the d20"):
            register(Renamed())
        register(Named())  # the row names the engine's key: accepted, and it follows the engine
        f = new_fight("d20", "Offers", 1)
        ui = get_ui("d20")
        assert ui.check("settle", Now(f, None, lambda: ui.offered(f))) == next(
            a.available for a in engine.get_ruleset("d20").actions(f) if a.key == "owed"
        )
    finally:
        REGISTRY.clear()
        REGISTRY.update(before)
