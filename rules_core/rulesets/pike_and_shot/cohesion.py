"""The Disorder test, Reforming from Disorder, Fatigue per wing and General Will.

- ``disorder_test(ctx, unit, why, ...)``: a d6 with every modifier of the sheet's two columns
  (Normal sized units; Early Tercios & Double Brigades); 4 or more passes.
- ``resolve_reform``: every unit in command and not within 4" of the enemy that is not sound
  takes a Disorder Test; a pass removes one level of disorder, a failure changes nothing.
- ``resolve_fatigue``: each wing not yet fatigued rolls a d6 with every modifier; 8 or more
  and it is Fatigued (it stays so).
- ``resolve_general_will``: every army with a Fatigued wing tests in this one step; a failure
  orders it to withdraw next turn and breaks it (``general_will`` "failed"): both at once is a
  draw, one alone a victory for the other (``Rules.outcome`` reads the side status).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import replace

from shapely.geometry import Point as ShapelyPoint
from shapely.geometry import Polygon

from rules_core.codec import Json
from rules_core.context import Context
from rules_core.dice import Modifier, Purpose
from rules_core.events import TestResolved
from rules_core.geometry import Footprint, quarter, within, zone
from rules_core.odds import RollSpec
from rules_core.plugin import Parameter
from rules_core.rulesets.pike_and_shot import profiles
from rules_core.rulesets.pike_and_shot import tables as t
from rules_core.rulesets.pike_and_shot.kept import beyond, enemies_in_contact, touching_edge
from rules_core.rulesets.pike_and_shot.status import (
    ARTILLERY_FIRE,
    ATTACKER,
    BRIGADES,
    COVER,
    DEFENDING_OBSTACLE,
    FATIGUED,
    IN_DIFFICULT,
    KIND,
    LEFT_IN_PURSUIT,
    LEFT_IN_ROUT,
    OFF_TABLE,
    RANK,
    WING_ORDER,
    better,
    cohesion,
)
from rules_core.shared_status import KILLED, WOUNDED
from rules_core.state import BattleState, Group, Leader, Unit
from rules_core.tables import GridTable
from rules_core.terrain import SIGHT_BLOCKING, feature_shape, line_of_sight
from rules_core.toolkit import gap

SILENT = "not on the sheet (see README_combat.md)"
PARAMETERS = (
    Parameter(
        "command_range",
        12.0,
        "a unit is in command within this many inches of its wing commander (or the army "
        "commander) who is neither killed nor off the table",
        SILENT,
    ),
    Parameter(
        "flank_support",
        1.0,
        "a friend within this many inches beyond a flank edge stands on that flank",
        SILENT,
    ),
    Parameter(
        "reform_routed",
        False,
        "whether a routed unit may reform (to disrupted) like other unsound units",
        SILENT,
    ),
    Parameter(
        "general_will_table",
        t.grid_to_json(t.GENERAL_WILL),
        "the General Will table (rebuilt from the damaged sheet; a campaign may replace "
        "it): rows routed brigades, columns army size bands, cells a number or "
        "pass / fail",
        "the sheet, rebuilt (README_combat.md)",
    ),
    Parameter(
        "general_will_counts_destroyed",
        True,
        "destroyed brigades count as routed for General Will",
        SILENT,
    ),
    Parameter(
        "obstacle_defence_reach",
        1.0,
        "a unit defends a linear obstacle that runs within this many inches in front of "
        "its front edge",
        SILENT,
    ),
)


# -- small readings shared with combat -------------------------------------------------------


def num(params: Mapping[str, Json], name: str, default: float) -> float:
    """A numeric parameter."""
    value = params.get(name, default)
    return (
        float(value) if isinstance(value, int | float) and not isinstance(value, bool) else default
    )


def kinds(params: Mapping[str, Json], name: str) -> tuple[str, ...]:
    """A parameter listing terrain kinds."""
    value = params.get(name, [])
    return tuple(str(v) for v in value) if isinstance(value, list) else ()


def in_terrain(state: BattleState, unit: Unit, wanted: Sequence[str]) -> bool:
    """The unit's centre stands inside terrain of one of these kinds."""
    if not wanted or not unit.on_table:
        return False
    here = ShapelyPoint(unit.x, unit.y)
    return any(f.kind in wanted and feature_shape(f).covers(here) for f in state.terrain)


