"""Army list files offered for download: the ruleset's template and its sample armies."""

from __future__ import annotations

import io
import json
import re
from collections.abc import Mapping
from typing import Any

import discord
import yaml

from rules_core.registry import Ruleset
from rules_core.roster import Field, RosterSchema

LOAD_NEEDS_NAME = "Name the sample army to load: `/army sample name:<army> load:true`."
KIND_WORDS = {str: "text", int: "whole number", bool: "true or false", float: "number"}


def field_line(spec: Field) -> str:
    """One commented line explaining a roster field: its values, whether required, its use."""
    if spec.choices:
        values = "one of " + ", ".join(spec.choices)
    else:
        values = KIND_WORDS.get(spec.kind, spec.kind.__name__)
        if spec.minimum is not None and spec.maximum is not None:
            values += f" from {spec.minimum} to {spec.maximum}"
    need = "required" if spec.required else "optional"
    words = f" — {spec.help}" if spec.help else ""
    return f"#   {spec.name} ({need}): {values}{words}"


def example_value(spec: Field) -> Any:
    """A value the schema accepts for a field, to fill the template's example unit."""
    if spec.choices:
        return spec.choices[0]
    if spec.kind is int:
        low = spec.minimum if spec.minimum is not None else 1
        return max(low, min(4, spec.maximum if spec.maximum is not None else 4))
    if spec.kind is bool:
        return False
    return None


def example_roster(schema: RosterSchema) -> dict[str, Any]:
    """A two-unit army the schema accepts, each field with a legal value."""
    units = []
    for number in (1, 2):
        unit: dict[str, Any] = {"name": f"Unit {number}"}
        for spec in schema.unit_fields:
            value = example_value(spec)
            if spec.name != "name" and value is not None:
                unit[spec.name] = value
        units.append(unit)
    return {"name": "My Army", "units": units}


def roster_template(ruleset: Ruleset) -> str:
    """A YAML army list for the ruleset with every field explained in comments."""
    schema = ruleset.roster_schema
    lines = [
        f"# Army list template for {ruleset.name} (ruleset id {ruleset.id}).",
        "# Edit the values, save as army.yaml and upload it with /army import file:army.yaml.",
        "# Lines starting with # are comments. Fields of the army:",
        *(field_line(f) for f in schema.army_fields),
        "#   units (required): the list of units below, one entry each",
        f"# Fields of each unit (at most {schema.max_units} units):",
        *(field_line(f) for f in schema.unit_fields),
        "# Complete examples to start from: /army sample (download, or load:true to import one).",
        "",
        yaml.safe_dump(example_roster(schema), sort_keys=False, allow_unicode=True),
    ]
    return "\n".join(lines)


def template_file(ruleset: Ruleset) -> discord.File:
    """The template as an attachment named after the ruleset."""
    data = roster_template(ruleset).encode()
    return discord.File(io.BytesIO(data), filename=f"{ruleset.id}-army-template.yaml")


def sample_file(army: Mapping[str, Any]) -> discord.File:
    """One sample army as a JSON attachment named after it."""
    data = json.dumps(army, indent=2, ensure_ascii=False).encode()
    return discord.File(io.BytesIO(data), filename=f"{army_slug(str(army['name']))}.json")


def army_slug(name: str) -> str:
    """A file name's stem for an army: lower case, words joined by hyphens."""
    return re.sub(r"[^a-z0-9]+", "-", name.casefold()).strip("-") or "army"


def export_file(name: str, roster: Mapping[str, Any]) -> discord.File:
    """An army list as the YAML file ``/army import`` takes back unchanged."""
    head = f"# {name}: upload it again with /army import file:<this file> after editing.\n"
    body = yaml.safe_dump(dict(roster), sort_keys=False, allow_unicode=True)
    return discord.File(io.BytesIO((head + body).encode()), filename=f"{army_slug(name)}.yaml")


def export_text(name: str) -> str:
    """The private note sent with an exported army list."""
    return (
        f"**{name}** as a file: edit it and upload it with `/army import` (an army of the "
        "same name replaces yours)."
    )


def template_text(ruleset: Ruleset) -> str:
    """The private note sent with the template."""
    return (
        f"The army list template for **{ruleset.name}**: every field explained. Fill it in "
        "and upload it with `/army import`."
    )


def samples_text(ruleset: Ruleset, names: list[str]) -> str:
    """The private note sent with the sample armies, or why there are none."""
    if not names:
        return (
            f"**{ruleset.name}** ships no sample armies; `/army template` gives a file with "
            "every field explained."
        )
    listed = ", ".join(f"**{n}**" for n in names)
    return (
        f"The sample armies of **{ruleset.name}**: {listed}. Edit one and upload it with "
        "`/army import`, or take one as it is with `/army sample name:<army> load:true`."
    )
