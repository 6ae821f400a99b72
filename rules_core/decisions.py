"""Decisions: questions a resolver puts to a player or the GM, and the suspended resolution.

A resolver asks through ``Context.ask``. When the answer is not yet known the engine stores a
``Pending``: the step's orders and the answers given so far. Answering re-runs the step from
its start with the same random stream, so the resolution is reproduced up to the question and
continues with the answer. The pending resolution is plain data and survives a restart.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

from rules_core.codec import Json, Serialisable
from rules_core.orders import Order

GM = "gm"  # the ``who`` of a question for the game master rather than a side
ANSWER_KINDS = ("option", "unit", "leader", "point", "number", "facing")
QUICK_HOURS = 8.0  # the deadline of a question that needs hours, not days (a charge response)


@dataclass(frozen=True)
class Option(Serialisable):
    """One possible answer: a short id and the words shown to the player."""

    id: str
    label: str


def options(words: Mapping[str, str]) -> tuple[Option, ...]:
    """The options of a table of answers (id to the words shown), in the table's order."""
    return tuple(Option(k, v) for k, v in words.items())


@dataclass(frozen=True)
class Decision(Serialisable):
    """A question: its id (unique within a step), what kind of answer it takes, its default
    and who must answer.

    ``answer`` is one of ``ANSWER_KINDS``: ``option`` (one of ``options``), ``unit`` or
    ``leader`` (one of ``options``, whose ids are unit or leader ids), ``point`` (``x,y``),
    ``number`` (from ``low`` to ``high``) or ``facing`` (compass degrees, 0 to 360). An answer
    travels as text; ``value`` reads it as the kind's value. ``topic``, ``unit`` and ``other``
    let a standing instruction (``rules_core.standing``) answer it.
    travels as text; ``value`` reads it as the kind's value. A typed question (point, number,
    facing) may also name answers in ``options`` (``auto``: the rules' own choice), so that a
    standing instruction can answer it; ``value`` gives such an answer as its id.
    A ``private`` question is shown
    to ``who`` alone: its events are ``Private`` and ``rules_core.secrets.view`` hides it.
    """

    id: str
    question: str
    options: tuple[Option, ...]
    default: str
    who: str
    answer: str = "option"
    low: float | None = None
    high: float | None = None
    topic: str = ""  # the kind of recurring question (a ruleset's ``Topic``), for standing answers
    unit: str = ""  # the unit (or leader) the question is about, if any
    other: str = ""  # the enemy unit that prompted it (the charger, the foe), if any
    private: bool = False  # True: only ``who`` (and the GM) see the question and its answer
    deadline_hours: float | None = None  # its own deadline length; None: the campaign's

    def __post_init__(self) -> None:
        if self.answer not in ANSWER_KINDS:
            raise ValueError(f"unknown answer kind {self.answer!r}")
        if self.problem(self.default) is not None:
            raise ValueError(f"default {self.default!r} is not an answer to {self.id!r}")

    @property
    def option_ids(self) -> tuple[str, ...]:
        """The ids of the options, in the order offered."""
        return tuple(option.id for option in self.options)

    @property
    def chosen(self) -> bool:
        """Whether the answer is picked from ``options`` (rather than typed)."""
        return self.answer in ("option", "unit", "leader")

    def problem(self, choice: str) -> str | None:
        """Why ``choice`` does not answer this question, or None if it does."""
        if self.chosen:
            return None if choice in self.option_ids else f"{choice!r} is not an option"
        if choice in self.option_ids:  # a typed question's named answer ("auto")
            return None
        if self.answer == "point":
            return None if _point(choice) else f"{choice!r} is not a point x,y"
        number = _number(choice)
        if number is None:
            return f"{choice!r} is not a number"
        low, high = (0.0, 360.0) if self.answer == "facing" else (self.low, self.high)
        if (low is not None and number < low) or (high is not None and number > high):
            return f"{choice} is not from {low:g} to {high:g}"
        return None

    def value(self, choice: str) -> Json:
        """An answer as the kind's value: an id, a point ``[x, y]`` or a number (a typed
        question's named answer stays its id)."""
        if choice in self.option_ids:
            return choice
        if self.answer == "point":
            point = _point(choice)
            assert point is not None
            return list(point)
        if self.answer in ("number", "facing"):
            return _number(choice)
        return choice


def _number(text: str) -> float | None:
    """A typed number, or None."""
    try:
        number = float(text)
    except ValueError:
        return None
    return number if math.isfinite(number) else None


def _point(text: str) -> tuple[float, float] | None:
    """A typed point ``x,y`` (brackets and spaces allowed), or None."""
    parts = text.strip().strip("()[]").split(",")
    numbers = [_number(part) for part in parts]
    if len(numbers) != 2 or None in numbers:
        return None
    return (float(numbers[0] or 0), float(numbers[1] or 0))


@dataclass(frozen=True)
class Answer(Serialisable):
    """The answer to one decision, who gave it (a side id or ``GM``) and, for a GM answering
    for a side, why."""

    decision: str
    choice: str
    by: str
    reason: str = ""


@dataclass(frozen=True)
class Pending(Serialisable):
    """A resolution stopped at a question: the step's orders, answers so far, events shown."""

    decision: Decision
    orders: tuple[Order, ...]
    answers: tuple[Answer, ...] = ()
    shown: int = 0
    others: tuple[Decision, ...] = ()  # questions open at the same time, answered in any order

    @property
    def open(self) -> tuple[Decision, ...]:
        """Every question waiting for an answer, in the order asked."""
        return (self.decision, *self.others)

    def asked(self, decision_id: str) -> Decision | None:
        """The open question with this id, or None."""
        return next((d for d in self.open if d.id == decision_id), None)
