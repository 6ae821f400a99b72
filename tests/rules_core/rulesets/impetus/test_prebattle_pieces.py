"""The pre-battle procedure's pieces on hand-built tables: the attacker bonus, which terrain
table, where terrain may go (the attacker's 8H), bridges on rivers, the order commands deploy."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules_core.codec import Json
from rules_core.rulesets.impetus import prebattle
from rules_core.rulesets.impetus.prebattle import terrain_roll
from rules_core.rulesets.impetus.terrain_tables import FEATURES, FOOT, MOUNTED
from rules_core.state import (
    RESERVE,
    Battlefield,
    BattleState,
    Group,
    Side,
    TerrainFeature,
    Unit,
)
from rules_core.steps import Cursor, Subject

PARAMS = prebattle.params_of  # the defaults, with a battle's values over them


def unit(uid: str, side: str, kind: str, group: str = "", vbu: int = 5) -> Unit:
    return Unit(uid, uid, side, group or f"{side}_c1", kind, "B", 2.0, 1.0, 0.0, 0.0, 0.0,
                profile={"type": kind, "vbu": vbu}, location=RESERVE)  # fmt: skip


def state_of(
    *units: Unit, terrain: tuple[TerrainFeature, ...] = (), roles: bool = True
) -> BattleState:
    sides = (
        Side("a", "Red", {"role": "attacker"} if roles else {}),
        Side("b", "Blue", {"role": "defender"} if roles else {}),
    )
    groups = tuple(
        Group(g, g, g.split("_")[0], "command") for g in sorted({u.group for u in units})
    )
    return BattleState("x", "impetus", Battlefield(30, 20, "H", 40),
                       Cursor(0, "setup", "terrain_attacker", ("a", "b")), sides, groups, (),
                       units, terrain)  # fmt: skip


def wood(fid: str, x: float, y: float, side: str = "b") -> TerrainFeature:
    points = ((x - 2, y - 1.5), (x + 2, y - 1.5), (x + 2, y + 1.5), (x - 2, y + 1.5))
    return TerrainFeature(fid, "wood", points, f"Wood {fid}", {"placed_by": side})


def test_the_attacker_bonus_counts_mounted_units_but_el_and_w_rounding_up() -> None:
    state = state_of(unit("c1", "a", "CM"), unit("c2", "a", "CL"), unit("c3", "a", "CP1"),
                     unit("e", "a", "EL"), unit("w", "a", "W"), unit("f", "a", "FP"))  # fmt: skip
    assert prebattle.mounted_count(state, "a") == 3
    assert prebattle.attacker_bonus(state, "a") == 2  # 3 / 2 rounded up
    assert prebattle.attacker_bonus(state, "b") == 0


def test_an_army_of_more_mounted_than_foot_rolls_on_the_mtd_table() -> None:
    half = state_of(unit("c1", "a", "CM"), unit("c2", "a", "CL"), unit("f1", "a", "FP"),
                    unit("f2", "a", "FL"))  # fmt: skip
    assert prebattle.table_of(half, "a") == FOOT  # half is not more than half
    more = state_of(*half.units, unit("c3", "a", "CGP"))
    assert prebattle.table_of(more, "a") == MOUNTED
    elephants = state_of(*half.units, unit("e1", "a", "EL"))
    assert prebattle.table_of(elephants, "a") == FOOT  # EL is not counted as mounted
    changed = replace(half, parameters={"mounted_table_share": 0.4})
    assert prebattle.table_of(changed, "a") == MOUNTED


def test_the_attackers_terrain_stands_8h_from_other_terrain_the_defenders_anywhere() -> None:
    state = state_of(terrain=(wood("t1", 10, 10),))
    params = PARAMS(state)
    hill = FEATURES["small_gentle_hill"]
    near = prebattle.placement_problem(state, "a", hill, (17.0, 10.0), 90.0, params)
    assert near is not None and "at least 8 H from other terrain" in near, near
    assert "Wood t1 is 3.0 H away" in near, near
    assert prebattle.placement_problem(state, "a", hill, (26.0, 10.0), 90.0, params) is None
    assert prebattle.placement_problem(state, "b", hill, (17.0, 10.0), 90.0, params) is None
    wider = replace(state, parameters={"attacker_gap": 3.0})
    assert prebattle.placement_problem(wider, "a", hill, (17.0, 10.0), 90.0, PARAMS(wider)) is None


def test_a_piece_must_fit_on_the_table_and_not_overlap_another() -> None:
    state = state_of(terrain=(wood("t1", 10, 10),))
    params = PARAMS(state)
    large = FEATURES["large_dft"]
    off = prebattle.placement_problem(state, "b", large, (2.0, 10.0), 90.0, params)
    assert off is not None and "would not fit on the table" in off
    over = prebattle.placement_problem(state, "b", large, (12.0, 10.0), 90.0, params)
    assert over == "it would overlap Wood t1"
    points = prebattle.outline(state, large, (20.0, 10.0), 90.0, params)
    assert points is not None
    xs = [x for x, _ in points]
    assert max(xs) - min(xs) == pytest.approx(8.0)  # large: 8H long, along the facing (90: x)


def test_roads_and_rivers_cross_the_table_and_there_is_one_river() -> None:
    state = state_of(roles=False)
    params = PARAMS(state)
    river = prebattle.outline(state, FEATURES["river"], (15.0, 10.0), 90.0, params)
    assert river == ((0.0, 10.0), (30.0, 10.0))
    road = prebattle.outline(state, FEATURES["road"], (15.0, 10.0), 0.0, params)
    assert road == ((15.0, 0.0), (15.0, 20.0))
    laid = replace(state, terrain=(TerrainFeature("t1", "river", river, "River", {"width": 2.0}),))
    second = prebattle.placement_problem(laid, "a", FEATURES["river"], (15.0, 4.0), 90.0, params)
    assert second == "there is a river already: one river a battlefield"


def test_a_bridge_or_ford_goes_over_a_river() -> None:
    state = state_of()
    params = PARAMS(state)
    bridge = FEATURES["bridge"]
    none = prebattle.placement_problem(state, "b", bridge, (15.0, 10.0), 90.0, params)
    assert none is not None and "goes over a river" in none
    river = TerrainFeature("t1", "river", ((0.0, 10.0), (30.0, 10.0)), "River", {"width": 2.0})
    laid = replace(state, terrain=(river,))
    assert prebattle.placement_problem(laid, "b", bridge, (15.0, 10.0), 0.0, params) is None
    # The attacker's crossing sits on the river: only other terrain must be 8H away.
    assert (
        prebattle.placement_problem(laid, "a", FEATURES["ford"], (15.0, 10.0), 0.0, params) is None
    )
    far = prebattle.placement_problem(laid, "b", bridge, (15.0, 16.0), 0.0, params)
    assert far is not None and "goes over a river" in far


def test_the_attacker_default_spot_keeps_the_gap() -> None:
    state = state_of(terrain=(wood("t1", 15, 10),))
    params = PARAMS(state)
    hill = FEATURES["small_gentle_hill"]
    spot = prebattle.free_spot(state, "a", hill, 90.0, params)
    assert spot is not None
    assert prebattle.placement_problem(state, "a", hill, spot, 90.0, params) is None


def test_commands_deploy_biggest_first_then_alternately() -> None:
    units = [unit(f"a1{i}", "a", "FP", "a_c1") for i in range(4)]
    units += [unit(f"a2{i}", "a", "FP", "a_c2") for i in range(2)]
    units += [unit(f"a3{i}", "a", "FP", "a_c3") for i in range(3)]
    units += [unit(f"b1{i}", "b", "FP", "b_c1", vbu=4) for i in range(3)]
    units += [unit(f"b2{i}", "b", "FP", "b_c2", vbu=6) for i in range(3)]
    state = state_of(*units)
    assert prebattle.commands_by_size(state, "a") == ["a_c1", "a_c3", "a_c2"]
    assert prebattle.commands_by_size(state, "b") == ["b_c2", "b_c1"]  # more VBU
    assert prebattle.commands_in_reserve(state, "a") == ["a_c3", "a_c2"]  # for step 10
    state = replace(state, status={"deploy_first": "b"})
    assert prebattle.subjects("first_deployer", state) == (Subject("b_c2", "b"),)
    assert prebattle.subjects("second_deployer", state) == (Subject("a_c1", "a"),)
    # Planned ahead, step 10 already lists the rest: the same list as once steps 8 and 9
    # have placed the two biggest; they alternate, the first player first.
    assert prebattle.subjects("deploy_alternate", state) == (
        Subject("b_c1", "b"), Subject("a_c3", "a"), Subject("a_c2", "a"))  # fmt: skip
    placed = replace(state, units=tuple(
        replace(u, location="table") if u.group in ("b_c2", "a_c1") else u for u in state.units
    ))  # fmt: skip
    assert prebattle.subjects("deploy_alternate", placed) == (
        Subject("b_c1", "b"), Subject("a_c3", "a"), Subject("a_c2", "a"))  # fmt: skip
    assert prebattle.subjects("first_deployer", placed) == ()  # deployed: nothing to repeat


def test_the_set_up_loops_follow_the_roles() -> None:
    state = state_of(unit("x", "a", "FP"))
    assert prebattle.subjects("defender", state) == (Subject("b", "b"),)
    assert prebattle.subjects("attacker", state) == (Subject("a", "a"),)
    assert prebattle.subjects("defender_first", state) == (Subject("b", "b"), Subject("a", "a"))
    assert prebattle.subjects("plans", state) == (Subject("plans", "a"),)
    assert prebattle.subjects("plans", replace(state, parameters={"battle_plans": False})) == ()


def test_the_terrain_orders_choices_are_narrowed_to_the_sides_table_and_what_is_left() -> None:
    from rules_core.registry import get

    rules = get("impetus").rules
    assert rules is not None
    mounted = [unit(f"c{n}", "a", "CM") for n in range(3)]
    state = state_of(*mounted, unit("f1", "b", "FP"), unit("f2", "b", "FP"))
    state = replace(state, sides=tuple(
        replace(s, status={**s.status, "exploration_points": 1 if s.id == "a" else 2})
        for s in state.sides
    ))  # fmt: skip
    foot = rules.option_choices(state, "b", "place_terrain", "feature")
    assert foot == ("none", "small_brk", "small_dft", "small_gentle_hill", "road", "large_dft",
                    "large_brk", "small_imp", "large_imp", "river", "village")  # fmt: skip
    # The Mtd table, without its bridge and ford (no river) nor its enemy-terrain rows (the
    # enemy has placed nothing).
    assert rules.option_choices(state, "a", "place_terrain", "feature") == (
        "large_brk", "none", "road", "small_gentle_hill", "large_gentle_hill", "small_brk",
        "small_dft", "large_dft", "small_imp", "large_imp",
    )  # fmt: skip
    river = TerrainFeature("t1", "river", ((0.0, 10.0), (30.0, 10.0)), "River",
                           {"width": 2.0, "placed_by": "b"})  # fmt: skip
    laid = replace(state, terrain=(river,))
    after = rules.option_choices(laid, "a", "place_terrain", "feature")
    assert after is not None
    assert {"bridge", "ford", "move_enemy", "remove_enemy"} <= set(after)
    narrowed = rules.option_choices(laid, "b", "place_terrain", "feature")
    assert narrowed is not None and "river" not in narrowed  # one river a battlefield
    # Exploration points: no more than the side has left.
    assert rules.option_choices(state, "a", "place_terrain", "ep") == ("0", "1")
    assert rules.option_choices(state, "b", "place_terrain", "ep") == ("0", "1", "2")
    # Choices the state does not narrow keep the kind's own.
    assert rules.option_choices(state, "a", "move", "manoeuvre") is None
    assert rules.option_choices(state, "a", "place_terrain", "terrain") is None


def _river_and_crossings() -> BattleState:
    """The defender's river across the table at y 10, a bridge and a ford on it (the
    attacker's bridge among them), and a wood that is not on it."""
    props: dict[str, Json] = {"width": 2.0, "placed_by": "b", "feature": "river", "facing": 90.0}
    river = TerrainFeature("t1", "river", ((0.0, 10.0), (30.0, 10.0)), "River (Blue)", props)
    box = ((-1.0, -2.0), (1.0, -2.0), (1.0, 2.0), (-1.0, 2.0))
    bridge = TerrainFeature("t2", "bridge", tuple((8 + x, 10 + y) for x, y in box), "Bridge",
                            {"placed_by": "a", "feature": "bridge"})  # fmt: skip
    ford = TerrainFeature("t3", "ford", tuple((20 + x, 10 + y) for x, y in box), "Ford",
                          {"placed_by": "b", "feature": "ford"})  # fmt: skip
    return state_of(terrain=(river, bridge, ford, wood("t4", 15, 16)))


