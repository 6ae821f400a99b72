"""The pre-battle procedure's declarations: its parameters, topics, steps and order kinds."""

from __future__ import annotations

from dataclasses import replace

from rules_core.decisions import Option
from rules_core.orders import OrderKind, Param
from rules_core.plugin import Parameter
from rules_core.rulesets.impetus.terrain_tables import (
    FEATURES,
    TERRAIN_TABLES,
)
from rules_core.standing import Topic
from rules_core.steps import SequenceOfPlay

SHEET = "the sheet's DEPLOYMENT box"


SILENT = "not on the sheet (see README_prebattle.md)"


NOT_MOUNTED = frozenset({"EL", "W"})  # "mounted (except EL, W)"


MOUNTED_TYPES = frozenset({"CP1", "CP2", "CM", "CL", "CGP", "CGL", "CF"})


FEATURE_ORDER_CHOICES = tuple(FEATURES)


CS_REROLLS = {"good": ("keep", "first", "second", "both"), "average": ("keep", "both")}


TIES = ("reroll", "defender")


EP_CHOICES = tuple(str(n) for n in range(13))  # exploration points to spend at most (option2)


PARAMETERS = (
    Parameter(
        "attacker_ties",
        "reroll",
        "a tie on the attacker roll: both roll again (reroll), or the first side listed "
        "defends (defender)",
        SILENT,
    ),
    Parameter(
        "mounted_table_share",
        0.5,
        "an army rolls on the Mtd terrain table when more than this share of its units "
        "are mounted (not EL, W); otherwise on the FOOT table",
        SILENT,
    ),
    Parameter(
        "exploration_points",
        2,
        "exploration points of each army: each moves a terrain score one up or down; "
        "unused ones add to the deployment roll",
        SILENT,
    ),
    Parameter("attacker_gap", 8.0, "H the attacker's terrain stands from other terrain", SHEET),
    Parameter("small_length", 4.0, "H: the length of a small feature (an oval)", SILENT),
    Parameter("small_width", 3.0, "H: the width of a small feature", SILENT),
    Parameter("large_length", 8.0, "H: the length of a large feature (an oval)", SILENT),
    Parameter("large_width", 6.0, "H: the width of a large feature", SILENT),
    Parameter("road_width", 1.0, "H: the width of a road", SILENT),
    Parameter("river_width", 2.0, "H: the width of a river", SILENT),
    Parameter("crossing_width", 2.0, "H: the width of a bridge or ford along its river", SILENT),
    Parameter(
        "enemy_terrain_move",
        0.0,
        "H the Mtd table's 10-11 may move an enemy feature (0: anywhere it could be placed)",
        SILENT,
    ),
    Parameter("baggage_length", 3.0, "H: the frontage of a baggage camp", SILENT),
    Parameter("baggage_width", 2.0, "H: the depth of a baggage camp", SILENT),
    Parameter(
        "fortification_pieces",
        2,
        "fortification pieces an army may place at step 5 (0: none)",
        SILENT,
    ),
    Parameter("fortification_length", 4.0, "H: the length of a fortification piece", SILENT),
    Parameter(
        "behind_reach",
        1.0,
        "H: a unit this close to a fortification piece or linear obstacle lying between "
        "it and the enemy is behind it (shooting and melee)",
        SILENT,
    ),
    Parameter(
        "battle_plans",
        True,
        "the advanced rules' battle plans (step 6): written in secret, or skipped",
        SHEET,
    ),
    Parameter(
        "deploy_ties",
        "reroll",
        "a tie on the deployment roll: both roll again (reroll), or the defender wins (defender)",
        SILENT,
    ),
)


TERRAIN_FEATURE = "terrain_feature"


TERRAIN_SPOT = "terrain_spot"


ENEMY_TERRAIN = "enemy_terrain"


NO_PLAN = "(none written)"


AUTO = "auto"  # the rules' own choice, offered beside pieces of terrain and spots


DEPLOY_REROLL = "deploy_reroll"


DEPLOY_ORDER = "deploy_order"


