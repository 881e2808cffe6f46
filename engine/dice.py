"""Dice notation and a deterministic, state-held random source.

The random source is a value (seed + counter) that lives inside the fight state, so `apply` stays a pure
function: the same state and command always roll the same numbers, and a replayed journal never
rerolls. Draws use SplitMix64 on (seed, counter), which needs no hidden generator object.

Notation (case-insensitive, spaces ignored):
    NdM        N dice of M sides (N defaults to 1); `d%` is d100
    NdMkhK     keep the K highest;  NdMklK  keep the K lowest
    +K / -K    constants; dice terms may also be subtracted (`1d8-1d4`)
    adv / dis  trailing word: the first d20 term is rolled twice, keeping the higher / lower
"""

import re
from typing import Annotated

import msgspec

from engine.errors import RuleError

_MASK = (1 << 64) - 1
# seeds and counters stay below 2**63: a save stores them as msgpack integers and the state's
# constraints refuse anything larger, so the counter wraps there instead of growing past it
RNG_LIMIT = 1 << 63
MAX_DICE = 1000
MAX_SIDES = 10_000
MAX_TERMS = 50


_Rng63 = Annotated[int, msgspec.Meta(ge=0, le=RNG_LIMIT - 1)]


class Rng(msgspec.Struct, frozen=True, gc=False, omit_defaults=True, tag="rng"):
    """A position in a reproducible stream of random numbers."""

    seed: _Rng63 = 0
    counter: _Rng63 = 0


