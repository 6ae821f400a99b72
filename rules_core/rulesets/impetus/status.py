"""Every piece of Impetus state, declared once: read it here, write it through ``ctx``.

Two kinds of state:

* **Profile** (``unit.profile``, from the roster, fixed during a battle; read with the helpers
  of ``profiles``: ``troop_type``, ``vbu``, ``impetus``, ``discipline``, ``impetuous``,
  ``missile``, ``weapons``, ``large``, ``mounted``, ``foot``):
    type        troop type: FP, FL, S, T, CP1, CP2, CM, CL, CGP, CGL, CF, EL, W, ART
                (also ``unit.type``)
    vbu         its VBU (Valore Base Unità) at full strength
    impetus     its impetus bonus (extra dice on the impact of a charge)
    discipline  discipline class A, B or C (also ``unit.quality``)
    impetuous   impetuous (frenzy tests, the impetuous re-roll of pursuit, FL charge 3H)
    missile     its shooting weapon (a row of B's shooting table) or ""
    missile_class its shooting class A, B or C (default B)
    camels, stakes, pavise  mounted on camels; protected by stakes; by pavises
    weapons     its melee weapons: pike, long_spear, polearm, pilum, pbw (a tuple)
    large       a large unit (LU: 1H sideways/backwards, depth bonus rules)
    The unit's command is ``unit.group`` (a group of kind ``command``).

* **Status** below (``unit.status`` etc., changed only by ``ctx.set_status``,
  ``set_group_status``, ``set_leader_status``, ``set_side_status``, ``set_battle_status``;
  read with ``KEY.of(holder)``).

Units (``Scope.UNIT``)
  losses        VBU lost (current VBU = profile vbu - losses; ``profiles.current_vbu``)
  freshness     "fresh" < "no_longer_fresh" < "exhausted" (``FRESHNESS_ORDER``)
  disordered    disordered
  closed_ranks  has closed ranks against a charge this activation (FP/FL)
  unit_group    id shared by the units formed as a group with it ("" alone); a group moves
                together (the manoeuvre table's "Group move"). Groups are a function of the
                table (``groups.groups_of``): the rules read that; ``groups.mark`` copies it
                here after each step, for the map and readers that have only a unit
  group_no      its group's number on its side (the G1 badge; 0 alone), kept by ``groups.mark``
  moves         moves made in its current activation (the 2nd and further need a DT)
  activated     its command has activated this turn
  evades        evades made this turn (the evasion DT's -1 per evade after the first)
  charged       charged in this activation (impact bonus, pursuit)
  melee_with    ids of the enemy units it is in melee with (a list)
  melee_pending a drawn melee waits: fought again when either unit next activates
  shot          has shot in this activation
  last_manoeuvre its last manoeuvre in this activation ("" none): a sideways or oblique move
                of a unit that may not make it as a further move, or an about face, ends its
                moves (and an about face its shooting)
  rallied       took a rally test in this activation (it does nothing else in it)
  routed        routed (destroyed or fled: counts for the army break; removed from the table)

Generals (``Scope.LEADER``; the general's command is ``leader.group``, the unit he is
attached to ``leader.attached_to``)
  general_type  Genius, Charismatic, Expert, Reliable, Poor or Incompetent (``generals.TYPES``)
  traits        his traits, a list of Brave, Severe, Confident, Cavalry
  killed        killed (risk to generals); a killed general is also detached
  rerolled      has used his initiative re-roll this turn (bookkeeping)

Commands (``Scope.GROUP``, groups of kind ``command``; ``group.leader`` is the general)
  activated     has activated this turn
  initiative    its last initiative score this turn (2D6 + Bonus)
  passed        has passed the initiative this turn (a command passes at most once a turn)
  command_structure  its army list's command structure (copied to the side as play begins)
  formed_groups the command's groups, e.g. "G1 line: Legio X, Legio IX" (``groups.mark``)
  fortifications     its army list's fortification pieces, when the list gives them

Sides (``Scope.SIDE``)
  role               "attacker" or "defender" (pre-battle step 1)
  exploration_points exploration points left (pre-battle)
  command_structure  "good", "average" or "poor" (from the army list; deployment re-rolls)
  baggage            where its baggage / fortifications stand (a note, pre-battle step 5)
  start_vbu          total VBU at the start (the army break compares losses with it)
  lost_vbu           VBU lost so far (units routed count their whole VBU)
  army_broken        its army has broken (the battle's end)
  battle_plan        its battle plan, kept secret (``Scope.HIDDEN``: only its side and the GM)
  plan_revealed      its battle plan once revealed during the battle (public)

Battle (``Scope.BATTLE``)
  name               the battle's name
  next_command       the command that won the last initiative contest (activates next)
  deploy_first       the side that deploys first (pre-battle step 7)
  ready              set-up complete
"""

from __future__ import annotations

from rules_core.shared_status import BATTLE_NAME, DEPLOY_ZONE, LOSSES, freshness

