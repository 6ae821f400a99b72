"""The questions The Tree of Battles asks again and again, for standing instructions."""

from __future__ import annotations

from rules_core.decisions import Decision
from rules_core.rulesets.tree_of_battles import measure
from rules_core.rulesets.tree_of_battles import units as u
from rules_core.standing import Condition, Topic, when_other, when_unit
from rules_core.state import BattleState

CHARGE_RESPONSE = "charge_response"
AFTER_COMBAT = "after_combat"
CONTROL_ADJUST = "control_adjust"
TREACHERY = "treachery"

RESPONSE_WORDS = {
    "stand": "stand to receive",
    "evade": "evade",
    "counter_charge": "counter-charge",
    "break": "break",
}
AFTER_WORDS = {
    "halt": "halt",
    "fall_back": "fall back",
    "follow_up": "follow up",
    "retire": "retire",
    "break": "break",
    "pursue": "pursue",
}
ADJUST_WORDS = {"plus": "raise the score", "minus": "lower the score", "none": "no change"}
TREACHERY_WORDS = {"loyal": "stays loyal", "leaves": "leaves the field", "defects": "changes sides"}


def _flank_or_rear(state: BattleState, decision: Decision) -> bool:
    """The charger comes at the question's unit from a flank or the rear."""
    target, charger = state.unit(decision.unit), state.unit(decision.other)
    return measure.quarter_of(target, charger) != "front"


def _in_difficult(state: BattleState, decision: Decision) -> bool:
    """The question's unit stands in difficult ground."""
    unit = state.unit(decision.unit)
    return bool(measure.areas_at(state, (unit.x, unit.y)) & measure.DIFFICULT)


BY_MOUNTED = Condition("by_mounted", "if the enemy is mounted", when_other(u.mounted))
BY_FOOT = Condition("by_foot", "if the enemy is on foot", when_other(lambda o: not u.mounted(o)))
BY_SKIRMISHERS = Condition(
    "by_skirmishers", "if the enemy are skirmishers", when_other(u.skirmishers)
)

TOPICS = (
    Topic.of(
        CHARGE_RESPONSE,
        "response to a charge",
        RESPONSE_WORDS,
        (
            BY_MOUNTED,
            BY_FOOT,
            BY_SKIRMISHERS,
            Condition("flank_or_rear", "if charged in a flank or the rear", _flank_or_rear),
            Condition("in_difficult", "if standing in difficult ground", _in_difficult),
        ),
    ),
    Topic.of(
        AFTER_COMBAT,
        "move after combat (follow up, pursue, halt, fall back)",
        AFTER_WORDS,
        (
            BY_MOUNTED,
            BY_FOOT,
            Condition("mounted", "if the unit is mounted", when_unit(u.mounted)),
            Condition("on_foot", "if the unit is on foot", when_unit(lambda x: not u.mounted(x))),
        ),
    ),
    Topic.of(
        CONTROL_ADJUST,
        "a +/- modifier to a control test",
        ADJUST_WORDS,
        (
            # The question's default steers the score towards the "free" band (3-4).
            Condition(
                "below_free",
                "if the score is below the free band",
                lambda _, d: d.default == "plus",
            ),
            Condition(
                "above_free",
                "if the score is above the free band",
                lambda _, d: d.default == "minus",
            ),
        ),
    ),
    Topic.of(TREACHERY, "a treachery test (the GM rules)", TREACHERY_WORDS, gm=True),
)
