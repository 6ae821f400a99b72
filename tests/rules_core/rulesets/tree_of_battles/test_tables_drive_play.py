"""The Tree of Battles' tables drive play: each modifier row is reached by a state built for
it, and its number comes from the table (a copied table with tagged cells swapped in shows
the tag in the resolver's modifiers; a moved cell moves the result by exactly as much)."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace

import pytest

from rules_core.codec import Json
from rules_core.context import Context
from rules_core.decisions import Answer
from rules_core.dice import Modifier
from rules_core.events import ShotResolved, TestResolved
from rules_core.orders import Order
from rules_core.rulesets.tree_of_battles import (
    charges,
    combat,
    command,
    control,
    losses,
    movement,
    rules,
    shooting,
    tables,
    tactical,
)
from rules_core.rulesets.tree_of_battles import units as u
from rules_core.rulesets.tree_of_battles.rules import TreeOfBattlesRules
from rules_core.rulesets.tree_of_battles.sample import sample_battle
from rules_core.state import BattleState, TerrainFeature
from rules_core.steps import Cursor
from rules_core.tables import Band, GridTable, ScoreTable

RULES = TreeOfBattlesRules()


class Dealt(random.Random):
    """A random stream that deals the given die faces in order, then sixes."""

    def __init__(self, faces: list[int]) -> None:
        super().__init__(0)
        self.faces = list(faces)

    def randint(self, a: int, b: int) -> int:
        return self.faces.pop(0) if self.faces else b


def at(step: str, **moves: tuple[float, float, float]) -> BattleState:
    """The Agincourt sample in a step of turn 1, with some contingents placed (x, y, facing)."""
    state = replace(sample_battle(), cursor=Cursor(1, "main", step, ("english", "french")))
    for key, (x, y, facing) in moves.items():
        state = state.with_unit(replace(state.unit(key), x=x, y=y, facing=facing))
    return state


def status(state: BattleState, key: str, **changes: Json) -> BattleState:
    """The state with one contingent's status changed."""
    return state.with_unit(state.unit(key).with_status(**changes))


def profile(state: BattleState, key: str, **changes: Json) -> BattleState:
    """The state with one contingent's profile changed."""
    unit = state.unit(key)
    return state.with_unit(replace(unit, profile={**unit.profile, **changes}))


def square(kind: str, x: float, y: float, half: float = 0.4) -> TerrainFeature:
    """A small square of terrain centred on (x, y)."""
    points = (
        (x - half, y - half),
        (x + half, y - half),
        (x + half, y + half),
        (x - half, y + half),
    )
    return TerrainFeature(kind, kind, points)


def tagged(table: GridTable, column: str = "value") -> tuple[GridTable, dict[str, int]]:
    """A copy of a table whose whole-number cells in ``column`` are distinct tags."""
    index = table.columns.index(column)
    tags: dict[str, int] = {}
    rows: dict[str, tuple[Json, ...]] = {}
    for n, (key, cells) in enumerate(table.rows.items()):
        if isinstance(cells[index], int):
            tags[key] = 100 + n
            cells = (*cells[:index], tags[key], *cells[index + 1 :])
        rows[key] = cells
    return GridTable(table.name, table.columns, rows), tags


def check_row(
    monkeypatch: pytest.MonkeyPatch, name: str, row: str, mods: Callable[[], list[Modifier]]
) -> None:
    """The row applies in play, with the sheet's number, and that number is the table's."""
    sheet = getattr(tables, name).lookup(row, "value")
    copy, tags = tagged(getattr(tables, name))
    with monkeypatch.context() as patch:
        patch.setattr(tables, name, copy)
        found = [m.value for m in mods()]
    assert tags[row] in found, f"row {row} not reached: {found}"
    assert mods()[found.index(tags[row])].value == sheet  # the sheet's number in play


# -- combat factors: Vaward (e2, A, 2 ranks) meets Vendôme's Horse (f1) charging -----------
def meet() -> BattleState:
    state = at("melee", e2=(8, 8, 0), f1=(8, 9.0, 180))
    return status(state, "f1", charged=True)


