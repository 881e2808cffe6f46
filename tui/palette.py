"""The command palette (ctrl+p): every main-screen action that applies now, and jump-to-combatant.

Built from the same table as the key bindings (tui/actions.py), so the palette and the keys agree.
"""

from __future__ import annotations

from functools import partial

from rich.text import Text
from textual.command import DiscoveryHit, Hit, Hits, Provider

from tui.actions import ACTIONS, Action
from tui.main import MainScreen  # the palette opens over the app's screens: they are loaded by then
from tui.text import clean


class FracasCommands(Provider):
    def _main(self) -> MainScreen | None:
        screen = self.screen
        return screen if isinstance(screen, MainScreen) else None

    def _applicable(self) -> list[Action]:
        screen = self._main()
        if screen is None:
            return [a for a in ACTIONS if a.action.startswith("app.")]
        out = []
        for a in ACTIONS:
            if a.action.startswith("app."):
                out.append(a)
            elif screen.check_action(a.action, ()):
                out.append(a)
        return out

    def _keys(self, a: Action) -> str:
        keys = self.app._keymap.get(a.id, a.keys)  # the settings file may have remapped it (or given one)
        if not keys:
            return ""
        return keys.split(",")[0].replace("question_mark", "?").replace("delete", "del")

    async def _run(self, a: Action) -> None:
        # the palette calls this with call_later, which awaits a coroutine
        if a.action.startswith("app."):
            await self.app.run_action(a.action[4:])
        else:
            await self.screen.run_action(a.action)

    def _help(self, a: Action) -> str:
        key = self._keys(a)
        return f"{a.help}  (key: {key})" if key else a.help

    async def discover(self) -> Hits:
        for a in self._applicable():
            yield DiscoveryHit(a.title, partial(self._run, a), help=self._help(a))

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for a in self._applicable():
            score = matcher.match(a.title)
            if score > 0:
                yield Hit(score, matcher.highlight(a.title), partial(self._run, a), help=self._help(a))
        screen = self._main()
        if screen is None:
            return
        for c in screen.fight.combatants:
            name = clean(c.name)
            score = matcher.match(name)
            if score > 0:
                # user text goes in as a Text, so markup in a name is never interpreted
                yield Hit(
                    score * 0.9,
                    Text(f"Select {name}"),
                    partial(screen.select, c.id),
                    text=f"Select {name}",
                    help=f"{c.kind.upper()} · {c.side}",
                )
