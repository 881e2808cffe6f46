"""`fracas party show NAME` without --rules (issue 25, item 15): a name in one party is found there;
a name in several gets one line naming them; "an Improved Initiative file"."""

from __future__ import annotations

import argparse
import io
import json
from pathlib import Path

import engine.library as L
from engine.library.importers import ImportProblem, run
from saves import library as S
from tui import library_cli


def _cli(*argv: str) -> tuple[int, str, str]:
    p = argparse.ArgumentParser(prog="fracas")
    library_cli.add_parsers(p.add_subparsers(dest="command"))
    out, err = io.StringIO(), io.StringIO()
    code = library_cli.run(p.parse_args(list(argv)), out, err)
    return code, out.getvalue(), err.getvalue()


def _pc(rid: str, name: str) -> L.Statblock:
    import msgspec

    sb = L.starter(rid)[0]
    return msgspec.structs.replace(sb, name=name, kind="pc", side="party")


def test_party_show_finds_the_pc_in_its_party_and_asks_only_when_ambiguous(tmp_path: Path) -> None:
    d = ["--dir", str(tmp_path)]
    S.add_to_party("warhammer", [_pc("warhammer", "Anna")], tmp_path)
    S.add_to_party("d20", [_pc("d20", "Cora")], tmp_path)
    S.add_to_party("cosmere", [_pc("cosmere", "Cora")], tmp_path)
    code, out, err = _cli("party", "show", "anna", *d)
    assert code == 0 and "Anna" in out and not err
    code, out, _ = _cli("party", "show", "Anna", "--json", *d)
    assert json.loads(out)["rules"] == "warhammer"
    code, out, err = _cli("party", "show", "Cora", *d)
    assert code == 1 and not out and err.count("\n") == 1
    assert "cosmere, d20" in err and "--rules" in err
    code, out, _ = _cli("party", "show", "Cora", "--rules", "d20", "--json", *d)
    assert code == 0 and json.loads(out)["rules"] == "d20"
    code, _, err = _cli("party", "show", "Nobody", *d)
    assert code == 1 and err.count("\n") == 1 and "No PC called 'Nobody' in any party" in err
    code, _, err = _cli("party", "show", "Anna", "--rules", "d20", *d)
    assert code == 1 and "No PC called 'Anna' in the d20 party" in err


def test_an_improved_initiative_file_for_another_ruleset() -> None:
    data = [{"Name": "Ayla", "HP": {"Value": 24, "Notes": ""}, "AC": {"Value": 16, "Notes": ""}, "Player": "me"}]
    try:
        run(data, "warhammer")
    except ImportProblem as exc:
        assert str(exc).startswith("this is an Improved Initiative file for d20"), exc
    else:
        raise AssertionError("an Improved Initiative file was taken for a warhammer one")
