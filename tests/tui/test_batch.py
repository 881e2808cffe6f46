"""The one transaction boundary: Session.apply_all runs a batch through the engine once and records
it only when every command is allowed (one undo step and one journal record per command), and the
app's commit hands its batches there."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine import RuleError, new_fight
from engine import commands as C
from saves.session import Session


def _fight(session: Session) -> Session:
    session.apply(C.AddCombatant(name="Brannoc", kind="pc", side="party", stats=(("hp", 30), ("dex", 14))))
    session.apply(C.AddCombatant(name="Bandit", stats=(("hp", 11), ("dex", 12))))
    return session


def test_a_batch_is_recorded_one_undo_step_per_command(tmp_path: Path) -> None:
    s = _fight(Session.create(tmp_path / "f.fracas", new_fight("d20", "Batch", 3)))
    before = len(s.history.nodes)
    events = s.apply_all([C.Damage(who="c2", amount=3), C.Note(text="ouch")])
    assert len(events) == 2 and all(events)
    assert len(s.history.nodes) == before + 2
    assert s.state.get("c2").hp == 8
    s.undo()
    assert s.state.get("c2").hp == 8  # the note undone, the damage kept
    s.close()
    again = Session.open(tmp_path / "f.fracas")  # both records are in the journal
    assert len(again.history.nodes) == before + 2
    assert again.state.get("c2").hp == 8
    again.close()


def test_a_refused_command_records_none_of_the_batch(tmp_path: Path) -> None:
    path = tmp_path / "f.fracas"
    s = _fight(Session.create(path, new_fight("d20", "Batch", 3)))
    nodes, size = len(s.history.nodes), path.stat().st_size
    with pytest.raises(RuleError):
        s.apply_all([C.Damage(who="c2", amount=3), C.Damage(who="nobody", amount=1)])
    assert len(s.history.nodes) == nodes
    assert s.state.get("c2").hp == 11
    assert path.stat().st_size == size  # nothing written either
    s.close()


def test_the_engine_runs_once_per_command(monkeypatch: pytest.MonkeyPatch) -> None:
    import saves.session as session_module

    s = _fight(Session.memory(new_fight("d20", "Batch", 3)))
    calls: list[object] = []
    real = session_module.engine_apply

    def counting(state: object, cmd: object) -> object:
        calls.append(cmd)
        return real(state, cmd)  # type: ignore[arg-type]

    monkeypatch.setattr(session_module, "engine_apply", counting)
    s.apply_all([C.Damage(who="c2", amount=3), C.Heal(who="c2", amount=1)])
    assert len(calls) == 2
