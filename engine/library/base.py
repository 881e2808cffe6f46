"""Statblocks: a creature's stats, defenses, health and attacks as data, one struct type per ruleset.

A ruleset's statblock is a frozen msgspec struct (tagged by the ruleset id under `rules`, so one could
join a saved union later) plus a `StatblockKind` that knows how it becomes the engine's commands:
`AddCombatant` for the fight, and the fields of the ruleset's own attack command for each attack.
Kinds are registered by ruleset id (`register_kind`); a ruleset living elsewhere registers its own.

Pure: no file I/O here. A ruleset's starter bestiary is a resource its plugin names, read with
pkgutil.get_data (engine.plugins.resource; the first use of importlib.resources costs start-up about
10 ms); the user's library on disk lives in
saves/library.py.
"""

import re
import tomllib
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, ClassVar, Literal

import msgspec
from msgspec.structs import replace

from engine.commands import AddCombatant, Command
from engine.core import apply, new_fight
from engine.dice import Rng, parse, roll
from engine.errors import RuleError
from engine.events import Event
from engine.library.abilities import Ability, Trait, check_ability, check_counts, check_trait, pools
from engine.limits import LINE, NAME, STATBLOCK, TEXT, WORD
from engine.plugins import get_plugin, resource
from engine.ruleset import get_ruleset
from engine.state import Combatant, Kind, Pool, Side
from engine.text import check_line, check_multiline, name_key, normal_name, shown

HpMode = Literal["fixed", "rolled"]
HP_MODES: tuple[str, ...] = ("fixed", "rolled")
MAX_COUNT = 50  # the engine adds at most 50 at once
MAX_ENTRIES = 20_000  # a bestiary larger than this is not a bestiary
MAX_ATTACKS = 100  # attacks (weapons, activities) of one statblock
# a statblock's name leaves room for the number the engine gives each copy ("Goblin 12"; a fight
# holds at most 500 combatants)
MAX_NAME = NAME - 4


class LibraryError(RuleError):
    """A bad statblock or bestiary: one line naming the file (or source) and the entry."""


class Statblock(
    msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True, forbid_unknown_fields=True, tag_field="rules"
):
    """What every ruleset's statblock has. `type` is what the GM searches by besides the name
    ("humanoid", "beast", "undead"); `source` says where the entry came from (a file it was
    imported from), shown by `library show`."""

    name: str
    type: str = ""
    kind: Kind = "npc"
    side: Side = "enemy"
    flags: tuple[str, ...] = ()
    note: str = ""
    source: str = ""
    immune: tuple[str, ...] = ()  # damage types it takes no damage from
    condition_immune: tuple[str, ...] = ()  # conditions it cannot be given
    traits: tuple[Trait, ...] = ()
    actions: tuple[Ability, ...] = ()  # abilities besides its weapon attacks (engine.library.abilities)


