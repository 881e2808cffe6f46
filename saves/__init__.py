"""Save files: the on-disk journal of a fight (docs/save-format.md), sessions, listing and exports."""

from saves.errors import LockedError, ReadOnlyError, SaveError
from saves.session import Session
from saves.store import SaveInfo, default_dir, list_saves

__all__ = ["LockedError", "ReadOnlyError", "SaveError", "SaveInfo", "Session", "default_dir", "list_saves"]
