"""The `fracas` command.

    fracas                       the start screen (saved fights, new fight, demos)
    fracas FILE [--read-only]    open a saved fight (read-only: look, never write)
    fracas demo RULES            a fresh copy of the bundled demo fight of RULES
    fracas script FILE --rules ID [--seed N] [--events | --summary]
    fracas list [--trash] | check FILE [--repair] | export FILE (--json | --markdown) [-o OUT]
    fracas rename OLD NEW | delete NAME | restore NAME    a saved fight renamed, moved to the
                                 trash (never erased), put back from it
    fracas odds FILE [--runs N] [--seed S] [--json]   each side's chances from here: the rest of
                                 the fight played many times over (docs/odds.md); the save is only read
    fracas view FILE             the players' view: follows the fight read-only (docs/view.md)
    fracas serve FILE [--host H] [--port N] [--max-viewers N]   the players' view in web browsers
                                 (textual-serve; at most 8 browsers at once unless told otherwise)

The commands that open the app (plain `fracas`, FILE, demo, new, view) need a terminal: without one
(input or output redirected) they refuse in one line and point to script, export and serve.

Textual is imported only by the commands that open the app, so the script runner and the file tools
start fast and work without a terminal.

Everything printed here goes through `engine.text`: error and log lines with `terminal_safe` (no escape
sequence, title change or text reordering from a file or script reaches the terminal), JSON with
`json_safe` (C1 and bidi controls as \\u escapes: the JSON means the same, the terminal sees none).
Every error is one line, "fracas: <what went wrong>", never a traceback or an exception's class name.
"""

from __future__ import annotations

from tui import gc_policy

gc_policy.defer()  # before the imports: start-up makes no garbage (tui/gc_policy.py)

import argparse  # noqa: E402
import os  # noqa: E402
import sys  # noqa: E402
from collections.abc import Callable  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

import msgspec  # noqa: E402

from engine import History, RuleError, command_union, describe, get_ruleset, new_fight  # noqa: E402
from engine.dice import RNG_LIMIT  # noqa: E402
from engine.ruleset import ruleset_ids  # noqa: E402
from engine.text import json_safe, terminal_safe  # noqa: E402
from engine.version import __version__  # noqa: E402
from saves import default_dir  # noqa: E402
from saves.demo import has_demo, start_demo  # noqa: E402
from saves.errors import LockedError, ReadOnlyError, SaveError  # noqa: E402
from saves.session import Session  # noqa: E402
from saves.store import find_save  # noqa: E402

READ_ONLY = "--read-only"

_EPILOG = """\
other forms:
  fracas FILE [--read-only]  open a saved fight; --read-only (also before FILE) only looks and never
                             writes; a file that cannot be written (permissions, a read-only disk,
                             another Fracas has it open) opens read-only with a notice

FILE, here and in check, export, odds, view and serve, is a path or a name `fracas list` prints (the
fight's name or its file's name).
"""


def _library_cli() -> Any:
    from tui import library_cli  # start-up: each subcommand loads only its own modules

    return library_cli


def _say(message: str) -> None:
    """One error line on stderr: 'fracas: <message>', with nothing a terminal would act on."""
    print(f"fracas: {terminal_safe(message)}", file=sys.stderr)


def _error_text(exc: BaseException) -> str:
    """What went wrong, without the exception's class name; an OSError as the system says it."""
    if isinstance(exc, OSError) and exc.strerror:
        where = f"{exc.filename}: " if exc.filename is not None else ""
        return f"{where}{exc.strerror}"
    return str(exc) or type(exc).__name__


class _Parser(argparse.ArgumentParser):
    """argparse quotes what was typed in its errors ("invalid int value: '...'"): made printable too."""

    def _print_message(self, message: str, file: Any = None) -> None:
        if message:
            super()._print_message("\n".join(terminal_safe(x) for x in message.split("\n")), file)


LIBRARY_COMMANDS = ("library", "party")  # tui.library_cli.COMMANDS (a test keeps them equal)


def _rules_help() -> str:
    """The registered rulesets, as the help lists them ("cosmere, d20, ninephase or warhammer")."""
    *rest, last = ruleset_ids()
    return f"{', '.join(rest)} or {last}" if rest else last


RULES_HELP = _rules_help()


