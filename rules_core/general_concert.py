"""Concentration for the AI general (#36): attacks coordinated across a side's actors.

The search is greedy, actor by actor; this module carries what the actors already chosen do
to the next one: a target already charged or shot at by a friend this step is worth more to
the next attacker (``Weights.focus`` a friend), and a lone charge into enemies that outnumber
the charger locally costs ``Weights.alone`` (divided by the side's pressure: the patience
bound, a charge waits for support until the pressure outweighs it).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rules_core.general_candidates import role_of
from rules_core.general_score import Scored
from rules_core.plugin import Rules
from rules_core.state import BattleState, Unit
from rules_core.toolkit import gap

ATTACKS = ("charge", "shoot")


@dataclass
class Concert:
    """The side's attacks chosen so far this step: each target's friends on it."""

    rules: Rules
    view: BattleState
    press: float
    on: dict[str, int] = field(default_factory=dict)  # target id: friends attacking it

    def bonus(self, scored: Scored) -> float:
        """What concentration adds to a candidate's score (0 where it attacks no one)."""
        candidate = scored.candidate
        target = candidate.target
        if target is None or role_of(self.rules, candidate) not in ATTACKS:
            return 0.0
        w = self.rules.general.weights
        friends = self.on.get(target.id, 0)
        worth = w.focus * min(friends, 2)
        charge = role_of(self.rules, candidate) == "charge"
        if charge and not friends and self._outnumbered(candidate.actor, target):
            worth -= w.alone / self.press
        return worth

    def chose(self, scored: Scored) -> None:
        """Record an actor's chosen candidate: its target gains a friend on it."""
        target = scored.candidate.target
        if target is not None and role_of(self.rules, scored.candidate) in ATTACKS:
            self.on[target.id] = self.on.get(target.id, 0) + 1

    def _outnumbered(self, actor_id: str, target: Unit) -> bool:
        """Whether the enemies beside the target outnumber the friends beside the charger."""
        try:
            actor = self.view.unit(actor_id)
        except KeyError:
            return False
        near = self.rules.general.support
        enemies = sum(
            1 for e in self.view.enemies_of(actor.side, on_table=True) if gap(e, target) <= near
        )
        friends = sum(
            1 for f in self.view.units_of(actor.side, on_table=True) if gap(f, actor) <= near
        )
        return enemies > friends
