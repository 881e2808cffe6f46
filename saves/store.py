"""Where saves live and what is in the folder: the data directory and the list of saved fights."""

from __future__ import annotations

import datetime as dt
import os
from dataclasses import dataclass
from pathlib import Path

from saves import format as fmt
from saves import journal
from saves.errors import SaveError

ENV_DIR = "FRACAS_DATA_DIR"


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


@dataclass(frozen=True)
class SaveInfo:
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

    @property
    def played_at(self) -> dt.datetime:
        return dt.datetime.fromtimestamp(self.played)


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


def list_saves(directory: Path | None = None) -> list[SaveInfo]:
    """Every save in the folder, newest first. Never raises: a file that cannot be read is listed with
    its error, a folder that cannot be read gives an empty list. Reads each file's header only."""
    try:
        folder = directory if directory is not None else default_dir()
    except SaveError:
        return []
    out = [save_info(path) for path in save_files(folder)]
    out.sort(key=lambda i: (-i.played, i.path.name))
    return out
