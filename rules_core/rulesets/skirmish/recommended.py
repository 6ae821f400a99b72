"""The standing instructions an experienced skirmish player would set (``/standing
recommended``): for each question topic, the choices in order of preference."""

from __future__ import annotations

from rules_core.standing import Recommended

RECOMMENDED = (
    Recommended("initiative", ("first", "second"), "go first: strike before the enemy moves"),
    Recommended(
        "charge_response",
        ("evade", "stand"),
        "a wounded fighter evades a charge rather than fight it out",
        "wounded",
    ),
    Recommended("charge_response", ("stand", "evade"), "otherwise stand and fight the charger"),
    Recommended(
        "follow_up",
        ("halt", "follow_up"),
        "a wounded fighter halts rather than chase a fleeing enemy",
        "wounded",
    ),
    Recommended(
        "follow_up", ("follow_up", "halt"), "otherwise follow up and keep the enemy in reach"
    ),
)
