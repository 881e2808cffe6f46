"""Issue 22, items 1-6 and 9: the roster and the user's library against a second writer, damaged and
hostile files. Each test failed before its fix."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

import engine.library as L
from engine import History, new_fight
from engine import commands as C
from engine.errors import RuleError
from engine.events import Added
from saves import library as S
from saves.errors import SaveError


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    return tmp_path / "data"


def _pc(name: str, hp: int) -> L.Statblock:
    return L.decode_entry("d20", {"name": name, "kind": "pc", "side": "party", "hp": hp})


def _roster(folder: Path, **hurt: int) -> None:
    """Ayla (24) and Bren (30) on the roster; `hurt` sets where one stands now."""
    S.add_to_party("d20", [_pc("Ayla", 24), _pc("Bren", 30)], folder)
    members = [
        S.Member(m.statblock, S.Now(health=(S.Track("hp", hurt[m.name]),))) if m.name in hurt else m
        for m in S.read_party("d20", folder)
    ]
    S.write_party("d20", members, folder)


def _fight_with_party(folder: Path) -> History:
    """A fight the roster's PCs joined (as the party dialog adds them), in a history."""
    h = History.start(new_fight("d20", seed=5))
    for m in S.read_party("d20", folder):
        for add in S.member_commands("d20", m):
            events = h.apply(add)
            cid = next(e.who for e in events if isinstance(e, Added))
            for cmd in S.restore_commands(m, cid):
                h.apply(cmd)
    return h


def _id(h: History, name: str) -> str:
    return next(c.id for c in h.state.combatants if c.name == name)


def _hp(folder: Path, name: str) -> int:
    m = next(m for m in S.read_party("d20", folder) if m.name == name)
    return {t.key: t.current for t in S._filled(m, "d20").health}["hp"]


def _other_fight_heals_bren(folder: Path, to: int) -> None:
    other = _fight_with_party(folder)
    bren = _id(other, "Bren")
    other.apply(C.Heal(bren, amount=to - other.state.get(bren).health[0].current))
    found = S.changes("d20", S.read_party("d20", folder), other.state, S.joined(other))
    S.write_back("d20", found, ["Bren"], folder)


def test_a_pc_untouched_in_this_fight_is_not_listed_nor_written_when_the_roster_moved_on(folder: Path) -> None:
    """Item 2: another fight wrote Bren back (7 -> 12) while this one ran; this fight never touched him."""
    _roster(folder, Bren=7)
    h = _fight_with_party(folder)
    _other_fight_heals_bren(folder, 12)
    assert _hp(folder, "Bren") == 12
    h.apply(C.Damage(_id(h, "Ayla"), amount=5))
    found = S.changes("d20", S.read_party("d20", folder), h.state, S.joined(h))
    assert [p.name for p in found] == ["Ayla"]  # Bren is not "hp 12 -> 7"
    S.write_back("d20", found, None, folder)
    assert (_hp(folder, "Ayla"), _hp(folder, "Bren")) == (19, 12)  # not healed back to 7


def test_a_change_of_this_fight_says_what_the_roster_holds_when_it_moved_on(folder: Path) -> None:
    _roster(folder, Bren=7)
    h = _fight_with_party(folder)
    _other_fight_heals_bren(folder, 12)
    h.apply(C.Damage(_id(h, "Bren"), amount=2))
    (bren,) = S.changes("d20", S.read_party("d20", folder), h.state, S.joined(h))
    assert [(c.key, c.before, c.after, c.roster) for c in bren.changes] == [("hp", "7", "5", "12")]


def test_the_restore_commands_set_the_start_not_a_change(folder: Path) -> None:
    _roster(folder, Bren=7)
    h = _fight_with_party(folder)
    assert S.joined(h)[_id(h, "Bren")].health == (S.Track("hp", 7),)
    assert S.changes("d20", S.read_party("d20", folder), h.state, S.joined(h)) == ()
    h.apply(C.Damage(_id(h, "Bren"), amount=1))  # the GM's own damage right after: a change
    assert S.changes("d20", S.read_party("d20", folder), h.state, S.joined(h))[0].changes[0].after == "6"


def test_undo_reverts_only_what_the_write_back_changed(folder: Path) -> None:
    """Item 1: a PC imported after the write-back stays; Bren, whom it did not touch, stays as he is."""
    _roster(folder)
    h = _fight_with_party(folder)
    h.apply(C.Damage(_id(h, "Ayla"), amount=4))
    done = S.write_back("d20", S.changes("d20", S.read_party("d20", folder), h.state, S.joined(h)), None, folder)
    S.add_to_party("d20", [_pc("Cora", 27)], folder)  # `fracas party import` meanwhile
    S.undo_write_back(done, folder)
    assert [m.name for m in S.read_party("d20", folder)] == ["Ayla", "Bren", "Cora"]
    assert _hp(folder, "Ayla") == 24


