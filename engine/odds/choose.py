"""The choices every ruleset's auto-play makes the same way: whom to attack, how many an area
catches, what a statblock attack or ability is worth on average (docs/odds.md).

- Target: the most hurt enemy it can attack: the lowest share of its health left (all its health
  tracks together: nine-phase Grit and Hit Points), then the fewest points left, then the fight's
  order.
- An area (an ability whose `targets` is 0) catches half the enemies standing, rounded up, the most
  hurt first; an ability naming how many it may catch catches that many, at most all of them. There
  are no positions, so this is the simplification that stands for a cone or a burst.
- Expected damage: dice at their average (kept dice too), times the chance it lands.
"""

from engine.dice import parse
from engine.pools import find_pool
from engine.state import Combatant


def hurt_key(c: Combatant, index: int) -> tuple[float, int, int]:
    now = 0
    top = 0
    for p in c.health:
        now += max(0, p.current) + p.temp
        top += p.max
    return (now / top if top > 0 else 0.0, now, index)


def ranked(cs: list[Combatant]) -> list[Combatant]:
    """Most hurt first."""
    keyed = sorted((hurt_key(c, i), i) for i, c in enumerate(cs))
    return [cs[i] for _, i in keyed]


def most_hurt(cs: list[Combatant]) -> Combatant | None:
    best: Combatant | None = None
    key = None
    for i, c in enumerate(cs):
        k = hurt_key(c, i)
        if key is None or k < key:
            best, key = c, k
    return best


def caught(targets: int, standing: int) -> int:
    """How many enemies an ability catches: `targets` when it names a number (at most those
    standing), half of those standing (rounded up) for an area (`targets` 0)."""
    if standing <= 0:
        return 0
    if targets > 0:
        return min(targets, standing)
    return (standing + 1) // 2


_MEANS: dict[str, tuple[float, float]] = {}


def mean(dice: str) -> float:
    """The average of a dice expression ("2d6+3": 10.0); a flat number is itself."""
    return _split(dice)[0] + _split(dice)[1]


def dice_mean(dice: str) -> float:
    """The average of the dice alone, without the flat part (what a critical doubles)."""
    return _split(dice)[0]


def _split(dice: str) -> tuple[float, float]:
    hit = _MEANS.get(dice)
    if hit is None:
        e = parse(dice)
        rolled = 0.0
        for t in e.terms:
            n = abs(t.keep) if t.keep else t.count
            rolled += t.sign * n * (t.sides + 1) / 2
        hit = (rolled, float(e.constant))
        if len(_MEANS) < 4096:
            _MEANS[dice] = hit
    return hit


def maximum(dice: str) -> int:
    return parse(dice).maximum()


def factor(c: Combatant, typ: str, halves: bool = True) -> float:
    """What a damage type comes to on `c`: none when immune; half when it resists, double when it
    is vulnerable (`halves`: the ruleset reads resistances so, d20)."""
    if not typ:
        return 1.0
    low = typ.lower()
    if c.immune and any(x.lower() == low for x in c.immune):
        return 0.0
    if not halves:
        return 1.0
    out = 1.0
    if c.resist and any(x.lower() == low for x in c.resist):
        out *= 0.5
    if c.vulnerable and any(x.lower() == low for x in c.vulnerable):
        out *= 2.0
    return out


def ready(c: Combatant, spend: tuple[tuple[str, int], ...]) -> bool:
    """Whether `c` has what using an ability spends (its pools: a recharge not spent, a use or a
    slot left, legendary actions, focus); the engine refuses it otherwise."""
    for key, n in spend:
        p = find_pool(c, key)
        if p is None or p.current < n:
            return False
    return True