# The shared keys the rules read from here as well.
from rules_core.shared_status import DISORDERED as DISORDERED
from rules_core.shared_status import ROUTED as ROUTED
from rules_core.status import Badge, Count, Flag, Note, Scope, Text, sheet

FRESHNESS_ORDER = ("fresh", "no_longer_fresh", "exhausted")
GENERAL_TYPES = ("Genius", "Charismatic", "Expert", "Reliable", "Poor", "Incompetent")
TRAITS = ("Brave", "Severe", "Confident", "Cavalry")
COMMAND_STRUCTURES = ("good", "average", "poor")

# -- units ------------------------------------------------------------------------------------
FRESHNESS = freshness("no_longer_fresh")
CLOSED_RANKS = Flag("closed_ranks", "closed ranks", Badge("tag", "CLOSED", "calm"))
UNIT_GROUP = Text("unit_group", "the group it is formed with")
GROUP_NO = Count("group_no", "group", Badge("count", "G{}", "calm"))
MOVES = Count("moves", "moves this activation")
ACTIVATED = Flag("activated", "activated this turn")
EVADES = Count("evades", "evades this turn")
CHARGED = Flag("charged", "charged this activation", Badge("tag", "CHARGED", "warn"))
MELEE_WITH = Note("melee_with", "the enemies it is in melee with")
MELEE_PENDING = Flag("melee_pending", "drawn melee to fight again", Badge("tag", "MELEE", "bad"))
SHOT = Flag("shot", "shot this activation")
LAST_MANOEUVRE = Text("last_manoeuvre", "its last manoeuvre in this activation")
RALLIED = Flag("rallied", "rallied this activation (does nothing else in it)")

# -- generals ---------------------------------------------------------------------------------
GENERAL_TYPE = Text("general_type", "general", Scope.LEADER)
TRAITS_OF = Note("traits", "traits", Scope.LEADER, shown=True)
KILLED = Flag("killed", "killed", Badge("tag", "KILLED", "worse"), Scope.LEADER)
REROLLED = Flag("rerolled", "used his initiative re-roll this turn", scope=Scope.LEADER)

# -- commands ---------------------------------------------------------------------------------
COMMAND_ACTIVATED = Flag("activated", "activated this turn", scope=Scope.GROUP)
INITIATIVE = Count("initiative", "initiative score this turn", scope=Scope.GROUP)
PASSED = Flag("passed", "passed the initiative this turn", scope=Scope.GROUP)
ARMY_CS = Note("command_structure", "its army's command structure (bookkeeping)", Scope.GROUP)
FORMED_GROUPS = Note("formed_groups", "groups", Scope.GROUP, shown=True)
ARMY_FORTS = Note(
    "fortifications", "its army list's fortification pieces (bookkeeping)", Scope.GROUP
)

# -- sides ------------------------------------------------------------------------------------
ROLE = Text("role", "attacker or defender", Scope.SIDE)
EXPLORATION_POINTS = Count("exploration_points", "exploration points", scope=Scope.SIDE)
COMMAND_STRUCTURE = Text("command_structure", "command structure", Scope.SIDE)
BAGGAGE = Note("baggage", "baggage and fortifications (drawn on the map)", Scope.SIDE)
START_VBU = Count("start_vbu", "VBU at the start", scope=Scope.SIDE)
LOST_VBU = Count("lost_vbu", "VBU lost", scope=Scope.SIDE)
ARMY_BROKEN = Flag("army_broken", "army broken", Badge("tag", "BROKEN", "worse"), Scope.SIDE)
BATTLE_PLAN = Text("battle_plan", "battle plan (secret)", Scope.HIDDEN)
PLAN_REVEALED = Text("plan_revealed", "battle plan (revealed)", Scope.SIDE)

# -- the battle -------------------------------------------------------------------------------
NEXT_COMMAND = Text("next_command", "activates next", Scope.BATTLE)
DEPLOY_FIRST = Text("deploy_first", "deploys first", Scope.BATTLE)
READY = Flag("ready", "set-up complete", scope=Scope.BATTLE)

STATUSES = sheet(
    BATTLE_NAME,
    DEPLOY_ZONE,
    LOSSES,
    FRESHNESS,
    DISORDERED,
    ROUTED,
    CHARGED,
    MELEE_PENDING,
    CLOSED_RANKS,
    UNIT_GROUP,
    GROUP_NO,
    MOVES,
    ACTIVATED,
    EVADES,
    MELEE_WITH,
    SHOT,
    RALLIED,
    LAST_MANOEUVRE,
    GENERAL_TYPE,
    TRAITS_OF,
    KILLED,
    REROLLED,
    COMMAND_ACTIVATED,
    INITIATIVE,
    PASSED,
    ARMY_CS,
    FORMED_GROUPS,
    ARMY_FORTS,
    ROLE,
    EXPLORATION_POINTS,
    COMMAND_STRUCTURE,
    BAGGAGE,
    START_VBU,
    LOST_VBU,
    ARMY_BROKEN,
    BATTLE_PLAN,
    PLAN_REVEALED,
    NEXT_COMMAND,
    DEPLOY_FIRST,
    READY,
)
