"""What a battle's stage waits for, stored beside its state (#38).

Who must act can cost the rules real work (Tree of Battles' shooting plans: 0.7 s at 120
units). The engine's worker works it out where a resolution makes the state
(``bot.engine_worker.KEPT_BESIDE``); it is stored on the battle row with a fingerprint of the
stored state, so that a command after a restart, or in another process, reads it instead of
working it out on the event loop inside its write. A stored answer whose fingerprint is not
the state's (a state written some other way) is ignored and worked out as before.
"""

from __future__ import annotations

import hashlib
from typing import Any

from rules_core import engine
from rules_core.engine import Waiting
from rules_core.plugin import Rules
from rules_core.state import BattleState


def fingerprint(text: str) -> str:
    """A short digest of a state's stored JSON text."""
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


def stored(rules: Rules, state: BattleState, text: str) -> dict[str, Any]:
    """What ``state`` (stored as ``text``) waits for, as the battle row keeps it; worked out
    here only if nobody did yet (a state made on the loop: a GM's edit, a deployment)."""
    found = engine.waiting(rules, state)
    return {"of": fingerprint(text), "sides": list(found.sides)}


def restore(rules: Rules, state: BattleState, kept: Any, text: str) -> bool:
    """Give ``state`` (decoded from ``text``) the stored answer ``kept`` if it is this
    state's; whether it was."""
    if not isinstance(kept, dict) or kept.get("of") != fingerprint(text):
        return False
    engine.known_waiting(rules, state, _rebuilt(rules, state, tuple(kept["sides"])))
    return True


def _rebuilt(rules: Rules, state: BattleState, sides: tuple[str, ...]) -> Waiting:
    """The ``Waiting`` that ``engine.waiting`` gives, but for the acting sides, stored."""
    step = rules.sequence.step(state.cursor.step)
    if state.outcome is not None:
        return Waiting(step.id, step.title, finished=True)
    return Waiting(step.id, step.title, sides, state.pending)
