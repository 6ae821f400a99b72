"""Standing instructions played: the open questions they cover answered through the engine.

The declarations (``Topic``, ``Standing``, ``standing_answers``) live in ``rules_core.standing``,
below the engine, since the rules and the context read them; this runner sits above it.
"""

from __future__ import annotations

from collections.abc import Sequence

from rules_core import engine
from rules_core.engine import Resolution
from rules_core.plugin import Rules
from rules_core.standing import Standing, standing_answers

MAX_STANDING_ANSWERS = 1_000  # a guard: every answer moves the battle on, but be sure


def play_standing(
    rules: Rules, seed: bytes, result: Resolution, instructions: Sequence[Standing]
) -> Resolution:
    """A resolution carried on by answering, through the engine, every open question a
    standing instruction covers (answering may open the next), until one is left for a
    human or nothing is open; unchanged when no instruction applies."""
    for _ in range(MAX_STANDING_ANSWERS):
        state = result.state
        if state.outcome is not None:
            return result
        found = standing_answers(rules, state, instructions)
        if not found:
            return result
        result = engine.settle(
            rules, seed, result.then(engine.answer(rules, seed, state, found[0]))
        )
    raise RuntimeError("standing instructions never stopped answering")
