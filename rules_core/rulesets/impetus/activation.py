"""Initiative per command and the activation loop, the order unfolding during the turn.

At the start of a turn and after each activation the sides hold an *initiative contest* for
the next activation: each side names one of its commands that has not acted (a question,
topic ``initiative_command``, answerable by standing instructions: the command nearest the
enemy, the strongest, the weakest, or a named one), both roll 2D6 plus their general's Bonus
and the higher activates. The generals' Initiative column then acts: a general who may re-roll
one or two dice (or both) re-rolls when his command is losing (re-rolling the dice under 4, or
both dice for an Expert when they total under 7); an Incompetent general's command loses the
contest on a double; the winner's general may pass the initiative to another of his commands
(Genius, Charismatic) or to the enemy (Confident), once a turn (topic ``initiative_pass``).
Ties are re-rolled (``initiative_ties``). When one side has no command left, its opponent's
remaining commands activate in the order it names them, with no roll.

The winner goes first among the loop's subjects (``ctx.set_subjects``); the battle status
``next_command`` holds the first contest's winner for ``command_subjects``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy

from rules_core.codec import Json
from rules_core.context import Context
from rules_core.decisions import Decision, Option
from rules_core.dice import Modifier, Purpose, Roll
from rules_core.events import TestResolved
from rules_core.rulesets.impetus import generals, melee
from rules_core.rulesets.impetus.profiles import current_vbu
from rules_core.rulesets.impetus.status import (
    ACTIVATED,
    CHARGED,
    CLOSED_RANKS,
    COMMAND_ACTIVATED,
    EVADES,
    MELEE_PENDING,
    MELEE_WITH,
    MOVES,
    NEXT_COMMAND,
    PASSED,
    RALLIED,
    SHOT,
)
from rules_core.rulesets.impetus.topics import (
    INITIATIVE_COMMAND,
    INITIATIVE_PASS,
    NAMING,
    PASSING,
)
from rules_core.state import BattleState, Group, Unit
from rules_core.steps import Subject

MAX_TIE_ROLLS = 10  # re-rolled ties before the alternate rule settles it


def live_commands(state: BattleState) -> list[Group]:
    """Commands with units on the table, in roster order."""
    on_table = {u.group for u in state.units_on_table}
    return [g for g in state.groups if g.kind == "command" and g.id in on_table]


def command_subjects(state: BattleState) -> tuple[Subject, ...]:
    """Commands still to act this turn: the contest's winner first, then the rest with the
    sides alternating (the order is settled contest by contest during the turn)."""
    waiting = [g for g in live_commands(state) if not COMMAND_ACTIVATED.of(g)]
    first = NEXT_COMMAND.of(state)
    head = [g for g in waiting if g.id == first]
    rest = [g for g in waiting if g.id != first]
    order = list(state.cursor.side_order)
    rank = {g.id: n for n, g in enumerate(rest)}

    def key(group: Group) -> tuple[int, int]:
        mine = [g for g in rest if g.side == group.side]
        return (mine.index(group), order.index(group.side) if group.side in order else 9)

    ordered = sorted(rest, key=lambda g: (key(g), rank[g.id]))
    return tuple(Subject(g.id, g.side) for g in (*head, *ordered))


def start_turn(ctx: Context) -> None:
    """Clear last turn's marks, then hold the first contest of the turn."""
    state = ctx.state
    for unit in state.units:
        changes: dict[str, Json] = {}
        for flag in (ACTIVATED, CHARGED, CLOSED_RANKS, SHOT, RALLIED):
            if flag.of(unit):
                changes[flag.key] = False
        for count in (MOVES, EVADES):
            if count.of(unit):
                changes[count.key] = 0
        if changes:
            ctx.set_status(unit.id, None, **changes)
    for group in state.groups:
        if group.kind == "command" and (COMMAND_ACTIVATED.of(group) or PASSED.of(group)):
            ctx.set_group_status(group.id, None, activated=False, passed=False, initiative=0)
    pool = live_commands(ctx.state)
    if not pool:
        return
    winner = contest(ctx, pool)
    ctx.set_battle_status(None, next_command=winner.id)


