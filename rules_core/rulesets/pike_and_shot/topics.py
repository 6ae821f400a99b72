"""The questions the pike-and-shot rules ask again and again, for standing instructions.

Combat adds its own (cavalry breaking off) in ``combat.TOPICS``.
"""

from __future__ import annotations

from rules_core.standing import Topic

ADVANCE = "advance_into"
ADVANCE_FACING = "advance_facing"
ADVANCE_WORDS = {"advance": "advance into the vacated ground", "stay": "stay where it is"}
RISK = "commander_risk"
RISK_WORDS = {
    "unharmed": "unharmed",
    "wounded": "wounded",
    "killed": "killed",
    "off_table": "carried off the table",
}
REPLACE = "replace_commander"
REPLACE_WORDS = {"replace": "replace him now", "wait": "not this turn"}
FACING_WORDS = {
    "face_enemy": "turn to face the nearest enemy",
    "keep": "keep its facing",
    "left": "turn 90° left",
    "right": "turn 90° right",
}

TOPICS = (
    Topic.of(ADVANCE, "advance into ground an enemy vacated, or stay", ADVANCE_WORDS),
    Topic.of(
        ADVANCE_FACING, "the facing a unit takes after advancing into vacated ground", FACING_WORDS
    ),
    # The GM's rulings (standing instructions are for sides: these are never answered ahead).
    Topic.of(
        RISK, "GM: what befalls a commander hit by the risk to commanders", RISK_WORDS, gm=True
    ),
    Topic.of(REPLACE, "GM: replace a lost commander now", REPLACE_WORDS, gm=True),
)
