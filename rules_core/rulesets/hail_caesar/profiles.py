"""Unit profiles, the roster schema and the sample armies.

The stat lines are not on the sheet: they are profile fields of each roster entry. The values
in ``SAMPLE_PROFILES`` are editable defaults (typical values for each troop type), labelled so,
and any roster entry or campaign may override every one of them.
"""

from __future__ import annotations

from collections.abc import Mapping
from importlib.resources import files
from typing import Any

import yaml

from rules_core.codec import Json
from rules_core.forces import Troops
from rules_core.roster import Field, RosterSchema
from rules_core.rulesets.hail_caesar.status import RANK
from rules_core.rulesets.hail_caesar.tables import RANGE_TABLE, ROSTER_TYPES
from rules_core.state import Leader, Unit

SIZES = ("large", "standard", "small", "tiny")
FORMATIONS = ("line", "column", "square", "testudo", "wedge", "open_order")
WEAPONS = ("none", *RANGE_TABLE.rows)
PROFILE_KEYS = ("clash", "sustained", "short", "long", "morale", "stamina", "elite", "weapon")
ARMIES = files("rules_core.rulesets.hail_caesar").joinpath("armies")
RANKS = tuple(value.value for value in RANK.values)  # general, army (the commander)
# The order test is 2D6 against Leadership: from 5 (a poor general) to 10 (a great one).
LEADERSHIP = (5, 10)
STAMINA_MAX = 12


# Editable defaults: typical stat lines by troop type (clash, sustained, short, long,
# morale save, stamina). Not from the sheet; a roster entry's own values win.
def _stats(
    clash: int, sustained: int, short: int, long: int, morale: int, stamina: int
) -> dict[str, Json]:
    """One stat line as profile fields."""
    return {
        "clash": clash,
        "sustained": sustained,
        "short": short,
        "long": long,
        "morale": morale,
        "stamina": stamina,
    }


# type               clash, sustained, short, long, morale save, stamina
SAMPLE_PROFILES: Mapping[str, Mapping[str, Json]] = {
    "heavy_infantry": _stats(7, 7, 3, 0, 4, 6),
    "medium_infantry": _stats(6, 6, 2, 0, 4, 6),
    "light_infantry": _stats(5, 5, 3, 0, 5, 6),
    "infantry": _stats(6, 6, 2, 0, 5, 6),
    "skirmishers": _stats(2, 2, 2, 2, 0, 4),
    "cavalry": _stats(8, 6, 0, 0, 4, 6),
    "light_cavalry": _stats(5, 4, 2, 0, 0, 6),
    "horse_archers": _stats(5, 4, 3, 3, 0, 6),
    "cataphracts": _stats(9, 6, 0, 0, 3, 6),
    "elephants": _stats(6, 4, 2, 0, 4, 4),
    "heavy_chariots": _stats(8, 6, 2, 0, 4, 6),
    "light_chariots": _stats(6, 4, 3, 3, 5, 6),
    "artillery": _stats(1, 1, 1, 1, 0, 3),
    "baggage": _stats(1, 1, 0, 0, 0, 3),
    "wagons": _stats(1, 1, 0, 0, 0, 3),
}

# Frontage by unit size and depth by troop type, in inches (editable defaults).
FRONTAGE = {"large": 8.0, "standard": 6.0, "small": 4.0, "tiny": 3.0}
DEPTH = {"cavalry": 3.0, "infantry": 2.0}
OPEN_BY_DEFAULT = frozenset({"skirmishers", "light_cavalry", "horse_archers"})
MOUNTED = frozenset(
    {"cavalry", "light_cavalry", "horse_archers", "cataphracts", "elephants"}
    | {"heavy_chariots", "light_chariots"}
)


def _count(name: str, top: int, help: str) -> Field:
    return Field(name, int, minimum=0, maximum=top, help=help)


