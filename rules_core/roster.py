"""Roster schemas: declarative checks of an army list, with a path on every problem."""

from __future__ import annotations

import difflib
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib.resources import files
from typing import Any


@dataclass(frozen=True)
class Field:
    """One field of a roster entry: its type, whether it is required, and allowed values."""

    name: str
    kind: type = str
    required: bool = False
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    help: str = ""
    # A check of its own for a value no kind describes (a place, a comma-separated list).
    check: Callable[[object], str | None] | None = None


@dataclass(frozen=True)
class RosterSchema:
    """The shape of an army list: top-level fields and the fields of each unit."""

    unit_fields: tuple[Field, ...]
    army_fields: tuple[Field, ...] = (Field("name", str, required=True),)
    max_units: int = 200
    # False: a key no field names is refused (a typo would otherwise be silently ignored).
    allow_extra: bool = True
    extra_unit_fields: Mapping[str, type] = field(default_factory=dict)
    # Checks across a unit entry's fields (a ruleset's rules), each giving (field, message).
    unit_checks: tuple[Callable[[Mapping[str, Any]], list[tuple[str, str]]], ...] = ()
    # The army's other lists (``leaders``, ``wings``...) by key, with the fields of an entry.
    lists: Mapping[str, tuple[Field, ...]] = field(default_factory=dict)
    # The army's single entries (``commander``) by key, with their fields.
    sections: Mapping[str, tuple[Field, ...]] = field(default_factory=dict)
    # The army list the template shows: one unit with the usual choices, and its leader.
    example: Mapping[str, Any] = field(default_factory=dict)

    @property
    def all_unit_fields(self) -> tuple[Field, ...]:
        """The unit fields, with those every army list may give (``at``, ``status``)."""
        own = {spec.name for spec in self.unit_fields}
        return (*self.unit_fields, *(f for f in COMMON_UNIT_FIELDS if f.name not in own))

    def validate(self, roster: object) -> list[str]:
        """Every problem in the roster as ``path: message``; an empty list means valid."""
        if not isinstance(roster, Mapping):
            return ["(root): must be a mapping with 'name' and 'units'"]
        problems = _check_fields(roster, self.army_fields, "")
        if not self.allow_extra:
            known = [f.name for f in self.army_fields] + ["units", "note"]
            problems.extend(_unknown(roster, [*known, *self.lists, *self.sections], ""))
            problems.extend(self._others(roster))
        units = roster.get("units")
        if not isinstance(units, Sequence) or isinstance(units, str | bytes):
            problems.append("units: must be a list of units")
            return problems
        if not units:
            problems.append("units: must contain at least one unit")
        if len(units) > self.max_units:
            problems.append(f"units: at most {self.max_units} units, got {len(units)}")
        seen: dict[str, int] = {}
        for index, unit in enumerate(units):
            path = f"units[{index}]"
            if not isinstance(unit, Mapping):
                problems.append(f"{path}: must be a mapping")
                continue
            problems.extend(_check_fields(unit, self.all_unit_fields, path + "."))
            if not self.allow_extra:
                names = [f.name for f in self.all_unit_fields]
                problems.extend(_unknown(unit, names, path + "."))
            for check in self.unit_checks:
                problems.extend(f"{path}.{name}: {message}" for name, message in check(unit))
            name = unit.get("name")
            if isinstance(name, str) and name.strip():
                key = name.strip().casefold()
                if key in seen:
                    problems.append(f"{path}.name: duplicate of units[{seen[key]}].name {name!r}")
                else:
                    seen[key] = index
        return problems

    def _others(self, roster: Mapping[str, Any]) -> list[str]:
        """The problems of the army's lists and sections besides its units."""
        problems: list[str] = []
        for key, fields in self.sections.items():
            value = roster.get(key)
            if value is not None and not isinstance(value, Mapping):
                problems.append(f"{key}: must be a mapping of {', '.join(f.name for f in fields)}")
            elif value is not None:
                problems.extend(_entry_problems(value, fields, key))
        for key, fields in self.lists.items():
            value = roster.get(key)
            if value is None:
                continue
            if not isinstance(value, list):
                problems.append(f"{key}: must be a list of entries")
                continue
            for index, entry in enumerate(value):
                path = f"{key}[{index}]"
                if isinstance(entry, Mapping):
                    problems.extend(_entry_problems(entry, fields, path))
                else:
                    problems.append(f"{path}: must be a mapping")
        return problems


def _entry_problems(entry: Mapping[str, Any], fields: Sequence[Field], path: str) -> list[str]:
    """One entry's field problems and unknown keys."""
    found = _check_fields(entry, fields, path + ".")
    return found + _unknown(entry, [f.name for f in fields], path + ".")


