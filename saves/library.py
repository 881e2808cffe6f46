"""The user's library and the party roster on disk (TOML in the data folder), and imports into them.

<data folder>/library/<ruleset>.toml  the user's own statblocks; merged over the starter bestiary
                                      (user entries win by name)
<data folder>/party/<ruleset>.toml    the party: player characters that outlive fights, each with
                                      where it stands now (health, resources, lasting conditions)

Every write is whole-file and atomic (temporary file, fsync, rename: saves.journal.replace_file), so
a failure leaves the old file as it was. Errors are one line naming the file (and the entry).
"""

import json
import tomllib
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import msgspec
import tomli_w

from engine.commands import AddCombatant, AddCondition, Command, Damage, SpendResource
from engine.errors import RuleError
from engine.library import (
    Entry,
    LibraryError,
    Statblock,
    decode_entry,
    get_kind,
    kind_of,
    parse_toml,
    starter,
    statblock_of,
    to_add,
    toml_document,
)
from engine.library.base import entry_label, to_table
from engine.library.importers import ImportResult, run
from engine.ruleset import get_ruleset
from engine.state import Combatant, Fight
from engine.text import shown
from saves import journal
from saves.errors import SaveError
from saves.store import default_dir

MAX_FILE = 32 * 1024 * 1024  # a library or an import file larger than this is refused unread


def library_path(rid: str, folder: Path | None = None) -> Path:
    get_kind(rid)
    return (folder or default_dir()) / "library" / f"{rid}.toml"


def party_path(rid: str, folder: Path | None = None) -> Path:
    get_kind(rid)
    return (folder or default_dir()) / "party" / f"{rid}.toml"


def _read_text(path: Path) -> str | None:
    try:
        if path.stat().st_size > MAX_FILE:
            raise SaveError(path, f"larger than {MAX_FILE // (1024 * 1024)} MB; not read")
        return path.read_bytes().decode("utf-8")
    except FileNotFoundError:
        return None
    except UnicodeDecodeError:
        raise SaveError(path, "not UTF-8 text") from None
    except IsADirectoryError:
        raise SaveError(path, "a folder, not a file") from None
    except OSError as exc:
        raise SaveError(path, f"cannot read: {exc.strerror or exc}") from None


def _write(path: Path, doc: dict[str, Any]) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise SaveError(path.parent, f"cannot create the folder: {exc.strerror or exc}") from None
    journal.replace_file(path, [tomli_w.dumps(doc).encode("utf-8")])


# --- the user's library ---------------------------------------------------------------------------


def read_user(rid: str, folder: Path | None = None) -> tuple[Statblock, ...]:
    """The user's own statblocks for a ruleset (none when the file does not exist yet)."""
    path = library_path(rid, folder)
    text = _read_text(path)
    return parse_toml(rid, text, str(path)) if text is not None else ()


def write_user(rid: str, statblocks: Iterable[Statblock], folder: Path | None = None) -> Path:
    path = library_path(rid, folder)
    _write(path, toml_document(rid, statblocks))
    return path


def merged(starter_entries: Iterable[Statblock], user: Iterable[Statblock]) -> list[Entry]:
    """Starter and user statblocks as one library: a user entry replaces the starter one of its name."""
    out: dict[str, Entry] = {sb.name.casefold(): Entry(sb, "starter") for sb in starter_entries}
    for sb in user:
        out[sb.name.casefold()] = Entry(sb, "user")
    return sorted(out.values(), key=lambda e: e.name_key)


def load(rid: str, folder: Path | None = None) -> list[Entry]:
    """The library the add dialog searches (engine.library.search over it)."""
    return merged(starter(rid), read_user(rid, folder))


def find(rid: str, name: str, folder: Path | None = None) -> Entry:
    """The entry of that name (case-insensitive), or a one-line LibraryError."""
    low = name.strip().casefold()
    for e in load(rid, folder):
        if e.statblock.name.casefold() == low:
            return e
    raise LibraryError(f"No {rid} statblock called {shown(name)} in the library.")


def _upsert(old: Iterable[Statblock], new: Iterable[Statblock]) -> list[Statblock]:
    """`old` with `new` merged in by name: same name replaces (so an import twice adds nothing)."""
    out = {sb.name.casefold(): sb for sb in old}
    for sb in new:
        out[sb.name.casefold()] = sb
    return list(out.values())


