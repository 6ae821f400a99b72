"""A battle state's stored form, worked out once per state (#38): the keeping write of a
resolution is given the state its rehearsal made, already encoded before ``BEGIN``."""

from __future__ import annotations

from typing import Any

from bot.db.encoded import Encoded
from rules_core.engine import Resolution
from rules_core.state import BattleState

_ENCODED = "_stored_form"  # kept beside the frozen state, as the engine keeps its own


def encoded(state: BattleState) -> Encoded:
    """``state.to_dict()`` with its JSON text, the same object each time for the same state."""
    kept = state.__dict__.get(_ENCODED)
    if kept is None:
        kept = Encoded(state.to_dict())
        state.__dict__[_ENCODED] = kept
    return kept


def encode_results(results: list[Any]) -> None:
    """Encode the state of the last resolution among ``results`` (what a rehearsal's engine
    calls gave: the keeping write stores it), before the write begins."""
    for result in reversed(results):
        if isinstance(result, Resolution):
            encoded(result.state)
            return