def defends_obstacle(state: BattleState, unit: Unit, params: Mapping[str, Json]) -> bool:
    """A linear obstacle (``linear_obstacles``) runs across the strip ``obstacle_defence_reach``
    deep in front of the unit's front edge: the disorder test's "Defending linear obstacle"."""
    wanted = kinds(params, "linear_obstacles")
    reach = params.get("obstacle_defence_reach", 1.0)
    if not wanted or not unit.on_table or not isinstance(reach, int | float):
        return False
    box = Footprint.of(unit)
    front, half = box.depth / 2, box.frontage / 2
    strip = Polygon(
        [
            box.at(front, -half),
            box.at(front, half),
            box.at(front + reach, half),
            box.at(front + reach, -half),
        ]
    )
    return any(f.kind in wanted and feature_shape(f).intersects(strip) for f in state.terrain)


def size(unit: Unit) -> str:
    """tercio, double, brigade or company (a size the saving dice table does not know reads
    as a brigade)."""
    found = profiles.size_of(unit)
    return found if found in t.SAVING_DICE.rows else "brigade"


def brigade(unit: Unit) -> bool:
    """A brigade, tercio or double brigade (not a company)."""
    return size(unit) != "company"


def worth(unit: Unit) -> int:
    """Brigades it counts as for General Will ("A single Tercio, or a Double Brigade, counts
    as two brigades"): ``profiles.brigades_worth``."""
    return profiles.brigades_worth(unit)


def _group(state: BattleState, unit: Unit) -> Group | None:
    return next((g for g in state.groups if g.id == unit.group), None)


def wing_order(state: BattleState, unit: Unit) -> str:
    """The order of the unit's wing ("" if it has none)."""
    group = _group(state, unit)
    return WING_ORDER.of(group) if group is not None else ""


def _leader(state: BattleState, leader_id: str | None) -> Leader | None:
    return next((x for x in state.leaders if x.id == leader_id), None) if leader_id else None


def wing_commander(state: BattleState, group_id: str) -> Leader | None:
    """The commander of a wing."""
    group = next((g for g in state.groups if g.id == group_id), None)
    return _leader(state, group.leader) if group is not None else None


def wing_commander_kind(state: BattleState, unit: Unit) -> str:
    """The trait "heroic", "politico" or "" of the unit's wing commander (a lost one counts
    nothing)."""
    leader = wing_commander(state, unit.group)
    if leader is None or not can_command(leader):
        return ""
    return KIND.of(leader)


def can_command(leader: Leader) -> bool:
    """Neither killed nor off the table."""
    return not (KILLED.of(leader) or OFF_TABLE.of(leader))


def attached(state: BattleState, unit: Unit, rank: str) -> bool:
    """A commander of ``rank`` ("wing" or "army") who can command is attached to the unit."""
    return any(
        x.attached_to == unit.id and RANK.of(x) == rank and can_command(x) for x in state.leaders
    )


def _distance_to(unit: Unit, point: tuple[float, float]) -> float:
    return float(Footprint.of(unit).polygon.distance(ShapelyPoint(*point)))


def in_command(state: BattleState, unit: Unit, params: Mapping[str, Json]) -> bool:
    """Within ``command_range`` of its wing commander or the army commander (README_combat.md:
    the sheet does not say what "in command" is)."""
    reach = num(params, "command_range", 12.0)
    candidates = [wing_commander(state, unit.group)]
    candidates += [x for x in state.leaders if x.side == unit.side and RANK.of(x) == "army"]
    for leader in candidates:
        if leader is None or not can_command(leader):
            continue
        if leader.attached_to == unit.id or within(_distance_to(unit, (leader.x, leader.y)), reach):
            return True
    return False


