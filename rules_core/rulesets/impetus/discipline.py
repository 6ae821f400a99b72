"""Discipline tests: 1D6 against the unit's current VBU, changed by the sheet's modifiers.

``test(ctx, unit, kind, **facts)`` takes a discipline test of one kind (``KINDS``) and returns
a ``TestResult``. The sheet prints the modifiers (``tables.DT_MODIFIERS``: the generic ones for
every test "PLUS Specific Modifiers (Except for Disengagement)"); the roll and its target are
the published procedure (``README_combat.md``): the target is the unit's current VBU, its
discipline class (A +1, C -1: ``dt_discipline_a`` / ``dt_discipline_c``) and every modifier; a
D6 at or under the target passes, a 1 always passes (``dt_natural_pass``) and, if the
parameter ``dt_natural_fail`` is 6, a 6 always fails.

``facts`` carry what the caller knows and the state does not:
  ``moves``      the number of this move in the activation (second_move: 3 is the first at -1)
  ``fragmented`` the charging group is fragmented (frenzy: not every member can reach an
                 enemy, ``actions.fragmented``); ``fragmented_by`` names who falls short
  ``charger``    the id of the enemy unit charging it (close_ranks, countercharge, evasion)
  ``charger_moves`` how many moves the charger made to charge (close_ranks: more than 1, +1)
  ``evades``     the number of this evade in the turn (evasion: 2 is the first at -1); read
                 from the unit's ``evades`` count + 1 when not given
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from rules_core.codec import Json
from rules_core.context import Context
from rules_core.dice import Modifier, Purpose
from rules_core.odds import Dist
from rules_core.rulesets.impetus import generals, groups, profiles, tables
from rules_core.rulesets.impetus.status import DISORDERED, EVADES, KILLED
from rules_core.state import BattleState, Leader, Unit
from rules_core.tables import Band, ScoreTable

KINDS = tables.DT_KINDS
NAMES = {
    "second_move": "second or further move",
    "frenzy": "frenzy",
    "reaction": "opportunity (reaction) charge or fire",
    "defensive_fire": "defensive fire",
    "close_ranks": "close ranks",
    "countercharge": "countercharge",
    "rally": "rally",
    "evasion": "evasion",
    "disengagement": "disengagement",
    "about_face": "about face",
    "general_lost": "general killed",
}
Params = Mapping[str, Json]
# Tests of reactions: a Confident general's "+1 (React/Evasion)" counts for each.
REACTIONS = ("reaction", "defensive_fire", "close_ranks", "countercharge")


@dataclass(frozen=True)
class TestResult:
    """A discipline test's outcome: passed or not, the die, the target and its make-up."""

    __test__ = False  # not a pytest test class

    passed: bool
    text: str = ""
    die: int = 0
    target: int = 0
    modifiers: tuple[Modifier, ...] = field(default=())


def param(params: Params, name: str) -> int:
    """A whole-number combat parameter (the campaign's value, else the sheet-less default)."""
    value = params.get(name, tables.COMBAT_PARAMETERS[name])
    if isinstance(value, bool) or not isinstance(value, int | float):
        value = tables.COMBAT_PARAMETERS[name]
    assert isinstance(value, int | float)
    return int(value)


def _row(key: str) -> tuple[int, str]:
    value = tables.DT_MODIFIERS.lookup(key, "modifier")
    assert isinstance(value, int)
    return value, tables.reason(tables.DT_MODIFIERS, key)


def general_and_host(
    state: BattleState, unit: Unit, *, group: bool = True
) -> tuple[Leader | None, Unit | None]:
    """The general the test counts (attached to the unit, or with ``group`` to a member of
    its group: ``groups.group_of``) and the unit he is attached to."""
    found = generals.attached_general(state, unit)
    if found is not None or not group:
        return found, unit if found is not None else None
    if not _general_in_command(state, unit):
        return None, None  # no group of its command has one: its groups need not be formed
    mine = groups.group_of(state, unit, state.parameters)
    if mine is None:
        return None, None
    for other in groups.members(state, mine):
        if other.id != unit.id:
            found = generals.attached_general(state, other)
            if found is not None:
                return found, other
    return None, None


def _general_in_command(state: BattleState, unit: Unit) -> bool:
    """Whether a living general is attached to another unit of the unit's command (only its
    command's units can be in a group with it)."""
    hosts = {ld.attached_to for ld in state.leaders if ld.attached_to and not KILLED.of(ld)}
    return bool(hosts) and any(
        u.id in hosts and u.group == unit.group and u.id != unit.id for u in state.units
    )


def _unit(state: BattleState, unit_id: Json) -> Unit | None:
    if not isinstance(unit_id, str) or not unit_id:
        return None
    return next((u for u in state.units if u.id == unit_id), None)


