"""``python -m bench.odds``: how long ``/odds`` takes to compute, per ruleset.

For every ruleset that plays a sample battle, every unit of one side asks the odds of
charging and shooting at every enemy unit and of its test, on the sample battle as deployed
and with the enemy moved close in front (1.5 measures, so that shots are in range in every
ruleset: the heroic age's missiles reach 2"); each figure is one computation, timed in CPU time
(other work on a shared machine inflates it less than wall time), with the distribution
cache emptied first (as for the first question after a start), after one warm-up question
(imports and geometry set-up, paid once per process).
Prints the count, median and slowest per ruleset and kind, against the 50 ms aim.
"""

from __future__ import annotations

import argparse
import statistics
import time
from dataclasses import replace

from rules_core.odds import Odds, OddsQuery, forget
from rules_core.plugin import Rules
from rules_core.registry import all_rulesets
from rules_core.state import BattleState, Unit

AIM_MS = 50.0
GAP = 1.5  # measures between the unit and the enemy moved in front (inside every missile range)


def in_front(state: BattleState, unit: Unit, enemy: Unit) -> BattleState:
    """The enemy moved straight ahead of the unit (``GAP`` measures), facing it."""
    ahead = 1 if unit.facing < 90 or unit.facing > 270 else -1
    y = unit.y + ahead * (unit.depth / 2 + GAP + enemy.depth / 2)
    moved = replace(enemy, x=unit.x, y=y, facing=(unit.facing + 180) % 360)
    return replace(state, units=tuple(moved if u.id == enemy.id else u for u in state.units))


def timed(rules: Rules, state: BattleState, query: OddsQuery) -> tuple[float, bool]:
    """CPU milliseconds for one cold computation, and whether it gave odds (not a refusal)."""
    forget()
    start = time.process_time()
    found = rules.odds(state, query)
    return (time.process_time() - start) * 1000, isinstance(found, Odds)


def measure(rules: Rules, state: BattleState) -> dict[str, list[float]]:
    """Every query of one sample battle, timed, by kind (refusals left out)."""
    times: dict[str, list[float]] = {"charge": [], "shoot": [], "test": []}
    first = state.sides[0].id
    rules.odds(state, OddsQuery("test", state.units[0].id))  # a running bot is warmed up
    for unit in state.units_of(first):
        took, answered = timed(rules, state, OddsQuery("test", unit.id))
        if answered:
            times["test"].append(took)
        for enemy in (e for e in state.units if e.side != first):
            near = in_front(state, unit, enemy)
            for kind, where in (("charge", state), ("shoot", near)):
                took, answered = timed(rules, where, OddsQuery(kind, unit.id, enemy.id))
                if answered:
                    times[kind].append(took)
    return times


def main(argv: list[str] | None = None) -> None:
    """Print one line per ruleset and kind."""
    argparse.ArgumentParser(prog="python -m bench.odds", description=__doc__).parse_args(argv)
    print(f"{'ruleset':<18}{'kind':<8}{'asked':>6}{'median ms':>11}{'slowest ms':>12}  aim")
    for ruleset in all_rulesets(include_unlisted=True):
        rules = ruleset.rules
        state = rules.sample_battle() if rules is not None else None
        if rules is None or state is None:
            continue
        for kind, times in measure(rules, state).items():
            if not times:
                print(f"{ruleset.id:<18}{kind:<8}{0:>6}{'—':>11}{'—':>12}  no odds")
                continue
            slowest = max(times)
            verdict = "ok" if slowest < AIM_MS else f"over {AIM_MS:g} ms"
            print(
                f"{ruleset.id:<18}{kind:<8}{len(times):>6}{statistics.median(times):>11.2f}"
                f"{slowest:>12.2f}  {verdict}"
            )


if __name__ == "__main__":
    main()
