"""The standing instructions an experienced Impetus player would set (``/standing
recommended``): for each question topic, the choices in order of preference."""

from __future__ import annotations

from rules_core.rulesets.impetus.prebattle.declared import FEATURE_ORDER_CHOICES
from rules_core.standing import AUTO, Recommended

RECOMMENDED = (
    Recommended(
        "initiative_command",
        ("nearest", "strongest", "weakest"),
        "name the command nearest the enemy for the initiative: it has the most to do",
    ),
    Recommended(
        "initiative_pass",
        ("activate", "pass", "pass_to_enemy"),
        "activate the command that won the initiative rather than hand the tempo away",
    ),
    Recommended(
        "charge_reaction",
        ("defensive_fire", "close_ranks", "none"),
        "shooters fire at a charger; others close ranks; no reaction when neither is allowed",
    ),
    Recommended(
        "opportunity",
        ("none", "reaction_fire", "reaction_charge"),
        "no opportunity reaction: a failed test costs cohesion and breaks the line",
    ),
    Recommended(
        "terrain_feature",
        FEATURE_ORDER_CHOICES,
        "the first feature the terrain table's row offers, in the sheet's order",
    ),
    Recommended("terrain_spot", (AUTO,), "the rules' spot: the free spot nearest the one ordered"),
    Recommended("enemy_terrain", (AUTO,), "the rules pick the enemy terrain to move or remove"),
    Recommended(
        "deploy_reroll",
        ("keep", "first", "second", "both"),
        "keep the deployment roll: a re-roll is as likely to be worse",
    ),
    Recommended(
        "deploy_order",
        ("second", "first"),
        "deploy second: you see where the enemy stands before you place your own",
    ),
)