def _enemy_terrain(state: BattleState, key: str, params: dict[str, object]) -> BattleState:
    import random

    from rules_core.context import Context
    from rules_core.orders import Order
    from rules_core.registry import get

    rules = get("impetus").rules
    assert rules is not None
    order = Order("a", "place_terrain", {"feature": key, **params})  # type: ignore[dict-item]
    ctx = Context(rules, state, (order,), (), random.Random(0))
    terrain_roll._enemy_terrain(ctx, "a", FEATURES[key], order, 11)
    return ctx.state


def test_a_moved_river_takes_its_bridges_and_fords_along() -> None:
    state = _river_and_crossings()
    moved = _enemy_terrain(state, "move_enemy", {"terrain": "t1", "at": [12.0, 5.0]})
    pieces = {f.id: f for f in moved.terrain}
    assert pieces["t1"].points == ((0.0, 5.0), (30.0, 5.0))
    # Each crossing keeps its place along the river and its turn, 5H down with it.
    for fid in ("t2", "t3"):
        before = next(f for f in state.terrain if f.id == fid).points
        assert pieces[fid].points == tuple((x, y - 5.0) for x, y in before)
    assert pieces["t4"].points == next(f for f in state.terrain if f.id == "t4").points
    assert {f.id for f in prebattle.crossings_on(moved, pieces["t1"])} == {"t2", "t3"}


def test_a_removed_river_takes_its_bridges_and_fords_off_the_table() -> None:
    state = _river_and_crossings()
    removed = _enemy_terrain(state, "remove_enemy", {"terrain": "t1"})
    assert {f.id for f in removed.terrain} == {"t4"}
    # Removing another piece leaves the river's crossings where they are.
    other = _enemy_terrain(state, "remove_enemy", {"terrain": "t4"})
    assert {f.id for f in other.terrain} == {"t1", "t2", "t3"}