def save_statblocks(rid: str, statblocks: Iterable[Statblock], folder: Path | None = None) -> Path:
    """Add or replace (by name) statblocks in the user's library."""
    return write_user(rid, _upsert(read_user(rid, folder), statblocks), folder)


def statblock_from(rid: str, c: Combatant, name: str = "") -> Statblock:
    """A statblock made from a combatant (under `name` if given), validated as a file entry would be:
    what its stats cannot hold comes from the statblock it was added from."""
    kind = get_kind(rid)
    sb = kind.from_combatant(c)
    kept = statblock_of(rid, c)
    if kept is not None and type(kept) is type(sb):
        sb = _keep_unknown(kept, sb)
    if name:
        sb = msgspec.structs.replace(sb, name=name)
    decode_entry(rid, to_table(sb))
    return sb


def save_combatant(rid: str, c: Combatant, folder: Path | None = None, name: str = "") -> Statblock:
    """A statblock made from a combatant, saved to the user's library (under `name` if given)."""
    sb = statblock_from(rid, c, name)
    save_statblocks(rid, [sb], folder)
    return sb


def _keep_unknown(kept: Statblock, built: Statblock) -> Statblock:
    """`built` (from the combatant's stats) with what the stats cannot hold taken from the statblock
    it was added from: its attacks, type, health dice, source. A field `built` leaves at its default
    is one the combatant does not carry."""
    changes = {}
    for f in msgspec.structs.fields(built):
        if f.name in ("name", "kind", "side"):
            continue
        default = f.default_factory() if f.default_factory is not msgspec.NODEFAULT else f.default
        if getattr(built, f.name) == default:
            changes[f.name] = getattr(kept, f.name)
    return msgspec.structs.replace(built, **changes)


# --- the party ----------------------------------------------------------------------------------


