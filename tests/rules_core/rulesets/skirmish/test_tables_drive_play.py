"""The skirmish tables drive play: to-hit, rally, modifiers and terrain, row by row; a changed
cell changes what the resolvers and previews do."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from rules_core.context import Context
from rules_core.events import DiceRolled, TestResolved
from rules_core.geometry import Footprint, range_from_front
from rules_core.orders import Order, Preview
from rules_core.rulesets.skirmish import measure, tables
from rules_core.rulesets.skirmish.rules import SkirmishRules
from rules_core.rulesets.skirmish.sample import sample_battle
from rules_core.state import BattleState, TerrainFeature
from rules_core.steps import Cursor
from rules_core.tables import Band, GridTable, ScoreTable

RULES = SkirmishRules()


class Dealt(random.Random):
    """A random stream that deals the given die faces in order, then ones."""

    def __init__(self, faces: list[int]) -> None:
        super().__init__(0)
        self.faces = list(faces)

    def randint(self, a: int, b: int) -> int:
        return self.faces.pop(0) if self.faces else a


def in_step(step: str, **moves: tuple[float, float, float]) -> BattleState:
    """The sample battle at a step of red's player turn, no terrain, units placed (x, y, facing)."""
    state = replace(sample_battle(), cursor=Cursor(1, "main", step, ("red", "blue")), terrain=())
    for key, (x, y, facing) in moves.items():
        state = state.with_unit(replace(state.unit(key), x=x, y=y, facing=facing))
    return state


def grid(table: GridTable, row: str, column: str, value: object) -> GridTable:
    """A copy of a grid table with one cell replaced."""
    index = table.columns.index(column)
    cells = table.rows[row]
    new = (*cells[:index], value, *cells[index + 1 :])
    return GridTable(table.name, table.columns, {**table.rows, row: new})  # type: ignore[dict-item]


def pool(ctx: Context, start: str) -> DiceRolled:
    """The one roll whose label begins with ``start``."""
    (found,) = [
        e for e in ctx.events if isinstance(e, DiceRolled) and e.roll.label.startswith(start)
    ]
    return found


# -- to hit --------------------------------------------------------------------------------
def shoot_need(state: BattleState) -> int:
    """The score the archers' shot at the slingers needs."""
    ctx = Context(RULES, state, (Order("r2", "shoot", {"target": "b2"}),), (), Dealt([]))
    RULES.resolve_shooting(ctx)
    target = pool(ctx, "Shooting:").roll.target
    assert target is not None
    return target