def activate(ctx: Context) -> None:
    """The command activates: its units' marks for this activation are set; a drawn melee of
    any of them is fought again (``melee.resolve``, impact False)."""
    subject = ctx.subject
    assert subject is not None
    group = ctx.state.group(subject.id)
    ctx.set_group_status(group.id, f"{group.name} activates", activated=True)
    for unit in [u for u in ctx.state.units_on_table if u.group == group.id]:
        ctx.set_status(
            unit.id,
            None,
            activated=True,
            moves=0,
            charged=False,
            shot=False,
            rallied=False,
            last_manoeuvre="",
        )
    for unit in [u for u in ctx.state.units_on_table if u.group == group.id]:
        if not MELEE_PENDING.of(unit):
            continue
        enemies = MELEE_WITH.of(unit)
        for enemy_id in enemies if isinstance(enemies, list) else []:
            enemy = next((u for u in ctx.state.units_on_table if u.id == enemy_id), None)
            fresh = next((u for u in ctx.state.units_on_table if u.id == unit.id), None)
            if enemy is not None and fresh is not None:
                melee.resolve(ctx, fresh, enemy, impact=False)


def next_contest(ctx: Context) -> None:
    """The contest for the next activation among the commands still to come."""
    upcoming = list(ctx.upcoming)
    if not upcoming:
        return
    pool = [ctx.state.group(s.id) for s in upcoming]
    live = {g.id for g in live_commands(ctx.state)}  # once, not once for each command
    pool = [g for g in pool if g.id in live] or pool
    winner = contest(ctx, pool)
    ordered = [s for s in upcoming if s.id == winner.id] + [
        s for s in upcoming if s.id != winner.id
    ]
    if [s.id for s in ordered] != [s.id for s in upcoming]:
        ctx.set_subjects(ordered, f"{winner.name} won the initiative")


# -- the contest ----------------------------------------------------------------------------


def contest(ctx: Context, pool: Sequence[Group]) -> Group:
    """The command that activates next among ``pool``: named, rolled, re-rolled, passed."""
    sides = [s for s in ctx.state.cursor.side_order if any(g.side == s for g in pool)]
    if len(sides) == 1:
        return name_command(ctx, sides[0], pool)
    named = [name_command(ctx, side, pool) for side in sides]
    winner, loser = roll_off(ctx, named[0], named[1])
    return maybe_pass(ctx, winner, loser, pool)


def name_command(ctx: Context, side: str, pool: Sequence[Group]) -> Group:
    """The command a side names for the contest (a question when it has a choice)."""
    mine = [g for g in pool if g.side == side]
    if len(mine) == 1:
        return mine[0]
    default = default_command(ctx.state, mine)
    options = tuple(Option(k, v) for k, v in NAMING.items()) + tuple(
        Option(g.id, g.name) for g in mine
    )
    asked = Decision(
        f"initiative_command_{side}",
        f"{ctx.state.side(side).name}: which command do you name for the initiative?",
        options,
        "nearest",
        side,
        topic=INITIATIVE_COMMAND,
    )
    answer = ctx.ask(asked)
    chosen = by_strategy(ctx.state, mine, answer)
    return chosen if chosen is not None else default


def default_command(state: BattleState, mine: Sequence[Group]) -> Group:
    """The computed default: the command nearest the enemy."""
    found = by_strategy(state, mine, "nearest")
    return found if found is not None else mine[0]


def by_strategy(state: BattleState, mine: Sequence[Group], answer: str) -> Group | None:
    """A named command, or the one a strategy picks (nearest, strongest, weakest)."""
    named = next((g for g in mine if g.id == answer), None)
    if named is not None:
        return named
    # each command with its place in ``mine``: ties go to the first (no search for the place)
    placed = list(enumerate(mine))
    if answer == "nearest":
        return min(placed, key=lambda p: (_gap_to_enemy(state, p[1]), p[0]))[1]
    if answer == "strongest":
        return max(placed, key=lambda p: (_vbu(state, p[1]), -p[0]))[1]
    if answer == "weakest":
        return min(placed, key=lambda p: (_vbu(state, p[1]), p[0]))[1]
    return None