def test_undo_changes_nothing_when_the_roster_no_longer_holds_what_it_wrote(folder: Path) -> None:
    _roster(folder)
    h = _fight_with_party(folder)
    h.apply(C.Damage(_id(h, "Ayla"), amount=4))
    done = S.write_back("d20", S.changes("d20", S.read_party("d20", folder), h.state, S.joined(h)), None, folder)
    other = _fight_with_party(folder)  # another fight's write-back of Ayla after this one
    other.apply(C.Damage(_id(other, "Ayla"), amount=10))
    S.write_back("d20", S.changes("d20", S.read_party("d20", folder), other.state, S.joined(other)), None, folder)
    before = S.party_path("d20", folder).read_bytes()
    with pytest.raises(L.LibraryError, match=r"^Not undone: Ayla changed on the roster since the write-back"):
        S.undo_write_back(done, folder)
    assert S.party_path("d20", folder).read_bytes() == before


def test_undo_of_a_newcomer_takes_it_off_the_roster_again(folder: Path) -> None:
    _roster(folder)
    h = _fight_with_party(folder)
    h.apply(C.AddCombatant("Dag", kind="pc", side="party", stats=(("hp", 20),)))
    done = S.write_back("d20", (), [], folder, join=[h.state.get(_id(h, "Dag"))])
    assert [m.name for m in S.read_party("d20", folder)] == ["Ayla", "Bren", "Dag"]
    S.undo_write_back(done, folder)
    assert [m.name for m in S.read_party("d20", folder)] == ["Ayla", "Bren"]


