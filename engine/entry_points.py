"""The entry points of one group, read from the installed distributions' metadata the way
importlib.metadata finds them, without importing it: importing importlib.metadata costs start-up
about 25 ms (it brings email, zipfile, csv and importlib.resources), more than reading the few
`entry_points.txt` files does.

This is the engine's one reader of files it does not ship (tests/engine/test_import_hygiene allows it
here only): each folder on sys.path is listed, its `*.dist-info` folders first and then its
`*.egg-info` ones, as importlib.metadata orders them; a distribution found twice counts once (the
first, by its normalised name); each one's entry_points.txt is read as an INI file. Anything unusual
(an unreadable file, a line that is not `name = value`) gives None, and plugins() asks
importlib.metadata instead, so this can only be faster, never different.
"""

from __future__ import annotations

import os
import re
import sys

_NORMAL = re.compile(r"[-_.]+")


def _dist_name(folder: str) -> str:
    """'fracas-0.8.0.dist-info' -> 'fracas'; 'My.Pkg.egg-info' -> 'my_pkg'."""
    stem = folder.rsplit(".", 1)[0]
    return _NORMAL.sub("_", stem.split("-", 1)[0]).lower()


def _parse(text: str, group: str) -> list[tuple[str, str]] | None:
    out: list[tuple[str, str]] = []
    section = ""
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line[0] in "#;":
            continue
        if line.startswith("[") and line.endswith("]"):
            section = line[1:-1].strip()
            continue
        name, eq, value = line.partition("=")
        if not eq:
            return None  # not what setuptools writes: let importlib.metadata read it
        if section == group:
            out.append((name.strip(), value.strip()))
    return out


def read(group: str) -> list[tuple[str, str]] | None:
    """(name, value) of every entry point of `group`, or None when unsure."""
    seen: set[str] = set()
    out: list[tuple[str, str]] = []
    for entry in sys.path:
        try:
            names = os.listdir(entry or ".")
        except OSError:
            continue  # not a folder (a zip of the standard library), or gone
        infos = [n for n in names if n.endswith(".dist-info")] + [n for n in names if n.endswith(".egg-info")]
        for name in infos:
            dist = _dist_name(name)
            if dist in seen:
                continue
            seen.add(dist)
            path = os.path.join(entry or ".", name, "entry_points.txt")
            try:
                with open(path, encoding="utf-8") as fh:
                    text = fh.read()
            except FileNotFoundError:
                continue  # a distribution without entry points (or an egg-info file)
            except (OSError, UnicodeDecodeError):
                return None
            found = _parse(text, group)
            if found is None:
                return None
            out += found
    return out
