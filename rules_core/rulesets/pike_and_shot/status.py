"""Every status key the pike-and-shot rules keep, with its badge: declared once, read everywhere.

Read a value through its declaration (``COHESION.of(unit)``, ``WING_ORDER.of(group)``) and
write it through ``ctx.set_status`` / ``set_leader_status`` / ``set_group_status`` /
``set_side_status``. Roster values (``pike``, ``lance``, ``armoured``, ``size``, ``mounted``)
live in a unit's profile; a status of the same key overrides them (``Flag.of`` reads status,
then profile). A unit's type and quality are the ``Unit`` fields ``type`` and ``quality``.

Unit types (``Unit.type``, ``profiles.UNIT_TYPES``): ``tercio`` (Early Tercio),
``infantry_brigade``, ``irregular_infantry``, ``detachment`` (a company or detachment of
infantry), ``rabble``, ``infantry_guns``, ``field_artillery``, ``heavy_artillery``,
``cavalry_brigade``, ``double_brigade``, ``irregular_cavalry``, ``dragoons`` (mounted unless
``dismounted``). Quality (``Unit.quality``): ``raw``, ``trained``, ``veteran``.

Units (``Scope.UNIT``)
  cohesion      "sound" < "disordered" < "disrupted" < "routed" < "destroyed"
                (``COHESION_ORDER``; missing means sound). A destroyed unit is taken off the
                table (``moves.remove_from_battle``) and keeps "destroyed" so fatigue and
                General Will can count it; a routed unit that leaves the table stays "routed"
                and ``left_in_rout``.
  march_column  in march column (moves at the March Column rate; combat dice -1/-2)
  dismounted    dragoons fighting on foot (combat as infantry detachments)
  attacker      moved into contact this turn: the attacker in the melee (cleared each Orders
                step)
  engaged       stays engaged into the next turn (a stand-off): set by the Combat step,
                cleared when the units separate
  engaged_with  id of the enemy it fought (or stood off against) last
  pursuing      declared an impetuous pursuit (shared key)
  pursuit_target id of the unit it pursues
  left_in_rout  left the table in rout: never returns (``moves.rout_move``)
  left_in_pursuit left the table in pursuit: may return within ``return_distance`` of where it
                left once sound (``Unit.left_at``)
  moved         moved (or tried to) in this turn's Movement step
  in_difficult  stands in difficult terrain after its move (the disorder test's "Brigade in
                Difficult Terrain")
  cover         "" (in the open), "cover", "buildings" or "fortifications": the ground it
                holds (saves +1 in buildings or cover; disorder +2 in buildings or behind
                fortifications; pursuit +2). Set by movement from terrain; the GM may rule.
  defending_obstacle defends a linear obstacle just in front (disorder +1): set by movement
  pike, lance, armoured  roster flags: infantry with pike, lance-armed cavalry, fully armoured
                cavalry (cuirassiers)
  size          roster: "tercio", "double" (a double brigade), "brigade" or "company"
                (saving dice 3 / 2 / 2 / 1; a tercio or double counts as two brigades)
  mounted       roster: a mounted unit (cavalry, mounted dragoons)
  recoiled      recoiled this turn (``moves.recoil``)
  hits          unsaved hits it took this turn (the Combat step's bookkeeping)

Leaders (``Scope.LEADER``)
  rank          "army" (the army commander, the sheet's "Higher Commander") or "wing"
  kind          "heroic", "politico" or "" (an ordinary commander)
  wounded       wounded (fatigue +1)
  killed        killed (fatigue +2); stays in the battle, marked, until replaced
  off_table     off the table (fatigue +2)
  replaced      a replacement (the sheet's Replace commanders step): never heroic or politico
  risk          this turn's risk to commanders result (bookkeeping: "", "wounded", "killed")

Groups: wings (``Scope.GROUP``, ``Group.kind == "wing"``, ``Group.leader`` the commander)
  wing_order    "attack", "hold" or "withdraw": stands until changed, even when its
                commander is lost (Orders step)
  fatigued      failed its fatigue test (the Fatigue step); stays fatigued
  fatigue_roll  its last fatigue total (bookkeeping, shown)

Sides (``Scope.SIDE``)
  army_commander id of the army commander (the leader of rank "army")
  withdraw_next_turn ordered to withdraw next turn (General Will failed): every wing's order
                becomes Withdraw at the next Orders step
  general_will  "" (not tested), "good" or "failed": the last General Will result; "failed"
                breaks the army (``Rules.army_broken``)
  brigades      the army's size in brigades at the start (tercios and doubles count two)
  deploy_zone   where it deploys (shared)

Battle (``Scope.BATTLE``)
  name          the battle's name (shared)
"""

from __future__ import annotations

from dataclasses import replace

from rules_core.shared_status import (
    BATTLE_NAME,
    DEPLOY_ZONE,
    KILLED,
    PURSUING,
    WOUNDED,
    leader_rank,
)
from rules_core.shared_status import COHESION as SHARED_COHESION
from rules_core.state import Unit
from rules_core.status import Badge, Count, Flag, Level, LevelValue, Note, Scope, Text, sheet

COHESION_ORDER = ("sound", "disordered", "disrupted", "routed", "destroyed")
WING_ORDERS = ("attack", "hold", "withdraw")
COVER_KINDS = ("", "cover", "buildings", "fortifications")

