"""Issue 11 (hardening), the command line and the exports: nothing a file or a script carries reaches
the terminal as an escape sequence, Markdown exports are literal, scripts have work limits, every
error is one line without a class name, and `fracas FILE --read-only` opens a fight read-only."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import msgspec
import pytest
from msgspec.structs import replace

import tui.cli as cli
from engine import new_fight
from engine.state import Combatant, Condition, Pool
from engine.text import json_safe, terminal_safe
from saves.errors import LockedError, ReadOnlyError, SaveError
from saves.export import export_json, export_markdown, md, printable
from saves.session import Session
from tui.cli import main

OSC52 = "\x1b]52;c;cm0gLXJmIH4=\x07"
OSC0 = "\x1b]0;owned\x07"
CSI2J = "\x1b[2J"
C1_CSI = "\x9b2J"
BIDI = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c"
HOSTILE = [OSC52, OSC0, CSI2J, C1_CSI, "a\x7fb", "evil\u202etxt.exe", "x\u2068y\u2069", "a\u2028b"]
# what a terminal would act on: ESC, BEL, any C0 but tab/newline, DEL, C1, bidi, separators
DANGER = re.compile(f"[\x00-\x08\x0b-\x1f\x7f-\x9f{BIDI}\u2028\u2029]")


def _clean(text: str) -> None:
    found = DANGER.search(text)
    assert found is None, repr(text)


# --- printable, md, json_safe -----------------------------------------------------------------


@pytest.mark.parametrize("bad", HOSTILE)
def test_printable_neutralises_c0_c1_del_and_bidi(bad: str) -> None:
    out = printable(f"Orc{bad}Chief\nnext")
    _clean(out)
    assert "\n" not in out and out.startswith("Orc") and out.endswith("Chief next")
    assert terminal_safe(bad) == printable(bad)


def test_json_safe_escapes_c1_del_bidi_and_separators_and_means_the_same() -> None:
    text = "a\x9b\x85\x7f" + BIDI + "\u2028\u2029é€😀"
    raw = msgspec.json.encode({"name": text})
    assert DANGER.search(raw.decode())  # msgspec writes them raw
    safe = json_safe(raw)
    _clean(safe.decode())
    assert json.loads(safe) == {"name": text} == msgspec.json.decode(safe)


# --- Markdown export --------------------------------------------------------------------------

NAMES = [
    "&lt;b&gt;bold&lt;/b&gt;",
    "<b>tag</b>",
    "- dash",
    "+ plus",
    "1. one",
    "2) two",
    "# heading",
    "> quote",
    "---",
    "=== under",
    "**strong** _em_",
    "`code`",
    "a | b",
    "[link](http://x)",
    "![img](x.png)",
    "&amp; &#65;",
    "\\escaped",
]


def _hostile_session(tmp_path: Path, names: list[str], fight_name: str = "Fight " + OSC0) -> Session:
    """A fight whose combatants carry names the engine would refuse now (an old or hostile file; the
    saves layer refuses to write such a file, so it lives in memory)."""
    f = replace(new_fight("d20"), name=fight_name)
    cs = tuple(
        Combatant(
            f"c{i + 1}",
            name,
            health=(Pool("hp", 5, 5),),
            conditions=(Condition("Cursed" + C1_CSI),),
        )
        for i, name in enumerate(names)
    )
    f = replace(f, combatants=cs, next_id=len(cs) + 1)
    return Session.memory(f)


def _rendered_texts(markdown: str) -> list[str]:
    """Every run of plain text the Markdown renders, and the kinds of block it made."""
    from markdown_it import MarkdownIt

    tokens = MarkdownIt("commonmark", {"html": True}).enable("table").parse(markdown)
    texts: list[str] = []
    for t in tokens:
        assert t.type not in ("html_block", "blockquote_open", "ordered_list_open", "hr", "code_block"), t
        for child in t.children or []:
            # the export itself uses emphasis for its facts line and strong for turn headings
            assert child.type in ("text", "softbreak", "strong_open", "strong_close", "em_open", "em_close"), (
                child.type,
                child.content,
            )
            if child.type == "text":
                texts.append(child.content)
    return texts


def test_markdown_export_shows_every_name_literally(tmp_path: Path) -> None:
    pytest.importorskip("markdown_it")
    s = _hostile_session(tmp_path, NAMES)
    from engine import commands as C

    s.apply(C.Note("Goblin says & <i>hi</i> 1. - > #"))
    text = export_markdown(s)
    s.close()
    _clean(text)
    texts = _rendered_texts(text)
    for name in NAMES:
        assert name in texts, (name, texts)
    assert "Goblin says & <i>hi</i> 1. - > #" in " ".join(texts)
    headings = [line for line in text.splitlines() if line.startswith("#")]
    assert headings and all(h.startswith(("# ", "## ", "### ")) for h in headings)


@pytest.mark.parametrize(
    "name", ["- x", "+ x", "1. x", "12) x", "# x", "> x", "= x", "   indented", "&lt;", "<script>"]
)
def test_md_escapes_what_would_start_a_block(name: str) -> None:
    pytest.importorskip("markdown_it")
    from markdown_it import MarkdownIt

    for wrapped in (md(name), "- " + md(name)):
        html = MarkdownIt("commonmark", {"html": True}).render(wrapped)
        assert "<ol" not in html and "<h1" not in html and "<blockquote" not in html
        assert "<script" not in html and "<pre" not in html
        assert html.count("<li>") <= 1 and html.count("<ul>") <= 1


def test_json_export_writes_c1_and_bidi_as_escapes(tmp_path: Path) -> None:
    names = ["evil\u202etxt", "x" + C1_CSI, "a\x7f"]
    s = _hostile_session(tmp_path, names)
    data = export_json(s)
    s.close()
    _clean(data.decode())
    doc = json.loads(data)
    assert [c["name"] for c in doc["state"]["combatants"]] == names  # nothing lost
    assert doc["name"] == "Fight " + OSC0


def test_fracas_export_markdown_shows_names_literally(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("markdown_it")
    from engine import commands as C

    path = tmp_path / "fight.fracas"
    s = Session.create(path, new_fight("d20", "# Not a heading"))
    for name in NAMES:
        s.apply(C.AddCombatant(name))
    s.close()
    assert main(["export", str(path), "--markdown"]) == 0
    out = capsys.readouterr().out
    texts = _rendered_texts(out)
    for name in NAMES:
        assert name in texts, (name, texts)
    assert "# Not a heading" in texts


# --- error lines ------------------------------------------------------------------------------


def _one_error_line(err: str) -> str:
    assert err.count("\n") == 1 and err.startswith("fracas: "), err
    assert "Traceback" not in err
    _clean(err)
    return err


@pytest.mark.parametrize("bad", HOSTILE)
def test_a_save_error_naming_hostile_text_is_printed_harmlessly(
    bad: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(path: Path, readonly: bool = False) -> Session:
        raise SaveError(path, f"unknown ruleset '{bad}'", 12)

    monkeypatch.setattr(Session, "open", staticmethod(refuse))
    monkeypatch.delattr(Session, "open_or_readonly", raising=False)
    assert main([str(tmp_path / f"fight{bad}.fracas")]) == 1
    err = _one_error_line(capsys.readouterr().err)
    assert "unknown ruleset" in err and "SaveError" not in err


@pytest.mark.parametrize(
    "exc, shown, hidden",
    [
        (SaveError("f.fracas", "the first record is not a header", 0), "f.fracas at offset 0", "SaveError"),
        (PermissionError(13, "Permission denied", "/x/y.fracas"), "/x/y.fracas: Permission denied", "Error"),
        (OSError(28, "No space left on device"), "No space left on device", "OSError"),
        (ValueError("bad value" + CSI2J), "internal error: bad value", "ValueError"),
        (KeyError("k"), "internal error: 'k' (please report it)", "KeyError"),
    ],
)
def test_error_lines_never_show_a_class_name(
    exc: Exception, shown: str, hidden: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from saves import cli as saves_cli

    def boom(args: Any) -> int:
        raise exc

    monkeypatch.setattr(saves_cli, "cmd_list", boom)
    assert main(["list"]) == 1
    err = _one_error_line(capsys.readouterr().err)
    assert shown in err and hidden not in err, err
    if "internal error" in shown:
        assert err.rstrip().endswith("(please report it)")


# --- scripts ----------------------------------------------------------------------------------


def _script(tmp_path: Path, lines: list[str], name: str = "s.jsonl") -> str:
    path = tmp_path / name
    path.write_text("".join(line + "\n" for line in lines))
    return str(path)


@pytest.mark.parametrize("bad", HOSTILE)
def test_script_errors_never_echo_escape_sequences(
    bad: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    quoted = json.dumps(bad)
    for line in (
        '{"cmd":"add","name":' + json.dumps("Orc" + bad) + "}",  # refused by the engine
        '{"cmd":"add","name":"Orc","kind":' + quoted + "}",  # refused by the decoder, which quotes it
        '{"cmd":"add","name":"Orc","side":"enemy",' + quoted + ":1}",  # an unknown field, quoted
        '{"cmd":"damage","who":' + quoted + ',"amount":1}',
        '{"cmd":"roll","dice":' + json.dumps("1d6" + bad) + "}",
    ):
        path = _script(tmp_path, [line], name=f"x{bad}.jsonl")
        assert main(["script", path, "--rules", "d20"]) == 1
        err = _one_error_line(capsys.readouterr().err)
        assert "line 1: " in err


def test_script_log_and_json_carry_no_raw_controls(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # a note may hold newlines and tabs: the log keeps it on one line
    path = _script(tmp_path, ['{"cmd":"note","text":"two\\nlines\\tand a tab"}'])
    assert main(["script", path, "--rules", "d20", "--log"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == "   1  two lines\tand a tab"
    for flag in ("--events", "--summary"):
        assert main(["script", path, "--rules", "d20", flag]) == 0
        _clean(capsys.readouterr().out)


@pytest.mark.parametrize("dice", ["٣d٦", "1d٦", "d２０", "1d6+٣"])
def test_script_dice_take_ascii_digits_only(dice: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _script(tmp_path, ['{"cmd":"roll","dice":' + json.dumps(dice) + "}"])
    assert main(["script", path, "--rules", "d20"]) == 1
    assert "ASCII" in _one_error_line(capsys.readouterr().err)


def test_a_script_rolls_at_most_200000_dice(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _script(tmp_path, ['{"cmd":"roll","dice":"1000d6"}'] * 201)
    assert main(["script", path, "--rules", "d20", "--summary"]) == 1
    err = _one_error_line(capsys.readouterr().err)
    assert "line 201: more than 200,000 dice" in err
    path = _script(tmp_path, ['{"cmd":"roll","dice":"1000d6"}'] * 200)
    assert main(["script", path, "--rules", "d20", "--summary"]) == 0
    capsys.readouterr()


def test_script_size_and_line_length_are_capped(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.MAX_SCRIPT_BYTES == 4 * 2**20
    big = tmp_path / "big.jsonl"
    big.write_bytes(b"#" * (cli.MAX_SCRIPT_BYTES + 1))
    assert main(["script", str(big), "--rules", "d20"]) == 1
    assert "larger than 4 MiB" in _one_error_line(capsys.readouterr().err)
    long_note = '{"cmd":"note","text":"' + "x" * (64 * 1024) + '"}'
    path = _script(tmp_path, ['{"cmd":"note","text":"ok"}', long_note])
    assert main(["script", path, "--rules", "d20"]) == 1
    assert "line 2: longer than 64 KiB" in _one_error_line(capsys.readouterr().err)


def test_script_command_and_work_budgets(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(cli, "MAX_SCRIPT_COMMANDS", 5)
    path = _script(tmp_path, ['{"cmd":"note","text":"x"}'] * 6)
    assert main(["script", path, "--rules", "d20"]) == 1
    assert "line 6: too much for one script" in _one_error_line(capsys.readouterr().err)
    monkeypatch.setattr(cli, "MAX_SCRIPT_COMMANDS", 50_000)
    monkeypatch.setattr(cli, "MAX_SCRIPT_WORK", 200)
    lines = ['{"cmd":"add","name":"Rat","count":50}', '{"cmd":"start"}'] + ['{"cmd":"next"}'] * 10
    path = _script(tmp_path, lines)
    assert main(["script", path, "--rules", "d20"]) == 1  # 1 + 50 + 50 + 50 + 50 > 200
    assert "line 5: too much for one script" in _one_error_line(capsys.readouterr().err)


# --- read-only --------------------------------------------------------------------------------


@pytest.fixture
def opened(monkeypatch: pytest.MonkeyPatch) -> list[Session]:
    seen: list[Session] = []

    def fake_run(session: Session | None) -> int:
        assert session is not None
        seen.append(session)
        session.close()
        return 0

    monkeypatch.setattr(cli, "_run_app", fake_run)
    monkeypatch.setattr(cli, "_no_terminal", lambda what: False)  # a stand-in app needs no terminal
    return seen


def _save(tmp_path: Path) -> Path:
    path = tmp_path / "fight.fracas"
    Session.create(path, new_fight("d20", "Saved")).close()
    return path


@pytest.mark.parametrize("where", ["after", "before"])
def test_read_only_flag_opens_the_fight_read_only(
    where: str, tmp_path: Path, opened: list[Session], capsys: pytest.CaptureFixture[str]
) -> None:
    path = _save(tmp_path)
    before = path.read_bytes()
    argv = [str(path), "--read-only"] if where == "after" else ["--read-only", str(path)]
    assert main(argv) == 0
    assert len(opened) == 1 and opened[0].readonly
    assert path.read_bytes() == before


def test_a_locked_fight_opens_read_only_with_a_notice(
    tmp_path: Path, opened: list[Session], capsys: pytest.CaptureFixture[str]
) -> None:
    path = _save(tmp_path)
    holder = Session.open(path)  # another Fracas has it open for writing
    try:
        assert main([str(path)]) == 0
    finally:
        holder.close()
    assert len(opened) == 1 and opened[0].readonly
    notice = capsys.readouterr().err + " ".join(opened[0].notices)
    assert "read-only" in notice


def test_an_unwritable_fight_opens_read_only_instead_of_exiting(
    tmp_path: Path, opened: list[Session], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _save(tmp_path)
    real_open = Session.open.__func__  # type: ignore[attr-defined]

    def open_(cls: type[Session], p: Path, readonly: bool = False) -> Session:
        if not readonly:
            raise ReadOnlyError(p, "the folder is on a read-only disk")
        return real_open(cls, p, readonly=True)

    monkeypatch.setattr(Session, "open", classmethod(open_))
    assert main([str(path)]) == 0
    assert len(opened) == 1 and opened[0].readonly
    assert "read-only" in capsys.readouterr().err + " ".join(opened[0].notices)


def test_a_locked_error_is_a_save_error() -> None:
    assert issubclass(LockedError, SaveError) and issubclass(ReadOnlyError, SaveError)


def test_help_names_read_only(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    assert "--read-only" in capsys.readouterr().out
    assert main(["--read-only"]) == 2
    _one_error_line(capsys.readouterr().err)
