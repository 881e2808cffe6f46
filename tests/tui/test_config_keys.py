"""The settings file's keys and theme as a GM meets them (issue 14, item 11): the README's own example
applies as it stands, the example that collided (`damage = "x"`) is refused naming both actions, an
unknown key name or binding id is one line while the rest applies, and a theme change repaints every
pane at once (the screen is then exactly what an app started in that theme shows)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine import commands as C
from tests.tui.support import cid, demo_session, notifications, sync
from tui import config
from tui.actions import default_keys, known_ids
from tui.app import make_app
from tui.dialogs import HealthDialog

README = Path(__file__).resolve().parents[2] / "README.md"


def load(path: Path) -> config.Config:
    return config.load(path, known_ids(), default_keys())


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    return path


def readme_example() -> str:
    """The settings example the README shows (the indented block that starts with `theme =`)."""
    text = README.read_text(encoding="utf-8")
    m = re.search(r"\n((?:    theme = .*\n)(?:    .*\n)+)", text)
    assert m, "the README has no settings example"
    return "\n".join(line[4:] for line in m.group(1).splitlines()) + "\n"


# The README's example gives `party_back`, an action with no key, a key: every action has a binding
# (a keyless one under a placeholder key no terminal sends), so the settings take its id.
def test_the_readmes_example_applies_as_it_stands(tmp_path: Path) -> None:
    example = readme_example()
    assert "[keys]" in example
    cfg = load(write(tmp_path, example))
    assert cfg.problems == []
    assert cfg.keys and all(k in known_ids() for k in cfg.keys)


def test_the_example_that_collided_is_refused_naming_both_actions(tmp_path: Path) -> None:
    cfg = load(write(tmp_path, '[keys]\ndamage = "x"\n'))
    assert cfg.problems == [f"{cfg.path}: keys.damage: 'x' is already the key of uncondition; damage keeps its keys."]
    assert cfg.keys == {} and cfg.refused == {"damage": "x"}


@pytest.mark.parametrize("key", ["ctrl+bananna", "f99", "shift+", "ctrl+ctrl+a", "dd", "hyper+sup"])
def test_an_unknown_key_name_is_one_line_and_the_rest_applies(tmp_path: Path, key: str) -> None:
    cfg = load(write(tmp_path, f'[keys]\ndamage = "{key}"\nnote = "ctrl+n"\n'))
    assert cfg.problems == [f"{cfg.path}: keys.damage: '{key}' is not a key name; damage keeps its keys."]
    assert cfg.keys == {"note": "ctrl+n"}


def test_an_unknown_binding_id_is_one_line(tmp_path: Path) -> None:
    cfg = load(write(tmp_path, '[keys]\ndamgae = "z"\nnote = "ctrl+n"\n'))
    assert len(cfg.problems) == 1 and "damgae" in cfg.problems[0] and "\n" not in cfg.problems[0]
    assert cfg.keys == {"note": "ctrl+n"}


@sync
async def test_in_the_app_a_refused_key_keeps_its_own_and_says_so_once(tmp_path: Path) -> None:
    path = write(tmp_path, '[keys]\ndamage = "ctrl+bananna"\nheal = "x"\nnote = "ctrl+n"\n')
    s = demo_session("d20", start=True)
    app = make_app(s, config_path=path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        shown = notifications(pilot)
        for problem in load(path).problems:
            assert sum(problem in n for n in shown) == 1, (problem, shown)
        assert any("'ctrl+bananna' is not a key name" in n for n in shown)
        assert any("'x' is already the key of uncondition" in n for n in shown)
        await pilot.press("d")  # damage keeps d
        assert isinstance(app.screen, HealthDialog)


async def screenshot(tmp_path: Path, size: tuple[int, int], first: str, then: str | None, keys: tuple[str, ...]) -> str:
    s = demo_session("d20", start=True)
    s.apply(C.Damage(cid(s, "Bandit 1"), 5))  # a hurt row and log lines, which carry colours
    s.apply(C.AddCondition(cid(s, "Bandit 2"), "Prone"))
    tmp_path.mkdir(parents=True, exist_ok=True)
    app = make_app(s, config_path=write(tmp_path, f'theme = "{first}"\n'))
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        if keys:
            await pilot.press(*keys)
        if then is not None:
            app.theme = then
            await pilot.pause()  # one round of messages: no further key, resize or refresh
        return app.export_screenshot()


@pytest.mark.parametrize(
    ("size", "then", "keys"),
    [
        ((160, 48), "fracas-parchment", ()),  # every pane on screen at once
        ((80, 24), "textual-light", ("v", "v")),  # the small screen's log pane
    ],
)
@sync
async def test_a_theme_change_repaints_every_pane_at_once(
    tmp_path: Path, size: tuple[int, int], then: str, keys: tuple[str, ...]
) -> None:
    before = await screenshot(tmp_path / "a", size, "fracas-ember", None, keys)
    switched = await screenshot(tmp_path / "b", size, "fracas-ember", then, keys)
    fresh = await screenshot(tmp_path / "c", size, then, None, keys)
    assert before != fresh  # the two themes do look different
    assert switched == fresh  # and nothing of the old one is left anywhere on screen