def _splitmix(seed: int, counter: int) -> int:
    z = (seed * 0x9E3779B97F4A7C15 + (counter + 1) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


def draw(rng: Rng, sides: int) -> tuple[int, Rng]:
    """One fair die of `sides` sides (rejection sampling: no modulo bias)."""
    seed, counter = rng.seed, rng.counter
    limit = (1 << 64) - ((1 << 64) % sides)
    while True:
        value = _splitmix(seed, counter)
        counter = (counter + 1) % RNG_LIMIT
        if value < limit:
            return value % sides + 1, Rng(seed, counter)


class Term(msgspec.Struct, frozen=True, gc=False, omit_defaults=True, tag="term"):
    """One parsed dice term: `count` dice of `sides`, or a constant when sides == 0."""

    count: int
    sides: int
    sign: int = 1
    keep: int = 0  # 0 keeps all; >0 keeps the highest `keep`; <0 keeps the lowest `-keep`


class TermResult(msgspec.Struct, frozen=True, gc=False, omit_defaults=True, tag="term_result"):
    sides: int
    rolls: tuple[int, ...]
    kept: tuple[int, ...]
    sign: int = 1


class DiceRoll(msgspec.Struct, frozen=True, gc=False, omit_defaults=True, tag="dice"):
    """What a dice expression rolled: every die, what was kept, the constant and the total."""

    expr: str
    terms: tuple[TermResult, ...]
    constant: int
    total: int
    entered: bool = False  # the numbers came from the table, not from the app

    def text(self) -> str:
        """A compact reading of the roll for the log: `2d6+3 = [4, 5]+3 = 12`."""
        if self.entered and not self.terms and self.constant == 0:
            # only the total was entered (see engine.mechanics.given_total): no dice to show
            return f"{self.expr} = {self.total} (entered total)"
        parts: list[str] = []
        for t in self.terms:
            sign = "-" if t.sign < 0 else ("+" if parts else "")
            shown = ", ".join(_marked(t))
            parts.append(f"{sign}[{shown}]")
        if self.constant:
            parts.append(f"{'+' if self.constant > 0 else '-'}{abs(self.constant)}")
        mark = " (entered)" if self.entered else ""
        return f"{self.expr} = {''.join(parts) or '0'} = {self.total}{mark}"


def _marked(t: TermResult) -> list[str]:
    """Each die as text; dice that were rolled but not kept are marked with `~`."""
    left = list(t.kept)
    out: list[str] = []
    for r in t.rolls:
        if r in left:
            left.remove(r)
            out.append(str(r))
        else:
            out.append(f"~{r}")
    return out


# ASCII digits only: \d (and int(), str.isdigit) also take "٣" and other Unicode digits
_TOKEN = re.compile(r"([+-]?)([0-9]*)d([0-9]+|%)(?:(kh|kl)([0-9]+))?|([+-]?)([0-9]+)", re.ASCII)
_JOINED = re.compile(r"[^\s+-]\s+[^\s+-]")


class Expression(msgspec.Struct, frozen=True, gc=False):
    text: str
    terms: tuple[Term, ...]
    constant: int

    @property
    def dice_count(self) -> int:
        return sum(t.count for t in self.terms)

    def minimum(self) -> int:
        return self.constant + sum(
            (_kept_n(t) * 1 if t.sign > 0 else -_kept_n(t) * t.sides) for t in self.terms
        )

    def maximum(self) -> int:
        return self.constant + sum(
            (_kept_n(t) * t.sides if t.sign > 0 else -_kept_n(t)) for t in self.terms
        )


def _kept_n(t: Term) -> int:
    return abs(t.keep) if t.keep else t.count


_PARSE_CACHE: dict[str, Expression] = {}


def parse(text: str) -> Expression:
    """Parse dice notation; a RuleError explains what is wrong with a bad expression."""
    cached = _PARSE_CACHE.get(text)
    if cached is not None:
        return cached
    body, mode = _body(text)
    terms, constant = _terms(text, body)
    if mode:
        _advantage(text, terms, mode)
    expr = Expression(text.strip(), tuple(terms), constant)
    if len(_PARSE_CACHE) < 4096:
        _PARSE_CACHE[text] = expr
    return expr


def _body(text: str) -> tuple[str, int]:
    """The expression without spaces, and its trailing advantage (1) or disadvantage (-1) word."""
    raw = text.strip().lower()
    if not raw:
        raise RuleError("Empty dice expression.")
    if len(raw) > 200:
        raise RuleError("That dice expression is too long.")
    if not raw.isprintable() or not raw.isascii():
        # dice are plain ASCII: Unicode digits and look-alike letters are refused, not guessed at
        raise RuleError("A dice expression is one line of plain ASCII text (digits 0-9, d, +, -).")
    mode = 0
    for word, m in (("adv", 1), ("dis", -1)):
        if raw.endswith(word):
            raw, mode = raw[: -len(word)].strip(), m
            break  # one trailing word: "disadv" or "adv dis" is refused below, not guessed
    if _JOINED.search(raw):
        # spaces may sit around + and -, never inside a term: "2d6 3" is not 2d63
        raise RuleError(f"'{text.strip()}': put + or - between the terms.")
    body = raw.replace(" ", "")
    if not body:
        raise RuleError(f"'{text}' has no dice or numbers.")
    return body, mode


def _terms(text: str, body: str) -> tuple[list[Term], int]:
    """The dice terms of `body` and the sum of its numbers, within the limits."""
    terms: list[Term] = []
    constant = 0
    pos = 0
    while pos < len(body):
        m = _TOKEN.match(body, pos)
        if not m or (pos > 0 and body[pos] not in "+-"):
            raise RuleError(f"Cannot read the dice expression '{text}' at '{body[pos:]}'.")
        pos = m.end()
        if m.group(3) is not None:
            terms.append(_dice_term(text, m))
        else:
            value = int(m.group(7))
            if value > 1_000_000:
                raise RuleError(f"'{text}': {value} is too large.")
            constant += -value if m.group(6) == "-" else value
        if len(terms) > MAX_TERMS:
            raise RuleError(f"'{text}' has too many terms.")
        if sum(t.count for t in terms) > MAX_DICE:
            raise RuleError(f"'{text}': roll at most {MAX_DICE} dice in one expression.")
    return terms, constant


def _dice_term(text: str, m: re.Match[str]) -> Term:
    """One dice term ("-2d6", "4d6kh3", "d%") of `text`, read from its token's match."""
    sign = -1 if m.group(1) == "-" else 1
    count = int(m.group(2)) if m.group(2) else 1
    sides = 100 if m.group(3) == "%" else int(m.group(3))
    if count < 1 or count > MAX_DICE:
        raise RuleError(f"'{text}': roll between 1 and {MAX_DICE} dice.")
    if sides < 2 or sides > MAX_SIDES:
        raise RuleError(f"'{text}': dice need between 2 and {MAX_SIDES} sides.")
    keep = 0
    if m.group(4):
        k = int(m.group(5))
        if k < 1 or k > count:
            raise RuleError(f"'{text}': can keep between 1 and {count} of {count} dice.")
        keep = k if m.group(4) == "kh" else -k
    return Term(count, sides, sign, keep)


def _advantage(text: str, terms: list[Term], mode: int) -> None:
    """Advantage (mode 1) or disadvantage (-1): the first plain d20 becomes two, one kept."""
    for i, t in enumerate(terms):
        if t.sides == 20 and t.count == 1 and not t.keep:
            terms[i] = Term(2, 20, t.sign, mode)
            return
    raise RuleError(f"'{text}': advantage and disadvantage need a d20 in the expression.")


def roll(
    text: str | Expression, rng: Rng, given: tuple[int, ...] | None = None
) -> tuple[DiceRoll, Rng]:
    """Roll an expression; `given` supplies every die from the table, in order, instead.

    A given 0 on a d10 reads as 10 and on a d100 as 100, as the faces show them ("0", "00").
    With given dice the random source does not move, so a fight played with entered dice and one
    played with seeded dice that happen to fall the same way differ only in the `entered` mark.
    """
    expr = parse(text) if isinstance(text, str) else text
    if given is not None:
        return _roll_given(expr, given), rng
    seed = rng.seed
    counter = start = rng.counter
    results: list[TermResult] = []
    total = expr.constant
    for t in expr.terms:
        sides = t.sides
        limit = (1 << 64) - ((1 << 64) % sides)
        rolls: list[int] = []
        for _ in range(t.count):
            # `draw`, written out (one Rng at the end instead of one a die): every attack, damage
            # and start-of-turn roll comes here
            while True:
                z = (seed * 0x9E3779B97F4A7C15 + (counter + 1) * 0xBF58476D1CE4E5B9) & _MASK
                z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
                z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
                z ^= z >> 31
                counter = (counter + 1) % RNG_LIMIT
                if z < limit:
                    break
            rolls.append(z % sides + 1)
        total += _kept_total(t, rolls, results)
    after = rng if counter == start else Rng(seed, counter)
    return DiceRoll(expr.text, tuple(results), expr.constant, total, False), after


def _kept_total(t: Term, rolls: list[int], results: list[TermResult]) -> int:
    """Keep the term's dice (the highest or lowest `keep`, or all), record them in `results`, and
    return what they add to the total."""
    if t.keep:
        kept = tuple(sorted(rolls, reverse=t.keep > 0)[: abs(t.keep)])
    else:
        kept = tuple(rolls)
    results.append(TermResult(t.sides, tuple(rolls), kept, t.sign))
    return t.sign * sum(kept)


def _roll_given(expr: Expression, given: tuple[int, ...]) -> DiceRoll:
    """The table's dice for `expr`, checked against it."""
    need = expr.dice_count
    if len(given) != need:
        raise RuleError(f"'{expr.text}' needs {need} die result{'s' if need != 1 else ''}, got {len(given)}.")
    results: list[TermResult] = []
    total = expr.constant
    i = 0
    for t in expr.terms:
        rolls: list[int] = []
        for _ in range(t.count):
            v = given[i]
            i += 1
            if v == 0 and t.sides in (10, 100):
                v = t.sides  # a d10 shows 0 for 10, percentile dice 00 for 100: read as the table does
            if not 1 <= v <= t.sides:
                raise RuleError(f"{v} is not a possible result on a d{t.sides}.")
            rolls.append(v)
        total += _kept_total(t, rolls, results)
    return DiceRoll(expr.text, tuple(results), expr.constant, total, True)


def first_d20(r: DiceRoll) -> int | None:
    """The kept natural d20 of a roll (for natural 1 / natural 20 rules)."""
    for t in r.terms:
        if t.sides == 20 and t.kept:
            return t.kept[0]
    return None
