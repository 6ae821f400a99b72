"""Status keys that mean the same in every ruleset, declared once for rulesets to include.

A ruleset's ``status.py`` picks the ones it keeps (``sheet(CASUALTIES, DISORDERED, own...)``);
the order here is the map's badge order for them. ``COMMON`` is every unit and leader key, for a
ruleset that has no rules of its own yet (its map still shows these badges).
"""

from __future__ import annotations

from rules_core.status import Badge, Count, Flag, Level, LevelValue, Note, Scope, Text

# -- the battle and its sides ------------------------------------------------------------------

BATTLE_NAME = Text("name", "the battle's name", Scope.BATTLE)  # the map's title
DEPLOY_ZONE = Note("deploy_zone", "the side's deployment zone (y from, y to)", Scope.SIDE)

# -- units and leaders, in the map's badge order ------------------------------------------------

DPS = Count("dps", "disorder points (DPs)", Badge("pips", tone="pip"))
CASUALTIES = Count("casualties", "casualties", Badge("count", "{} cas", "bad"))
LOSSES = Count("losses", "VBU losses", Badge("count", "{} VBU lost", "bad"))
WOUNDS = Count("wounds", "wounds", Badge("count", "{} wd", "bad"))  # a leader's field, too
DISORDERED = Flag("disordered", "disordered", Badge("tag", "DISORD", "warn"))
DISRUPTED = Flag("disrupted", "disrupted", Badge("tag", "DISRUPT", "bad"))
SHAKEN = Flag("shaken", "shaken", Badge("tag", "SHAKEN", "bad"))
EXHAUSTED = Flag("exhausted", "exhausted", Badge("tag", "EXHAUSTED", "bad"))
UNFORMED = Flag("unformed", "unformed", Badge("tag", "UNFORMED", "warn"))
ROUTED = Flag("routed", "routed", Badge("tag", "ROUTED", "worse"))
BROKEN = Flag("broken", "broken", Badge("tag", "BROKEN", "worse"))
SHATTERED = Flag("shattered", "shattered", Badge("tag", "SHATTERED", "worse"))
PURSUING = Flag("pursuing", "pursuing", Badge("tag", "PURSUING", "calm"))
LOOTING = Flag("looting", "looting", Badge("tag", "LOOTING", "calm"))
CHARGED = Flag("charged", "charged this turn", Badge("tag", "CHARGED", "calm"))
WOUNDED = Flag("wounded", "leader wounded", Badge("tag", "WOUNDED", "warn"), Scope.LEADER)
KILLED = Flag("killed", "leader killed", Badge("tag", "KILLED", "worse"), Scope.LEADER)


def _tagged(flag: Flag) -> LevelValue:
    """A level's value named and shown like ``flag`` (a cohesion of "routed" is the ROUTED tag)."""
    if flag.badge is None:
        raise ValueError(f"{flag.key} has no tag for a level to show")
    return LevelValue(flag.key, flag.badge.word, flag.badge.tone)


def _quiet(*values: str) -> tuple[LevelValue, ...]:
    """Level values that show no badge: a unit's ordinary state."""
    return tuple(LevelValue(value, quiet=True) for value in values)


COHESION = Level(
    "cohesion",
    "cohesion",
    (LevelValue("sound", quiet=True), *map(_tagged, (DISORDERED, DISRUPTED, ROUTED))),
)
AGGRESSION = Level(
    "aggression",
    "aggression level",
    (
        _tagged(SHAKEN),
        LevelValue("present", "PRESENT", "neutral"),
        LevelValue("ready for battle", "READY", "good"),
        LevelValue("blood lust", "BLOODLUST", "worse"),
    ),
)
# A unit in good array shows no badge; in column or square it shows so, in its array or formation.
_GOOD_ARRAY = _quiet("good array", "good")
_COLUMN = LevelValue("column", "COLUMN", "calm")
_SQUARE = LevelValue("square", "SQUARE", "calm")
ARRAY = Level(
    "array",
    "array",
    (
        *_GOOD_ARRAY,
        LevelValue("disarray", "DISARRAY", "bad"),
        _COLUMN,
        LevelValue("skirmish", "SKIRMISH", "calm"),
        _SQUARE,
    ),
)
# A unit's formation is a field of its own; the map shows it as if it were this status.
FORMATION = Level(
    "formation",
    "formation",
    (
        *_quiet("", "line", "formed", "close order"),
        *_GOOD_ARRAY,
        _COLUMN,
        _SQUARE,
        LevelValue("testudo", "TESTUDO", "calm"),
        LevelValue("wedge", "WEDGE", "calm"),
        LevelValue("open_order", "OPEN", "calm"),
        LevelValue("open order", "OPEN", "calm"),
        LevelValue("march_column", "MARCH", "calm"),
    ),
    open=True,
)


def freshness(tired: str) -> Level:
    """A unit's ``freshness``: fresh (no badge), ``tired`` in the ruleset's own word, exhausted."""
    values = (
        LevelValue("fresh", quiet=True),
        LevelValue(tired, "TIRED", "warn"),
        _tagged(EXHAUSTED),
    )
    return Level("freshness", "freshness", values)


FRESHNESS = freshness("no longer fresh")


def leader_rank(meaning: str, ordinary: str, senior: str, word: str, default: str = "") -> Level:
    """A leader's ``rank``: ``ordinary`` shows no badge, ``senior`` shows ``word``."""
    values = (LevelValue(ordinary, quiet=True), LevelValue(senior, word, "calm"))
    return Level("rank", meaning, values, scope=Scope.LEADER, default=default)


# -- kept by several rulesets, shown by none --------------------------------------------------
IN_COMBAT = Flag("in_combat", "in combat")
COMBAT_RESULT = Text("combat_result", "its result in the last combat")
STATIONARY = Flag("stationary", "has not moved this turn")
LAST_MOVE = Note("last_move", "its last move (dx, dy, facing), to repeat")

COMMON = (
    BATTLE_NAME,
    DEPLOY_ZONE,
    DPS,
    CASUALTIES,
    LOSSES,
    WOUNDS,
    COHESION,
    AGGRESSION,
    ARRAY,
    FORMATION,
    FRESHNESS,
    DISORDERED,
    DISRUPTED,
    SHAKEN,
    EXHAUSTED,
    UNFORMED,
    ROUTED,
    BROKEN,
    SHATTERED,
    PURSUING,
    LOOTING,
    CHARGED,
    WOUNDED,
    KILLED,
)
