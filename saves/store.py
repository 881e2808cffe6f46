"""Where saves live and what is in the folder: the data directory, the list of saved fights (and,
apart from them, the demo copies), finding a fight by the name the list shows, and renaming a fight
or moving it to the trash.

The data folder holds the GM's fights; `demos/` in it the one copy of each ruleset's demo (replaced
when that demo starts again, saves/demo.py); `trash/` what was deleted, with its backups, to be put
back by `fracas restore` or by hand. Nothing here ever unlinks a fight that is not written elsewhere.
"""

from __future__ import annotations

import contextlib
import difflib
import errno
import os
import re
import stat
from collections.abc import Iterator
from pathlib import Path

import msgspec

from engine import History
from engine.core import clean_name
from engine.history import Node
from engine.plugins import plugins
from engine.text import name_key
from saves import format as fmt
from saves import journal
from saves.errors import LockedError, SaveError
from saves.session import Session

ENV_DIR = "FRACAS_DATA_DIR"
DEMO_DIR = "demos"  # the demo copies, one per ruleset, inside the data folder
TRASH_DIR = "trash"  # deleted fights and their backups, inside the data folder
# the fight names of the rulesets' demos (saves/demo.py), as their plugins name them
DEMO_NAMES = {p.id: p.demo_name for p in plugins() if p.demo}
# a demo copy as versions before the demos/ folder made them, one per start, in the data folder
_OLDER_DEMO = re.compile(r"demo-(?P<rules>[a-z0-9_]+)-\d{8}-\d{6}(?:-\d+)?" + re.escape(fmt.EXTENSION))


def default_dir() -> Path:
    """The folder saves go to: `FRACAS_DATA_DIR` if set, else the platform's user data folder for
    Fracas (e.g. ~/.local/share/fracas). Created when it does not exist yet."""
    override = os.environ.get(ENV_DIR, "").strip()
    if override:
        folder = Path(override).expanduser()
    else:
        import platformdirs  # only when the default folder is needed: it costs start-up time

        folder = platformdirs.user_data_path("fracas", appauthor=False)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise SaveError(folder, f"cannot create the save folder: {exc.strerror or exc}") from None
    if not folder.is_dir():
        raise SaveError(folder, "the save folder is not a folder")
    return folder


class SaveInfo(msgspec.Struct, frozen=True):
    """One saved fight as the list shows it; `error` is set (and the rest mostly empty) when the file
    could not be read.

    Listing reads only each file's header and its stat, never the journal (docs/save-format.md,
    "Listing"): name and ruleset come from the header; round, started, ended and commands from the
    list facts a writing Fracas keeps beside the file. `known` is False when those facts are missing
    or stale (a file copied in, written by an older Fracas, or by a file system without them): then
    round is 0, started and ended False, and the list should say "round ?" rather than "not started".
    """

    path: Path
    name: str
    ruleset: str
    round: int
    played: float  # when the file last changed (every command writes it), as a Unix time
    commands: int = 0
    started: bool = False
    ended: bool = False
    error: str = ""  # why the file cannot be opened
    notice: str = ""  # what opening it would report (a torn last record, an upgrade)
    size: int = 0  # bytes
    known: bool = True  # round, started, ended and commands are known (see above)
    # "" a fight of the GM's; "copy" the demo copy in demos/; "older" a demo copy an earlier version
    # left in the data folder (moved to the trash when that demo next starts)
    demo: str = ""


def save_files(directory: Path) -> list[Path]:
    """The save files in a folder (temporary files of interrupted rewrites are hidden, and skipped)."""
    try:
        entries = list(directory.iterdir())
    except OSError:
        return []
    return [p for p in entries if p.suffix == fmt.EXTENSION and not p.name.startswith(".")]


