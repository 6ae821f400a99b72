"""Dice rolls drawn from an injected random.Random, each kept as a self-explaining record."""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TypeVar

MAX_DICE = 100
AVD_FACES = (2, 3, 3, 4, 4, 5)
MODES = ("sum", "max", "pool")
_SIDED_KIND = re.compile(r"D([1-9][0-9]*)")
_T = TypeVar("_T")


@lru_cache(maxsize=256)
def faces_of(kind: str) -> tuple[int, ...]:
    """The faces of a die kind ("D6", "AvD" or "D2".."D100"); ValueError if unknown (kept:
    every die of every roll asks)."""
    if kind == "AvD":
        return AVD_FACES
    match = _SIDED_KIND.fullmatch(kind)
    if match is None or not 2 <= int(match.group(1)) <= 100:
        raise ValueError(f"unknown die kind {kind!r}: use 'D6', 'AvD' or 'D2' to 'D100'")
    return tuple(range(1, int(match.group(1)) + 1))


def format_expression(
    n: int,
    kind: str,
    mode: str = "sum",
    keep: int | None = None,
    keep_lowest: bool = False,
    target: int | None = None,
) -> str:
    """The canonical expression of a roll, e.g. "D6", "4D6kh3", "6D6>=4" or "2D6 max"."""
    text = kind if n == 1 else f"{n}{kind}"
    if keep is not None:
        text += f"{'kl' if keep_lowest else 'kh'}{keep}"
    if target is not None:
        text += f">={target}"
    return text + " max" if mode == "max" else text


@dataclass(frozen=True)
class Modifier:
    """A signed adjustment to a roll's total and the reason for it, e.g. +1 "chivalrous"."""

    value: int
    reason: str = ""

    def __post_init__(self) -> None:
        if type(self.value) is not int:
            raise ValueError(f"modifier value must be an integer, got {self.value!r}")
        if not isinstance(self.reason, str):
            raise ValueError(f"modifier reason must be text, got {self.reason!r}")

    def describe(self) -> str:
        """The modifier as shown in a roll line, e.g. "+1 chivalrous" or "-1"."""
        return f"{self.value:+d} {self.reason}".rstrip()


@dataclass(frozen=True)
class Purpose:
    """What a roll is for, in data: who rolls (an id), for what, against whom (an id) and the
    table row or column it is read on. Programs read it; players read the roll's label."""

    roller: str
    for_what: str
    against: str | None = None
    row: str | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.roller, str) or not isinstance(self.for_what, str):
            raise ValueError("a roll's purpose names who rolls and for what, as text")
        if not self.for_what.strip():
            raise ValueError("a roll's purpose must say what it is for")

    def to_dict(self) -> dict[str, str]:
        """A JSON-compatible dict, without the parts that are not given."""
        found = {"roller": self.roller, "for_what": self.for_what}
        if self.against is not None:
            found["against"] = self.against
        if self.row is not None:
            found["row"] = self.row
        return found

    @classmethod
    def from_dict(cls, data: object) -> Purpose:
        """Rebuild a Purpose from ``to_dict`` output; ValueError if it is malformed."""
        if not isinstance(data, Mapping):
            raise ValueError(f"roll record: a purpose must be a mapping, got {data!r}")
        against, row = data.get("against"), data.get("row")
        if not all(part is None or isinstance(part, str) for part in (against, row)):
            raise ValueError(f"roll record: a purpose's against and row must be text: {data!r}")
        return cls(_typed(data, "roller", str), _typed(data, "for_what", str), against, row)


@dataclass(frozen=True)
class Die:
    """One die of a roll: its kind, face, whether it counts, and any faces it was re-rolled from."""

    kind: str
    face: int
    kept: bool = True
    previous: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        faces = faces_of(self.kind)
        object.__setattr__(self, "previous", tuple(self.previous))
        for face in (*self.previous, self.face):
            if type(face) is not int or face not in faces:
                raise ValueError(f"{face!r} is not a face of a {self.kind}")
        if not isinstance(self.kept, bool):
            raise ValueError(f"kept must be true or false, got {self.kept!r}")

    @property
    def rerolled(self) -> bool:
        """Whether this die was re-rolled (its earlier faces are in ``previous``)."""
        return bool(self.previous)

    def describe(self, target: int | None = None) -> str:
        """The die as shown in a roll line: ~~dropped~~, **success**, ~~old~~→new."""
        history = "".join(f"~~{face}~~→" for face in self.previous)
        if not self.kept:
            return f"{history}~~{self.face}~~"
        if target is not None and self.face >= target:
            return f"{history}**{self.face}**"
        return f"{history}{self.face}"


