"""The pre-battle procedure of the DEPLOYMENT box, steps 1-10, as the set-up steps of
``rules.SEQUENCE`` (``rules.SETUP_IDS``). Every open point is listed, with its parameter, in
``README_prebattle.md``.

1. ``attacker``: each side rolls 2D6 + 1 per two mounted units (not EL, W), rounded up; the
   higher is the attacker (ties: ``attacker_ties``). Each side gets its exploration points.
2. ``terrain_defender``, 3. ``terrain_attacker``, 4. ``terrain_defender_again``: the side rolls
   2D6 on the terrain table of its army (``terrain_tables``: Mtd when more than
   ``mounted_table_share`` of its units are mounted, not EL or W), chooses a feature of the row
   and places it. The ``place_terrain`` order says it all ahead of the roll: the feature
   wanted, where, its facing, and up to how many exploration points to spend to reach a row
   offering it (each moves the score one up or down). When the row lacks the feature, the side
   is asked which of the row's features (topic ``terrain_feature``, a computed default); a
   spot that does not suit the feature is asked for (a point, a free spot by default). The
   attacker's piece stands at least ``attacker_gap`` H from other terrain.
5. ``baggage``: defender first, each side places its baggage camp in its deployment zone and
   its fortifications (``fortify`` orders, at most ``fortification_pieces``).
6. ``battle_plan``: each side writes its plan (only with ``battle_plans``), sealed like every
   order and kept afterwards in its hidden state, seen by its side and the GM alone.
7. ``deploy_roll``: each side rolls 2D6 + its unused exploration points; an army of Good CS
   may re-roll one or both dice, of Average CS both (a question, topic ``deploy_reroll``);
   the winner chooses who deploys first (topic ``deploy_order``, default: second).
8. ``deploy_first``, 9. ``deploy_second``: the first player's biggest command, then the
   second's (``place`` orders, checked in the deployment zone; a unit left without an order
   is placed at a free spot). 10. ``deploy_rest``: the other commands alternately.
"""

from __future__ import annotations

from rules_core.rulesets.impetus.prebattle.camps import baggage, fortification_piece
from rules_core.rulesets.impetus.prebattle.declared import (
    AUTO,
    CS_REROLLS,
    DEPLOY_ORDER,
    DEPLOY_REROLL,
    ENEMY_TERRAIN,
    EP_CHOICES,
    FEATURE_ORDER_CHOICES,
    MOUNTED_TYPES,
    NO_PLAN,
    NOT_MOUNTED,
    ORDER_KINDS,
    ORDER_WORDS,
    PARAMETERS,
    REROLL_WORDS,
    SHEET,
    SILENT,
    STEP_KINDS,
    TABLES,
    TERRAIN_FEATURE,
    TERRAIN_SPOT,
    TIES,
    TOPICS,
    TURN_STEP_KINDS,
    with_turn_kinds,
)
from rules_core.rulesets.impetus.prebattle.deployment import (
    deploy_command,
    deploy_roll,
    deploy_spot,
)
from rules_core.rulesets.impetus.prebattle.judging import (
    camp_outline,
    centre_of,
    deploy_problem,
    ep_of,
    feature_available,
    feature_of,
    move_problem,
    option_choices,
    preview,
)
from rules_core.rulesets.impetus.prebattle.pieces import (
    box,
    enemy_terrain,
    find_terrain,
    free_spot,
    outline,
    piece_size,
    placement_problem,
    role_of,
    terrain_id,
    water_at,
)
from rules_core.rulesets.impetus.prebattle.plans import battle_plan, reveal_ordered, reveal_plan
from rules_core.rulesets.impetus.prebattle.reading import (
    alternate_commands,
    attacker_bonus,
    biggest_command,
    command_structure,
    commands_by_size,
    commands_in_reserve,
    deploys_first,
    exploration_points,
    facing_of,
    fortification_limit,
    impetus_rules,
    mounted_count,
    num,
    other_side,
    own_order,
    params_of,
    plan_of,
    role_side,
    say,
    subjects,
    table_of,
    troop_type,
)
from rules_core.rulesets.impetus.prebattle.roles import attacker
from rules_core.rulesets.impetus.prebattle.scripted import demo_orders
from rules_core.rulesets.impetus.prebattle.terrain_roll import (
    crossings_on,
    terrain,
)

__all__ = [
    "AUTO",
    "CS_REROLLS",
    "DEPLOY_ORDER",
    "DEPLOY_REROLL",
    "ENEMY_TERRAIN",
    "EP_CHOICES",
    "FEATURE_ORDER_CHOICES",
    "MOUNTED_TYPES",
    "NOT_MOUNTED",
    "NO_PLAN",
    "ORDER_KINDS",
    "ORDER_WORDS",
    "PARAMETERS",
    "REROLL_WORDS",
    "SHEET",
    "SILENT",
    "STEP_KINDS",
    "TABLES",
    "TERRAIN_FEATURE",
    "TERRAIN_SPOT",
    "TIES",
    "TOPICS",
    "TURN_STEP_KINDS",
    "alternate_commands",
    "attacker",
    "attacker_bonus",
    "baggage",
    "battle_plan",
    "biggest_command",
    "box",
    "camp_outline",
    "centre_of",
    "command_structure",
    "commands_by_size",
    "commands_in_reserve",
    "crossings_on",
    "demo_orders",
    "deploy_command",
    "deploy_problem",
    "deploy_roll",
    "deploy_spot",
    "deploys_first",
    "enemy_terrain",
    "ep_of",
    "exploration_points",
    "facing_of",
    "feature_available",
    "feature_of",
    "find_terrain",
    "fortification_limit",
    "fortification_piece",
    "free_spot",
    "impetus_rules",
    "mounted_count",
    "move_problem",
    "num",
    "option_choices",
    "other_side",
    "outline",
    "own_order",
    "params_of",
    "piece_size",
    "placement_problem",
    "plan_of",
    "preview",
    "reveal_ordered",
    "reveal_plan",
    "role_of",
    "role_side",
    "say",
    "subjects",
    "table_of",
    "terrain",
    "terrain_id",
    "troop_type",
    "water_at",
    "with_turn_kinds",
]