def save_info(path: Path) -> SaveInfo:
    """What the list shows about one file, from its header and stat only. Never raises."""
    try:
        played = path.stat().st_mtime
    except OSError:
        played = 0.0
    try:
        header, st = journal.read_header(path)
    except SaveError as exc:
        return SaveInfo(path, path.stem, "", 0, played, error=str(exc.problem))
    except Exception as exc:  # a bug must not hide the other saves; the message says what it was
        return SaveInfo(path, path.stem, "", 0, played, error=f"cannot be listed ({' '.join(str(exc).split())[:200]})")
    root = header.root
    facts = journal.read_facts(path, st.st_size)
    if facts is None:
        return SaveInfo(path, root.name, root.ruleset, 0, st.st_mtime, size=st.st_size, known=False)
    return SaveInfo(
        path, root.name, root.ruleset, facts.round, st.st_mtime, facts.commands, facts.started, facts.ended,
        size=st.st_size,
    )


def _older_demo(info: SaveInfo) -> bool:
    """A demo copy left in the data folder by an earlier version: its file name as those made it and
    the demo's own fight name (a fight the GM named "demo-d20" is not taken for one)."""
    m = _OLDER_DEMO.fullmatch(info.path.name)
    return m is not None and not info.error and DEMO_NAMES.get(m["rules"]) == info.name


def _newest_first(infos: list[SaveInfo]) -> list[SaveInfo]:
    return sorted(infos, key=lambda i: (-i.played, i.path.name))


def _scan(directory: Path | None) -> tuple[Path, list[SaveInfo]] | None:
    try:
        folder = directory if directory is not None else default_dir()
    except SaveError:
        return None
    return folder, [save_info(path) for path in save_files(folder)]


def list_saves(directory: Path | None = None) -> list[SaveInfo]:
    """The GM's fights in the folder, newest first, without the demo copies (`list_demos`). Never
    raises: a file that cannot be read is listed with its error, a folder that cannot be read gives
    an empty list. Reads each file's header only."""
    scanned = _scan(directory)
    if scanned is None:
        return []
    return _newest_first([i for i in scanned[1] if not _older_demo(i)])


def list_demos(directory: Path | None = None) -> list[SaveInfo]:
    """The demo copies, newest first: the folder's demos/ (one per ruleset) and, marked "older",
    the copies earlier versions left in the folder itself."""
    scanned = _scan(directory)
    if scanned is None:
        return []
    folder, infos = scanned
    older = [msgspec.structs.replace(i, demo="older") for i in infos if _older_demo(i)]
    copies = [msgspec.structs.replace(save_info(p), demo="copy") for p in save_files(folder / DEMO_DIR)]
    return _newest_first(copies) + _newest_first(older)


def list_trash(directory: Path | None = None) -> list[SaveInfo]:
    """The fights in the trash, newest first (by when they were last played)."""
    scanned = _scan(directory)
    if scanned is None:
        return []
    return _newest_first([save_info(p) for p in save_files(scanned[0] / TRASH_DIR)])


# --- a fight by the name the list shows ---------------------------------------------------------


def _one(info: SaveInfo) -> str:
    return f"{info.name} ({info.path.name})" if info.name and info.name != info.path.stem else info.path.name


def find_in(text: str, infos: list[SaveInfo], where: str, lister: str = "fracas list") -> Path:
    """The one fight in `infos` that `text` names: its file name (with or without the extension)
    or its fight name, as `fracas list` prints them (case does not matter). An unknown or ambiguous
    name is a SaveError listing the close matches."""
    want = text.strip().casefold()
    if not want:
        raise SaveError(None, "give the name of a saved fight (fracas list shows them)")
    by_file = [i for i in infos if want in (i.path.name.casefold(), i.path.stem.casefold())]
    if len(by_file) == 1:
        return by_file[0].path
    by_name = [i for i in infos if name_key(i.name) == name_key(text)]
    if len(by_name) == 1:
        return by_name[0].path
    if len(by_name) > 1:
        files = ", ".join(i.path.name for i in by_name[:6]) + (", ..." if len(by_name) > 6 else "")
        raise SaveError(text, f"{len(by_name)} saved fights have this name: {files}; give the file name")
    close = _close(want, infos)
    if close:
        shown = "; ".join(_one(i) for i in close[:5]) + ("; ..." if len(close) > 5 else "")
        raise SaveError(text, f"no saved fight has this name {where}; close: {shown}")
    raise SaveError(text, f"no saved fight or file of this name {where} ({lister} shows them)")


