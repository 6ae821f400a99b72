"""Troop types, the roster schema, sample profiles and the units and generals built from them.

The sheet prints no unit values (VBU, impetus, discipline): they are fields of each roster
entry. The defaults below are EDITABLE DEFAULTS shipped with the bot, not the book's army
lists; a roster entry overrides any of them and a campaign may override the sample armies.

Roster entry of a unit: ``name``, ``type`` (FP ... ART), ``vbu``, ``impetus``, ``discipline``
(A, B, C), ``impetuous``, ``missile`` (its shooting weapon), ``weapons`` (melee weapons,
comma-separated: pike, long_spear, polearm, pilum, pbw), ``large`` (a large unit),
``command`` (the id of the general, under ``generals:``, whose command it is in).

Roster entry of a general (``generals:``): ``id``, ``name``, ``type`` (Genius ...
Incompetent), ``traits`` (comma-separated: Brave, Severe, Confident, Cavalry), ``with`` (the
unit he is attached to). Army fields: ``name``, ``command_structure`` (good, average, poor),
``fortifications`` (the pieces it may place at pre-battle step 5; silent: the battle's
``fortification_pieces``).

Geometry: a base is 2H wide (H is half a base width); depths by type are editable defaults.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from rules_core.codec import Json, number_or
from rules_core.forces import Troops, type_defaults
from rules_core.roster import Field, RosterSchema, leader_fields, packaged_army
from rules_core.rulesets.impetus.status import COMMAND_STRUCTURES, GENERAL_TYPES, TRAITS
from rules_core.shared_status import LOSSES
from rules_core.state import Leader, Unit

TYPES = ("FP", "FL", "S", "T", "CP1", "CP2", "CM", "CL", "CGP", "CGL", "CF", "EL", "W", "ART")
MOUNTED = frozenset({"CP1", "CP2", "CM", "CL", "CGP", "CGL", "CF", "EL", "W"})
FOOT = frozenset({"FP", "FL", "S", "T"})
CHARIOTS = frozenset({"CGP", "CGL", "CF"})
DISCIPLINES = ("A", "B", "C")
MISSILES = (
    "long_bow",
    "short_bow",
    "composite_bow",
    "crossbow",
    "handgun",
    "arquebus",
    "musket",
    "javelin",
    "sling",
    "artillery",
    "various",
)
MELEE_WEAPONS = ("pike", "long_spear", "polearm", "pilum", "pbw")
FLAGS = ("impetuous", "large", "camels", "stakes", "pavise")  # yes-or-no profile fields
BASE_WIDTH = 2.0  # H: one base is two H wide (H is half a base width)

# Editable defaults per troop type (not the book's): VBU, impetus, discipline, base depth in H,
# shooting weapon.
_COLUMNS = ("vbu", "impetus", "discipline", "depth", "missile")
_DEFAULTS: dict[str, tuple[Json, ...]] = {
    "FP": (6, 1, "B", 1.0, ""),
    "FL": (5, 1, "B", 1.0, ""),
    "S": (3, 0, "B", 1.0, "javelin"),
    "T": (4, 0, "B", 1.0, "short_bow"),
    "CP1": (6, 3, "B", 1.5, ""),
    "CP2": (5, 3, "B", 1.5, ""),
    "CM": (5, 2, "B", 1.5, ""),
    "CL": (4, 1, "B", 1.5, "javelin"),
    "CGP": (6, 3, "B", 2.0, ""),
    "CGL": (5, 2, "B", 2.0, "composite_bow"),
    "CF": (4, 4, "C", 2.0, ""),
    "EL": (6, 4, "C", 2.0, ""),
    "W": (6, 0, "B", 2.0, "handgun"),
    "ART": (3, 0, "B", 1.5, "artillery"),
}


def names_of(allowed: tuple[str, ...]) -> Callable[[object], str | None]:
    """A check of comma-separated (or listed) names, each one of ``allowed`` (in any case)."""
    known = {name.lower() for name in allowed}

    def check(value: object) -> str | None:
        """Why the names are not all allowed, or None."""
        if not isinstance(value, str | list):
            return f"must be names separated by commas: {', '.join(allowed)}"
        items = value if isinstance(value, list) else value.split(",")
        given = [str(item).strip() for item in items if str(item).strip()]
        wrong = [w for w in given if w.lower().replace(" ", "_") not in known]
        return f"{', '.join(wrong)}: not one of {', '.join(allowed)}" if wrong else None

    return check


SCHEMA = RosterSchema(
    (
        Field("name", str, required=True, help="the unit's name, unique in the army"),
        Field("type", choices=TYPES, required=True, help="troop type (FP, FL, S, T, CP1 ...)"),
        Field("vbu", int, minimum=1, maximum=20, help="VBU at full strength (default by type)"),
        Field("impetus", int, minimum=0, maximum=10, help="impetus bonus (default by type)"),
        Field("discipline", choices=DISCIPLINES, help="discipline class A, B or C"),
        Field("impetuous", bool, help="impetuous"),
        Field("missile", choices=MISSILES, help="shooting weapon (long_bow, javelin, ...)"),
        Field(
            "weapons",
            help="melee weapons, separated by commas: pike, long_spear, polearm, pilum, pbw",
            check=names_of(MELEE_WEAPONS),
        ),
        Field("large", bool, help="a large unit"),
        Field("missile_class", choices=("A", "B", "C"), help="its shooting class (default B)"),
        Field("camels", bool, help="mounted on camels"),
        Field("stakes", bool, help="protected by stakes"),
        Field("pavise", bool, help="protected by pavises"),
        Field("command", str, help="id of the general (under generals:) commanding it"),
    ),
    army_fields=(
        Field("name", str, required=True),
        Field("command_structure", choices=COMMAND_STRUCTURES, help="good, average or poor"),
        Field(
            "fortifications",
            int,
            minimum=0,
            maximum=10,
            help="fortification pieces it may place before the battle (default: the "
            "battle's fortification_pieces)",
        ),
    ),
    allow_extra=False,
    lists={
        "generals": leader_fields(
            "command",
            Field("type", choices=GENERAL_TYPES, help="his quality (default Reliable)"),
            Field(
                "traits",
                help="separated by commas: " + ", ".join(TRAITS),
                check=names_of(TRAITS),
            ),
        )
    },
    example={
        "name": "My Army",
        "command_structure": "average",
        "generals": [
            {"id": "legate", "name": "Legate Marcus", "type": "Reliable", "with": "Legio X"}
        ],
        "units": [{"name": "Legio X", "type": "FP", "weapons": "pilum", "command": "legate"}],
    },
)


def profile_for(troop_type: str) -> dict[str, Json]:
    """The editable default profile of a troop type (FP if unknown)."""
    return type_defaults(_COLUMNS, _DEFAULTS, troop_type, "FP")


def unit_from_entry(entry: Mapping[str, Json], unit_id: str, side: str, group: str) -> Unit:
    """A unit from a roster entry: one base 2H wide, its depth by type (twice for an LU)."""
    kind = str(entry.get("type") or "FP")
    profile = profile_for(kind)
    for key in (*_COLUMNS, *FLAGS, "missile_class"):
        if key in entry and entry[key] is not None:
            profile[key] = entry[key]
    profile["type"] = kind
    for flag in FLAGS:
        profile[flag] = bool(profile.get(flag, False))
    profile["weapons"] = list(_listed(entry.get("weapons"), MELEE_WEAPONS))
    depth = number_or(profile.pop("depth"), 1.0) * (2 if profile["large"] else 1)
    discipline = str(profile["discipline"] or "B")
    status: dict[str, Json] = {"losses": 0, "freshness": "fresh", "disordered": False}
    return Troops(kind, discipline, BASE_WIDTH, depth, profile, status).unit(
        entry, unit_id, side, group
    )


def general_from_entry(entry: Mapping[str, Json], leader_id: str, side: str, group: str) -> Leader:
    """A general from an army file's ``generals`` list: his type and traits."""
    kind = str(entry.get("type") or "Reliable").capitalize()
    if kind not in GENERAL_TYPES:
        kind = "Reliable"
    traits: list[Json] = list(_listed(entry.get("traits"), TRAITS, capitalise=True))
    status: dict[str, Json] = {"general_type": kind, "traits": traits, "killed": False}
    return Leader(leader_id, str(entry["name"]), side, group, 0.0, 0.0, status=status)