class StatblockKind(ABC):
    """How one ruleset's statblocks turn into engine commands. Subclass once per ruleset."""

    ruleset: ClassVar[str] = ""
    struct: ClassVar[type[Statblock]] = Statblock
    health_field: ClassVar[str] = "hp"  # the statblock field that holds the health number
    dice_field: ClassVar[str] = "hp_dice"  # the field that holds its dice ("2d6+2"); "" = none
    health_key: ClassVar[str] = "hp"  # the stats key the ruleset reads health from
    # what an ability's `save` may name (d20 abilities, Cosmere defenses, Warhammer characteristics)
    # and its `act` (when it is used); None: any one word
    save_words: ClassVar[tuple[str, ...] | None] = None
    act_words: ClassVar[tuple[str, ...] | None] = None

    @abstractmethod
    def stats(self, sb: Any) -> tuple[tuple[str, int], ...]:
        """The AddCombatant stats tuple, in the ruleset's keys (health given as `health`)."""

    def add_fields(self, sb: Any) -> dict[str, Any]:
        """AddCombatant fields besides name, count and stats (resist, vulnerable, flags, note)."""
        note = "\n".join(x for x in (sb.note, *self.note_lines(sb)) if x)
        fields: dict[str, Any] = {"kind": sb.kind, "side": sb.side, "flags": tuple(sb.flags), "note": note}
        if sb.immune:
            fields["immune"] = tuple(sb.immune)
        if sb.condition_immune:
            fields["condition_immune"] = tuple(sb.condition_immune)
        resources = self.resources(sb)
        if resources:
            fields["resources"] = resources
        return fields

    def resources(self, sb: Any) -> tuple[Pool, ...]:
        """The limited abilities it joins a fight with (recharges, uses), as the engine's pools."""
        return pools(sb.actions)

    def abilities(self, sb: Any) -> tuple[Ability, ...]:
        """Every ability it can use at the table, in the order the dialog offers them."""
        return tuple(sb.actions)

    def note_lines(self, sb: Any) -> tuple[str, ...]:
        """What the statblock says that the engine has no field for, shown to the GM after its note."""
        return ()

    @abstractmethod
    def attacks(self, sb: Any) -> tuple[Any, ...]:
        """The statblock's attacks (activities in nine-phase), in the order the dialog offers them."""

    @abstractmethod
    def attack_command(self, sb: Any) -> type[Command]:
        """The engine command an attack of this statblock fills in."""

    @abstractmethod
    def attack_fields(self, sb: Any, attack: Any) -> dict[str, Any]:
        """The values of the attack command's fields this attack gives (never who or target)."""

    @abstractmethod
    def attack_label(self, sb: Any, attack: Any) -> str:
        """One line for a pick list: "Scimitar +4, 1d6+2 slashing"."""

    def follow_up(self, sb: Any, attack: str, events: Iterable[Event]) -> list[Command]:
        """What a script line's statblock attack `attack` deals after its command was applied and
        gave `events`, as commands of their own (a d20 bite's fire damage after a hit): none here."""
        return []

    @abstractmethod
    def from_combatant(self, c: Combatant) -> Statblock:
        """A statblock holding what a combatant's stats say (no attacks: the engine keeps none)."""

    def check(self, sb: Any) -> None:
        """Rules the struct's types cannot say (dice that parse, one-line names); raises RuleError."""
        return None  # a kind whose struct says it all checks nothing more

    def health(self, sb: Any) -> int:
        return int(getattr(sb, self.health_field))

    def health_dice(self, sb: Any) -> str:
        return str(getattr(sb, self.dice_field, "")) if self.dice_field else ""


KINDS: dict[str, StatblockKind] = {}


def register_kind(kind: StatblockKind) -> StatblockKind:
    """Make `kind` the statblock kind of its ruleset (the ruleset must be registered already)."""
    get_ruleset(kind.ruleset)
    known = KINDS.get(kind.ruleset)
    if known is not None and type(known) is not type(kind):
        raise ValueError(f"Ruleset {kind.ruleset!r} already has the statblock kind {type(known).__name__}.")
    KINDS[kind.ruleset] = kind
    return kind


def get_kind(rid: str) -> StatblockKind:
    try:
        return KINDS[rid]
    except KeyError:
        known = ", ".join(sorted(KINDS)) or "none"
        raise LibraryError(f"No statblocks for the ruleset {shown(rid)} (rulesets with statblocks: {known}).") from None


def kind_of(sb: Statblock) -> StatblockKind:
    for kind in KINDS.values():
        if type(sb) is kind.struct:
            return kind
    raise LibraryError(f"{type(sb).__name__} is not a registered statblock type.")


def kind_ids() -> tuple[str, ...]:
    return tuple(KINDS)


# --- checks shared by the kinds ------------------------------------------------------------------


def check_name(text: str, what: str = "name", limit: int = NAME) -> str:
    if not text.strip():
        raise RuleError(f"A {what} cannot be empty.")
    return check_line(text, what, limit)


def check_word(text: str, what: str) -> str:
    return check_line(text, what, WORD)


def check_dice(text: str, what: str) -> str:
    """A dice expression the engine can roll ("" allowed: no dice)."""
    if text:
        check_line(text, what, LINE)
        try:
            parse(text)
        except RuleError as exc:
            raise RuleError(f"{what} {shown(text)}: {exc}") from None
    return text


def check_common(sb: Statblock) -> None:
    check_name(sb.name, limit=MAX_NAME)
    if sb.name != normal_name(sb.name):
        raise RuleError(f"name {shown(sb.name)}: spaces at either end or invisible characters")
    check_line(sb.type, "type", NAME)
    check_line(sb.source, "source", LINE)
    check_multiline(sb.note, "note", TEXT)
    if len(sb.flags) > 50:
        raise RuleError("At most 50 flags.")
    for flag in sb.flags:
        if not flag.strip():
            raise RuleError("A flag cannot be empty.")
        check_word(flag, "flag")