def _demo_args(d: argparse.ArgumentParser) -> None:
    d.add_argument("rules", nargs="?", default=None, help=RULES_HELP)
    d.add_argument("--seed", type=int, default=None, help="random seed (default: a fresh one)")
    d.add_argument("--dir", type=Path, default=None, help="where the copy goes (default: the data dir's demos/)")


def _new_args(n: argparse.ArgumentParser) -> None:
    n.add_argument("rules", help=RULES_HELP)
    n.add_argument("name", nargs="?", default="New fight")
    n.add_argument("--dir", type=Path, default=None)
    n.add_argument("--party", action="store_true", help="the ruleset's party roster joins the fight")


def _script_args(s: argparse.ArgumentParser) -> None:
    s.add_argument("file", type=Path, help="JSON Lines of commands ('-' for standard input)")
    s.add_argument("--rules", required=True, help=RULES_HELP)
    s.add_argument("--seed", type=int, default=0)
    s.add_argument("--name", default="Scripted fight")
    out = s.add_mutually_exclusive_group()
    out.add_argument("--events", action="store_true", help="print every event as well as the state")
    out.add_argument("--summary", action="store_true", help="print a compact summary instead")
    out.add_argument("--log", action="store_true", help="print the log lines, then the summary")
    s.add_argument("--save", type=Path, default=None, help="also write the fight to a new save file")


def _list_args(li: argparse.ArgumentParser) -> None:
    li.add_argument("--dir", type=Path, default=None)
    li.add_argument("--trash", action="store_true", help="list what is in the trash instead")


def _rename_args(rn: argparse.ArgumentParser) -> None:
    rn.add_argument("old", help="the fight: a name fracas list prints, or its file")
    rn.add_argument("new", help="its new name")
    rn.add_argument("--dir", type=Path, default=None, help="the saves folder (default: the data dir)")


def _delete_args(de: argparse.ArgumentParser) -> None:
    de.add_argument("name", help="the fight: a name fracas list prints, or its file")
    de.add_argument("--dir", type=Path, default=None, help="the saves folder (default: the data dir)")


def _restore_args(rs: argparse.ArgumentParser) -> None:
    rs.add_argument("name", help="a name fracas list --trash prints")
    rs.add_argument("--dir", type=Path, default=None, help="the saves folder (default: the data dir)")


def _check_args(c: argparse.ArgumentParser) -> None:
    c.add_argument("file", type=Path)
    c.add_argument("--repair", action="store_true", help="back the file up, then drop a torn tail")


def _export_args(e: argparse.ArgumentParser) -> None:
    e.add_argument("file", type=Path)
    fmt = e.add_mutually_exclusive_group(required=True)
    fmt.add_argument("--json", action="store_true")
    fmt.add_argument("--markdown", action="store_true")
    e.add_argument("-o", "--output", type=Path, default=None)


def _odds_args(o: argparse.ArgumentParser) -> None:
    o.add_argument("file", help="a save file, or a name fracas list prints")
    o.add_argument("--runs", type=int, default=1000, help="how many times to play it out (1 to 100,000; default 1000)")
    o.add_argument("--seed", type=int, default=0, help="the runs' random seed (the same seed, the same odds)")
    o.add_argument("--json", action="store_true", help="the figures as JSON")


def _view_args(v: argparse.ArgumentParser) -> None:
    v.add_argument("file", type=Path)


# in the environment of each view `fracas serve` starts: the view ends when its parent, the server, does
SERVED = "FRACAS_SERVED"
MAX_VIEWERS = 8  # browsers `fracas serve` lets watch at once (tui/serve.py counts them)
MAX_VIEWERS_LIMIT = 64  # the most --max-viewers takes: each viewer is a ~40 MB process


def _serve_args(w: argparse.ArgumentParser) -> None:
    w.add_argument("file", type=Path)
    w.add_argument("--host", default="127.0.0.1", help="address to listen on (0.0.0.0: the whole network)")
    w.add_argument("--port", type=int, default=8000)
    w.add_argument(
        "--max-viewers",
        type=int,
        default=MAX_VIEWERS,
        metavar="N",
        help=f"browsers that may watch at once, 1 to {MAX_VIEWERS_LIMIT} (default: {MAX_VIEWERS}); each is a"
        " process of about 40 MB, and the next one is told the view is full",
    )