def enemy_within(
    state: BattleState, unit: Unit, reach: float, *, sound: bool = False, brigades: bool = False
) -> bool:
    """An enemy unit on the table within ``reach`` (edge to edge)."""
    for enemy in state.enemies_of(unit.side, on_table=True):
        if sound and cohesion(enemy) != "sound":
            continue
        if brigades and not brigade(enemy):
            continue
        if beyond(unit, enemy, reach):
            continue  # its box is already too far: the exact distance is no nearer
        if within(gap(unit, enemy), reach):
            return True
    return False


def within_sight(state: BattleState, unit: Unit, other: Unit, reach: float) -> bool:
    """``other`` (where it stands, or where it left the table) within ``reach`` and seen past
    terrain (units do not block it)."""
    if other.on_table:
        if not within(gap(unit, other), reach):
            return False
        return line_of_sight(Footprint.of(unit), Footprint.of(other), state.terrain).clear
    spot = other.left_at or (other.x, other.y)
    last = Footprint.of(replace(other, x=spot[0], y=spot[1]))
    return within(float(Footprint.of(unit).polygon.distance(last.polygon)), reach)


def clear_path(state: BattleState, unit: Unit, other: Unit, reach: float) -> bool:
    """A clear path to ``other`` within ``reach``: every sight line free of terrain that blocks
    sight and of every other unit."""
    if not within(gap(unit, other), reach):
        return False
    others = [
        (u.id, Footprint.of(u)) for u in state.units_on_table if u.id not in (unit.id, other.id)
    ]
    seen = line_of_sight(
        Footprint.of(unit), Footprint.of(other), state.terrain, others, SIGHT_BLOCKING
    )
    return seen.lines_clear == seen.lines_total


def touching_edges(state: BattleState, unit: Unit) -> tuple[set[str], set[str]]:
    """(edges of the unit that enemies touch, edges of enemies that the unit touches)."""
    mine: set[str] = set()
    theirs: set[str] = set()
    here = Footprint.of(unit)
    for enemy in enemies_in_contact(state, unit):
        there = Footprint.of(enemy)
        edge = touching_edge(here, there)
        if edge:
            mine.add(edge)
        other = touching_edge(there, here)
        if other:
            theirs.add(other)
    return mine, theirs


def friends_on_flanks(state: BattleState, unit: Unit, params: Mapping[str, Json]) -> int:
    """How many flanks (0-2) have a sound friendly brigade or tercio beside them."""
    reach = num(params, "flank_support", 1.0)
    here = Footprint.of(unit)
    count = 0
    for edge in ("left", "right"):
        strip = zone(here, edge, reach)
        if any(
            f.id != unit.id
            and brigade(f)
            and cohesion(f) == "sound"
            and strip.intersects(Footprint.of(f).polygon)
            for f in state.units_of(unit.side, on_table=True)
        ):
            count += 1
    return count


def enemy_behind_flank(state: BattleState, unit: Unit) -> bool:
    """An enemy brigade within 8" in the unit's flank or rear quarters."""
    here = Footprint.of(unit)
    return any(
        brigade(e)
        and quarter(here, (e.x, e.y)) in ("left", "right", "rear")
        and within(gap(unit, e), t.DISORDER_ENEMY_NEAR)
        for e in state.enemies_of(unit.side, on_table=True)
    )


# -- the Disorder test -----------------------------------------------------------------------


