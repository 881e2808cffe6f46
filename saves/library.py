"""The user's library and the party roster on disk (TOML in the data folder), and imports into them.

<data folder>/library/<ruleset>.toml  the user's own statblocks; merged over the starter bestiary
                                      (user entries win by name)
<data folder>/party/<ruleset>.toml    the party: player characters that outlive fights, each with
                                      where it stands now (health, resources, lasting conditions)

Every write is whole-file and atomic (temporary file, fsync, rename: saves.journal.replace_file), so
a failure leaves the old file as it was. Errors are one line naming the file (and the entry).
"""

import contextlib
import json
import os
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Annotated, Any

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

import msgspec
import tomli_w

from engine.commands import AddCombatant, AddCondition, Command, Damage, SpendResource
from engine.core import apply, new_fight
from engine.errors import RuleError
from engine.events import Added
from engine.history import History
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
from engine.library.base import MAX_ENTRIES, entry_label, load_toml, to_table, usable_entries
from engine.library.importers import ImportResult, run
from engine.ruleset import get_ruleset
from engine.state import Combatant, Fight
from engine.text import name_key, shown
from saves import files, journal
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
    """The file's text (None: no file). Only a regular file of at most MAX_FILE bytes is read: a FIFO
    never blocks, a link to /dev/zero never fills memory (saves.files)."""
    return files.read_text(path, MAX_FILE)


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    """Another Fracas's read-change-write of the same folder's files (an import, a write-back, a
    statblock saved) waits for this one's, so neither writes over what the other just wrote."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path.parent / ".lock", os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o644)
    except OSError as exc:
        raise SaveError(path.parent, f"cannot create the folder's lock: {exc.strerror or exc}") from None
    try:
        _wait_for_lock(fd, path)
        yield
    finally:
        os.close(fd)


def _wait_for_lock(fd: int, path: Path, seconds: float = 10.0) -> None:
    if fcntl is None:  # pragma: no cover - no flock (Windows): one writer is the GM's own habit
        return
    end = time.monotonic() + seconds
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            if time.monotonic() > end:
                raise SaveError(path, "another Fracas has been writing here for 10 s; try again") from None
            time.sleep(0.02)
        except OSError:
            return  # a file system without locks: work unlocked, as the saves do


def _encode(path: Path, doc: dict[str, Any]) -> bytes:
    data = tomli_w.dumps(doc).encode("utf-8")
    if len(data) > MAX_FILE:  # it could not be read back: refused before anything is written
        raise SaveError(path, f"would be {len(data):,} bytes, more than {files.size_text(MAX_FILE)}; nothing written")
    return data


def _put(path: Path, data: bytes) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise SaveError(path.parent, f"cannot create the folder: {exc.strerror or exc}") from None
    journal.replace_file(path, [data])


# --- the user's library ---------------------------------------------------------------------------


def read_user(rid: str, folder: Path | None = None) -> tuple[Statblock, ...]:
    """The user's own statblocks for a ruleset (none when the file does not exist yet), every entry of
    them: what a write starts from, so one that cannot be read whole refuses (LibraryError) rather
    than write over what it could not read."""
    path = library_path(rid, folder)
    text = _read_text(path)
    return parse_toml(rid, text, str(path)) if text is not None else ()


def read_user_usable(rid: str, folder: Path | None = None) -> tuple[tuple[Statblock, ...], str]:
    """The user's statblocks that can be used, and one line saying what was left out ("" if nothing):
    a damaged entry, or a file over a limit, costs what it holds that cannot be read, never the rest
    (nor the bundled bestiary)."""
    path = library_path(rid, folder)
    try:
        st = os.stat(path)
        key = (str(path), st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)
    except OSError:
        key = None
    hit = _USABLE.get(rid)
    if key is not None and hit is not None and hit[0] == key:
        return hit[1]  # the add dialog opens often; a big library is read once per change
    found = _user_usable(rid, path)
    if key is not None:
        _USABLE[rid] = (key, found)
    return found


_USABLE: dict[str, tuple[tuple[Any, ...], tuple[tuple[Statblock, ...], str]]] = {}


def _user_usable(rid: str, path: Path) -> tuple[tuple[Statblock, ...], str]:
    try:
        text = _read_text(path)
        if text is None:
            return (), ""
        doc = load_toml(text, str(path))
    except (SaveError, LibraryError) as exc:
        return (), f"{exc} (only the bundled bestiary is offered)"
    if doc.get("rules", rid) != rid:
        return (), f"{path}: this bestiary is for {shown(doc.get('rules'))}, not {rid}; not read"
    entries, problem = usable_entries(rid, doc.get("creature", []), str(path))
    unknown = sorted(set(doc) - {"creature", "rules"})
    if unknown:  # read_user refuses the file for it: say so now, not at the next save
        more = f"unknown top-level key {shown(unknown[0])} (expected [[creature]] tables)"
        problem = f"{problem}; {more}" if problem else f"{path}: {more}"
    return entries, problem


def write_user(rid: str, statblocks: Iterable[Statblock], folder: Path | None = None) -> Path:
    path = library_path(rid, folder)
    _put(path, _user_bytes(path, rid, list(statblocks)))
    return path


def _user_bytes(path: Path, rid: str, statblocks: list[Statblock]) -> bytes:
    if len(statblocks) > MAX_ENTRIES:
        many = f"{len(statblocks):,}"
        raise LibraryError(f"{path}: would hold {many} statblocks, at most {MAX_ENTRIES:,}; nothing written")
    return _encode(path, toml_document(rid, statblocks))


def merged(starter_entries: Iterable[Statblock], user: Iterable[Statblock]) -> list[Entry]:
    """Starter and user statblocks as one library: a user entry replaces the starter one of its name."""
    out: dict[str, Entry] = {name_key(sb.name): Entry(sb, "starter") for sb in starter_entries}
    for sb in user:
        out[name_key(sb.name)] = Entry(sb, "user")
    return sorted(out.values(), key=lambda e: e.name_key)


def load(rid: str, folder: Path | None = None) -> list[Entry]:
    """The library the add dialog searches (engine.library.search over it): the starter bestiary and
    what the user's file holds that can be used (load_usable says what was left out)."""
    return load_usable(rid, folder)[0]


