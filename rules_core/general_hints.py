"""A ruleset's hints to the AI general (#36): which of its order kinds advance, charge, shoot,
face the enemy, hold, rally or retire, the parameters each is given, how the general weighs
them, how its odds tables name a win and how near an army is to its break. Data only (and one
reading of the view): a ruleset sets ``general`` on its ``Rules`` to change them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from rules_core.codec import Json
from rules_core.orders import Order
from rules_core.state import BattleState, Unit

# How near a side's army is to breaking, read from a view: 0 whole, 1 broken (the ruleset's
# army break: its share of units, divisions or strength lost against its threshold).
Breaking = Callable[[BattleState, str, Mapping[str, Json]], float]

ROLES = ("charge", "shoot", "advance", "face", "hold", "rally", "retire")

# How worn an enemy unit is, read from a view: 0 fresh, 1 about to break (the ruleset's own
# marks: disorder, shaken); the general presses attacks on worn units to finish them.
Worn = Callable[[BattleState, Unit], float]


class Judge(Protocol):
    """What a ruleset's drill for the general asks of its rules (a ``Rules`` has both)."""

    def legal(self, state: BattleState, order: Order) -> Order | None:
        """The order if the rules accept it now, else None."""

    def parameter_values(self, overrides: Mapping[str, Json] = ...) -> dict[str, Json]:
        """Every parameter's value."""


# A ruleset's own scripted orders for the general's side in the open step, in place of its
# demo's (None: the demo's): a drill that plans for the whole army (a wing's units arrive
# together) where the search weighs one actor at a time.
Drill = Callable[[Judge, BattleState, str], list[Order] | None]

# Whether an enemy unit already counts as lost to its army, read from a view (the ruleset's
# army break counts it: Shaken, broken): the general advances on and turns to face the enemies
# still standing, while any are on the table.
Lost = Callable[[BattleState, Unit], bool]

# Orders a ruleset's general adds to its scripted ones (the drill's or the demo's) for a side,
# read from the side's view (actors the search does not weigh, such as leaders: each is judged
# before it is given).
Adds = Callable[[BattleState, str], Sequence[Order]]

# How an order kind's id reads as a role when the ruleset names none (its kinds' usual names).
DEFAULT_ROLES: Mapping[str, str] = {
    "charge": "charge",
    "group_charge": "charge",
    "shoot": "shoot",
    "move": "advance",
    "march": "advance",
    "hold": "hold",
    "rest": "hold",
    "rally": "rally",
    "retire": "retire",
}


@dataclass(frozen=True)
class Weights:
    """What the general's score counts, each term's weight (the score is in "units of worth")."""

    scripted: float = 1.0  # the ruleset's scripted orders for an actor, in no role of ours
    drill: float = 0.3  # the head start of a scripted order in a role (a charge, a move)
    charge: float = 2.0  # a charge, times its chance to win
    lose: float = 1.5  # a charge, times its chance to lose
    shoot: float = 0.6  # a shot that can hit at all
    inflicted: float = 0.4  # each loss expected on the enemy
    suffered: float = 0.5  # each loss expected on the actor
    advance: float = 0.5  # closing on the enemy or an objective (x the side's pressure)
    line: float = 0.05  # an advance that keeps the line, over one on the nearest enemy
    patience: float = 0.0  # taken off an advance: it waits until the pressure outweighs it
    hold: float = 0.1  # standing still
    rally: float = 0.3  # rallying
    retire: float = -0.5  # falling back
    flank: float = 0.3  # a friend beside the actor (its flank supported)
    threat: float = 0.2  # each enemy left within reach of the actor
    urgency: float = 0.8  # attacks and advances weigh more as the turn limit nears (x turn share)
    finish: float = 1.0  # ... and as the enemy army nears its break (x its breaking)
    caution: float = 0.5  # ... and less as the own army nears its break (x its breaking)
    focus: float = (
        0.4  # an attack on a target a friend already charged or shot this step (each, 2 at most)
    )
    worn: float = 0.5  # an attack on a worn enemy (x its wear, x the pressure): finish it
    reply: float = 0.0  # the enemy's best charge on the actor where it ends, x its chance (0: off)
    alone: float = 0.6  # a lone charge into enemies outnumbering the charger locally (/ pressure)


def units_lost(state: BattleState, side: str, params: Mapping[str, Json]) -> float:
    """The default breaking: the share of the side's units no longer on the table (an army
    breaks by default when none is left)."""
    del params
    units = state.units_of(side)
    if not units:
        return 1.0
    return 1.0 - len(state.units_of(side, on_table=True)) / len(units)


def no_adds(state: BattleState, side: str) -> Sequence[Order]:
    """The default orders added: none (the ruleset's scripted orders alone)."""
    del state, side
    return ()


def never_lost(state: BattleState, unit: Unit) -> bool:
    """The default: no unit on the table counts as lost to its army."""
    del state, unit
    return False


def standing_enemies(view: BattleState, side: str, hints: GeneralHints) -> tuple[Unit, ...]:
    """The side's enemies on the table that do not yet count as lost (``hints.lost``), or all
    of them if every one does."""
    enemies = view.enemies_of(side, on_table=True)
    standing = tuple(e for e in enemies if not hints.lost(view, e))
    return standing or tuple(enemies)


def unworn(state: BattleState, unit: Unit) -> float:
    """The default wear: none (the ruleset marks no unit as worn to the general)."""
    del state, unit
    return 0.0


@dataclass(frozen=True)
class GeneralHints:
    """A ruleset's hints to the general: roles of its order kinds, their fixed parameters,
    the weights, the words its odds tables use for a win and a loss, and how many targets
    each actor weighs."""

    roles: Mapping[str, str] = field(default_factory=lambda: dict(DEFAULT_ROLES))
    params: Mapping[str, Mapping[str, Json]] = field(default_factory=dict)
    weights: Weights = Weights()
    win_words: tuple[str, ...] = ("win", "victory", "success")
    lose_words: tuple[str, ...] = ("lose", "defeat", "rout", "set back")
    targets: int = 3  # the nearest enemies each actor weighs as targets
    support: float = 6.0  # a friend this near (edge to edge, in the measure) supports a flank
    far_factor: float = 1.5  # targets beyond this many times the actor's move are not weighed
    face_arc: float = 45.0  # a unit turned further than this from the nearest enemy must face it
    breaking: Breaking = units_lost  # how near an army is to its break (0..1), from a view
    worn: Worn = unworn  # how worn an enemy unit is (0..1), from a view
    drill: Drill | None = None  # the ruleset's scripted orders for the general (else the demo's)
    adds: Adds = no_adds  # orders added to the scripted ones (leaders' orders)
    lost: Lost = never_lost  # whether an enemy already counts as lost (advances seek others)

    def role(self, kind: str) -> str | None:
        """The role of an order kind (one of ``ROLES``), or None if the general leaves it."""
        return self.roles.get(kind)
