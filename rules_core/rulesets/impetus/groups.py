"""Groups: friendly units of one command formed edge to edge, moving as one body.

The sheet names groups in four places: the manoeuvre table's "Group Move" row (forward and
wheel: yes; sideways and oblique: no except S, CL, CM; backwards: no except S, CL; about face:
no), the DT's "General attached to Unit/Group", frenzy's "Group charging is Fragmented -1",
shooting's "+2 Artillery shooting at Large Units or Groups in column" and melee's "supported
flank (with units it can form Group with, excepts S or Art)". It does not say what a group is;
the published rules could not be found (see the package README). The reading here:

* **Who can group** (``can_group``): neither unit is S nor ART (``group_excluded``); foot
  with foot of the same troop type, mounted with any mounted (``group_mix`` "foot_type";
  "kind": any foot with any foot; "type": the same troop type only). Foot of different types
  (T, FL, FP) fight in different orders; mounted of different types ride together, as the
  melee row's supported flank (only S and Art excepted) suggests.
* **A group** (``groups_of``): units of one command on the table (not routed), facing the same
  way, linked edge to edge: side by side with their front edges level (a *line*) or one right
  behind the other, centred (a *column*); a group mixing both links is a *block*. Contact is
  judged within ``group_tolerance`` H. The groups are a pure function of the state (kept for
  the last state asked about: the rules ask often).
* **A group move** (``group_plan``): every member by one rigid motion. Forward, sideways,
  oblique, backwards: all by the same distance on the same heading. A wheel: the group pivots
  as a block on the front corner of its inner end (the right end when it wheels right), turning
  by ``distance / width`` radians (its outer end travels ``distance``). A single unit's wheel is
  the same motion of a group of one (``orders.plan``).
* **Its discipline test** (``discipline.tester``): one test for the group for a second or
  further move, taken by the member with the lowest target (``group_dt_unit`` "worst"), or by
  the unit the order names ("ordered").
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from itertools import combinations

from rules_core.codec import Json
from rules_core.geometry import Footprint
from rules_core.plugin import Parameter
from rules_core.rulesets.impetus import movement_tables as mt
from rules_core.rulesets.impetus import profiles
from rules_core.rulesets.impetus.status import FORMED_GROUPS, GROUP_NO, ROUTED, UNIT_GROUP
from rules_core.state import BattleState, Group, Unit

SILENT = "not on the sheet (see the package README)"
PARAMETERS = (
    Parameter(
        "group_tolerance",
        0.1,
        "how far apart (H) two units' edges, and their front edges, may be and still "
        "count as formed in one group",
        SILENT,
    ),
    Parameter(
        "group_mix",
        "foot_type",
        "who can form a group together: foot_type (foot with foot of the same troop "
        "type, mounted with any mounted), kind (foot with foot, mounted with mounted) or "
        "type (the same troop type only)",
        SILENT,
    ),
    Parameter(
        "group_excluded",
        ["S", "ART"],
        "troop types that never form groups (the melee row: 'excepts S or Art')",
        SILENT,
    ),
    Parameter(
        "group_dt_unit",
        "worst",
        "whose discipline test a group takes for a further move: worst (the member with "
        "the lowest target) or ordered (the unit the order names)",
        SILENT,
    ),
)
DEFAULTS: dict[str, Json] = {p.name: p.default for p in PARAMETERS}
Params = Mapping[str, Json]
SAME_FACING = 1.0  # degrees: members of a group face the same way

# The manoeuvres a group may ever make (the Group Move row: yes, or yes for some types).
GROUP_MANOEUVRES = tuple(
    kind
    for kind in mt.MANOEUVRE_IDS
    if mt.manoeuvre(kind, "group_move") is True or mt.manoeuvre(kind, "group_move_except")
)


def _param(params: Params | None, name: str) -> Json:
    value = (params or {}).get(name, DEFAULTS[name])
    return DEFAULTS[name] if value is None else value


def can_group(unit: Unit, other: Unit, params: Params | None = None) -> bool:
    """Whether two units can form a group together (melee's supported flank reads it too)."""
    excluded = _param(params, "group_excluded")
    barred = {str(v) for v in excluded} if isinstance(excluded, list) else {"S", "ART"}
    if profiles.troop_type(unit) in barred or profiles.troop_type(other) in barred:
        return False
    mix = _param(params, "group_mix")
    same_type = profiles.troop_type(unit) == profiles.troop_type(other)
    if mix == "type" or (mix == "foot_type" and profiles.foot(unit)):
        return same_type
    return profiles.mounted(unit) == profiles.mounted(other)


def _grouping(params: Params | None) -> Callable[[Unit, Unit], bool]:
    """``can_group`` for many pairs under the same parameters: the parameters read once and
    each unit's troop type, foot and mounted once (the same tests, in the same order)."""
    excluded = _param(params, "group_excluded")
    barred = {str(v) for v in excluded} if isinstance(excluded, list) else {"S", "ART"}
    mix = _param(params, "group_mix")
    kinds: dict[int, tuple[str, bool, bool]] = {}  # by the unit object's id, within one use

    def kind(unit: Unit) -> tuple[str, bool, bool]:
        found = kinds.get(id(unit))
        if found is None:
            found = (profiles.troop_type(unit), profiles.foot(unit), profiles.mounted(unit))
            kinds[id(unit)] = found
        return found

    def able(unit: Unit, other: Unit) -> bool:
        (mine, foot, mounted), (theirs, _, other_mounted) = kind(unit), kind(other)
        if mine in barred or theirs in barred:
            return False
        if mix == "type" or (mix == "foot_type" and foot):
            return mine == theirs
        return mounted == other_mounted

    return able


def _turned(a: float, b: float) -> float:
    return abs((a - b + 180) % 360 - 180)


def link(unit: Unit, other: Unit, tolerance: float) -> str | None:
    """How two units touch: "line" (side by side, front edges level), "column" (one right
    behind the other), or None."""
    if _turned(unit.facing, other.facing) > SAME_FACING:
        return None
    right, ahead = Footprint.of(unit).local((other.x, other.y))
    level = ahead - (unit.depth - other.depth) / 2  # front edge of other against unit's
    if abs(level) <= tolerance and abs(abs(right) - (unit.frontage + other.frontage) / 2) <= (
        tolerance
    ):
        return "line"
    if abs(right) <= tolerance and abs(abs(ahead) - (unit.depth + other.depth) / 2) <= tolerance:
        return "column"
    return None


@dataclass(frozen=True)
class UnitGroup:
    """A group: its members (ids, roster order), its command and side, its shape, and its
    number among its side's groups (G1, G2 ...)."""

    id: str
    side: str
    command: str
    members: tuple[str, ...]
    formation: str  # line, column or block
    number: int

    @property
    def label(self) -> str:
        """G1, G2 ... (per side)."""
        return f"G{self.number}"


_KEPT: list[tuple[tuple[Unit, ...], str, tuple[UnitGroup, ...]]] = []
_KEPT_MAX = 4
# Groups by what forms them (where each unit stands and faces, whether it is on the table or
# routed): a status change (a DT, a mark) makes a new units tuple but not new groups.
_FORMED: dict[tuple[object, ...], tuple[UnitGroup, ...]] = {}
_FORMED_MAX = 64


def _key(params: Params | None) -> str:
    return repr([_param(params, p.name) for p in PARAMETERS])


def groups_of(state: BattleState, params: Params | None = None) -> tuple[UnitGroup, ...]:
    """Every group on the table (two or more units), in roster order of their first member."""
    key = _key(params)
    for units, kept_key, found in _KEPT:
        if units is state.units and kept_key == key:
            return found
    for units, kept_key, found in _KEPT:  # units whose statuses alone changed: same groups
        if kept_key == key and _standing_alike(units, state.units):
            _KEPT[:] = [(state.units, key, found), *_KEPT[: _KEPT_MAX - 1]]
            return found
    standing = (
        (u.id, u.x, u.y, u.facing, u.side, u.group, u.location, ROUTED.of(u)) for u in state.units
    )
    where: tuple[object, ...] = (key, *standing)
    formed = _FORMED.get(where)
    if formed is None:
        formed = _form(state, params)
        if len(_FORMED) >= _FORMED_MAX:
            _FORMED.clear()
        _FORMED[where] = formed
    # a few kept: the same units are asked with the battle's parameters and with none
    _KEPT[:] = [(state.units, key, formed), *_KEPT[: _KEPT_MAX - 1]]
    return formed


def _standing_alike(kept: tuple[Unit, ...], units: tuple[Unit, ...]) -> bool:
    """Whether every unit stands as the kept one at its place does: what ``groups_of`` keys
    its groups by (most of a step's new units are the very same objects)."""
    return len(kept) == len(units) and all(
        a is b
        or (
            (a.id, a.x, a.y, a.facing, a.side, a.group, a.location)
            == (b.id, b.x, b.y, b.facing, b.side, b.group, b.location)
            and ROUTED.of(a) == ROUTED.of(b)
        )
        for a, b in zip(kept, units, strict=True)
    )


def _form(state: BattleState, params: Params | None) -> tuple[UnitGroup, ...]:
    tol = _param(params, "group_tolerance")
    tolerance = float(tol) if isinstance(tol, int | float) else 0.1
    able = [u for u in state.units_on_table if not ROUTED.of(u)]
    links: dict[str, list[tuple[str, str]]] = {u.id: [] for u in able}
    # only units of one side and command may link: each pair of a command is looked at, in
    # the roster order a scan of every pair takes, so each unit's links come in that order
    grouped = _grouping(params)
    commands: dict[tuple[str, str | None], list[Unit]] = {}
    for unit in able:
        commands.setdefault((unit.side, unit.group), []).append(unit)
    for unit, other in (pair for mine in commands.values() for pair in combinations(mine, 2)):
        # the distance first: most pairs of a command stand apart (both tests read nothing else)
        if max(abs(unit.x - other.x), abs(unit.y - other.y)) > (
            unit.frontage + other.frontage + unit.depth + other.depth
        ):
            continue
        if not grouped(unit, other):
            continue
        found = link(unit, other, tolerance)
        if found is not None:
            links[unit.id].append((other.id, found))
            links[other.id].append((unit.id, found))
    order = {u.id: i for i, u in enumerate(able)}
    seen: set[str] = set()
    made: list[UnitGroup] = []
    numbers: dict[str, int] = {}
    for unit in able:
        if unit.id in seen or not links[unit.id]:
            continue
        joined: set[str] = {unit.id}
        kinds: set[str] = set()
        todo = [unit.id]
        while todo:
            for other_id, kind in links[todo.pop()]:
                kinds.add(kind)
                if other_id not in joined:
                    joined.add(other_id)
                    todo.append(other_id)
        seen |= joined
        ids = tuple(sorted(joined, key=order.__getitem__))
        formation = kinds.pop() if len(kinds) == 1 else "block"
        numbers[unit.side] = numbers.get(unit.side, 0) + 1
        made.append(UnitGroup(ids[0], unit.side, unit.group, ids, formation, numbers[unit.side]))
    return tuple(made)


def group_of(state: BattleState, unit: Unit, params: Params | None = None) -> UnitGroup | None:
    """The group the unit is formed in, or None if it stands alone."""
    return next((g for g in groups_of(state, params) if unit.id in g.members), None)


def members(state: BattleState, group: UnitGroup) -> list[Unit]:
    """The group's units, in roster order."""
    return [state.unit(m) for m in group.members]


def in_column(state: BattleState, unit: Unit, params: Params | None = None) -> bool:
    """Whether the unit is part of a group in column (artillery +2)."""
    found = group_of(state, unit, params)
    return found is not None and found.formation == "column"


def describe(state: BattleState, group: UnitGroup) -> str:
    """e.g. "G1 line: Legio X, Legio IX"."""
    names = ", ".join(state.unit(m).name for m in group.members)
    return f"{group.label} {group.formation}: {names}"


def may_group_move(unit: Unit, kind: str) -> bool:
    """The Group Move row for one member."""
    return kind in GROUP_MANOEUVRES and mt.group_may(unit, kind)


def manoeuvres_for(state: BattleState, unit: Unit, params: Params | None = None) -> list[str]:
    """The manoeuvres the Group Move row allows for the unit's group (none if it stands
    alone): what a group move order's option offers."""
    group = group_of(state, unit, params)
    if group is None:
        return []
    units = members(state, group)
    return [k for k in GROUP_MANOEUVRES if all(may_group_move(u, k) for u in units)]


# -- the motion ------------------------------------------------------------------------------

Pose = tuple[float, float, float, float, float]  # x, y, facing, heading, length


def _vector(heading: float) -> tuple[float, float]:
    rad = math.radians(heading)
    return (math.sin(rad), math.cos(rad))


def width(units: Sequence[Unit], reference: Unit) -> float:
    """The group's width across the reference unit's facing (its front, for a wheel)."""
    frame = Footprint.of(reference)
    across = [frame.local(c)[0] for u in units for c in Footprint.of(u).corners()]
    return max(across) - min(across)


def pivot(units: Sequence[Unit], reference: Unit, side: str) -> tuple[float, float]:
    """The front corner of the group's inner end: the right end wheeling right."""
    frame = Footprint.of(reference)
    sign = 1.0 if side == "right" else -1.0
    corners = [c for u in units for c in Footprint.of(u).corners()[:2]]
    return max(corners, key=lambda c: (round(sign * frame.local(c)[0], 6), frame.local(c)[1]))


def group_plan(
    units: Sequence[Unit], reference: Unit, kind: str, length: float, side: str | None
) -> dict[str, Pose]:
    """Where one rigid motion takes every unit: {id: (x, y, facing, heading, length)}."""
    sign = -1.0 if side == "left" else 1.0
    facing = reference.facing
    if kind == "about_face":
        turn = 180.0 if side is None else 90.0 * sign
        return {u.id: (u.x, u.y, (u.facing + turn) % 360, u.facing, 0.0) for u in units}
    if kind == "wheel":
        angle = math.degrees(length / max(width(units, reference), 1e-9)) * sign
        px, py = pivot(units, reference, "left" if sign < 0 else "right")
        rad = math.radians(-angle)  # compass degrees turn clockwise
        found: dict[str, Pose] = {}
        for u in units:
            dx, dy = u.x - px, u.y - py
            x = px + dx * math.cos(rad) - dy * math.sin(rad)
            y = py + dx * math.sin(rad) + dy * math.cos(rad)
            found[u.id] = (round(x, 6), round(y, 6), (u.facing + angle) % 360, u.facing, length)
        return found
    offsets = {"forward": 0.0, "backwards": 180.0, "sideways": 90.0 * sign, "oblique": 45.0 * sign}
    heading = (facing + offsets.get(kind, 0.0)) % 360
    fx, fy = _vector(heading)
    return {u.id: (u.x + fx * length, u.y + fy * length, u.facing, heading, length) for u in units}


def without(state: BattleState, ids: Sequence[str]) -> BattleState:
    """The state without some units (a member's path is checked without its own group)."""
    return replace(state, units=tuple(u for u in state.units if u.id not in ids))


# -- shown state --------------------------------------------------------------------------------


def mark(state: BattleState, params: Params | None = None) -> BattleState:
    """The groups copied into the status the map and ``/battle status`` show: each unit's
    ``unit_group`` (its group's id) and ``group_no`` (the G1 badge), each command's
    ``formed_groups``. Called after every step (``ImpetusRules.resolver``), like the generals
    following their units; only what changed is written."""
    key = _key(params)
    last = _MARKED[0] if _MARKED else None
    if last is not None and last[0] is state.units and last[1] is state.groups and last[2] == key:
        return state  # the very units and commands it last gave: nothing to write
    found = groups_of(state, params)
    # units it last gave, marked for the same groups, are marked still: only others are read
    done = (
        {id(u) for u in last[0]}
        if last is not None and (last[2], last[3]) == (key, found)
        else set()
    )
    state = _marked(state, found, done)
    _MARKED[:] = [(state.units, state.groups, key, found)]
    return state


# What ``mark`` last gave, for which groups (frozen tuples: the same objects are marked
# already; the tuple of units held keeps their ids from being reused).
_MARKED: list[tuple[tuple[Unit, ...], tuple[Group, ...], str, tuple[UnitGroup, ...]]] = []


def _marked(state: BattleState, found: tuple[UnitGroup, ...], done: set[int]) -> BattleState:
    """``mark`` worked out for the units not in ``done`` (ids of units marked already)."""
    by_unit = {m: g for g in found for m in g.members}
    for unit in state.units:
        if id(unit) in done:
            continue
        group = by_unit.get(unit.id)
        wanted: dict[str, Json] = {
            "unit_group": group.id if group is not None else "",
            "group_no": group.number if group is not None else 0,
        }
        held: dict[str, Json] = {"unit_group": UNIT_GROUP.of(unit), "group_no": GROUP_NO.of(unit)}
        if held != wanted:
            state = state.with_unit(unit.with_status(**wanted))
    described: dict[str, list[Json]] = {}  # each command's groups, in the order found
    for formed in found:
        described.setdefault(formed.command, []).append(describe(state, formed))
    for command in state.groups:
        if command.kind != "command":
            continue
        lines = described.get(command.id, [])
        if (FORMED_GROUPS.of(command) or []) != lines:
            status = {**command.status, "formed_groups": lines}
            state = state.with_group(replace(command, status=status))
    return state
