"""``python -m bot pace``: how often players must come back, per game turn, and how long a
turn takes, with scripted players who answer step by step and with players who plan ahead.

Each ruleset's sample battle is played through the engine alone. A *stop* is a moment a side's
player must come to the battle: orders for a step, or a question. Step by step, every step a
side acts in and every question it is asked is a stop. Planning ahead, a side stops once when
its part of a game turn opens and plans every step of it it acts in (orders judged against the
battle as it stands, judged again at their step; those no longer legal fall back on the
default); questions that a standing instruction covers are answered without a stop.

Elapsed time follows a player model: each answer arrives after a random delay (lognormal,
median ``MEDIAN_HOURS``), never after its deadline (the default deadline policy, with a step's
or question's own length where it has one); a step waits for its slowest side.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from bot.services.settings import DEFAULT_POLICY, decision_deadline, step_deadline
from rules_core import engine, planning, registry
from rules_core.decisions import GM, Answer, Decision
from rules_core.orders import Order
from rules_core.plugin import Rules
from rules_core.registry import all_rulesets
from rules_core.standing import Standing, standing_answer
from rules_core.state import BattleState

MEDIAN_HOURS = 6.0  # the median delay before a player answers
SPREAD = 1.0  # the lognormal's sigma: most answers come within a few hours to a day or two
SEED = b"pace-seed"
MAX_CALLS = 5_000  # a guard against a battle that never finishes its turns
MODES = ("step", "plan")
FIELDS = (
    "ruleset",
    "mode",
    "turns",
    "stops_mean",
    "stops_max",
    "questions",
    "gm_stops",
    "apart_stops",
    "elapsed_median_hours",
    "elapsed_max_hours",
    "fallbacks",
    "ended",
)

StandingHook = Callable[[Rules, BattleState, Decision], Answer | None]


@dataclass
class Pace:
    """One ruleset played in one mode: stops per side per turn, questions, time per turn."""

    ruleset: str
    mode: str
    sides: tuple[str, ...]
    stops: dict[int, dict[str, int]] = field(default_factory=dict)
    elapsed: dict[int, float] = field(default_factory=dict)
    questions: int = 0
    gm_stops: int = 0
    apart_stops: int = 0  # stops the ruleset counts apart (``Rules.pace_apart``: personal combats)
    ended: str = ""  # how the battle ended, if it did within the turns played
    fallbacks: int = 0  # planned orders no longer legal by their step (the default used)

    def stop(self, turn: int, side: str) -> None:
        """Count one stop of a side (or the GM) in a game turn."""
        if side == GM:
            self.gm_stops += 1
            return
        per_side = self.stops.setdefault(turn, {s: 0 for s in self.sides})
        per_side[side] = per_side.get(side, 0) + 1

    def wait(self, turn: int, hours: float) -> None:
        """Add time the battle waited in a game turn."""
        self.elapsed[turn] = self.elapsed.get(turn, 0.0) + hours

    def row(self) -> dict[str, object]:
        """The figures as one JSON-ready row."""
        turns = sorted(self.elapsed) or sorted(self.stops)
        counts = [self.stops.get(turn, {}).get(side, 0) for turn in turns for side in self.sides]
        times = [self.elapsed.get(turn, 0.0) for turn in turns]
        return {
            "ruleset": self.ruleset,
            "mode": self.mode,
            "turns": len(turns),
            "stops_mean": round(statistics.fmean(counts), 2) if counts else 0.0,
            "stops_max": max(counts, default=0),
            "questions": self.questions,
            "gm_stops": self.gm_stops,
            "apart_stops": self.apart_stops,
            "elapsed_median_hours": round(statistics.median(times), 1) if times else 0.0,
            "elapsed_max_hours": round(max(times, default=0.0), 1),
            "fallbacks": self.fallbacks,
            "ended": self.ended,
        }


@dataclass
class _Planner:
    """The plans of scripted players who plan ahead: orders by step key and side, and the sides
    done for each game turn."""

    orders: dict[str, list[planning.Planned]] = field(default_factory=dict)
    done: dict[int, set[str]] = field(default_factory=dict)
    conditional: bool = False  # each order carries alternatives (``planning.plain_alternatives``)

    def plan(self, rules: Rules, state: BattleState, side: str) -> None:
        """Plan every step of the turn the side acts in, and say it is done for the turn."""
        for step in planning.side_steps(rules, state, side):
            wanted = rules.demo_orders(planning.at_step(state, step), side)
            legal = planning.plan_orders(rules, state, step, wanted)
            for order in wanted if self.conditional else legal:
                others: tuple[Order, ...] = ()
                if self.conditional:
                    others = planning.plain_alternatives(rules, state, step, order)
                if order not in legal and not others:
                    continue  # not possible now, and nothing to fall back on but the default
                planned = planning.Planned(step.key, side, order, alternatives=others)
                self.orders.setdefault(step.key, []).append(planned)
        self.done.setdefault(state.cursor.turn, set()).add(side)

    def covers(self, rules: Rules, state: BattleState, side: str) -> bool:
        """Whether the side has planned this step or is done for the turn."""
        key = planning.current_key(rules, state)
        planned = any(p.side == side for p in self.orders.get(key, ()))
        return planned or side in self.done.get(state.cursor.turn, set())


def delay(rng: random.Random, deadline: float) -> float:
    """Hours until a player answers: lognormal with median ``MEDIAN_HOURS``, never after the
    deadline."""
    return min(rng.lognormvariate(math.log(MEDIAN_HOURS), SPREAD), deadline)


def play(
    rules: Rules,
    state: BattleState,
    turns: int,
    mode: str,
    seed: int = 0,
    standing: StandingHook | None = None,
    conditional: bool = False,
) -> Pace:
    """Play ``turns`` game turns of a battle (set-up not counted) in one mode and measure it;
    ``conditional``: players planning ahead give their orders alternatives."""
    if mode not in MODES:
        raise ValueError(f"unknown mode {mode!r}")
    rng = random.Random(seed)
    pace = Pace(state.ruleset, mode, tuple(side.id for side in state.sides))
    planner = _Planner(conditional=conditional)
    state = engine.begin(rules, state)
    for _ in range(MAX_CALLS):
        if state.outcome is not None or state.cursor.turn > turns:
            break
        if state.pending is not None:
            state = _answer(rules, state, pace, rng, mode, standing)
        else:
            state = _orders(rules, state, pace, rng, mode, planner)
    if state.outcome is not None:
        pace.ended = state.outcome.reason
    return pace


def _orders(
    rules: Rules,
    state: BattleState,
    pace: Pace,
    rng: random.Random,
    mode: str,
    planner: _Planner,
) -> BattleState:
    """One step waiting for orders: who stops, how long it waits, and its resolution."""
    turn = state.cursor.turn
    acting = engine.waiting(rules, state).sides
    stopping = [s for s in acting if mode == "step" or not planner.covers(rules, state, s)]
    orders: list[Order] = []
    apart = state.cursor.step in rules.pace_apart
    for side in stopping:
        if apart:
            pace.apart_stops += 1
        else:
            pace.stop(turn, side)
        if mode == "plan" and side != GM:
            planner.plan(rules, state, side)
        else:
            orders += rules.demo_orders(state, side)
    carried = planning.CarriedOut((), (), ())
    if mode == "plan":
        due = planning.due(rules, state, [p for ps in planner.orders.values() for p in ps])
        carried = planning.carry_out(rules, state, due)
        pace.fallbacks += len(carried.fallbacks)
    if stopping and turn >= 1:
        own = rules.sequence.step(state.cursor.step).deadline_hours
        deadline = step_deadline(DEFAULT_POLICY, own)
        pace.wait(turn, max(delay(rng, deadline) for _ in stopping))
    elif turn >= 1:
        pace.wait(turn, 0.0)
    return planning.run_planned(rules, SEED, state, carried, orders).state


def _answer(
    rules: Rules,
    state: BattleState,
    pace: Pace,
    rng: random.Random,
    mode: str,
    standing: StandingHook | None,
) -> BattleState:
    """The open questions: those a standing instruction covers answered at once, the others
    each a stop; the step waits for the slowest."""
    assert state.pending is not None
    turn = state.cursor.turn
    waits: list[float] = []
    for decision in state.pending.open:
        if state.pending is None or state.pending.asked(decision.id) is None:
            break  # the step went on and asked anew: the next call takes those
        given = standing(rules, state, decision) if standing and mode == "plan" else None
        if given is None:
            if decision.topic in rules.pace_apart or state.cursor.step in rules.pace_apart:
                pace.apart_stops += 1
            else:
                pace.stop(turn, decision.who)
            pace.questions += 1
            waits.append(delay(rng, decision_deadline(DEFAULT_POLICY, decision.deadline_hours)))
            first = decision.id == state.pending.decision.id
            choice = rules.demo_answer(state) if first else decision.default
            given = Answer(decision.id, choice, decision.who)
        state = engine.settle(rules, SEED, engine.answer(rules, SEED, state, given)).state
    if turn >= 1:
        pace.wait(turn, max(waits, default=0.0))
    return state


def playable() -> tuple[str, ...]:
    """The rulesets with a sample battle, in the registry's order."""
    found = all_rulesets(include_unlisted=False)
    return tuple(r.id for r in found if r.rules is not None and r.rules.sample_battle() is not None)


