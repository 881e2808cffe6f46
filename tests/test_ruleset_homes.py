"""No ruleset id is named outside its homes: in engine/ only in engine/rules/<id>/ and its statblock
kind engine/library/<id>.py, in tui/ only in tui/rulesets/<id>/, and nowhere in saves/. Everything
else learns the rulesets from their plugins (engine/plugins.py), so adding one edits no other file."""

from __future__ import annotations

import re
from pathlib import Path

from engine.plugins import plugins

ROOT = Path(__file__).resolve().parents[1]
BUNDLED = ("cosmere", "d20", "ninephase", "warhammer")  # even if a plugin failed to load
# the lines that name "d20" for the twenty-sided die, not the ruleset
THE_DIE = {'dice: str = "d20"', 'roll_dice = "d20"  # what the roll dialog starts with'}
# importers of other programs' files make one ruleset's statblocks, and name it (docs/library.md);
# they are the library's, next to the kinds they build on
IMPORTERS = {
    "engine/library/importers/srd.py": {"d20"},
    "engine/library/importers/improved_initiative.py": {"d20"},
    "engine/library/importers/foundry.py": {"cosmere", "warhammer"},
}


def _homes(rid: str) -> tuple[Path, ...]:
    return (ROOT / "engine" / "rules" / rid, ROOT / "engine" / "library" / f"{rid}.py", ROOT / "tui" / "rulesets" / rid)


def test_no_ruleset_id_outside_its_homes() -> None:
    ids = sorted({*BUNDLED, *(p.id for p in plugins())})
    pattern = re.compile(rf"""["']({"|".join(map(re.escape, ids))})["']""")
    found = []
    for top in ("engine", "saves", "tui"):
        for path in sorted((ROOT / top).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                for m in pattern.finditer(line):
                    rid = m[1]
                    home = any(path == h or h in path.parents for h in _homes(rid))
                    if home or line.strip() in THE_DIE or rid in IMPORTERS.get(rel, ()):
                        continue
                    found.append(f"{rel}:{n}: {line.strip()}")
    assert not found, "a ruleset id outside its homes:\n" + "\n".join(found)


def test_the_walk_finds_what_it_looks_for() -> None:
    # the pattern catches an id where it would be wrong (so the test above cannot pass by not looking)
    ids = "|".join(BUNDLED)
    assert re.search(rf"""["']({ids})["']""", 'DEMO_NAMES = {"d20": "Ambush"}')
    assert all((ROOT / "engine" / "rules" / rid).is_dir() for rid in BUNDLED)
