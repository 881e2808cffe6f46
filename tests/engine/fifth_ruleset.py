"""A toy ruleset that lives outside the engine and registers itself (issue 12): plain turns in the
order added, and one command and one event of its own."""

from __future__ import annotations

from msgspec.structs import replace

from engine import commands as C
from engine import events as E
from engine import register_ruleset
from engine.ruleset import Events, Ruleset, begin_turn, finish_turn
from engine.state import Fight


class Shout(C.Command, tag="toy_shout"):
    who: str


class Shouted(E.Event, tag="toy_shouted"):
    who: str
    name: str

    def text(self) -> str:
        return f"{self.name} shouts"


class Toy(Ruleset):
    id = "toy"
    title = "Toy"
    summary = "Turns in the order added."

    def handlers(self):
        return {Shout: self._shout}

    def _shout(self, f: Fight, cmd: Shout, ev: Events) -> Fight:
        ev.append(Shouted(cmd.who, f.get(cmd.who).name))
        return f

    def start(self, f: Fight, cmd: C.StartFight, ev: Events) -> Fight:
        f = replace(f, order=tuple(c.id for c in f.combatants), round=1, phase=0)
        return begin_turn(self, f, f.order[0], ev)

    def advance(self, f: Fight, ev: Events) -> Fight:
        f = finish_turn(self, f, ev)
        live = [x for x in f.order if f.find(x)]
        if not live:
            return f
        i = (f.phase + 1) % len(live)
        f = replace(f, phase=i, round=f.round + (i == 0))
        return begin_turn(self, f, live[i], ev)


register_ruleset(Toy(), commands=(Shout,), events=(Shouted,))