def keep_flags(faces: Sequence[int], keep: int | None, lowest: bool = False) -> tuple[bool, ...]:
    """Which dice are kept when keeping the ``keep`` highest (or lowest); ties keep earlier dice."""
    if keep is None:
        return tuple(True for _ in faces)
    sign = 1 if lowest else -1
    order = sorted(range(len(faces)), key=lambda i: (sign * faces[i], i))
    kept = set(order[:keep])
    return tuple(i in kept for i in range(len(faces)))


def outcome(
    mode: str, dice: Sequence[Die], modifiers: Sequence[Modifier], target: int | None
) -> tuple[int, int | None]:
    """The total and the number of successes (pools only) that these dice give."""
    kept = [die.face for die in dice if die.kept]
    bonus = sum(modifier.value for modifier in modifiers)
    if mode == "pool":
        successes = sum(1 for face in kept if target is not None and face >= target)
        return max(0, successes + bonus), successes
    if mode == "max":
        return max(kept) + bonus, None
    return sum(kept) + bonus, None


@dataclass(frozen=True)
class Roll:
    """An immutable record of one roll: what it was for, the dice, modifiers and result.

    ``mode`` is "sum" (total of kept dice), "max" (highest kept die) or "pool" (dice at or
    above ``target`` are successes). Modifiers add to the total; a pool's total is its
    successes plus modifiers, never below 0. Construction checks that the record is
    consistent, so a stored roll can be verified by rebuilding it with ``from_dict``.
    """

    label: str
    expression: str
    dice: tuple[Die, ...]
    modifiers: tuple[Modifier, ...] = ()
    total: int = 0
    target: int | None = None
    successes: int | None = None
    mode: str = "sum"
    keep: int | None = None
    keep_lowest: bool = False
    dice_modifiers: tuple[Modifier, ...] = ()  # changes to the number of dice, with reasons
    purpose: Purpose | None = None  # who rolls, for what: read by programs, never rendered

    def __post_init__(self) -> None:
        object.__setattr__(self, "dice", tuple(self.dice))
        object.__setattr__(self, "modifiers", tuple(self.modifiers))
        object.__setattr__(self, "dice_modifiers", tuple(self.dice_modifiers))
        check_label(self.label)
        self._check_shape()
        self._check_keep()
        expected = outcome(self.mode, self.dice, self.modifiers, self.target)
        if (self.total, self.successes) != expected:
            raise ValueError(
                f"roll {self.label!r}: total {self.total} and successes {self.successes} do"
                f" not match the dice (expected {expected[0]} and {expected[1]})"
            )

    def _check_shape(self) -> None:
        check_mode(self.mode, self.keep, self.target)
        if not isinstance(self.expression, str) or not isinstance(self.keep_lowest, bool):
            raise ValueError("a roll's expression must be text and keep_lowest true or false")
        if not self.dice or not all(isinstance(die, Die) for die in self.dice):
            raise ValueError("a roll needs at least one Die")
        if not all(isinstance(m, Modifier) for m in (*self.modifiers, *self.dice_modifiers)):
            raise ValueError("roll modifiers must be Modifier records")
        if self.purpose is not None and not isinstance(self.purpose, Purpose):
            raise ValueError("a roll's purpose must be a Purpose record")

    def _check_keep(self) -> None:
        if self.keep is not None and not 1 <= self.keep <= len(self.dice):
            raise ValueError(f"keep must be between 1 and {len(self.dice)}, got {self.keep}")
        flags = keep_flags(self.faces, self.keep, self.keep_lowest)
        expected = sorted(face for face, kept in zip(self.faces, flags, strict=True) if kept)
        if sorted(self.kept_faces) != expected:
            raise ValueError(f"roll {self.label!r}: the kept dice are not the ones kept")

    @property
    def faces(self) -> tuple[int, ...]:
        """The current face of every die, kept or dropped, in rolling order."""
        return tuple(die.face for die in self.dice)

    @property
    def kept_faces(self) -> tuple[int, ...]:
        """The faces of the dice that count, in rolling order."""
        return tuple(die.face for die in self.dice if die.kept)

    def describe(self) -> str:
        """One self-explaining line, e.g. "Shooting: 6D6>=4 (1, **4**, 2) = 1 success"."""
        dice = ", ".join(die.describe(self.target) for die in self.dice)
        modifiers = "".join(f" {modifier.describe()}" for modifier in self.modifiers)
        result = f"{self.total}"
        if self.mode == "pool":
            result += " success" if self.total == 1 else " successes"
        count = ", ".join(_dice_words(m) for m in self.dice_modifiers)
        count = f" [{count}]" if count else ""
        return f"{self.label}: {self.expression}{count} ({dice}){modifiers} = {result}"

    def to_dict(self) -> dict[str, object]:
        """A JSON-compatible dict that ``Roll.from_dict`` turns back into an equal Roll."""
        return (
            {
                "label": self.label,
                "expression": self.expression,
                "mode": self.mode,
                "dice": [
                    {"kind": d.kind, "face": d.face, "kept": d.kept, "previous": list(d.previous)}
                    for d in self.dice
                ],
                "modifiers": [{"value": m.value, "reason": m.reason} for m in self.modifiers],
                "total": self.total,
                "target": self.target,
                "successes": self.successes,
                "keep": self.keep,
                "keep_lowest": self.keep_lowest,
            }
            | (
                {
                    "dice_modifiers": [
                        {"value": m.value, "reason": m.reason} for m in self.dice_modifiers
                    ]
                }
                if self.dice_modifiers
                else {}
            )
            | ({} if self.purpose is None else {"purpose": self.purpose.to_dict()})
        )  # only when there are some: records of rolls without them stay as they were

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> Roll:
        """Rebuild a Roll from ``to_dict`` output; ValueError if it is malformed or inconsistent."""
        if not isinstance(data, Mapping):
            raise ValueError("a roll record must be a mapping")
        return cls(
            label=_typed(data, "label", str),
            expression=_typed(data, "expression", str),
            dice=tuple(_die_from_dict(item) for item in _typed(data, "dice", list)),
            modifiers=tuple(_modifier_from_dict(m) for m in _typed(data, "modifiers", list)),
            total=_typed(data, "total", int),
            target=_optional_int(data, "target"),
            successes=_optional_int(data, "successes"),
            mode=_typed(data, "mode", str),
            keep=_optional_int(data, "keep"),
            keep_lowest=_typed(data, "keep_lowest", bool),
            dice_modifiers=tuple(
                _modifier_from_dict(m)
                for m in (_typed(data, "dice_modifiers", list) if "dice_modifiers" in data else [])
            ),
            purpose=None if "purpose" not in data else Purpose.from_dict(data["purpose"]),
        )


