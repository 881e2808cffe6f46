"""The GM's settings file: the theme and key remapping, TOML in the user's config directory.

    theme = "fracas-ember"
    [keys]
    damage = "d,z"        # binding id = keys, comma separated ("n,space")

`FRACAS_CONFIG_DIR` overrides the directory (tests use temporary ones). A damaged file is reported in
one line and left untouched: the app then runs on defaults and does not overwrite it.
"""

from __future__ import annotations

import os
from pathlib import Path

import msgspec

from saves.errors import SaveError
from saves.files import read_regular
from tui.rows import OVERLAPS, RESERVED_KEYS

FILE_NAME = "config.toml"
MAX_BYTES = 256 * 1024


def config_dir() -> Path:
    env = os.environ.get("FRACAS_CONFIG_DIR")
    if env:
        return Path(env)
    from platformdirs import user_config_dir

    return Path(user_config_dir("fracas", appauthor=False))


def default_path() -> Path:
    return config_dir() / FILE_NAME


class Config(msgspec.Struct):
    path: Path
    theme: str | None = None
    keys: dict[str, str] = msgspec.field(default_factory=dict)
    problems: list[str] = msgspec.field(default_factory=list)
    writable: bool = True  # False when the file exists but could not be read: never clobber it
    # keys refused (not a key, or taken): not applied, but written back as they were when the
    # settings are saved (the theme changed), so the GM's line is never silently lost
    refused: dict[str, str] = msgspec.field(default_factory=dict)


class _Unreadable(Exception):
    """The settings file cannot be used; the message is the whole sentence."""


def _read(path: Path) -> bytes | None:
    """The file's bytes, or None when there is no file: saves.files.read_regular (only a regular
    file, never more than MAX_BYTES of it: a FIFO or a link to /dev/zero neither blocks nor fills
    memory)."""
    try:
        return read_regular(path, MAX_BYTES)
    except SaveError as exc:
        raise _Unreadable(f"{exc}; using the defaults.") from exc


def load(
    path: Path | None = None,
    known_ids: frozenset[str] = frozenset(),
    defaults: dict[str, tuple[str, str]] | None = None,
) -> Config:
    """The settings, with every problem as one line in `problems` (never an exception).

    `defaults`: binding id -> (where it applies, its default keys), to refuse a key that is no key,
    or that another binding reachable in the same place already has (tui.actions.default_keys)."""
    path = path or default_path()
    cfg = Config(path)
    try:
        raw = _read(path)
    except _Unreadable as exc:
        cfg.writable = False
        cfg.problems.append(str(exc))
        return cfg
    if raw is None:
        return cfg
    try:
        data = _parse(raw, path)
    except _Unreadable as exc:
        cfg.writable = False
        cfg.problems.append(str(exc))
        return cfg
    theme = data.get("theme")
    if theme is not None:
        if isinstance(theme, str) and theme.strip():
            cfg.theme = theme.strip()
        else:
            cfg.problems.append(f"{path}: 'theme' must be a theme name.")
    _read_keys(cfg, data.get("keys", {}), known_ids)
    if defaults:
        _check_keys(cfg, defaults)
    unknown = set(data) - {"theme", "keys"}
    if unknown:
        cfg.problems.append(f"{path}: unknown setting(s) {', '.join(sorted(unknown))} ignored.")
    return cfg


def _parse(raw: bytes, path: Path) -> dict[str, object]:
    """The file's TOML; _Unreadable (the whole sentence) when it is not."""
    import tomllib  # only when there is a settings file to read

    try:
        return tomllib.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise _Unreadable(f"{path} is not valid TOML ({_short(exc)}); using the defaults.") from None
    except RecursionError:
        raise _Unreadable(f"{path} is nested too deeply to read; using the defaults.") from None
    except Exception as exc:  # whatever the parser trips on, the app starts on the defaults
        raise _Unreadable(f"{path} cannot be read ({type(exc).__name__}); using the defaults.") from None


def _read_keys(cfg: Config, keys: object, known_ids: frozenset[str]) -> None:
    """The [keys] table into cfg.keys, with a line in cfg.problems for each entry it cannot take."""
    path = cfg.path
    if not isinstance(keys, dict):
        cfg.problems.append(f'{path}: [keys] must be a table of binding id = "keys".')
        keys = {}
    bad: list[str] = []
    for bid, value in keys.items():
        if known_ids and bid not in known_ids:
            bad.append(bid)
        elif not isinstance(value, str) or not value.strip():
            cfg.problems.append(f'{path}: keys.{bid} must be a string of keys, like "x" or "n,space".')
        else:
            cfg.keys[bid] = ",".join(k.strip() for k in value.split(",") if k.strip())
    if bad:
        cfg.problems.append(f"{path}: unknown binding id(s) {', '.join(sorted(bad))} (see ? for the list).")


def _short(exc: Exception) -> str:
    text = str(exc)
    return text if len(text) <= 120 else text[:117] + "..."


# --- key names and clashes ---------------------------------------------------------------------

MODIFIERS = frozenset({"ctrl", "shift", "alt", "meta", "super", "hyper"})