# each subcommand: its help line and what adds its arguments, in the order `fracas -h` lists them
# (library and party are tui.library_cli's)
_COMMANDS: dict[str, tuple[str, Callable[[argparse.ArgumentParser], None]]] = {
    "demo": ("play a fresh copy of a bundled demo fight", _demo_args),
    "new": ("start a new, empty fight", _new_args),
    "script": ("apply commands from a JSON Lines file and print the final state", _script_args),
    "list": ("list saved fights, newest first (the demo copies apart)", _list_args),
    "rename": ("give a saved fight a new name (its file is named after it)", _rename_args),
    "delete": ("move a saved fight (and its backups) to the trash", _delete_args),
    "restore": ("put a fight from the trash back among the saved fights", _restore_args),
    "check": ("verify every record of a save file", _check_args),
    "export": ("export a fight as JSON or Markdown", _export_args),
    "odds": ("each side's chances from here: the rest of the fight played many times over", _odds_args),
    "view": ("the players' view of a fight: follows the file as the GM plays, read-only", _view_args),
    "serve": ("the players' view in web browsers (each browser its own read-only view)", _serve_args),
}
SUBCOMMANDS = (*_COMMANDS, *LIBRARY_COMMANDS)


def _parser(only: str | None = None) -> argparse.ArgumentParser:
    """The command line. `only`: the subcommand the arguments start with, the one parser built in
    full (with the library and party commands, tui.library_cli, which imports the bestiary code);
    without it, every subcommand is built, the library ones only listed. Building all thirteen costs
    start-up a few milliseconds for lines that `fracas demo` never shows."""
    p = _Parser(
        prog="fracas",
        usage=(
            "fracas [-h] [--version] [FILE [--read-only] |"
            " {demo,new,script,list,check,export,odds,rename,delete,restore,view,serve,library,party} ...]"
        ),
        description="A combat tracker for tabletop RPG game masters.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--version", action="version", version=f"fracas {__version__}")
    sub = p.add_subparsers(dest="command", prog="fracas")  # not the custom usage line above
    for name, (help_line, add_args) in _COMMANDS.items():
        if only is None or only == name:
            add_args(sub.add_parser(name, help=help_line))
    if only in LIBRARY_COMMANDS:
        _library_cli().add_parsers(sub)
    elif only is None:
        sub.add_parser("library", help="the bestiary: import, list and show statblocks")
        sub.add_parser("party", help="the party roster: list, show, import")
    return p


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        return _main(argv)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # `fracas script ... | head`: the reader left, nothing to report
        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no second error at exit
        except (OSError, ValueError):
            pass
        return 1
    except Exception as exc:  # the last line of defence: one line, never a traceback

        if isinstance(exc, RuleError | SaveError | OSError):
            _say(_error_text(exc))
        else:
            _say(f"internal error: {_error_text(exc)} (please report it)")
        return 1


def _main(argv: list[str]) -> int:
    # `fracas FILE [--read-only]` and `fracas --read-only FILE`: a file to open, not a subcommand
    rest = [a for a in argv if a != READ_ONLY]
    if rest and rest[0] not in SUBCOMMANDS and not rest[0].startswith("-"):
        if len(rest) > 1:
            _say("give one save file to open")
            return 2
        return _open_named(rest[0], readonly=READ_ONLY in argv)
    if READ_ONLY in argv and not rest:
        _say("--read-only needs a save file to open: fracas FILE --read-only")
        return 2
    args = _parser(only=rest[0] if rest and rest[0] in SUBCOMMANDS else None).parse_args(argv)
    if args.command not in (None, "demo", "new", "view"):
        gc_policy.restore()  # no app: Python's own collector (tui/gc_policy.py)
    if args.command is None:
        return _run_app(None)
    if args.command == "script":
        return run_script(args)
    if args.command == "demo":
        return _demo(args)
    if args.command == "new":
        return _new(args)
    if args.command == "view":
        return _view(args)
    if args.command == "serve":
        return _serve(args)
    if args.command in LIBRARY_COMMANDS:
        return _library_cli().run(args)
    from saves import cli as saves_cli  # start-up: each subcommand loads only its own modules

    handler = {
        "list": saves_cli.cmd_list, "check": saves_cli.cmd_check, "export": saves_cli.cmd_export,
        "rename": saves_cli.cmd_rename, "delete": saves_cli.cmd_delete, "restore": saves_cli.cmd_restore,
        "odds": saves_cli.cmd_odds,
    }
    return int(handler[args.command](args))


# --- the players' view ------------------------------------------------------------------------


