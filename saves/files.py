"""Reading a small user file (a library, the roster, an import, a theme, the settings) without ever
hanging or filling memory, whatever the path turns out to be.

Only a regular file is read, and never more than `limit` bytes of it: a FIFO would block for ever
(the open is non-blocking, and the kind is checked with fstat on the opened descriptor, so a link
swapped in between is caught too); a link to /dev/zero or /dev/urandom would be read without end; a
file that grows while it is read stops at the limit. Every refusal is one SaveError naming the path.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from saves.errors import SaveError

_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)


def size_text(n: int) -> str:
    """'32 MiB', '256 KiB', '100 bytes': a limit as a GM reads it."""
    for unit, size in (("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= size and n % size == 0:
            return f"{n // size} {unit}"
    return f"{n} bytes"


def kind_of(mode: int) -> str:
    """What a path that is not a regular file is, in words."""
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a pipe"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "something else"


def read_regular(path: Path, limit: int) -> bytes | None:
    """The file's bytes, or None when there is no such file. SaveError (one line) for anything that
    is not a regular file of at most `limit` bytes, or that cannot be read."""
    try:
        fd = os.open(path, _FLAGS)
    except FileNotFoundError:
        return None
    except IsADirectoryError:
        raise SaveError(path, "not a regular file (a folder)") from None
    except OSError as exc:
        raise SaveError(path, f"cannot read: {exc.strerror or exc}") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise SaveError(path, f"not a regular file ({kind_of(st.st_mode)})")
        if st.st_size > limit:
            raise SaveError(path, f"larger than {size_text(limit)}, the most this file may be")
        chunks: list[bytes] = []
        got = 0
        want = st.st_size + 1  # what fstat gave and a byte more, to see it grew: no buffer of `limit`
        while got <= limit:
            chunk = os.read(fd, min(want, limit + 1 - got))
            want = 1 << 16
            if not chunk:
                break
            chunks.append(chunk)
            got += len(chunk)
        if got > limit:  # it grew after fstat
            raise SaveError(path, f"larger than {size_text(limit)}, the most this file may be")
        return b"".join(chunks)
    except BlockingIOError:
        raise SaveError(path, "not ready to be read (a pipe?)") from None
    except OSError as exc:
        raise SaveError(path, f"cannot read: {exc.strerror or exc}") from None
    finally:
        os.close(fd)


def read_text(path: Path, limit: int) -> str | None:
    """read_regular, decoded as UTF-8 (a byte-order mark dropped)."""
    data = read_regular(path, limit)
    if data is None:
        return None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise SaveError(path, "not UTF-8 text") from None
