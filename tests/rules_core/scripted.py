"""Playing a sample battle to its end with a ruleset's scripted policy (for golden logs)."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from rules_core import engine
from rules_core.decisions import Answer
from rules_core.engine import Resolution
from rules_core.events import event_from_dict, event_to_dict
from rules_core.orders import Order
from rules_core.plugin import Rules
from rules_core.record import BattleRecord
from rules_core.render import Renderer
from rules_core.state import BattleState
from rules_core.verify import Report, verify

OrdersFor = Callable[[Rules, BattleState, str], list[Order]]
ChoiceFor = Callable[[BattleState], str]


@dataclass
class Played:
    """A finished scripted battle: the first state and every resolution in order."""

    first: BattleState
    result: Resolution


def play_scripted(
    rules: Rules,
    start: BattleState,
    seed: bytes,
    orders_for: OrdersFor,
    choice_for: ChoiceFor,
    limit: int,
) -> Played:
    """Begin the battle, then give the script's orders and answers until it ends."""
    first = engine.begin(rules, start)
    result = Resolution(first, (), ())
    for _ in range(limit):
        state = result.state
        if state.outcome is not None:
            return Played(first, result)
        if state.pending is not None:
            decision = state.pending.decision
            given = Answer(decision.id, choice_for(state), decision.who)
            result = result.then(engine.answer(rules, seed, state, given))
            continue
        sides = engine.waiting(rules, state).sides
        orders = [order for side in sides for order in orders_for(rules, state, side)]
        result = result.then(engine.run(rules, seed, state, orders))
    raise AssertionError("the scripted battle did not end")


def matches_golden(played: Played, golden: Path) -> bool:
    """Whether the battle's log reads as the golden file (rewritten with UPDATE_GOLDEN=1)."""
    text = "\n".join(Renderer.for_state(played.first).lines(played.result.events)) + "\n"
    if os.environ.get("UPDATE_GOLDEN") == "1":
        golden.write_text(text, encoding="utf-8")
    return text == golden.read_text(encoding="utf-8")


def round_trips(played: Played) -> bool:
    """Whether every event of the battle survives a trip through JSON."""
    events = played.result.events
    return [event_from_dict(event_to_dict(e)) for e in events] == list(events)


def verified(played: Played, seed: bytes) -> Report:
    """``rules_core.verify``'s verdict on the battle's record, as exported to JSON."""
    kept = BattleRecord.start(played.first, seed).extended(played.result.entries)
    return verify(json.loads(json.dumps(kept.revealed(seed).to_dict())))
