"""``python -m bot ai-bench``: how well the AI general (#36) plays, through the engine alone.

Each game is the ruleset's sample battle (or, with ``--units``, a big battle of that many
units a side, as the benchmarks lay it), seeds 0..N-1, played to its end or the turn limit.
Against the defaults, the AI takes the first side in even seeds and the second in odd ones;
the other side gives no orders and answers every question with its default (what a missing
player's side does today). Then the AI plays both sides. Every side reads only its own view
(``secrets.view``). Planning CPU is measured per game turn of one side (``time.process_time``).
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from bot.errors import UserError
from bot.services.parameters import parse_value
from rules_core import engine, general, registry
from rules_core.big_battles import begun
from rules_core.codec import Json
from rules_core.decisions import GM, Answer
from rules_core.engine import Resolution
from rules_core.orders import Order
from rules_core.plugin import Rules
from rules_core.secrets import Viewer, view
from rules_core.state import BattleState

SEED = b"ai-bench"
TURNS = 12  # a guard past every ruleset's own turn limit (its ``max_turns``)
MAX_CALLS = 3_000  # a guard against a battle that never finishes its turns
TURN_BUDGET_S = 1.5  # the general's CPU per side per game turn, shared by its steps (target 2 s)


@dataclass
class Tally:
    """Results of a series of games, from the AI's side where one side is the AI's."""

    wins: int = 0
    losses: int = 0
    undecided: int = 0
    ended: int = 0  # games ended by a break or victory within the turn limit
    ahead: int = 0  # undecided games the AI ended with more of its units standing
    planning: list[float] = field(default_factory=list)  # CPU per side per game turn

    @property
    def share(self) -> float:
        """The AI's share of the decided games, in percent (0 if none was decided)."""
        decided = self.wins + self.losses
        return 100.0 * self.wins / decided if decided else 0.0


def start(rules: Rules, units: int | None, params: Mapping[str, Json] | None = None) -> BattleState:
    """A new battle at its first step: the sample, or a big battle of ``units`` a side, with
    a campaign's ``params`` (none: the ruleset's defaults)."""
    if units is not None:
        state = begun(rules, units * 2)
        return replace(state, parameters={**state.parameters, **(params or {})})
    sample = rules.sample_battle()
    if sample is None:
        raise SystemExit("this ruleset has no sample battle")
    # The sample's own turn limit is the demo's, kept short; a game has the ruleset's.
    parameters = {k: v for k, v in sample.parameters.items() if k != "max_turns"}
    return engine.begin(rules, replace(sample, parameters={**parameters, **(params or {})}))


def parameter(rules: Rules, given: str) -> tuple[str, Json]:
    """``NAME=VALUE`` as a parameter of the ruleset, its value read as ``/campaign rules set``
    reads it (``parse_value``); SystemExit naming the ruleset's parameters if unknown."""
    name, _, text = given.partition("=")
    known = {one.name: one for one in rules.parameters}
    if name not in known or not text:
        raise SystemExit(f"--param NAME=VALUE, NAME one of: {', '.join(sorted(known))}")
    try:
        return name, parse_value(known[name], text)
    except UserError as error:
        raise SystemExit(f"--param {given}: {error}") from None


def dice(seed: int) -> bytes:
    """The dice seed of game ``seed`` (what its battle record publishes the hash of)."""
    return SEED + str(seed).encode()


def play(
    rules: Rules,
    state: BattleState,
    ai_sides: frozenset[str],
    seed: int,
    last: int = TURNS,
    *,
    budget_s: float = TURN_BUDGET_S,
    watch: Callable[[Resolution], None] | None = None,
) -> tuple[BattleState, list[float]]:
    """One game (to the end of turn ``last`` at most): the AI plays ``ai_sides``, the others
    give no orders; with CPU per turn. ``watch`` sees every engine call's resolution."""
    seeded = dice(seed)
    cpu: dict[tuple[int, str], float] = {}
    for _ in range(MAX_CALLS):
        if state.outcome is not None or state.cursor.turn > last:
            break
        if state.pending is not None:
            result = engine.answer(rules, seeded, state, _answer(rules, state, ai_sides, seed))
        else:
            orders = _orders(rules, state, ai_sides, (seed, budget_s), cpu)
            result = engine.run(rules, seeded, state, orders)
        if watch is not None:
            watch(result)
        state = result.state
    return state, list(cpu.values())


def _orders(
    rules: Rules,
    state: BattleState,
    ai_sides: frozenset[str],
    game: tuple[int, float],
    cpu: dict[tuple[int, str], float],
) -> list[Order]:
    """The AI's orders for its sides waiting in the open step, each side's planning CPU this
    turn (``game``: the seed and the budget per side per turn) added to ``cpu``."""
    seed, turn_budget = game
    orders: list[Order] = []
    for side in engine.waiting(rules, state).sides:
        if side not in ai_sides:
            continue
        key = (state.cursor.turn, side)
        budget = max(turn_budget - cpu.get(key, 0.0), 0.0)
        began = time.process_time()
        seen = view(state, Viewer.of_side(side))
        advice = general.plan_side(rules, seen, side, seed=seed, budget_s=budget)
        cpu[key] = cpu.get(key, 0.0) + time.process_time() - began
        orders.extend(a.order for a in advice)
    return orders