def reinforced() -> BattleState:
    state = at("melee", e2=(8, 8, 0), f1=(8, 9.0, 180), e3=(10, 8, 0))
    return status(state, "e3", charged=True)


Case = tuple[Callable[[], BattleState], str, str, bool]  # state, unit, enemy, charge combat
FACTORS: dict[str, Case] = {
    "grade_ab": (meet, "f1", "e2", True),
    "grade_d": (lambda: replace_quality(meet(), "e2", "D"), "e2", "f1", True),
    "ground": (lambda: with_terrain(meet(), square("hill", 8, 7.8)), "e2", "f1", True),
    "fortification": (
        lambda: with_terrain(meet(), square("fortification", 8, 7.8)), "e2", "f1", True,
    ),
    "deeper": (meet, "e2", "f1", True),
    "pursuing": (lambda: status(meet(), "e2", pursuing=True), "e2", "f1", True),
    "pursuing_mounted": (lambda: status(meet(), "f1", pursuing=True), "f1", "e2", True),
    "reinforced": (reinforced, "e2", "f1", False),
    "armour": (lambda: profile(meet(), "e2", armour="armoured"), "f1", "e2", False),
    "noble": (meet, "e2", "f1", True),  # York, 3 CPs, is with the Vaward
    "noble_4cp": (lambda: with_points(meet(), "york", 4), "e2", "f1", True),
    "outnumbered": (lambda: status(meet(), "f1", casualties=1), "f1", "e2", True),
    "outnumbered_2": (lambda: status(meet(), "f1", casualties=2), "f1", "e2", True),
    "outnumbered_3": (lambda: status(meet(), "f1", casualties=3), "f1", "e2", True),
    "array": (lambda: status(meet(), "e2", array="column"), "e2", "f1", True),
    "dp": (lambda: status(meet(), "e2", dps=1), "e2", "f1", True),
    "casualty": (lambda: status(meet(), "e2", casualties=1), "e2", "f1", True),
    "chivalrous_charge": (meet, "f1", "e2", True),
    "pikes": (
        lambda: profile(retyped(meet(), "e2", "pikemen"), "f1", mounted=False), "e2", "f1", True,
    ),
    "pikes_mounted": (lambda: retyped(meet(), "e2", "pikemen"), "e2", "f1", True),
}  # fmt: skip


def replace_quality(state: BattleState, key: str, quality: str) -> BattleState:
    return state.with_unit(replace(state.unit(key), quality=quality))


def retyped(state: BattleState, key: str, kind: str) -> BattleState:
    return state.with_unit(replace(state.unit(key), type=kind))


def with_terrain(state: BattleState, feature: TerrainFeature) -> BattleState:
    return replace(state, terrain=(*state.terrain, feature))


def with_points(state: BattleState, leader: str, points: int) -> BattleState:
    return state.with_leader(replace(state.leader(leader), points=points))


def test_every_combat_factor_with_a_number_has_a_case() -> None:
    numbered = {k for k, cells in tables.COMBAT_FACTORS.rows.items() if isinstance(cells[0], int)}
    assert set(FACTORS) == numbered
    # The one row without a number: the contingent's own combat factor, from its profile.
    state = meet()
    first = combat.factors(state, state.unit("e2"), state.unit("f1"), True)[0]
    assert first == Modifier(3, "combat factor (profile)")


@pytest.mark.parametrize("row", list(FACTORS))
def test_combat_factors_are_read_from_the_table(row: str, monkeypatch: pytest.MonkeyPatch) -> None:
    build, key, enemy, charge = FACTORS[row]

    def mods() -> list[Modifier]:
        state = build()
        return combat.factors(state, state.unit(key), state.unit(enemy), charge)

    check_row(monkeypatch, "COMBAT_FACTORS", row, mods)


