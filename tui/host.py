"""What a dialog needs from the app, as an interface: the fight's session, the one way to change it
(commit: all or nothing), messages, the settings and the typeahead hand-over. Dialogs and the
screens that open them depend on this, not on the app module (tui/app.py implements it), so the tui
modules do not import one another in a circle.

Screens that show the fight implement FightView: the app asks each one on its stack to show the
state again after every change, without importing them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from engine import get_ruleset
from tui.rulesets import get_ui

if TYPE_CHECKING:
    from engine.commands import Command
    from engine.events import Event
    from engine.ruleset import Ruleset
    from engine.state import Fight
    from saves.session import Session
    from tui.config import Config
    from tui.rulesets import RulesetUI


class Host(Protocol):
    """The app as a dialog sees it."""

    session: Session | None
    settings: Config
    save_failed: str

    def commit(
        self, commands: Command | Iterable[Command], *, announce: bool = False, first: Sequence[Command] = ()
    ) -> tuple[Event, ...]:
        """Apply commands all or none; RuleError (nothing changed) for the dialog to show."""
        ...

    def try_commit(self, commands: Command | Iterable[Command], *, announce: bool = False) -> bool: ...

    def tell(self, message: str, *, inline: bool = True) -> None: ...

    def notify(self, message: str, *, title: str = "", severity: Any = "information", **kwargs: Any) -> None: ...

    def expect_dialog(self) -> None: ...

    def dialog_settled(self, dialog: Any) -> None: ...

    async def release_typeahead(self) -> None: ...

    def push_screen(self, screen: Any, *args: Any, **kwargs: Any) -> Any: ...

    def call_after_refresh(self, callback: Any, *args: Any, **kwargs: Any) -> bool: ...


@runtime_checkable
class FightView(Protocol):
    """A screen that shows the fight (the main screen): shown again after each change."""

    def refresh_fight(self, force: bool = False) -> None: ...


class FightAccess:
    """The fight a screen shows, its ruleset and the ruleset's app slice, read from the app's session
    at the moment they are asked for: the main screen and every dialog (each defines `fracas`)."""

    fracas: Any

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
        """The app slice of the fight's ruleset (tui/rulesets/): its form hints and its own dialogs."""
        return get_ui(self.fight.ruleset)
