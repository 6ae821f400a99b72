"""Every step of each ruleset's demo battle, cheaply: the rules goldens' scripted battles
replayed with ``rules_core.engine``, each engine call's new state and events kept (what the
demo maps after every step it resolves), without the services or a database."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import cache
from typing import Any

from rules_core import engine, registry
from rules_core.engine import Resolution
from rules_core.events import Event
from rules_core.plugin import Rules
from rules_core.state import BattleState
from tests.rules_core.rulesets.hail_caesar import script as hail_caesar
from tests.rules_core.rulesets.heroic_age import script as heroic_age
from tests.rules_core.rulesets.impetus import helpers as impetus
from tests.rules_core.rulesets.pike_and_shot import script as pike_and_shot
from tests.rules_core.rulesets.skirmish import script as skirmish
from tests.rules_core.rulesets.tree_of_battles import script as tree_of_battles

Step = tuple[BattleState, tuple[Event, ...]]


def _rules(ruleset: str) -> Rules:
    found = registry.get(ruleset).rules
    assert found is not None
    return found


PLAYS: dict[str, Callable[[], object]] = {
    "tree_of_battles": lambda: tree_of_battles.play(_rules("tree_of_battles")),
    "hail_caesar": lambda: hail_caesar.play(_rules("hail_caesar")),
    "pike_and_shot": lambda: pike_and_shot.play(_rules("pike_and_shot")),
    "impetus": impetus.play,
    "heroic_age": lambda: heroic_age.play(_rules("heroic_age")),
    "skirmish": lambda: skirmish.play(_rules("skirmish")),
}


@contextmanager
def _kept(found: list[Resolution]) -> Iterator[None]:
    """Keep every resolution ``engine.run`` and ``engine.answer`` return meanwhile."""
    run, answer = engine.run, engine.answer

    def kept_run(*args: Any, **kwargs: Any) -> Resolution:
        found.append(run(*args, **kwargs))
        return found[-1]

    def kept_answer(*args: Any, **kwargs: Any) -> Resolution:
        found.append(answer(*args, **kwargs))
        return found[-1]

    engine.run, engine.answer = kept_run, kept_answer  # type: ignore[assignment]
    try:
        yield
    finally:
        engine.run, engine.answer = run, answer  # type: ignore[assignment]


@cache
def demo_steps(ruleset: str) -> tuple[Step, ...]:
    """Each step of the ruleset's scripted battle: the state after it and its events."""
    found: list[Resolution] = []
    with _kept(found):
        PLAYS[ruleset]()
    return tuple((result.state, result.events) for result in found)
