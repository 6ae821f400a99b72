"""Hail Caesar's tables drive play: every row is reached by a state built for it, and a
changed cell changes the resolver's result by exactly that change (the sheet's numbers)."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace

import pytest

from rules_core.codec import Json
from rules_core.context import Context
from rules_core.dice import Roll
from rules_core.events import DiceRolled, MeleeFought, ShotFired, TestResolved
from rules_core.orders import Illegal, Order, Preview
from rules_core.rulesets.hail_caesar import combat, measure, morale, shooting, tables
from rules_core.rulesets.hail_caesar.rules import HailCaesarRules
from rules_core.state import Battlefield, BattleState, Side, TerrainFeature, Unit
from rules_core.steps import Cursor
from rules_core.tables import GridTable

RULES = HailCaesarRules()
PROFILE: dict[str, Json] = {
    "clash": 4, "sustained": 4, "short": 3, "long": 3, "morale": 4, "stamina": 6,
    "size": "standard", "weapon": "bows", "shields": False,
}  # fmt: skip


class Dealt(random.Random):
    """A random stream that deals the given die faces in order."""

    def __init__(self, faces: list[int]) -> None:
        super().__init__(0)
        self.faces = list(faces)

    def randint(self, a: int, b: int) -> int:
        return self.faces.pop(0)


class Sixes(random.Random):
    """Every die a six: attacks all hit, saves all hold, break tests score 12 (hold)."""

    def randint(self, a: int, b: int) -> int:
        return b


def unit(key: str, side: str, y: float, facing: float, **changes: object) -> Unit:
    """A 6" by 2" unit on the centre line, its profile the defaults above plus changes."""
    kind = str(changes.pop("type", "medium_infantry"))
    formation = str(changes.pop("formation", "line"))
    status = changes.pop("status", {})
    assert isinstance(status, dict)
    profile = {**PROFILE, **changes}
    return Unit(
        key, key.title(), side, f"{side}_d", kind, "", 6.0, 2.0, 30.0, y, facing,
        formation=formation, profile=profile, status={"casualties": 0, **status},  # type: ignore[arg-type]
    )  # fmt: skip


def area(kind: str, x: float, y: float) -> TerrainFeature:
    """A 10" square of terrain centred on (x, y)."""
    points = ((x - 5, y - 5), (x + 5, y - 5), (x + 5, y + 5), (x - 5, y + 5))
    return TerrainFeature(kind, kind, points)


def battle(units: tuple[Unit, ...], terrain: tuple[TerrainFeature, ...] = ()) -> BattleState:
    """Two sides and the given units on an empty 60" by 48" table, in Rome's shooting step."""
    sides = (Side("rom", "Rome"), Side("gau", "Gaul"))
    field = Battlefield(60.0, 48.0, "inch", 25.4)
    cursor = Cursor(1, "main", "shooting", ("rom", "gau"))
    return BattleState("t", "hail_caesar", field, cursor, sides, units=units, terrain=terrain)


def ctx_for(state: BattleState) -> Context:
    """A context in which every die rolls a six."""
    return Context(RULES, state, (), (), Sixes(0))


def rolls(ctx: Context, start: str) -> list[Roll]:
    """The rolls whose label begins with ``start``."""
    return [
        e.roll for e in ctx.events if isinstance(e, DiceRolled) and e.roll.label.startswith(start)
    ]


def bumped(table: GridTable, row: str, by: int) -> GridTable:
    """A copy of a modifiers table with one cell moved by ``by``."""
    cell = table.lookup(row, table.columns[0])
    assert isinstance(cell, int)
    return GridTable(table.name, table.columns, {**table.rows, row: (cell + by,)})


def with_cell(table: GridTable, row: str, cell: Json) -> GridTable:
    """A copy of a one-column table with one cell replaced."""
    return GridTable(table.name, table.columns, {**table.rows, row: (cell,)})


