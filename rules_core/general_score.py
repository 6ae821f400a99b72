"""How the AI general weighs a candidate (#36), and the one line that says why it chose it.

The chances come from the ruleset's exact odds (``Rules.odds``, the same as ``/odds``), read
from the side's view: a charge's chance to win and to lose, the losses expected on each side;
the rest from the board: friends at the actor's flanks, enemies left within reach of it.
Every reason a player reads is worded here.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from fractions import Fraction

from rules_core.general_candidates import Candidate, role_of
from rules_core.general_hints import GeneralHints, standing_enemies
from rules_core.geometry import facing_towards
from rules_core.odds import Odds, OddsQuery
from rules_core.orders import Order
from rules_core.plugin import Rules
from rules_core.state import BattleState, Unit
from rules_core.toolkit import gap

PRESS_MIN, PRESS_MAX = 0.5, 3.0  # the pressure's bounds: never reckless, never frozen
FACE_SHARE = 0.8  # a turn to face the enemy: this share of an advance (it only readies one)
_COUNT = re.compile(r"^\s*(?:\S+ loses )?(\d+)\s")  # "2 hits", "1 casualty", "X loses 3 VBU"


@dataclass(frozen=True)
class Scored:
    """A candidate with its score and the facts its reason is worded from."""

    candidate: Candidate
    score: float
    win: Fraction | None = None
    inflicted: float = 0.0
    suffered: float = 0.0
    flank: bool = False
    threats: int = 0


def board(rules: Rules, view: BattleState, actor_id: str) -> tuple[bool, int]:
    """Where an actor stands: whether a friend covers its flank, how many enemies reach it."""
    actor = _unit(view, actor_id)
    if actor is None:
        return False, 0
    return _supported(view, actor, rules.general), _threats(rules, view, actor)


def pressure(rules: Rules, view: BattleState, side: str) -> float:
    """How hard the side should press (1 plain): more as the turn limit nears and as the
    enemy army nears its break, less as its own does (the ruleset's ``breaking`` hook)."""
    w = rules.general.weights
    params = rules.parameter_values(view.parameters)
    limit = params.get("max_turns")
    late = min(view.cursor.turn / limit, 1.0) if isinstance(limit, int) and limit > 0 else 0.0
    others = [s.id for s in view.sides if s.id != side]
    enemy = max((rules.general.breaking(view, other, params) for other in others), default=0.0)
    own = rules.general.breaking(view, side, params)
    press = 1.0 + w.urgency * late + w.finish * enemy - w.caution * own
    return min(max(press, PRESS_MIN), PRESS_MAX)


def score(
    rules: Rules,
    view: BattleState,
    candidate: Candidate,
    board_: tuple[bool, int],
    press: float = 1.0,
) -> Scored:
    """The candidate's worth to its side, by the ruleset's weights (``board_``: the actor's
    ``board``; ``press``: the side's ``pressure``, weighing its advances and charges)."""
    flank, threats = board_
    hints = rules.general
    w = hints.weights
    role = role_of(rules, candidate)
    base = {
        "scripted": w.scripted,
        "advance": w.advance,
        "hold": w.hold,
        "rally": w.rally,
        "retire": w.retire,
    }.get(role, 0.0)
    if role == "advance":
        base = base * press - w.patience  # lines meet as the battle must be decided
        closes = _closes(view, candidate, hints)
        if closes is False:
            base = -w.advance  # a march away from every enemy (lines that passed) is no advance
        elif candidate.in_line:
            base += w.line
    elif role == "face":
        # turning to face is worth most of an advance where the unit cannot advance as it faces
        turned = _turned_away(view, candidate.actor, hints)
        base = (w.advance * press - w.patience) * FACE_SHARE if turned else -w.advance
    if candidate.role == "scripted" and role != "scripted":
        base += w.drill  # the ruleset's drill knows its rules: a head start
    total = base + (w.flank if flank else 0.0) - w.threat * threats
    if role not in ("charge", "shoot"):
        return Scored(candidate, total, flank=flank, threats=threats)
    win, lose, inflicted, suffered = _odds(rules, view, candidate, hints)
    total += w.inflicted * inflicted - w.suffered * suffered
    if candidate.target is not None:  # a worn enemy is pressed until it breaks
        total += w.worn * press * hints.worn(view, candidate.target)
    if role == "charge":
        total += w.charge * press * float(win if win is not None else Fraction(1, 2))
        total -= w.lose * float(lose) / press
    elif inflicted > 0:
        total += w.shoot
    return Scored(candidate, total, win, inflicted, suffered, flank, threats)


def reason(scored: Scored, role: str) -> str:
    """The one line a player reads: what was ordered (in ``role``) and why."""
    candidate = scored.candidate
    target = candidate.target.name if candidate.target is not None else ""
    flank = ", flank secure" if scored.flank else ""
    if role == "charge":
        win = "" if scored.win is None else f": {float(scored.win) * 100:.0f} % to win"
        return f"charged {target}{win}{flank}"
    if role == "shoot":
        return f"shot at {target}: {scored.inflicted:.1f} losses expected"
    if role == "advance":
        towards = (
            "in line, by the drill"
            if candidate.role == "scripted"
            else "in line on the enemy"
            if candidate.in_line
            else "on the nearest enemy"
        )
        return f"advanced {towards}{flank}"
    if role == "face":
        return "turned to face the nearest enemy: it faced away"
    if role == "retire":
        return f"fell back: {scored.threats} enemies within reach"
    if role == "rally":
        return "rallied: nothing better in reach"
    if role == "hold":
        if not scored.threats:
            return "held: no target in reach"
        return f"held the line: {scored.threats} enemies within reach, no attack scored better"
    kind = candidate.orders[0].kind.replace("_", " ") if candidate.orders else "no order"
    return f"{kind}: the ruleset's drill for this step, nothing scored better"


def question_reason(choice: str, default: str) -> str:
    """Why the general answered a question as it did."""
    if choice == default:
        return "the question's default: nothing scored better"
    return f"chose {choice}: as the ruleset's drill answers it"


def charge_chances(
    rules: Rules, view: BattleState, candidate: Candidate
) -> tuple[Fraction | None, Fraction, float, float]:
    """A charge's (or shot's) chance to win and to lose, and the losses expected on the target
    and on the actor, from the exact odds in ``view``."""
    return _odds(rules, view, candidate, rules.general)


def end_point(order: Order) -> tuple[float, float] | None:
    """Where a move order aims: its ``to``, else its ``path``'s last point; None if neither."""
    end = _end_point(order.params.get("to"))
    path = order.params.get("path")
    if end is None and isinstance(path, list) and path:
        end = _end_point(path[-1])
    return end


def _odds(
    rules: Rules, view: BattleState, candidate: Candidate, hints: GeneralHints
) -> tuple[Fraction | None, Fraction, float, float]:
    """Chance to win and to lose, losses expected on the target and on the actor."""
    odds = rules.odds(view, OddsQuery.of_order(candidate.orders[0]))
    if not isinstance(odds, Odds):
        return None, Fraction(0), 0.0, 0.0
    actor = _unit(view, candidate.actor)
    target = candidate.target
    results: list[tuple[Fraction, Fraction]] = []  # (win, lose): the actor's latest first
    inflicted = suffered = 0.0
    for table in odds.tables:
        labels = [(c.label.lower(), c.chance) for c in table.chances]
        wins = sum((p for label, p in labels if _any(label, hints.win_words)), Fraction(0))
        losses = sum((p for label, p in labels if _any(label, hints.lose_words)), Fraction(0))
        named = _named_result(labels, actor, target, hints)
        if named is not None:
            results.insert(0, named)
        elif wins or losses:
            title = table.title.lower()
            if (
                target is not None
                and target.name.lower() in title
                and not (actor is not None and actor.name.lower() in title)
            ):
                results.append((losses, wins))  # the target's result: its loss is our win
            else:
                results.insert(0, (wins, losses))
        expected = _expected(labels)
        if _on_actor(table.title.lower(), actor, target, len(odds.tables)):
            suffered += expected
        else:
            inflicted += expected
    win, lose = results[0] if results else _by_losses(inflicted, suffered)
    return win, lose, inflicted, suffered


def _named_result(
    labels: list[tuple[str, Fraction]], actor: Unit | None, target: Unit | None, hints: GeneralHints
) -> tuple[Fraction, Fraction] | None:
    """The actor's chance to win and to lose from a result table whose labels name the winner
    ("Legio X wins", Impetus): a win named for the target is the actor's loss; None where no
    label names either unit (the words alone then tell a win from a loss)."""
    if actor is None or target is None:
        return None
    mine, theirs = f"{actor.name.lower()} ", f"{target.name.lower()} "
    win = lose = Fraction(0)
    named = False
    for label, chance in labels:
        if not _any(label, hints.win_words):
            continue
        if label.startswith(mine) and not label.startswith(theirs):
            win, named = win + chance, True
        elif label.startswith(theirs):
            lose, named = lose + chance, True
    return (win, lose) if named else None


def _by_losses(inflicted: float, suffered: float) -> tuple[Fraction | None, Fraction]:
    """Chances to win and lose read from the losses alone, where the odds name no result (a
    fight decided by what each side loses): each side's share of the losses expected."""
    total = inflicted + suffered
    if total <= 0:
        return None, Fraction(0)
    win = Fraction(inflicted / total).limit_denominator(100)
    return win, 1 - win


def _on_actor(title: str, actor: Unit | None, target: Unit | None, tables: int) -> bool:
    """Whether a table of losses counts the actor's (else the enemy's: a shot's one table of
    hits, hits "by" the actor, losses named for the target)."""
    if target is not None and f"by {target.name.lower()}" in title:
        return True  # the target's hits land on the actor
    if actor is None or tables == 1 or f"by {actor.name.lower()}" in title:
        return False
    if target is not None and target.name.lower() in title:
        return False
    return actor.name.lower() in title


def _expected(labels: list[tuple[str, Fraction]]) -> float:
    """The mean count of a table of counts ("2 hits"), 0 for a table of results."""
    counts = [(int(m.group(1)), p) for label, p in labels if (m := _COUNT.match(label))]
    if len(counts) != len(labels):
        return 0.0
    return float(sum((n * p for n, p in counts), Fraction(0)))


def _any(label: str, words: tuple[str, ...]) -> bool:
    return any(word in label for word in words)


def _unit(view: BattleState, unit_id: str) -> Unit | None:
    try:
        return view.unit(unit_id)
    except KeyError:
        return None


def _closes(view: BattleState, candidate: Candidate, hints: GeneralHints) -> bool | None:
    """Whether a move's end point (``to``, or a ``path``'s last point) is nearer the nearest
    enemy still standing than the actor stands now; None where the order names no point."""
    actor = _unit(view, candidate.actor)
    end = end_point(candidate.orders[0]) if candidate.orders else None
    enemies = standing_enemies(view, actor.side, hints) if actor is not None else ()
    if actor is None or end is None or not enemies:
        return None
    here = min(math.dist((actor.x, actor.y), (e.x, e.y)) for e in enemies)
    there = min(math.dist(end, (e.x, e.y)) for e in enemies)
    return there < here


def _turned_away(view: BattleState, actor_id: str, hints: GeneralHints) -> bool:
    """Whether the unit faces more than the hints' ``face_arc`` away from its nearest enemy
    still standing."""
    actor = _unit(view, actor_id)
    enemies = standing_enemies(view, actor.side, hints) if actor is not None else ()
    if actor is None or not enemies:
        return False
    enemy = min(enemies, key=lambda e: (gap(actor, e), e.id))
    bearing = facing_towards((actor.x, actor.y), (enemy.x, enemy.y))
    off = abs((bearing - actor.facing + 180.0) % 360.0 - 180.0)
    return off > hints.face_arc


def _end_point(value: object) -> tuple[float, float] | None:
    """A point given as ``[x, y]``, else None."""
    if isinstance(value, list | tuple) and len(value) == 2:
        x, y = value
        if isinstance(x, int | float) and isinstance(y, int | float):
            return float(x), float(y)
    return None


def _supported(view: BattleState, unit: Unit, hints: GeneralHints) -> bool:
    """Whether a friend stands within the hints' support distance of the unit."""
    friends = (u for u in view.units_of(unit.side, on_table=True) if u.id != unit.id)
    return any(gap(unit, friend) <= hints.support for friend in friends)


def _threats(rules: Rules, view: BattleState, unit: Unit) -> int:
    """How many enemies could reach the unit with their move."""
    return sum(
        1
        for enemy in view.enemies_of(unit.side, on_table=True)
        if gap(unit, enemy) <= max(rules.reach(view, enemy, "move"), 0.0)
    )
