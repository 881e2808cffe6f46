"""`fracas list`, `fracas check` and `fracas export` (wired into the `fracas` command by tui/cli.py).

Each takes the parsed arguments and returns the exit code. Errors are one line on stderr, never a
traceback: 0 all good, 1 a problem with a file, 2 a problem with the arguments.
"""

from __future__ import annotations

import argparse
import datetime as dt
import sys
from pathlib import Path

from saves import format as fmt
from saves.errors import LockedError, SaveError
from saves.export import export_json, export_markdown, printable


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


def cmd_list(args: argparse.Namespace) -> int:
    from saves.store import default_dir, list_saves

    folder: Path | None = getattr(args, "dir", None)
    try:
        if folder is None:
            folder = default_dir()
        elif not folder.is_dir():
            _err(f"{folder}: no such folder")
            return 2
    except SaveError as exc:
        _err(str(exc))
        return 1
    infos = list_saves(folder)
    if not infos:
        _out(f"No saved fights in {printable(str(folder))}.\n")
        return 0
    rows = [("Last played", "Rules", "Round", "Fight", "File")]
    for i in infos:
        when = dt.datetime.fromtimestamp(i.played).strftime("%Y-%m-%d %H:%M") if i.played else "?"
        if i.error:
            rows.append((when, "?", "", f"(unreadable: {i.error})", i.path.name))
            continue
        where = (str(i.round) if i.started else "-") if i.known else "?"
        if i.ended:
            where += " (ended)"
        name = i.name + (f"  [{i.notice}]" if i.notice else "")
        rows.append((when, i.ruleset, where, name, i.path.name))
    rows = [tuple(printable(c) for c in r) for r in rows]
    widths = [max(len(r[k]) for r in rows) for k in range(4)]
    lines = ["  ".join(c.ljust(w) for c, w in zip(r[:4], widths, strict=True)) + "  " + r[4] for r in rows]
    _out("\n".join(line.rstrip() for line in lines) + f"\n\n{len(infos)} in {printable(str(folder))}\n")
    return 0


def cmd_check(args: argparse.Namespace) -> int:
    """Read every record (checksums, types, structure). With --repair, the whole file is backed up,
    then a torn tail is cut off and damage after the header is skipped, keeping every record before
    and after it that fits the fight (docs/save-format.md, "Repair")."""
    from saves.session import Session

    path = Path(args.file)
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
    path = Path(args.file)
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