def _answer(rules: Rules, state: BattleState, ai_sides: frozenset[str], seed: int) -> Answer:
    """The AI's answer for its side's question, else the question's default."""
    assert state.pending is not None
    decision = state.pending.decision
    if decision.who not in ai_sides:
        return Answer(decision.id, decision.default, GM if decision.who == GM else decision.who)
    seen = view(state, Viewer.of_side(decision.who))
    return Answer(
        decision.id, general.reply(rules, seen, decision.who, decision).choice, decision.who
    )


def series(
    rules: Rules,
    games: int,
    units: int | None,
    both: bool,
    params: Mapping[str, Json] | None = None,
) -> Tally:
    """N games, sides alternated (or the AI on both sides with ``both``)."""
    tally = Tally()
    for seed in range(games):
        state = start(rules, units, params)
        sides = tuple(side.id for side in state.sides)
        ai_sides = frozenset(sides) if both else frozenset({sides[seed % len(sides)]})
        end, cpu = play(rules, state, ai_sides, seed)
        tally.planning.extend(cpu)
        outcome = end.outcome
        if outcome is None or outcome.winner is None:
            tally.undecided += 1  # a draw at the turn limit is no break and no victory
            tally.ahead += _ahead(end, ai_sides)
            tally.ended += int(ended_by_break(rules, end))
            continue
        tally.ended += 1
        if outcome.winner in ai_sides:
            tally.wins += 1
        else:
            tally.losses += 1
    return tally


def ended_by_break(rules: Rules, state: BattleState) -> bool:
    """Whether a game ended by the break rule: a winner, or every army broken at once (a
    draw, but not the turn limit's)."""
    outcome = state.outcome
    if outcome is None:
        return False
    return outcome.winner is not None or all(rules.army_broken(state, s.id) for s in state.sides)


def _ahead(state: BattleState, ai_sides: frozenset[str]) -> int:
    """1 if the AI's sides have more units standing than the others at the end, else 0."""
    standing = [u.side in ai_sides for u in state.units_on_table]
    return int(standing.count(True) > standing.count(False))


def report(ruleset: str, games: int, units: int | None, given: Sequence[str] = ()) -> list[str]:
    """The lines ai-bench prints for one ruleset (``given``: ``NAME=VALUE`` parameters)."""
    rules = registry.get(ruleset).rules
    if rules is None:
        raise SystemExit(f"{ruleset} has no battles yet")
    params = dict(parameter(rules, one) for one in given)
    against = series(rules, games, units, both=False, params=params)
    mirror = series(rules, games, units, both=True, params=params)
    cpu = mirror.planning + against.planning
    size = "sample battle" if units is None else f"{units} units a side"
    changed = "".join(f", {name} {json.dumps(value)}" for name, value in params.items())
    return [
        f"{ruleset} ({size}, {games} games, turn limit {_limit(rules, params)}{changed})",
        f"  AI vs defaults: {against.wins} won, {against.losses} lost,"
        f" {against.undecided} undecided ({against.ahead} with the AI ahead in units);"
        f" {against.share:.0f} % of decided games won",
        f"  AI vs AI: {mirror.ended} of {games} ended by a break or victory"
        f" ({100.0 * mirror.ended / games if games else 0.0:.0f} %)",
        f"  planning CPU per side per game turn: mean {_mean(cpu):.3f} s,"
        f" max {max(cpu, default=0.0):.3f} s",
    ]


def _limit(rules: Rules, params: Mapping[str, Json]) -> str:
    """The turn limit the games play to: the ruleset's own, or the one given."""
    limit = rules.parameter_values(dict(params)).get("max_turns")
    return str(limit) if limit is not None else "none"


def _mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def main(arguments: list[str]) -> int:
    """Parse the arguments, play the games, print the table; the exit status."""
    parser = argparse.ArgumentParser(prog="python -m bot ai-bench", description=__doc__)
    parser.add_argument("--ruleset", required=True, help="the ruleset's id, e.g. hail_caesar")
    parser.add_argument("--games", type=int, default=20, help="games per series (seeds 0..N-1)")
    parser.add_argument(
        "--units", type=int, default=None, help="units a side (default: the sample battle)"
    )
    parser.add_argument(
        "--param",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a campaign's parameter for every game (repeatable; default: the ruleset's)",
    )
    args = parser.parse_args(arguments)
    for line in report(args.ruleset, args.games, args.units, args.param):
        print(line, flush=True)
    return 0