@pytest.mark.parametrize(("band", "gap"), [("short", 5.0), ("long", 10.0)])
def test_shooting_to_hit_rows_are_read_from_the_table(
    band: str, gap: float, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The archers (range 12: short up to 6") shoot the slingers ``gap`` inches from their front.
    state = in_step("shoot", r2=(24, 4, 0), b2=(24, 4 + 2 + gap, 180))
    apart = range_from_front(Footprint.of(state.unit("r2")), Footprint.of(state.unit("b2")))
    assert apart == pytest.approx(gap)
    assert shoot_need(state) == tables.TO_HIT.lookup("shooting", band)
    monkeypatch.setattr(tables, "TO_HIT", grid(tables.TO_HIT, "shooting", band, 2))
    assert shoot_need(state) == 2


def test_melee_reads_the_melee_row(monkeypatch: pytest.MonkeyPatch) -> None:
    state = in_step("melee", r1=(12, 10, 0), b1=(12, 12, 180))

    def need() -> int:
        ctx = Context(RULES, state, (), (), Dealt([]))
        RULES.resolve_melee(ctx)
        target = pool(ctx, "Melee: Red Spearmen").roll.target
        assert target is not None
        return target

    assert need() == tables.TO_HIT.lookup("melee", "short")
    monkeypatch.setattr(tables, "TO_HIT", grid(tables.TO_HIT, "melee", "short", 3))
    assert need() == 3
    # Melee has no range: its "long" cell (4, as printed) is never read.


# -- modifiers --------------------------------------------------------------------------------
def test_every_modifier_row_is_reached_and_read(monkeypatch: pytest.MonkeyPatch) -> None:
    state = in_step("shoot", r2=(24, 10, 0), b2=(24, 19, 180))
    state = state.with_unit(state.unit("r2").with_status(disordered=True))
    # A red unit across one corner's sight line: the slingers are partly obscured.
    state = state.with_unit(replace(state.unit("r1"), x=25.0, y=14.5, frontage=0.6, depth=0.5))
    assert measure.sight(state, state.unit("r2"), state.unit("b2")).partial

    def shot() -> tuple[tuple[int, str], ...]:
        ctx = Context(RULES, state, (Order("r2", "shoot", {"target": "b2"}),), (), Dealt([]))
        RULES.resolve_shooting(ctx)
        return tuple((m.value, m.reason) for m in pool(ctx, "Shooting:").roll.modifiers)

    fight = in_step("melee", r1=(12, 10, 0), b1=(12, 12, 180))
    fight = fight.with_unit(fight.unit("r1").with_status(charged=True, disordered=True))

    def melee() -> tuple[tuple[int, str], ...]:
        ctx = Context(RULES, fight, (), (), Dealt([]))
        RULES.resolve_melee(ctx)
        return tuple((m.value, m.reason) for m in pool(ctx, "Melee: Red Spearmen").roll.modifiers)

    assert shot() == ((-1, "target partly obscured"), (-1, "disordered"))
    assert melee() == ((1, "charged"), (-1, "disordered"))
    moved = GridTable(
        tables.MODIFIERS.name,
        tables.MODIFIERS.columns,
        {"partly_obscured": (-2, None), "disordered": (-3, -4), "charged": (None, 2)},
    )
    monkeypatch.setattr(tables, "MODIFIERS", moved)
    assert shot() == ((-2, "target partly obscured"), (-3, "disordered"))
    assert melee() == ((2, "charged"), (-4, "disordered"))
    preview = RULES.judge(state, Order("r2", "shoot", {"target": "b2"}))
    assert isinstance(preview, Preview)
    assert preview.notes == ("target partly obscured: 2 hits fewer", "disordered: 3 hits fewer")


def test_a_cell_the_sheet_leaves_empty_is_refused() -> None:
    with pytest.raises(KeyError, match="no melee modifier"):
        tables.modifier("partly_obscured", "melee")


# -- rally -------------------------------------------------------------------------------------
@pytest.mark.parametrize("face", range(1, 7))
def test_every_rally_score_reads_its_band(face: int, monkeypatch: pytest.MonkeyPatch) -> None:
    state = in_step("rally")
    state = state.with_unit(state.unit("r1").with_status(disordered=True))

    def rallied() -> bool:
        ctx = Context(RULES, state, (), (), Dealt([face]))
        RULES.resolve_rally(ctx)
        (found,) = [e for e in ctx.events if isinstance(e, TestResolved)]
        assert found.row == tables.RALLY.lookup(face).row
        return not ctx.state.unit("r1").status.get("disordered")

    assert rallied() == (face >= 4)
    everyone = ScoreTable("Rally test", (Band(None, None, "rallied", "rallies"),))
    monkeypatch.setattr(tables, "RALLY", everyone)
    assert rallied()


# -- terrain -------------------------------------------------------------------------------------
def feature(kind: str) -> TerrainFeature:
    """A feature of ``kind`` across x 20 to 28 at y 10 to 14 (a line at y 12 if linear)."""
    if kind in ("river", "stream", "road", "linear_obstacle"):
        return TerrainFeature("f", kind, ((16.0, 12.0), (32.0, 12.0)))
    return TerrainFeature("f", kind, ((20.0, 10.0), (28.0, 10.0), (28.0, 14.0), (20.0, 14.0)))


def crossing(kind: str) -> measure.MoveCost:
    """What a 6" move of the archers across the feature costs (along it, for a road)."""
    if kind == "road":  # a road matters to a move that follows it
        state = replace(in_step("move", r2=(18, 12, 90)), terrain=(feature(kind),))
        return measure.move_cost(state, state.unit("r2"), (24.0, 12.0), RULES.parameter_values({}))
    state = replace(in_step("move", r2=(24, 9, 0)), terrain=(feature(kind),))
    return measure.move_cost(state, state.unit("r2"), (24.0, 15.0), RULES.parameter_values({}))


EFFECT = {
    "open": lambda c: c.possible and c.cost == 6 and not c.notes,
    "difficult": lambda c: any("difficult" in n for n in c.notes),
    "impassable": lambda c: c.barred_by == "impassable terrain",
    "obstacle": lambda c: "crosses 1 obstacle" in c.notes,
    "road": lambda c: "follows the road" in c.notes and c.allowance == 6 + 2,  # road_bonus
}


@pytest.mark.parametrize("kind", tables.TERRAIN.rows)
def test_each_terrain_rows_movement_cell_decides_the_move(
    kind: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    cell = tables.TERRAIN.lookup(kind, "movement")
    assert EFFECT[str(cell)](crossing(kind)), (kind, crossing(kind))
    other = "open" if cell in ("impassable", "road") else "impassable"
    monkeypatch.setattr(tables, "TERRAIN", grid(tables.TERRAIN, kind, "movement", other))
    assert EFFECT[other](crossing(kind))


@pytest.mark.parametrize("kind", [k for k in tables.TERRAIN.rows if not feature(k).linear])
def test_each_area_terrain_rows_sight_cell_decides_sight(
    kind: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    def seen() -> bool:
        state = replace(in_step("shoot", r2=(24, 6, 0), b2=(24, 18, 180)), terrain=(feature(kind),))
        return measure.sight(state, state.unit("r2"), state.unit("b2")).clear

    blocks = tables.TERRAIN.lookup(kind, "blocks_sight")
    assert seen() is not blocks
    monkeypatch.setattr(tables, "TERRAIN", grid(tables.TERRAIN, kind, "blocks_sight", not blocks))
    assert seen() is bool(blocks)