def unknown_keys(data: Mapping[Any, Any], known: Sequence[str]) -> list[tuple[str, str | None]]:
    """Each key of ``data`` that is not one of ``known``, with the nearest known key (None if
    none is near): what a file's typo is told with ("did you mean")."""
    found = []
    for key in data:
        if str(key) in known:
            continue
        close = difflib.get_close_matches(str(key), known, n=1, cutoff=0.6)
        found.append((str(key), close[0] if close else None))
    return found


def _unknown(data: Mapping[str, Any], known: Sequence[str], prefix: str) -> list[str]:
    """A problem for each key that is no field here, with the nearest field as a suggestion."""
    return [
        f"{prefix}{key}: unknown field; "
        + (f"did you mean '{near}'?" if near else "the fields are " + ", ".join(known))
        for key, near in unknown_keys(data, known)
    ]


def _check_place(value: object) -> str | None:
    """Why a unit's ``at`` is not a place: ``[x, y]`` or ``[x, y, facing]``, or None."""
    numbers = isinstance(value, list) and all(
        isinstance(v, int | float) and not isinstance(v, bool) for v in value
    )
    if not numbers or not isinstance(value, list) or len(value) not in (2, 3):
        return "must be [x, y] or [x, y, facing] in numbers"
    if min(value) < 0 or (len(value) == 3 and value[2] > 360):
        return "x and y must be 0 or more, facing from 0 to 360 degrees"
    return None


# Fields every strict army list's units may give: where to deploy it, and the bot's record.
COMMON_UNIT_FIELDS = (
    Field(
        "at",
        list,
        help="where to deploy it: [x, y] or [x, y, facing]; "
        "/battle deploy-file from_army:true places it there",
        check=_check_place,
    ),
    Field("status", choices=("destroyed",), help="written by the bot: lost in a battle"),
)


def _check_fields(data: Mapping[str, Any], fields: Sequence[Field], prefix: str) -> list[str]:
    problems: list[str] = []
    for spec in fields:
        path = prefix + spec.name
        if spec.name not in data or data[spec.name] is None:
            if spec.required:
                problems.append(f"{path}: is required")
            continue
        problems.extend(_check_value(data[spec.name], spec, path))
    return problems


def _check_value(value: object, spec: Field, path: str) -> list[str]:
    if spec.check is not None:
        problem = spec.check(value)
        return [f"{path}: {problem}"] if problem else []
    if spec.kind is int or spec.kind is float:
        whole = spec.kind is int  # a float field takes whole numbers too
        if (
            isinstance(value, bool)
            or not isinstance(value, int | float)
            or (whole and not isinstance(value, int))
        ):
            return [f"{path}: must be a {'whole ' if whole else ''}number"]
        if spec.minimum is not None and value < spec.minimum:
            return [f"{path}: must be at least {spec.minimum}"]
        if spec.maximum is not None and value > spec.maximum:
            return [f"{path}: must be at most {spec.maximum}"]
        return []
    if spec.kind is str:
        if not isinstance(value, str) or not value.strip():
            return [f"{path}: must be non-empty text"]
        if len(value) > 100:
            return [f"{path}: must be at most 100 characters"]
        if spec.choices and value not in spec.choices:
            return [f"{path}: must be one of {', '.join(spec.choices)}"]
        return []
    if not isinstance(value, spec.kind):
        return [f"{path}: must be of type {spec.kind.__name__}"]
    return []


def entries(roster: Mapping[str, Any], key: str) -> list[Mapping[str, Any]]:
    """The mapping entries of one of an army list's lists (``units``, ``leaders``...)."""
    found = roster.get(key)
    if not isinstance(found, Sequence) or isinstance(found, str):
        return []
    return [entry for entry in found if isinstance(entry, Mapping)]


def unit_ids(roster: Mapping[str, Any], side: str) -> dict[str, str]:
    """Unit ids (``<side><n>``, in roster order) by case-folded name, lost units left out."""
    found = {}
    for index, entry in enumerate(entries(roster, "units")):
        if entry.get("status") != "destroyed" and isinstance(entry.get("name"), str):
            found[str(entry["name"]).casefold()] = f"{side}{index + 1}"
    return found


def packaged_army(package: str, name: str) -> dict[str, Any]:
    """A ruleset's sample army file ``armies/<name>.json`` from its package, as plain data."""
    path = files(package).joinpath("armies").joinpath(f"{name}.json")
    data = json.loads(path.read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def leader_fields(group: str, *own: Field) -> tuple[Field, ...]:
    """The fields of a ``leaders:`` entry: his name, his id (which units' ``group`` field
    names), the unit he stands ``with``, then the ruleset's own."""
    return (
        Field("name", str, required=True, help="the leader's name"),
        Field("id", help=f"his id: a unit's {group}: field names it to put the unit under him"),
        Field("with", help="the name of the unit he stands with"),
        *own,
    )
