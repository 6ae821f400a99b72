"""Roster schemas: declarative checks of an army list, with a path on every problem."""

from __future__ import annotations

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


@dataclass(frozen=True)
class RosterSchema:
    """The shape of an army list: top-level fields and the fields of each unit."""

    unit_fields: tuple[Field, ...]
    army_fields: tuple[Field, ...] = (Field("name", str, required=True),)
    max_units: int = 200
    allow_extra: bool = True
    extra_unit_fields: Mapping[str, type] = field(default_factory=dict)
    # Checks across a unit entry's fields (a ruleset's rules), each giving (field, message).
    unit_checks: tuple[Callable[[Mapping[str, Any]], list[tuple[str, str]]], ...] = ()

    def validate(self, roster: object) -> list[str]:
        """Every problem in the roster as ``path: message``; an empty list means valid."""
        if not isinstance(roster, Mapping):
            return ["(root): must be a mapping with 'name' and 'units'"]
        problems = _check_fields(roster, self.army_fields, "")
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
            problems.extend(_check_fields(unit, self.unit_fields, path + "."))
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
    if spec.kind is int:
        if isinstance(value, bool) or not isinstance(value, int):
            return [f"{path}: must be a whole number"]
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