def disorder_modifiers(
    state: BattleState, unit: Unit, params: Mapping[str, Json], *, artillery_fire: bool = False
) -> list[Modifier]:
    """Every Disorder test modifier for the unit from its state and the geometry, in the
    column for its size ("normal", or "large" for Early Tercios and Double Brigades)."""
    column = "large" if size(unit) in t.LARGE_SIZES else "normal"
    level = cohesion(unit)
    mine, theirs = touching_edges(state, unit)
    high = kinds(params, "uphill_terrain")
    enemies = enemies_in_contact(state, unit)
    uphill = in_terrain(state, unit, high) and any(
        ATTACKER.of(e) and not in_terrain(state, e, high) for e in enemies
    )
    flanks = friends_on_flanks(state, unit, params) if unit.on_table else 0
    cover = COVER.of(unit)
    found: list[tuple[str, bool]] = [
        ("raw", unit.quality == "raw"),
        ("trained", unit.quality == "trained"),
        ("veteran", unit.quality == "veteran"),
        ("defending_obstacle", DEFENDING_OBSTACLE.of(unit)),
        ("uphill", uphill),
        ("hold", wing_order(state, unit) == "hold"),
        ("attacking_flank", bool(theirs & {"left", "right"})),
        ("friend_one_flank", flanks >= 1),
        ("friend_both_flanks", flanks == 2),
        ("wing_commander", attached(state, unit, "wing")),
        ("no_enemy_24", unit.on_table and not enemy_within(state, unit, t.DISORDER_ENEMY_FAR)),
        ("higher_commander", attached(state, unit, "army")),
        ("attacking_rear", "rear" in theirs),
        ("buildings", cover in ("buildings", "fortifications")),
        ("rabble", unit.type == "rabble"),
        ("brigade_difficult", brigade(unit) and IN_DIFFICULT.of(unit)),
        (
            "enemy_brigade_8",
            unit.on_table
            and enemy_within(state, unit, t.DISORDER_ENEMY_NEAR, sound=True, brigades=True),
        ),
        ("disordered", level == "disordered"),
        ("disrupted", level == "disrupted"),
        ("routed", level == "routed"),
        ("artillery_fire", artillery_fire),
        ("enemy_behind_flank", unit.on_table and enemy_behind_flank(state, unit)),
        ("attacked_flank_rear", bool(mine & {"left", "right", "rear"})),
    ]
    table = t.DISORDER_MODIFIERS
    found_mods = []
    for row, applies in found:
        value = t.whole(table, row, column)
        if applies and value:
            found_mods.append(Modifier(value, t.sheet(table, row)))
    return found_mods


def disorder_roll(
    state: BattleState, unit: Unit, params: Mapping[str, Json], *, artillery_fire: bool = False
) -> RollSpec:
    """The Disorder Test: a d6 and its modifiers; rolled by the rules and read by the odds."""
    column = "Early Tercio & Double Brigade" if size(unit) in t.LARGE_SIZES else "Normal"
    mods = disorder_modifiers(state, unit, params, artillery_fire=artillery_fire)
    why = Purpose(unit.id, "disorder test", row=column)
    return RollSpec(
        f"Disorder test: {unit.name} ({column} column)", 1, modifiers=tuple(mods), purpose=why
    )


def disorder_test(ctx: Context, unit: Unit, why: str, *, artillery_fire: bool = False) -> bool:
    """Roll the Disorder Test; True if it passes (4 or more)."""
    roll = disorder_roll(ctx.state, unit, ctx.params, artillery_fire=artillery_fire).roll(ctx.dice)
    band = ctx.test(unit.id, f"Disorder test ({why})", roll, t.DISORDER_TEST, ("pass",))
    return band.result == "pass"


# -- Reform ----------------------------------------------------------------------------------


def may_reform(state: BattleState, unit: Unit, params: Mapping[str, Json]) -> str | None:
    """Why the unit does not try to reform, or None."""
    level = cohesion(unit)
    if level in ("sound", "destroyed"):
        return "sound" if level == "sound" else "destroyed"
    if level == "routed" and params.get("reform_routed") is not True:
        return "routed"
    if LEFT_IN_ROUT.of(unit):
        return "left the table in rout"
    if not unit.on_table:
        return None if LEFT_IN_PURSUIT.of(unit) else "not on the table"
    if enemy_within(state, unit, t.REFORM_ENEMY):
        return f'within {t.REFORM_ENEMY:g}" of the enemy'
    if not in_command(state, unit, params):
        return "not in command"
    return None