def load_usable(rid: str, folder: Path | None = None) -> tuple[list[Entry], str]:
    """The library, and one line saying what of the user's file was left out ("" if nothing)."""
    user, problem = read_user_usable(rid, folder)
    return merged(starter(rid), user), problem


def find(rid: str, name: str, folder: Path | None = None) -> Entry:
    """The entry of that name (case-insensitive), or a one-line LibraryError."""
    low = name_key(name)
    for e in load(rid, folder):
        if name_key(e.statblock.name) == low:
            return e
    raise LibraryError(f"No {rid} statblock called {shown(name)} in the library.")


def _upsert(old: Iterable[Statblock], new: Iterable[Statblock]) -> list[Statblock]:
    """`old` with `new` merged in by name: same name replaces (so an import twice adds nothing)."""
    out = {name_key(sb.name): sb for sb in old}
    for sb in new:
        out[name_key(sb.name)] = sb
    return list(out.values())


def save_statblocks(rid: str, statblocks: Iterable[Statblock], folder: Path | None = None) -> Path:
    """Add or replace (by name) statblocks in the user's library."""
    with _locked(library_path(rid, folder)):
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

    health: Annotated[tuple[Track, ...], msgspec.Meta(max_length=20)] = ()
    resources: Annotated[tuple[Track, ...], msgspec.Meta(max_length=50)] = ()
    conditions: Annotated[tuple[Lasting, ...], msgspec.Meta(max_length=100)] = ()


class Member(msgspec.Struct, frozen=True):
    statblock: Statblock
    now: Now = Now()

    @property
    def name(self) -> str:
        return self.statblock.name


MAX_PARTY = 200  # PCs on one ruleset's roster


def _member(rid: str, data: object) -> Member:
    """One [[pc]] table as a roster member, checked as it would join a fight (RuleError if not)."""
    if not isinstance(data, dict):
        raise RuleError("not a table")
    data = dict(data)
    try:
        now = msgspec.convert(data.pop("now", {}), Now)
    except msgspec.ValidationError as exc:
        raise RuleError(f"now: {' '.join(str(exc).split())}") from None
    m = Member(decode_entry(rid, data), now)
    _check_joins(rid, m)
    return m