def validate(sb: Statblock) -> Statblock:
    """The statblock if a fight would take it: names, dice, and the AddCombatant it becomes applied
    to an empty fight (the ruleset's bounds for every stat among what that checks). One set of limits
    for every way in (a library file, the roster, an import, a combatant saved), so whatever is
    accepted can be added."""
    kind = kind_of(sb)
    n = len(kind.attacks(sb))
    if n > MAX_ATTACKS:  # before anything is encoded: 50,000 of them is a hostile file, not a creature
        raise RuleError(f"attacks: {n}, at most {MAX_ATTACKS}")
    check_counts(sb.traits, kind.abilities(sb))
    try:
        # a statblock built in code (an importer, from_combatant) skips the struct's own bounds:
        # checked here the way a file entry is, so whatever is written reads back
        msgspec.convert(msgspec.to_builtins(sb), type(sb))
    except msgspec.ValidationError as exc:
        raise RuleError(" ".join(str(exc).split())) from None
    check_common(sb)
    kind.check(sb)
    _check_health_dice(sb, kind)
    for attack in kind.attacks(sb):
        check_name(attack.name, "attack name")
    _check_abilities(sb, kind)
    _check_addable(sb)
    return sb


def _check_abilities(sb: Statblock, kind: StatblockKind) -> None:
    """Traits and abilities (spells among them): names, texts, saves and acts in the ruleset's words,
    a Multiattack making the statblock's own attacks and abilities, no two abilities of one name."""
    for t in sb.traits:
        check_trait(t)
    abilities = kind.abilities(sb)
    names = [a.name for a in kind.attacks(sb)] + [a.name for a in abilities]
    seen: set[str] = set()
    for a in abilities:
        check_ability(a, kind.save_words, kind.act_words, names)
        if a.name.casefold() in seen:
            raise RuleError(f"two abilities called {shown(a.name)}")
        seen.add(a.name.casefold())


def _check_health_dice(sb: Statblock, kind: StatblockKind) -> None:
    """Dice that parse, and whose highest roll is a health the ruleset takes (999d999 is not)."""
    dice = check_dice(kind.health_dice(sb), "health dice")
    if not dice:
        return
    top = parse(dice).maximum()
    try:
        get_ruleset(kind.ruleset).full_stats(kind.stats(replace(sb, **{kind.health_field: max(top, 1)})))
    except RuleError as exc:
        raise RuleError(f"health dice {shown(dice)} can roll {top}: {exc}") from None


def _check_addable(sb: Statblock) -> None:
    """The AddCombatant, applied to an empty fight of the ruleset: whatever the fight refuses (a stat
    out of the ruleset's bounds, a note grown too long with the statblock's lines, a statblock too
    big to carry) is refused here rather than at the table. Copies only add a number to the name,
    which MAX_NAME leaves room for."""
    rid = kind_of(sb).ruleset
    fight = _EMPTY.get(rid)
    if fight is None:
        fight = _EMPTY[rid] = new_fight(rid, "statblock check", 1)
    cmd = to_add(sb)[0]
    if len(cmd.statblock) > STATBLOCK:
        raise RuleError(f"the whole statblock is {len(cmd.statblock)} characters as JSON, at most {STATBLOCK}")
    if len(cmd.note) > TEXT:
        raise RuleError(f"note: {len(cmd.note)} characters with the lines the statblock adds, at most {TEXT}")
    apply(fight, cmd)


_EMPTY: dict[str, Any] = {}


# --- reading and writing entries -----------------------------------------------------------------


def decode_entry(rid: str, data: object) -> Statblock:
    """One entry (a TOML table, a dict) as the ruleset's statblock, validated; RuleError if not."""
    kind = get_kind(rid)
    if isinstance(data, Mapping) and data.get("rules", rid) != rid:
        raise RuleError(f"it is a {shown(data.get('rules'))} statblock, not a {rid} one")
    if isinstance(data, Mapping) and isinstance(data.get("name"), str):
        data = {**data, "name": normal_name(data["name"])}  # as typed on any keyboard: one form
    try:
        sb = msgspec.convert(data, kind.struct)
    except msgspec.ValidationError as exc:
        raise RuleError(" ".join(str(exc).split())) from None
    return validate(sb)


def entry_label(i: int, data: object) -> str:
    name = data.get("name") if isinstance(data, Mapping) else None
    return f"entry {i + 1}" + (f" ({shown(name)})" if isinstance(name, str) and name else "")


def decode_entries(rid: str, entries: object, source: str) -> tuple[Statblock, ...]:
    """A bestiary's entries, every one validated: LibraryError naming the source and the entry."""
    if not isinstance(entries, Sequence) or isinstance(entries, str | bytes):
        raise LibraryError(f"{source}: expected a list of creatures ([[creature]] tables)")
    if len(entries) > MAX_ENTRIES:
        raise LibraryError(f"{source}: more than {MAX_ENTRIES} entries")
    out = []
    seen: set[str] = set()
    for i, data in enumerate(entries):
        try:
            sb = decode_entry(rid, data)
        except RuleError as exc:
            raise LibraryError(f"{source}: {entry_label(i, data)}: {exc}") from None
        key = sb.name.casefold()
        if key in seen:
            raise LibraryError(f"{source}: {entry_label(i, data)}: a second entry of that name")
        seen.add(key)
        out.append(sb)
    return tuple(out)


