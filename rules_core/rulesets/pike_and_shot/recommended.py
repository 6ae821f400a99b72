"""The standing instructions an experienced pike-and-shot player would set (``/standing
recommended``): for each question topic, the choices in order of preference."""

from __future__ import annotations

from rules_core.standing import Recommended

RECOMMENDED = (
    Recommended(
        "advance_into",
        ("advance", "stay"),
        "advance into ground the enemy gave up: it keeps the pressure on and the line closed",
    ),
    Recommended(
        "advance_facing",
        ("face_enemy", "keep", "left", "right"),
        "after advancing, turn to face the nearest enemy so no one takes the unit in a flank",
    ),
    Recommended(
        "break_off",
        ("break_off", "remain"),
        "cavalry break off from a stand-off with infantry: horse wins by charging, not standing",
    ),
)