def _viewable(path: Path) -> str:
    """Why the file cannot be followed ("" = it can): checked before any screen or server starts."""
    from saves import journal  # start-up: each subcommand loads only its own modules

    try:
        journal.read_header(path)
    except SaveError as exc:
        return str(exc)
    return ""


def _view(args: argparse.Namespace) -> int:
    found = _find(str(args.file))
    if found is None:
        return 1
    args.file = found
    why = _viewable(args.file)
    if why:
        _say(why)
        return 1
    if _no_terminal("view"):
        return 1
    from tui.view import ViewApp  # start-up: each subcommand loads only its own modules

    app = ViewApp(args.file, end_with_parent=os.environ.get(SERVED) == "1")
    app.run()
    return int(app.return_code or 0)


def lan_address() -> str:
    """This machine's address on the local network (what players' phones open), else the loopback."""
    import socket

    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
            sock.connect(("192.0.2.1", 9))  # a UDP connect sends nothing: it only picks the route
            return str(sock.getsockname()[0])
    except OSError:
        return "127.0.0.1"


def serve_url(host: str, port: int) -> str:
    shown = lan_address() if host in ("0.0.0.0", "::", "") else host
    if ":" in shown:
        shown = f"[{shown}]"  # an IPv6 address in a URL
    return f"http://{shown}:{port}"


def _serve(args: argparse.Namespace) -> int:
    found = _find(str(args.file))
    if found is None:
        return 1
    args.file = found
    why = _viewable(args.file)
    if why:
        _say(why)
        return 1
    if not 1 <= args.port <= 65535:
        _say(f"--port takes 1 to 65535, not {args.port}")
        return 2
    if not 1 <= args.max_viewers <= MAX_VIEWERS_LIMIT:
        _say(f"--max-viewers takes 1 to {MAX_VIEWERS_LIMIT}, not {args.max_viewers}")
        return 2
    try:
        from tui.serve import CappedServer, view_command  # start-up: each subcommand loads only its own modules
    except ImportError:
        _say("fracas serve needs the textual-serve package: pip install textual-serve")
        return 1
    path = args.file.resolve()
    # each browser that connects gets its own process of this command: the read-only view, which
    # ends with the server however the server ends (tui/view.py ViewApp: its parent gone)
    os.environ[SERVED] = "1"  # (textual-serve gives each view the server's environment)
    command = view_command([sys.executable, "-m", "tui.cli", "view", str(path)])
    url = serve_url(args.host, args.port)
    print(
        terminal_safe(
            f"Players' view of {path.name}: open {url} in a browser, {args.max_viewers} at most at once"
            " (Ctrl+C stops it)"
        ),
        flush=True,
    )
    server = CappedServer(
        command, max_viewers=args.max_viewers, host=args.host, port=args.port, title="Fracas", public_url=url
    )
    server.serve()
    return 0


# --- the app ----------------------------------------------------------------------------------


def _no_terminal(what: str) -> bool:
    """True, after saying so in one line, when the app has no terminal to run in. Textual reads the
    keys from standard input and draws on standard error: with either redirected (`fracas demo
    </dev/null >log`) it would run blind, or read end-of-file forever with a core busy.
    `demo` and `new` ask before they write anything (the demo copy replaced, the new fight's file).
    textual-serve runs each browser's `fracas view` on pipes, with TEXTUAL_DRIVER naming
    its web driver: that needs none either."""
    driver = os.environ.get("TEXTUAL_DRIVER", "")
    if driver and "linux_driver" not in driver and "windows_driver" not in driver:
        return False  # a driver of its own, not the terminal's (textual-serve's web driver)
    if all(_is_terminal(stream) for stream in (sys.__stdin__, sys.__stderr__)):
        return False
    uses = ["`fracas export` (a fight as JSON or Markdown)", "`fracas script` (commands from a file)"]
    if what != "view":  # (the view needs a terminal too: serve is the one that does not)
        uses.append("`fracas serve` (the players' view in web browsers)")
    _say(
        f"{what} needs a terminal (its input or output is redirected); without one, use"
        f" {', '.join(uses[:-1])} or {uses[-1]}"
    )
    return True


def _is_terminal(stream: Any) -> bool:
    try:
        return stream is not None and os.isatty(stream.fileno())
    except (OSError, ValueError):
        return False


def _run_app(session: Any) -> int:
    from tui.app import make_app  # start-up: `fracas view` and the scripts never load the app

    try:
        if session is not None:
            _playable(session.state.ruleset)  # before any screen: one line, not a broken tracker
        if _no_terminal("the app"):
            return 1
        app = make_app(session) if session is not None else make_app(start_screen=True)
        app.run()
    finally:
        if session is not None:
            session.close()
    return int(app.return_code or 0)