def _close(want: str, infos: list[SaveInfo]) -> list[SaveInfo]:
    """The fights whose name or file holds `want` (casefolded), then those whose name is like it."""
    close = [i for i in infos if want in i.name.casefold() or want in i.path.name.casefold()]
    names = {i.name.casefold(): i for i in infos if i.name}
    for hit in difflib.get_close_matches(want, list(names), n=5, cutoff=0.6):
        if names[hit] not in close:
            close.append(names[hit])
    return close


def find_save(text: str, directory: Path | None = None) -> Path:
    """The save `text` names: a path that exists (or one that looks like a path: it is opened, and
    says itself why not), else a fight in the data folder or its demo copies by the name `fracas
    list` prints."""
    path = Path(text).expanduser()
    if path.exists() or path.is_symlink() or os.sep in text or (os.altsep and os.altsep in text):
        return path
    folder = directory if directory is not None else default_dir()
    try:
        return find_in(text, list_saves(folder) + list_demos(folder), f"in {folder}")
    except SaveError:
        if text.endswith(fmt.EXTENSION):
            return path  # `fracas x.fracas` where there is none: opening it says "no such file"
        raise


# --- rename and delete --------------------------------------------------------------------------


def companions(path: Path) -> list[Path]:
    """What Fracas keeps beside a save: its backups (`NAME.fracas.YYYYMMDD-HHMMSS.bak`, from a
    repair or an upgrade) and what an interrupted rewrite left (`.NAME.fracas.tmp-...`). Its lock
    is on the file itself, and its list facts in the file's attributes: they go with it."""
    try:
        entries = list(path.parent.iterdir())
    except OSError:
        return []
    name = path.name
    return sorted(
        p for p in entries
        if (p.name.startswith(name + ".") and p.name.endswith(".bak")) or p.name.startswith(f".{name}.tmp-")
    )


@contextlib.contextmanager
def held(path: Path) -> Iterator[None]:
    """The save locked as a writing Fracas locks it, for as long as the block runs: a fight open in
    another Fracas is refused (LockedError), and none can open it meanwhile. The lock needs no write
    permission on the file (moving it needs only the folder's). LockedError when another has it.

    Only a Fracas save is held: a symbolic link, anything but a regular file, or a file that does not
    start with a Fracas header frame is a SaveError. The lock is checked to be on the file the path
    still names (a Fracas repairing a torn tail renames a new file over it: see journal.open_locked)."""
    flags = os.O_RDONLY | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0)
    for _ in range(journal.LOCK_RETRIES):
        try:
            fd = os.open(path, flags)
        except FileNotFoundError:
            raise SaveError(path, "there is no such file (moved or deleted meanwhile?)") from None
        except OSError as exc:
            if exc.errno == errno.ELOOP:
                raise SaveError(path, f"this is a symbolic link, not a save file; {_UNMOVED}") from None
            raise SaveError(path, f"cannot open the file: {exc.strerror or exc}") from None
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                raise SaveError(path, f"{journal.describe_kind(path)}; {_UNMOVED}")
            journal.lock(fd, path)
            current = journal.same_file(fd, path)
            if current:
                _fracas_save(fd, path)
        except BaseException:
            os.close(fd)
            raise
        if current:
            break
        os.close(fd)  # replaced while we waited for the lock: try the file now there
    else:
        raise LockedError(path, "this fight is open in another running Fracas.")
    try:
        yield
    finally:
        os.close(fd)


_UNMOVED = "only Fracas saves are moved to and from the trash: nothing was moved"


def _fracas_save(fd: int, path: Path) -> None:
    """SaveError unless the file open as `fd` is a Fracas save: it starts with a header frame whose
    checksums hold (a save with a torn tail, of an unknown ruleset or a newer format has one)."""
    try:
        journal.header_frame(fd, path)
    except SaveError as exc:
        raise SaveError(path, f"{exc.problem}; {_UNMOVED}") from None


