"""`fracas library ...` and `fracas party ...`: the library and party roster from the command line.

tui/cli.py wires it with `library_cli.add_parsers(sub)` beside its own subcommands and, in main,
`if args.command in library_cli.COMMANDS: return library_cli.run(args)`. Everything printed goes
through engine.text.terminal_safe; every failure is one line on stderr and exit status 1 (2 for
usage errors, as argparse does).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, TextIO

import msgspec

from engine import library as L
from engine.errors import RuleError
from engine.library.abilities import ability_label
from engine.text import name_key, terminal_safe
from saves import library as S
from saves.errors import SaveError

COMMANDS = ("library", "party")


def add_parsers(sub: Any) -> None:
    """Add `library` and `party` to an argparse subparsers object."""
    lib = sub.add_parser("library", help="the bestiary: import, list and show statblocks")
    lsub = lib.add_subparsers(dest="library_command", required=True)
    imp = lsub.add_parser("import", help="import Improved Initiative, 5e SRD API or Foundry JSON")
    imp.add_argument("file", type=Path)
    imp.add_argument("--rules", default="", help="refuse the file unless it is for this ruleset")
    lst = lsub.add_parser("list", help="the library's statblocks (starter and yours)")
    lst.add_argument("--rules", default="", help="one ruleset (default: all)")
    lst.add_argument("--json", action="store_true")
    show = lsub.add_parser("show", help="one statblock with its attacks")
    show.add_argument("name")
    show.add_argument("--rules", required=True)
    show.add_argument("--json", action="store_true")
    for p in (imp, lst, show):
        p.add_argument("--dir", type=Path, default=None, help="the data folder (default: FRACAS_DATA_DIR)")

    party = sub.add_parser("party", help="the party roster: list, show, import")
    psub = party.add_subparsers(dest="party_command", required=True)
    pl = psub.add_parser("list", help="the party's player characters")
    pl.add_argument("--rules", default="")
    pl.add_argument("--json", action="store_true")
    ps = psub.add_parser("show", help="one PC: statblock and where it stands")
    ps.add_argument("name")
    ps.add_argument("--rules", default="", help="the ruleset (needed only when the name is in several parties)")
    ps.add_argument("--json", action="store_true")
    pi = psub.add_parser("import", help="import PCs (Improved Initiative players, Foundry characters)")
    pi.add_argument("file", type=Path)
    pi.add_argument("--rules", default="")
    for p in (pl, ps, pi):
        p.add_argument("--dir", type=Path, default=None, help="the data folder (default: FRACAS_DATA_DIR)")


def _say(out: TextIO, text: str) -> None:
    for line in text.splitlines() or [""]:
        out.write(terminal_safe(line) + "\n")


def _rules(value: str) -> tuple[str, ...]:
    if not value:
        return L.kind_ids()
    if value not in L.kind_ids():
        known = ", ".join(L.kind_ids())
        raise RuleError(f"No ruleset {value!r} with a library (known: {known}).")
    return (value,)


def _json(data: Any) -> str:
    return json.dumps(data, ensure_ascii=True, indent=2)


def _plain(v: Any) -> str:
    """A table value as a GM reads it: "str 14, dex 15", "embers 3", "fire, cold"."""
    if isinstance(v, dict):
        return ", ".join(f"{k} {_plain(x)}" for k, x in v.items())
    if isinstance(v, list):
        return ", ".join(" ".join(str(x) for x in i.values()) if isinstance(i, dict) else _plain(i) for i in v)
    return str(v)


def _whole(value: msgspec.Struct) -> bool:
    """Fields that are numbers with numbers as defaults (one may be unset: Warhammer's Initiative):
    a set of scores, not optional extras such as d20's save bonuses (all unset by default)."""
    defaults = [f.default for f in msgspec.structs.fields(value)]
    ints = sum(type(d) is int for d in defaults)
    return ints > 0 and ints + defaults.count(None) == len(defaults) and ints * 2 > len(defaults)


# the fields shown in lines of their own rather than as "key: value"
_OWN_LINES = ("name", "type", "attacks", "weapons", "activities", "note", "traits", "actions", "spellcasting",
              "speeds", "skills", "immune", "condition_immune", "speed")


def _show(sb: L.Statblock) -> list[str]:
    """The whole statblock: its numbers, speeds, skills, immunities, attacks, traits with their text,
    abilities and spells with their labels and text, and its note."""
    lines = [f"{sb.name}" + (f" ({sb.type})" if sb.type else "")]
    table = L.to_table(sb)
    for f in msgspec.structs.fields(sb):
        value = getattr(sb, f.name)
        if isinstance(value, msgspec.Struct) and _whole(value):
            # a set of scores read as a whole (abilities, characteristics): those left at their
            # default are shown too ("wis 10"), else a GM reads them as missing
            table[f.name] = {k: v for k, v in msgspec.structs.asdict(value).items() if v is not None}
    lines += _speed_lines(sb)
    for key in _OWN_LINES:
        table.pop(key, None)
    lines += [f"  {k}: {_plain(v)}" for k, v in table.items()]
    if getattr(sb, "skills", ()):
        lines.append("  skills: " + ", ".join(f"{x.name} {x.bonus:+d}" for x in sb.skills))
    if sb.immune:
        lines.append("  immune to damage: " + ", ".join(sb.immune))
    if sb.condition_immune:
        lines.append("  immune to conditions: " + ", ".join(sb.condition_immune))
    lines += [f"  attack: {L.attack_label(sb, a)}" for a in L.attacks(sb)]
    for t in sb.traits:
        lines.append(f"  trait: {t.name}")
        lines += _indented(t.text)
    for a in sb.actions:
        lines.append(f"  ability: {ability_label(a)}")
        lines += _indented(a.text)
    lines += _spell_lines(getattr(sb, "spellcasting", None))
    if sb.note:
        lines += [f"  note: {x}" for x in sb.note.splitlines()]
    return lines


def _speed_lines(sb: L.Statblock) -> list[str]:
    """Walking and every other speed on one line ("speed: 0 ft., swim 40 ft."); none for a ruleset
    whose statblock has no speed."""
    if not hasattr(sb, "speed"):
        return []
    others = [f"{x.kind} {x.feet} ft." + (" (hover)" if x.hover else "") for x in getattr(sb, "speeds", ())]
    return ["  speed: " + ", ".join([f"{sb.speed} ft.", *others])]


def _spell_lines(sc: Any) -> list[str]:
    if sc is None:
        return []
    head = [sc.ability, f"spell save DC {sc.dc}" if sc.dc else "", f"{sc.bonus:+d} to hit" if sc.bonus else ""]
    slots = ", ".join(f"level {i} x{n}" for i, n in enumerate(sc.slots, start=1) if n)
    lines = ["  spellcasting: " + ", ".join(x for x in head if x) + (f"; slots {slots}" if slots else "")]
    for s in sc.spells:
        lines.append(f"  spell: {ability_label(s)}")
        lines += _indented(s.text)
    return lines


def _indented(text: str) -> list[str]:
    return [f"    {x}" for x in text.splitlines() if x.strip()]


def run(args: argparse.Namespace, out: TextIO | None = None, err: TextIO | None = None) -> int:
    """Run a parsed `library` or `party` command; the exit status."""
    out = out or sys.stdout
    err = err or sys.stderr
    try:
        if args.command == "library":
            return _library(args, out, err)
        return _party(args, out, err)
    except (RuleError, SaveError) as exc:
        _say(err, f"fracas: {' '.join(str(exc).split())}")
        return 1


def _library(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    folder = args.dir
    if args.library_command == "import":
        done = S.import_file(args.file, args.rules, folder)
        r = done.result
        for line in r.report:
            _say(out, line)
        where = ", ".join(str(p) for p in (done.library, done.party) if p)
        _say(out, f"{r.format} ({r.ruleset}): {len(r.creatures)} creatures, {len(r.party)} PCs; "
             f"{done.added} new, {done.replaced} replaced; written to {where or 'nothing'}")
        return 0
    if args.library_command == "list":
        rows = []
        for rid in _rules(args.rules):
            entries, problem = S.load_usable(rid, folder)
            if problem:  # what the GM's file holds that could not be used: one line, the rest listed
                _say(err, f"fracas: {problem}")
            rows += [(rid, e) for e in entries]
        if args.json:
            _say(out, _json([{"rules": rid, "name": e.name, "type": e.statblock.type, "origin": e.origin}
                             for rid, e in rows]))
        else:
            for rid, e in rows:
                mark = "" if e.origin == "starter" else f" [{e.origin}]"
                _say(out, f"{rid:<10} {e.name}" + (f" ({e.statblock.type})" if e.statblock.type else "") + mark)
        return 0
    rid = _rules(args.rules)[0]
    entry = S.find(rid, args.name, folder)
    if args.json:
        _say(out, _json({"rules": rid, "origin": entry.origin, **L.to_table(entry.statblock)}))
    else:
        for line in _show(entry.statblock):
            _say(out, line)
    return 0


def _party(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    folder = args.dir
    if args.party_command == "import":
        done = S.import_file(args.file, args.rules, folder)
        for line in done.result.report:
            _say(out, line)
        _say(out, f"{len(done.result.party)} PCs to the party, {len(done.result.creatures)} creatures to the library")
        return 0
    if args.party_command == "list":
        return _party_list(args, out, err)
    return _party_show(args, out)


def _party_list(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    rows = []
    problems = 0
    for rid in _rules(args.rules):
        members, problem = S.read_party_usable(rid, args.dir)
        if problem:  # what the roster holds that could not be used: one line, the rest listed
            _say(err, f"fracas: {problem}")
            problems += 1
        rows += [(rid, m) for m in members]
    if args.json:
        _say(out, _json([{"rules": rid, "name": m.name} for rid, m in rows]))
        return 0
    for rid, m in rows:
        _say(out, f"{rid:<10} {m.name}")
    if not rows and not problems:
        _say(out, "No party yet: fracas party import FILE")
    return 0


def _party_member(name: str, rules: str, folder: Path | None) -> tuple[str, S.Member]:
    """The PC of that name: in the party of `rules`, or without it in whichever party holds it (a
    name in several needs --rules, said in one line)."""
    low = name_key(name)
    found: list[tuple[str, S.Member]] = []
    problems: list[str] = []
    for rid in _rules(rules):
        members, problem = S.read_party_usable(rid, folder)
        if problem:
            problems.append(problem)
        found += [(rid, m) for m in members if name_key(m.name) == low]
    if len(found) > 1:
        rulesets = ", ".join(rid for rid, _ in found)
        raise RuleError(f"{name!r} is in the {rulesets} parties: say which with --rules ({rulesets})")
    if not found:
        where = f"the {rules} party" if rules else "any party"
        if rules and problems:
            raise RuleError(problems[0])
        raise RuleError(f"No PC called {name!r} in {where}." + (f" ({problems[0]})" if problems else ""))
    return found[0]


def _party_show(args: argparse.Namespace, out: TextIO) -> int:
    rid, member = _party_member(args.name, args.rules, args.dir)
    if args.json:
        _say(out, _json({"rules": rid, **L.to_table(member.statblock), "now": msgspec.to_builtins(member.now)}))
        return 0
    for line in _show(member.statblock):
        _say(out, line)
    n = member.now
    for t in (*n.health, *n.resources):
        _say(out, f"  now {t.key}: {t.current}")
    for c in n.conditions:
        _say(out, f"  lasting: {c.name}" + (f" {c.level}" if c.level != 1 else ""))
    return 0
