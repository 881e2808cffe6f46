"""The "Commands of each ruleset" section of docs/commands.md (and of the file of examples any other
ruleset's plugin names, `Plugin.examples`): every example runs, its log shows what the doc says, and
every field table matches the command it documents (names and defaults)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import msgspec
import pytest

from engine.commands import _BUILTIN, COMMAND_TYPES, GivenRoll, command_union
from engine.plugins import plugins, resource
from engine.ruleset import REGISTRY, get_ruleset
from engine.state import ActivitySpec
from tui.cli import main

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "commands.md"
EXAMPLE = re.compile(
    r"<!-- rules-example: rules=(\w+) seed=(\d+) -->\n(?:`[^`\n]*`\n)?\n?```jsonl\n(.*?)```\s*```text\n(.*?)```",
    re.S,
)
MARKER = re.compile(r"<!-- rules-example: ")
HEADING = re.compile(r"^#### `(\w+)`", re.M)
ROW = re.compile(r"^\| `(\w+)` \| [^|]+ \| ([^|]+) \| [^|]+ \|$", re.M)

command_union()  # importing the rulesets registers their commands
NESTED: dict[str, type[msgspec.Struct]] = {"GivenRoll": GivenRoll, "ActivitySpec": ActivitySpec}
BY_TAG = {cls.__struct_config__.tag: cls for cls in COMMAND_TYPES}


def _one_section(text: str) -> str:
    start = text.index("## Commands of each ruleset")
    end = text.find("\n## ", start + 1)
    return text[start : end if end >= 0 else len(text)]


def _section() -> str:
    """The section of every file of examples the plugins name (docs/commands.md once), one after another."""
    specs = dict.fromkeys(p.examples for p in plugins() if p.examples)
    texts = [resource(spec) for spec in specs]
    assert all(t is not None for t in texts), "a plugin names an examples file that is not there"
    assert DOC.read_bytes() in texts
    return "\n".join(_one_section(t.decode("utf-8")) for t in texts if t is not None)


def _examples() -> list[tuple[str, int, str, str]]:
    return [(r, int(s), script, log) for r, s, script, log in EXAMPLE.findall(_section())]


def _ruleset_commands() -> dict[str, list[str]]:
    """Ruleset id -> the tags of the commands it handles beyond the generic ones."""
    get_ruleset("d20")  # fills the registry
    out: dict[str, list[str]] = {}
    for rid, rs in REGISTRY.items():
        tags = [c.__struct_config__.tag for c in rs.handlers() if c not in _BUILTIN]
        out[rid] = sorted(str(t) for t in tags)
    return out


def test_every_marked_example_is_well_formed() -> None:
    # a marker whose blocks the pattern cannot read would otherwise go untested
    assert len(MARKER.findall(_section())) == len(_examples()) > 0
    for rules, _seed, script, log in _examples():
        assert rules in REGISTRY, rules
        cmds = [json.loads(line)["cmd"] for line in script.splitlines() if line.strip()]
        assert cmds[0] == "add" and "start" in cmds, script
        assert [line for line in log.splitlines() if line.strip()], f"no log lines shown for:\n{script}"


@pytest.mark.parametrize("rules,seed,script,log", _examples(), ids=lambda x: str(x)[:40])
def test_rules_example_runs_and_logs_what_the_doc_shows(
    rules: str, seed: int, script: str, log: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / f"{rules}.jsonl"
    path.write_text(script)
    code = main(["script", str(path), "--rules", rules, "--seed", str(seed), "--log"])
    out = capsys.readouterr()
    assert code == 0, out.err
    printed = [line.strip() for line in out.out.splitlines()]
    # the lines shown must appear, in the order shown
    at = 0
    for want in (line.strip() for line in log.splitlines() if line.strip()):
        assert want in printed[at:], f"not in the log (after line {at}): {want!r}\n{out.out}"
        at = printed.index(want, at) + 1


def test_every_ruleset_command_has_a_field_table_and_an_example() -> None:
    section = _section()
    documented = set(HEADING.findall(section))
    examples = _examples()
    for rid, tags in _ruleset_commands().items():
        for tag in tags:
            assert tag in documented, f"{rid}: no '#### `{tag}`' table in docs/commands.md"
            used = [s for r, _, s, _ in examples if r == rid and f'"cmd":"{tag}"' in s]
            assert used, f"{rid}: no example uses {tag}"


def test_generic_fields_added_for_rulesets_have_examples() -> None:
    scripts = {r: "\n".join(s for rr, _, s, _ in _examples() if rr == r) for r in REGISTRY}
    assert '"cmd":"start"' in scripts["d20"] and '"rolls":[{' in scripts["d20"]
    assert re.search(r'"cmd":"next","rolls":\[\{', scripts["d20"])
    assert re.search(r'"cmd":"take_turn"[^\n]*"rolls":\[\{', scripts["cosmere"])
    assert re.search(r'"cmd":"condition"[^\n]*"dc":', scripts["d20"])
    assert re.search(r'"cmd":"activity"[^\n]*"repeatable":true', scripts["ninephase"])


def _tables(section: str) -> dict[str, list[tuple[str, str]]]:
    """Heading name -> the (field, default cell) rows of the first table under it."""
    out: dict[str, list[tuple[str, str]]] = {}
    heads = list(HEADING.finditer(section))
    for i, h in enumerate(heads):
        end = heads[i + 1].start() if i + 1 < len(heads) else len(section)
        body = section[h.end() : end]
        table = body.split("\n\n| field")[1] if "\n\n| field" in body else ""
        table = table.split("\n\n")[0]
        out[h.group(1)] = [(m.group(1), m.group(2).strip()) for m in ROW.finditer(table)]
    return out


def _default_cell(field: msgspec.inspect.Field) -> str:
    if field.required:
        return "required"
    value = field.default if field.default is not msgspec.NODEFAULT else field.default_factory()
    return "`" + msgspec.json.encode(value).decode() + "`"


def test_field_tables_match_the_commands_they_document() -> None:
    tables = _tables(_section())
    assert tables
    for name, rows in tables.items():
        cls = NESTED.get(name) or BY_TAG.get(name)
        assert cls is not None, f"'#### `{name}`' names no command or object"
        info = msgspec.inspect.type_info(cls)
        assert isinstance(info, msgspec.inspect.StructType)
        expected = [(f.name, _default_cell(f)) for f in info.fields]
        assert rows == expected, f"{name}: the table says {rows}, the code has {expected}"
