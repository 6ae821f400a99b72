"""Ad-hoc dice expressions for the /roll command, e.g. "2d6+1", "4d6kh3" or "6d6>=4".

Grammar (case-insensitive, spaces ignored)::

    [N] ( d S | avd ) [ kh K | kl K ] [ >= T ] { (+|-) M }

N defaults to 1 and is at most 100; S is 2 to 100 sides; K is 1 to N; T lies within the
die's faces; each |M| is at most 1000.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules_core.dice import MAX_DICE, Dice, Modifier, Roll, format_expression
from rules_core.odds import RollSpec

MAX_MODIFIER = 1000
MAX_LENGTH = 200
MAX_SIDES = 100
_MAX_DIGITS = 9
_DIGITS = "0123456789"
_EXAMPLES = "try 2d6, d6+1, 3avd, 6d6>=4 or 4d6kh3"


class DiceExpressionError(ValueError):
    """A dice expression that cannot be rolled; the message says why."""


@dataclass(frozen=True)
class DiceExpression:
    """A parsed dice expression: how many dice of which kind, keep, target and modifiers."""

    count: int
    kind: str
    keep: int | None = None
    keep_lowest: bool = False
    target: int | None = None
    modifiers: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "modifiers", tuple(self.modifiers))
        _check_count(self.count)
        top = _top_face(self.kind)
        _check_keep(self.keep, self.count, self.keep_lowest)
        if self.target is not None and not 1 <= self.target <= top:
            raise DiceExpressionError(
                f"target {self.target} is out of range for a {self.kind}: use 1 to {top}"
            )
        for value in self.modifiers:
            if abs(value) > MAX_MODIFIER:
                raise DiceExpressionError(
                    f"modifier {value:+d} is too large: at most {MAX_MODIFIER} either way"
                )

    @property
    def mode(self) -> str:
        """The Roll mode: "pool" when there is a target, otherwise "sum"."""
        return "sum" if self.target is None else "pool"

    @property
    def text(self) -> str:
        """The canonical text, e.g. "4D6kh3+1"."""
        dice = format_expression(
            self.count, self.kind, self.mode, self.keep, self.keep_lowest, self.target
        )
        return dice + "".join(f"{value:+d}" for value in self.modifiers)

    def spec(self, label: str = "Roll") -> RollSpec:
        """The roll this expression describes, labelled ``label``."""
        modifiers = tuple(Modifier(value) for value in self.modifiers)
        return RollSpec(
            label,
            self.count,
            self.kind,
            self.mode,
            self.target,
            self.keep,
            self.keep_lowest,
            modifiers,
        )

    def roll(self, dice: Dice, label: str = "Roll") -> Roll:
        """Roll this expression with ``dice``."""
        return self.spec(label).roll(dice)


def _check_count(count: int) -> None:
    if count < 1:
        raise DiceExpressionError(f"roll at least 1 die, got {count}")
    if count > MAX_DICE:
        raise DiceExpressionError(f"at most {MAX_DICE} dice can be rolled at once, got {count}")


def _top_face(kind: str) -> int:
    if kind == "AvD":
        return 5
    sides = int(kind[1:]) if kind[:1] == "D" and kind[1:].isascii() and kind[1:].isdigit() else 0
    if not 2 <= sides <= MAX_SIDES:
        raise DiceExpressionError(f"a die must have 2 to {MAX_SIDES} sides, got {kind.lower()!r}")
    return sides


def _check_keep(keep: int | None, count: int, lowest: bool) -> None:
    code = "kl" if lowest else "kh"
    if keep is not None and keep < 1:
        raise DiceExpressionError(f"keep at least 1 die, got {code}{keep}")
    if keep is not None and keep > count:
        raise DiceExpressionError(
            f"cannot keep {keep} dice out of {count} ({code}{keep}): keep 1 to {count}"
        )


class _Scanner:
    """Reads a compacted expression left to right, reporting where parsing failed."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0

    @property
    def done(self) -> bool:
        return self.pos >= len(self.text)

    def take(self, token: str) -> bool:
        if self.text.startswith(token, self.pos):
            self.pos += len(token)
            return True
        return False

    def number(self) -> int | None:
        start = self.pos
        while not self.done and self.text[self.pos] in _DIGITS:
            self.pos += 1
        if self.pos - start > _MAX_DIGITS:
            self.pos = start
            raise self.fail(f"number too long (at most {_MAX_DIGITS} digits)")
        return int(self.text[start : self.pos]) if self.pos > start else None

    def required_number(self, what: str) -> int:
        value = self.number()
        if value is None:
            raise self.fail(f"expected {what}")
        return value

    def fail(self, message: str) -> DiceExpressionError:
        found = f"found {self.text[self.pos]!r}" if not self.done else "found the end"
        return DiceExpressionError(
            f"{message} at position {self.pos + 1} of {self.text!r} ({found}); {_EXAMPLES}"
        )


def parse_expression(text: str) -> DiceExpression:
    """Parse an expression such as "2d6-1" or "6d6>=4"; DiceExpressionError says what is wrong."""
    if not isinstance(text, str):
        raise DiceExpressionError(f"a dice expression must be text, got {text!r}")
    compact = "".join(text.split()).lower()
    if not compact:
        raise DiceExpressionError(f"empty dice expression: {_EXAMPLES}")
    if len(compact) > MAX_LENGTH:
        raise DiceExpressionError(f"dice expression too long (at most {MAX_LENGTH} characters)")
    scanner = _Scanner(compact)
    count = scanner.number()
    kind = _parse_kind(scanner)
    keep, lowest = _parse_keep(scanner)
    target = scanner.required_number("a target after '>='") if scanner.take(">=") else None
    modifiers = _parse_modifiers(scanner)
    if not scanner.done:
        raise scanner.fail("expected kh, kl, >=, + or - next, or the end")
    return DiceExpression(1 if count is None else count, kind, keep, lowest, target, modifiers)


def _parse_kind(scanner: _Scanner) -> str:
    if scanner.take("avd"):
        return "AvD"
    if scanner.take("d"):
        return f"D{scanner.required_number('the number of sides after d (as in d6)')}"
    raise scanner.fail("expected a die such as d6, 2d6 or 3avd")


def _parse_keep(scanner: _Scanner) -> tuple[int | None, bool]:
    for code, lowest in (("kh", False), ("kl", True)):
        if scanner.take(code):
            return scanner.required_number(f"how many dice to keep after {code!r}"), lowest
    return None, False


def _parse_modifiers(scanner: _Scanner) -> tuple[int, ...]:
    modifiers: list[int] = []
    while True:
        for sign, factor in (("+", 1), ("-", -1)):
            if scanner.take(sign):
                modifiers.append(factor * scanner.required_number(f"a number after {sign!r}"))
                break
        else:
            return tuple(modifiers)


def roll_expression(dice: Dice, text: str, label: str = "Roll") -> Roll:
    """Parse ``text`` and roll it with ``dice``; DiceExpressionError if it cannot be rolled."""
    return parse_expression(text).roll(dice, label)