def test_a_moved_combat_factor_moves_the_combat_score(monkeypatch: pytest.MonkeyPatch) -> None:
    state = meet()
    horse, vaward = state.unit("f1"), state.unit("e2")

    def score() -> int:
        ctx = Context(RULES, state, (), (), Dealt([3]))
        return combat.score(ctx, horse, vaward, True)  # one D6 (chivalrous A grade)

    before = score()
    cells = dict(tables.COMBAT_FACTORS.rows)
    cells["chivalrous_charge"] = (3, False, "+3 (moved)")
    swapped = GridTable(tables.COMBAT_FACTORS.name, tables.COMBAT_FACTORS.columns, cells)
    monkeypatch.setattr(tables, "COMBAT_FACTORS", swapped)
    assert score() == before + 2


# -- shooting modifiers, the hit score and artillery ----------------------------------------
SHOTS: dict[str, tuple[Callable[[], BattleState], str, str, str]] = {
    "armoured_foot": (lambda: at("shooting"), "e1", "f4", "maximum"),
    "foot_skirmishers": (lambda: at("shooting"), "e1", "f6", "maximum"),
    "cover": (lambda: at("shooting", f4=(1, 10, 180)), "e1", "f4", "maximum"),
    "close": (lambda: at("shooting"), "e1", "f4", "close"),
    "archers_at_mounted": (lambda: at("shooting"), "e1", "f1", "maximum"),
}


def test_every_shooting_modifier_has_a_case() -> None:
    assert set(SHOTS) == set(tables.SHOOTING_MODIFIERS.rows)


