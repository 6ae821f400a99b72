"""Standing instructions: a side's (or a unit's) answer, given ahead, to a recurring question.

A ruleset declares the kinds of question it asks again and again as ``Topic``s (a charge
response, a re-roll, follow up or halt), each with the choices an instruction may pick and the
named ``Condition``s it may be limited to ("if charged by mounted"). A resolver marks each
question it asks with its topic (``Decision.topic``) and the unit it is about
(``Decision.unit``, with ``Decision.other`` the enemy unit that prompted it).

``standing_answer`` finds the instruction that answers an open question: a unit's own
instructions come before its side's, and among them the first whose condition holds and whose
choice the question offers wins. The answer goes through the engine like any other, so the
record and ``verify`` treat it as the side's answer (``rules_core.standing_play`` does that,
above the engine; this module only declares, below it).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from importlib.resources import files
from typing import Protocol

from rules_core.codec import Serialisable
from rules_core.decisions import GM, Answer, Decision, Option, options
from rules_core.state import BattleState, Unit

STANDING_REASON = "answered by standing instruction"  # how an answer's ``reason`` begins

Predicate = Callable[[BattleState, Decision], bool]


AUTO = "auto"  # the rules' own choice, offered beside the options a question makes


@dataclass(frozen=True)
class Condition:
    """A named test over the battle and the question (``charged_by_mounted``)."""

    id: str
    title: str
    test: Predicate

    def holds(self, state: BattleState, decision: Decision) -> bool:
        """Whether the condition holds for this question now (False if it cannot be judged)."""
        try:
            return bool(self.test(state, decision))
        except KeyError:  # the unit it names has left the table
            return False


@dataclass(frozen=True)
class Topic:
    """A kind of question a ruleset asks again and again, the choices a standing instruction
    may pick for it and the conditions it may be limited to."""

    id: str
    title: str
    choices: tuple[Option, ...]
    conditions: tuple[Condition, ...] = ()
    gm: bool = False  # the GM rules these questions: no standing instruction answers them

    @property
    def choice_ids(self) -> tuple[str, ...]:
        """The ids of the choices."""
        return tuple(choice.id for choice in self.choices)

    def condition(self, condition_id: str) -> Condition | None:
        """The condition with this id, or None."""
        return next((c for c in self.conditions if c.id == condition_id), None)

    @classmethod
    def of(
        cls,
        id: str,
        title: str,
        words: Mapping[str, str],
        conditions: tuple[Condition, ...] = (),
        *,
        gm: bool = False,
    ) -> Topic:
        """A topic whose choices are a table of answers (id to the words shown), in order."""
        return cls(id, title, options(words), conditions, gm)

    @classmethod
    def computed(cls, id: str, title: str) -> Topic:
        """A topic whose one standing answer is the rules' own choice (``AUTO``), for questions
        whose options are made as they are asked (units, leaders, cards)."""
        return cls(id, title, (Option(AUTO, "let the rules choose (the computed default)"),))


class Asking(Protocol):
    """What the declarations need of a ruleset's rules (``Rules`` is one): its topics. A
    protocol, because the rules sit above the context, which reads ``by_standing``."""

    @property
    def topics(self) -> tuple[Topic, ...]:
        """The recurring questions standing instructions answer."""
        ...


@dataclass(frozen=True)
class Standing(Serialisable):
    """How a side (or one of its units) answers a topic's questions: ``choice``, when
    ``condition`` holds (empty: always)."""

    side: str
    topic: str
    choice: str
    condition: str = ""
    unit: str | None = None


@dataclass(frozen=True)
class Recommended:
    """A standing instruction an experienced player would set for a topic: its ``choices`` in
    order of preference (the first the question offers answers it), when ``condition`` holds
    (empty: always), and ``why``, in a player's words."""

    topic: str
    choices: tuple[str, ...]
    why: str
    condition: str = ""


RECOMMENDED_FILE = "recommended.json"  # in a ruleset's package, beside its rules


def recommended_in(module: str) -> tuple[Recommended, ...]:
    """The recommended instructions the package of ``module`` (a ruleset's rules, by
    ``__name__``) declares in its ``recommended.json``: a list of {topic, condition (may be
    left out), choices, why}; none without the file."""
    path = files(module.rpartition(".")[0]).joinpath(RECOMMENDED_FILE)
    if not path.is_file():
        return ()
    entries = json.loads(path.read_text(encoding="utf-8"))
    return tuple(
        Recommended(e["topic"], tuple(e["choices"]), e["why"], e.get("condition", ""))
        for e in entries
    )


def topic_of(rules: Asking, topic_id: str) -> Topic | None:
    """The ruleset's topic with this id, or None."""
    return next((t for t in rules.topics if t.id == topic_id), None)


