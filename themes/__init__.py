"""Fracas's own colour themes, as data: one TOML file per theme in this folder.

The app (tui/theming.py) reads them and registers them with Textual next to Textual's own themes.
Nothing here imports Textual, so a broken theme file is reported by the app rather than crashing it.
"""

from __future__ import annotations

from pathlib import Path


def theme_files() -> list[Path]:
    """The bundled theme files, in name order (read from beside this module: importlib.resources
    costs start-up a few milliseconds)."""
    root = Path(__file__).resolve().parent
    return sorted((p for p in root.iterdir() if p.name.endswith(".toml")), key=lambda p: p.name)