def _only_a_save(path: Path) -> None:
    """What `trash` and `restore` move: a regular `.fracas` file, not a link (checked with lstat,
    before anything is opened: a FIFO is never opened). Its header is checked once it is held."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        raise SaveError(path, "there is no such file") from None
    except OSError as exc:
        raise SaveError(path, f"cannot read the file: {exc.strerror or exc}") from None
    if stat.S_ISLNK(st.st_mode):
        raise SaveError(path, f"this is a symbolic link, not a save file; {_UNMOVED}")
    if not stat.S_ISREG(st.st_mode):
        raise SaveError(path, f"{journal.describe_kind(path)}; {_UNMOVED}")
    if path.suffix != fmt.EXTENSION:
        raise SaveError(path, f"not a Fracas save (its name does not end in {fmt.EXTENSION}); {_UNMOVED}")


def _in(path: Path, *folders: Path) -> bool:
    parent = path.parent.resolve()
    return any(parent == f.resolve() for f in folders)


def _folder_of(path: Path, folder: Path) -> None:
    """Only the fights of the data folder (and its demo copies) are renamed or deleted here: a file
    elsewhere is the GM's to move."""
    if not _in(path, folder, folder / DEMO_DIR):
        raise SaveError(path, f"this file is not in the saves folder {folder}; move it by hand")
    if not path.is_file():
        raise SaveError(path, "this is not a save file")


def _free(folder: Path, stem: str, taken: set[str]) -> str:
    """A save's name in `folder` (stem, stem-2, ...) that neither it nor its companions' names use."""
    for i in range(1, 1000):
        name = f"{stem}{'-' + str(i) if i > 1 else ''}{fmt.EXTENSION}"
        if name.casefold() in taken or (folder / name).exists():
            continue
        if any(p.name.startswith(name + ".") for p in folder.iterdir()):
            continue
        return name
    raise SaveError(folder, f"no free file name for {stem} in this folder")


def _move_with_companions(path: Path, target_dir: Path, name: str) -> Path:
    """Rename `path` to target_dir/name, its companions alongside under the new name. Each move is a
    rename, never a copy and an unlink; the target names are free (checked by the caller)."""
    extras = companions(path)
    target = target_dir / name
    if target.exists():
        raise SaveError(target, "a file with this name is already there; nothing was moved")
    try:
        os.rename(path, target)
    except OSError as exc:
        raise SaveError(path, f"cannot move the file: {exc.strerror or exc}") from None
    for extra in extras:
        if extra.name.startswith("."):
            new = f".{name}{extra.name[len(path.name) + 1:]}"
        else:
            new = name + extra.name[len(path.name):]
        with contextlib.suppress(OSError):  # a backup left behind is still a backup: not fatal
            if not (target_dir / new).exists():
                os.rename(extra, target_dir / new)
    with contextlib.suppress(OSError):
        journal.fsync_dir(target_dir)
        if path.parent != target_dir:
            journal.fsync_dir(path.parent)
    return target


def trash(path: Path, directory: Path | None = None) -> Path:
    """Move a save (and its backups) into the trash folder; returns where it went. A fight open in
    another running Fracas is refused (LockedError), and so is anything but a Fracas save: a file of
    another kind, a link, a folder (SaveError; nothing is moved)."""
    folder = directory if directory is not None else default_dir()
    if not _in(path, folder, folder / DEMO_DIR):
        raise SaveError(path, f"this file is not in the saves folder {folder}; move it by hand")
    _only_a_save(path)
    bin_ = folder / TRASH_DIR
    with held(path):  # a save, not open in another Fracas: only then is the trash made
        try:
            bin_.mkdir(exist_ok=True)
        except OSError as exc:
            raise SaveError(bin_, f"cannot make the trash folder: {exc.strerror or exc}") from None
        return _move_with_companions(path, bin_, _free(bin_, path.stem, set()))