def _listed(value: Json, allowed: tuple[str, ...], *, capitalise: bool = False) -> tuple[str, ...]:
    """Comma-separated (or listed) names, those that are allowed, in the order given."""
    items = value if isinstance(value, list) else str(value or "").split(",")
    out = []
    for item in items:
        word = str(item).strip().lower().replace(" ", "_")
        if capitalise:
            word = word.capitalize()
        if word in allowed and word not in out:
            out.append(word)
    return tuple(out)


# -- reading a unit's profile ---------------------------------------------------------------------


def troop_type(unit: Unit) -> str:
    """FP, FL, S, T, CP1, CP2, CM, CL, CGP, CGL, CF, EL, W or ART."""
    return unit.type


def mounted(unit: Unit) -> bool:
    """Mounted troops (cavalry, chariots, elephants, wagons)."""
    return unit.type in MOUNTED


def foot(unit: Unit) -> bool:
    """Foot troops (FP, FL, S, T)."""
    return unit.type in FOOT


def vbu(unit: Unit) -> int:
    """Its VBU at full strength."""
    return int(number_or(unit.profile.get("vbu"), 1))


def current_vbu(unit: Unit) -> int:
    """Its VBU less its losses (0: gone)."""
    return max(0, vbu(unit) - LOSSES.of(unit))


def impetus(unit: Unit) -> int:
    """Its impetus bonus."""
    return int(number_or(unit.profile.get("impetus"), 0))


def discipline(unit: Unit) -> str:
    """Its discipline class, A (best), B or C."""
    return unit.quality if unit.quality in DISCIPLINES else "B"


def impetuous(unit: Unit) -> bool:
    """Impetuous troops."""
    return unit.profile.get("impetuous") is True


def large(unit: Unit) -> bool:
    """A large unit."""
    return unit.profile.get("large") is True


def missile(unit: Unit) -> str:
    """Its shooting weapon, or ""."""
    value = unit.profile.get("missile")
    return value if isinstance(value, str) else ""


def missile_class(unit: Unit) -> str:
    """Its shooting class: the profile's ``missile_class`` (A, B, C), default B."""
    return str(unit.profile.get("missile_class") or "B")


def weapons(unit: Unit) -> tuple[str, ...]:
    """Its melee weapons (pike, long_spear, polearm, pilum, pbw)."""
    value = unit.profile.get("weapons")
    return tuple(str(w) for w in value) if isinstance(value, list) else ()


SAMPLE_ARMIES = ("romans", "gauls")


def load_army(name: str) -> dict[str, Json]:
    """A sample army file (``romans`` or ``gauls``) as plain data."""
    return packaged_army("rules_core.rulesets.impetus", name)
