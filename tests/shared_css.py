"""Textual's parsed CSS, shared by the apps of one test process.

Every app parses its stylesheet anew: the app's CSS and the DEFAULT_CSS of each widget class it
mounts, some 40 blocks for the main screen and a dialog, a fifth of an app's start-up. A test
process starts a thousand apps from the same CSS, so each block is parsed once here and the rules
kept for the next app. Parsing is a function of the text, where it came from and the theme's
variables (all in the key), and Textual already hands the same parsed rules to every later parse
of one app (its own cache, Stylesheet._parse_cache, which this stands in for).

`install` (tests/conftest.py) is a no-op if Textual's Stylesheet no longer has that cache.
"""

from __future__ import annotations

from typing import Any

from textual.css.stylesheet import Stylesheet

_PARSED: dict[tuple[Any, ...], Any] = {}


class _Shared:
    """One stylesheet's view of the process's parsed CSS, keyed also by its variables."""

    def __init__(self, sheet: Stylesheet) -> None:
        self._sheet = sheet
        self._variables: object = None
        self._key: tuple[tuple[str, str], ...] = ()

    def _variables_key(self) -> tuple[tuple[str, str], ...]:
        variables = self._sheet._variables
        if variables is not self._variables:  # set_variables puts a new dict in place
            self._variables, self._key = variables, tuple(sorted(variables.items()))
        return self._key

    def __getitem__(self, key: tuple[Any, ...]) -> Any:
        return _PARSED[(key, self._variables_key())]

    def __setitem__(self, key: tuple[Any, ...], rules: Any) -> None:
        _PARSED[(key, self._variables_key())] = rules

    def clear(self) -> None:
        """New variables (Stylesheet.set_variables): they are part of the key already."""


def install() -> None:
    init = Stylesheet.__init__
    probe = Stylesheet()
    if not hasattr(probe, "_parse_cache") or not hasattr(probe, "_variables"):
        return

    def shared_init(self: Stylesheet, *args: Any, **kwargs: Any) -> None:
        init(self, *args, **kwargs)
        self._parse_cache = _Shared(self)  # type: ignore[assignment]

    Stylesheet.__init__ = shared_init  # type: ignore[method-assign]