def _vbu(state: BattleState, group: Group) -> int:
    return sum(current_vbu(u) for u in state.units_on_table if u.group == group.id)


# The gaps worked out for the last units seen: a contest asks them for every command it
# names, and each step's replay asks again, of the same frozen units, or of units whose
# statuses alone changed (a gap reads only where each unit stands, its side and command).
Standing = tuple[tuple[float, float, str, str | None], ...]
_GAPS: list[tuple[tuple[Unit, ...], Standing, dict[tuple[str, str], float]]] = []


def _kept_gaps(state: BattleState) -> dict[tuple[str, str], float]:
    """The gaps kept for this state's units (empty when they stand elsewhere)."""
    if _GAPS and _GAPS[0][0] is state.units:
        return _GAPS[0][2]
    standing = tuple((u.x, u.y, u.side, u.group) for u in state.units_on_table)
    gaps = _GAPS[0][2] if _GAPS and _GAPS[0][1] == standing else {}
    _GAPS[:] = [(state.units, standing, gaps)]
    return gaps


def _gap_to_enemy(state: BattleState, group: Group) -> float:
    """The least centre-to-centre distance from the command's units to an enemy unit."""
    gaps = _kept_gaps(state)
    key = (group.id, group.side)
    if key not in gaps:
        gaps.update(_side_gaps(state.units_on_table, group.side))
        gaps.setdefault(key, math.inf)  # no unit of it on the table, or no enemy
    return gaps[key]


def _side_gaps(on_table: Sequence[Unit], side: str) -> dict[tuple[str, str], float]:
    """Every command's gap to the enemies of ``side`` at once: every pair measured in one
    array (numpy), then the pairs within a hair of each command's least measured again with
    ``math.dist``, so each gap is the very distance a scan of every pair gave."""
    foes = [(b.x, b.y) for b in on_table if b.side != side]
    placed = [(u.group, (u.x, u.y)) for u in on_table if u.group is not None]
    if not foes or not placed:
        return {}
    mine = numpy.asarray([where for _, where in placed], dtype=float)
    there = numpy.asarray(foes, dtype=float)
    rough = numpy.hypot(mine[:, 0, None] - there[None, :, 0], mine[:, 1, None] - there[None, :, 1])
    least: dict[str, float] = {}
    for (group, _), nearest in zip(placed, rough.min(axis=1).tolist(), strict=True):
        least[group] = min(least.get(group, math.inf), nearest)
    bound = numpy.asarray([least[group] * (1 + 1e-9) + 1e-9 for group, _ in placed])
    gaps: dict[tuple[str, str], float] = {}
    for row, column in zip(*numpy.nonzero(rough <= bound[:, None]), strict=True):
        group, where = placed[row]
        key = (group, side)
        gaps[key] = min(gaps.get(key, math.inf), math.dist(where, foes[column]))
    return gaps


def roll_off(ctx: Context, one: Group, two: Group) -> tuple[Group, Group]:
    """Both roll 2D6 + Bonus, with re-rolls; ties re-rolled; returns (winner, loser)."""
    ties = str(ctx.params.get("initiative_ties", "reroll"))
    for _ in range(MAX_TIE_ROLLS):
        rolls = {g.id: _roll(ctx, g) for g in (one, two)}
        for _ in range(2):  # the losing side re-rolls, then perhaps the other
            for group, other in ((one, two), (two, one)):
                if _behind(ctx, group, rolls[group.id], rolls[other.id]):
                    rolls[group.id] = _reroll(ctx, group, rolls[group.id], rolls[other.id])
        failed = {g.id for g in (one, two) if _fails(ctx, g, rolls[g.id])}
        scores = {g.id: rolls[g.id].total for g in (one, two)}
        for group in (one, two):
            ctx.set_group_status(group.id, None, initiative=scores[group.id])
        if len(failed) == 1:
            loser = one if one.id in failed else two
            winner = two if loser is one else one
            _log(ctx, winner, loser, scores, f"{_general_name(ctx, loser)} rolled a double")
            return winner, loser
        if scores[one.id] != scores[two.id] and not failed:
            winner, loser = (one, two) if scores[one.id] > scores[two.id] else (two, one)
            _log(ctx, winner, loser, scores, "higher score")
            return winner, loser
        if ties != "reroll":
            break
    # Alternate: the side that did not activate last goes.
    last = ctx.subject.side if ctx.subject is not None else None
    winner, loser = (two, one) if one.side == last else (one, two)
    _log(ctx, winner, loser, {one.id: 0, two.id: 0}, "tie, the other side goes")
    return winner, loser


