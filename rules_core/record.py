"""The battle record: the starting state, every call on the engine with its rolls, the seed.

The bot appends each ``Resolution``'s entries as play goes on and publishes ``seed_sha256``
at the start; when the battle ends it reveals the seed, and anyone can run
``python -m rules_core.verify RECORD.json`` to recompute every roll.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from rules_core.codec import Serialisable
from rules_core.engine import Entry
from rules_core.seeding import commitment
from rules_core.state import BattleState

RECORD_VERSION = 1


@dataclass(frozen=True)
class BattleRecord(Serialisable):
    """A battle from its first state: the engine calls in order, and the seed once revealed."""

    battle_id: str
    ruleset: str
    seed_sha256: str
    initial_state: BattleState
    entries: tuple[Entry, ...] = ()
    seed: str | None = None  # hex, filled in when the battle ends
    record_version: int = RECORD_VERSION

    @classmethod
    def start(cls, state: BattleState, seed: bytes) -> BattleRecord:
        """A record for a battle about to begin, publishing only the seed's hash."""
        return cls(state.battle_id, state.ruleset, commitment(seed), state)

    def extended(self, entries: Sequence[Entry]) -> BattleRecord:
        """The record with more engine calls appended."""
        return replace(self, entries=self.entries + tuple(entries))

    def revealed(self, seed: bytes) -> BattleRecord:
        """The record with its seed revealed; refuses a seed that does not match the hash."""
        if commitment(seed) != self.seed_sha256:
            raise ValueError("this seed does not match the published hash")
        return replace(self, seed=seed.hex())