# -- ranged to-hit -----------------------------------------------------------------------
# Shooter at y 10 facing north, target 8" away (long range); each case makes one row apply.
RangedCase = tuple[dict[str, object], dict[str, object], bool, tuple[str, ...], str]
TO_HIT_RANGED: dict[str, RangedCase] = {
    "shaken_or_disordered": (
        {"status": {"disordered": True}}, {}, False, (), "shooters shaken or disordered",
    ),
    "partly_obscured": ({}, {}, True, (), "target partly obscured"),
    "open_order": ({}, {"formation": "open_order"}, False, (), "target in open order"),
    "artillery_or_baggage": ({}, {"type": "baggage"}, False, (), "target is artillery or baggage"),
    "shielded_heavy_infantry_front": (
        {}, {"type": "heavy_infantry", "shields": True}, False, (),
        "formed shielded heavy infantry, shot from the front",
    ),
    "cataphracts": ({}, {"type": "cataphracts"}, False, (), "formed cataphract cavalry"),
    "closing_shots": ({}, {}, False, ("closing shots",), "closing shots"),
    "traversing_shots": ({}, {}, False, ("traversing shots",), "traversing shots"),
    "extreme_range": ({}, {}, False, ("extreme range",), "extreme range"),
}  # fmt: skip


def shot_need(
    shooter: dict[str, object], target: dict[str, object], partial: bool, extra: tuple[str, ...]
) -> Roll:
    """Shoot once and return the attack roll."""
    state = battle(
        (unit("s", "rom", 10, 0, **shooter), unit("t", "gau", 20, 180, morale=0, **target))
    )
    ctx = ctx_for(state)
    shooting.shoot(ctx, ctx.state.unit("s"), ctx.state.unit("t"), partial, extra)
    (attack,) = rolls(ctx, "Shooting:")
    return attack


def test_every_ranged_to_hit_row_has_a_case() -> None:
    assert set(TO_HIT_RANGED) == set(tables.TO_HIT_RANGED.rows)