def resolve_reform(ctx: Context) -> None:
    """Both players' units in command and not within 4" of the enemy try to reform."""
    for unit in ctx.state.units:
        if may_reform(ctx.state, unit, ctx.params) is not None:
            continue
        under_fire = ARTILLERY_FIRE.of(unit)  # shot at by artillery in this turn's Combat
        if disorder_test(ctx, unit, "reforming from disorder", artillery_fire=under_fire):
            level = cohesion(unit)
            new = better(level)
            ctx.set_status(
                unit.id, f"reforms: {level} to {new} (one level of disorder removed)", cohesion=new
            )
        # "An unsound unit does not add further disorder as a result of failing"


# -- Fatigue ---------------------------------------------------------------------------------


def wings(state: BattleState, side: str | None = None) -> list[Group]:
    """The wings (of a side)."""
    return [g for g in state.groups if g.kind == "wing" and (side is None or g.side == side)]


def _commanders(state: BattleState, wing: Group) -> list[Leader]:
    """The wing's commander and any general attached to the wing (or to one of its units)."""
    found = [x for x in [wing_commander(state, wing.id)] if x is not None]
    units = {u.id for u in state.units if u.group == wing.id}
    for leader in state.leaders:
        if leader in found or leader.side != wing.side or RANK.of(leader) != "army":
            continue
        if leader.group == wing.id or leader.attached_to in units:
            found.append(leader)
    return found


def fatigue_modifiers(state: BattleState, wing: Group) -> list[Modifier]:
    """Every Fatigue modifier of a wing (the "each" rows counted), with the sheet's words."""
    units = [u for u in state.units if u.group == wing.id]
    on = [u for u in units if u.on_table]
    chiefs = _commanders(state, wing)
    lost = any(KILLED.of(x) or OFF_TABLE.of(x) for x in chiefs)
    hurt = not lost and any(WOUNDED.of(x) for x in chiefs)
    higher = any(RANK.of(x) == "army" and can_command(x) for x in chiefs)
    commander = wing_commander(state, wing.id)
    hero = commander is not None and can_command(commander) and KIND.of(commander) == "heroic"
    order = WING_ORDER.of(wing)
    big = [u for u in units if brigade(u)]

    def level(u: Unit) -> str:
        return cohesion(u)

    counts = {
        "enemy_8": int(any(enemy_within(state, u, t.FATIGUE_ENEMY_NEAR) for u in on)),
        "commander_wounded": int(hurt),
        "commander_killed": int(lost),
        "company_lost": sum(
            1 for u in units if not brigade(u) and (level(u) == "destroyed" or LEFT_IN_ROUT.of(u))
        ),
        "brigade_off_table": sum(
            1 for u in big if not u.on_table and u.location != "reserve" and level(u) != "destroyed"
        ),
        "disordered_large": sum(
            1 for u in big if size(u) in t.LARGE_SIZES and level(u) == "disordered"
        ),
        "disrupted": sum(1 for u in big if level(u) == "disrupted"),
        "routed": sum(1 for u in big if level(u) in ("routed", "destroyed")),
        "sound_infantry": sum(
            1 for u in on if u.type in ("infantry_brigade", "tercio") and level(u) == "sound"
        ),
        "sound_veteran": sum(
            1 for u in on if brigade(u) and u.quality == "veteran" and level(u) == "sound"
        ),
        "hold": int(order == "hold"),
        "no_enemy_24": int(
            bool(on)
            and not any(enemy_within(state, u, t.FATIGUE_ENEMY_FAR, sound=True) for u in on)
        ),
        "hero": int(hero),
        "higher_commander": int(higher),
    }
    table = t.FATIGUE_MODIFIERS
    found = []
    for row, times in counts.items():
        if not times:
            continue
        each = t.whole(table, row, "modifier")
        words = t.sheet(table, row)
        found.append(Modifier(each * times, words if times == 1 else f"{words} (x{times})"))
    return found


def fatigue_roll(state: BattleState, wing: Group) -> RollSpec:
    """A wing's Fatigue roll: a d6 with every modifier; 8 or more fatigues it."""
    mods = tuple(fatigue_modifiers(state, wing))
    return RollSpec(f"Fatigue: {wing.name}", 1, modifiers=mods, purpose=Purpose(wing.id, "fatigue"))