def _check_joins(rid: str, m: Member) -> None:
    """The commands that bring the PC into a fight where the roster says it stands, applied to an
    empty fight: a level 99999 Exhaustion or an escape code in a condition is refused on reading,
    naming the field, never when the GM adds the party at the table."""
    fight = new_fight(rid, "roster check", 1)
    add = member_commands(rid, m)[0]
    fight, events = apply(fight, add)
    cid = next(e.who for e in events if isinstance(e, Added))
    for cmd in restore_commands(m, cid):
        try:
            fight, _ = apply(fight, cmd)
        except RuleError as exc:
            what = f"now.conditions ({shown(cmd.name)})" if isinstance(cmd, AddCondition) else "now"
            raise RuleError(f"{what}: {exc}") from None


def _roster_doc(rid: str, folder: Path | None) -> tuple[Path, object]:
    """The roster file's [[pc]] list (None: no file); LibraryError/SaveError for a file that cannot be read."""
    path = party_path(rid, folder)
    text = _read_text(path)
    if text is None:
        return path, None
    doc = load_toml(text, str(path))
    if doc.get("rules", rid) != rid:
        raise LibraryError(f"{path}: this roster is for {shown(doc.get('rules'))}, not {rid}")
    return path, doc.get("pc", [])


def read_party(rid: str, folder: Path | None = None) -> tuple[Member, ...]:
    """Every PC of the roster: what a write starts from, so a file that cannot be read whole refuses
    (LibraryError) rather than be written over."""
    path, pcs = _roster_doc(rid, folder)
    if pcs is None:
        return ()
    if not isinstance(pcs, list):
        raise LibraryError(f"{path}: expected [[pc]] tables")
    if len(pcs) > MAX_PARTY:
        raise LibraryError(f"{path}: {len(pcs)} PCs, at most {MAX_PARTY}")
    out = []
    seen: set[str] = set()
    for i, data in enumerate(pcs):
        try:
            m = _member(rid, data)
        except RuleError as exc:
            raise LibraryError(f"{path}: {entry_label(i, data)}: {' '.join(str(exc).split())}") from None
        if name_key(m.name) in seen:
            raise LibraryError(f"{path}: {entry_label(i, data)}: a second PC of that name")
        seen.add(name_key(m.name))
        out.append(m)
    return tuple(out)


def read_party_usable(rid: str, folder: Path | None = None) -> tuple[tuple[Member, ...], str]:
    """The roster's PCs that can join a fight, and one line saying what was left out ("" if nothing)."""
    try:
        path, pcs = _roster_doc(rid, folder)
    except (SaveError, LibraryError) as exc:
        return (), str(exc)
    if pcs is None:
        return (), ""
    return usable_entries(rid, pcs, str(path), _member, MAX_PARTY)


def write_party(rid: str, members: Iterable[Member], folder: Path | None = None) -> Path:
    path = party_path(rid, folder)
    _put(path, _party_bytes(path, rid, list(members)))
    return path


def _party_bytes(path: Path, rid: str, members: list[Member]) -> bytes:
    if len(members) > MAX_PARTY:
        raise LibraryError(f"{path}: would hold {len(members)} PCs, at most {MAX_PARTY}; nothing written")
    pcs = []
    for m in members:
        table = to_table(m.statblock)
        now = msgspec.to_builtins(m.now)
        if now:
            table["now"] = now
        pcs.append(table)
    return _encode(path, {"rules": rid, "pc": pcs})


def add_to_party(rid: str, statblocks: Iterable[Statblock], folder: Path | None = None) -> Path:
    """Add or replace (by name) PCs in the roster; a replaced PC keeps where it stood."""
    with _locked(party_path(rid, folder)):
        return write_party(rid, _party_with(rid, read_party(rid, folder), statblocks), folder)