def _dice_words(modifier: Modifier) -> str:
    """A change to the number of dice as a roll line shows it, e.g. "+1 die charging"."""
    dice = "die" if abs(modifier.value) == 1 else "dice"
    return f"{modifier.value:+d} {dice} {modifier.reason}".rstrip()


def _typed(data: Mapping[str, object], key: str, kind: type[_T]) -> _T:
    value = data.get(key)
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise ValueError(f"roll record: {key!r} must be of type {kind.__name__}, got {value!r}")
    return value


def _optional_int(data: Mapping[str, object], key: str) -> int | None:
    return None if data.get(key) is None else _typed(data, key, int)


def _die_from_dict(item: object) -> Die:
    if not isinstance(item, Mapping):
        raise ValueError(f"roll record: each die must be a mapping, got {item!r}")
    previous = _typed(item, "previous", list)
    if not all(type(face) is int for face in previous):
        raise ValueError(f"roll record: previous faces must be integers, got {previous!r}")
    kind, face = _typed(item, "kind", str), _typed(item, "face", int)
    return Die(kind, face, _typed(item, "kept", bool), tuple(previous))


def _modifier_from_dict(item: object) -> Modifier:
    if not isinstance(item, Mapping):
        raise ValueError(f"roll record: each modifier must be a mapping, got {item!r}")
    return Modifier(_typed(item, "value", int), _typed(item, "reason", str))


def check_label(label: object) -> str:
    """The label itself if it is non-blank text; ValueError otherwise."""
    if not isinstance(label, str) or not label.strip():
        raise ValueError(f"every roll needs a label saying what it is for, got {label!r}")
    return label


def check_mode(mode: str, keep: int | None, target: int | None) -> None:
    """Check that a roll mode fits its keep and target; ValueError if not."""
    if mode not in MODES:
        raise ValueError(f"roll mode must be one of {', '.join(MODES)}, got {mode!r}")
    if (mode == "pool") != (target is not None):
        raise ValueError("a target is required for a pool roll, and only for one")
    if mode == "max" and keep is not None:
        raise ValueError("a maximum-dice roll cannot also keep highest or lowest")


def _check_given(
    modifiers: Sequence[Modifier],
    dice_modifiers: Sequence[Modifier],
    purpose: Purpose | None,
    keep_lowest: bool,
) -> None:
    """Refuse what a roll is given that a Roll record could not hold."""
    if not all(isinstance(m, Modifier) for m in (*modifiers, *dice_modifiers)):
        raise ValueError("roll modifiers must be Modifier records")
    if purpose is not None and not isinstance(purpose, Purpose):
        raise ValueError("a roll's purpose must be a Purpose record")
    if not isinstance(keep_lowest, bool):
        raise ValueError("a roll's keep_lowest must be true or false")