def resolve_fatigue(ctx: Context) -> None:
    """Each wing not yet fatigued tests; 7 or less is unaffected."""
    for wing in wings(ctx.state):
        if FATIGUED.of(wing) or not any(u.group == wing.id for u in ctx.state.units):
            continue
        roll = fatigue_roll(ctx.state, wing).roll(ctx.dice)
        band = ctx.test(wing.id, "Fatigue", roll, t.FATIGUE_TEST, ("unaffected",))
        changes: dict[str, Json] = {"fatigue_roll": roll.total}
        if band.result == "fatigued":
            changes["fatigued"] = True
        ctx.set_group_status(wing.id, f"fatigue {roll.total}: {band.row}", **changes)


# -- General Will ----------------------------------------------------------------------------


def general_will_table(params: Mapping[str, Json]) -> GridTable:
    """The campaign's General Will table, else the rebuilt sheet's."""
    value = params.get("general_will_table")
    if value is None:
        return t.GENERAL_WILL
    return t.grid_from_json("general_will_table", value, t.GENERAL_WILL)


def routed_brigades(state: BattleState, side: str, params: Mapping[str, Json]) -> int:
    """Brigades routed, on and off the table (a tercio or a double brigade counts two)."""
    counted = (
        ("routed", "destroyed")
        if params.get("general_will_counts_destroyed", True)
        else ("routed",)
    )
    return sum(worth(u) for u in state.units_of(side) if cohesion(u) in counted)


def army_brigades(state: BattleState, side: str) -> int:
    """The army's size in brigades: its start (``brigades``), else counted now."""
    noted = BRIGADES.of(state.side(side))
    return noted if noted > 0 else sum(worth(u) for u in state.units_of(side))


def general_will_roll(state: BattleState, side: str) -> RollSpec:
    """The General Will roll: a d6 (the sheet lists no modifier)."""
    return RollSpec(
        f"General Will: {state.side(side).name}", 1, purpose=Purpose(side, "general will")
    )


def must_test(state: BattleState, side: str) -> bool:
    """Whether "at the end of any turn that his army contains a Fatigued Wing"."""
    return any(FATIGUED.of(w) for w in wings(state, side))


def general_will_test(ctx: Context, side: str) -> bool:
    """One army's test; True if its resolve is good."""
    table = general_will_table(ctx.params)
    routed = routed_brigades(ctx.state, side, ctx.params)
    size_now = army_brigades(ctx.state, side)
    cell, row, column = t.general_will_cell(routed, size_now, table)
    words = f"{routed} routed brigades in an army of {size_now} (row {row}, column {column})"
    if cell in ("pass", "fail"):
        good = cell == "pass"
        verdict = "Automatic pass" if good else "Automatic fail"
        ctx.emit(TestResolved(side, "General Will", routed, good, f"{words}: {verdict}"))
        return good
    target = int(cell) if isinstance(cell, int | float | str) else 0
    roll = general_will_roll(ctx.state, side).roll(ctx.dice)
    good = roll.total <= target
    row_words = f"{words}: {target} or less — {'resolve good' if good else 'resolve fails'}"
    ctx.emit(TestResolved(side, "General Will", roll.total, good, row_words))
    return good


def resolve_general_will(ctx: Context) -> None:
    """Both armies test at once; the results are set together (both failing: a draw)."""
    results: dict[str, bool] = {}
    for side in ctx.state.sides:
        if must_test(ctx.state, side.id):
            results[side.id] = general_will_test(ctx, side.id)
    for side_id, good in results.items():
        if good:
            ctx.set_side_status(side_id, "General Will: resolve good", general_will="good")
        else:
            ctx.set_side_status(
                side_id,
                "General Will failed: the army must be ordered to withdraw next turn",
                general_will="failed",
                withdraw_next_turn=True,
            )


def distance(a: tuple[float, float], b: tuple[float, float]) -> float:
    """Straight-line distance."""
    return math.dist(a, b)
