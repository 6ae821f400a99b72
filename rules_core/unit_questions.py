"""Questions to a unit's side about it and the enemy unit that prompted them (the one it fought,
that charged it, that shot at it), worded from a ruleset's answer words.

Every ruleset asks these the same way: the unit's side answers, and the question names the unit
and the enemy so that a standing instruction on its topic can answer it.
"""

from __future__ import annotations

from collections.abc import Mapping

from rules_core.decisions import GM, Decision, Option
from rules_core.state import Leader, Unit


def options_of(words: Mapping[str, str]) -> tuple[Option, ...]:
    """The options of a question, one for each answer id and its words, in their order."""
    return tuple(Option(key, label) for key, label in words.items())


def unit_question(
    key: str,
    question: str,
    options: tuple[Option, ...],
    default: str,
    about: tuple[Unit, Unit],
    topic: str,
    deadline_hours: float | None = None,
) -> Decision:
    """The question ``key`` to the side of the first unit of ``about``, on the pair it names."""
    unit, other = about
    return Decision(
        key,
        question,
        options,
        default,
        unit.side,
        topic=topic,
        unit=unit.id,
        other=other.id,
        deadline_hours=deadline_hours,
    )


def gm_question(
    key: str,
    question: str,
    words: Mapping[str, str],
    default: str,
    topic: str,
    about: tuple[Unit | Leader, ...],
) -> Decision:
    """The question ``key`` to the GM, answered in ``words``, on the piece ``about`` names
    first (a unit or leader) and the enemy it names next, if any."""
    unit, other = (*(piece.id for piece in about), "", "")[:2]
    return Decision(
        key, question, options_of(words), default, GM, topic=topic, unit=unit, other=other
    )
