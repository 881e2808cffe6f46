"""The library and party commands reach tui.library_cli from `fracas`, and --version prints the version."""

from __future__ import annotations

import pytest

from engine.version import __version__
from tui import cli, library_cli


def test_the_lazy_names_match_the_module() -> None:
    assert cli.LIBRARY_COMMANDS == library_cli.COMMANDS
    assert set(cli.LIBRARY_COMMANDS) <= set(cli.SUBCOMMANDS)


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as out:
        cli.main(["--version"])
    assert out.value.code == 0 and capsys.readouterr().out.strip() == f"fracas {__version__}"


def test_library_list_and_show_run_through_fracas(
    capsys: pytest.CaptureFixture[str], tmp_path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FRACAS_DATA_DIR", str(tmp_path))
    assert cli.main(["library", "list", "--rules", "d20"]) == 0
    listed = capsys.readouterr().out
    assert "Goblin" in listed
    assert cli.main(["library", "show", "Goblin", "--rules", "d20"]) == 0
    assert "attack:" in capsys.readouterr().out
    assert cli.main(["library", "show", "No Such Thing", "--rules", "d20"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "No Such Thing" in err
    assert cli.main(["party", "list"]) == 0
