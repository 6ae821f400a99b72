"""Engine timing: full turns of big battles played with a ruleset's demo orders."""

from __future__ import annotations

import statistics
import time
from dataclasses import dataclass, field

from rules_core import engine, registry
from rules_core.big_battles import SEED, begun, demo_answer, demo_orders
from rules_core.plugin import Rules
from rules_core.state import BattleState

MAX_CALLS = 2_000  # a guard against a battle that never finishes a turn


@dataclass
class Played:
    """Engine time of each full turn played and of the largest single call, in ms."""

    ruleset: str
    units: int
    turns: list[float] = field(default_factory=list)
    largest: float = 0.0
    ended: str = ""  # the battle's end, if it came before the turns asked for were played

    @property
    def p50(self) -> float:
        """The median engine time of a full turn."""
        return statistics.median(self.turns) if self.turns else 0.0


def play_turns(rules: Rules, state: BattleState, turns: int) -> Played:
    """Play ``turns`` full turns (or until the battle ends), timing only the engine's calls.

    A battle not yet at turn 1 is begun first (``battles.begun`` gives one already begun)."""
    played = Played(state.ruleset, len(state.units))
    if state.cursor.turn < 1:
        state = engine.begin(rules, state)
    spent, turn = 0.0, state.cursor.turn
    for _ in range(MAX_CALLS):
        if state.outcome is not None:
            played.ended = f"ended in turn {state.cursor.turn}: {state.outcome.reason}"
            break
        if len(played.turns) >= turns:
            break
        state, took = _step(rules, state)
        played.largest = max(played.largest, took)
        spent += took
        if state.cursor.turn != turn:
            if turn >= 1:
                played.turns.append(spent)
            spent, turn = 0.0, state.cursor.turn
    return played


def _step(rules: Rules, state: BattleState) -> tuple[BattleState, float]:
    """One call on the engine (an answer, or the step's orders) and its time in ms.

    The scripted players' choices are made before the clock starts: only the engine is timed.
    """
    if state.pending is not None:
        given = demo_answer(rules, state)
        started = time.process_time()
        state = engine.answer(rules, SEED, state, given).state
        return state, (time.process_time() - started) * 1000
    orders = demo_orders(rules, state)
    started = time.process_time()
    state = engine.run(rules, SEED, state, orders).state
    engine.waiting(rules, state)  # what the bot asks after every resolution
    return state, (time.process_time() - started) * 1000


def engine_figures(rulesets: tuple[str, ...], sizes: tuple[int, ...], turns: int) -> list[Played]:
    """Every ruleset at every size."""
    found = []
    for ruleset in rulesets:
        rules = registry.get(ruleset).rules
        assert rules is not None
        for size in sizes:
            found.append(play_turns(rules, begun(rules, size), turns))
    return found