def _find(text: str) -> Path | None:
    """The save a command line names (a path, or a name `fracas list` prints); None after saying
    why not (an unknown or ambiguous name, with the close matches)."""
    try:
        return find_save(text)
    except SaveError as exc:
        _say(str(exc))
        return None


def _open_named(text: str, readonly: bool = False) -> int:
    path = _find(text)
    return 1 if path is None else _open_file(path, readonly)


def _open_file(path: Path, readonly: bool = False) -> int:
    """Open a saved fight in the app. A file that cannot be opened for writing (another Fracas has it,
    no permission, a read-only disk or folder) opens read-only with a one-line notice, not an exit."""
    try:
        if readonly:
            session = Session.open(path, readonly=True)
        else:
            session = _open_writable_or_readonly(Session, path)
    except SaveError as exc:
        _say(str(exc))
        return 1
    return _run_app(session)


def _playable(rid: str) -> None:
    """Refuse, in one line (UnknownRuleset is a RuleError), a ruleset the app has no slice for."""
    from tui.rulesets import get_ui  # start-up: the slices load with the app, not for `fracas view`

    get_ui(rid)


def _open_writable_or_readonly(session_cls: Any, path: Path) -> Any:
    opener = getattr(session_cls, "open_or_readonly", None)
    if opener is not None:
        # the saves layer falls back by itself and says why in session.notices (the app shows them)
        return opener(path)

    try:
        return session_cls.open(path)
    except (LockedError, ReadOnlyError) as exc:
        _say(f"{exc}; opening it read-only")
        return session_cls.open(path, readonly=True)


def _fresh_path(directory: Path | None, stem: str) -> Path:
    import datetime as dt


    folder = directory or default_dir()
    folder.mkdir(parents=True, exist_ok=True)
    stamp = dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    safe = "".join(ch if ch.isalnum() or ch in "-_" else "-" for ch in stem)[:40] or "fight"
    for i in range(1000):
        path = folder / f"{safe}-{stamp}{'-' + str(i) if i else ''}.fracas"
        if not path.exists():
            return path
    raise OSError(f"no free file name in {folder}")


def _demo(args: argparse.Namespace) -> int:
    if args.rules is None:
        from tui.rulesets import DEFAULT  # start-up: the slices load with the app, not for `fracas view`

        args.rules = DEFAULT
    seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(4)) >> 1
    if has_demo(args.rules):  # (no demo: start_demo refuses in one line, naming the demos)
        _playable(args.rules)  # the app must know the ruleset before a file is made (or replaced)
        if _no_terminal("demo"):  # and it must have a terminal to run in
            return 1
    # the ruleset's one demo copy, replaced (saves/demo.py); older piles of copies go to the trash
    session, notes = start_demo(args.rules, seed, args.dir)
    session.notices.extend(notes)  # shown by the app once it is on screen (stderr would be hidden)
    return _run_app(session)


def _new(args: argparse.Namespace) -> int:
    fight = new_fight(args.rules, args.name, int.from_bytes(os.urandom(4)) >> 1)
    _playable(fight.ruleset)  # the engine knows it: the app must too, before a file is made
    members: list[Any] = []
    if args.party:
        from saves import library as S  # the library and roster: a tenth of a second, when asked

        members = list(S.read_party(fight.ruleset))  # a roster that cannot be read: one line, no file
        if not members:
            raise RuleError(f"No {fight.ruleset} party yet: `fracas party import FILE`, or write back from a fight.")
    if _no_terminal("new"):  # before the fight's file is made
        return 1
    session = Session.create(_fresh_path(args.dir, args.name), fight)
    if members:
        from tui.party import party_commands  # only when a party joins

        for cmd in party_commands(session.state, members):
            session.apply(cmd)
    return _run_app(session)


# --- the script runner ------------------------------------------------------------------------

