"""Exports of a saved fight: JSON (the state and the whole history, for tools) and Markdown (a readable
log of the fight as it was played, for session notes).

Text from the file is shown literally and harmlessly in both. JSON keeps every character but writes
DEL, the C1 controls, the bidi controls and U+2028/U+2029 as \\u escapes (JSON already escapes the C0
controls), so the bytes hold nothing a terminal or an editor acts on and a JSON reader gets the text
back unchanged. Markdown is for reading: control and bidi characters become U+FFFD, line breaks
spaces, and every character Markdown would read as markup is escaped."""

from __future__ import annotations

import re
from typing import Any

import msgspec

from engine import describe, get_ruleset
from engine import events as E
from engine.state import Combatant, Fight
from engine.text import json_safe, terminal_safe
from saves.session import Session

EXPORT_VERSION = 1

_MD_SPECIAL = re.compile(r"([\\`*_<>\[\]|~#!])")
# what starts a list, a heading, a quote or a thematic break at the head of a line (or of a list item)
_MD_LEADING = re.compile(r"^([0-9]{1,9})([.)])|^([-+=])")


def printable(text: str) -> str:
    """User text for one terminal line: line breaks become spaces; control characters (terminal escape
    codes: OSC 52, OSC 0, CSI, the 8-bit C1 CSI), DEL and the bidi controls become U+FFFD."""
    return terminal_safe(text)


def md(text: str) -> str:
    """User text shown literally in Markdown: no accidental emphasis, links, tables, HTML, entities,
    lists, headings or quotes; leading spaces are dropped (they would make code blocks)."""
    text = _MD_SPECIAL.sub(r"\\\1", printable(text).replace("&", "&amp;")).lstrip()
    return _MD_LEADING.sub(lambda m: f"{m[1]}\\{m[2]}" if m[1] else f"\\{m[3]}", text)


# --- JSON -------------------------------------------------------------------------------------


def export_json(session: Session) -> bytes:
    """Everything in the file: header facts, the current state, the start state and every node of
    the history tree (command, events with their log line, parent, redo link)."""
    h = session.history
    on_path = set(h.path())
    header = session.header
    nodes: list[dict[str, Any]] = []
    for i, node in enumerate(h.nodes):
        nodes.append(
            {
                "node": i,
                "parent": node.parent,
                "redo": node.redo,
                "current_line": i in on_path,
                "command": node.command,
                "events": [{"text": describe(e), "event": e} for e in node.events],
            }
        )
    doc: dict[str, Any] = {
        "fracas_export": EXPORT_VERSION,
        "file": session.path.name if session.path else None,
        "format": header.format if header else None,
        "app": header.app if header else None,
        "created": header.created if header else None,
        "ruleset": session.state.ruleset,
        "name": session.state.name,
        "cursor": h.cursor,
        "state": session.state,
        "start": h.nodes[0].state,
        "history": nodes,
    }
    return json_safe(msgspec.json.format(msgspec.json.encode(doc), indent=2)) + b"\n"


# --- Markdown ---------------------------------------------------------------------------------


def export_markdown(session: Session) -> str:
    """The fight as played (the current line of the history), round by round and turn by turn, then
    where everyone stands. Undone branches are counted, not shown."""
    h = session.history
    f = session.state
    rs = get_ruleset(f.ruleset)
    path = h.path()
    out: list[str] = [f"# {md(f.name)}", ""]
    facts = [f"{rs.title} rules"]
    if session.header is not None:
        facts.append(f"saved {session.header.created[:10]}")
    if f.started:
        facts.append(f"round {f.round}" + (" (ended)" if f.ended else ""))
    commands = len(path) - 1
    facts.append(f"{commands} command{'s' if commands != 1 else ''}")
    undone = len(h.nodes) - len(path)
    if undone:
        facts.append(f"{undone} undone (not shown)")
    out += ["*" + " · ".join(facts) + "*", ""]

    section = ""
    phase = ""  # a phase heading waits for something to happen in that phase
    taken: dict[str, int] = {}
    for i in path[1:]:
        node = h.nodes[i]
        for e in node.events:
            line = md(describe(e))
            if isinstance(e, E.RoundStarted):
                out += ["", f"## Round {e.round}", ""]
                section, phase = "round", ""
                continue
            if isinstance(e, E.FightStarted):
                out += ["", f"## {line}", ""]
                section = "start"
                continue
            if not section:
                out += ["## Setting up", ""]
                section = "setup"
            if isinstance(e, E.PhaseStarted):
                phase = line
                continue
            if phase:
                out += ["", f"### {phase}", ""]
                phase = ""
            if isinstance(e, E.TurnStarted):
                out += ["", f"**{line}**", ""]
                continue
            if isinstance(e, E.Damaged):
                taken[e.who] = taken.get(e.who, 0) + e.amount
            out.append(f"- {line}")
    out += ["", "## Where things stand", ""]
    out += _standings(f, rs.health_label, taken)
    return "\n".join(_squeeze(out)) + "\n"


def _standings(f: Fight, health: str, taken: dict[str, int]) -> list[str]:
    if not f.combatants:
        return ["Nobody is in the fight."]
    rows = ["| Combatant | Side | " + health + " | Damage taken | Conditions |", "|---|---|---|---|---|"]
    for c in f.combatants:
        rows.append(
            f"| {md(c.name)} | {c.side} | {_health(c)} | {taken.get(c.id, 0)} | {md(_conditions(c)) or '-'} |"
        )
    return rows


def _health(c: Combatant) -> str:
    parts = []
    for p in c.health:
        temp = f" +{p.temp}" if p.temp else ""
        label = f"{p.key} " if len(c.health) > 1 else ""
        parts.append(f"{label}{p.current}/{p.max}{temp}")
    return ", ".join(parts) or "-"


def _conditions(c: Combatant) -> str:
    return ", ".join(x.name + (f" {x.level}" if x.level > 1 else "") for x in c.conditions)


def _squeeze(lines: list[str]) -> list[str]:
    """No runs of blank lines, none at the start."""
    out: list[str] = []
    for line in lines:
        if not line and (not out or not out[-1]):
            continue
        out.append(line)
    while out and not out[-1]:
        out.pop()
    return out