def measure(
    rulesets: tuple[str, ...], turns: int, seed: int = 0, standing: StandingHook | None = None
) -> list[dict[str, object]]:
    """Every ruleset in both modes, one row each."""
    rows = []
    for ruleset in rulesets:
        rules = registry.get(ruleset).rules
        assert rules is not None
        for mode in MODES:
            sample = rules.sample_battle()
            assert sample is not None
            rows.append(play(rules, sample, turns, mode, seed, standing).row())
    return rows


def table(rows: list[dict[str, object]]) -> str:
    """The rows as a Markdown table."""
    head = (
        "| ruleset | mode | turns | stops/side/turn (mean) | max | questions | GM stops "
        "| apart | hours/turn (median) | max | fallbacks | ended |"
    )
    lines = [head, "|" + "---|" * 12]
    for row in rows:
        lines.append(
            f"| {row['ruleset']} | {row['mode']} | {row['turns']} | {row['stops_mean']} "
            f"| {row['stops_max']} | {row['questions']} | {row['gm_stops']} | {row['apart_stops']} "
            f"| {row['elapsed_median_hours']} | {row['elapsed_max_hours']} "
            f"| {row['fallbacks']} | {row['ended'] or '—'} |"
        )
    return "\n".join(lines)


def scripted_standing(rules: Rules, state: BattleState, decision: Decision) -> Answer | None:
    """The scripted players' standing instructions: for every topic the ruleset declares,
    each side's preferences in the order the topic lists its choices (the first the question
    offers answers it); questions with no topic, and the GM's, still reach a human."""
    instructions = [
        Standing(side.id, topic.id, choice.id)
        for side in state.sides
        for topic in rules.topics
        for choice in topic.choices
    ]
    return standing_answer(rules, state, decision, instructions)


def main(argv: list[str] | None = None) -> int:
    """Run the pace report, print the table and write the JSON if asked."""
    parser = argparse.ArgumentParser(prog="python -m bot pace", description=__doc__.split("\n")[0])
    parser.add_argument("--ruleset", action="append", help="a ruleset id (default: every one)")
    parser.add_argument("--turns", type=int, default=6, help="game turns played per battle")
    parser.add_argument("--json", type=Path, help="write the figures here as JSON")
    parser.add_argument("--seed", type=int, default=0, help="seed of the players' delays")
    args = parser.parse_args(argv)
    rulesets = tuple(args.ruleset or playable())
    known = set(playable())
    unknown = [r for r in rulesets if r not in known]
    if unknown or args.turns < 1:
        parser.error(f"no sample battle for {', '.join(unknown)}" if unknown else "turns >= 1")
    rows = measure(rulesets, args.turns, args.seed, scripted_standing)
    print(table(rows))
    if args.json is not None:
        args.json.write_text(json.dumps({"fields": list(FIELDS), "rows": rows}, indent=2))
        print(f"\nwritten to {args.json}")
    return 0
