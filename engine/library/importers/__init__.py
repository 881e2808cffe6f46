"""Importers: foreign statblock formats into Fracas statblocks, in one pass, from decoded JSON.

Pure (no files): saves/library.py reads the file, calls `run`, and writes the result all at once.
Each importer returns an `ImportResult`: the creatures (and player characters, which go to the
party) it made, and one report line per entry saying what it took and what it skipped and why. An
entry that cannot become a valid statblock stops the whole import with one line naming the entry,
and so does a number out of the ruleset's bounds for its field (1e308 hit points, a Strength of 0,
NaN, 2.5): it is refused, never clamped or rounded. Every importer is linear in its input: the
regular expressions take their runs possessively, so no field's text is ever re-scanned.
"""

from __future__ import annotations

from typing import Any

from engine.library.importers import foundry, improved_initiative, srd
from engine.library.importers.common import ImportProblem, ImportResult

__all__ = ["ImportProblem", "ImportResult", "run"]


def run(data: Any, rules: str = "") -> ImportResult:
    """The import of `data` (decoded JSON) by the first importer that recognises it."""
    for module in (improved_initiative, srd, foundry):
        if module.recognise(data):
            result = module.convert(data)
            if rules and result.ruleset != rules:
                article = "an" if result.format[:1].lower() in "aeiou" else "a"
                raise ImportProblem(f"this is {article} {result.format} file for {result.ruleset}, not {rules}")
            return result
    raise ImportProblem(
        "not a format Fracas imports (Improved Initiative, 5e SRD API, Foundry cosmere-rpg or wfrp4e actors)"
    )
