"""Armies on the table from army lists: ids unique by side, leaders with their groups and units.

Every ruleset groups its units under leaders (contingents, battles, commands, divisions) and
posts each leader with a unit; these are the pieces they share, the numbers and names staying
in each ruleset's own ``forces`` and ``profiles``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from rules_core.codec import Json
from rules_core.context import Context
from rules_core.roster import entries as roster_entries
from rules_core.roster import unit_ids
from rules_core.state import BattleState, Group, Leader, Unit

# Builds one leader from his army-list entry and key (``id``, else the stem and his number).
MakeLeader = Callable[[Mapping[str, Json], str], Leader]


def prefixed(side: str, key: str) -> str:
    """An army list's id made unique on the table by its side."""
    return f"{side}_{key}"


def type_defaults(
    columns: Sequence[str], types: Mapping[str, Sequence[Json]], kind: str, fallback: str
) -> dict[str, Json]:
    """The editable default profile of a troop type, read across its row of a ruleset's table
    (the ``fallback`` type's row for a type the table does not know)."""
    return dict(zip(columns, types.get(kind, types[fallback]), strict=True))


def text_or_none(value: Json) -> str | None:
    """A non-empty text value, else None."""
    return value if isinstance(value, str) and value else None


@dataclass(frozen=True)
class Troops:
    """What a ruleset reads from one roster entry: everything of its unit but the name, which
    the entry gives, and the ids and place, which the army around it gives."""

    kind: str
    quality: str
    frontage: float
    depth: float
    profile: Mapping[str, Json]
    status: Mapping[str, Json] = field(default_factory=dict)
    stands: int = 1
    formation: str = ""

    def unit(self, entry: Mapping[str, Json], unit_id: str, side: str, group: str) -> Unit:
        """The unit these troops make, named by the entry, not yet placed (x, y, facing 0)."""
        return Unit(
            unit_id,
            str(entry["name"]),
            side,
            group,
            self.kind,
            self.quality,
            self.frontage,
            self.depth,
            0.0,
            0.0,
            0.0,
            stands=self.stands,
            formation=self.formation,
            profile=self.profile,
            status=self.status,
        )


def listed_leader(
    entry: Mapping[str, Json], side: str, group: str, points: int, status: dict[str, Json]
) -> Leader:
    """A leader from an army file's ``leaders`` entry (id, name, ``with``), not yet placed,
    with the ruleset's points and status."""
    return Leader(
        str(entry["id"]),
        str(entry["name"]),
        side,
        group,
        0.0,
        0.0,
        attached_to=text_or_none(entry.get("with")),
        points=points,
        status=status,
    )


def leader_group(side: str, leader_key: str, kind: str) -> str:
    """The id of the group of this kind a leader (by his army-list id) commands."""
    return prefixed(side, f"{leader_key}_{kind}")


def group_named(entry: Mapping[str, Json], side: str, kind: str, default: str) -> str:
    """The group a unit entry's field named for the group kind puts it in, else ``default``
    (``battle: henry`` is Henry's battle)."""
    key = entry.get(kind)
    return leader_group(side, key, kind) if isinstance(key, str) and key else default


def leaders_with_groups(
    entries: Sequence[Mapping[str, Json]],
    units: Mapping[str, str],
    side: str,
    kind: str,
    build: Callable[[Mapping[str, Json], str, str], Leader],
) -> tuple[tuple[Group, ...], tuple[Leader, ...]]:
    """The leaders of an army list's entries, each commanding a group of this kind of his own.

    ``build(entry, side, group)`` makes one leader from his entry, its ``id`` already prefixed.
    """

    def make(entry: Mapping[str, Json], key: str) -> Leader:
        """One leader, his id prefixed by side, in command of his group."""
        return build({**entry, "id": prefixed(side, key)}, side, leader_group(side, key, kind))

    leaders = listed_leaders(entries, units, "leader", make)
    return led_groups(leaders, side, kind), leaders


@dataclass(frozen=True)
class LedGroups:
    """An army list whose leaders (under ``leaders:``, each made by ``build``) command a group
    of ``kind`` each, and whose unit entries name their leader in a field called ``kind``.

    ``named_only``: entries without a name are dropped before the leaders are numbered
    ("leader2" is the second named leader), not merely skipped.
    """

    kind: str
    build: Callable[[Mapping[str, Json], str, str], Leader]
    named_only: bool = False

    def group_of(self, entry: Mapping[str, Json], side: str, default: str) -> str:
        """The group a unit entry's field puts it in, else ``default``."""
        return group_named(entry, side, self.kind, default)

    def forces(
        self, roster: Mapping[str, Json], side: str
    ) -> tuple[tuple[Group, ...], tuple[Leader, ...]]:
        """The groups (each led by its leader) and the leaders an army list brings."""
        listed = roster_entries(roster, "leaders")
        if self.named_only:
            listed = [e for e in listed if isinstance(e.get("name"), str)]
        return leaders_with_groups(listed, unit_ids(roster, side), side, self.kind, self.build)