# Work limits for one script run, so a runaway file cannot hang or exhaust the machine: a real
# three-hour session is a few thousand lines and a few thousand dice, and the slowest script these
# allow runs in seconds with bounded memory.
MAX_SCRIPT_BYTES = 4 * 1024 * 1024
MAX_LINE_BYTES = 64 * 1024  # a 2,000-character note, every character \u-escaped, is 24 KiB
MAX_SCRIPT_DICE = 200_000  # dice the app rolls in one run (entered dice are bounded by the line length)
MAX_SCRIPT_COMMANDS = 50_000
# a command's cost grows with the fight's size (`next` with 500 combatants is ~7 times one with 10):
# each command counts once per combatant in the fight, and all of them together at most this
MAX_SCRIPT_WORK = 2_000_000


class _ScriptStop(Exception):
    """A script that cannot go on: the line to print (on stderr) and the exit code."""

    def __init__(self, message: str, code: int = 1) -> None:
        super().__init__(message)
        self.code = code


def run_script(args: argparse.Namespace) -> int:
    """Apply a JSON Lines file of commands; any error names its line and exits non-zero."""
    try:
        data = _read_script(args.file)
        try:
            history = History.start(new_fight(args.rules, args.name, args.seed))
        except RuleError as exc:
            raise _ScriptStop(str(exc), 2) from None
        run = _ScriptRun(history, str(args.file))
        for number, raw in enumerate(data.splitlines(), start=1):
            run.line(number, raw)
        if args.save is not None:
            _save_script(args.save, history)
    except _ScriptStop as stop:
        _say(str(stop))
        return stop.code
    out = _script_output(args, history.state, run.events)
    # JSON escapes C0 controls itself; C1, DEL and the bidi controls become \\u escapes here
    sys.stdout.write(json_safe(msgspec.json.format(msgspec.json.encode(out), indent=2)).decode() + "\n")
    return 0


def _read_script(file: Any) -> bytes:
    if str(file) == "-":
        data = sys.stdin.buffer.read(MAX_SCRIPT_BYTES + 1)
    else:
        try:
            with open(file, "rb") as fh:
                data = fh.read(MAX_SCRIPT_BYTES + 1)
        except OSError as exc:
            raise _ScriptStop(f"cannot read {file}: {exc.strerror or exc}") from None
    if len(data) > MAX_SCRIPT_BYTES:
        raise _ScriptStop(f"{file} is larger than {MAX_SCRIPT_BYTES // 2**20} MiB, the most one script may be")
    return data


class _ScriptRun:
    """One script's lines applied in turn to a history, within the work limits."""

    def __init__(self, history: Any, file: str) -> None:
        self.history = history
        self.file = file
        self.decoder = msgspec.json.Decoder(command_union())
        self.events: list[tuple[int, Any]] = []  # (line, event), or (line, "Undid: ..." text) for undo/redo
        self.rolled = 0  # dice the app rolled so far: the random counter's steps (one per die, bar rare redraws)
        self.commands = 0
        self.work = 0

    def line(self, number: int, raw: bytes) -> None:
        if len(raw) > MAX_LINE_BYTES:
            raise _ScriptStop(
                f"{self.file}: line {number}: longer than {MAX_LINE_BYTES // 1024} KiB, the most one line may be"
            )
        line = raw.strip()
        if not line or line.startswith(b"#") or line.startswith(b"//"):
            return
        self.commands += 1
        self.work += max(1, len(self.history.state.combatants))
        if self.commands > MAX_SCRIPT_COMMANDS or self.work > MAX_SCRIPT_WORK:
            raise _ScriptStop(
                f"{self.file}: line {number}: too much for one script: at most {MAX_SCRIPT_COMMANDS:,} commands,"
                f" and {MAX_SCRIPT_WORK:,} counting each command once per combatant in the fight"
            )
        try:
            step = _undo_redo(line)
            if step:
                self.step(number, step)
            else:
                self.apply(number, line)
        except (msgspec.DecodeError, msgspec.ValidationError) as exc:
            raise _ScriptStop(f"{self.file}: line {number}: not a command: {exc}") from None
        except RuleError as exc:
            raise _ScriptStop(f"{self.file}: line {number}: {exc}") from None

    def step(self, number: int, step: str) -> None:
        """As ctrl+z / ctrl+y in the app: the fight steps back (or forward) one command."""
        node = self.history.undo() if step == "undo" else self.history.redo()
        if node is None:
            raise RuleError("Nothing to undo." if step == "undo" else "Nothing to redo.")
        verb = "Undid" if step == "undo" else "Redid"
        what = "; ".join(describe(e) for e in node.events[:2]) or "(no change)"
        more = len(node.events) - 2
        self.events.append((number, f"{verb}: {what}" + (f" (+{more} more)" if more > 0 else "")))

    def apply(self, number: int, line: bytes) -> None:
        from saves import script_lines  # the script runner's library words

        history = self.history
        # the library words (an add `from` a statblock, an attack's `weapon`): resolved against
        # the fight as it stands (saves/script_lines.py); every other line decodes as it is
        obj = msgspec.json.decode(line) if (b'"from"' in line or b'"weapon"' in line) else None
        if obj is not None and script_lines.uses_library(obj):
            command = script_lines.resolve(obj, history.state)
        else:
            command = self.decoder.decode(line)
        before = history.state.rng
        fight_before = history.state
        applied = list(history.apply(command))
        if obj is not None:
            for extra in script_lines.follow_up(obj, fight_before, applied):
                applied += history.apply(extra)
        for ev in applied:
            self.events.append((number, ev))
        after = history.state.rng
        if after.seed == before.seed:
            self.rolled += (after.counter - before.counter) % RNG_LIMIT
        if self.rolled > MAX_SCRIPT_DICE:
            raise _ScriptStop(f"{self.file}: line {number}: more than {MAX_SCRIPT_DICE:,} dice rolled in one script")


