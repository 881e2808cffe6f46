"""Write the golden save files of the current format version into golden/v<format>/ (run once per
format version; the files are committed, and the folders of earlier versions are kept and tested).

    python tests/saves/make_golden.py [--force]

For each ruleset: a fight played live (every record appended as the app appends it), rewritten once
by save-as (so position records are in it), then played on with undo, redo, a branch, a combatant
joining and one leaving, and a checkpoint (a full state). Next to each `<rules>.fracas` goes
`<rules>.json`: what the file must read back as (every node's parent, redo link, command, events
and a digest of its state; the start and the current state in full). test_golden.py checks that
every future version still reads these files the same. Never regenerate them to make a test pass:
a failing golden test means old saves no longer load as they did; fix the reader or add an upgrade.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import tempfile
from pathlib import Path
from typing import Any

import msgspec

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))

from engine import RuleError, new_fight  # noqa: E402
from engine import commands as C  # noqa: E402
from engine.history import History  # noqa: E402
from engine.rules.cosmere.commands import ChooseSpeed, StartTurn  # noqa: E402
from engine.rules.ninephase.commands import Activity  # noqa: E402
from engine.state import Duration, Fight  # noqa: E402
from saves import format as fmt  # noqa: E402
from saves.session import Session  # noqa: E402

FORMAT_VERSION = fmt.FORMAT
GOLDEN = HERE / "golden" / f"v{FORMAT_VERSION}"


def digest(state: Fight) -> str:
    return hashlib.sha256(msgspec.json.encode(state)).hexdigest()[:16]


def expected(history: History) -> dict[str, Any]:
    return {
        "format": FORMAT_VERSION,
        "cursor": history.cursor,
        "nodes": [
            {
                "parent": n.parent,
                "redo": n.redo,
                "command": n.command,
                "events": n.events,
                "state": digest(n.state),
            }
            for n in history.nodes
        ],
        "start": history.nodes[0].state,
        "state": history.state,
    }


U, R = "undo", "redo"

# (first part, played live before the save-as; second part, played live after it)
SCRIPTS: dict[str, tuple[list[Any], list[Any]]] = {
    "d20": (
        [
            C.AddCombatant(name="Brannoc", kind="pc", side="party", stats=(("hp", 34), ("ac", 17), ("dex", 14))),
            C.AddCombatant(name="Ysolde", kind="pc", side="party", stats=(("hp", 22), ("dex", 16)),
                           flags=("caster",)),
            C.AddCombatant(name="Bandit", count=3, stats=(("hp", 11), ("ac", 12), ("dex", 12)),
                           resist=("psychic",)),
            C.StartFight(initiative=(("c1", (15,)), ("c2", (9,)), ("c3", (4,)), ("c4", (18,)), ("c5", (11,)))),
            C.UseAction(who="c4", what="action", name="Attack"),
            C.Damage(who="c1", dice="1d6+1", given=(4,), type="slashing", source="c4"),
            C.NextTurn(),
            C.Damage(who="c4", dice="1d8+3", type="slashing", source="c1"),
            C.AddCondition(who="c4", name="Prone"),
            U,
            C.AddCondition(who="c4", name="Frightened", source="c1",
                           duration=Duration(kind="turn_end", who="c4", count=1)),
            C.NextTurn(),
        ],
        [
            C.Damage(who="c5", amount=7, type="psychic"),
            C.SavingThrow(who="c5", dice="1d20", dc=13, label="Wisdom save"),
            C.NextTurn(),
            U,
            R,
            C.Heal(who="c1", dice="2d4+2"),
            C.TempHealth(who="c2", amount=5),
            C.RemoveCombatant(who="c3"),
            C.AddCombatant(name="Bandit Captain", stats=(("hp", 45), ("ac", 15), ("dex", 16))),
            C.NextTurn(),
            C.NextTurn(),
            C.NextTurn(),
            C.Roll(dice="1d20+5", who="c1", label="attack"),
            C.Note(text="The captain calls for a parley."),
            C.NextTurn(),
            C.NextTurn(),
            U,
            U,
        ],
    ),
    "cosmere": (
        [
            C.AddCombatant(name="Kaladin", kind="pc", side="party",
                           stats=(("hp", 28), ("focus", 4), ("investiture", 3), ("phy", 15))),
            C.AddCombatant(name="Shallan", kind="pc", side="party",
                           stats=(("hp", 20), ("focus", 5), ("investiture", 4), ("cog", 16))),
            C.AddCombatant(name="Parshendi Warrior", count=2, stats=(("hp", 18), ("focus", 3), ("phy", 14))),
            C.StartFight(),
            ChooseSpeed(who="c1", speed="fast"),
            ChooseSpeed(who="c2", speed="slow"),
            StartTurn(who="c1"),
            C.UseAction(who="c1", what="action", name="Strike", cost=1),
            C.Damage(who="c3", dice="1d8+2", type="keen"),
            U,
            C.Damage(who="c4", dice="1d8+2", type="keen"),
            C.SpendResource(who="c1", key="focus"),
        ],
        [
            C.NextTurn(),
            C.NextTurn(),
            C.AddCondition(who="c2", name="Slowed"),
            C.NextTurn(),
            C.NextTurn(),
            C.NextTurn(),
            U,
            R,
            C.Heal(who="c4", amount=3),
            C.RestoreResource(who="c1", key="focus"),
            C.Note(text="Storms, that was close."),
        ],
    ),
    "ninephase": (
        [
            C.AddCombatant(name="Aldric", kind="pc", side="party", stats=(("hp", 24), ("grit", 8))),
            C.AddCombatant(name="Mirelle", kind="pc", side="party", stats=(("hp", 16), ("grit", 6))),
            C.AddCombatant(name="Orc Raider", count=2, stats=(("hp", 14), ("grit", 4))),
            C.StartFight(),
            Activity(who="c1", name="Strike", cost=1),
            C.Damage(who="c3", dice="1d8", pool="grit"),
            C.NextTurn(),
            Activity(who="c2", name="Firebolt", cost=2, channel=True, lock=True, earliest=2),
            U,
            Activity(who="c2", name="Shoot", cost=1),
        ],
        [
            C.Damage(who="c4", amount=6),
            C.NextTurn(),
            Activity(who="c3", name="Strike", cost=1),
            C.Damage(who="c1", amount=5),
            C.NextTurn(),
            U,
            R,
            C.AddCondition(who="c4", name="Stunned"),
            *[C.NextTurn()] * 8,  # into round 2
            C.Damage(who="c2", dice="1d6"),
            C.Note(text="The ford runs red."),
        ],
    ),
    "warhammer": (
        [
            C.AddCombatant(name="Ulfberth", kind="pc", side="party",
                           stats=(("wounds", 14), ("ws", 48), ("ag", 35), ("i", 38), ("t", 45), ("fortune", 2))),
            C.AddCombatant(name="Thesalva", kind="pc", side="party",
                           stats=(("wounds", 11), ("ws", 42), ("ag", 50), ("i", 46), ("t", 33), ("fortune", 3))),
            C.AddCombatant(name="Goblin", count=2, stats=(("wounds", 6), ("ws", 30), ("ag", 35), ("i", 30),
                                                          ("t", 25))),
            C.StartFight(),
            C.NextTurn(),
            C.Damage(who="c3", amount=4),
            C.NextTurn(),
            U,
            C.Damage(who="c4", amount=3),
        ],
        [
            C.NextTurn(),
            C.NextTurn(),
            C.NextTurn(),
            C.NextTurn(),
            C.AddCondition(who="c1", name="Prone"),
            C.NextTurn(),
            U,
            R,
            C.Note(text="The troll stirs under the bridge."),
        ],
    ),
}


def play(session: Session, moves: list[Any]) -> None:
    for move in moves:
        if move == U:
            assert session.undo() is not None
        elif move == R:
            assert session.redo() is not None
        else:
            try:
                session.apply(move)
            except RuleError as exc:
                raise SystemExit(f"{session.state.ruleset}: {move!r} was refused: {exc}") from None


def make(rules: str, folder: Path) -> tuple[bytes, dict[str, Any]]:
    first, second = SCRIPTS[rules]
    live = Session.create(folder / "live.fracas", new_fight(rules, f"Golden {rules}", 20261130))
    play(live, first)
    target = folder / f"{rules}.fracas"
    live.save_as(target)
    play(live, second)
    live.close()
    back = Session.open(target, readonly=True)
    assert msgspec.json.encode(expected(back.history)) == msgspec.json.encode(expected(live.history))
    return target.read_bytes(), expected(live.history)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--force", action="store_true", help="replace existing golden files")
    args = p.parse_args()
    GOLDEN.mkdir(parents=True, exist_ok=True)
    fmt.CHECKPOINT_EVERY = 6  # small, so that a full state is among the records
    for rules in SCRIPTS:
        out = GOLDEN / f"{rules}.fracas"
        if out.exists() and not args.force:
            print(f"{out.name}: exists, kept (--force replaces it)")
            continue
        with tempfile.TemporaryDirectory() as tmp:
            data, exp = make(rules, Path(tmp))
        out.write_bytes(data)
        (GOLDEN / f"{rules}.json").write_bytes(msgspec.json.format(msgspec.json.encode(exp), indent=1) + b"\n")
        print(f"{out.name}: {len(data)} bytes, {len(exp['nodes']) - 1} commands")
    return 0


if __name__ == "__main__":
    sys.exit(main())