def usable_entries(
    rid: str, entries: object, source: str, decode: Callable[[str, object], Any] | None = None, limit: int = 0
) -> tuple[tuple[Any, ...], str]:
    """What a user's file holds that can be used, and one line saying what was left out ("" when
    nothing was): each entry that does not decode, a second entry of a name, and whatever lies past
    `limit` (0: MAX_ENTRIES). A damaged entry then costs the GM that entry, not the whole file. `decode` turns one
    entry into its value (a statblock by default; the roster's members); names are compared by
    engine.text.name_key."""
    if not isinstance(entries, Sequence) or isinstance(entries, str | bytes):
        return (), f"{source}: expected a list of tables; nothing read"
    decode = decode or decode_entry
    limit = limit or MAX_ENTRIES
    out: list[Any] = []
    bad: list[str] = []
    seen: set[str] = set()
    for i, data in enumerate(entries[:limit]):
        try:
            value = decode(rid, data)
        except RuleError as exc:
            bad.append(f"{entry_label(i, data)}: {exc}")
            continue
        key = name_key(value.name)
        if key in seen:
            bad.append(f"{entry_label(i, data)}: a second entry of that name")
            continue
        seen.add(key)
        out.append(value)
    parts = []
    if bad:
        more = "; ..." if len(bad) > 1 else ""
        parts.append(f"{len(bad)} {'entry' if len(bad) == 1 else 'entries'} left out ({bad[0]}{more})")
    if len(entries) > limit:
        parts.append(f"{len(entries) - limit} entries past the first {limit:,} left out")
    return tuple(out), (f"{source}: " + "; ".join(parts)) if parts else ""


def load_toml(text: str, source: str) -> dict[str, Any]:
    """A TOML document, or a one-line LibraryError (bad TOML, nesting too deep for the parser)."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise LibraryError(f"{source}: not valid TOML: {' '.join(str(exc).split())}") from None
    except RecursionError:
        raise LibraryError(f"{source}: nested too deeply to be a bestiary or a roster") from None
    except ValueError as exc:  # tomllib's own refusals beyond the grammar (an integer of 5,000 digits)
        raise LibraryError(f"{source}: not readable TOML: {' '.join(str(exc).split())[:120]}") from None


def parse_toml(rid: str, text: str, source: str) -> tuple[Statblock, ...]:
    """A bestiary file's text: `[[creature]]` tables of the ruleset's statblock fields."""
    doc = load_toml(text, source)
    unknown = sorted(set(doc) - {"creature", "rules"})
    if unknown:
        raise LibraryError(f"{source}: unknown top-level key {shown(unknown[0])} (expected [[creature]] tables)")
    if doc.get("rules", rid) != rid:
        raise LibraryError(f"{source}: this bestiary is for {shown(doc.get('rules'))}, not {rid}")
    return decode_entries(rid, doc.get("creature", []), source)


def to_table(sb: Statblock) -> dict[str, Any]:
    """A statblock as a TOML table (defaults left out, no ruleset tag: the file names the ruleset)."""
    data = msgspec.to_builtins(sb)
    data.pop("rules", None)
    return _no_none(data)


def _no_none(value: Any) -> Any:
    # TOML has no null: a None is a default left out
    if isinstance(value, dict):
        return {k: _no_none(v) for k, v in value.items() if v is not None}
    if isinstance(value, list | tuple):
        return [_no_none(v) for v in value]
    return value


def toml_document(rid: str, statblocks: Iterable[Statblock]) -> dict[str, Any]:
    """What `tomli_w.dumps` writes for a bestiary file."""
    return {"rules": rid, "creature": [to_table(sb) for sb in statblocks]}


_STARTER: dict[str, tuple[Statblock, ...]] = {}


def starter(rid: str) -> tuple[Statblock, ...]:
    """The starter bestiary its plugin brings for a ruleset (empty when there is none), read once."""
    hit = _STARTER.get(rid)
    if hit is not None:
        return hit
    get_kind(rid)
    plugin = get_plugin(rid)
    data = resource(plugin.bestiary) if plugin is not None else None
    text = data.decode("utf-8") if data else ""
    entries = parse_toml(rid, text, f"starter bestiary {rid}.toml") if text else ()
    _STARTER[rid] = entries
    return entries


# --- into the fight --------------------------------------------------------------------------------


def roll_health(sb: Statblock, rng: Rng) -> tuple[int, Rng]:
    """Health rolled from the statblock's dice (at least 1), or its number when it has no dice."""
    kind = kind_of(sb)
    dice = kind.health_dice(sb)
    if not dice:
        return kind.health(sb), rng
    r, rng = roll(dice, rng)
    return max(1, r.total), rng


