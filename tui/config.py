"""The GM's settings file: the theme and key remapping, TOML in the user's config directory.

    theme = "fracas-ember"
    [keys]
    damage = "x"          # binding id = keys, comma separated ("n,space")

`FRACAS_CONFIG_DIR` overrides the directory (tests use temporary ones). A damaged file is reported in
one line and left untouched: the app then runs on defaults and does not overwrite it.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

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


@dataclass
class Config:
    path: Path
    theme: str | None = None
    keys: dict[str, str] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    writable: bool = True  # False when the file exists but could not be read: never clobber it


def load(path: Path | None = None, known_ids: frozenset[str] = frozenset()) -> Config:
    path = path or default_path()
    cfg = Config(path)
    try:
        raw = path.read_bytes()[: MAX_BYTES + 1]
    except FileNotFoundError:
        return cfg
    except OSError as exc:
        cfg.writable = False
        cfg.problems.append(f"Cannot read {path}: {exc.strerror or exc}; using the defaults.")
        return cfg
    if len(raw) > MAX_BYTES:
        cfg.writable = False
        cfg.problems.append(f"{path} is larger than {MAX_BYTES // 1024} KiB; using the defaults.")
        return cfg
    try:
        import tomllib  # only when there is a settings file to read

        data = tomllib.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        cfg.writable = False
        cfg.problems.append(f"{path} is not valid TOML ({exc}); using the defaults.")
        return cfg
    theme = data.get("theme")
    if theme is not None:
        if isinstance(theme, str) and theme.strip():
            cfg.theme = theme.strip()
        else:
            cfg.problems.append(f"{path}: 'theme' must be a theme name.")
    keys = data.get("keys", {})
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
    unknown = set(data) - {"theme", "keys"}
    if unknown:
        cfg.problems.append(f"{path}: unknown setting(s) {', '.join(sorted(unknown))} ignored.")
    return cfg


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
    for bid, keys in sorted(cfg.keys.items()):
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