SCHEMA = RosterSchema(
    (
        Field("name", str, required=True, help="the unit's name, unique in the army"),
        Field("type", choices=ROSTER_TYPES, help="troop type; sets the sample stat line"),
        Field("size", choices=SIZES, help="unit size (default standard)"),
        Field("formation", choices=FORMATIONS, help="starting formation"),
        Field("division", help="id of the division: a leader's division under leaders:"),
        _count("clash", 20, "hand-to-hand attacks when charging"),
        _count("sustained", 20, "hand-to-hand attacks after the first round"),
        _count("short", 20, "shooting attacks at short range"),
        _count("long", 20, "shooting attacks at long range"),
        _count("morale", 6, "morale save: 4 means 4+, 0 none"),
        Field("stamina", int, minimum=1, maximum=STAMINA_MAX, help="casualties before shaken"),
        _count("elite", 6, "elite: a disordered unit rallies on this or more (0 none)"),
        Field("weapon", choices=WEAPONS, help="missile weapon"),
        Field("shields", bool, help="large shields"),
        _count("casualties", STAMINA_MAX * 4, "written by the bot: casualties in its last battle"),
    ),
    allow_extra=False,
    lists={
        "leaders": (
            Field("name", str, required=True, help="the general's name"),
            Field("id", help="his id in the army list (default general1, general2...)"),
            Field("rank", choices=RANKS, help="army: the commander-in-chief (default general)"),
            Field(
                "leadership",
                int,
                minimum=LEADERSHIP[0],
                maximum=LEADERSHIP[1],
                help="the order test's target on 2D6 (default the campaign's, 8)",
            ),
            Field("division", help="the division he commands: the id its units give"),
        )
    },
    example={
        "name": "My Army",
        "leaders": [
            {"name": "Legate Marcus", "rank": "army", "leadership": 8, "division": "legion"}
        ],
        "units": [
            {"name": "Cohort I", "type": "heavy_infantry", "division": "legion", "shields": True}
        ],
    },
)


def profile_for(entry: Mapping[str, Json]) -> dict[str, Json]:
    """A unit's profile: the sample values of its type, overridden by the roster entry."""
    kind = str(entry.get("type") or "infantry")
    profile: dict[str, Json] = {**SAMPLE_PROFILES.get(kind, SAMPLE_PROFILES["infantry"])}
    profile.update({"size": "standard", "elite": 0, "weapon": "none", "shields": False})
    profile.update({key: entry[key] for key in (*PROFILE_KEYS, "size", "shields") if key in entry})
    return profile


def unit_from_entry(entry: Mapping[str, Json], unit_id: str, side: str, group: str) -> Unit:
    """A Hail Caesar unit built from one roster entry, not yet placed."""
    kind = str(entry.get("type") or "infantry")
    profile = profile_for(entry)
    size = str(profile["size"])
    default_formation = "open_order" if kind in OPEN_BY_DEFAULT else "line"
    depth = DEPTH["cavalry" if kind in MOUNTED else "infantry"]
    formation = str(entry.get("formation") or default_formation)
    frontage = FRONTAGE.get(size, 6.0)
    troops = Troops(kind, "", frontage, depth, profile, {"casualties": 0}, formation=formation)
    return troops.unit(entry, unit_id, side, group)


def leader_from_entry(entry: Mapping[str, Json], side: str) -> Leader:
    """A general from an army file: Leadership is held in ``points``, rank in status."""
    leadership = entry.get("leadership", 8)
    assert isinstance(leadership, int)
    return Leader(
        str(entry["id"]),
        str(entry["name"]),
        side,
        str(entry.get("division") or "") or None,
        0.0,
        0.0,
        points=leadership,
        status={"rank": str(entry.get("rank") or "general")},
    )


def load_army(name: str) -> dict[str, Any]:
    """A sample army (``romans`` or ``gauls``) as roster data, read from the package."""
    text = ARMIES.joinpath(f"{name}.yaml").read_text(encoding="utf-8")
    data = yaml.safe_load(text)
    assert isinstance(data, dict)
    return data
