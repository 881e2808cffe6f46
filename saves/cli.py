"""`fracas list`, `check`, `export`, `rename`, `delete`, `restore` and `odds` (wired into the `fracas`
command by tui/cli.py).

Each takes the parsed arguments and returns the exit code. A save is named by its path or by a name
`fracas list` prints (its file name or its fight's name, saves/store.py `find_save`). Errors are one
line on stderr, never a traceback: 0 all good, 1 a problem with a file, 2 a problem with the arguments.
"""

from __future__ import annotations

import argparse
import datetime as dt
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import msgspec

from engine import RuleError
from engine.text import json_safe
from saves import format as fmt
from saves.errors import LockedError, SaveError
from saves.export import export_json, export_markdown, printable

if TYPE_CHECKING:
    from saves.store import SaveInfo


def _err(message: str) -> None:
    print(f"fracas: {printable(message)}", file=sys.stderr)  # every error line: file names are user text


def _out(text: str) -> None:
    """Text for stdout; callers pass user text through `printable` (the export's data is not text
    for a terminal line, and goes out as it is)."""
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:  # `fracas export ... | head`: the reader left, nothing to report
        pass


def _folder(args: argparse.Namespace) -> Path | None:
    """The saves folder: --dir (which must exist) or the data folder; None after saying why not."""
    from saves.store import default_dir

    folder: Path | None = getattr(args, "dir", None)
    try:
        if folder is None:
            return default_dir()
    except SaveError as exc:
        _err(str(exc))
        return None
    if not folder.is_dir():
        _err(f"{folder}: no such folder")
        return None
    return folder


def _rows(infos: list[SaveInfo]) -> list[tuple[str, ...]]:
    rows: list[tuple[str, ...]] = []
    for i in infos:
        when = dt.datetime.fromtimestamp(i.played).strftime("%Y-%m-%d %H:%M") if i.played else "?"
        if i.error:
            rows.append((when, "?", "", f"(unreadable: {i.error})", i.path.name))
            continue
        where = (str(i.round) if i.started else "-") if i.known else "?"
        if i.ended:
            where += " (ended)"
        name = i.name + (f"  [{i.notice}]" if i.notice else "") + ("  (older copy)" if i.demo == "older" else "")
        rows.append((when, i.ruleset, where, name, i.path.name))
    return [tuple(printable(c) for c in r) for r in rows]


MIN_FILE = 20  # the file column is not elided below this; the fight's name gives way first
MIN_FIGHT = 16