def key_name(key: str) -> str | None:
    """The key as Textual names it ("?" is "question_mark"), or None when Textual has no such key."""
    from textual.keys import KEY_NAME_REPLACEMENTS, KEY_TO_UNICODE_NAME, Keys, _character_to_key

    *mods, base = key.split("+") if key != "+" else ["+"]
    if not base or any(m not in MODIFIERS for m in mods) or len(set(mods)) != len(mods):
        return None
    if len(base) == 1:
        if not base.isprintable() or base.isspace():
            return None
        base = _character_to_key(base)
    else:
        named = {k.value for k in Keys if "+" not in k.value and not k.value.startswith("<")}
        if base not in named and base not in KEY_TO_UNICODE_NAME and base not in KEY_NAME_REPLACEMENTS.values():
            import unicodedata

            try:
                char = unicodedata.lookup(base.replace("_", " ").upper())
            except KeyError:
                return None
            if len(char) != 1 or not char.isprintable() or _character_to_key(char) != base:
                return None
    return "+".join([*mods, base])


def _key_names(cfg: Config) -> dict[str, list[str]]:
    """Each remapped binding's keys as Textual names them; one that is no key, or is one of
    Textual's own, is refused (a line in cfg.problems, and it keeps its own keys)."""
    where = f"{cfg.path}"
    wanted: dict[str, list[str]] = {}
    for bid, value in list(cfg.keys.items()):
        names = []
        for key in value.split(","):
            name = key_name(key)
            if name is None:
                cfg.problems.append(f"{where}: keys.{bid}: '{key}' is not a key name; {bid} keeps its keys.")
                break
            names.append(name)
        else:
            wanted[bid] = names
            continue
        cfg.refused[bid] = cfg.keys.pop(bid)
    for bid in sorted(wanted):
        key = next((k for k in wanted[bid] if k in RESERVED_KEYS), None)
        if key is not None:
            what = RESERVED_KEYS[key]
            cfg.problems.append(f"{where}: keys.{bid}: '{key}' is Textual's own key ({what}); {bid} keeps its keys.")
            del wanted[bid]
    return wanted


def _check_keys(cfg: Config, defaults: dict[str, tuple[str, str]]) -> None:
    """Refuse (with one line each, naming the key and both bindings) a remapped binding whose key is
    no key, or is taken by another binding that can be reached in the same place (a reserved key of
    Textual's, ctrl+q, ctrl+p, another remapped binding). A refused binding keeps its own keys."""
    where = f"{cfg.path}"
    wanted = _key_names(cfg)

    def default_of(bid: str) -> list[str]:
        return [key_name(k) or k for k in defaults.get(bid, ("", ""))[1].split(",") if k]

    def meets(a: str, b: str) -> bool:
        sa, sb = defaults.get(a, ("", ""))[0], defaults.get(b, ("", ""))[0]
        return "app" in (sa, sb) or sb in OVERLAPS.get(sa, frozenset({sa}))

    # a refused binding goes back to its own keys, which may be what another one was given: again
    # until nothing changes
    changed = True
    while changed:
        changed = False
        for bid in sorted(wanted):
            if bid not in wanted:
                continue  # refused earlier in this pass, with the other one of a pair
            clash = None
            for other in sorted(defaults):
                if other == bid or not meets(bid, other):
                    continue
                theirs = wanted.get(other) or default_of(other)
                key = next((k for k in wanted[bid] if k in theirs), None)
                if key is not None:
                    clash = (key, other)
                    break
            if clash is None:
                continue
            key, other = clash
            if other in wanted:  # one key given to two bindings: neither gets it
                cfg.problems.append(
                    f"{where}: '{key}' is given to both {bid} and {other}; both keep their own keys."
                )
                del wanted[other]
            else:
                taken = f"'{key}' is already the key of {other}"
                cfg.problems.append(f"{where}: keys.{bid}: {taken}; {bid} keeps its keys.")
            del wanted[bid]
            changed = True
    for bid in list(cfg.keys):
        if bid not in wanted:
            cfg.refused[bid] = cfg.keys.pop(bid)


def _toml_string(s: str) -> str:
    out = ['"']
    for ch in s:
        o = ord(ch)
        if ch in '"\\':
            out.append("\\" + ch)
        elif o < 0x20 or o == 0x7F:
            out.append(f"\\u{o:04x}")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def _toml_key(k: str) -> str:
    if k and all(ch.isascii() and (ch.isalnum() or ch in "-_") for ch in k):
        return k
    return _toml_string(k)


def dumps(cfg: Config) -> str:
    lines = ['# Fracas settings. Keys: binding id = "key" or "key1,key2" (press ? in the app).']
    if cfg.theme:
        lines.append(f"theme = {_toml_string(cfg.theme)}")
    lines.append("")
    lines.append("[keys]")
    for bid, keys in sorted({**cfg.refused, **cfg.keys}.items()):
        lines.append(f"{_toml_key(bid)} = {_toml_string(keys)}")
    return "\n".join(lines) + "\n"


def save(cfg: Config) -> str | None:
    """Write the settings atomically; returns a problem sentence instead of raising."""
    if not cfg.writable:
        return f"{cfg.path} could not be read, so it was not overwritten."
    try:
        cfg.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = cfg.path.with_name(cfg.path.name + ".tmp")
        tmp.write_text(dumps(cfg), encoding="utf-8")
        os.replace(tmp, cfg.path)
    except OSError as exc:
        return f"Could not save settings to {cfg.path}: {exc.strerror or exc}."
    return None