def _party_with(rid: str, members: Iterable[Member], statblocks: Iterable[Statblock]) -> list[Member]:
    by_name = {name_key(m.name): m for m in members}
    for sb in statblocks:
        sb = msgspec.structs.replace(sb, kind="pc", side="party")
        old = by_name.get(name_key(sb.name))
        m = Member(sb, old.now if old else Now())
        _check_joins(rid, m)
        by_name[name_key(sb.name)] = m
    return list(by_name.values())


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
    before: str  # where the fight started from
    after: str  # where it stands now
    roster: str | None = None  # what the roster holds now, when it changed since the fight began


class PcChanges(msgspec.Struct, frozen=True):
    name: str
    who: str  # the combatant id in the fight
    changes: tuple[Change, ...]
    now: Now  # where the PC stands in the fight (its conditions are what write_back stores)


class WriteBack(msgspec.Struct, frozen=True):
    """What one write-back wrote: for each PC touched, the roster's member before (None: it joined
    the roster) and after, as read back. undo_write_back puts the befores back only while the
    roster still holds the afters."""

    rid: str
    entries: tuple[tuple[Member | None, Member], ...]


def joined(history: History) -> dict[str, Now]:
    """Where each PC of the fight (by combatant id) stood once it joined: the state after the command
    that added it and the roster's restore commands right after it (damage taken to a named track,
    resources spent, lasting conditions: what restore_commands makes). This, not the roster as it
    is now, is what the fight's changes are measured from: another fight may have written the roster
    back since this one began."""
    path = []
    i = history.cursor
    while i >= 0:
        path.append(i)
        i = history.nodes[i].parent
    out: dict[str, Now] = {}
    pending = ""  # the PC just added, whose restore commands may follow
    for idx in reversed(path[:-1]):
        node = history.nodes[idx]
        if pending and _restores(node.command, pending):
            out[pending] = now_of(node.state.get(pending))
            continue
        pending = ""
        for e in node.events:
            c = node.state.find(e.who) if isinstance(e, Added) else None
            if c is not None and c.kind == "pc":
                out.setdefault(c.id, now_of(c))
                pending = c.id
    return out


def _restores(cmd: Command | None, cid: str) -> bool:
    """Whether `cmd` is one restore_commands makes for `cid` (the app's own damage names no track
    unless the GM picks one, and its conditions have a source or a duration)."""
    if isinstance(cmd, Damage):
        plain = cmd.amount is not None and not (cmd.dice or cmd.given or cmd.type or cmd.source)
        return cmd.who == cid and plain and bool(cmd.pool)
    if isinstance(cmd, SpendResource):
        return cmd.who == cid
    if isinstance(cmd, AddCondition):
        return cmd.who == cid and cmd == AddCondition(who=cid, name=cmd.name, level=cmd.level, note=cmd.note)
    return False


def _filled(m: Member, rid: str) -> Now:
    """The member's `now` with every track in it: an empty one means the statblock's full values."""
    full = _full(m, rid)
    health = {t.key: t.current for t in full.health} | {t.key: t.current for t in m.now.health}
    res = {t.key: t.current for t in full.resources} | {t.key: t.current for t in m.now.resources}
    return Now(_as_tracks(health), _as_tracks(res), m.now.conditions)


def _as_tracks(values: dict[str, int]) -> tuple[Track, ...]:
    return tuple(Track(k, v) for k, v in values.items())


def _tracks(what: str, old: tuple[Track, ...], new: tuple[Track, ...], roster: tuple[Track, ...]) -> list[Change]:
    before = {t.key: t.current for t in old}
    held = {t.key: t.current for t in roster}
    out = []
    for t in new:
        if before.get(t.key) != t.current:
            was, has = before.get(t.key, ""), held.get(t.key, "")
            out.append(Change(what, t.key, str(was), str(t.current), str(has) if has != was else None))
    return out


