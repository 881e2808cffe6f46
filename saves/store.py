"""Where saves live and what is in the folder: the data directory and the list of saved fights."""

from __future__ import annotations

import datetime as dt
import os
from dataclasses import dataclass
from pathlib import Path

from saves import format as fmt
from saves.errors import SaveError
from saves.session import Session

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
    could not be read."""

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


def list_saves(directory: Path | None = None) -> list[SaveInfo]:
    """Every save in the folder, newest first. Never raises: a file that cannot be read is listed with
    its error, a folder that cannot be read gives an empty list."""
    try:
        folder = directory if directory is not None else default_dir()
    except SaveError:
        return []
    out: list[SaveInfo] = []
    for path in save_files(folder):
        try:
            played = path.stat().st_mtime
        except OSError:
            played = 0.0
        try:
            s = Session.open(path, readonly=True)
        except SaveError as exc:
            out.append(SaveInfo(path, path.stem, "", 0, played, error=str(exc.problem)))
            continue
        except Exception as exc:  # a bug must not hide the other saves; the message says what it was
            out.append(SaveInfo(path, path.stem, "", 0, played, error=f"{type(exc).__name__}: {exc}"))
            continue
        f = s.state
        commands = len(s.history.path()) - 1
        note = "; ".join(s.notices)
        out.append(SaveInfo(path, f.name, f.ruleset, f.round, played, commands, f.started, f.ended, notice=note))
    out.sort(key=lambda i: (-i.played, i.path.name))
    return out