def to_add(
    sb: Statblock,
    count: int = 1,
    hp_mode: HpMode = "fixed",
    rng: Rng | None = None,
) -> tuple[AddCombatant, Rng]:
    """The one AddCombatant that puts `count` copies of `sb` in a fight (the engine numbers them
    "Goblin 1", "Goblin 2", ... after any Goblins already there), and the random source after any
    health rolls. Every copy keeps the statblock (as `statblock_json`).

    fixed: every copy has the statblock's number. rolled: each copy's health is rolled from the dice
    (at least 1) and carried in `copies`, so "Goblin x4" is still one command and one undo step.
    Pass an `rng` the fight does not reuse (its dice are not the fight's: the rolled values go into
    the command, so a replayed journal gets the same numbers)."""
    kind = kind_of(sb)
    if not 1 <= count <= MAX_COUNT:
        raise RuleError(f"Add between 1 and {MAX_COUNT} combatants at once.")
    if hp_mode not in HP_MODES:
        raise RuleError(f"Health is 'fixed' or 'rolled', not {shown(hp_mode)}.")
    rng = rng if rng is not None else Rng()
    fields = kind.add_fields(sb)
    cmd = AddCombatant(name=sb.name, stats=kind.stats(sb), count=count, statblock=statblock_json(sb), **fields)
    if hp_mode == "fixed" or not kind.health_dice(sb):
        return cmd, rng
    copies = []
    for _ in range(count):
        value, rng = roll_health(sb, rng)
        copies.append(((kind.health_key, value),))
    return replace(cmd, copies=tuple(copies)), rng


def statblock_json(sb: Statblock) -> str:
    """The statblock as the JSON a combatant keeps (tagged with its ruleset)."""
    return msgspec.json.encode(sb).decode()


_DECODED: dict[tuple[str, str], Statblock | None] = {}


def statblock_from_json(rid: str, text: str) -> Statblock | None:
    """A combatant's kept statblock, or None when it has none or it no longer reads (a file edited
    by hand, a field dropped since): the app then offers no attacks rather than failing. Cached: the
    attack dialog asks for it on every open."""
    if not text:
        return None
    key = (rid, text)
    if key in _DECODED:
        return _DECODED[key]
    try:
        sb: Statblock | None = validate(msgspec.json.decode(text, type=get_kind(rid).struct))
    except (msgspec.DecodeError, msgspec.ValidationError, RuleError):
        sb = None
    if len(_DECODED) > 1000:
        _DECODED.clear()  # a long session of many distinct creatures: start over rather than grow
    _DECODED[key] = sb
    return sb


def statblock_of(rid: str, c: Combatant) -> Statblock | None:
    """The statblock a combatant was added from (None if it was typed by hand)."""
    return statblock_from_json(rid, c.statblock)


def attacks(sb: Statblock) -> tuple[Any, ...]:
    return kind_of(sb).attacks(sb)


def find_attack(sb: Statblock, name: str) -> Any:
    """The statblock's attack of that name (case-insensitive), or a RuleError listing them."""
    low = name.strip().casefold()
    options = attacks(sb)
    for a in options:
        if a.name.casefold() == low:
            return a
    names = ", ".join(a.name for a in options) or "none"
    raise RuleError(f"{sb.name} has no attack {shown(name)} (its attacks: {names}).")


def attack_fields(sb: Statblock, attack: Any) -> dict[str, Any]:
    """The attack command's field values for this attack (the app adds who and target)."""
    return kind_of(sb).attack_fields(sb, attack)


def attack_command(sb: Statblock) -> type[Command]:
    return kind_of(sb).attack_command(sb)


def attack_label(sb: Statblock, attack: Any) -> str:
    return kind_of(sb).attack_label(sb, attack)


def from_combatant(rid: str, c: Combatant) -> Statblock:
    """A statblock from a combatant's stats (for "save to library"), validated."""
    return validate(get_kind(rid).from_combatant(c))


_DIE = re.compile(r"(\d*)d(\d+)")


def doubled(dice: str) -> str:
    """A critical's dice: each die term's count doubled ("1d6+2" -> "2d6+2"), the flat part kept."""
    return _DIE.sub(lambda m: f"{2 * int(m.group(1) or 1)}d{m.group(2)}", dice)


def signed(n: int) -> str:
    return f"{n:+d}"
