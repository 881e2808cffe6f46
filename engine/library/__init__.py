"""The content layer: statblocks per ruleset, the bundled starter bestiaries, search, importers.

Pure (engine and msgspec only). See docs/library.md for the API the app builds on.
"""

from __future__ import annotations

import importlib

import engine.rules  # noqa: F401 - the rulesets register first: a kind needs its ruleset
from engine.library.base import (
    HP_MODES,
    KINDS,
    HpMode,
    LibraryError,
    Statblock,
    StatblockKind,
    attack_command,
    attack_fields,
    attack_label,
    attacks,
    decode_entries,
    decode_entry,
    doubled,
    find_attack,
    from_combatant,
    get_kind,
    kind_ids,
    kind_of,
    parse_toml,
    register_kind,
    roll_health,
    starter,
    statblock_from_json,
    statblock_json,
    statblock_of,
    to_add,
    to_table,
    toml_document,
    validate,
)
from engine.library.search import Entry, search
from engine.plugins import plugins

for _plugin in plugins():
    if _plugin.kind:
        importlib.import_module(_plugin.kind)  # registers the ruleset's statblock kind

__all__ = [
    "HP_MODES",
    "KINDS",
    "Entry",
    "HpMode",
    "LibraryError",
    "Statblock",
    "StatblockKind",
    "attack_command",
    "attack_fields",
    "attack_label",
    "attacks",
    "decode_entries",
    "decode_entry",
    "doubled",
    "find_attack",
    "from_combatant",
    "get_kind",
    "kind_ids",
    "kind_of",
    "parse_toml",
    "register_kind",
    "roll_health",
    "search",
    "starter",
    "statblock_from_json",
    "statblock_json",
    "statblock_of",
    "to_add",
    "to_table",
    "toml_document",
    "validate",
]
