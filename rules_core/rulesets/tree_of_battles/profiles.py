"""Troop types, their sample profiles, the roster schema and the units and leaders built from it.

Combat factors, armour classes and stand depths are not on the sheet: they are fields of each
unit's profile. The values below are EDITABLE DEFAULTS shipped with the bot, not the book's;
a roster entry overrides any of them.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from rules_core.codec import Json, number_or
from rules_core.forces import Troops, listed_leader, type_defaults
from rules_core.roster import Field, RosterSchema, leader_fields, packaged_army
from rules_core.rulesets.tree_of_battles.status import RANK
from rules_core.state import Leader, Unit

GRADES = ("A", "B", "C", "D")
ARRAYS = ("good", "column", "skirmish", "square", "disarray")
ARMOUR = ("unarmoured", "armoured", "full_harness")
MISSILES = ("none", "archers", "crossbowmen", "hand_gunners", "skirmishers", "artillery")
RANKS = tuple(value.value for value in RANK.values)  # captain, marshal
# Command points a leader starts with: the sheet's actions cost 1 or 2 CPs, and a noble counts
# 4 or more as many; a leader is given from 1 to 6 (editable bound, not the sheet's).
CPS = (1, 6)

# Editable defaults per troop type (not from the sheet): mounted, missile, combat factor,
# armour, chivalrous, array, ranks, stand depth in SF.
_COLUMNS = (
    "mounted",
    "missile",
    "combat_factor",
    "armour",
    "chivalrous",
    "array",
    "ranks",
    "stand_depth",
)
_TYPES: dict[str, tuple[Json, ...]] = {
    "men_at_arms": (True, "none", 3, "full_harness", True, "good", 1, 1.0),
    "dismounted_men_at_arms": (False, "none", 3, "full_harness", True, "good", 2, 0.5),
    "billmen": (False, "none", 2, "armoured", False, "good", 2, 0.5),
    "spearmen": (False, "none", 2, "armoured", False, "good", 2, 0.5),
    "pikemen": (False, "none", 1, "armoured", False, "good", 2, 0.5),
    "archers": (False, "archers", 1, "unarmoured", False, "good", 1, 0.5),
    "crossbowmen": (False, "crossbowmen", 1, "armoured", False, "good", 1, 0.5),
    "hand_gunners": (False, "hand_gunners", 0, "unarmoured", False, "good", 1, 0.5),
    "light_infantry": (False, "none", 1, "unarmoured", False, "good", 1, 0.5),
    "foot_skirmishers": (False, "skirmishers", 0, "unarmoured", False, "skirmish", 1, 0.5),
    "light_horse": (True, "none", 1, "unarmoured", False, "good", 1, 1.0),
    "mounted_skirmishers": (True, "skirmishers", 0, "unarmoured", False, "skirmish", 1, 1.0),
    "artillery": (False, "artillery", 0, "unarmoured", False, "good", 1, 1.0),
    "baggage": (False, "none", 0, "unarmoured", False, "good", 1, 1.0),
}
TROOP_TYPES = tuple(_TYPES)
SKIRMISHER_TYPES = ("foot_skirmishers", "mounted_skirmishers")
LIGHT_TYPES = ("light_infantry", "light_horse")

SCHEMA = RosterSchema(
    (
        Field("name", str, required=True, help="the contingent's name, unique in the army"),
        Field("type", choices=TROOP_TYPES, help="troop type; sets the default profile"),
        Field("grade", choices=GRADES, help="A best to D worst (default C)"),
        Field("stands", int, minimum=1, maximum=50, help="stands (default 4)"),
        Field("ranks", int, minimum=1, maximum=8, help="ranks deep (default by type)"),
        Field("combat_factor", int, minimum=-3, maximum=9, help="overrides the type's factor"),
        Field("armour", choices=ARMOUR, help="overrides the type's armour"),
        Field("missile", choices=MISSILES, help="overrides the type's missile weapon"),
        Field("array", choices=ARRAYS, help="starting array (default good order)"),
        Field("chivalrous", bool, help="chivalrous knights (must charge)"),
        Field("mercenary", bool, help="mercenaries"),
        Field("mounted", bool, help="overrides whether the type is mounted"),
        Field("battle", str, help="id of the leader (under leaders:) whose battle it is in"),
    ),
    allow_extra=False,
    lists={
        "leaders": leader_fields(
            "battle",
            Field("rank", choices=RANKS, help="captain, or marshal (commands 2 SF around him)"),
            Field("cps", int, minimum=CPS[0], maximum=CPS[1], help="command points (default 2)"),
            Field("noble", bool, help="a noble (default true)"),
        )
    },
    example={
        "name": "My Army",
        "leaders": [
            {"id": "lord", "name": "Lord Thomas", "rank": "marshal", "cps": 3, "with": "Retinue"}
        ],
        "units": [
            {"name": "Retinue", "type": "dismounted_men_at_arms", "grade": "B", "battle": "lord"}
        ],
    },
)


def profile_for(troop_type: str) -> dict[str, Json]:
    """The editable default profile of a troop type (billmen if the type is not given)."""
    return type_defaults(_COLUMNS, _TYPES, troop_type, "billmen")


def unit_from_entry(entry: Mapping[str, Json], unit_id: str, side: str, group: str) -> Unit:
    """A contingent from a roster entry: one SF of frontage per stand in its front rank."""
    kind = str(entry.get("type") or "billmen")
    profile = profile_for(kind)
    profile.update({key: entry[key] for key in _COLUMNS if key in entry})
    profile["mercenary"] = bool(entry.get("mercenary", False))
    stands = int(number_or(entry.get("stands"), 4))
    ranks = max(1, min(int(number_or(profile["ranks"], 1)), stands))
    profile["ranks"] = ranks
    array = str(profile.pop("array"))
    depth = ranks * number_or(profile["stand_depth"], 0.5)
    grade = str(entry.get("grade") or "C")
    frontage = float(math.ceil(stands / ranks))
    troops = Troops(kind, grade, frontage, depth, profile, fresh_status(array), stands, array)
    return troops.unit(entry, unit_id, side, group)


def fresh_status(array: str) -> dict[str, Json]:
    """The status a contingent starts the battle with."""
    return {
        "array": array,
        "dps": 0,
        "casualties": 0,
        "broken": False,
        "pursuing": False,
        "looting": False,
        "control": None,
        "response": None,
        "last_target": None,
        "last_range": None,
        "stationary": True,
        "shot_at": False,
        "shooting_dps": 0,
        "in_combat": False,
    }


def leader_from_entry(entry: Mapping[str, Json], side: str, group: str) -> Leader:
    """A leader from an army file's ``leaders`` list: rank (captain or marshal), CPs, noble."""
    rank = str(entry.get("rank") or "captain")
    status: dict[str, Json] = {"rank": rank if rank in RANKS else "captain"}
    status["noble"] = bool(entry.get("noble", True))
    points = int(number_or(entry.get("cps"), 2))
    return listed_leader(entry, side, group, points, status)


SAMPLE_ARMIES = ("english", "french")


def load_army(name: str) -> dict[str, Json]:
    """A sample army file (``english`` or ``french``) as plain data."""
    return packaged_army("rules_core.rulesets.tree_of_battles", name)
