"""The bundled demo fights: a handful of combatants per ruleset, as JSON Lines of script commands.

The foes come from the starter bestiary (`{"cmd":"add","from":"Bandit","count":3}`, resolved by
saves/script_lines.py against the bundled entries only, never the user's library, so every demo is
the same everywhere), each with its statblock and attacks. A demo is always played on a fresh copy,
so the bundled files are never written to.

The copies do not pile up: each ruleset has one, `demos/demo-<id>.fracas` in the data folder, and
starting that demo again replaces it (`start_demo`); a copy the GM wants to keep is renamed, which
makes it one of their fights. The copies earlier versions left in the data folder itself (one per
start, `demo-<id>-YYYYMMDD-HHMMSS.fracas`) go to the trash when that ruleset's demo next starts.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

import msgspec

import engine.library as L
from engine import RuleError, command_union, new_fight
from engine.commands import COMMAND_TYPES
from engine.history import History
from engine.plugins import get_plugin, resource
from engine.rules import REGISTRY
from engine.state import Fight
from saves import journal, script_lines, store
from saves.errors import LockedError, SaveError
from saves.session import Session

NAMES = store.DEMO_NAMES


def _demo_bytes(rules: str) -> bytes | None:
    # the file its plugin names (package data, read with pkgutil: importlib.resources costs start-up ~5 ms)
    plugin = get_plugin(rules)
    return resource(plugin.demo) if plugin is not None and rules in REGISTRY else None


def has_demo(rules: str) -> bool:
    """Whether the ruleset's plugin brings a demo (one registered otherwise has none)."""
    return _demo_bytes(rules) is not None


def _lines(rules: str) -> list[object]:
    text = _demo_bytes(rules)
    if text is None:
        known = ", ".join(sorted(r for r in REGISTRY if has_demo(r)))
        raise RuleError(f"No demo for '{rules}'. Demos: {known}.")
    return [msgspec.json.decode(line) for line in text.splitlines() if line.strip()]


def demo_history(rules: str, seed: int = 7) -> History:
    """The demo fight set up (combatants added, not yet started), with that set-up as its history."""
    h = History.start(new_fight(rules, NAMES.get(rules, "Demo"), seed))
    bundled = [L.Entry(sb) for sb in L.starter(rules)] if rules in L.kind_ids() else []
    # each line read as its own command type: a decoder of the whole command union would cost more
    # (~4 ms) than the demo's few lines
    by_tag = {t.__struct_config__.tag: t for t in COMMAND_TYPES}
    for obj in _lines(rules):
        if script_lines.uses_library(obj):
            cmd = script_lines.resolve(obj, h.state, entries=bundled)  # type: ignore[arg-type]
        else:
            tag = obj.get("cmd") if isinstance(obj, dict) else None
            cmd = msgspec.convert(obj, by_tag[tag] if isinstance(tag, str) and tag in by_tag else command_union())
        h.apply(cmd)
    return h


def demo_fight(rules: str, seed: int = 7) -> Fight:
    return demo_history(rules, seed).state


def demo_path(rules: str, directory: Path | None = None) -> Path:
    """Where the one copy of a ruleset's demo lives: `directory` (fracas demo --dir) or the data
    folder's demos/."""
    folder = directory if directory is not None else store.default_dir() / store.DEMO_DIR
    return folder / f"demo-{rules}.fracas"


def start_demo(rules: str, seed: int, directory: Path | None = None) -> tuple[Session, list[str]]:
    """A fresh copy of the demo, set up (one durable write: undo goes back to the fight as it was
    set up), replacing the ruleset's previous copy. Returns the session and what the GM should be
    told (older copies tidied into the trash). A previous copy open in another Fracas is left alone
    and refused in one line."""
    fight = demo_history(rules, seed).state  # an unknown ruleset is refused before any file is touched
    path = demo_path(rules, directory)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise SaveError(path.parent, f"cannot make the folder for the demo copies: {exc.strerror or exc}") from None
    if path.exists() or path.is_symlink():
        try:
            with store.held(path):
                # the copy is the demo's, not a fight of the GM's (renaming keeps one): it goes
                for old in [path, *store.companions(path)]:
                    os.unlink(old)
        except LockedError:
            raise SaveError(
                path, f"the {rules} demo copy is open in another running Fracas; play it there, or close it first"
            ) from None
        except OSError as exc:
            raise SaveError(path, f"cannot replace the previous demo copy: {exc.strerror or exc}") from None
        with contextlib.suppress(OSError):
            journal.fsync_dir(path.parent)
    session = Session.create(path, fight)
    notes: list[str] = []
    if directory is None:
        moved = 0
        for info in store.list_demos():
            if info.demo == "older" and info.path.name.startswith(f"demo-{rules}-"):
                with contextlib.suppress(SaveError):  # one open elsewhere stays, and is listed
                    store.trash(info.path)
                    moved += 1
        if moved:
            where = store.default_dir() / store.TRASH_DIR
            copies = "copy of this demo was" if moved == 1 else "copies of this demo were"
            notes.append(f"{moved} older {copies} moved to the trash ({where}).")
    return session, notes
