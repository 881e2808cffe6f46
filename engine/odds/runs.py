"""Runs in chunks: in this process, or in a pool of worker processes (spawned, so a pool started from
the app's worker thread is as safe as one from the command line). A chunk gets the fight as msgspec
bytes and sends back its Tally as bytes; each run's dice come from its own seed (`play.run_seed`), so
the result is the same for a seed whatever the number of workers."""

import importlib
from typing import Any

import msgspec

from engine.errors import RuleError
from engine.odds.play import CAP, Tactics, play, run_seed
from engine.odds.report import FOES, PARTY, Counter, Member, Tally
from engine.plugins import get_plugin
from engine.ruleset import get_ruleset
from engine.state import Fight, state_hook

_LOADED: dict[str, Tactics] = {}


def tactics_for(rid: str) -> Tactics:
    """The auto-play the ruleset's plugin names, imported the first time a simulation asks for it;
    a RuleError in one line when the ruleset has none."""
    hit = _LOADED.get(rid)
    if hit is not None:
        return hit
    rs = get_ruleset(rid)
    plugin = get_plugin(rid)
    spec = plugin.tactics if plugin is not None else ""
    if not spec:
        raise RuleError(f"{rs.title} has no auto-play: odds cannot be simulated")
    module, _, attr = spec.partition(":")
    try:
        found = getattr(importlib.import_module(module.strip()), attr.strip())
    except (ImportError, AttributeError) as exc:
        raise RuleError(f"{rs.title}'s auto-play ({spec}) could not be loaded: {exc}") from None
    if not isinstance(found, Tactics):
        raise RuleError(f"{rs.title}'s auto-play ({spec}) is not an engine.odds Tactics")
    _LOADED[rid] = found
    return found


def members(f: Fight) -> tuple[Member, ...]:
    """The combatants the report follows: everyone on either side (neutrals stay out of it)."""
    return tuple(
        Member(c.id, c.name, c.side, c.health[0].max if c.health else 0)
        for c in f.combatants
        if c.side in (PARTY, FOES)
    )


def count(f: Fight, tactics: Tactics, start: int, n: int, seed: int, cap: int = CAP,
          counter: Counter | None = None) -> Counter:
    """Runs start .. start+n-1 of `f`, counted."""
    ids = tuple(m.id for m in members(f))
    counter = counter if counter is not None else Counter(len(ids))
    memo: dict[Any, Any] = {}
    for i in range(start, start + n):
        r = play(f, tactics, run_seed(seed, i), ids, memo, cap)
        counter.add(r.outcome, r.rounds, r.downs, r.health)
    return counter


def encode_fight(f: Fight) -> bytes:
    return msgspec.msgpack.encode(f)


def chunk(payload: bytes, start: int, n: int, seed: int, cap: int = CAP) -> bytes:
    """A worker process's job: runs start .. start+n-1 of the fight in `payload`, their Tally as bytes."""
    f = msgspec.msgpack.decode(payload, type=Fight, dec_hook=state_hook)
    return msgspec.msgpack.encode(count(f, tactics_for(f.ruleset), start, n, seed, cap).tally())


def decode_tally(data: bytes) -> Tally:
    return msgspec.msgpack.decode(data, type=Tally)