@pytest.mark.parametrize("row", list(TO_HIT_RANGED))
def test_ranged_to_hit_rows_are_read_from_the_table(
    row: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    shooter, target, partial, extra, reason = TO_HIT_RANGED[row]
    sheet = tables.modifier(tables.TO_HIT_RANGED, row)
    assert sheet == -1  # every row of the sheet's list is "-1 if"
    attack = shot_need(shooter, target, partial, extra)
    assert f"{sheet:+d} {reason}" in attack.label  # the log names the row
    assert attack.target == 4 - sheet  # 4+ moved by this row alone
    monkeypatch.setattr(tables, "TO_HIT_RANGED", bumped(tables.TO_HIT_RANGED, row, +1))
    assert shot_need(shooter, target, partial, extra).target == 4 - sheet - 1


def test_extreme_range_and_partial_sight_are_reached_from_a_shoot_order() -> None:
    # A friend of the shooter stands across the line to one corner of the target.
    blocker = replace(unit("b", "rom", 17, 0), x=32.25, frontage=1.0, depth=1.0)
    state = battle((unit("s", "rom", 10, 0), unit("t", "gau", 20, 180, morale=0), blocker))
    state = replace(state, cursor=Cursor(1, "main", "shooting", ("rom", "gau")))
    assert measure.sight(state, state.unit("s"), state.unit("t")).partial
    order = Order("s", "shoot", {"target": "t", "option": "extreme_range"})
    ctx = Context(RULES, state, (order,), (), Sixes(0))
    shooting.resolve_shooting(ctx)
    (attack,) = rolls(ctx, "Shooting:")
    assert "-1 target partly obscured" in attack.label and "-1 extreme range" in attack.label
    assert attack.target == 6


def test_closing_shots_are_reached_from_a_charge() -> None:
    state = battle((unit("s", "rom", 10, 0), unit("t", "gau", 20, 180, morale=0)))
    ctx = ctx_for(state)
    shooting.closing_shots(ctx, ctx.state.unit("s"), ctx.state.unit("t"))
    (attack,) = rolls(ctx, "Shooting:")
    assert "-1 closing shots" in attack.label and "short range" in attack.label


# -- hand-to-hand to-hit ------------------------------------------------------------------
# The fighter "a" faces north at y 10; the enemy "b" touches its front (or its flank).
MeleeCase = tuple[dict[str, object], tuple[float, float, float], tuple[TerrainFeature, ...], str]
FRONT = (30.0, 12.0, 180.0)
TO_HIT_MELEE: dict[str, MeleeCase] = {
    "charging": ({"status": {"charged": True}}, FRONT, (), "charging"),
    "winning": ({"status": {"won": True}}, FRONT, (), "winning"),
    "uphill": ({}, (30.0, 12.0, 180.0), (area("hill", 30, 6),), "uphill"),
    "shaken_or_disordered": (
        {"status": {"disordered": True}}, FRONT, (), "shaken and/or disordered",
    ),
    "open_order": ({"formation": "open_order"}, FRONT, (), "open order"),
    "flank_rear": ({}, (34.0, 10.0, 270.0), (), "enemy to its flank or rear"),
}  # fmt: skip


def melee_roll(
    fighter: dict[str, object],
    enemy: tuple[float, float, float],
    terrain: tuple[TerrainFeature, ...],
) -> Roll:
    """One round of hand-to-hand; the fighter's attack roll."""
    x, y, facing = enemy
    b = replace(unit("b", "gau", y, facing), x=x)
    state = battle((unit("a", "rom", 10, 0, **fighter), b), terrain)
    state = replace(state, cursor=Cursor(1, "main", "combat", ("rom", "gau")))
    ctx = ctx_for(state)
    combat.fight(ctx, "a", "b")
    assert MeleeFought("a", "b") in ctx.events
    return rolls(ctx, "Hand-to-hand: A against")[0]


def test_every_hand_to_hand_to_hit_row_has_a_case() -> None:
    assert set(TO_HIT_MELEE) == set(tables.TO_HIT_HAND_TO_HAND.rows)


@pytest.mark.parametrize("row", list(TO_HIT_MELEE))
def test_hand_to_hand_to_hit_rows_are_read_from_the_table(
    row: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    fighter, enemy, terrain, reason = TO_HIT_MELEE[row]
    sheet = tables.modifier(tables.TO_HIT_HAND_TO_HAND, row)
    attack = melee_roll(fighter, enemy, terrain)
    assert f"{sheet:+d} {reason}" in attack.label
    assert attack.target == 4 - sheet
    monkeypatch.setattr(tables, "TO_HIT_HAND_TO_HAND", bumped(tables.TO_HIT_HAND_TO_HAND, row, +1))
    assert melee_roll(fighter, enemy, terrain).target == 4 - sheet - 1


# -- morale saves ---------------------------------------------------------------------------
SaveCase = tuple[dict[str, object], tuple[TerrainFeature, ...], str, str]
SAVES: dict[str, SaveCase] = {
    "square_or_wedge": ({"formation": "wedge"}, (), "", "wedge"),
    "cover": ({}, (area("wood", 30, 20),), "", "cover"),
    "testudo": ({"formation": "testudo"}, (), "", "testudo"),
    "buildings": ({}, (area("village", 30, 20),), "", "buildings"),
    "fortifications": ({}, (area("fortification", 30, 20),), "", "fortifications"),
    "light_artillery": ({}, (), "light_artillery", "hit by light artillery"),
    "medium_or_heavy_artillery": ({}, (), "heavy_artillery", "hit by medium or heavy artillery"),
    "column": ({"formation": "column"}, (), "", "column"),
}


def save_roll(
    target: dict[str, object], terrain: tuple[TerrainFeature, ...], weapon: str, morale_save: int
) -> Roll:
    """The target's morale saves against a shot from 8" away."""
    shooter = unit("s", "rom", 10, 0, weapon=weapon or "bows", short=3, long=3)
    state = battle((shooter, unit("t", "gau", 20, 180, morale=morale_save, **target)), terrain)
    ctx = ctx_for(state)
    shooting.shoot(ctx, ctx.state.unit("s"), ctx.state.unit("t"), False, ())
    assert ShotFired("s", "t", 8.0) in ctx.events
    return rolls(ctx, "Morale saves:")[0]


def test_every_morale_save_row_has_a_case() -> None:
    assert set(SAVES) == set(tables.MORALE_SAVE_MODIFIERS.rows)


@pytest.mark.parametrize("row", list(SAVES))
def test_ranged_morale_save_rows_are_read_from_the_table(
    row: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    target, terrain, weapon, reason = SAVES[row]
    sheet = tables.modifier(tables.MORALE_SAVE_MODIFIERS_RANGED, row)
    base = 6 if sheet > 0 else 4  # keep the need between 2+ and 6+ before and after
    saves = save_roll(target, terrain, weapon, base)
    assert f"{sheet:+d} {reason}" in saves.label and saves.target == base - sheet
    bumped_table = bumped(tables.MORALE_SAVE_MODIFIERS_RANGED, row, +1)
    monkeypatch.setattr(tables, "MORALE_SAVE_MODIFIERS_RANGED", bumped_table)
    assert save_roll(target, terrain, weapon, base).target == base - sheet - 1


@pytest.mark.parametrize("row", [r for r in SAVES if "artillery" not in r])
def test_hand_to_hand_morale_saves_read_their_own_table(
    row: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    target, terrain, _, reason = SAVES[row]
    sheet = tables.modifier(tables.MORALE_SAVE_MODIFIERS, row)
    base = 6 if sheet > 0 else 4
    moved = tuple(area(t.kind, 30, 12) for t in terrain)  # under the defender, at y 12

    def saves() -> Roll:
        a = unit("a", "rom", 10, 0)
        b = unit("b", "gau", 12, 180, morale=base, **target)
        state = replace(battle((a, b), moved), cursor=Cursor(1, "main", "combat", ("rom", "gau")))
        ctx = ctx_for(state)
        combat.fight(ctx, "a", "b")
        return rolls(ctx, "Morale saves: B")[0]

    found = saves()
    assert f"{sheet:+d} {reason}" in found.label and found.target == base - sheet
    monkeypatch.setattr(
        tables, "MORALE_SAVE_MODIFIERS", bumped(tables.MORALE_SAVE_MODIFIERS, row, +1)
    )
    assert saves().target == base - sheet - 1


# -- dice by unit size and formation ------------------------------------------------------
DiceFor = Callable[[Unit], int]


def ranged_dice(shooter: Unit, terrain: tuple[TerrainFeature, ...] = ()) -> int:
    """The dice a shooter rolls at a target 8" away (0 if it rolls none)."""
    ctx = ctx_for(battle((shooter, unit("t", "gau", 20, 180, morale=0)), terrain))
    shooting.shoot(ctx, ctx.state.unit("s"), ctx.state.unit("t"), False, ())
    found = rolls(ctx, "Shooting:")
    return len(found[0].dice) if found else 0


def melee_dice(fighter: Unit, terrain: tuple[TerrainFeature, ...] = ()) -> int:
    """The dice a fighter rolls against an enemy touching its front."""
    state = battle((fighter, unit("b", "gau", 12, 180)), terrain)
    ctx = ctx_for(replace(state, cursor=Cursor(1, "main", "combat", ("rom", "gau"))))
    combat.fight(ctx, fighter.id, "b")
    found = rolls(ctx, f"Hand-to-hand: {fighter.name} against")
    return len(found[0].dice) if found else 0


# (table attribute, column, row, the unit, terrain, the sheet's dice from a value of 3 or 4)
DICE_ROWS = [
    ("UNIT_SIZE_RANGED", "large", {"size": "large"}, "", 4),
    ("UNIT_SIZE_RANGED", "small", {"size": "small"}, "", 2),
    ("UNIT_SIZE_RANGED", "tiny", {"size": "tiny"}, "", 1),
    ("UNIT_SIZE_RANGED", "standard", {}, "", 3),
    ("FORMATION_RANGED", "column", {"formation": "column"}, "", 0),
    ("FORMATION_RANGED", "testudo", {"formation": "testudo"}, "", 0),
    ("FORMATION_RANGED", "square", {"formation": "square"}, "", 1),
    ("FORMATION_RANGED", "buildings", {}, "village", 2),
    ("UNIT_SIZE_HAND_TO_HAND", "large", {"size": "large"}, "", 6),
    ("UNIT_SIZE_HAND_TO_HAND", "small", {"size": "small"}, "", 2),
    ("UNIT_SIZE_HAND_TO_HAND", "tiny", {"size": "tiny"}, "", 1),
    ("UNIT_SIZE_HAND_TO_HAND", "standard", {}, "", 4),
    ("FORMATION_HAND_TO_HAND", "column", {"formation": "column"}, "", 1),
    ("FORMATION_HAND_TO_HAND", "square", {"formation": "square"}, "", 2),
    ("FORMATION_HAND_TO_HAND", "buildings", {}, "village", 2),
]


def test_every_size_and_formation_row_has_a_case() -> None:
    for name in (
        "UNIT_SIZE_RANGED",
        "FORMATION_RANGED",
        "UNIT_SIZE_HAND_TO_HAND",
        "FORMATION_HAND_TO_HAND",
    ):
        assert {row for table, row, *_ in DICE_ROWS if table == name} == set(
            getattr(tables, name).rows
        )


@pytest.mark.parametrize(("name", "row", "changes", "ground", "dice"), DICE_ROWS)
def test_size_and_formation_rows_set_the_dice(
    name: str,
    row: str,
    changes: dict[str, object],
    ground: str,
    dice: int,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    ranged = name.endswith("RANGED")
    count = ranged_dice if ranged else melee_dice
    terrain = (area(ground, 30, 10),) if ground else ()
    fighter = unit("s" if ranged else "a", "rom", 10, 0, **changes)
    assert count(fighter, terrain) == dice  # short 3 / clash 4 moved by the sheet's cell
    monkeypatch.setattr(tables, name, with_cell(getattr(tables, name), row, "=5"))
    assert count(fighter, terrain) == 5


# -- movement and range ---------------------------------------------------------------------
@pytest.mark.parametrize("row", list(tables.MOVING_UNITS.rows))
def test_moving_units_rows_set_the_move(row: str, monkeypatch: pytest.MonkeyPatch) -> None:
    kind, formation = {
        tables.SIX: ("infantry", "line"),
        tables.NINE: ("cavalry", "line"),
        tables.TWELVE: ("light_cavalry", "open_order"),
    }[row]
    mover = unit("m", "rom", 10, 0, type=kind, formation=formation)
    assert measure.rate(mover) == tables.MOVING_UNITS.lookup(row, "inches")
    monkeypatch.setattr(tables, "MOVING_UNITS", with_cell(tables.MOVING_UNITS, row, 2))
    assert measure.rate(mover) == 2


@pytest.mark.parametrize("weapon", list(tables.RANGE_TABLE.rows))
def test_range_table_rows_decide_what_may_be_shot(
    weapon: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    reach = tables.weapon_range(weapon)
    shooter = unit("s", "rom", 10, 0, weapon=weapon)
    target = replace(unit("t", "gau", 0, 180), y=11 + reach + 1 + 1)  # front edge reach + 1 away
    state = battle((shooter, target))
    order = Order("s", "shoot", {"target": "t"})
    assert isinstance(RULES.preview(state, order), Illegal)
    monkeypatch.setattr(
        tables, "RANGE_TABLE", with_cell(tables.RANGE_TABLE, weapon, int(reach) + 2)
    )
    assert isinstance(RULES.preview(state, order), Preview)


def test_the_shoot_preview_reads_the_obscured_modifier(monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = replace(unit("b", "rom", 17, 0), x=32.25, frontage=1.0, depth=1.0)
    state = battle((unit("s", "rom", 10, 0), unit("t", "gau", 20, 180), blocker))
    order = Order("s", "shoot", {"target": "t"})
    found = RULES.preview(state, order)
    assert isinstance(found, Preview) and found.notes == ("partly obscured: -1 to hit",)
    monkeypatch.setattr(
        tables, "TO_HIT_RANGED", bumped(tables.TO_HIT_RANGED, "partly_obscured", -1)
    )
    found = RULES.preview(state, order)
    assert isinstance(found, Preview) and found.notes == ("partly obscured: -2 to hit",)


# -- break tests ------------------------------------------------------------------------------
@pytest.mark.parametrize("test", ["hand_to_hand", "ranged"])
@pytest.mark.parametrize("troop", tables.TROOP_TYPES)
def test_every_break_test_row_is_what_a_2d6_score_reads(test: str, troop: str) -> None:
    kind = {"infantry": "medium_infantry", "cavalry": "cavalry", "skirmishers": "skirmishers"}[
        troop
    ]
    rows = tables.BREAK_TEST_HAND_TO_HAND if test == "hand_to_hand" else tables.BREAK_TEST_RANGED
    for score in range(2, 13):
        faces = [score // 2, score - score // 2] if score > 6 else [1, score - 1]
        faces = faces if max(faces) <= 6 else [6, score - 6]
        state = battle((unit("u", "rom", 10, 0, type=kind),))
        ctx = Context(RULES, state, (), (), Dealt(faces))
        found = morale.break_test(ctx, state.unit("u"), test, (), "test")
        expected = tables.break_tables(rows, "x")[troop].lookup(score)
        assert found == expected.result
        (event,) = [e for e in ctx.events if isinstance(e, TestResolved)]
        assert event.score == score and event.row == expected.row


def test_a_campaign_break_test_cell_changes_the_result() -> None:
    rows = [list(row) for row in tables.BREAK_TEST_RANGED if isinstance(row, list)]
    rows[1][2] = "retreat"  # infantry at 9 (a rebuilt cell) overridden
    state = battle((unit("u", "rom", 10, 0),))
    state = replace(state, parameters={"break_test_ranged": rows})

    ctx = Context(RULES, state, (), (), Dealt([4, 5]))  # 9
    assert morale.break_test(ctx, state.unit("u"), "ranged", (), "test") == "retreat"