def _elide(text: str, width: int) -> str:
    """`text` in `width` characters, cut from the middle (a file's end, ".fracas", stays)."""
    if len(text) <= width:
        return text
    tail = min(len(text) // 2, max(8, width // 2))
    return text[: max(0, width - tail - 1)] + "…" + text[-tail:]


def _width() -> int:
    """The terminal's columns (COLUMNS, else its size) when the list goes to one; 0: no limit (a
    pipe or a file keeps the names whole)."""
    import shutil

    if not sys.stdout.isatty():
        return 0
    return shutil.get_terminal_size((80, 24)).columns


def _table(sections: list[list[tuple[str, ...]]], width: int = 0) -> list[list[str]]:
    """The sections' rows as aligned lines, one set of column widths for all of them; with `width`,
    lines that fit it: the file names cut from the middle (no shorter than MIN_FILE), then the
    fights' names, rather than a line the terminal wraps under the date column."""
    every = [r for rows in sections for r in rows]
    widths = [max(len(r[k]) for r in every) for k in range(5)]
    if width:
        room = width - 1 - sum(widths[:4]) - 8  # (a line as wide as the terminal wraps in some)
        if room < MIN_FILE:
            widths[3] = max(MIN_FIGHT, widths[3] - (MIN_FILE - room))
            room = width - 1 - sum(widths[:4]) - 8
        widths[4] = max(MIN_FILE, room)
    return [
        ["  ".join(_elide(c, w).ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() for r in rows]
        for rows in sections
    ]


def cmd_list(args: argparse.Namespace) -> int:
    """The GM's fights, newest first; the demo copies apart, below them; how many are in the trash."""
    from saves.store import TRASH_DIR, list_demos, list_saves, list_trash

    folder = _folder(args)
    if folder is None:
        return 1 if getattr(args, "dir", None) is None else 2
    where = printable(str(folder))
    if getattr(args, "trash", False):
        binned = list_trash(folder)
        if not binned:
            _out(f"The trash is empty ({printable(str(folder / TRASH_DIR))}).\n")
            return 0
        head = [("Last played", "Rules", "Round", "Fight", "File")]
        lines = _table([head + _rows(binned)], _width())[0]
        _out("\n".join(lines) + f"\n\n{len(binned)} in the trash, {printable(str(folder / TRASH_DIR))}"
             " (fracas restore NAME puts one back)\n")
        return 0
    infos, demos, binned = list_saves(folder), list_demos(folder), list_trash(folder)
    head = [("Last played", "Rules", "Round", "Fight", "File")]
    sections = [head + _rows(infos)] + ([_rows(demos)] if demos else [])
    lines = _table(sections, _width())
    text = "\n".join(lines[0]) + "\n" if infos else f"No saved fights in {where}.\n"
    if demos:
        text += "\nDemo copies (one per ruleset, replaced when that demo starts again; rename one to keep it):\n"
        text += "\n".join(lines[1]) + "\n"
    counts = [f"{len(infos)} in {where}"] if infos else []
    if demos:
        copies = "copy" if len(demos) == 1 else "copies"
        counts.append(f"{len(demos)} demo {copies}")
    if binned:
        counts.append(f"{len(binned)} in the trash (fracas list --trash)")
    if counts:
        text += "\n" + " · ".join(counts) + "\n"
    _out(text)
    return 0


def _named(args: argparse.Namespace, attr: str = "file") -> Path | None:
    """The save an argument names: a path, or a name `fracas list` prints; None after saying why."""
    from saves.store import find_save

    folder: Path | None = getattr(args, "dir", None)
    try:
        return find_save(str(getattr(args, attr)), folder)
    except SaveError as exc:
        _err(str(exc))
        return None


def cmd_rename(args: argparse.Namespace) -> int:
    """`fracas rename OLD NEW`: the fight's new name, in the file and as its file's name."""
    from saves.store import rename

    folder = _folder(args)
    if folder is None:
        return 2
    path = _named(args, "old")
    if path is None:
        return 1
    try:
        old = _fight_name(path)
        target = rename(path, args.new, folder)
    except LockedError as exc:
        _err(f"{exc.path}: this fight is open in another running Fracas; close it there to rename it")
        return 1
    except (SaveError, RuleError) as exc:
        _err(str(exc))
        return 1
    if target == path and old == args.new.strip():
        _out(printable(f"'{old}' ({path.name}) already has this name; nothing changed.") + "\n")
        return 0
    _out(printable(f"Renamed '{old}' ({path.name}) to '{args.new.strip()}' ({target.name}).") + "\n")
    return 0


def _fight_name(path: Path) -> str:
    from saves.store import save_info

    info = save_info(path)
    return info.name or path.stem


def cmd_delete(args: argparse.Namespace) -> int:
    """`fracas delete NAME`: the fight (and its backups) moved to the trash, never unlinked."""
    from saves.store import trash

    folder = _folder(args)
    if folder is None:
        return 2
    path = _named(args, "name")
    if path is None:
        return 1
    try:
        name = _fight_name(path)
        target = trash(path, folder)
    except LockedError as exc:
        _err(f"{exc.path}: this fight is open in another running Fracas; close it there to delete it")
        return 1
    except SaveError as exc:
        _err(str(exc))
        return 1
    _out(printable(f"Moved '{name}' to the trash: {target} (fracas restore {target.name} puts it back).") + "\n")
    return 0


def cmd_restore(args: argparse.Namespace) -> int:
    """`fracas restore NAME`: a fight from the trash back among the saved fights."""
    from saves.store import TRASH_DIR, find_in, list_trash, restore

    folder = _folder(args)
    if folder is None:
        return 2
    try:
        path = find_in(str(args.name), list_trash(folder), f"in the trash, {folder / TRASH_DIR}", "fracas list --trash")
        name = _fight_name(path)
        target = restore(path, folder)
    except LockedError as exc:
        _err(f"{exc.path}: this file is open in another running Fracas; close it there first")
        return 1
    except SaveError as exc:
        _err(str(exc))
        return 1
    _out(printable(f"Restored '{name}': {target}.") + "\n")
    return 0


def cmd_check(args: argparse.Namespace) -> int:
    """Read every record (checksums, types, structure). With --repair, the whole file is backed up,
    then a torn tail is cut off and damage after the header is skipped, keeping every record before
    and after it that fits the fight (docs/save-format.md, "Repair")."""
    from saves.session import Session

    named = _named(args)
    if named is None:
        return 1
    path = named
    repair = bool(getattr(args, "repair", False))
    damage: SaveError | None = None
    try:
        s = Session.open(path, readonly=True)
    except SaveError as exc:
        if not repair:
            _err(str(exc))
            return 1
        damage = exc
    # an older format read through its upgrade is no damage: the notice is shown, the file is fine
    damaged = damage is not None or len(s.notices) > (s.read_format != fmt.FORMAT)
    if damaged and repair:
        try:
            fixed = Session.open(path, repair=True)
        except LockedError as exc:
            _err(f"{exc} Close it there before repairing it.")
            return 1
        except SaveError as exc:
            _err(str(exc))
            return 1
        fixed.close()
        for notice in fixed.notices:
            _out(f"repaired: {printable(notice)}\n")
        s = fixed
        damaged = False
    else:
        for notice in s.notices:
            _err(f"{path}: {notice}")
    h = s.history
    f = s.state
    size = path.stat().st_size if path.exists() else 0
    where = f"round {f.round}" if f.started else "not started"
    branches = len(h.nodes) - len(h.path())
    _out(
        f"{'damaged' if damaged else 'ok'}: {printable(str(path))}: {printable(f.ruleset)} fight "
        f"'{printable(f.name)}', {where}, {len(h.nodes) - 1} commands ({branches} undone), {size} bytes\n"
    )
    return 1 if damaged else 0


def cmd_export(args: argparse.Namespace) -> int:
    from saves import journal
    from saves.session import Session

    as_json, as_md = bool(getattr(args, "json", False)), bool(getattr(args, "markdown", False))
    if as_json == as_md:
        _err("export: choose one of --json or --markdown")
        return 2
    named = _named(args)
    if named is None:
        return 1
    path = named
    output: Path | None = getattr(args, "output", None)
    if output is not None and output.exists() and output.resolve() == path.resolve():
        _err(f"{output}: that is the save file itself; choose another output")  # _err makes it printable
        return 2
    try:
        s = Session.open(path, readonly=True)
    except SaveError as exc:
        _err(str(exc))
        return 1
    for notice in s.notices:
        _err(f"{path}: {notice}")
    data = export_json(s) if as_json else export_markdown(s).encode("utf-8")
    if output is None:
        _out(data.decode("utf-8"))
        return 0
    try:
        journal.replace_file(output, [data])  # never a Fracas save, never a file another app has locked
    except SaveError as exc:
        _err(str(exc))
        return 1
    return 0


def cmd_odds(args: argparse.Namespace) -> int:
    """`fracas odds FILE [--runs N] [--seed S] [--json]`: the rest of the fight played `runs` times by
    each ruleset's auto-play (engine/odds, docs/odds.md). The save is opened read-only: never locked,
    never written (its bytes and time stamps stay as they were)."""
    from engine.odds import MAX_RUNS, simulate  # start-up: only this command loads the simulation
    from saves.session import Session

    runs = int(getattr(args, "runs", 1000))
    if not 1 <= runs <= MAX_RUNS:
        _err(f"odds: --runs is between 1 and {MAX_RUNS:,}, not {runs}")
        return 2
    named = _named(args)
    if named is None:
        return 1
    try:
        s = Session.open(named, readonly=True)
    except SaveError as exc:
        _err(str(exc))
        return 1
    for notice in s.notices:
        _err(f"{named}: {notice}")
    try:
        odds = simulate(s.state, runs, int(getattr(args, "seed", 0)))
    except RuleError as exc:
        _err(str(exc))
        return 1
    if getattr(args, "json", False):
        data = msgspec.to_builtins(odds)
        data["headline"] = odds.headline()
        data["draws"] = odds.draws
        _out(json_safe(msgspec.json.encode(data)).decode("utf-8") + "\n")
        return 0
    _out("".join(printable(line) + "\n" for line in odds.lines()))
    return 0
