"""The one way a ruleset answers "what are my chances?": find the units the question names,
then hand it to the ruleset's answer for its kind (a charge, a shot, a melee, a test).

The rulesets differ in their answers, not in the asking: each refuses an unknown unit, a
friendly target, a charge or shot at nobody and a melee with a unit not in the fight alike.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from rules_core import odds
from rules_core.state import BattleState, Unit
from rules_core.tables import ScoreTable
from rules_core.toolkit import enemies_in_contact

Answer = Callable[[Unit, Unit], odds.Odds | odds.Refused]


@dataclass(frozen=True)
class Answers:
    """A ruleset's answer to each kind of question; a kind without one is not answered.

    ``test`` gets the unit, its target if the query names one, and the query's option;
    ``engaged`` says whether a melee's target is in the fight (default: touching the unit),
    ``engaged_words`` how a refusal says it is not.
    """

    test: Callable[[Unit, Unit | None, str], odds.Odds | odds.Refused]
    shoot: Answer
    melee: Answer
    charge: Answer | None = None
    engaged: Callable[[BattleState, Unit, Unit], bool] | None = None
    engaged_words: str = "in contact with"


def answer(
    state: BattleState, query: odds.OddsQuery, answers: Answers
) -> odds.Odds | odds.Refused | None:
    """The odds of what a player asks, or why not; None for a kind the ruleset does not answer."""
    found = odds.units_of(state, query)
    if isinstance(found, odds.Refused):
        return found
    unit, target = found
    if query.kind == "test":
        return answers.test(unit, target, query.option)
    ask = {"charge": answers.charge, "shoot": answers.shoot, "melee": answers.melee}
    chosen = ask.get(query.kind)
    if chosen is None:
        return None
    if target is None:
        return odds.needs_target(query)
    if query.kind == "melee" and not (answers.engaged or _touching)(state, unit, target):
        return odds.Refused(f"{unit.name} is not {answers.engaged_words} {target.name}")
    return chosen(unit, target)


def _touching(state: BattleState, unit: Unit, target: Unit) -> bool:
    """Whether the target touches the unit."""
    return target in enemies_in_contact(state, unit)


def banded_odds(
    title: str,
    spec: odds.RollSpec,
    table: ScoreTable,
    notes: tuple[str, ...] = (),
    score: odds.Dist | None = None,
) -> odds.Odds:
    """The odds of a test: one roll (its ``score``, if the rules adjust the roll first) read
    against a table of result bands."""
    dist = spec.distribution() if score is None else score
    result = odds.OddsTable.of("Result", odds.bands(dist, table))
    return odds.Odds(title, (result,), odds.rolls_of((spec,)), notes)
