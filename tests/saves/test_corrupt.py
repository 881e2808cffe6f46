"""Corruption fuzz: damaged save files give a clean one-line SaveError or a prefix of the real history,
never anything else, and a failed load never changes the file.

Damage: truncation, bit flips, overwritten spans, hostile frame lengths (with and without a matching
header checksum), records with valid checksums and garbage inside, random files (with and without the
signature), appended garbage and zeros. The files come from real fights in all four rulesets, written
live (with undo, redo and checkpoints) and rewritten by save-as (with position records).
"""

from __future__ import annotations

import random
import zlib
from pathlib import Path
from typing import Any

import pytest

from saves import format as fmt
from saves.errors import SaveError
from saves.session import Session
from tests.saves.util import RULESETS, SOAK, build_file, node_view

FILES = 10_000 if SOAK else 600


def frame_offsets(data: bytes) -> list[tuple[int, int]]:
    out = []
    pos = len(fmt.MAGIC)
    while pos + fmt.FRAME_SIZE <= len(data):
        length = fmt.unpack_frame(data, pos)[0]
        out.append((pos, length))
        pos += fmt.FRAME_SIZE + length
    return out


def reframe(data: bytearray, pos: int, length: int | None = None, kind: int | None = None,
            payload_crc: int | None = None) -> None:
    """Rewrite a frame header in place, with a header checksum that matches (a crafted file)."""
    old_len, old_kind, old_crc, _ = fmt.unpack_frame(bytes(data), pos)
    pre = fmt._PRE.pack(old_len if length is None else length, old_kind if kind is None else kind,
                        old_crc if payload_crc is None else payload_crc)
    data[pos : pos + 9] = pre
    data[pos + 9 : pos + 13] = fmt._HCRC.pack(zlib.crc32(pre))


