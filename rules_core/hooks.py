"""The functions a ruleset names once for ``Rules``'s pass-through hooks (its roster, its
demo and its odds), so a ruleset whose hooks would only call its own modules writes none."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from rules_core.codec import Json
from rules_core.odds import Odds, OddsQuery, Refused
from rules_core.orders import Order
from rules_core.state import BattleState, Group, Leader, Unit

Forces = tuple[tuple[Group, ...], tuple[Leader, ...]]


class ForcesModule(Protocol):
    """A ruleset's ``forces`` module that names every roster function it has."""

    def forces(self, data: Mapping[str, Json], side: str, /) -> Forces:
        """The groups and leaders of an army list."""

    def prepare(self, state: BattleState, /) -> BattleState:
        """The battle with its forces set up."""

    def group_of(self, entry: Mapping[str, Json], side: str, default: str, /) -> str:
        """The group an army-list entry's unit belongs to."""

    def carry_over(self, entry: Mapping[str, Json], unit: Unit | None, /) -> dict[str, Json]:
        """An army-list entry after a battle its unit fought (None: lost)."""


class ProfilesModule(Protocol):
    """A ruleset's ``profiles`` module: its units from army-list entries and its sample armies."""

    def unit_from_entry(
        self, entry: Mapping[str, Json], unit_id: str, side: str, group: str, /
    ) -> Unit:
        """A unit from an army-list entry."""

    def load_army(self, name: str, /) -> Mapping[str, Json]:
        """A sample army file by name."""

    @property
    def SAMPLE_ARMIES(self) -> tuple[str, ...]:
        """The sample armies' names."""


@dataclass(frozen=True)
class RosterHooks:
    """A ruleset's roster functions, named once: ``Rules``'s roster hooks call them, so a
    ruleset whose hooks only pass through to its forces and profiles modules writes none."""

    forces: Callable[[Mapping[str, Json], str], Forces]
    prepare: Callable[[BattleState], BattleState]
    unit_from_entry: Callable[[Mapping[str, Json], str, str, str], Unit] | None = None
    group_of: Callable[[Mapping[str, Json], str, str], str] | None = None  # entry, side, default
    carry_over: Callable[[Mapping[str, Json], Unit | None], dict[str, Json]] | None = None
    load_army: Callable[[str], Mapping[str, Json]] | None = None
    sample_armies: tuple[str, ...] = ()  # the names ``load_army`` reads for ``sample_armies``

    @classmethod
    def of(cls, forces: ForcesModule, profiles: ProfilesModule) -> RosterHooks:
        """The hooks of a ruleset whose ``forces`` and ``profiles`` modules name each of them."""
        return cls(
            forces.forces,
            forces.prepare,
            profiles.unit_from_entry,
            forces.group_of,
            forces.carry_over,
            profiles.load_army,
            profiles.SAMPLE_ARMIES,
        )


# (state, query, parameter values): the odds of what a player asks.
OddsOf = Callable[[BattleState, OddsQuery, Mapping[str, Json]], Odds | Refused | None]


@dataclass(frozen=True)
class DemoHooks:
    """A ruleset's sample battle, scripted player and odds, named once: ``Rules``'s hooks call
    them, so a ruleset whose hooks only pass through to its modules writes none."""

    sample_battle: Callable[[], BattleState] | None = None
    # (rules, state, side): the rules are a ``plugin.Rules``, named Any here as this module
    # sits below plugin.py, which reads it.
    demo_orders: Callable[[Any, BattleState, str], list[Order]] | None = None
    odds: OddsOf | None = None  # the ruleset's ``chances.odds``
    # The tests ``/odds test option:`` names, where the ruleset has several (offered as typed).
    odds_tests: tuple[str, ...] = ()