def modifiers(
    state: BattleState, unit: Unit, kind: str, params: Params, **facts: Json
) -> list[Modifier]:
    """Every modifier to the test's target, each with the sheet's row as its reason."""
    kind = kind_of(kind, facts)
    mods = _general_modifier(state, unit, kind)
    outside = profiles.troop_type(unit) != "S" and not generals.in_command_radius(
        state, unit, params
    )
    if outside:
        mods.append(Modifier(*_row("outside_radius")))
    if kind == "disengagement":
        return mods
    disordered = DISORDERED.of(unit)
    kind_disordered = f"{kind}.disordered"
    if disordered and kind_disordered in tables.DT_MODIFIERS.rows:
        mods.append(Modifier(*_row(kind_disordered)))
    mods.extend(_kind_modifiers(state, unit, kind, facts))
    return mods


def _general_modifier(state: BattleState, unit: Unit, kind: str) -> list[Modifier]:
    """The attached general's row: "General attached to Unit/Group +1/+2" (evasion: to Unit)."""
    general, host = general_and_host(state, unit, group=kind != "evasion")
    if general is None:
        return []
    row = "evasion.general" if kind == "evasion" else "general_attached"
    value = generals.dt_modifier(general, "reaction" if kind in REACTIONS else kind)
    grouped = host is not None and host.id != unit.id
    where = f" (with {host.name} of its group)" if grouped and host is not None else ""
    text = f"{general.name}: {tables.reason(tables.DT_MODIFIERS, row)}{where}"
    return [Modifier(value, text)]


def _kind_modifiers(
    state: BattleState, unit: Unit, kind: str, facts: Mapping[str, Json]
) -> list[Modifier]:
    """The rows that belong to one kind of test."""
    charger = _unit(state, facts.get("charger"))
    rows = _KIND_ROWS.get(kind)
    return rows(unit, charger, facts) if rows is not None else []


def _second_move(unit: Unit, charger: Unit | None, facts: Mapping[str, Json]) -> list[Modifier]:
    """A second move's rows: each move after the second."""
    move = _int(facts.get("moves"), 2)
    extra = max(0, move - tables.FIRST_PENALISED_MOVE + 1)
    if not extra:
        return []
    value, text = _row("second_move.each_after_second")
    return [Modifier(value * extra, f"{text} (move {move})")]


def _frenzy(unit: Unit, charger: Unit | None, facts: Mapping[str, Json]) -> list[Modifier]:
    """A frenzy's rows: a fragmented charge."""
    if facts.get("fragmented") is not True:
        return []
    value, text = _row("frenzy.fragmented")
    short = facts.get("fragmented_by")
    return [Modifier(value, f"{text} ({short} cannot reach)" if short else text)]


def _defensive_fire(unit: Unit, charger: Unit | None, facts: Mapping[str, Json]) -> list[Modifier]:
    """Defensive fire's rows: T, else mounted."""
    if profiles.troop_type(unit) == "T":
        return [Modifier(*_row("defensive_fire.t"))]
    if profiles.mounted(unit):
        return [Modifier(*_row("defensive_fire.mounted"))]
    return []


def _close_ranks(unit: Unit, charger: Unit | None, facts: Mapping[str, Json]) -> list[Modifier]:
    """Closing ranks' rows: a charger's several moves, FP."""
    mods: list[Modifier] = []
    if _int(facts.get("charger_moves"), 1) > 1:
        mods.append(Modifier(*_row("close_ranks.multi_move")))
    if profiles.troop_type(unit) == "FP":
        mods.append(Modifier(*_row("close_ranks.fp")))
    return mods


def _countercharge(unit: Unit, charger: Unit | None, facts: Mapping[str, Json]) -> list[Modifier]:
    """A countercharge's rows: against CM or CL."""
    if charger is not None and profiles.troop_type(charger) in ("CM", "CL"):
        return [Modifier(*_row("countercharge.cm_cl"))]
    return []


def _rally(unit: Unit, charger: Unit | None, facts: Mapping[str, Json]) -> list[Modifier]:
    """A rally's rows: mounted."""
    # "Rally: Outside Command Radius (except S) -1" restates the generic row: once.
    return [Modifier(*_row("rally.mounted"))] if profiles.mounted(unit) else []


