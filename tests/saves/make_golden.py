"""Write the golden save files of the current format version into golden/v<format>/ (run once per
format version; the files are committed, and the folders of earlier versions are kept and tested).

    python tests/saves/make_golden.py [--force]

For each ruleset whose plugin names a golden script (`Plugin.golden`, e.g.
tests/saves/scripts/<id>.jsonl): a fight played live (every record appended as the app appends it), rewritten once
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

from engine import RuleError, command_union, new_fight  # noqa: E402
from engine.history import History  # noqa: E402
from engine.plugins import plugins, resource  # noqa: E402
from engine.state import Fight  # noqa: E402
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
SAVE_AS = "save-as"


def script(spec: str) -> tuple[list[Any], list[Any]]:
    """A golden-save script as its plugin names it (JSON Lines: commands by their tags, "undo",
    "redo", and one "save-as" between the part played before the save-as and the part after it)."""
    data = resource(spec)
    assert data is not None, f"no golden script at {spec}"
    dec = msgspec.json.Decoder(command_union() | str)  # type: ignore[operator]
    moves = [dec.decode(line) for line in data.splitlines() if line.strip()]
    assert all(m in (U, R, SAVE_AS) for m in moves if isinstance(m, str)), moves
    cut = moves.index(SAVE_AS)
    return moves[:cut], moves[cut + 1 :]


# ruleset id -> (first part, played live before the save-as; second part, played live after it):
# each plugin names its own script
SCRIPTS: dict[str, tuple[list[Any], list[Any]]] = {p.id: script(p.golden) for p in plugins() if p.golden}


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