def _check_count(n: object) -> int:
    if type(n) is not int or not 1 <= n <= MAX_DICE:
        raise ValueError(f"the number of dice must be between 1 and {MAX_DICE}, got {n!r}")
    return n


def _check_target(target: object, kind: str) -> int:
    top = max(faces_of(kind))
    if type(target) is not int or not 1 <= target <= top:
        raise ValueError(f"target must be between 1 and {top} for a {kind}, got {target!r}")
    return target


def _check_keep_count(keep: object, n: int) -> int:
    if type(keep) is not int or not 1 <= keep <= n:
        raise ValueError(f"can keep between 1 and {n} of {n} dice, not {keep!r}")
    return keep


def _keep_nothing(roll: Roll) -> None:
    """The default listener: rolls are only returned."""


@dataclass
class Dice:
    """The randomiser every ruleset uses: all draws come from the injected ``rng``, and every
    roll and re-roll is also handed to ``listener`` (the battle record keeps them all)."""

    rng: random.Random = field(repr=False)
    listener: Callable[[Roll], None] = field(default=_keep_nothing, repr=False)

    def __post_init__(self) -> None:
        if not isinstance(self.rng, random.Random):
            raise TypeError("Dice needs a random.Random instance")

    def face(self, kind: str) -> int:
        """Draw one face of a die of this kind."""
        draw, given = self._drawer(kind)
        return draw(*given)

    def _drawer(self, kind: str) -> tuple[Callable[..., int], tuple[object, ...]]:
        """How a face of this kind is drawn: the call on ``rng`` and what it is given."""
        faces = faces_of(kind)
        if kind == "AvD":
            return self.rng.choice, (faces,)
        return self.rng.randint, (1, len(faces))

    def roll(
        self,
        label: str,
        n: int,
        kind: str = "D6",
        *,
        mode: str = "sum",
        keep: int | None = None,
        keep_lowest: bool = False,
        target: int | None = None,
        modifiers: Sequence[Modifier] = (),
        dice_modifiers: Sequence[Modifier] = (),
        purpose: Purpose | None = None,
    ) -> Roll:
        """Roll ``n`` dice of ``kind``; the general form the methods below build on.

        ``dice_modifiers`` change the number of dice (never below one), each with its reason,
        and are kept on the roll, as is its ``purpose``.
        """
        check_label(label)
        _check_given(modifiers, dice_modifiers, purpose, keep_lowest)
        _check_count(n)
        n = max(1, n + sum(m.value for m in dice_modifiers))
        _check_count(n)
        faces_of(kind)
        check_mode(mode, keep, target)
        if keep is not None:
            _check_keep_count(keep, n)
        if target is not None:
            _check_target(target, kind)
        draw, given = self._drawer(kind)
        dice = [_drawn(kind, draw(*given)) for _ in range(n)]  # as ``face`` draws
        spec = _Spec(mode, keep, keep_lowest, target)
        expression = spec.expression(n, kind)
        return self._told(spec.build(label, expression, dice, modifiers, purpose, dice_modifiers))

    def d6(
        self, label: str, modifiers: Sequence[Modifier] = (), purpose: Purpose | None = None
    ) -> Roll:
        """Roll one D6 (faces 1-6)."""
        return self.roll(label, 1, modifiers=modifiers, purpose=purpose)

    def nd6(
        self, label: str, n: int, modifiers: Sequence[Modifier] = (), purpose: Purpose | None = None
    ) -> Roll:
        """Roll ``n`` D6 and add them up."""
        return self.roll(label, n, modifiers=modifiers, purpose=purpose)

    def two_d6(
        self, label: str, modifiers: Sequence[Modifier] = (), purpose: Purpose | None = None
    ) -> Roll:
        """Roll 2D6 and add them up."""
        return self.roll(label, 2, modifiers=modifiers, purpose=purpose)

    def avd(
        self,
        label: str,
        n: int = 1,
        modifiers: Sequence[Modifier] = (),
        purpose: Purpose | None = None,
    ) -> Roll:
        """Roll ``n`` average dice (faces 2, 3, 3, 4, 4, 5) and add them up."""
        return self.roll(label, n, "AvD", modifiers=modifiers, purpose=purpose)

    def max_dice(
        self,
        label: str,
        n: int,
        kind: str = "D6",
        modifiers: Sequence[Modifier] = (),
        purpose: Purpose | None = None,
    ) -> Roll:
        """Roll ``n`` D6 or AvD and take the highest face (fast moves)."""
        if kind not in ("D6", "AvD"):
            raise ValueError(f"maximum dice are D6 or AvD, got {kind!r}")
        return self.roll(label, n, kind, mode="max", modifiers=modifiers, purpose=purpose)

    def pool(
        self,
        label: str,
        n: int,
        target: int,
        modifiers: Sequence[Modifier] = (),
        purpose: Purpose | None = None,
    ) -> Roll:
        """Roll ``n`` D6 and count the dice scoring ``target`` or more."""
        return self.roll(label, n, mode="pool", target=target, modifiers=modifiers, purpose=purpose)

    def keep_highest(
        self,
        label: str,
        n: int,
        keep: int,
        modifiers: Sequence[Modifier] = (),
        purpose: Purpose | None = None,
    ) -> Roll:
        """Roll ``n`` D6 and add up the ``keep`` highest; the others are marked dropped."""
        return self.roll(label, n, keep=keep, modifiers=modifiers, purpose=purpose)

    def keep_lowest(
        self,
        label: str,
        n: int,
        keep: int,
        modifiers: Sequence[Modifier] = (),
        purpose: Purpose | None = None,
    ) -> Roll:
        """Roll ``n`` D6 and add up the ``keep`` lowest; the others are marked dropped."""
        return self.roll(
            label, n, keep=keep, keep_lowest=True, modifiers=modifiers, purpose=purpose
        )

    def reroll(
        self,
        roll: Roll,
        indexes: Sequence[int],
        label: str | None = None,
        purpose: Purpose | None = None,
    ) -> Roll:
        """A new Roll with the chosen dice (0-based, in order) re-rolled; old faces kept (and
        the roll's purpose, unless another is given)."""
        chosen = _check_indexes(indexes, len(roll.dice))
        dice = list(roll.dice)
        for i in chosen:
            old = dice[i]
            dice[i] = _drawn(old.kind, self.face(old.kind), True, (*old.previous, old.face))
        spec = _Spec(roll.mode, roll.keep, roll.keep_lowest, roll.target)
        new_label = roll.label if label is None else check_label(label)
        _check_given((), (), purpose, False)
        why = roll.purpose if purpose is None else purpose
        return self._told(spec.build(new_label, roll.expression, dice, roll.modifiers, why))

    def _told(self, roll: Roll) -> Roll:
        self.listener(roll)
        return roll