def _condition_changes(was: Now, now: Now, roster: Now) -> list[Change]:
    old_c = {name_key(x.name): x for x in was.conditions}
    new_c = {name_key(x.name): x for x in now.conditions}
    held = {name_key(x.name): str(x.level) for x in roster.conditions}
    out = []
    for k, x in new_c.items():
        if k not in old_c or old_c[k].level != x.level:
            before = str(old_c[k].level) if k in old_c else ""
            out.append(Change("condition", x.name, before, str(x.level), _differs(held.get(k, ""), before)))
    for k, x in old_c.items():
        if k not in new_c:
            out.append(Change("condition", x.name, str(x.level), "", _differs(held.get(k, ""), str(x.level))))
    return out


def _differs(held: str, before: str) -> str | None:
    return held if held != before else None


def changes(
    rid: str, members: Iterable[Member], fight: Fight, start: dict[str, Now] | None = None
) -> tuple[PcChanges, ...]:
    """For each roster PC in the fight (a PC combatant of the same name), what this fight changed:
    measured from where it joined (`start`, from `joined`; without it, from the roster as it is).
    Each change says what the roster holds now when that differs from where the fight started."""
    pcs = {name_key(c.name): c for c in fight.combatants if c.kind == "pc"}
    out = []
    for m in members:
        c = pcs.get(name_key(m.name))
        if c is None:
            continue
        roster = _filled(m, rid)
        was = (start or {}).get(c.id, roster)
        now = now_of(c)
        diff = _tracks("health", was.health, now.health, roster.health)
        diff += _tracks("resource", was.resources, now.resources, roster.resources)
        diff += _condition_changes(was, now, roster)
        if diff:
            out.append(PcChanges(m.name, c.id, tuple(diff), now))
    return tuple(out)


def newcomers(members: Iterable[Member], fight: Fight) -> tuple[Combatant, ...]:
    """The fight's PCs that are not on the roster (by name): made by hand, or imported elsewhere."""
    known = {name_key(m.name) for m in members}
    out: dict[str, Combatant] = {}
    for c in fight.combatants:
        if c.kind == "pc" and name_key(c.name) not in known:
            out.setdefault(name_key(c.name), c)  # two PCs of one name: the first joins
    return tuple(out.values())


def worth_asking(rid: str, fight: Fight, folder: Path | None = None, start: dict[str, Now] | None = None) -> bool:
    """Whether the end of a fight has anything to offer about the roster: a roster PC changed, or a PC
    of the fight is not on it yet. Without a roster nothing is asked (a GM who keeps no party is not
    asked at every fight's end; "Write the party back" in the palette offers the PCs all the same)."""
    members = read_party(rid, folder)
    return bool(members) and bool(changes(rid, members, fight, start) or newcomers(members, fight))


def _applied(rid: str, m: Member, pc: PcChanges) -> Member:
    """The roster's member with this fight's changes made, and nothing else: a value the fight did
    not change stays as the roster has it, however new."""
    cur = _filled(m, rid)
    health = {t.key: t.current for t in cur.health}
    res = {t.key: t.current for t in cur.resources}
    conds = {name_key(x.name): x for x in cur.conditions}
    fight_conds = {name_key(x.name): x for x in pc.now.conditions}
    for ch in pc.changes:
        if ch.what == "health":
            health[ch.key] = int(ch.after)
        elif ch.what == "resource":
            res[ch.key] = int(ch.after)
        elif ch.after:
            conds[name_key(ch.key)] = fight_conds[name_key(ch.key)]
        else:
            conds.pop(name_key(ch.key), None)
    return Member(m.statblock, Now(_as_tracks(health), _as_tracks(res), tuple(conds.values())))


def write_back(
    rid: str,
    found: Iterable[PcChanges],
    chosen: Iterable[str] | None = None,
    folder: Path | None = None,
    join: Iterable[Combatant] = (),
) -> WriteBack:
    """Make the chosen PCs' changes (by name; None = all of `found`) on the roster as it is now, and
    put the PCs in `join` on it, each as it stands; what was written is returned for
    undo_write_back. Only what the fight changed is written: PCs added to the roster since, and
    values another fight wrote back meanwhile, stay. All is checked before anything is written."""
    pick = None if chosen is None else {name_key(n) for n in chosen}
    by_name = {name_key(p.name): p for p in found if pick is None or name_key(p.name) in pick}
    with _locked(party_path(rid, folder)):
        old = read_party(rid, folder)
        new = [_applied(rid, m, by_name[name_key(m.name)]) if name_key(m.name) in by_name else m for m in old]
        touched = {name_key(m.name) for m in old} & set(by_name)
        names = {name_key(m.name) for m in new}
        for c in join:
            if name_key(c.name) in names:
                continue  # on the roster already: its changes are the write-back's
            new.append(_newcomer(rid, c))
            names.add(name_key(c.name))
            touched.add(name_key(c.name))
        write_party(rid, new, folder)
        before = {name_key(m.name): m for m in old}
        after = read_party(rid, folder)
    return WriteBack(rid, tuple((before.get(name_key(m.name)), m) for m in after if name_key(m.name) in touched))


