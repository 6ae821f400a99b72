"""What a GM may change beyond a unit: a leader's points, wounds and status, a group's or a
side's status. Each holder is found by id or name; its fields are the ruleset's declared status
keys of its scope, and for a leader also ``points`` and ``wounds``."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from bot.errors import InvalidInput
from bot.services.names import name_key
from rules_core.plugin import Rules
from rules_core.state import BattleState, Group, Leader, Side, Unit
from rules_core.status import Scope

Holder = Unit | Leader | Group | Side
LEADER_FIELDS = ("points", "wounds")  # kept on the leader itself, not in its status


def named(state: BattleState, ref: str) -> list[Holder]:
    """Every unit, leader, group or side whose id or name is ``ref`` (case-insensitive); an
    exact id wins over names."""
    key = name_key(ref)
    every: list[Holder] = [*state.units, *state.leaders, *state.groups, *state.sides]
    by_id = [h for h in every if h.id.casefold() == key]
    return by_id or [h for h in every if name_key(h.name) == key]


def scope_of(holder: Holder) -> Scope:
    """The status scope a holder's keys are declared in."""
    kinds: dict[type, Scope] = {Unit: Scope.UNIT, Leader: Scope.LEADER, Group: Scope.GROUP}
    return kinds.get(type(holder), Scope.SIDE)


def fields_of(rules: Rules, scope: Scope) -> list[str]:
    """The fields a GM may set on a holder of this scope."""
    extra = list(LEADER_FIELDS) if scope is Scope.LEADER else []
    return extra + [item.key for item in rules.statuses.of_scope(scope)]


def value_of(holder: Holder, field: str) -> Any:
    """A field's current value (a unit's falls back to its profile)."""
    if isinstance(holder, Leader) and field in LEADER_FIELDS:
        return getattr(holder, field)
    if isinstance(holder, Unit):
        return holder.status.get(field, holder.profile.get(field))
    return holder.status.get(field)


def check(rules: Rules, state: BattleState, holder: Holder, field: str, value: Any) -> Any:
    """The value checked for the field, or the refusal: an undeclared key, a wrong kind, or a
    value the ruleset's rules forbid the unit."""
    scope = scope_of(holder)
    if isinstance(holder, Leader) and field in LEADER_FIELDS:
        if type(value) is not int or value < 0:
            raise InvalidInput(f"A leader's {field} is a whole number of 0 or more.")
        return value
    if not rules.statuses.declares(field, scope):
        known = ", ".join(sorted(fields_of(rules, scope)))
        raise InvalidInput(
            f"{scope.value.title()}s have no status `{field}` in this ruleset; they keep: {known}."
        )
    try:
        rules.statuses.check(scope, {field: value})
    except ValueError as error:
        raise InvalidInput(f"{error}.") from None
    problem = None
    if isinstance(holder, Unit):
        problem = rules.status_problem(state, holder, field, value)
    if problem is not None:
        raise InvalidInput(f"{holder.name}: {problem}.")
    return value


def with_value(state: BattleState, holder: Holder, field: str, value: Any) -> BattleState:
    """The state with one field of a holder changed."""
    if isinstance(holder, Leader) and field in LEADER_FIELDS:
        return state.with_leader(replace(holder, **{field: value}))
    status = {**holder.status, field: value}
    if isinstance(holder, Unit):
        return state.with_unit(replace(holder, status=status))
    if isinstance(holder, Leader):
        return state.with_leader(replace(holder, status=status))
    if isinstance(holder, Group):
        return state.with_group(replace(holder, status=status))
    return state.with_side(replace(holder, status=status))
