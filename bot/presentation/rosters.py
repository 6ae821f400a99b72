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
KIND_WORDS = {
    str: "text",
    int: "whole number",
    bool: "true or false",
    float: "number",
    list: "a list",
}


def field_line(spec: Field) -> str:
    """One commented line explaining a roster field: its values, whether required, its use."""
    if spec.choices:
        values = "one of " + ", ".join(spec.choices)
    else:
        values = KIND_WORDS.get(spec.kind, spec.kind.__name__)
        if spec.minimum is not None and spec.maximum is not None and spec.kind is not list:
            values += f" from {spec.minimum} to {spec.maximum}"
    need = "required" if spec.required else "optional"
    words = f" — {spec.help}" if spec.help else ""
    return f"#   {spec.name} ({need}): {values}{words}"


def example_value(spec: Field) -> Any:
    """A value the schema accepts for a field, to fill a template's example unit."""
    if spec.choices:
        return spec.choices[0]
    if spec.kind is int:
        low = spec.minimum if spec.minimum is not None else 1
        return max(low, min(4, spec.maximum if spec.maximum is not None else 4))
    if spec.kind is bool:
        return False
    return None


def example_roster(schema: RosterSchema) -> dict[str, Any]:
    """The army the template shows: the ruleset's own example, else one unit with only the
    fields it needs and its type (an optional field left out keeps the type's default)."""
    if schema.example:
        return dict(schema.example)
    unit: dict[str, Any] = {"name": "Unit 1"}
    for spec in schema.unit_fields:
        value = example_value(spec)
        if spec.name != "name" and value is not None and (spec.required or spec.name == "type"):
            unit[spec.name] = value
    return {"name": "My Army", "units": [unit]}


def section_lines(schema: RosterSchema, key: str) -> list[str]:
    """The comments explaining one top-level key of the army list and its fields."""
    if key == "units":
        return [
            f"# units (required): the army's units, one entry each (at most {schema.max_units}).",
            "# Leave a field out to keep the default its type gives. Fields of each unit:",
            *(field_line(f) for f in schema.all_unit_fields),
        ]
    if key in schema.lists:
        links = [f"{f.name}:" for f in schema.unit_fields if f"{key}:" in f.help]
        whose = f" (each unit says whose it is in its {' or '.join(links)} field)" if links else ""
        return [
            f"# {key} (optional): who commands the army, one entry each{whose}.",
            "# Fields of each entry:",
            *(field_line(f) for f in schema.lists[key]),
        ]
    if key in schema.sections:
        return [
            f"# {key} (optional): one entry. Its fields:",
            *(field_line(f) for f in schema.sections[key]),
        ]
    return [army_line(f) for f in schema.army_fields if f.name == key]


def army_line(spec: Field) -> str:
    """The comment explaining one field of the army itself."""
    return "# " + field_line(spec).removeprefix("#   ")


def roster_template(ruleset: Ruleset) -> str:
    """A YAML army list for the ruleset: an example army, each of its sections explained in
    the comments above it; it imports exactly as given."""
    schema = ruleset.roster_schema
    example = example_roster(schema)
    keys = [*example, *(k for k in (*schema.lists, *schema.sections) if k not in example)]
    lines = [
        f"# Army list template for {ruleset.name} (ruleset id {ruleset.id}).",
        "# Edit the values, save as army.yaml and upload it with /army import file:army.yaml.",
        "# Lines starting with # are comments; a field not listed here is refused.",
        "# Complete examples to start from: /army sample (download, or load:true to import one).",
        "# note (optional): any text about the army, kept with it",
        *(army_line(f) for f in schema.army_fields if f.name not in example),
    ]
    for key in keys:
        lines += ["", *section_lines(schema, key)]
        if key in example:
            shown = yaml.safe_dump({key: example[key]}, sort_keys=False, allow_unicode=True)
            lines.append(shown.rstrip("\n"))
    return "\n".join(lines) + "\n"


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