def standing_problem(rules: Asking, state: BattleState | None, standing: Standing) -> str | None:
    """Why a standing instruction cannot be kept (unknown topic, choice or condition; a unit
    not of its side), or None if it can."""
    topic = topic_of(rules, standing.topic)
    if topic is None:
        return f"the rules ask no questions about {standing.topic!r}"
    if standing.choice not in topic.choice_ids:
        offered = ", ".join(topic.choice_ids)
        return f"{standing.choice!r} is not a choice for {topic.title} (choose from {offered})"
    if standing.condition and topic.condition(standing.condition) is None:
        return f"{standing.condition!r} is not a condition for {topic.title}"
    if standing.side == GM:
        return "standing instructions are for sides, not the GM"
    if state is not None:
        if standing.side not in {side.id for side in state.sides}:
            return f"no side {standing.side!r} in this battle"
        if standing.unit is not None:
            unit = next((u for u in state.units if u.id == standing.unit), None)
            if unit is None:
                return f"no unit {standing.unit!r} on the table"
            if unit.side != standing.side:
                return f"{unit.name} is not a unit of {standing.side}"
    return None


def recommended_problem(rules: Asking, recommended: Recommended) -> str | None:
    """Why a ruleset's recommended instruction cannot be kept (unknown topic, choice or
    condition; a topic the GM rules; no choice), or None if it can."""
    topic = topic_of(rules, recommended.topic)
    if topic is None:
        return f"the rules ask no questions about {recommended.topic!r}"
    if topic.gm:
        return f"the GM rules {topic.title}: no instruction answers it"
    if not recommended.choices:
        return f"no choice recommended for {topic.title}"
    for choice in recommended.choices:
        problem = standing_problem(rules, None, Standing("", topic.id, choice))
        if problem is not None:
            return problem
    if recommended.condition and topic.condition(recommended.condition) is None:
        return f"{recommended.condition!r} is not a condition for {topic.title}"
    return None


def recommended_standing(recommended: Sequence[Recommended], side: str) -> list[Standing]:
    """A side's standing instructions for a ruleset's recommendations, in order of preference
    (``standing_answer`` tries them in that order)."""
    return [
        Standing(side, r.topic, choice, r.condition) for r in recommended for choice in r.choices
    ]


def standing_answer(
    rules: Asking, state: BattleState, decision: Decision, instructions: Sequence[Standing]
) -> Answer | None:
    """The answer a standing instruction gives to an open question, or None if none covers it.

    Only instructions of the side that must answer count (never the GM's questions); a unit's
    own instructions come before its side's, and at each level those with a condition come
    before those without; the first whose condition holds and whose choice the question offers
    answers it.
    """
    topic = topic_of(rules, decision.topic) if decision.topic else None
    if topic is None or decision.who == GM:
        return None
    mine = [s for s in instructions if s.side == decision.who and s.topic == decision.topic]
    units = [s for s in mine if s.unit is not None and s.unit == decision.unit]
    sides = [s for s in mine if s.unit is None]
    ordered = [s for level in (units, sides) for s in _conditional_first(level)]
    for standing in ordered:
        if decision.problem(standing.choice) is not None:
            continue
        if standing.condition:
            condition = topic.condition(standing.condition)
            if condition is None or not condition.holds(state, decision):
                continue
        return Answer(decision.id, standing.choice, decision.who, _words(topic, standing))
    return None


def _conditional_first(level: Sequence[Standing]) -> list[Standing]:
    """Instructions with a condition before those without, each in the order given."""
    return [s for s in level if s.condition] + [s for s in level if not s.condition]


def _words(topic: Topic, standing: Standing) -> str:
    """The reason an answer by a standing instruction carries (it reaches the battle log)."""
    label = next((c.label for c in topic.choices if c.id == standing.choice), standing.choice)
    condition = topic.condition(standing.condition) if standing.condition else None
    when = f" {condition.title}" if condition else ""
    return f"{STANDING_REASON}: {label}{when} ({topic.title})"


def by_standing(reason: str) -> bool:
    """Whether an answer's reason says a standing instruction gave it."""
    return reason.startswith(STANDING_REASON)


def standing_answers(
    rules: Asking, state: BattleState, instructions: Sequence[Standing]
) -> list[Answer]:
    """The answers standing instructions give to the questions open in this state."""
    if state.pending is None:
        return []
    found = (standing_answer(rules, state, d, instructions) for d in state.pending.open)
    return [answer for answer in found if answer is not None]


# -- conditions the rulesets share ---------------------------------------------------------


def when_unit(test: Callable[[Unit], bool]) -> Predicate:
    """A predicate over the unit the question is about."""
    return lambda state, decision: test(state.unit(decision.unit))


def when_other(test: Callable[[Unit], bool]) -> Predicate:
    """A predicate over the enemy unit that prompted the question (the charger, the foe)."""
    return lambda state, decision: test(state.unit(decision.other))
