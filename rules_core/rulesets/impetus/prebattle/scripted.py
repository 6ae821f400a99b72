"""The scripted players' pre-battle orders (the demo) and their defaults."""

from __future__ import annotations

from dataclasses import replace

from rules_core.orders import Order
from rules_core.rulesets.impetus.prebattle.deployment import deploy_spot
from rules_core.rulesets.impetus.prebattle.pieces import free_spot
from rules_core.rulesets.impetus.prebattle.reading import impetus_rules, params_of, table_of
from rules_core.rulesets.impetus.terrain_tables import (
    TERRAIN_TABLES,
    choices,
)
from rules_core.state import ON_TABLE, RESERVE, BattleState


def demo_orders(state: BattleState, side: str) -> list[Order]:
    """The scripted player's set-up orders: a feature of its table at a free spot, the
    baggage at the default, a short plan, each unit of the command deploying at a free spot."""
    step = state.cursor.step
    params = params_of(state)
    if step.startswith("terrain_"):
        table = TERRAIN_TABLES[table_of(state, side, params)]
        for band in table.bands[1:]:
            for feature in choices(band):
                if feature.kind is None or feature.crossing or feature.kind == "river":
                    continue
                spot = free_spot(state, side, feature, 90.0, params)
                if spot is not None:
                    return [
                        Order(
                            side,
                            "place_terrain",
                            {"feature": feature.key, "at": list(spot), "ep": "1"},
                        )
                    ]
        return []
    if step == "battle_plan":
        return [Order(side, "battle_plan", {"plan": "Hold the centre, strike on the left."})]
    if step.startswith("deploy_") and state.cursor.subject is not None:
        rules = impetus_rules()
        orders: list[Order] = []
        planned = state
        for unit in [
            u for u in state.units if u.group == state.cursor.subject.id and u.location == RESERVE
        ]:
            spot = deploy_spot(rules, planned, unit)
            if spot is None:
                continue
            orders.append(Order(side, "place", {"unit": unit.id, "at": list(spot)}))
            moved = replace(
                unit,
                x=spot[0],
                y=spot[1],
                location=ON_TABLE,
                facing=rules.deployment_facing(state, side),
            )
            planned = replace(
                planned, units=tuple(moved if u.id == unit.id else u for u in planned.units)
            )
        return orders
    return []
