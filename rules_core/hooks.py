"""The functions a ruleset names once for ``Rules``'s pass-through hooks (its roster, its
demo and its odds), so a ruleset whose hooks would only call its own modules writes none."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from rules_core.codec import Json
from rules_core.odds import Odds, OddsQuery, Refused
from rules_core.orders import Order
from rules_core.state import BattleState, Group, Leader, Unit

Forces = tuple[tuple[Group, ...], tuple[Leader, ...]]


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
