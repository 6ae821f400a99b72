"""Units moved by the rules rather than by their players: evasions, the countercharger's move
to meet a charge, and the charger going on after its target evaded. (Retreats and pursuits are
in ``melee``; they use the sweeps here.) Each is checked along its whole path with
``paths.sweep``: enemies, impassable ground and the table edge stop it; friends stop it unless
the sheet lets it pass them ("VOLUNTARY INTERPENETRATION"), and it never ends on one.

Where the sheet and the published rules found (see README_combat.md) are silent, the choice is
a parameter (``PARAMETERS``, in the ruleset's table, shown by ``/campaign rules``):

- ``retreat_blocked_loss`` (1): VBU lost by a unit whose retreat is stopped short by an enemy,
  impassable ground or a friend it may neither pass nor push (a friend in melee, or one that
  could not be pushed clear); a unit whose retreat cannot even start is destroyed (published).
- ``retreat_off_table`` ("lost"): a retreat reaching the table edge: ``lost`` (the unit leaves
  the battle, its VBU counted lost) or ``stop`` (stopped at the edge, as if blocked).
- ``evade_off_table`` ("lost"): an evasion reaching the edge: ``lost`` or ``stop`` (at the edge).
- ``charge_after_evade`` ("full_move"): a charger whose target evaded out of its reach moves its
  full charge distance at it, fighting it if it reaches it, stopping at anything else in the
  way; ``stop``: it stays where it is.
- ``pursuit_fresh_enemy`` ("stop"): a pursuit meeting an enemy other than the loser stops on
  contact; ``fight``: a new melee with it, as a charge.
- ``countercharge_share`` (0.5): the countercharger moves this share of the gap to meet the
  charger (up to its own charge distance): they meet in the middle.
- ``melee_extra_dice`` ("half"): in a melee of more than two units, each further unit against
  one enemy rolls half its dice, as a supporting unit (``full``: its whole roll).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import replace

from rules_core import paths
from rules_core.codec import Json
from rules_core.context import Context
from rules_core.events import OrderRejected, ReactionResolved
from rules_core.geometry import EPSILON, Footprint, edge_distance, near, overlapping
from rules_core.paths import Sweep
from rules_core.plugin import Parameter
from rules_core.rulesets.impetus import cohesion, interpenetration
from rules_core.rulesets.impetus import movement_tables as mt
from rules_core.rulesets.impetus.status import EVADES, MOVES
from rules_core.state import BattleState, Unit

Params = Mapping[str, Json]
SILENT = "not on the sheet (see the package README_combat.md)"
PARAMETERS = (
    Parameter(
        "retreat_blocked_loss",
        1,
        "VBU lost by a unit whose retreat is stopped short by an enemy, impassable ground "
        "or a friend it may neither pass nor push (one that cannot even start is "
        "destroyed)",
        SILENT,
    ),
    Parameter(
        "retreat_off_table",
        "lost",
        "a retreat that reaches the table edge: lost (the unit leaves the battle, its VBU "
        "counted lost) or stop (it stops at the edge, as if blocked)",
        SILENT,
    ),
    Parameter(
        "evade_off_table",
        "lost",
        "an evasion that reaches the table edge: lost (the unit leaves the battle) or stop "
        "(it stops at the edge)",
        SILENT,
    ),
    Parameter(
        "charge_after_evade",
        "full_move",
        "a charger whose target evaded out of reach: full_move (it moves its full charge "
        "distance at it, fighting it if it reaches) or stop (it stays)",
        SILENT,
    ),
    Parameter(
        "pursuit_fresh_enemy",
        "stop",
        "a pursuit that meets an enemy other than the loser: stop on contact, or fight (a "
        "new melee, as a charge)",
        SILENT,
    ),
    Parameter(
        "countercharge_share",
        0.5,
        "the share of the gap a countercharger covers to meet the charger (at most its "
        "charge distance)",
        SILENT,
    ),
    Parameter(
        "melee_extra_dice",
        "half",
        "in a melee of more than two units, each further unit against one enemy rolls half "
        "its dice as a supporting unit (half) or its full roll (full)",
        SILENT,
    ),
)
DEFAULTS: dict[str, Json] = {p.name: p.default for p in PARAMETERS}
START = 0.01  # H: a retreat that cannot go this far "cannot even start"


def setting(params: Params, name: str) -> Json:
    """A parameter of this module, its default where the battle does not set it."""
    value = params.get(name)
    return DEFAULTS[name] if value is None else value


def number(params: Params, name: str) -> float:
    """The parameter ``name`` (else its default) as a number."""
    value = setting(params, name)
    return float(value) if isinstance(value, int | float) else float(str(value))


def heading_of(vector: tuple[float, float]) -> float:
    """The compass heading of a direction."""
    return math.degrees(math.atan2(vector[0], vector[1])) % 360


def _keep(state: BattleState, keep: Callable[[Unit], bool]) -> BattleState:
    return replace(state, units=tuple(u for u in state.units if keep(u)))


def _overlapped(state: BattleState, unit: Unit) -> set[str]:
    """Units the unit already overlaps where it stands (left behind as it moves off)."""
    here = Footprint.of(unit)
    nearby = near(state.units_on_table, here.bounds)  # only boxes that meet can overlap
    return {u.id for u in nearby if u.id != unit.id and overlapping(here, Footprint.of(u))}


def without_friends(
    state: BattleState, unit: Unit, heading: float, length: float, facing: float | None = None
) -> Sweep:
    """The unit swept along ``heading``: what stops it among enemies, impassable ground and the
    table edge (its friends are left out: the caller deals with them)."""
    stuck = _overlapped(state, unit)
    alone = _keep(state, lambda u: u.id == unit.id or (u.side != unit.side and u.id not in stuck))
    return paths.sweep(alone, unit, heading, length, facing=facing)


def reach_to(
    state: BattleState,
    unit: Unit,
    heading: float,
    length: float,
    other: Unit,
    facing: float | None = None,
) -> float:
    """How far the unit goes along ``heading`` before it touches ``other`` (``length`` if it
    does not)."""
    pair = _keep(state, lambda u: u.id in (unit.id, other.id))
    pair = replace(pair, terrain=())
    found = paths.sweep(pair, unit, heading, length, facing=facing, leaves_table=True)
    return found.reached


def ends_touching(found: Sweep, other: Unit) -> bool:
    """True if the move ends touching ``other``: the sweep stops only at an overlap deeper than
    a touch, so a move of exactly the gap goes its full length and ends against it."""
    return edge_distance(found.end, Footprint.of(other)) <= EPSILON


def travel(
    state: BattleState,
    unit: Unit,
    heading: float,
    length: float,
    passable: Callable[[Unit], bool],
    facing: float | None = None,
) -> Sweep:
    """The unit swept along ``heading``: stopped by enemies, impassable ground, the edge and
    friends ``passable`` does not let it pass; it passes the others but does not end on one
    (stepping back short of it)."""
    friends = [f for f in state.units_on_table if f.side == unit.side and f.id != unit.id]
    through = {f.id for f in friends if passable(f)}
    left = through | _overlapped(state, unit)
    first = paths.sweep(
        _keep(state, lambda u: u.id not in left), unit, heading, length, facing=facing
    )
    passing = _keep(state, lambda u: u.id == unit.id or u.id in through)
    second = paths.sweep(
        passing, unit, heading, first.reached, facing=facing, friends_pass=True, leaves_table=True
    )
    if second.reached < first.reached - 1e-9:
        return second
    return replace(first, passed=second.passed)


def turned_onto(state: BattleState, unit: Unit, facing: float) -> str:
    """The names of the units the unit would newly overlap turned where it stands to ``facing``
    ("" for none). A sweep leaves such units behind, so a unit turning into one would move on
    through it (found by the AI's games: tests/bot/test_ai_fuzz.py, seed 31, a countercharge
    that turned into the enemy at its side and ended inside it)."""
    turned = _overlapped(state, replace(unit, facing=facing)) - _overlapped(state, unit)
    return ", ".join(sorted(state.unit(other).name for other in turned))


def _named(state: BattleState, found: Sweep) -> str:
    blocker = found.blocker
    if blocker is None:
        return "nothing"
    if blocker.kind == paths.EDGE:
        return "the table edge"
    if blocker.kind == paths.TERRAIN:
        feature = next((t for t in state.terrain if t.id == blocker.id), None)
        return f"impassable ground ({feature.name or feature.id})" if feature else "ground"
    return state.unit(blocker.id).name


# -- evasion ------------------------------------------------------------------------------------


def evade(ctx: Context, unit: Unit, enemy: Unit) -> None:
    """The unit turns its back on the charger and moves its normal move straight away from it:
    it passes friends the sheet lets it interpenetrate, stops short of anything else (an enemy,
    a friend it may not pass, impassable ground) and never ends on a unit; reaching the table
    edge it leaves the battle (``evade_off_table`` "lost") or stops there ("stop"). With no
    room to turn (``_evasion_crowded``) it stays."""
    length = mt.distance(unit, "normal")
    away = (unit.x - enemy.x, unit.y - enemy.y)
    heading = heading_of(away) if any(away) else (unit.facing + 180) % 360
    found = travel(
        ctx.state,
        unit,
        heading,
        length,
        lambda f: interpenetration.voluntary(unit, f),
        facing=heading,
    )
    crowded = _evasion_crowded(ctx.state, unit, heading, found)
    if crowded:
        words = f"no room to turn and evade {enemy.name}: {crowded} in the way"
        ctx.move(unit.id, [(unit.x, unit.y)], unit.facing, (words,))
        return
    ctx.set_status(unit.id, f"evaded {enemy.name}", evades=EVADES.of(unit) + 1)
    blocker = found.blocker
    off = blocker is not None and blocker.kind == paths.EDGE
    if off and setting(ctx.params, "evade_off_table") == "lost":
        words = f"{unit.name} evades off the table edge: it leaves the battle"
        ctx.emit(
            ReactionResolved(
                unit.id, "evasion", 0, False, words, False, unit.id, "evasion", "off_table", "rout"
            )
        )
        cohesion.rout(ctx, unit.id, "evaded off the table edge")
        return
    end = found.end
    notes = [f"evades {enemy.name} {found.reached:.3g}H"]
    if blocker is not None:
        notes.append(f"stops short: {_named(ctx.state, found)} in the way")
    if found.passed:
        notes.append("passes through " + ", ".join(ctx.state.unit(f).name for f in found.passed))
    ctx.move(unit.id, [(unit.x, unit.y), (round(end.x, 3), round(end.y, 3))], heading, notes)


def _evasion_crowded(state: BattleState, unit: Unit, heading: float, found: Sweep) -> str:
    """The names of the units that leave an evader no room ("" for none): those its turn to
    ``heading`` would swing its base onto, unless it may pass them (voluntary
    interpenetration) and its move then carries it clear of them. A sweep leaves units the turn
    overlaps behind, so the evader went on through them (found by the AI's games,
    tests/bot/test_ai_fuzz.py: seed 15, a Gallic Horse turning into the legion beside it; seed
    23, one turning onto Slingers and ending on them). The sheet does not say what an evader
    with no room does; as its About Face ("if there is space", "Can't contact friends/foe")
    and a countercharger with no room to turn (``countercharge_move``) it does not move: it
    stays as it stands and the charge goes in."""
    turned = _overlapped(state, replace(unit, facing=heading)) - _overlapped(state, unit)
    there = replace(unit, x=found.end.x, y=found.end.y, facing=heading)
    blocking = {
        other
        for other in turned
        if state.unit(other).side != unit.side
        or not interpenetration.voluntary(unit, state.unit(other))
        or other in _overlapped(state, there)
    }
    return ", ".join(sorted(state.unit(other).name for other in blocking))


# -- countercharge ------------------------------------------------------------------------------


def countercharge_move(ctx: Context, unit: Unit, charger: Unit) -> float:
    """The countercharger turns to face the charger and moves to meet it: the share
    ``countercharge_share`` of the gap between them, at most its charge distance, stopping at
    anything in the way. Returns how far it went."""
    gap = edge_distance(Footprint.of(unit), Footprint.of(charger))
    want = min(gap * number(ctx.params, "countercharge_share"), mt.distance(unit, "charge"))
    heading = heading_of((charger.x - unit.x, charger.y - unit.y))
    if want <= 0:
        return 0.0
    crowded = turned_onto(ctx.state, unit, heading)
    if crowded:
        words = f"no room to turn to countercharge {charger.name}: {crowded} in the way"
        ctx.move(unit.id, [(unit.x, unit.y)], unit.facing, (words,))
        return 0.0
    found = paths.sweep(ctx.state, unit, heading, want, facing=heading)
    end = found.end
    notes = [f"countercharges {charger.name} {found.reached:.3g}H"]
    if found.blocker is not None:
        notes.append(f"stops short: {_named(ctx.state, found)} in the way")
    ctx.move(unit.id, [(unit.x, unit.y), (round(end.x, 3), round(end.y, 3))], heading, notes)
    return found.reached


# -- the charger after an evasion ---------------------------------------------------------------


def charge_on(ctx: Context, unit: Unit, target: Unit) -> bool:
    """The target evaded out of reach: with ``charge_after_evade`` "full_move" the charger moves
    its full charge distance straight at it, stopping at anything in the way; ending touching
    the evader (``ends_touching``: also at exactly its distance) it has contacted it (True: the
    caller closes up and fights). "stop": it stays."""
    if setting(ctx.params, "charge_after_evade") != "full_move":
        ctx.emit(OrderRejected(unit.id, "charge", f"{target.name} evaded out of reach"))
        return False
    heading = heading_of((target.x - unit.x, target.y - unit.y))
    crowded = turned_onto(ctx.state, unit, heading)
    if crowded:  # as a countercharger's turn (``turned_onto``), found by the AI's games
        words = f"{target.name} evaded; no room to turn to charge on: {crowded} in the way"
        ctx.emit(OrderRejected(unit.id, "charge", words))
        return False
    found = paths.sweep(ctx.state, unit, heading, mt.distance(unit, "charge"), facing=heading)
    end = found.end
    # a move of exactly the gap is not blocked by the evader but ends against it: contact
    blocked = found.blocker is not None and found.blocker.id == target.id
    caught = blocked or ends_touching(found, target)
    notes = [f"charges on after {target.name}'s evasion {found.reached:.3g}H"]
    if found.blocker is not None and not caught:
        notes.append(f"stops: {_named(ctx.state, found)} in the way")
    ctx.move(unit.id, [(unit.x, unit.y), (round(end.x, 3), round(end.y, 3))], heading, notes)
    if caught:
        return True  # the caller closes up (``contact.contact``) and marks the charge
    ctx.set_status(
        unit.id, f"charged {target.name}, which evaded", charged=True, moves=MOVES.of(unit) + 1
    )
    ctx.emit(OrderRejected(unit.id, "charge", f"{target.name} evaded: the charge falls short"))
    return False
