"""The script vocabulary's library words through `fracas script` (issue 13, item 7): `add` takes
`from` with `count`, an attack takes `weapon` naming one of the attacker's statblock attacks."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli.script_support import ScriptRun, refused, run_script


def test_add_from_the_library_and_attack_with_a_statblock_weapon(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FRACAS_DATA_DIR", str(tmp_path / "data"))
    cmds = [
        {"cmd": "add", "name": "Ayla", "kind": "pc", "side": "party", "stats": [["hp", 20], ["ac", 15]]},
        {"cmd": "add", "from": "Goblin", "count": 4},
        {"cmd": "start"},
        {"cmd": "d20_attack", "who": "c4", "target": "c1", "weapon": "Jagged Knife", "use": "none"},
    ]
    r = run_script(tmp_path, capsys, cmds, "d20", 7, ScriptRun)
    assert r.code == 0, r.err
    names = [c["name"] for c in r.summary["combatants"].values()]
    assert names == ["Ayla", "Goblin 1", "Goblin 2", "Goblin 3", "Goblin 4"]
    attack = " ".join(r.at(4))
    assert "Goblin 3" in attack and "Ayla" in attack and ("+4" in attack or "hits" in attack or "misses" in attack)


def test_an_unknown_library_name_or_weapon_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FRACAS_DATA_DIR", str(tmp_path / "data"))
    r = run_script(tmp_path, capsys, [{"cmd": "add", "from": "No Such Beast"}], "d20", 7, ScriptRun)
    refused(r, 1, "No Such Beast")
    cmds = [
        {"cmd": "add", "name": "Ayla", "kind": "pc", "side": "party", "stats": [["hp", 20]]},
        {"cmd": "add", "from": "Goblin"},
        {"cmd": "start"},
        {"cmd": "d20_attack", "who": "c2", "target": "c1", "weapon": "Laser Sword", "use": "none"},
    ]
    refused(run_script(tmp_path, capsys, cmds, "d20", 7, ScriptRun), 4, "Laser Sword")