def listed_leaders(
    entries: Sequence[Mapping[str, Json]], units: Mapping[str, str], stem: str, make: MakeLeader
) -> tuple[Leader, ...]:
    """The named leaders of an army list's entries, each with the unit his ``with`` names.

    An entry without an ``id`` is keyed by ``stem`` and its place among ``entries``; ``units``
    are unit ids by case-folded name (``roster.unit_ids``).
    """
    found = []
    for index, entry in enumerate(entries, start=1):
        if not isinstance(entry.get("name"), str):
            continue
        made = make(entry, str(entry.get("id") or f"{stem}{index}"))
        home = units.get(str(entry.get("with") or "").casefold())
        found.append(replace(made, attached_to=home))
    return tuple(found)


def led_groups(
    leaders: Iterable[Leader], side: str, kind: str, status: Mapping[str, Json] | None = None
) -> tuple[Group, ...]:
    """One group of this kind for each leader, led by him and named for him ("Alfred's
    contingent"), each with its own copy of ``status``."""
    return tuple(
        Group(str(ld.group), f"{ld.name}'s {kind}", side, kind, ld.id, dict(status or {}))
        for ld in leaders
    )


def placed_units(
    data: Mapping[str, Json],
    prefix: str,
    places: Sequence[tuple[float, float]],
    facing: float,
    make: Callable[[Mapping[str, Json], str], Unit],
) -> list[Unit]:
    """The units of an army file, each made by ``make(entry, unit_id)`` (ids ``prefix`` and the
    unit's number) and set at ``places``, in file order, all facing ``facing``."""
    raw = data["units"]
    assert isinstance(raw, list)
    units: list[Unit] = []
    for index, (entry, (x, y)) in enumerate(zip(raw, places, strict=True), start=1):
        assert isinstance(entry, dict)
        units.append(replace(make(entry, f"{prefix}{index}"), x=x, y=y, facing=facing))
    return units


def regroup_strays(state: BattleState) -> BattleState:
    """Units whose group the army list does not give join their side's main group."""
    known = {group.id for group in state.groups}
    for unit in state.units:
        if unit.group not in known:
            state = state.with_unit(replace(unit, group=f"{unit.side}_main"))
    return state


def alive(state: BattleState, unit_id: str | None) -> bool:
    """Whether a unit is still in the battle."""
    return unit_id is not None and any(unit.id == unit_id for unit in state.units)


def join_first(state: BattleState, leader: Leader, own: Sequence[Unit]) -> BattleState:
    """A leader joins the first of ``own`` in his group (else the first of ``own``)."""
    home = next((x for x in own if x.group == leader.group), own[0] if own else None)
    if home is None:
        return state
    return state.with_leader(replace(leader, attached_to=home.id, x=home.x, y=home.y))


def follow_leaders(state: BattleState) -> BattleState:
    """Leaders with a unit stand where it stands (the map draws them there)."""
    for leader in state.leaders:
        if leader.attached_to and alive(state, leader.attached_to):
            home = state.unit(leader.attached_to)
            if (leader.x, leader.y) != (home.x, home.y):
                state = state.with_leader(replace(leader, x=home.x, y=home.y))
    return state


def leaders_following(resolve: Callable[[Context], None]) -> Callable[[Context], None]:
    """A step's resolver, after which leaders stand where their units stand."""

    def run(ctx: Context) -> None:
        """The step, then each leader to his unit."""
        resolve(ctx)
        ctx.state = follow_leaders(ctx.state)

    return run


def stands_carried(
    entry: Mapping[str, Json], unit: Unit | None, casualties: Callable[[Unit], int]
) -> dict[str, Json]:
    """After a battle: a unit gone from the table or with no stands left is lost; survivors
    keep the stands left (casualties are stands lost for good)."""
    if unit is None or unit.stands - casualties(unit) <= 0:
        return {**entry, "status": "destroyed"}
    if not casualties(unit):
        return dict(entry)
    return {**entry, "stands": unit.stands - casualties(unit)}
