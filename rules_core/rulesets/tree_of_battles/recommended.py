"""The standing instructions an experienced player of The Tree of Battles would set
(``/standing recommended``): for each question topic, the choices in order of preference."""

from __future__ import annotations

from rules_core.standing import Recommended

RECOMMENDED = (
    Recommended(
        "charge_response",
        ("stand", "counter_charge", "evade", "break"),
        "stand to receive a charge: a unit that evades or breaks gives the ground away",
    ),
    Recommended(
        "after_combat",
        ("halt", "fall_back", "follow_up", "retire", "pursue", "break"),
        "halt after combat: the line stays in order and out of pursuits it cannot control",
    ),
    Recommended(
        "control_adjust",
        ("plus",),
        "raise a score below the free band (3-4), where the contingent acts as you wish",
        "below_free",
    ),
    Recommended(
        "control_adjust",
        ("minus",),
        "lower a score above the free band (3-4), where the contingent acts as you wish",
        "above_free",
    ),
    Recommended("control_adjust", ("none",), "leave a score already in the free band alone"),
)
