"""Load Fracas's themes (TOML files in `themes/`) as Textual themes.

A bad theme file is skipped with a one-line problem for the GM, never a crash (posting does the same).
"""

from __future__ import annotations

import tomllib
from dataclasses import fields

from textual.theme import Theme

from saves.files import read_text
from themes import theme_files

_ALLOWED = {f.name for f in fields(Theme)} - {"ansi"}
MAX_THEME = 64 * 1024  # a theme is a few hundred bytes


def load_themes() -> tuple[list[Theme], list[str]]:
    out: list[Theme] = []
    problems: list[str] = []
    for file in theme_files():
        try:
            data = tomllib.loads(read_text(file, MAX_THEME) or "")
            unknown = set(data) - _ALLOWED
            if unknown:
                raise ValueError(f"unknown field(s) {', '.join(sorted(unknown))}")
            if not isinstance(data.get("name"), str) or not isinstance(data.get("primary"), str):
                raise ValueError("a theme needs a name and a primary colour")
            theme = Theme(**data)
            theme.to_color_system()  # bad colour strings fail here, not at paint time
        except Exception as exc:  # any damage to a theme file: report it, keep the others
            problems.append(f"Theme file {file.name} skipped: {exc}")
            continue
        out.append(theme)
    return out, problems