def _save_script(path: Path, history: Any) -> None:
    """The script's fight as a save file, its whole history replayed into it."""
    if path.exists():
        raise _ScriptStop(f"{path} already exists; not overwriting it")
    session = Session.create(path, history.nodes[0].state)
    for i in history.path()[1:]:
        session.apply(history.nodes[i].command)
    session.close()


def _script_output(args: argparse.Namespace, state: Any, events: list[tuple[int, Any]]) -> Any:
    """What the script prints: the summary (and the log), the events and the state, or the state."""
    if args.summary or args.log:
        if args.log:
            for number, ev in events:
                print(f"{number:>4}  {terminal_safe(ev if isinstance(ev, str) else describe(ev))}")
        return summary(state)
    if args.events:
        return {
            "events": [
                {"line": n, "text": ev, "event": None}
                if isinstance(ev, str)
                else {"line": n, "text": describe(ev), "event": msgspec.to_builtins(ev)}
                for n, ev in events
            ],
            "state": msgspec.to_builtins(state),
        }
    return msgspec.to_builtins(state)


def _undo_redo(line: bytes) -> str:
    """"undo" or "redo" for a line that is exactly {"cmd":"undo"} / {"cmd":"redo"}, else ""."""
    if b"undo" not in line and b"redo" not in line:
        return ""

    try:
        obj = msgspec.json.decode(line)
    except msgspec.DecodeError:
        return ""
    if isinstance(obj, dict) and obj.get("cmd") in ("undo", "redo"):
        if len(obj) > 1:
            raise RuleError(f"{obj['cmd']} takes no fields.")
        return str(obj["cmd"])
    return ""


def _channel(ch: Any, phases: int) -> str:
    """A channel as "Fireball 3-6", with where it stands when not under way and the round its ends
    fall in when it runs over a round change (`phases`: the ruleset's phases a round)."""
    start = f"{ch.start + phases} (last round)" if ch.start < 1 else str(ch.start)
    end = f"{ch.end - phases} (next round)" if ch.end > phases else str(ch.end)
    text = f"{ch.activity} {start}-{end}"
    if ch.status:
        text += f" {ch.status} in phase {ch.at}"
    return text


def summary(state: Any) -> dict[str, Any]:
    """A compact, readable view of a fight: what docs/commands.md shows for each worked example."""
    rs = get_ruleset(state.ruleset)
    combatants = {}
    for c in state.combatants:
        entry: dict[str, Any] = {"name": c.name}
        for p in c.health:
            entry[p.key] = f"{p.current}/{p.max}" + (f"+{p.temp}" if p.temp else "")
        for p in c.resources:
            entry[p.key] = f"{p.current}/{p.max}"
        if c.conditions:
            entry["conditions"] = [x.name + (f" {x.level}" if x.level > 1 else "") for x in c.conditions]
        if c.channels:
            entry["channels"] = [_channel(ch, rs.phases) for ch in c.channels]
        if c.initiative is not None:
            entry["initiative"] = c.initiative
        entry["economy"] = rs.describe_economy(c)
        combatants[c.id] = entry
    return {
        "round": state.round,
        "where": rs.phase_label(state),
        "current": state.current,
        "order": list(state.order),
        "combatants": combatants,
    }


if __name__ == "__main__":
    sys.exit(main())
