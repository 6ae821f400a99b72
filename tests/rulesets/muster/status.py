"""Muster's status keys: a side's stance, a wing's posture, inspiration and marches."""

from rules_core.shared_status import DEPLOY_ZONE
from rules_core.status import Count, Flag, Level, LevelValue, Scope, Text, sheet

STANCE = Level(
    "stance", "the side's stance",
    (LevelValue("bold", "bold", "good"), LevelValue("wary", "wary")),
    scope=Scope.SIDE, default="wary",
)  # fmt: skip
POSTURE = Level(
    "posture", "the wing's posture",
    (LevelValue("attack", "attack", "good"), LevelValue("hold", "hold"),
     LevelValue("withdraw", "withdraw", "bad")),
    scope=Scope.GROUP, default="hold",
)  # fmt: skip
RALLIED = Flag("rallied", "rallied by its general", scope=Scope.GROUP)
INSPIRED = Count("inspired", "times inspired")
MARCHES = Count("marches", "marches made")
CRY = Count("cries", "battle cries heard", scope=Scope.SIDE)

OMEN = Text("omen", "the omen read at the parley", scope=Scope.SIDE)
CHAMPION = Flag("champion", "named champion at the parley")
HERALD = Text("herald", "where the herald stands", scope=Scope.SIDE)
WAGER = Count("wager", "the wager laid at the parley", scope=Scope.SIDE)
ENVOY = Text("envoy", "the envoy sent to parley", scope=Scope.SIDE)
BANNER = Text("banner", "whether the banner is raised", scope=Scope.SIDE)

STATUSES = sheet(DEPLOY_ZONE, STANCE, POSTURE, RALLIED, INSPIRED, MARCHES, CRY, OMEN, CHAMPION,
                 HERALD, WAGER, ENVOY, BANNER)  # fmt: skip