class Track(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    key: str
    current: int


class Lasting(msgspec.Struct, frozen=True, omit_defaults=True, forbid_unknown_fields=True):
    """A condition that lasts beyond a fight (one with no duration: Exhaustion, a curse)."""

    name: str
    level: int = 1
    note: str = ""


class Now(msgspec.Struct, frozen=True, omit_defaults=True, forbid_unknown_fields=True):
    """Where a PC stands between fights; empty = at its statblock's full health and resources."""

    health: tuple[Track, ...] = ()
    resources: tuple[Track, ...] = ()
    conditions: tuple[Lasting, ...] = ()


class Member(msgspec.Struct, frozen=True):
    statblock: Statblock
    now: Now = Now()

    @property
    def name(self) -> str:
        return self.statblock.name


def read_party(rid: str, folder: Path | None = None) -> tuple[Member, ...]:
    path = party_path(rid, folder)
    text = _read_text(path)
    if text is None:
        return ()
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise LibraryError(f"{path}: not valid TOML: {' '.join(str(exc).split())}") from None
    pcs = doc.get("pc", [])
    if not isinstance(pcs, list):
        raise LibraryError(f"{path}: expected [[pc]] tables")
    out = []
    for i, data in enumerate(pcs):
        try:
            if not isinstance(data, dict):
                raise RuleError("not a table")
            data = dict(data)
            now = msgspec.convert(data.pop("now", {}), Now)
            sb = decode_entry(rid, data)
        except (RuleError, msgspec.ValidationError) as exc:
            raise LibraryError(f"{path}: {entry_label(i, data)}: {' '.join(str(exc).split())}") from None
        out.append(Member(sb, now))
    return tuple(out)


def write_party(rid: str, members: Iterable[Member], folder: Path | None = None) -> Path:
    path = party_path(rid, folder)
    pcs = []
    for m in members:
        table = to_table(m.statblock)
        now = msgspec.to_builtins(m.now)
        if now:
            table["now"] = now
        pcs.append(table)
    _write(path, {"rules": rid, "pc": pcs})
    return path


def add_to_party(rid: str, statblocks: Iterable[Statblock], folder: Path | None = None) -> Path:
    """Add or replace (by name) PCs in the roster; a replaced PC keeps where it stood."""
    members = {m.name.casefold(): m for m in read_party(rid, folder)}
    for sb in statblocks:
        sb = msgspec.structs.replace(sb, kind="pc", side="party")
        old = members.get(sb.name.casefold())
        members[sb.name.casefold()] = Member(sb, old.now if old else Now())
    return write_party(rid, members.values(), folder)


def now_of(c: Combatant) -> Now:
    """Where a combatant stands, as the roster keeps it."""
    return Now(
        health=tuple(Track(p.key, p.current) for p in c.health),
        resources=tuple(Track(p.key, p.current) for p in c.resources),
        conditions=tuple(Lasting(x.name, x.level, x.note) for x in c.conditions if x.duration.kind == "manual"),
    )


def _full(m: Member, rid: str) -> Now:
    """What an empty `now` means: the statblock's maxima and no conditions."""
    kind = get_kind(rid)
    rs = get_ruleset(rid)
    stats = rs.full_stats(kind.stats(m.statblock))
    health = tuple(Track(p.key, p.current) for p in rs.health(stats))
    add = kind.add_fields(m.statblock)
    res = tuple(Track(p.key, p.current) for p in rs.resources(stats, AddCombatant(m.name, **add)))
    return Now(health, res)


def member_commands(rid: str, m: Member) -> list[Command]:
    """The AddCombatant that puts a roster PC in a fight; then restore_commands with the id the
    Added event gives brings it to where it stood."""
    if kind_of(m.statblock).ruleset != rid:
        raise LibraryError(f"{m.name} is on the {kind_of(m.statblock).ruleset} roster, not {rid}'s.")
    return [to_add(m.statblock)[0]]


def restore_commands(m: Member, cid: str) -> list[Command]:
    """After adding a roster PC as `cid`: the commands that bring it to where the roster says it
    stands (typeless damage to each track below its maximum, resources spent, lasting conditions)."""
    out: list[Command] = []
    full = _full_map(m)
    for t in m.now.health:
        gap = full.get(t.key, t.current) - t.current
        if gap > 0:
            out.append(Damage(who=cid, amount=gap, pool=t.key))
    for t in m.now.resources:
        gap = full.get(t.key, t.current) - t.current
        if gap > 0:
            out.append(SpendResource(who=cid, key=t.key, amount=gap))
    for x in m.now.conditions:
        out.append(AddCondition(who=cid, name=x.name, level=x.level, note=x.note))
    return out


def _full_map(m: Member) -> dict[str, int]:
    rid = kind_of(m.statblock).ruleset
    full = _full(m, rid)
    return {t.key: t.current for t in (*full.health, *full.resources)}


class Change(msgspec.Struct, frozen=True):
    what: str  # "health", "resource", "condition"
    key: str
    before: str
    after: str


class PcChanges(msgspec.Struct, frozen=True):
    name: str
    who: str  # the combatant id in the fight
    changes: tuple[Change, ...]
    now: Now  # where the PC stands in the fight (what write_back stores)


def _tracks(what: str, old: tuple[Track, ...], new: tuple[Track, ...]) -> list[Change]:
    before = {t.key: t.current for t in old}
    moved = [t for t in new if before.get(t.key) != t.current]
    return [Change(what, t.key, str(before.get(t.key, "")), str(t.current)) for t in moved]


def changes(rid: str, members: Iterable[Member], fight: Fight) -> tuple[PcChanges, ...]:
    """For each roster PC in the fight (a PC combatant of the same name), what differs from the roster."""
    pcs = {c.name.casefold(): c for c in fight.combatants if c.kind == "pc"}
    out = []
    for m in members:
        c = pcs.get(m.name.casefold())
        if c is None:
            continue
        was = m.now if (m.now.health or m.now.resources or m.now.conditions) else _full(m, rid)
        if not was.health and not was.resources:
            was = msgspec.structs.replace(_full(m, rid), conditions=was.conditions)
        now = now_of(c)
        diff = _tracks("health", was.health, now.health) + _tracks("resource", was.resources, now.resources)
        old_c = {x.name.casefold(): x for x in was.conditions}
        new_c = {x.name.casefold(): x for x in now.conditions}
        for k, x in new_c.items():
            if k not in old_c or old_c[k].level != x.level:
                diff.append(Change("condition", x.name, str(old_c[k].level) if k in old_c else "", str(x.level)))
        for k, x in old_c.items():
            if k not in new_c:
                diff.append(Change("condition", x.name, str(x.level), ""))
        if diff:
            out.append(PcChanges(m.name, c.id, tuple(diff), now))
    return tuple(out)


def newcomers(members: Iterable[Member], fight: Fight) -> tuple[Combatant, ...]:
    """The fight's PCs that are not on the roster (by name): made by hand, or imported elsewhere."""
    known = {m.name.casefold() for m in members}
    out: dict[str, Combatant] = {}
    for c in fight.combatants:
        if c.kind == "pc" and c.name.casefold() not in known:
            out.setdefault(c.name.casefold(), c)  # two PCs of one name: the first joins
    return tuple(out.values())


def worth_asking(rid: str, fight: Fight, folder: Path | None = None) -> bool:
    """Whether the end of a fight has anything to offer about the roster: a roster PC changed, or a PC
    of the fight is not on it yet. Without a roster nothing is asked (a GM who keeps no party is not
    asked at every fight's end; "Write the party back" in the palette offers the PCs all the same)."""
    members = read_party(rid, folder)
    return bool(members) and bool(changes(rid, members, fight) or newcomers(members, fight))


def write_back(
    rid: str,
    found: Iterable[PcChanges],
    chosen: Iterable[str] | None = None,
    folder: Path | None = None,
    join: Iterable[Combatant] = (),
) -> tuple[Member, ...]:
    """Store where the chosen PCs (by name; None = all of `found`) stand now, and put the PCs in
    `join` on the roster, each as it stands now; the old roster is returned so an undo can write it
    back with write_party. All is checked before anything is written."""
    old = read_party(rid, folder)
    pick = None if chosen is None else {n.casefold() for n in chosen}
    by_name = {p.name.casefold(): p for p in found if pick is None or p.name.casefold() in pick}
    new = [Member(m.statblock, by_name[m.name.casefold()].now) if m.name.casefold() in by_name else m for m in old]
    names = {m.name.casefold() for m in new}
    for c in join:
        if c.name.casefold() in names:
            continue  # on the roster already: its changes are the write-back's
        sb = msgspec.structs.replace(statblock_from(rid, c), kind="pc", side="party")
        now = now_of(c)
        full = _full(Member(sb), rid)
        if (now.health, now.resources) == (full.health, full.resources) and not now.conditions:
            now = Now()  # at full: the roster's empty `now`
        new.append(Member(sb, now))
        names.add(c.name.casefold())
    write_party(rid, new, folder)
    return old


# --- imports --------------------------------------------------------------------------------------


class ImportOutcome(msgspec.Struct, frozen=True):
    result: ImportResult
    library: Path | None  # where creatures went (None: none in the file)
    party: Path | None
    added: int  # new names
    replaced: int  # names already there (an import twice replaces, never duplicates)


def read_import(path: Path, rules: str = "") -> ImportResult:
    """A foreign file converted (nothing written): one-line LibraryError naming the file if it fails."""
    text = _read_text(path)
    if text is None:
        raise SaveError(path, "no such file")
    try:
        data = json.loads(text)
    except RecursionError:
        raise LibraryError(f"{path}: JSON nested too deeply to be a statblock file") from None
    except ValueError as exc:
        raise LibraryError(f"{path}: not JSON ({exc})") from None
    try:
        return run(data, rules)
    except RuleError as exc:
        raise LibraryError(f"{path}: {exc}") from None


def import_file(path: Path, rules: str = "", folder: Path | None = None) -> ImportOutcome:
    """Import a file into the user's library (creatures) and party (PCs): all or nothing."""
    result = read_import(path, rules)
    rid = result.ruleset
    old_lib = read_user(rid, folder)
    old_party = read_party(rid, folder)
    names = {sb.name.casefold() for sb in old_lib} | {m.name.casefold() for m in old_party}
    incoming = [sb.name.casefold() for sb in (*result.creatures, *result.party)]
    replaced = sum(1 for n in incoming if n in names)
    lib_path = party_file = None
    if result.creatures:
        lib_path = write_user(rid, _upsert(old_lib, result.creatures), folder)
    if result.party:
        try:
            party_file = add_to_party(rid, result.party, folder)
        except BaseException:
            if lib_path is not None:
                write_user(rid, old_lib, folder)  # put the library back: nothing half-imported
            raise
    return ImportOutcome(result, lib_path, party_file, len(incoming) - replaced, replaced)