def _drawn(kind: str, face: int, kept: bool = True, previous: tuple[int, ...] = ()) -> Die:
    """A die drawn here: a face of its kind by how it was drawn, so nothing to check."""
    made = object.__new__(Die)
    made.__dict__.update(kind=kind, face=face, kept=kept, previous=previous)
    return made


def _check_indexes(indexes: Sequence[int], size: int) -> list[int]:
    chosen = list(indexes)
    if not chosen:
        raise ValueError("choose at least one die to re-roll")
    for i in chosen:
        if type(i) is not int or not 0 <= i < size:
            raise ValueError(f"die index must be between 0 and {size - 1}, got {i!r}")
    if len(set(chosen)) != len(chosen):
        raise ValueError(f"each die can be re-rolled once per re-roll, got {chosen}")
    return sorted(chosen)


@dataclass(frozen=True)
class _Spec:
    mode: str
    keep: int | None
    keep_lowest: bool
    target: int | None

    def expression(self, n: int, kind: str) -> str:
        return format_expression(n, kind, self.mode, self.keep, self.keep_lowest, self.target)

    def build(
        self,
        label: str,
        expression: str,
        dice: Sequence[Die],
        modifiers: Sequence[Modifier],
        purpose: Purpose | None = None,
        dice_modifiers: Sequence[Modifier] = (),
    ) -> Roll:
        flags = keep_flags([die.face for die in dice], self.keep, self.keep_lowest)
        marked = tuple(
            die if die.kept is kept else _drawn(die.kind, die.face, kept, die.previous)
            for die, kept in zip(dice, flags, strict=True)
        )
        total, successes = outcome(self.mode, marked, modifiers, self.target)
        made = object.__new__(Roll)  # consistent as made: Roll's checks are for records read
        made.__dict__.update(
            label=label,
            expression=expression,
            dice=marked,
            modifiers=tuple(modifiers),
            total=total,
            target=self.target,
            successes=successes,
            mode=self.mode,
            keep=self.keep,
            keep_lowest=self.keep_lowest,
            dice_modifiers=tuple(dice_modifiers),
            purpose=purpose,
        )
        return made