def _evasion(unit: Unit, charger: Unit | None, facts: Mapping[str, Json]) -> list[Modifier]:
    """An evasion's rows: S or CL, light troops evading foot, each evade after the first."""
    mods: list[Modifier] = []
    if profiles.troop_type(unit) in ("S", "CL"):
        mods.append(Modifier(*_row("evasion.s_cl")))
    light = profiles.troop_type(unit) == "S" or profiles.mounted(unit)
    if light and charger is not None and profiles.foot(charger):
        mods.append(Modifier(*_row("evasion.from_foot")))
    evade = EVADES.of(unit) + 1  # this evasion, counted from the state
    extra = max(0, evade - tables.FIRST_PENALISED_EVADE + 1)
    if extra:
        value, text = _row("evasion.each_after_first")
        mods.append(Modifier(value * extra, f"{text} (evade {evade})"))
    return mods


_KIND_ROWS: dict[str, Callable[[Unit, Unit | None, Mapping[str, Json]], list[Modifier]]] = {
    "second_move": _second_move,
    "frenzy": _frenzy,
    "defensive_fire": _defensive_fire,
    "close_ranks": _close_ranks,
    "countercharge": _countercharge,
    "rally": _rally,
    "evasion": _evasion,
}


def kind_of(kind: str, facts: Mapping[str, Json]) -> str:
    """The test's kind: ``about_face=True`` turns a "second_move" test into "about_face"."""
    if kind not in KINDS:
        raise ValueError(f"unknown discipline test {kind!r}")
    return "about_face" if facts.get("about_face") is True else kind


def _int(value: Json, default: int) -> int:
    return int(value) if isinstance(value, int | float) and not isinstance(value, bool) else default


def base(unit: Unit, params: Params) -> list[Modifier]:
    """The target before the sheet's modifiers: current VBU and the discipline class."""
    found = [Modifier(profiles.current_vbu(unit), "current VBU")]
    grade = profiles.discipline(unit)
    if grade == "A":
        found.append(Modifier(param(params, "dt_discipline_a"), "discipline A"))
    elif grade == "C":
        found.append(Modifier(param(params, "dt_discipline_c"), "discipline C"))
    return [m for m in found if m.value or m.reason == "current VBU"]


def target_of(
    state: BattleState, unit: Unit, kind: str, params: Params, **facts: Json
) -> tuple[int, list[Modifier]]:
    """The number a D6 must not exceed, and every part of it with its reason."""
    parts = base(unit, params) + modifiers(state, unit, kind, params, **facts)
    return sum(m.value for m in parts), parts


def tester(
    state: BattleState, units: Sequence[Unit], ordered: Unit, moves: int, params: Params
) -> Unit:
    """Who takes the group's discipline test for its ``moves``-th move (``group_dt_unit``)."""
    if params.get("group_dt_unit") == "ordered":
        return ordered

    def target(u: Unit) -> int:
        return target_of(state, u, "second_move", params, moves=moves)[0]

    return min(units, key=target)


def table_for(target: int, params: Params, why: str = "") -> ScoreTable:
    """The test as a table of the D6: pass at or under the target, with the automatic
    results of the parameters."""
    low = param(params, "dt_natural_pass")
    fail = param(params, "dt_natural_fail")
    top = 6 if fail <= 0 else fail - 1
    passing = max(low, min(target, top))
    made = f" (target {target}: {why})" if why else ""
    bands = [Band(1, passing, "pass", f"passed{made}")]
    if passing < 6:
        bands.append(Band(passing + 1, 6, "fail", f"failed{made}"))
    return ScoreTable("Discipline test", tuple(bands))


def pass_chance(target: int, params: Params) -> Dist:
    """1 if the test passes, 0 if not, as a distribution (the odds)."""
    table = table_for(target, params)
    return Dist.die("D6").map(lambda face: 1 if table.lookup(face).result == "pass" else 0)


def describe(parts: list[Modifier]) -> str:
    """The target's make-up, e.g. "5 current VBU +1 discipline A -1 Disordered"."""
    first, *rest = parts
    return " ".join([f"{first.value} {first.reason}", *(m.describe() for m in rest)])


def test(ctx: Context, unit: Unit, kind: str, **facts: Json) -> TestResult:
    """Take the test: roll 1D6, look it up against the target, log the row that decided it."""
    target, parts = target_of(ctx.state, unit, kind, ctx.params, **facts)
    which = kind_of(kind, facts)
    name = NAMES[which]
    why = Purpose(unit.id, "discipline test", row=which)
    roll = ctx.dice.d6(f"Discipline test ({name}): {unit.name}, target {target}", purpose=why)
    table = table_for(target, ctx.params, describe(parts))
    band = ctx.test(unit.id, f"discipline test ({name})", roll, table, ("pass",))
    passed = band.result == "pass"
    words = "passed" if passed else "failed"
    text = (
        f"{unit.name} {words} the {name} test: rolled {roll.total} against {target} "
        f"({describe(parts)})"
    )
    return TestResult(passed, text, roll.total, target, tuple(parts[1:]))