def restore(path: Path, directory: Path | None = None) -> Path:
    """Put a fight from the trash back among the saved fights (under its name, or NAME-2 if a save
    of that name came meanwhile). Only a Fracas save in the trash is put back (SaveError otherwise)."""
    folder = directory if directory is not None else default_dir()
    if not _in(path, folder / TRASH_DIR):
        raise SaveError(path, "this file is not in the trash")
    _only_a_save(path)
    with held(path):
        return _move_with_companions(path, folder, _free(folder, path.stem, set()))


def file_stem(name: str) -> str:
    """A fight's name as a file name readable and safe on every filesystem."""
    safe = "".join(ch if ch.isascii() and (ch.isalnum() or ch in "-_") else "-" for ch in name)[:40]
    return re.sub(r"-{2,}", "-", safe).strip("-") or "fight"


def name_taken(name: str, path: Path | None, directory: Path | None = None) -> SaveInfo | None:
    """The other saved fight (or demo copy) already called `name` (case does not matter), if any."""
    folder = directory if directory is not None else default_dir()
    want = name_key(name)  # "beta" and "beta" + a zero-width space are one name
    for info in list_saves(folder) + list_demos(folder):
        if name_key(info.name) == want and (path is None or info.path.resolve() != path.resolve()):
            return info
    return None


def _renamed(history: History, name: str) -> History:
    """The same history with the fight called `name` in every state (commands and events are
    untouched; the states share everything else)."""
    rename_state = msgspec.structs.replace
    nodes = [Node(rename_state(n.state, name=name), n.parent, n.command, n.events, n.redo) for n in history.nodes]
    return History(nodes, history.cursor)


def rename(path: Path, new_name: str, directory: Path | None = None) -> Path:
    """Give a saved fight a new name: its name everywhere in the file, and a file named after it in
    the saves folder (a demo copy renamed becomes a fight of the GM's). The whole history is written
    to the new file and read back before the old one goes, and the old one is held locked all the
    while. A name another saved fight has is refused, and so is a fight open in another Fracas."""
    folder = directory if directory is not None else default_dir()
    _folder_of(path, folder)
    name = clean_name(new_name, "fight's name")
    other = name_taken(name, path, folder)
    if other is not None:
        raise SaveError(path, f"'{name}' is already the name of {other.path.name}; choose another name")
    session = Session.open(path)  # locked (LockedError if another Fracas has it); a torn tail backed up
    try:
        old = session.history
        if old.state.name == name and path.parent.resolve() == folder.resolve():
            return path
        new = _renamed(old, name)
        taken = {path.name.casefold()} if path.parent.resolve() == folder.resolve() else set()
        stem = file_stem(name)
        target = path if f"{stem}{fmt.EXTENSION}".casefold() in taken else folder / _free(folder, stem, taken)
        created = session.header.created if session.header is not None else None
        chunks, _, _ = journal.history_records(new, created=created)
        check = journal.parse(target, b"".join(chunks))
        if len(check.history.nodes) != len(new.nodes) or check.history.state != new.state:
            raise SaveError(path, "the renamed copy did not read back the same; nothing was changed")
        try:
            fd = journal.atomic_write(target, chunks, overwrite=target == path, keep_locked=True)
        except FileExistsError:
            raise SaveError(target, "a file with this name appeared meanwhile; nothing was changed") from None
        except OSError as exc:
            raise SaveError(target, f"cannot write the file: {exc.strerror or exc}; nothing was changed") from None
        assert fd is not None
        try:
            journal.write_facts(fd, sum(len(c) for c in chunks), new.state, len(new.path()) - 1)
        finally:
            os.close(fd)
        if target != path:
            for extra in companions(path):  # the backups follow the fight's file
                suffix = extra.name[len(path.name):] if not extra.name.startswith(".") else ""
                if suffix and not (folder / (target.name + suffix)).exists():
                    with contextlib.suppress(OSError):
                        os.rename(extra, folder / (target.name + suffix))
            # every record of the old file is in the new one, read back above: the old name goes
            os.unlink(path)
            with contextlib.suppress(OSError):
                journal.fsync_dir(folder)
                journal.fsync_dir(path.parent)
        return target
    finally:
        session.close()
