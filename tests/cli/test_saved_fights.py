"""Saved fights from the command line (issue 14, item 10): `fracas rename`, `delete` (into the trash,
never erased) and `restore`; the demo copies, one per ruleset, apart in `fracas list`; and the names
`fracas list` prints accepted wherever a save file is (`fracas FILE`, `export`, `check`). Every
problem is one line on stderr, and a refused change leaves every file as it was."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from engine import commands as C
from engine import new_fight
from saves import journal
from saves.demo import NAMES, demo_history, start_demo
from saves.session import Session
from saves.store import DEMO_DIR, TRASH_DIR, list_demos, list_saves
from tui import cli

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "data"
    folder.mkdir()
    monkeypatch.setenv("FRACAS_DATA_DIR", str(folder))
    monkeypatch.chdir(tmp_path)  # no file of the cwd is taken for a name
    return folder


def fight(path: Path, name: str, rules: str = "d20") -> Path:
    """A save with a history worth keeping: commands, an undone branch, the cursor mid-way."""
    with Session.create(path, new_fight(rules, name, 3)) as s:
        s.apply(C.AddCombatant(name="Brannoc", kind="pc", side="party", stats=(("hp", 30),)))
        s.apply(C.AddCombatant(name="Bandit", count=2, stats=(("hp", 11),)))
        s.apply(C.Note(text="A wagon burns."))
        s.undo()
        s.apply(C.Damage(who="c2", amount=4))
        s.apply(C.Damage(who="c3", amount=2))
        s.undo()
    return path


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def one_line(err: str) -> str:
    assert err.count("\n") == 1 and err.startswith("fracas: "), err
    assert "Traceback" not in err
    return err


def files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


# --- names that fracas list prints ------------------------------------------------------------


def test_export_and_check_take_the_names_fracas_list_prints(data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fight(data / "ford.fracas", "Ambush at the Ford")
    code, out, _ = run(capsys, "list")
    assert code == 0 and "Ambush at the Ford" in out and "ford.fracas" in out
    for name in ("Ambush at the Ford", "ambush at the ford", "ford.fracas", "ford"):
        code, out, err = run(capsys, "export", name, "--json")
        assert code == 0, err
        assert json.loads(out)["state"]["name"] == "Ambush at the Ford"
    code, out, _ = run(capsys, "check", "Ambush at the Ford")
    assert code == 0 and out.startswith("ok: ")
    # a path is still a path, wherever it is
    code, out, _ = run(capsys, "export", str(data / "ford.fracas"), "--markdown")
    assert code == 0 and "Ambush at the Ford" in out


def test_an_ambiguous_or_unknown_name_is_one_line_with_the_close_matches(
    data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fight(data / "a.fracas", "Goblin Cave")
    fight(data / "b.fracas", "goblin cave")
    fight(data / "c.fracas", "The Orc Ford")
    os.utime(data / "b.fracas", (1_700_000_000, 1_700_000_000))  # a.fracas is the newest: listed first
    code, _, err = run(capsys, "export", "Goblin Cave", "--json")
    assert code == 1 and "2 saved fights have this name: a.fracas, b.fracas" in one_line(err)
    code, _, err = run(capsys, "check", "goblin")
    assert code == 1 and "close: Goblin Cave (a.fracas); goblin cave (b.fracas)" in one_line(err)
    code, _, err = run(capsys, "export", "Orc Frod", "--json")  # a typo
    assert code == 1 and "close: The Orc Ford (c.fracas)" in one_line(err)
    code, _, err = run(capsys, "check", "zzz")
    assert code == 1 and "no saved fight or file of this name" in one_line(err) and "fracas list" in err
    code, _, err = run(capsys, "check", "missing.fracas")
    assert code == 1 and "No such file" in one_line(err)


def test_fracas_name_opens_the_fight_it_names(
    data: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    fight(data / "ford.fracas", "Ambush at the Ford")
    opened: list[tuple[Path, bool]] = []
    monkeypatch.setattr(cli, "_open_file", lambda path, readonly=False: opened.append((path, readonly)) or 0)
    assert run(capsys, "ambush at the ford")[0] == 0
    assert run(capsys, "ford", "--read-only")[0] == 0
    assert opened == [(data / "ford.fracas", False), (data / "ford.fracas", True)]
    code, _, err = run(capsys, "ambush")
    assert code == 1 and "close: Ambush at the Ford (ford.fracas)" in one_line(err) and not opened[2:]


# --- rename -----------------------------------------------------------------------------------


def test_rename_renames_the_fight_everywhere_and_keeps_its_whole_history(
    data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old = fight(data / "ford.fracas", "Ambush at the Ford")
    (data / "ford.fracas.20261201-100000.bak").write_bytes(b"the file as it was")
    before = Session.open(old, readonly=True)
    code, out, err = run(capsys, "rename", "Ambush at the Ford", "Night at the Ford")
    assert code == 0, err
    assert out == "Renamed 'Ambush at the Ford' (ford.fracas) to 'Night at the Ford' (Night-at-the-Ford.fracas).\n"
    assert not old.exists()
    new = data / "Night-at-the-Ford.fracas"
    assert (data / "Night-at-the-Ford.fracas.20261201-100000.bak").read_bytes() == b"the file as it was"
    after = Session.open(new, readonly=True)
    assert not after.notices
    # every state has the new name; commands, events, branches and the cursor are as they were
    assert {n.state.name for n in after.history.nodes} == {"Night at the Ford"}
    assert after.history.cursor == before.history.cursor
    assert [(n.parent, n.command, n.events, n.redo) for n in after.history.nodes] == [
        (n.parent, n.command, n.events, n.redo) for n in before.history.nodes
    ]
    assert [n.state.combatants for n in after.history.nodes] == [n.state.combatants for n in before.history.nodes]
    # the list knows it at once (its facts are written with the new file), and a check is clean
    [info] = list_saves(data)
    assert (info.name, info.path, info.known, info.commands) == ("Night at the Ford", new, True, 3)
    assert run(capsys, "check", "night at the ford")[0] == 0
    # the same name again with another case is still this fight's: allowed, the file keeps its name
    assert run(capsys, "rename", "night-at-the-ford", "NIGHT at the Ford")[0] == 0
    assert [i.name for i in list_saves(data)] == ["NIGHT at the Ford"]
    was = files(data)
    code, out, _ = run(capsys, "rename", "night at the ford", "NIGHT at the Ford")
    assert code == 0
    assert out == "'NIGHT at the Ford' (Night-at-the-Ford.fracas) already has this name; nothing changed.\n"
    assert files(data) == was


def test_rename_refuses_a_name_another_fight_has_a_bad_name_and_a_locked_fight(
    data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fight(data / "a.fracas", "Goblin Cave")
    fight(data / "b.fracas", "The Orc Ford")
    was = files(data)
    code, _, err = run(capsys, "rename", "b", "goblin cave")
    assert code == 1 and "'goblin cave' is already the name of a.fracas; choose another name" in one_line(err)
    code, _, err = run(capsys, "rename", "b", "bad\x1b[31m")
    assert code == 1 and one_line(err)
    code, _, err = run(capsys, "rename", "b", "   ")
    assert code == 1 and "cannot be empty" in one_line(err)
    with Session.open(data / "b.fracas"):  # open in another Fracas: locked
        code, _, err = run(capsys, "rename", "The Orc Ford", "Elsewhere")
    assert code == 1 and "open in another running Fracas" in one_line(err)
    assert files(data) == was  # nothing changed by any of them


def test_rename_and_delete_only_touch_the_saves_folder(
    data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    outside = fight(tmp_path / "mine.fracas", "Mine")
    code, _, err = run(capsys, "delete", str(outside))
    assert code == 1 and "not in the saves folder" in one_line(err)
    code, _, err = run(capsys, "rename", str(outside), "Yours")
    assert code == 1 and "not in the saves folder" in one_line(err)
    assert outside.exists()


# --- delete and restore -----------------------------------------------------------------------


def test_delete_moves_the_fight_and_its_backups_to_the_trash_and_restore_brings_them_back(
    data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = fight(data / "cave.fracas", "Goblin Cave")
    backup = data / "cave.fracas.20261201-100000.bak"
    backup.write_bytes(b"older")
    leftover = data / ".cave.fracas.tmp-123-abcd"  # what an interrupted rewrite left
    leftover.write_bytes(b"partial")
    inode, content = path.stat().st_ino, path.read_bytes()
    code, out, err = run(capsys, "delete", "Goblin Cave")
    assert code == 0, err
    binned = data / TRASH_DIR / "cave.fracas"
    assert str(binned) in out and "fracas restore cave.fracas" in out
    assert not path.exists() and not backup.exists() and not leftover.exists()
    assert binned.stat().st_ino == inode and binned.read_bytes() == content  # moved, not copied and erased
    assert (data / TRASH_DIR / "cave.fracas.20261201-100000.bak").read_bytes() == b"older"
    assert (data / TRASH_DIR / ".cave.fracas.tmp-123-abcd").read_bytes() == b"partial"
    code, out, _ = run(capsys, "list")
    assert "No saved fights" in out and "1 in the trash (fracas list --trash)" in out
    code, out, _ = run(capsys, "list", "--trash")
    assert code == 0 and "Goblin Cave" in out and "cave.fracas" in out
    # a new fight of that file name meanwhile: the restored one takes the next free name
    fight(data / "cave.fracas", "Another Cave")
    code, out, err = run(capsys, "restore", "goblin cave")
    assert code == 0, err
    assert (data / "cave-2.fracas").read_bytes() == content
    assert (data / "cave-2.fracas.20261201-100000.bak").read_bytes() == b"older"
    assert sorted(i.name for i in list_saves(data)) == ["Another Cave", "Goblin Cave"]
    code, _, err = run(capsys, "restore", "goblin cave")
    assert code == 1 and "in the trash" in one_line(err) and "fracas list --trash" in err


def test_delete_refuses_a_fight_open_in_another_fracas(data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = fight(data / "cave.fracas", "Goblin Cave")
    was = files(data)
    with Session.open(path):
        code, _, err = run(capsys, "delete", "cave")
    assert code == 1 and "open in another running Fracas; close it there to delete it" in one_line(err)
    assert files(data) == was
    code, _, err = run(capsys, "delete", "nothing")
    assert code == 1 and one_line(err)


def test_the_errors_are_one_line_in_a_real_process(data: Path) -> None:
    fight(data / "a.fracas", "Goblin Cave")
    fight(data / "b.fracas", "Goblin Cave")
    env = dict(os.environ, FRACAS_DATA_DIR=str(data))
    for argv in (["Goblin Cave"], ["export", "goblin", "--json"], ["rename", "a", "Goblin Cave"], ["delete", "zz"]):
        proc = subprocess.run(
            [sys.executable, "-m", "tui.cli", *argv], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
        )
        assert proc.returncode == 1, (argv, proc.stderr)
        assert proc.stdout == "" and proc.stderr.count("\n") == 1 and proc.stderr.startswith("fracas: "), proc.stderr


# --- the demo copies --------------------------------------------------------------------------


def older_copy(data: Path, rules: str, stamp: str) -> Path:
    """A demo copy as versions before demos/ left them: one per start, in the data folder."""
    path = data / f"demo-{rules}-{stamp}.fracas"
    Session.create(path, demo_history(rules).state).close()
    return path


def test_one_demo_copy_per_ruleset_replaced_and_older_piles_tidied(
    data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    olders = [older_copy(data, "d20", f"2026110{i}-100000") for i in range(1, 4)]
    other = older_copy(data, "warhammer", "20261101-100000")
    lookalike = fight(data / "demo-d20-20261101-120000.fracas", "My own fight")  # the GM's, not a demo
    code, out, _ = run(capsys, "list")
    real, demos = out.split("Demo copies")
    assert "My own fight" in real and "Ambush on the Old Road" not in real
    assert demos.count("(older copy)") == 4
    # the first new d20 demo: its copy in demos/, the older d20 copies to the trash (not warhammer's)
    s, notes = start_demo("d20", 5)
    s.apply(C.StartFight())
    s.close()
    assert s.path == data / DEMO_DIR / "demo-d20.fracas"
    assert notes == [f"3 older copies of this demo were moved to the trash ({data / TRASH_DIR})."]
    assert not any(p.exists() for p in olders) and other.exists() and lookalike.exists()
    assert sorted(p.name for p in (data / TRASH_DIR).iterdir()) == sorted(p.name for p in olders)
    # again: the copy is replaced (one file, fresh), nothing more in the trash
    s, notes = start_demo("d20", 6)
    s.close()
    assert notes == []
    assert [p.name for p in (data / DEMO_DIR).iterdir()] == ["demo-d20.fracas"]
    assert not Session.open(s.path, readonly=True).state.started
    assert len(list((data / TRASH_DIR).iterdir())) == 3
    copies = list_demos(data)
    assert [(i.name, i.demo) for i in copies] == [(NAMES["d20"], "copy"), (NAMES["warhammer"], "older")]
    assert [i.name for i in list_saves(data)] == ["My own fight"]
    code, out, _ = run(capsys, "list")
    assert "demo-d20.fracas" in out.split("Demo copies")[1] and "2 demo copies" in out
    # the copy is a name fracas list prints, and a rename keeps it among the GM's fights
    code, out, err = run(capsys, "rename", "demo-d20.fracas", "The ambush, kept")
    assert code == 0, err
    assert not (data / DEMO_DIR / "demo-d20.fracas").exists()
    assert sorted(i.name for i in list_saves(data)) == ["My own fight", "The ambush, kept"]


def test_a_demo_copy_open_elsewhere_is_not_replaced(data: Path) -> None:
    s, _ = start_demo("cosmere", 1)  # still open, as in another Fracas
    was = s.path.read_bytes()
    try:
        with pytest.raises(Exception, match="open in another running Fracas"):
            start_demo("cosmere", 2)
    finally:
        s.close()
    assert s.path.read_bytes() == was
    start_demo("cosmere", 3)[0].close()  # once closed there, it is replaced
    assert s.path.read_bytes() != was


def test_fracas_demo_dir_puts_the_one_copy_there(tmp_path: Path) -> None:
    folder = tmp_path / "elsewhere"
    for seed in (1, 2):
        s, notes = start_demo("ninephase", seed, folder)
        s.close()
    assert [p.name for p in folder.iterdir()] == ["demo-ninephase.fracas"] and notes == []
    assert journal.read_header(folder / "demo-ninephase.fracas")[0].root.rng.seed == 2