# -- units ------------------------------------------------------------------------------------
# The shared cohesion levels (sound … routed) and "destroyed" after them.
COHESION = replace(
    SHARED_COHESION,
    values=(*SHARED_COHESION.values, LevelValue("destroyed", "DESTROYED", "worse")),
    default="sound",
)
MARCH_COLUMN = Flag("march_column", "in march column", Badge("tag", "MARCH", "calm"))
DISMOUNTED = Flag("dismounted", "dismounted", Badge("tag", "DISMOUNTED", "calm"))
ATTACKER = Flag("attacker", "moved into contact this turn", Badge("tag", "ATTACKER", "calm"))
ENGAGED = Flag("engaged", "engaged", Badge("tag", "ENGAGED", "warn"))
ENGAGED_WITH = Text("engaged_with", "the enemy it fought last")
PURSUIT_TARGET = Text("pursuit_target", "the unit it pursues")
LEFT_IN_ROUT = Flag("left_in_rout", "left the table in rout (never returns)")
LEFT_IN_PURSUIT = Flag("left_in_pursuit", "left the table in pursuit (may return)")
MOVED = Flag("moved", "moved this turn")
IN_DIFFICULT = Flag("in_difficult", "in difficult terrain")
COVER = Text("cover", "the ground it holds (cover, buildings, fortifications)")
DEFENDING_OBSTACLE = Flag("defending_obstacle", "defending a linear obstacle")
PIKE = Flag("pike", "infantry with pike")
LANCE = Flag("lance", "lance-armed cavalry")
ARMOURED = Flag("armoured", "fully armoured cavalry")
SIZE = Text("size", "size: tercio, double, brigade or company")
MOUNTED = Flag("mounted", "mounted")
RECOILED = Flag("recoiled", "recoiled this turn")
HITS = Count("hits", "unsaved hits this turn", private=True)
ARTILLERY_FIRE = Flag("under_artillery_fire", "shot at by artillery this turn (for Reform)")

# -- leaders ----------------------------------------------------------------------------------
RANK = leader_rank("rank", "wing", "army", "GENERAL")
KIND = Level(
    "kind",
    "kind of commander",
    (
        LevelValue("", quiet=True),
        LevelValue("heroic", "HERO", "good"),
        LevelValue("politico", "POLITICO", "calm"),
    ),
    scope=Scope.LEADER,
)
OFF_TABLE = Flag("off_table", "commander off table", Badge("tag", "OFF TABLE", "bad"), Scope.LEADER)
REPLACED = Flag(
    "replaced", "a replacement commander", Badge("tag", "REPLACED", "calm"), Scope.LEADER
)
RISK = Text("risk", "this turn's risk to commanders", Scope.LEADER)

# -- wings ------------------------------------------------------------------------------------
WING_ORDER = Level(
    "wing_order",
    "wing order",
    (
        LevelValue("attack", "ATTACK", "warn"),
        LevelValue("hold", "HOLD", "calm"),
        LevelValue("withdraw", "WITHDRAW", "bad"),
    ),
    scope=Scope.GROUP,
)
FATIGUED = Flag("fatigued", "fatigued", Badge("tag", "FATIGUED", "bad"), Scope.GROUP)
FATIGUE_ROLL = Count("fatigue_roll", "last fatigue total", scope=Scope.GROUP)

# -- sides ------------------------------------------------------------------------------------
ARMY_COMMANDER = Note("army_commander", "army commander (leader id)", Scope.SIDE)
WITHDRAW_NEXT_TURN = Flag("withdraw_next_turn", "ordered to withdraw next turn", scope=Scope.SIDE)
GENERAL_WILL = Level(
    "general_will",
    "General Will",
    (
        LevelValue("", quiet=True),
        LevelValue("good", "RESOLVE GOOD", "good"),
        LevelValue("failed", "RESOLVE FAILED", "worse"),
    ),
    scope=Scope.SIDE,
)
BRIGADES = Count("brigades", "brigades in the army at the start", scope=Scope.SIDE, private=True)

STATUSES = sheet(
    BATTLE_NAME,
    DEPLOY_ZONE,
    COHESION,
    MARCH_COLUMN,
    DISMOUNTED,
    ATTACKER,
    ENGAGED,
    PURSUING,
    ENGAGED_WITH,
    PURSUIT_TARGET,
    LEFT_IN_ROUT,
    LEFT_IN_PURSUIT,
    MOVED,
    IN_DIFFICULT,
    COVER,
    DEFENDING_OBSTACLE,
    PIKE,
    LANCE,
    ARMOURED,
    SIZE,
    MOUNTED,
    RECOILED,
    HITS,
    ARTILLERY_FIRE,
    RANK,
    KIND,
    WOUNDED,
    KILLED,
    OFF_TABLE,
    REPLACED,
    RISK,
    WING_ORDER,
    FATIGUED,
    FATIGUE_ROLL,
    ARMY_COMMANDER,
    WITHDRAW_NEXT_TURN,
    GENERAL_WILL,
    BRIGADES,
)


def cohesion(unit: Unit) -> str:
    """A unit's cohesion level ("sound" when unset)."""
    return COHESION.of(unit)


def worse(level: str, steps: int = 1) -> str:
    """The cohesion level ``steps`` worse than ``level`` (destroyed at worst)."""
    index = min(COHESION_ORDER.index(level or "sound") + steps, len(COHESION_ORDER) - 1)
    return COHESION_ORDER[index]


def better(level: str) -> str:
    """The cohesion level one better than ``level`` (sound at best; never out of routed)."""
    index = COHESION_ORDER.index(level or "sound")
    return COHESION_ORDER[max(index - 1, 0)]