REROLL_WORDS = {
    "keep": "keep both dice",
    "first": "re-roll the first die",
    "second": "re-roll the second die",
    "both": "re-roll both dice",
}


ORDER_WORDS = {"first": "deploy first", "second": "deploy second"}


TOPICS = (
    Topic(
        TERRAIN_FEATURE,
        "the terrain feature chosen from a terrain table's row",
        tuple(Option(f.key, f.label) for f in FEATURES.values()),
    ),
    Topic(
        TERRAIN_SPOT,
        "where a terrain feature goes when the spot ordered does not suit it "
        "(typed as x,y, or auto: the rules' spot)",
        (
            Option(
                AUTO,
                "the rules' spot: the free spot nearest the one ordered (an enemy "
                "piece to move: where it stands)",
            ),
        ),
    ),
    Topic(
        ENEMY_TERRAIN,
        "which enemy terrain to move or remove",
        (Option(AUTO, "the biggest enemy piece"),),
    ),
    Topic.of(DEPLOY_REROLL, "re-rolling the deployment roll (command structure)", REROLL_WORDS),
    Topic.of(DEPLOY_ORDER, "deploy first or second after winning the deployment roll", ORDER_WORDS),
)


TABLES = tuple(TERRAIN_TABLES.values())


# The order kinds each set-up step takes (read by ``rules.SEQUENCE``).
STEP_KINDS: dict[str, tuple[str, ...]] = {
    "terrain_defender": ("place_terrain",),
    "terrain_attacker": ("place_terrain",),
    "terrain_defender_again": ("place_terrain",),
    "baggage": ("place_baggage", "fortify"),
    "battle_plan": ("battle_plan",),
    "deploy_first": ("place",),
    "deploy_second": ("place",),
    "deploy_rest": ("place",),
}

# Where a piece goes on the table and, if the side says, which way it faces.
AT_FACING = (Param("at", "point"), Param("facing", "number", required=False))


def _piece_placing(kind: str, title: str, limit: int) -> OrderKind:
    """A side's order placing up to ``limit`` pieces, each at a point and a facing: baggage and
    fortifications combine, so a camp and fortifications are given side by side in one step."""
    return OrderKind(kind, title, "side", AT_FACING, combines=True, limit=limit)


ORDER_KINDS = (
    OrderKind(
        "place_terrain",
        "Place terrain",
        "side",
        (
            Param("feature", "choice", choices=FEATURE_ORDER_CHOICES),
            Param("at", "point", required=False),
            Param("facing", "number", required=False),
            Param("ep", "choice", choices=EP_CHOICES, required=False),
            Param("terrain", "text", required=False),
        ),
    ),
    _piece_placing("place_baggage", "Place baggage", 1),
    _piece_placing("fortify", "Fortify", 10),
    OrderKind("battle_plan", "Battle plan", "side", (Param("plan", "text", sealed=True),)),
    OrderKind(
        "place",
        "Place",
        "side",
        (Param("unit", "unit"), *AT_FACING),
        combines=True,
        limit=50,
    ),
    # During the battle: the side shows its battle plan to all (``TURN_STEP_KINDS``).
    OrderKind(
        "reveal_plan", "Reveal battle plan", "side", (Param("reason", "text", required=False),)
    ),
)


# The turn steps that also take a pre-battle order kind: a side reveals its battle plan in
# the movement step of one of its commands' activations (where it gives orders anyway, so
# revealing costs no stop), planned ahead like any order of that step.
TURN_STEP_KINDS: dict[str, tuple[str, ...]] = {"move": ("reveal_plan",)}


def with_turn_kinds(sequence: SequenceOfPlay) -> SequenceOfPlay:
    """The sequence of play with ``TURN_STEP_KINDS`` added to its turn steps' order kinds."""
    steps = tuple(
        replace(step, order_kinds=(*step.order_kinds, *TURN_STEP_KINDS.get(step.id, ())))
        for step in sequence.steps
    )
    return replace(sequence, steps=steps)
