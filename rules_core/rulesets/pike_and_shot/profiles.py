"""Unit types, sample profiles, the roster schema, and the units, wings and commanders built
from an army list.

The sheet gives no base sizes or defaults: the values below are EDITABLE DEFAULTS shipped with
the bot, not the book's. A roster entry overrides any of them; a campaign may override the
sample armies.

Roster entry of a unit (``units:``): ``name``, ``type`` (``UNIT_TYPES``), ``quality`` (raw,
trained, veteran), ``wing`` (the id of a wing under ``wings:``), ``pike`` (infantry with pike),
``lance`` (lance-armed cavalry), ``armoured`` (fully armoured cavalry), ``dismounted``
(dragoons on foot), ``march_column`` (starts in march column; refused where the Movement
table's March Column is n/a), ``frontage``/``depth`` (inches).

Army list: ``wings:`` a list of ``{id, name, commander, kind, order}`` (``kind`` heroic,
politico or none; ``order`` the wing's first order, attack/hold/withdraw, default hold) and
``commander:`` ``{name, kind, with}`` (the army commander; ``with`` the wing he rides with).
"""

from __future__ import annotations

from collections.abc import Mapping

from rules_core.codec import Json, number_or
from rules_core.forces import Troops, type_defaults
from rules_core.roster import Field, RosterSchema, entries, packaged_army
from rules_core.rulesets.pike_and_shot.movement_tables import entry_problems
from rules_core.rulesets.pike_and_shot.status import DISMOUNTED
from rules_core.state import Group, Leader, Unit

QUALITIES = ("raw", "trained", "veteran")
COMMANDER_KINDS = ("heroic", "politico", "none")
WING_ORDERS = ("attack", "hold", "withdraw")
UNIT_TYPES = (
    "tercio",
    "infantry_brigade",
    "irregular_infantry",
    "detachment",
    "rabble",
    "infantry_guns",
    "field_artillery",
    "heavy_artillery",
    "cavalry_brigade",
    "double_brigade",
    "irregular_cavalry",
    "dragoons",
)
INFANTRY = frozenset({"tercio", "infantry_brigade", "irregular_infantry", "detachment", "rabble"})
ARTILLERY = frozenset({"infantry_guns", "field_artillery", "heavy_artillery"})
CAVALRY = frozenset({"cavalry_brigade", "double_brigade", "irregular_cavalry", "dragoons"})
IRREGULAR = frozenset({"irregular_infantry", "irregular_cavalry"})

# Editable defaults per unit type (not on the sheet): size class (saving dice and counting for
# General Will), mounted, pike, lance, armoured, frontage and depth in inches.
_COLUMNS = ("size", "mounted", "pike", "lance", "armoured", "frontage", "depth")
_TYPES: dict[str, tuple[Json, ...]] = {
    "tercio": ("tercio", False, True, False, False, 6.0, 4.0),
    "infantry_brigade": ("brigade", False, True, False, False, 6.0, 2.0),
    "irregular_infantry": ("brigade", False, False, False, False, 6.0, 2.0),
    "detachment": ("company", False, False, False, False, 2.0, 1.0),
    "rabble": ("brigade", False, False, False, False, 6.0, 2.0),
    "infantry_guns": ("company", False, False, False, False, 1.0, 1.0),
    "field_artillery": ("company", False, False, False, False, 2.0, 2.0),
    "heavy_artillery": ("company", False, False, False, False, 2.0, 2.0),
    "cavalry_brigade": ("brigade", True, False, False, False, 6.0, 2.0),
    "double_brigade": ("double", True, False, False, False, 8.0, 3.0),
    "irregular_cavalry": ("brigade", True, False, False, False, 6.0, 2.0),
    "dragoons": ("company", True, False, False, False, 3.0, 1.5),
}

SCHEMA = RosterSchema(
    (
        Field("name", str, required=True, help="the unit's name, unique in the army"),
        Field("type", choices=UNIT_TYPES, help="tercio, infantry_brigade, cavalry_brigade..."),
        Field("quality", choices=QUALITIES, help="raw, trained or veteran (default trained)"),
        Field("wing", str, help="id of its wing under wings:"),
        Field("pike", bool, help="infantry with pike (+1 melee die against mounted)"),
        Field("lance", bool, help="lance-armed cavalry"),
        Field("armoured", bool, help="fully armoured cavalry (cuirassiers)"),
        Field("dismounted", bool, help="dragoons fighting on foot"),
        Field(
            "march_column",
            bool,
            help="starts the battle in march column (not rabble or guns: n/a on the Movement "
            "table)",
        ),
        Field("frontage", float, minimum=1, maximum=24, help="inches wide (default by type)"),
        Field("depth", float, minimum=1, maximum=12, help="inches deep (default by type)"),
    ),
    unit_checks=(entry_problems,),
    allow_extra=False,
    lists={
        "wings": (
            Field("id", help="the wing's id, which units' wing: names (default wing1, wing2...)"),
            Field("name", help="the wing's name (default its id)"),
            Field("commander", help="its commander's name"),
            Field("kind", choices=COMMANDER_KINDS, help="the commander: heroic, politico or none"),
            Field("order", choices=WING_ORDERS, help="the wing's first order (default hold)"),
        )
    },
    sections={
        "commander": (
            Field("name", help="the army commander's name"),
            Field("kind", choices=COMMANDER_KINDS, help="heroic, politico or none"),
            Field("with", help="the id of the wing he rides with"),
        )
    },
    example={
        "name": "My Army",
        "commander": {"name": "Lord General", "kind": "none", "with": "foot"},
        "wings": [{"id": "foot", "name": "The Foot", "commander": "Colonel Hale", "order": "hold"}],
        "units": [{"name": "Blue Regiment", "type": "infantry_brigade", "wing": "foot"}],
    },
)