def _roll(ctx: Context, group: Group) -> Roll:
    general = generals.general_of(ctx.state, group.id)
    bonus = generals.bonus(general)
    mods = (Modifier(bonus, f"{general.name}, {generals.kind_of(general)}"),) if general else ()
    why = Purpose(group.id, "initiative")
    return ctx.dice.roll(f"Initiative of {group.name}", 2, modifiers=mods, purpose=why)


def _behind(ctx: Context, group: Group, mine: Roll, theirs: Roll) -> bool:
    return mine.total < theirs.total or _fails(ctx, group, mine)


def _reroll(ctx: Context, group: Group, mine: Roll, theirs: Roll) -> Roll:
    """A general who may re-roll does so once per contest when behind."""
    general = generals.general_of(ctx.state, group.id)
    if general is None or any(d.rerolled for d in mine.dice):
        return mine
    effects = generals.initiative_effects(general)
    faces = [d.face for d in mine.dice]
    if "reroll_1_or_2" in effects:
        low = [i for i, face in enumerate(faces) if face <= 3]
        if low:
            return ctx.dice.reroll(mine, low, f"Initiative of {group.name} (re-roll)")
    elif "reroll_2" in effects and sum(faces) < 7:
        return ctx.dice.reroll(mine, [0, 1], f"Initiative of {group.name} (re-roll)")
    return mine


def _fails(ctx: Context, group: Group, roll: Roll) -> bool:
    general = generals.general_of(ctx.state, group.id)
    if general is None or "fails_if_double" not in generals.initiative_effects(general):
        return False
    faces = [d.face for d in roll.dice if d.kept]
    return len(faces) == 2 and faces[0] == faces[1]


def _general_name(ctx: Context, group: Group) -> str:
    general = generals.general_of(ctx.state, group.id)
    return general.name if general is not None else group.name


def _log(ctx: Context, winner: Group, loser: Group, scores: dict[str, int], why: str) -> None:
    row = f"{winner.name} {scores[winner.id]} against {loser.name} {scores[loser.id]}: {why}"
    ctx.emit(TestResolved(winner.name, "initiative", scores[winner.id], True, row))


def maybe_pass(ctx: Context, winner: Group, loser: Group, pool: Sequence[Group]) -> Group:
    """The winner's general may pass the initiative (once a turn for a command)."""
    general = generals.general_of(ctx.state, winner.id)
    if general is None or PASSED.of(ctx.state.group(winner.id)):
        return winner
    effects = generals.initiative_effects(general)
    others = [g for g in pool if g.side == winner.side and g.id != winner.id]
    choices = ["activate"]
    if "pass" in effects and others:
        choices.append("pass")
    if "pass_to_enemy" in effects:
        choices.append("pass_to_enemy")
    if len(choices) == 1:
        return winner
    asked = Decision(
        f"initiative_pass_{winner.side}",
        f"{winner.name} won the initiative: activate, or pass it?",
        tuple(Option(c, PASSING[c]) for c in choices),
        "activate",
        winner.side,
        topic=INITIATIVE_PASS,
    )
    answer = ctx.ask(asked)
    if answer == "activate":
        return winner
    ctx.set_group_status(winner.id, f"{general.name} passes the initiative", passed=True)
    if answer == "pass":
        return default_command(ctx.state, others)
    return loser