def _newcomer(rid: str, c: Combatant) -> Member:
    sb = msgspec.structs.replace(statblock_from(rid, c), kind="pc", side="party")
    now = now_of(c)
    full = _full(Member(sb), rid)
    if (now.health, now.resources) == (full.health, full.resources) and not now.conditions:
        now = Now()  # at full: the roster's empty `now`
    m = Member(sb, now)
    _check_joins(rid, m)
    return m


def undo_write_back(done: WriteBack, folder: Path | None = None) -> None:
    """Put back what one write-back changed, and only that, while the roster still holds what it
    wrote; otherwise a one-line LibraryError and nothing is changed (another fight's write-back or
    an import came after it)."""
    rid = done.rid
    with _locked(party_path(rid, folder)):
        cur = read_party(rid, folder)
        by_name = {name_key(m.name): m for m in cur}
        for _, after in done.entries:
            if by_name.get(name_key(after.name)) != after:
                raise LibraryError(
                    f"Not undone: {after.name} changed on the roster since the write-back (another fight or an "
                    "import); the roster is left as it is."
                )
        back = {name_key(after.name): before for before, after in done.entries}
        new = []
        for m in cur:
            k = name_key(m.name)
            if k not in back:
                new.append(m)
            elif back[k] is not None:
                new.append(back[k])
        write_party(rid, new, folder)


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
    if isinstance(data, list) and len(data) > MAX_ENTRIES:  # before converting any of them
        many = f"{len(data):,}"
        raise LibraryError(f"{path}: {many} entries, more than a library holds ({MAX_ENTRIES:,}); nothing imported")
    try:
        return run(data, rules)
    except RuleError as exc:
        raise LibraryError(f"{path}: {exc}") from None


def import_file(path: Path, rules: str = "", folder: Path | None = None) -> ImportOutcome:
    """Import a file into the user's library (creatures) and party (PCs): all or nothing. Every
    limit (entries, file sizes, each entry addable) is checked before anything is written, and the
    library and roster that are there must read whole: an import never writes over entries it could
    not read."""
    result = read_import(path, rules)
    rid = result.ruleset
    lib_path, party_file = library_path(rid, folder), party_path(rid, folder)
    with _locked(lib_path), _locked(party_file):
        old_lib = read_user(rid, folder) if result.creatures else ()
        old_party = read_party(rid, folder) if result.party else ()
        names = {name_key(sb.name) for sb in old_lib} | {name_key(m.name) for m in old_party}
        incoming = [name_key(sb.name) for sb in (*result.creatures, *result.party)]
        replaced = sum(1 for n in incoming if n in names)
        lib_data = _user_bytes(lib_path, rid, _upsert(old_lib, result.creatures)) if result.creatures else None
        party_data = _party_bytes(party_file, rid, _party_with(rid, old_party, result.party)) if result.party else None
        lib_before = _read_text(lib_path) if lib_data is not None else None
        if lib_data is not None:
            _put(lib_path, lib_data)
        if party_data is not None:
            try:
                _put(party_file, party_data)
            except BaseException:
                if lib_data is not None:  # put the library back as it was: nothing half-imported
                    _put(lib_path, lib_before.encode()) if lib_before is not None else lib_path.unlink()
                raise
    return ImportOutcome(
        result,
        lib_path if lib_data is not None else None,
        party_file if party_data is not None else None,
        len(incoming) - replaced,
        replaced,
    )