@pytest.mark.parametrize("row", list(SHOTS))
def test_shooting_modifiers_are_read_from_the_table(
    row: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    build, shooter, target, band = SHOTS[row]

    def mods() -> list[Modifier]:
        state = build()
        return shooting.missile_modifiers(state, state.unit(shooter), state.unit(target), band)

    check_row(monkeypatch, "SHOOTING_MODIFIERS", row, mods)


GUNS: dict[str, tuple[Callable[[BattleState], BattleState], str]] = {
    "same_target": (lambda s: status(s, "f5", last_target="e5", last_range=14.25), "close"),
    "new_target": (lambda s: s, "close"),
    "column_or_enfilade": (lambda s: status(s, "e5", array="column"), "close"),
    "each_dp": (lambda s: status(s, "f5", dps=1), "close"),
    "beyond_effective": (lambda s: s, "beyond"),
    "fortification": (lambda s: with_terrain(s, square("fortification", 20, 3)), "close"),
}


def test_every_artillery_modifier_has_a_case() -> None:
    assert set(GUNS) == set(tables.ARTILLERY_MODIFIERS.rows)


@pytest.mark.parametrize("row", list(GUNS))
def test_artillery_modifiers_are_read_from_the_table(
    row: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    change, band = GUNS[row]

    def mods() -> list[Modifier]:
        state = change(at("shooting"))
        return shooting.artillery_modifiers(state, state.unit("f5"), state.unit("e5"), 14.25, band)

    check_row(monkeypatch, "ARTILLERY_MODIFIERS", row, mods)


def test_the_hit_score_is_the_shooting_tables_hit_band(monkeypatch: pytest.MonkeyPatch) -> None:
    state = at("shooting", e1=(9, 10.2, 0))
    shot = shooting.plan(state, state.unit("e1"), state.unit("f2"), {})
    assert isinstance(shot, shooting.Shot) and shot.need() == 6  # 5, -1 armoured foot
    hits = [
        replace(band, low=4) if band.result == "hit" else band for band in tables.SHOOTING_HIT.bands
    ]
    misses = [replace(band, high=3) if band.result == "miss" else band for band in hits]
    monkeypatch.setattr(tables, "SHOOTING_HIT", replace(tables.SHOOTING_HIT, bands=tuple(misses)))
    assert shot.need() == 5
    ctx = Context(RULES, state, (), (), Dealt([5, 1, 1, 1]))
    assert shooting.resolve(ctx, shot) == 1  # the 5 now hits
    (found,) = [e for e in ctx.events if isinstance(e, TestResolved)]
    assert found.row == "4-6 = 1 DP (modified: 5+)"


# -- control tests -------------------------------------------------------------------------
CONTROL: dict[str, tuple[str, bool]] = {
    "chivalrous": ("f1", False),
    "d_grade": ("f6", False),
    "mercenary": ("f4", False),
    "rear_support": ("f6", True),  # the crossbowmen stand behind the brigands
}


@pytest.mark.parametrize("row", list(CONTROL))
def test_control_modifiers_are_read_from_the_table(
    row: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    key, shot_at = CONTROL[row]

    def mods() -> list[Modifier]:
        state = at("control")
        return control.modifiers(state, state.unit(key), shot_at)

    if row != "rear_support":
        check_row(monkeypatch, "CONTROL_MODIFIERS", row, mods)
        return
    assert Modifier(1, "friendly troops to the rear") in mods()  # "+/-1": its size is read
    moved = {**tables.CONTROL_MODIFIERS.rows, row: ("+/-2", "+/-2 (moved)")}
    swapped = GridTable(tables.CONTROL_MODIFIERS.name, tables.CONTROL_MODIFIERS.columns, moved)
    monkeypatch.setattr(tables, "CONTROL_MODIFIERS", swapped)
    assert Modifier(2, "friendly troops to the rear") in mods()


@pytest.mark.parametrize(("row", "key", "changes"), [
    ("a_grade", "e4", {"quality": "A"}),
    ("leader", "e4", {}),
])  # fmt: skip
def test_the_chosen_plus_or_minus_rows_are_read_from_the_table(
    row: str, key: str, changes: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    state = at("control")
    state = state.with_unit(replace(state.unit(key), **changes))
    if row == "leader":
        state = status(state, key, controlled_by="camoys")

    def score() -> int:
        answer = Answer(f"control:{key}:{row}", "plus", "english")
        ctx = Context(RULES, state, (), (answer,), Dealt([2]))
        control.control_test(ctx, ctx.state.unit(key), "out_of_command")
        return next(e.score for e in ctx.events if isinstance(e, TestResolved))

    assert score() == 2 + 1  # the sheet's +/-1, chosen as +1
    moved = {**tables.CONTROL_MODIFIERS.rows, row: ("+/-3", "+/-3 (moved)")}
    swapped = GridTable(tables.CONTROL_MODIFIERS.name, tables.CONTROL_MODIFIERS.columns, moved)
    monkeypatch.setattr(tables, "CONTROL_MODIFIERS", swapped)
    assert score() == 2 + 3


# -- DPs from the Cause of DPs, Remove DPs and Manoeuvre tables ----------------------------
def with_dps(name: str, row: str, column: str, value: int) -> GridTable:
    """A copy of a table with one cell of ``column`` replaced."""
    table = getattr(tables, name)
    index = table.columns.index(column)
    cells = table.rows[row]
    return GridTable(
        table.name, table.columns, {**table.rows, row: (*cells[:index], value, *cells[index + 1 :])}
    )


def test_a_charge_from_the_flank_gives_the_tables_dps(monkeypatch: pytest.MonkeyPatch) -> None:
    def dps() -> int:
        state = at("charges", e4=(15.5, 3, 0), f1=(13.9, 3, 90))
        ctx = Context(RULES, state, (), (), Dealt([]))
        charges.execute(ctx, ctx.state.unit("f1"), ctx.state.unit("e4"), "stand")
        return u.dps(ctx.state.unit("e4"))

    assert dps() == 2  # "Charged from behind the flank or rear": 2 DPs
    monkeypatch.setattr(
        tables, "CAUSES_OF_DPS", with_dps("CAUSES_OF_DPS", "flank_or_rear", "dps", 3)
    )
    assert dps() == 3


def test_foot_who_charged_meeting_mounted_take_the_tables_dps(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def dps() -> int:
        state = profile(at("charges", e4=(15.5, 3, 0), f2=(15.5, 5.0, 180)), "e4", mounted=True)
        ctx = Context(RULES, state, (), (), Dealt([]))
        charges.execute(ctx, ctx.state.unit("f2"), ctx.state.unit("e4"), "counter_charge")
        return u.dps(ctx.state.unit("f2"))

    assert dps() == 2  # "Foot who charged contacted by mounted": 2 DPs
    moved = with_dps("CAUSES_OF_DPS", "foot_charged_by_mounted", "dps", 4)
    monkeypatch.setattr(tables, "CAUSES_OF_DPS", moved)
    assert dps() == 4


@pytest.mark.parametrize("grade", list(tables.REMOVE_DPS.rows))
def test_rally_removes_the_dps_of_the_grades_row(
    grade: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    def after() -> int:
        state = at("rally")
        state = status(replace_quality(state, "e4", grade), "e4", dps=3, stationary=True)
        ctx = Context(RULES, state, (), (), Dealt([]))
        RULES.resolve_rally(ctx)
        return u.dps(ctx.state.unit("e4"))

    assert after() == 3 - 1  # every grade's row removes 1
    monkeypatch.setattr(tables, "REMOVE_DPS", with_dps("REMOVE_DPS", grade, "dps", 2))
    assert after() == 3 - 2


MANOEUVRE_ROWS = {
    "wheel": "wheeled within 6 SF of the enemy",
    "minor_obstacle": "crossed a minor obstacle",
    "defensive_obstacle": "mounted crossing a defensive obstacle",
    "major_obstacle": "crossed a major obstacle",
}


@pytest.mark.parametrize("row", list(MANOEUVRE_ROWS))
def test_movement_dps_come_from_the_manoeuvre_table(
    row: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    def dps() -> int:
        state = at("tactical", e4=(19, 10, 0), f3=(19, 14, 180))  # clear of the ploughland
        if row == "wheel":
            ctx = Context(RULES, state, (), (), Dealt([]))
            movement.wheel_dps(ctx, ctx.state.unit("e4"), 45.0)
            return u.dps(ctx.state.unit("e4"))
        kind = row.removesuffix("_obstacle")
        props: dict[str, Json] = {} if kind == "minor" else {kind: True}
        wall = TerrainFeature("w", "linear_obstacle", ((17.5, 9.0), (20.5, 9.0)), properties=props)
        state = profile(with_terrain(state, wall), "e4", mounted=row == "defensive_obstacle")
        ctx = Context(RULES, state, (), (), Dealt([]))
        movement.terrain_dps(ctx, ctx.state.unit("e4"), (19, 8.0), ())
        return u.dps(ctx.state.unit("e4"))

    sheet = tables.MANOEUVRES.lookup(row, "dps")
    assert isinstance(sheet, int)
    before = dps()
    # A defensive obstacle is an obstacle too: mounted pay the minor row's DP as well.
    assert before == sheet + (1 if row == "defensive_obstacle" else 0)
    monkeypatch.setattr(tables, "MANOEUVRES", with_dps("MANOEUVRES", row, "dps", sheet + 2))
    assert dps() == before + 2


@pytest.mark.parametrize(
    ("row", "option"), [("skirmish_array", "skirmish_bonus"), ("rough_terrain", "")]
)
def test_per_die_move_adjustments_come_from_move_distances(
    row: str, option: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    state = status(at("tactical"), "f6", array="skirmish")
    brigands = state.unit("f6")
    dice = movement.normal_dice(brigands, 2, option or "plain", rough=row == "rough_terrain")

    def length(chosen: movement.Dice = dice) -> float:
        ctx = Context(RULES, state, (), (), Dealt([3, 3]))
        return movement.roll_distance(ctx, brigands, "Move", chosen)[0]

    plain = length(movement.Dice(2, False, False, False))  # the same two AvD, unadjusted
    sheet = tables.MOVE_DISTANCES.lookup(row, "foot")
    assert isinstance(sheet, float)
    assert length() == plain + 2 * sheet  # ±½ SF for each die
    moved = {**tables.MOVE_DISTANCES.rows, row: (sheet * 2, sheet * 2, 0, "moved")}
    swapped = GridTable(tables.MOVE_DISTANCES.name, tables.MOVE_DISTANCES.columns, moved)
    monkeypatch.setattr(tables, "MOVE_DISTANCES", swapped)
    assert length() == plain + 4 * sheet


def test_the_default_control_adjustment_steers_to_the_free_band(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert [control._default_adjust(s) for s in (2, 3, 4, 5)] == ["plus", "none", "none", "minus"]
    bands = tuple(
        replace(b, low=2, high=5) if b.result == "free" else b for b in tables.CONTROL_TEST.bands
    )
    monkeypatch.setattr(tables, "CONTROL_TEST", replace(tables.CONTROL_TEST, bands=bands))
    assert [control._default_adjust(s) for s in (1, 2, 5, 6)] == ["plus", "none", "none", "minus"]


def test_the_rally_row_is_read_through_the_rules_module() -> None:
    assert rules._rally_dps(sample_battle().unit("e4")) == tables.REMOVE_DPS.lookup("B", "dps")


# -- results tables, walked score by score ---------------------------------------------------
@pytest.mark.parametrize("band", tables.COMBAT_RESULTS.bands, ids=lambda b: b.result)
def test_each_combat_result_gives_the_losses_of_its_row(
    band: Band, monkeypatch: pytest.MonkeyPatch
) -> None:
    def taken() -> tuple[int, int]:
        state = meet()
        ctx = Context(RULES, state, (), (), Dealt([]))
        combat.apply_losses(ctx, combat.Outcome("e2", "f1", band, True), False)
        unit = ctx.state.unit("e2") if u.alive(ctx.state, "e2") else state.unit("e2")
        return u.dps(unit), u.casualties(unit)

    dps, hurt = (tables.COMBAT_LOSSES.lookup(band.result, c) for c in ("dps", "casualties"))
    assert taken() == (dps, hurt)
    assert tables.COMBAT_RESULTS.lookup(band.low if band.low is not None else -9) == band
    moved = {**tables.COMBAT_LOSSES.rows, band.result: (3, 2)}
    swapped = GridTable(tables.COMBAT_LOSSES.name, tables.COMBAT_LOSSES.columns, moved)
    monkeypatch.setattr(tables, "COMBAT_LOSSES", swapped)
    assert taken() == (3, 2)


def test_a_combat_reads_its_result_row_by_the_difference() -> None:
    state = meet()
    ctx = Context(RULES, state, (), (), Dealt([6, 1]))
    first, second = combat.fight(ctx, state.unit("f1"), state.unit("e2"))
    rows = [e for e in ctx.events if isinstance(e, TestResolved)]
    diff = rows[0].score
    assert first.band == tables.COMBAT_RESULTS.lookup(diff) and rows[0].row == first.band.row
    assert second.band == tables.COMBAT_RESULTS.lookup(-diff)


@pytest.mark.parametrize("close", [True, False])
@pytest.mark.parametrize("face", range(1, 7))
def test_every_artillery_score_reads_its_band(
    face: int, close: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    state = at("shooting")
    guns, target = state.unit("f5"), state.unit("e5")
    band = "close" if close else "effective"
    shot = shooting.Shot(guns, target, 2.0, band, (), 1, ())  # one gun, no modifiers
    table = tables.ARTILLERY_CLOSE if close else tables.ARTILLERY_EFFECTIVE
    ctx = Context(RULES, state, (), (), Dealt([face]))
    dps = shooting.resolve(ctx, shot)
    row = table.lookup(face)
    assert dps == (0 if row.result == "none" else int(row.result))
    gun_rows = [e.row for e in ctx.events if type(e) is TestResolved]
    assert gun_rows == [row.row]
    assert [e.hits for e in ctx.events if isinstance(e, ShotResolved)] == [dps]
    name = "ARTILLERY_CLOSE" if close else "ARTILLERY_EFFECTIVE"
    monkeypatch.setattr(tables, name, ScoreTable(table.name, (Band(None, None, "2", "all"),)))
    assert shooting.resolve(Context(RULES, state, (), (), Dealt([face])), shot) == 2


@pytest.mark.parametrize("face", range(1, 7))
def test_every_control_score_reads_its_band(face: int) -> None:
    state = at("control")  # Camoys' billmen: B grade, not chivalrous or mercenary
    ctx = Context(RULES, state, (), (), Dealt([face]))
    control.control_test(ctx, ctx.state.unit("e4"), "out_of_command")
    (found,) = [e for e in ctx.events if isinstance(e, TestResolved)]
    assert found.score == face and found.row == tables.CONTROL_TEST.lookup(face).row


@pytest.mark.parametrize("face", range(1, 7))
def test_every_leader_hit_score_reads_its_band(face: int) -> None:
    state = at("shooting")
    ctx = Context(RULES, state, (), (), Dealt([1, face]))  # 1 = hit, then the second roll
    losses.risk_to_leaders(ctx, ctx.state.unit("e4"), "test")
    tests = [e for e in ctx.events if isinstance(e, TestResolved)]
    assert [t.row for t in tests] == [
        tables.RISK_TO_LEADER.lookup(1).row,
        tables.LEADER_HIT.lookup(face).row,
    ]
    result = tables.LEADER_HIT.lookup(face).result
    if result == "killed":
        assert all(ld.id != "camoys" for ld in ctx.state.leaders)
    else:
        assert ctx.state.leader("camoys").points == 2 + tables.LEADER_HIT_CPS[result]


# -- manoeuvres ordered, and command actions -------------------------------------------------
ORDERED = {
    "change_array": "column",
    "exchange_ranks": "exchange_ranks",
    "about_face": "about_face",
    "change_frontage": "change_frontage",
    "mount": "mount",
    "dismount": "dismount",
    "pass_gap": "pass_gap",
}


@pytest.mark.parametrize("row", list(ORDERED))
def test_an_ordered_manoeuvre_costs_its_rows_dps(row: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # Camoys' billmen, made C grade (A and B are spared some rows), 0.6 SF from the French.
    state = replace_quality(at("tactical", e4=(15.5, 10, 0), f3=(15.5, 11.6, 180)), "e4", "C")
    extra = {"count": 4} if row == "change_frontage" else {}  # four stands wide
    order = Order("e4", "manoeuvre", {"option": ORDERED[row], **extra})

    def dps() -> int:
        ctx = Context(RULES, state, (), (), Dealt([]))
        tactical.manoeuvre(ctx, order)
        return u.dps(ctx.state.unit("e4"))

    assert dps() == tables.MANOEUVRES.lookup(row, "dps")
    monkeypatch.setattr(tables, "MANOEUVRES", with_dps("MANOEUVRES", row, "dps", 3))
    assert dps() == 3


@pytest.mark.parametrize(("kind", "row"), list(command.ACTIONS.items()))
def test_command_actions_cost_and_reach_come_from_the_table(
    kind: str, row: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert command.cost(kind) == tables.COMMAND_ACTIONS.lookup(row, "cps")
    monkeypatch.setattr(tables, "COMMAND_ACTIONS", with_dps("COMMAND_ACTIONS", row, "cps", 5))
    assert command.cost(kind) == 5


@pytest.mark.parametrize("kind", list(tables.RANGES.rows))
def test_range_bands_come_from_the_ranges_table(kind: str, monkeypatch: pytest.MonkeyPatch) -> None:
    maximum = tables.RANGES.lookup(kind, "maximum")
    assert isinstance(maximum, float)
    assert shooting.band_of(kind, maximum + 0.5, {}) is None
    moved = {**tables.RANGES.rows, kind: (maximum + 1.0, *tables.RANGES.rows[kind][1:])}
    monkeypatch.setattr(
        tables, "RANGES", GridTable(tables.RANGES.name, tables.RANGES.columns, moved)
    )
    assert shooting.band_of(kind, maximum + 0.5, {}) in ("beyond", "maximum")
