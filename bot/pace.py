"""``python -m bot pace``: how often players must come back, per game turn, and how long a
turn takes, with scripted players in each mode of play (``MODES``): step by step; planning
ahead; planning ahead with the ruleset's recommended standing instructions; and planning
ahead with conditional plans and the recommended instructions. A mode whose feature is not in
this build is listed as not available, with no figures.

Each ruleset's sample battle is played through the engine alone, once per seed (the seed
gives both the dice and the players' delays). A *stop* is a moment a side's player must come
to the battle: orders for a step, or a question. Step by step, every step a side acts in and
every question it is asked is a stop. Planning ahead, a side stops once when its part of a
game turn opens and plans every step of it it acts in (the mode's ``Planner``: orders judged
against the battle as it stands, judged again at their step; those no longer legal fall back
on the default); questions that a standing instruction covers are answered without a stop.
In the conditional mode a player called plans the next game turn too, and that turn does not
wait for them. The war table mode plans ahead as the plan mode does, each order posted through
the page's endpoints to the bot's services (``bot.pace_table``; one seed: it is slower).
As in the bot, a step does not wait for a side with nothing it could order in it.

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
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from bot.pace_table import WarTable
from bot.services.settings import DEFAULT_POLICY, decision_deadline, step_deadline
from rules_core import engine, orderable, planning, registry
from rules_core.decisions import GM, Answer, Decision
from rules_core.orders import Order
from rules_core.plugin import Rules
from rules_core.registry import all_rulesets
from rules_core.standing import Standing, recommended_standing, standing_answer
from rules_core.state import BattleState

MEDIAN_HOURS = 6.0  # the median delay before a player answers
SPREAD = 1.0  # the lognormal's sigma: most answers come within a few hours to a day or two
SEED = b"pace-seed"
SEEDS = 10  # battles per ruleset and mode: the hours' 90th percentile needs a few
MAX_CALLS = 5_000  # a guard against a battle that never finishes its turns
NOT_AVAILABLE = "not available"
FIELDS = (
    "ruleset",
    "mode",
    "available",
    "seeds",
    "turns",
    "stops_mean",
    "stops_max",
    "questions",
    "fallbacks_mean",
    "last_resort_mean",
    "hours_median",
    "hours_p90",
    "gm_stops",
    "apart_stops",
    "ended",
)

StandingHook = Callable[[Rules, BattleState, Decision], Answer | None]


class Planner(Protocol):
    """How scripted players who plan ahead plan: one per battle played (a mode's hook)."""

    def plan(self, rules: Rules, state: BattleState, side: str) -> None:
        """Plan every step of the turn the side acts in, and say it is done for the turn."""

    def covers(self, rules: Rules, state: BattleState, side: str) -> bool:
        """Whether the side has planned the open step or is done for the turn."""

    def carry_out(self, rules: Rules, state: BattleState) -> planning.CarriedOut:
        """The planned orders of the open step judged again: those kept and those that fell
        back on the default."""


@dataclass(frozen=True)
class Mode:
    """A way the scripted players play: step by step (no planner) or planning ahead with a
    planner and, where the mode has them, standing instructions. ``available`` is False when
    the feature the mode measures is not in this build: its row says so, with no figures."""

    id: str
    title: str
    planner: Callable[[], Planner] | None = None
    standing: StandingHook | None = None
    available: bool = True
    most_seeds: int | None = None  # a slow mode (through the bot's services) plays fewer


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
    last_resort: int = 0  # planned orders carried out by their last alternative (hold, rally)

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

    @property
    def turns(self) -> list[int]:
        """The game turns played (set-up not counted)."""
        return sorted(self.elapsed) or sorted(self.stops)

    def counts(self) -> list[int]:
        """Stops of each side in each turn played."""
        return [self.stops.get(turn, {}).get(side, 0) for turn in self.turns for side in self.sides]

    def hours(self) -> list[float]:
        """Hours each turn played took."""
        return [self.elapsed.get(turn, 0.0) for turn in self.turns]

    def row(self) -> dict[str, object]:
        """The figures of this one battle as one JSON-ready row."""
        return summary(self.ruleset, self.mode, [self])


def summary(ruleset: str, mode: str, played: Sequence[Pace]) -> dict[str, object]:
    """The figures of a ruleset's battles in one mode (one per seed) as one JSON-ready row:
    means per side per turn, per battle for questions and GM stops, and the hours of every
    turn of every battle pooled for the median and the 90th percentile."""
    counts = [n for pace in played for n in pace.counts()]
    hours = sorted(h for pace in played for h in pace.hours())
    side_turns = sum(len(pace.turns) * len(pace.sides) for pace in played)
    battles = max(len(played), 1)
    return {
        "ruleset": ruleset,
        "mode": mode,
        "available": True,
        "seeds": len(played),
        "turns": max((len(pace.turns) for pace in played), default=0),
        "stops_mean": round(statistics.fmean(counts), 2) if counts else 0.0,
        "stops_max": max(counts, default=0),
        "questions": round(sum(p.questions for p in played) / battles, 1),
        "fallbacks_mean": round(sum(p.fallbacks for p in played) / max(side_turns, 1), 2),
        "last_resort_mean": round(sum(p.last_resort for p in played) / max(side_turns, 1), 2),
        "hours_median": round(statistics.median(hours), 1) if hours else 0.0,
        "hours_p90": round(percentile(hours, 0.9), 1),
        "gm_stops": round(sum(p.gm_stops for p in played) / battles, 1),
        "apart_stops": round(sum(p.apart_stops for p in played) / battles, 1),
        "ended": sum(1 for pace in played if pace.ended),
    }


def unavailable(ruleset: str, mode: str) -> dict[str, object]:
    """The row of a mode whose feature is not in this build: no figures."""
    row: dict[str, object] = dict.fromkeys(FIELDS, NOT_AVAILABLE)
    return {**row, "ruleset": ruleset, "mode": mode, "available": False}


def percentile(ordered: Sequence[float], fraction: float) -> float:
    """The value below which ``fraction`` of the sorted values lie (nearest rank); 0 if none."""
    if not ordered:
        return 0.0
    rank = max(math.ceil(fraction * len(ordered)), 1)
    return ordered[rank - 1]


@dataclass
class OrdersPlanner:
    """Scripted players who plan ahead: each plans the ruleset's scripted orders for every
    step of the turn it acts in, judged against the battle as it stands (those not legal then
    left out); at each step the orders planned for it are judged again. With ``ahead``, a
    player called also plans the next game turn (``planning.next_turn_steps``), from the
    preview, and is done for it too: the next turn does not wait for them."""

    orders: dict[str, list[planning.Planned]] = field(default_factory=dict)
    done: dict[int, set[str]] = field(default_factory=dict)
    conditional: bool = False  # each order carries alternatives (``planning.plain_alternatives``)
    ahead: bool = False  # plan the next game turn too when called

    def plan(self, rules: Rules, state: BattleState, side: str) -> None:
        """Plan every step of the turn the side acts in, and say it is done for the turn (and
        the next, planned too, with ``ahead``)."""
        turn = state.cursor.turn
        self._plan_steps(rules, state, side, planning.side_steps(rules, state, side))
        self.done.setdefault(turn, set()).add(side)
        if self.ahead and side not in self.done.get(turn + 1, set()):
            ahead = planning.next_turn_steps(rules, state, side)
            if ahead:
                self._plan_steps(rules, state, side, ahead)
                self.done.setdefault(turn + 1, set()).add(side)

    def _plan_steps(
        self, rules: Rules, state: BattleState, side: str, steps: Sequence[planning.TurnStep]
    ) -> None:
        """The side's scripted orders for these steps, each with its alternatives when
        conditional (kept though not legal now if it has some)."""
        for step in steps:
            view = state
            if self.conditional:  # the preview: the battle after the side's own earlier orders
                mine = [p for planned in self.orders.values() for p in planned if p.side == side]
                view = planning.foreseen(rules, state, step, mine, side)
            wanted = rules.demo_orders(planning.at_step(view, step), side)
            legal = planning.plan_orders(rules, view, step, wanted)
            for order in wanted if self.conditional else legal:
                others: tuple[Order, ...] = ()
                if self.conditional:
                    others = planning.plain_alternatives(rules, state, step, order)
                if order not in legal and not others:
                    continue  # not possible now, and nothing to fall back on but the default
                planned = planning.Planned(step.key, side, order, alternatives=others)
                self.orders.setdefault(step.key, []).append(planned)

    def covers(self, rules: Rules, state: BattleState, side: str) -> bool:
        """Whether the side has planned this step or is done for the turn."""
        key = planning.current_key(rules, state)
        planned = any(p.side == side for p in self.orders.get(key, ()))
        return planned or side in self.done.get(state.cursor.turn, set())

    def carry_out(self, rules: Rules, state: BattleState) -> planning.CarriedOut:
        """The orders planned for the open step, judged again."""
        due = planning.due(rules, state, self.orders.get(planning.current_key(rules, state), ()))
        return planning.carry_out(rules, state, due)


@dataclass
class TablePlanner(OrdersPlanner):
    """``OrdersPlanner``'s players planning on the war table: each step's scripted orders
    posted through the page's endpoints (``bot.pace_table``), the plan being what the bot's
    services kept."""

    table: WarTable | None = None

    def _plan_steps(
        self, rules: Rules, state: BattleState, side: str, steps: Sequence[planning.TurnStep]
    ) -> None:
        """The side's scripted orders for these steps, through the war table."""
        if self.table is None:
            self.table = WarTable(rules)
        wanted = [
            (step.key, order)
            for step in steps
            for order in rules.demo_orders(planning.at_step(state, step), side)
        ]
        for planned in self.table.plan(state, side, wanted):
            self.orders.setdefault(planned.step, []).append(planned)

    def close(self) -> None:
        """Stop the war table (once played)."""
        if self.table is not None:
            self.table.shut()
            self.table = None


def delay(rng: random.Random, deadline: float) -> float:
    """Hours until a player answers: lognormal with median ``MEDIAN_HOURS``, never after the
    deadline."""
    return min(rng.lognormvariate(math.log(MEDIAN_HOURS), SPREAD), deadline)


def play(
    rules: Rules,
    state: BattleState,
    turns: int,
    mode: str | Mode,
    seed: int = 0,
    standing: StandingHook | None = None,
) -> Pace:
    """Play ``turns`` game turns of a battle (set-up not counted) in one mode and measure it;
    ``standing`` replaces the mode's own standing instructions where it plans ahead."""
    chosen = mode if isinstance(mode, Mode) else mode_of(mode)
    if not chosen.available:
        raise ValueError(f"mode {chosen.id!r} is {NOT_AVAILABLE} in this build")
    rng = random.Random(seed)
    dice = SEED if seed == 0 else SEED + f"-{seed}".encode()
    pace = Pace(state.ruleset, chosen.id, tuple(side.id for side in state.sides))
    planner = None if chosen.planner is None else chosen.planner()
    answers = None if planner is None else standing or chosen.standing
    state = engine.begin(rules, state)
    for _ in range(MAX_CALLS):
        if state.outcome is not None or state.cursor.turn > turns:
            break
        if state.pending is not None:
            state = _answer(rules, dice, state, pace, rng, answers)
        else:
            state = _orders(rules, dice, state, pace, rng, planner)
    if isinstance(planner, TablePlanner):
        planner.close()
    if state.outcome is not None:
        pace.ended = state.outcome.reason
    return pace


def _orders(
    rules: Rules,
    dice: bytes,
    state: BattleState,
    pace: Pace,
    rng: random.Random,
    planner: Planner | None,
) -> BattleState:
    """One step waiting for orders: who stops (not a side with nothing it could order: the
    bot does not wait for it), how long it waits, and its resolution."""
    turn = state.cursor.turn
    acting = [
        s
        for s in engine.waiting(rules, state).sides
        if s == GM or orderable.has_orders(rules, state, s)
    ]
    stopping = [s for s in acting if planner is None or not planner.covers(rules, state, s)]
    if planner is not None and stopping:
        stopping += later_in_turn(rules, state, planner, acting)
    orders: list[Order] = []
    apart = state.cursor.step in rules.pace_apart
    for side in stopping:
        if apart:
            pace.apart_stops += 1
        else:
            pace.stop(turn, side)
        if planner is not None and side != GM:
            planner.plan(rules, state, side)
        else:
            orders += rules.demo_orders(state, side)
    carried = planning.CarriedOut((), (), ())
    if planner is not None:
        carried = planner.carry_out(rules, state)
        pace.fallbacks += len(carried.fallbacks)
        pace.last_resort += sum(
            1 for u in carried.substitutes if u.number == len(u.planned.alternatives)
        )
    if stopping and turn >= 1:
        own = rules.sequence.step(state.cursor.step).deadline_hours
        deadline = step_deadline(DEFAULT_POLICY, own)
        pace.wait(turn, max(delay(rng, deadline) for _ in stopping))
    elif turn >= 1:
        pace.wait(turn, 0.0)
    return planning.run_planned(rules, dice, state, carried, orders).state


def later_in_turn(
    rules: Rules, state: BattleState, planner: Planner, acting: Sequence[str]
) -> list[str]:
    """The sides the open step does not wait on that act later in this game turn and have not
    planned it: the bot calls them now too (``plans.later_in_turn``), and they plan it while
    the others play theirs."""
    return [
        side.id
        for side in state.sides
        if side.id not in acting
        and not planner.covers(rules, state, side.id)
        and planning.side_steps(rules, state, side.id)
    ]


def _answer(
    rules: Rules,
    dice: bytes,
    state: BattleState,
    pace: Pace,
    rng: random.Random,
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
        given = standing(rules, state, decision) if standing else None
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
        state = engine.settle(rules, dice, engine.answer(rules, dice, state, given)).state
    if turn >= 1:
        pace.wait(turn, max(waits, default=0.0))
    return state


def playable() -> tuple[str, ...]:
    """The rulesets with a sample battle, in the registry's order."""
    found = all_rulesets(include_unlisted=False)
    return tuple(r.id for r in found if r.rules is not None and r.rules.sample_battle() is not None)


def measure(
    rulesets: tuple[str, ...],
    turns: int,
    seed: int = 0,
    standing: StandingHook | None = None,
    seeds: int = 1,
) -> list[dict[str, object]]:
    """Every ruleset in every mode, one row each: ``seeds`` battles from ``seed`` on (each
    with its own dice and players' delays); a mode not in this build says so instead."""
    rows = []
    for ruleset in rulesets:
        rules = registry.get(ruleset).rules
        assert rules is not None
        for mode in MODES:
            if not mode.available:
                rows.append(unavailable(ruleset, mode.id))
                continue
            played = []
            for number in range(seed, seed + min(seeds, mode.most_seeds or seeds)):
                sample = rules.sample_battle()
                assert sample is not None
                played.append(play(rules, sample, turns, mode, number, standing))
            rows.append(summary(ruleset, mode.id, played))
    return rows


HEAD = (
    "| ruleset | mode | seeds | turns | stops/side/turn (mean) | max | questions/battle "
    "| fallbacks/side/turn | last alternative used/side/turn | hours/turn (median) "
    "| hours/turn (90th pct) | GM stops | apart "
    "| ended |"
)
COLUMNS = FIELDS[3:]  # the figures, in the table's order


def table(rows: list[dict[str, object]]) -> str:
    """The rows as a Markdown table, each mode by its title."""
    titles = {mode.id: mode.title for mode in MODES}
    lines = [HEAD, "|" + "---|" * (len(COLUMNS) + 2)]
    for row in rows:
        mode = titles.get(str(row["mode"]), str(row["mode"]))
        if not row["available"]:
            lines.append(f"| {row['ruleset']} | {mode} | {NOT_AVAILABLE} |" + " |" * 11)
            continue
        cells = " | ".join(str(row[name]) for name in COLUMNS)
        lines.append(f"| {row['ruleset']} | {mode} | {cells} |")
    return "\n".join(lines)


def recommended(rules: Rules, state: BattleState, decision: Decision) -> Answer | None:
    """The ruleset's recommended standing instructions (``Rules.recommended``), each side
    having accepted them, as ``/standing recommended`` sets them."""
    instructions = [
        instruction
        for side in state.sides
        for instruction in recommended_standing(rules.recommended, side.id)
    ]
    return standing_answer(rules, state, decision, instructions)


def conditional_planner() -> Planner:
    """Players planning ahead whose every order carries alternatives (a conditional plan),
    who plan the next game turn too when called."""
    return OrdersPlanner(conditional=True, ahead=True)


def scripted_standing(rules: Rules, state: BattleState, decision: Decision) -> Answer | None:
    """Standing instructions for every topic the ruleset declares: each side's preferences in
    the order the topic lists its choices (the first the question offers answers it);
    questions with no topic, and the GM's, still reach a human. Not a mode of its own: the
    most a player could set up, for tests to compare against."""
    instructions = [
        Standing(side.id, topic.id, choice.id)
        for side in state.sides
        for topic in rules.topics
        for choice in topic.choices
    ]
    return standing_answer(rules, state, decision, instructions)


# The modes, in the order the report shows them. The last two measure #40's recommended
# standing instructions and conditional plans: their hooks (the ruleset's recommended set as
# a ``StandingHook``, a ``Planner`` that plans alternatives) are set here.
MODES = (
    Mode("step", "step by step"),
    Mode("plan", "plan ahead", OrdersPlanner),
    Mode("recommended", "plan ahead + recommended instructions", OrdersPlanner, recommended),
    Mode(
        "conditional",
        "plan ahead + conditional plans + recommended instructions",
        conditional_planner,
        recommended,
    ),
    # "plan ahead" through the war table's HTTP endpoints and the bot's services: its stops
    # are the slash-command planners' where the page keeps the orders they keep.
    Mode("table", "war table: plan ahead on the page", TablePlanner, most_seeds=1),
)


def mode_of(mode_id: str) -> Mode:
    """The mode with this id; ValueError if there is none."""
    found = next((mode for mode in MODES if mode.id == mode_id), None)
    if found is None:
        raise ValueError(f"unknown mode {mode_id!r}")
    return found


def main(argv: list[str] | None = None) -> int:
    """Run the pace report, print the table and write the JSON if asked."""
    parser = argparse.ArgumentParser(
        prog="python -m bot pace", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--ruleset", action="append", help="a ruleset id (default: every one)")
    parser.add_argument("--turns", type=int, default=6, help="game turns played per battle")
    parser.add_argument("--json", type=Path, help="write the figures here as JSON")
    parser.add_argument("--seed", type=int, default=0, help="the first battle's seed")
    parser.add_argument("--seeds", type=int, default=SEEDS, help="battles per ruleset and mode")
    args = parser.parse_args(argv)
    rulesets = tuple(args.ruleset or playable())
    known = set(playable())
    unknown = [r for r in rulesets if r not in known]
    if unknown or args.turns < 1 or args.seeds < 1:
        parser.error(
            f"no sample battle for {', '.join(unknown)}" if unknown else "turns and seeds >= 1"
        )
    rows = measure(rulesets, args.turns, args.seed, seeds=args.seeds)
    print(table(rows))
    if args.json is not None:
        args.json.write_text(json.dumps({"fields": list(FIELDS), "rows": rows}, indent=2))
        print(f"\nwritten to {args.json}")
    return 0