def mutate(rng: random.Random, good: bytes) -> tuple[str, bytes]:
    data = bytearray(good)
    frames = frame_offsets(good)
    how = rng.randrange(11)
    if how == 0:
        return "truncate", bytes(data[: rng.randrange(len(data))])
    if how == 1:
        for _ in range(rng.randint(1, 4)):
            bit = rng.randrange(len(data) * 8)
            data[bit // 8] ^= 1 << (bit % 8)
        return "flip bits", bytes(data)
    if how == 2:
        at = rng.randrange(len(data))
        span = rng.randint(1, 64)
        data[at : at + span] = rng.randbytes(span)[: len(data) - at]
        return "overwrite span", bytes(data)
    if how in (3, 4):
        pos, _ = rng.choice(frames)
        hostile = rng.choice([0, 1, 12, 0xFFFFFFFF, fmt.MAX_RECORD + 1, len(data), rng.getrandbits(32)])
        if how == 3:
            data[pos : pos + 4] = hostile.to_bytes(4, "little")
            return "hostile length", bytes(data)
        reframe(data, pos, length=hostile)
        return "hostile length, crafted checksum", bytes(data)
    if how == 5:
        # garbage inside a record whose checksums are made to match: only typed decoding stands guard
        pos, length = rng.choice(frames)
        body = pos + fmt.FRAME_SIZE
        junk = rng.choice([rng.randbytes(length), _wrong_types(rng)])
        data[body : body + length] = junk
        reframe(data, pos, length=len(junk), payload_crc=zlib.crc32(junk))
        return "garbage with good checksums", bytes(data)
    if how == 6:
        pos, _ = rng.choice(frames)
        reframe(data, pos, kind=rng.randrange(256))
        return "another record kind, crafted checksum", bytes(data)
    if how == 7:
        size = rng.randint(0, 3000)
        prefix = fmt.MAGIC if rng.random() < 0.5 else b""
        return "random file", prefix + rng.randbytes(size)
    if how == 8:
        return "garbage appended", bytes(data) + rng.randbytes(rng.randint(1, 200))
    if how == 9:
        return "zeros appended", bytes(data) + bytes(rng.randint(1, 5000))
    # a torn append: the start of a copy of some record
    pos, length = rng.choice(frames)
    piece = good[pos : pos + fmt.FRAME_SIZE + length]
    return "torn append", bytes(data) + piece[: rng.randrange(len(piece))]


def _wrong_types(rng: random.Random) -> bytes:
    import msgspec

    samples: list[Any] = [
        {"p": "zero", "c": {"cmd": "note", "text": "x"}},
        {"p": 0, "c": {"cmd": "nope"}},
        {"p": 0, "c": {"cmd": "note", "text": 5}},
        {"p": 0, "c": {"cmd": "note", "text": "x"}, "d": {"l": [99]}},
        {"p": 0, "c": {"cmd": "note", "text": "x"}, "d": {"p": [{"i": -1, "s": []}]}},
        {"p": 0, "c": {"cmd": "note", "text": "x"}, "d": {"f": [{"f": "round", "v": "one"}]}},
        {"p": 0, "c": {"cmd": "note", "text": "x"}, "d": {"f": [{"f": "ruleset", "v": "chess"}]}},
        {"p": 0, "c": {"cmd": "note", "text": "x"}},
        {"to": -7},
        {"cursor": 10**9, "redo": [[0, 5]]},
        [1, 2, 3],
        "a string",
        {"format": 1, "app": "x", "ruleset": "d20", "created": "", "root": {"type": "fight", "ruleset": "d20"}},
        {"format": 99},
    ]
    return msgspec.msgpack.encode(rng.choice(samples))


@pytest.fixture(scope="module")
def good_files(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[bytes, list[Any]]]:
    folder = tmp_path_factory.mktemp("good")
    out = []
    for k, rules in enumerate(RULESETS):
        path = folder / f"{rules}.fracas"
        old = fmt.CHECKPOINT_EVERY
        fmt.CHECKPOINT_EVERY = 4  # so that full states are among the records
        try:
            s = build_file(path, rules, 300 + k, 45)
            s.save_as(folder / f"{rules}-copy.fracas")
            s.close()
        finally:
            fmt.CHECKPOINT_EVERY = old
        view = node_view(s.history)
        out.append((path.read_bytes(), view))
        out.append(((folder / f"{rules}-copy.fracas").read_bytes(), view))
    return out


def check_one(path: Path, data: bytes, view: list[Any], writable: bool) -> str:
    path.write_bytes(data)
    try:
        s = Session.open(path, readonly=not writable)
    except SaveError as exc:
        text = str(exc)
        assert "\n" not in text and path.name in text and "offset" in text, text
        assert path.read_bytes() == data, "a failed load changed the file"
        return "error"
    got = node_view(s.history)
    assert len(got) <= len(view)
    # a prefix: node by node the same (the cursor and redo links may differ: moves were dropped)
    for i, (a, b) in enumerate(zip(got, view, strict=False)):
        assert a[0] == b[0] and a[2:] == b[2:], f"node {i} differs from the real history"
    if not writable:
        assert path.read_bytes() == data
    else:
        s.close()
        again = Session.open(path, readonly=True)
        assert again.notices == [] and [n[2:] for n in node_view(again.history)] == [n[2:] for n in got]
    return "recovered" if len(got) < len(view) or s.notices else "intact"


@pytest.mark.soak
def test_corrupt_files_fail_cleanly_or_recover_a_prefix(tmp_path: Path, good_files: list[Any]) -> None:
    rng = random.Random(424242)
    tally: dict[str, int] = {}
    for n in range(FILES):
        data, view = good_files[n % len(good_files)]
        how, bad = mutate(rng, data)
        folder = tmp_path / str(n % 50)
        folder.mkdir(exist_ok=True)
        for leftover in folder.iterdir():
            leftover.unlink()
        writable = rng.random() < 0.25
        try:
            result = check_one(folder / "bad.fracas", bad, view, writable)
        except Exception as exc:  # a crash is the failure this test exists to find
            raise AssertionError(f"file {n} ({how}, writable={writable}): {type(exc).__name__}: {exc}") from exc
        key = f"{how}: {result}"
        tally[key] = tally.get(key, 0) + 1
    print(f"\n{FILES} corrupt files, 0 tracebacks:")
    for key in sorted(tally):
        print(f"  {tally[key]:6} {key}")
    assert sum(v for k, v in tally.items() if k.endswith("error")) > FILES // 4
    assert sum(v for k, v in tally.items() if k.endswith("recovered")) > FILES // 20