def test_two_writers_of_the_roster_at_once_lose_nothing(folder: Path) -> None:
    """Each read-change-write of the roster holds the folder's lock: eight imports at once, all kept."""
    _roster(folder)
    errors: list[BaseException] = []

    def add(i: int) -> None:
        try:
            S.add_to_party("d20", [_pc(f"Guest {i}", 10 + i)], folder)
        except BaseException as exc:  # noqa: BLE001 - reported by the assertion below
            errors.append(exc)

    threads = [threading.Thread(target=add, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert len(S.read_party("d20", folder)) == 10


# --- items 3-6: files over a limit, nested, endless, blocking --------------------------------------


def test_an_import_over_the_entry_limit_is_refused_whole_before_anything_is_written(
    folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import engine.library.base as B

    S.save_statblocks("d20", [L.decode_entry("d20", {"name": "Mine", "hp": 3})], folder)
    before = S.library_path("d20", folder).read_bytes()
    L.starter("d20")
    monkeypatch.setattr(S, "MAX_ENTRIES", 5)
    monkeypatch.setattr(B, "MAX_ENTRIES", 5)
    src = folder.parent / "big.json"

    def beasts(n: int) -> str:
        one = '{{"Name": "Beast {}", "HP": {{"Value": 5}}, "AC": {{"Value": 12}}}}'
        return "[" + ",".join(one.format(i) for i in range(n)) + "]"

    src.write_text(beasts(5))  # five new beside the GM's one: six, over the limit once merged
    with pytest.raises(L.LibraryError, match=r"would hold 6 statblocks, at most 5; nothing written"):
        S.import_file(src, "", folder)
    src.write_text(beasts(6))  # more than a library holds on its own: refused before converting
    with pytest.raises(L.LibraryError, match=r"big.json: 6 entries, more than a library holds \(5\); nothing imported"):
        S.import_file(src, "", folder)
    assert S.library_path("d20", folder).read_bytes() == before


def test_a_library_over_the_limit_still_serves_what_it_can(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import engine.library.base as B

    path = S.library_path("d20", folder)
    path.parent.mkdir(parents=True)
    path.write_text("".join(f"[[creature]]\nname = 'Beast {i}'\nhp = 5\n" for i in range(8)))
    L.starter("d20")  # the bundled bestiary is read (and kept) under the real limit
    monkeypatch.setattr(B, "MAX_ENTRIES", 5)
    entries, problem = S.load_usable("d20", folder)
    assert {e.name for e in entries if e.origin == "user"} == {f"Beast {i}" for i in range(5)}
    assert problem.endswith("3 entries past the first 5 left out") and "\n" not in problem


@pytest.mark.parametrize("which", ["library", "party"])
def test_a_deeply_nested_file_is_one_line_and_the_bundled_bestiary_still_serves(folder: Path, which: str) -> None:
    path = (S.library_path if which == "library" else S.party_path)("d20", folder)
    path.parent.mkdir(parents=True)
    path.write_text("x = " + "[" * 5000 + "]" * 5000 + "\n")
    if which == "library":
        entries, problem = S.load_usable("d20", folder)
        assert len(entries) == len(L.starter("d20")) and "nested too deeply" in problem
        with pytest.raises(L.LibraryError, match="nested too deeply"):
            S.read_user("d20", folder)
    else:
        members, problem = S.read_party_usable("d20", folder)
        assert members == () and "nested too deeply" in problem
        with pytest.raises(L.LibraryError, match="nested too deeply"):
            S.read_party("d20", folder)


def _alarm(seconds: int = 10):  # type: ignore[no-untyped-def]
    import signal

    def fail(*_: object) -> None:
        raise AssertionError("hung")

    old = signal.signal(signal.SIGALRM, fail)
    signal.alarm(seconds)
    return old


def _end_alarm(old) -> None:  # type: ignore[no-untyped-def]
    import signal

    signal.alarm(0)
    signal.signal(signal.SIGALRM, old)


@pytest.mark.parametrize("kind", ["fifo", "/dev/zero", "/dev/urandom"])
@pytest.mark.parametrize("which", ["library", "party", "import"])
def test_a_fifo_or_an_endless_device_is_refused_at_once(folder: Path, kind: str, which: str) -> None:
    """Items 5 and 6: nothing waits on a FIFO or reads a device without end."""
    if kind != "fifo" and not os.path.exists(kind):
        pytest.skip(f"no {kind} here")
    path = (
        folder.parent / "in.json"
        if which == "import"
        else (S.library_path if which == "library" else S.party_path)("d20", folder)
    )
    path.parent.mkdir(parents=True, exist_ok=True)
    if kind == "fifo":
        os.mkfifo(path)
    else:
        path.symlink_to(kind)
    old = _alarm()
    try:
        if which == "import":
            with pytest.raises(SaveError, match=r"not a regular file \((a pipe|a device)\)"):
                S.import_file(path, "", folder)
        elif which == "library":
            entries, problem = S.load_usable("d20", folder)
            assert len(entries) == len(L.starter("d20")) and "not a regular file" in problem
        else:
            members, problem = S.read_party_usable("d20", folder)
            assert members == () and "not a regular file" in problem
    finally:
        _end_alarm(old)


# --- item 9: one set of limits, whatever the way in ----------------------------------------------


@pytest.mark.parametrize(
    ("entry", "problem"),
    [
        ({"name": "Swarm", "hp": 5, "attacks": [{"name": f"Bite {i}", "bonus": 1, "damage": [{"dice": "1d4"}]}
                                                for i in range(500)]},
         r"attacks: 500, at most 100"),
        ({"name": "Titan", "hp": 50, "hp_dice": "999d999"}, r"health dice '999d999' can roll 998001"),
        ({"name": "N" * 80, "hp": 5}, r"at most 76 characters"),
    ],
)
def test_a_statblock_no_fight_would_take_is_refused_naming_the_field(entry: dict, problem: str) -> None:
    with pytest.raises(RuleError, match=problem):
        L.decode_entry("d20", entry)


def test_a_statblock_name_of_the_limit_can_be_added_twice() -> None:
    sb = L.decode_entry("d20", {"name": "N" * 76, "hp": 5})
    from engine import apply

    f, _ = apply(new_fight("d20", seed=1), L.to_add(sb, 50)[0])
    assert len(f.combatants) == 50


@pytest.mark.parametrize(
    ("now", "problem"),
    [
        ("[[pc.now.conditions]]\nname = 'Exhaustion'\nlevel = 99999\n",
         r"entry 1 \('Ayla'\): now.conditions \('Exhaustion'\)"),
        ("[[pc.now.conditions]]\nname = \"Cursed\\u001b[31m\"\n", r"entry 1 \('Ayla'\): now.conditions"),
    ],
)
def test_a_roster_pc_that_could_not_join_a_fight_is_refused_naming_the_field(
    folder: Path, now: str, problem: str
) -> None:
    path = S.party_path("d20", folder)
    path.parent.mkdir(parents=True)
    path.write_text("rules = 'd20'\n[[pc]]\nname = 'Ayla'\nhp = 20\nkind = 'pc'\nside = 'party'\n" + now
                    + "[[pc]]\nname = 'Bren'\nhp = 30\nkind = 'pc'\nside = 'party'\n")
    with pytest.raises(L.LibraryError, match=problem):
        S.read_party("d20", folder)
    members, line = S.read_party_usable("d20", folder)
    assert [m.name for m in members] == ["Bren"] and "1 entry left out" in line


def test_look_alike_names_are_one_name(folder: Path) -> None:
    """Item 12: a zero-width space or a decomposed accent does not make a second entry."""
    S.save_statblocks("d20", [L.decode_entry("d20", {"name": "Beta", "hp": 3})], folder)
    S.save_statblocks("d20", [L.decode_entry("d20", {"name": "Beta\u200b", "hp": 4})], folder)
    S.save_statblocks("d20", [L.decode_entry("d20", {"name": "Cafe\u0301", "hp": 4})], folder)
    S.save_statblocks("d20", [L.decode_entry("d20", {"name": "Caf\u00e9", "hp": 5})], folder)
    user = S.read_user("d20", folder)
    assert [(sb.name, sb.hp) for sb in user] == [("Beta", 4), ("Caf\u00e9", 5)]