def profile_for(unit_type: str) -> dict[str, Json]:
    """The editable default profile of a unit type (an infantry brigade if unknown)."""
    return type_defaults(_COLUMNS, _TYPES, unit_type, "infantry_brigade")


def unit_from_entry(entry: Mapping[str, Json], unit_id: str, side: str, group: str) -> Unit:
    """A unit from a roster entry, its type's defaults overridden by the entry."""
    kind = str(entry.get("type") or "infantry_brigade")
    profile = profile_for(kind)
    for key in ("pike", "lance", "armoured", "size", "mounted"):
        if isinstance(entry.get(key), bool | str):
            profile[key] = entry[key]
    frontage = number_or(entry.get("frontage"), number_or(profile.pop("frontage"), 6.0))
    depth = number_or(entry.get("depth"), number_or(profile.pop("depth"), 2.0))
    profile.pop("frontage", None)
    profile.pop("depth", None)
    status: dict[str, Json] = {"cohesion": "sound"}
    if entry.get("dismounted") is True and kind == "dragoons":
        status["dismounted"] = True
    if entry.get("march_column") is True:
        status["march_column"] = True
    quality = str(entry.get("quality") or "trained")
    return Troops(kind, quality, frontage, depth, profile, status).unit(entry, unit_id, side, group)


def is_mounted(unit: Unit) -> bool:
    """Mounted: cavalry, and dragoons not dismounted."""
    if unit.type == "dragoons":
        return not DISMOUNTED.of(unit)
    return unit.profile.get("mounted") is True


def size_of(unit: Unit) -> str:
    """tercio, double, brigade or company."""
    value = unit.get("size")
    return value if isinstance(value, str) and value else "brigade"


def is_company(unit: Unit) -> bool:
    """A company, detachment or other sub-unit."""
    return size_of(unit) == "company"


def brigades_worth(unit: Unit) -> int:
    """How many brigades a unit counts as for General Will: a tercio or a double brigade
    counts two, a brigade one, a company none."""
    return {"tercio": 2, "double": 2, "brigade": 1}.get(size_of(unit), 0)


# -- wings and commanders -------------------------------------------------------------------


def wing_group(side: str, wing_key: str) -> str:
    """The group id of a wing (by its army-list id) on the table."""
    return f"{side}_{wing_key}"


def group_of(entry: Mapping[str, Json], side: str, default: str) -> str:
    """The wing a unit entry names, else ``default``."""
    key = entry.get("wing")
    return wing_group(side, key) if isinstance(key, str) and key else default


def _kind(value: Json) -> str:
    return value if value in ("heroic", "politico") else ""


def forces(roster: Mapping[str, Json], side: str) -> tuple[tuple[Group, ...], tuple[Leader, ...]]:
    """The wings (each led by its commander) and the commanders of an army list."""
    groups: list[Group] = []
    leaders: list[Leader] = []
    for index, entry in enumerate(entries(roster, "wings"), start=1):
        key = str(entry.get("id") or f"wing{index}")
        group_id = wing_group(side, key)
        order = entry.get("order") if entry.get("order") in WING_ORDERS else "hold"
        leader_id = f"{side}_{key}_cmdr"
        name = str(entry.get("commander") or f"Commander of the {entry.get('name') or key}")
        leaders.append(
            Leader(
                leader_id,
                name,
                side,
                group_id,
                0.0,
                0.0,
                status={"rank": "wing", "kind": _kind(entry.get("kind"))},
            )
        )
        label = str(entry.get("name") or key)
        groups.append(Group(group_id, label, side, "wing", leader_id, {"wing_order": order}))
    data = roster.get("commander")
    if isinstance(data, Mapping):
        home = data.get("with")
        group = wing_group(side, str(home)) if isinstance(home, str) and home else None
        leaders.append(
            Leader(
                f"{side}_general",
                str(data.get("name") or "Army commander"),
                side,
                group,
                0.0,
                0.0,
                status={"rank": "army", "kind": _kind(data.get("kind"))},
            )
        )
    return tuple(groups), tuple(leaders)


SAMPLE_ARMIES = ("royalists", "parliament")


def load_army(name: str) -> dict[str, Json]:
    """A sample army file (``royalists`` or ``parliament``) as plain data."""
    return packaged_army("rules_core.rulesets.pike_and_shot", name)
