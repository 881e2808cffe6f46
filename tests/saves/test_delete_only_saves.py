"""`fracas delete` and `restore` move Fracas saves only (issue 22, item 10): `fracas delete notes.txt`
used to move any file of the data folder into the trash, where it became `notes.fracas`, and
`restore` gave back `notes.fracas`. A file that is not a `.fracas` save with a Fracas header frame, a
link, a folder, a FIFO (never opened), a file outside the data folder, a non-save in the trash: each
is refused in one line, and nothing moves. A save with a torn tail is still a save."""

from __future__ import annotations

import argparse
import os
import stat
import subprocess
import sys
from pathlib import Path

import msgspec
import pytest

from engine import commands as C
from engine import new_fight
from engine.state import Fight
from saves import cli
from saves import format as fmt
from saves.session import Session
from saves.store import TRASH_DIR, restore, trash

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "data"
    folder.mkdir()
    monkeypatch.setenv("FRACAS_DATA_DIR", str(folder))
    monkeypatch.setenv("FRACAS_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.chdir(tmp_path)  # no file of the cwd is taken for a name
    return folder


def fight(path: Path, name: str = "Goblin Cave") -> Path:
    with Session.create(path, new_fight("d20", name, 3)) as s:
        s.apply(C.AddCombatant(name="Brannoc", kind="pc", side="party", stats=(("hp", 30),)))
        s.apply(C.Note(text="A wagon burns."))
    return path


def tree(root: Path) -> dict[str, tuple[object, ...]]:
    """Everything under `root` as lstat sees it: kind, inode, and the bytes or the link's target."""
    out: dict[str, tuple[object, ...]] = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            p = Path(dirpath) / name
            st = os.lstat(p)
            if stat.S_ISLNK(st.st_mode):
                what: object = os.readlink(p)
            elif stat.S_ISREG(st.st_mode):
                what = p.read_bytes()
            else:
                what = None
            out[str(p.relative_to(root))] = (stat.S_IFMT(st.st_mode), st.st_ino, what)
    return out


def delete(capsys: pytest.CaptureFixture[str], name: str) -> tuple[int, str]:
    code = cli.cmd_delete(argparse.Namespace(name=name, dir=None))
    out, err = capsys.readouterr()
    return code, err


def restore_cmd(capsys: pytest.CaptureFixture[str], name: str) -> tuple[int, str]:
    code = cli.cmd_restore(argparse.Namespace(name=name, dir=None))
    out, err = capsys.readouterr()
    return code, err


def one_line(err: str) -> str:
    assert err.count("\n") == 1 and err.startswith("fracas: "), err
    assert "Traceback" not in err
    return err


def refused(err: str) -> None:
    assert "nothing was moved" in one_line(err) or "not in the" in err, err


# --- what is not a save stays where it is ---------------------------------------------------------


def test_delete_of_a_text_file_in_a_real_process_moves_nothing(data: Path, tmp_path: Path) -> None:
    notes = data / "notes.txt"
    notes.write_text("the GM's own notes\n")
    fight(data / "cave.fracas")
    before = tree(tmp_path)
    env = dict(os.environ, FRACAS_DATA_DIR=str(data), FRACAS_CONFIG_DIR=str(tmp_path / "config"))
    errs = []
    for argv in (["delete", str(notes)], ["restore", "notes"], ["restore", "notes.fracas"]):
        proc = subprocess.run(
            [sys.executable, "-m", "tui.cli", *argv], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
        )
        assert proc.returncode == 1, (argv, proc.stdout, proc.stderr)
        assert proc.stdout == "" and proc.stderr.count("\n") == 1 and proc.stderr.startswith("fracas: "), proc.stderr
        errs.append(proc.stderr)
    assert "nothing was moved" in errs[0] and "notes.txt" in errs[0]
    assert tree(tmp_path) == before
    assert notes.read_text() == "the GM's own notes\n"
    assert not list(data.rglob("notes.fracas"))


@pytest.mark.parametrize(
    "name, content",
    [
        ("notes.txt", b"the GM's own notes\n"),
        ("notes.fracas", b"the GM's own notes\n"),  # the right name is not enough
        ("script.fracas", b'{"commands": []}\n'),
        ("empty.fracas", b""),
        ("magic-only.fracas", fmt.MAGIC),  # the signature, then nothing: no header frame
        ("bad-header.fracas", fmt.MAGIC + b"\x05\x00\x00\x00\x01" + b"\x00" * 8 + b"hello"),  # checksums fail
    ],
)
def test_delete_refuses_a_file_that_is_not_a_save(
    data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, content: bytes
) -> None:
    path = data / name
    path.write_bytes(content)
    before = tree(tmp_path)
    code, err = delete(capsys, str(path))
    assert code == 1
    refused(err)
    assert tree(tmp_path) == before
    with pytest.raises(Exception, match="nothing was moved"):
        trash(path, data)
    assert tree(tmp_path) == before


def test_delete_refuses_a_link_a_folder_and_a_file_outside(
    data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    inside = fight(data / "cave.fracas")
    outside = fight(tmp_path / "mine.fracas", "Mine")
    (data / "link.fracas").symlink_to(inside)
    (data / "away.fracas").symlink_to(outside)
    (data / "dangling.fracas").symlink_to(tmp_path / "gone.fracas")
    (data / "folder.fracas").mkdir()
    (data / "folder.fracas" / "inner.fracas").write_bytes(inside.read_bytes())
    before = tree(tmp_path)
    for name in ("link.fracas", "away.fracas", "dangling.fracas", "folder.fracas", str(outside)):
        target = name if os.sep in name else str(data / name)
        code, err = delete(capsys, target)
        assert code == 1, name
        one_line(err)
        assert tree(tmp_path) == before, name
    assert "symbolic link" in delete(capsys, str(data / "link.fracas"))[1]
    assert "folder" in delete(capsys, str(data / "folder.fracas"))[1]
    assert "not in the saves folder" in delete(capsys, str(outside))[1]
    assert tree(tmp_path) == before


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_delete_and_restore_never_open_a_fifo(data: Path, tmp_path: Path) -> None:
    """A FIFO would block an open for reading until a writer comes: run in a process of its own, with
    a timeout, so a hang fails the test instead of stalling the suite."""
    os.mkfifo(data / "pipe.fracas")
    (data / TRASH_DIR).mkdir()
    os.mkfifo(data / TRASH_DIR / "pipe.fracas")
    before = tree(tmp_path)
    env = dict(os.environ, FRACAS_DATA_DIR=str(data), FRACAS_CONFIG_DIR=str(tmp_path / "config"))
    for argv in (["delete", str(data / "pipe.fracas")], ["delete", "pipe"], ["restore", "pipe"]):
        proc = subprocess.run(
            [sys.executable, "-m", "tui.cli", *argv], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
        )
        assert proc.returncode == 1, (argv, proc.stderr)
        assert proc.stderr.count("\n") == 1 and proc.stderr.startswith("fracas: "), proc.stderr
    assert tree(tmp_path) == before
    # the functions themselves, in this process (each check is made before anything is opened)
    for call in (lambda: trash(data / "pipe.fracas", data), lambda: restore(data / TRASH_DIR / "pipe.fracas", data)):
        with pytest.raises(Exception, match="not a regular file"):
            call()
    assert tree(tmp_path) == before


def test_restore_refuses_what_is_not_a_save_in_the_trash(
    data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bin_ = data / TRASH_DIR
    bin_.mkdir()
    (bin_ / "notes.fracas").write_text("the GM's own notes\n")  # put there by hand, or by an older Fracas
    (bin_ / "notes.txt").write_text("more notes\n")
    (bin_ / "link.fracas").symlink_to(fight(tmp_path / "mine.fracas", "Mine"))
    (bin_ / "box.fracas").mkdir()
    before = tree(tmp_path)
    code, err = restore_cmd(capsys, "notes")
    assert code == 1
    refused(err)
    for name in ("notes.fracas", "notes.txt", "link.fracas", "box.fracas"):
        with pytest.raises(Exception, match="nothing was moved"):
            restore(bin_ / name, data)
    with pytest.raises(Exception, match="not in the trash"):
        restore(data / "elsewhere.fracas", data)
    assert tree(tmp_path) == before
    assert not (data / "notes.fracas").exists()


# --- what is a save still goes ---------------------------------------------------------------------


def test_a_torn_save_is_still_deleted_and_restored(data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = fight(data / "cave.fracas")
    torn = path.read_bytes()[:-3]
    path.write_bytes(torn)
    code, err = delete(capsys, str(path))
    assert code == 0, err
    assert (data / TRASH_DIR / "cave.fracas").read_bytes() == torn and not path.exists()
    code, err = restore_cmd(capsys, "cave")
    assert code == 0, err
    assert path.read_bytes() == torn


def test_a_save_this_fracas_cannot_read_is_still_a_save(data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A fight of a ruleset this Fracas does not know (a plugin's) has a Fracas header all the same."""
    header = fmt.new_header(Fight(ruleset="homebrew", name="Elsewhere"))
    path = data / "plugin.fracas"
    path.write_bytes(fmt.MAGIC + fmt.frame(fmt.HEADER, msgspec.msgpack.encode(header)))
    code, err = delete(capsys, str(path))
    assert code == 0, err
    assert (data / TRASH_DIR / "plugin.fracas").exists() and not path.exists()
