"""Unit types, sample profiles, the roster schema and the units and leaders built from it.

The sheet gives no starting values (LPs, aggression levels, stands, which units shoot): they are
fields of each roster entry. The values below are EDITABLE DEFAULTS shipped with the bot, not the
book's; a roster entry overrides any of them and a campaign may override the sample armies.

Roster entry of a unit: ``name``, ``type`` (retinue, follower_band, camp_followers), ``grade``
A-D, ``stands``, ``aggression`` (its starting level), ``missile`` (it shoots in the missile
exchange), ``mounted``, ``contingent`` (the army-list id of the leader whose contingent it is in).

Roster entry of a leader (``leaders:``): ``id``, ``name``, ``lps`` (leadership points),
``with`` (the unit he stands with), ``cinc`` (the commander-in-chief), ``special_weapon``,
``heroic_champion``, ``holy_person``, ``battle_standard`` (flags read by the rules, the god pack
and personal combat).
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from rules_core.codec import Json, number_or
from rules_core.forces import Troops, listed_leader, type_defaults
from rules_core.roster import Field, RosterSchema, leader_fields, packaged_army
from rules_core.state import Leader, Unit

GRADES = ("A", "B", "C", "D")
AGGRESSION_LEVELS = ("shaken", "present", "ready for battle", "blood lust")  # low to high
UNIT_TYPES = ("retinue", "follower_band", "camp_followers")
LEADER_FLAGS = ("cinc", "special_weapon", "heroic_champion", "holy_person", "battle_standard")
FLAG_HELP = {
    "cinc": "the commander-in-chief",
    "special_weapon": "carries a special weapon",
    "heroic_champion": "a heroic champion",
    "holy_person": "a holy person",
    "battle_standard": "carries the battle standard",
}
# Leadership points a leader starts with: 0 LPs is a leader killed, so from 1 to 6 (editable
# bound, not the sheet's).
LPS = (1, 6)

# Editable defaults per unit type (not from the sheet): grade, stands, ranks, stand width and
# depth in inches, starting aggression level, shoots, mounted.
_COLUMNS = (
    "grade",
    "stands",
    "ranks",
    "stand_width",
    "stand_depth",
    "aggression",
    "missile",
    "mounted",
)
_TYPES: dict[str, tuple[Json, ...]] = {
    "retinue": ("B", 4, 2, 1.5, 1.0, "ready for battle", False, False),
    "follower_band": ("C", 6, 2, 1.5, 1.0, "present", False, False),
    "camp_followers": ("D", 2, 1, 1.5, 1.0, "present", False, False),
}

SCHEMA = RosterSchema(
    (
        Field("name", str, required=True, help="the unit's name, unique in the army"),
        Field("type", choices=UNIT_TYPES, help="retinue, follower band or camp followers"),
        Field("grade", choices=GRADES, help="A best to D worst (default by type)"),
        Field("stands", int, minimum=1, maximum=50, help="stands (default by type)"),
        Field("ranks", int, minimum=1, maximum=8, help="ranks deep (default 2)"),
        Field("aggression", choices=AGGRESSION_LEVELS, help="starting aggression level"),
        Field("missile", bool, help="shoots in the missile exchange (archers, javelins)"),
        Field("mounted", bool, help="mounted"),
        Field("contingent", str, help="id of the leader (under leaders:) whose contingent it is"),
    ),
    allow_extra=False,
    lists={
        "leaders": leader_fields(
            "contingent",
            Field("lps", int, minimum=LPS[0], maximum=LPS[1], help="leadership points (default 3)"),
            *(Field(flag, bool, help=FLAG_HELP[flag]) for flag in LEADER_FLAGS),
        )
    },
    example={
        "name": "My Warband",
        "leaders": [
            {"id": "osric", "name": "Osric", "lps": 4, "cinc": True, "with": "Hearthguard"}
        ],
        "units": [{"name": "Hearthguard", "type": "retinue", "contingent": "osric"}],
    },
)


def profile_for(unit_type: str) -> dict[str, Json]:
    """The editable default profile of a unit type (a follower band if not given)."""
    return type_defaults(_COLUMNS, _TYPES, unit_type, "follower_band")


def unit_from_entry(entry: Mapping[str, Json], unit_id: str, side: str, group: str) -> Unit:
    """A unit from a roster entry: stands in ``ranks`` ranks, one stand width each."""
    kind = str(entry.get("type") or "follower_band")
    profile = profile_for(kind)
    profile.update({key: entry[key] for key in _COLUMNS if key in entry and entry[key] is not None})
    stands = int(number_or(profile.pop("stands"), 4))
    ranks = max(1, min(int(number_or(profile["ranks"], 1)), stands))
    profile["ranks"] = ranks
    grade = str(profile.pop("grade") or "C")
    aggression = str(profile.pop("aggression") or "present")
    width = number_or(profile["stand_width"], 1.5) * math.ceil(stands / ranks)
    depth = number_or(profile["stand_depth"], 1.0) * ranks
    troops = Troops(kind, grade, width, depth, profile, fresh_status(aggression), stands=stands)
    return troops.unit(entry, unit_id, side, group)


def fresh_status(aggression: str) -> dict[str, Json]:
    """The status a unit starts the battle with."""
    return {"aggression": aggression, "dps": 0, "casualties": 0, "unformed": False}


def leader_from_entry(entry: Mapping[str, Json], side: str, group: str) -> Leader:
    """A leader from an army file's ``leaders`` list: LPs and his flags."""
    status: dict[str, Json] = {flag: bool(entry.get(flag, False)) for flag in LEADER_FLAGS}
    points = int(number_or(entry.get("lps"), 3))
    return listed_leader(entry, side, group, points, status)


SAMPLE_ARMIES = ("saxons", "danes")


def load_army(name: str) -> dict[str, Json]:
    """A sample army file (``saxons`` or ``danes``) as plain data."""
    return packaged_army("rules_core.rulesets.heroic_age", name)
