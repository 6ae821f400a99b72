"""The questions the Impetus rules ask again and again, for standing instructions."""

from __future__ import annotations

from rules_core.standing import Topic

INITIATIVE_COMMAND = "initiative_command"
INITIATIVE_PASS = "initiative_pass"
NAMING = {
    "nearest": "the command nearest the enemy",
    "strongest": "the strongest command (most VBU)",
    "weakest": "the weakest command (least VBU)",
}
PASSING = {
    "activate": "activate",
    "pass": "pass the initiative to another of my commands",
    "pass_to_enemy": "pass the initiative to the enemy",
}

TOPICS = (
    Topic.of(INITIATIVE_COMMAND, "the command named for the initiative", NAMING),
    Topic.of(INITIATIVE_PASS, "activate or pass the initiative after winning it", PASSING),
)
