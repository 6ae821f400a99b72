"""Decisions: questions a resolver puts to a player or the GM, and the suspended resolution.

A resolver asks through ``Context.ask``. When the answer is not yet known the engine stores a
``Pending``: the step's orders and the answers given so far. Answering re-runs the step from
its start with the same random stream, so the resolution is reproduced up to the question and
continues with the answer. The pending resolution is plain data and survives a restart.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules_core.codec import Serialisable
from rules_core.orders import Order

GM = "gm"  # the ``who`` of a question for the game master rather than a side


@dataclass(frozen=True)
class Option(Serialisable):
    """One possible answer: a short id and the words shown to the player."""

    id: str
    label: str


@dataclass(frozen=True)
class Decision(Serialisable):
    """A question: its id (unique within a step), options, default and who must answer."""

    id: str
    question: str
    options: tuple[Option, ...]
    default: str
    who: str

    def __post_init__(self) -> None:
        if self.default not in self.option_ids:
            raise ValueError(f"default {self.default!r} is not an option of {self.id!r}")

    @property
    def option_ids(self) -> tuple[str, ...]:
        """The ids of the options, in the order offered."""
        return tuple(option.id for option in self.options)


@dataclass(frozen=True)
class Answer(Serialisable):
    """The chosen option for one decision, and who chose it (a side id or ``GM``)."""

    decision: str
    choice: str
    by: str


@dataclass(frozen=True)
class Pending(Serialisable):
    """A resolution stopped at a question: the step's orders, answers so far, events shown."""

    decision: Decision
    orders: tuple[Order, ...]
    answers: tuple[Answer, ...] = ()
    shown: int = 0
