"""March Column "n/a" means never: the army list, the orders, a GM's edit and movement all
refuse a march column to a unit whose Movement row gives none (#30 item 2)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.errors import InvalidInput
from bot.services import holders
from rules_core.orders import Illegal, Order, Preview
from rules_core.rulesets.pike_and_shot import movement
from rules_core.rulesets.pike_and_shot.movement_tables import MOVEMENT, NA, ROWS, rate
from rules_core.rulesets.pike_and_shot.profiles import SCHEMA
from rules_core.rulesets.pike_and_shot.status import COHESION, MARCH_COLUMN
from rules_core.state import BattleState, TerrainFeature
from tests.rules_core.rulesets.pike_and_shot.helpers import RULES, at, context, status

PARAMS = RULES.parameter_values()
WOOD = TerrainFeature("wood", "wood", ((20, 14), (40, 14), (40, 30), (20, 30)), "Wood")
# Every unit type of the army list, with how it is entered (dismounted dragoons read another row).
ENTRIES = {key: {"type": key} for key in ROWS if key != "dismounted_dragoons"}
ENTRIES["dismounted_dragoons"] = {"type": "dragoons", "dismounted": True}


def _row(key: str) -> str:
    row = ROWS[key]
    assert isinstance(row, str)
    return row


def _without_column(row: str) -> bool:
    return MOVEMENT.lookup(row, "march_column") == NA


def _unit_of(key: str) -> BattleState:
    """Gerard's Foot (royalists4) made a unit of the type ``key`` stands for."""
    state = at("movement", royalists4=(30, 10, 0))
    entry = ENTRIES[key]
    unit = replace(state.unit("royalists4"), type=str(entry["type"]))
    if entry.get("dismounted") is True:
        unit = unit.with_status(dismounted=True)
    return state.with_unit(unit)


def _army(entry: dict[str, object]) -> dict[str, object]:
    return {"name": "x", "units": [{"name": "a"}, {"name": "b", **entry, "march_column": True}]}


def test_the_walk_covers_every_unit_row_of_the_movement_table() -> None:
    read = {_row(key) for key in ENTRIES}
    assert read == set(MOVEMENT.rows) - {"Commanders"}  # commanders are leaders, not units
    assert {_row(k) for k in ENTRIES if _without_column(_row(k))} == {
        "Rabble", "Infantry guns", "Field Artillery", "Heavy Artillery",
    }  # fmt: skip


@pytest.mark.parametrize("key", list(ENTRIES))
def test_the_army_list_refuses_march_column_where_the_table_says_n_a(key: str) -> None:
    problems = SCHEMA.validate(_army(ENTRIES[key]))
    if _without_column(_row(key)):
        assert len(problems) == 1 and problems[0].startswith("units[1].march_column: ")
        assert _row(key) in problems[0] and "n/a" in problems[0]
    else:
        assert problems == []
    assert SCHEMA.validate({**_army(ENTRIES[key]), "units": [{"name": "b", **ENTRIES[key]}]}) == []


@pytest.mark.parametrize("key", list(ENTRIES))
def test_forming_march_column_is_refused_where_the_table_says_n_a(key: str) -> None:
    state = _unit_of(key)
    order = Order("royalists4", "move", {"path": [[30, 11]], "formation": "march_column"})
    verdict = RULES.judge(state, order)
    if _without_column(_row(key)):
        assert isinstance(verdict, Illegal) and "no March Column" in verdict.reason
        ctx = context(state, orders=[order])
        movement.resolve(ctx)
        assert not MARCH_COLUMN.of(ctx.state.unit("royalists4"))
    else:
        assert isinstance(verdict, Preview), verdict


@pytest.mark.parametrize("key", list(ENTRIES))
def test_a_gm_may_not_put_a_unit_without_a_march_column_into_one(key: str) -> None:
    state = _unit_of(key)
    unit = state.unit("royalists4")
    if _without_column(_row(key)):
        with pytest.raises(InvalidInput, match="n/a"):
            holders.check(RULES, state, unit, "march_column", True)
    else:
        assert holders.check(RULES, state, unit, "march_column", True) is True
    assert holders.check(RULES, state, unit, "march_column", False) is False


@pytest.mark.parametrize("key", [k for k in ENTRIES if _without_column(_row(k))])
def test_movement_never_reads_an_n_a_march_column_rate(key: str) -> None:
    # A state that has one anyway (an old save): no move is costed at a rate the table lacks.
    state = status(_unit_of(key), "royalists4", march_column=True)
    unit = state.unit("royalists4")
    with pytest.raises(ValueError, match="n/a"):
        rate(unit, PARAMS)
    refused = RULES.judge(state, Order("royalists4", "move", {"path": [[30, 11]]}))
    assert isinstance(refused, Illegal) and "n/a" in refused.reason
    assert RULES.reach(state, unit, "move") == 0.0  # it may not move as it stands


def test_rabble_through_a_wood_moves_at_its_normal_rate_and_is_disordered() -> None:
    normal, difficult = (MOVEMENT.lookup("Rabble", c) for c in ("normal", "difficult"))
    assert isinstance(normal, int) and isinstance(difficult, int)
    assert MOVEMENT.lookup("Rabble", "disorder") is True
    state = at("movement", [WOOD], parliament5=(30, 10, 0))
    # Its base is in the wood (from y=14) once its front edge gets there (#39): that many
    # inches in the open, then each inch costs Normal / Difficult inches, as far as the
    # Normal move allows.
    open_ground = 14 - (10 + state.unit("parliament5").depth / 2)
    inside = (normal - open_ground) / (normal / difficult)
    reached = 10 + open_ground + inside
    stays = Order("parliament5", "move", {"path": [[30, reached]]})
    verdict = RULES.judge(state, stays)
    assert isinstance(verdict, Preview) and f'of its {normal:g}"' in verdict.summary
    further = Order("parliament5", "move", {"path": [[30, reached + 0.5]]})
    assert isinstance(RULES.judge(state, further), Illegal)
    refused = Order("parliament5", "move", {"path": [[30, 20]], "formation": "march_column"})
    assert isinstance(RULES.judge(state, refused), Illegal)
    # In march column anyway (an old save), it does not dash 10" through the wood unharmed.
    column = status(state, "parliament5", march_column=True)
    assert isinstance(RULES.judge(column, Order("parliament5", "move", {"path": [[30, 20]]})),
                      Illegal)  # fmt: skip
    ctx = context(state, orders=[stays])
    movement.resolve(ctx)
    rabble = ctx.state.unit("parliament5")
    assert abs(rabble.y - reached) < 1e-6 and not MARCH_COLUMN.of(rabble)
    assert COHESION.of(rabble) == "disordered"
