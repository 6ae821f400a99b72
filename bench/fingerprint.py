"""A fingerprint of the engine's results: every ruleset's bench battles played two turns with
the demo orders, their events, record entries and states hashed.

A change made for speed must leave it unchanged (``python -m bench.fingerprint`` before and
after, or ``--check FILE`` against a saved run); a change that moves a result (a last digit
of a distance, say) shows which ruleset and size it moved.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys

from rules_core import codec, engine, registry
from rules_core.big_battles import SEED, begun, demo_answer, demo_orders
from rules_core.plugin import Rules
from rules_core.state import BattleState

SIZES = (12, 60, 120)
TURNS = 2
MAX_CALLS = 2_000  # a guard against a battle that never finishes its turns


def fingerprint(rules: Rules, state: BattleState, turns: int = TURNS) -> str:
    """The hash of everything the engine produced over ``turns`` full turns."""
    digest = hashlib.sha256()
    if state.cursor.turn < 1:
        state = engine.begin(rules, state)
    last = state.cursor.turn + turns
    for _ in range(MAX_CALLS):
        if state.outcome is not None or state.cursor.turn >= last:
            break
        if state.pending is not None:
            done = engine.answer(rules, SEED, state, demo_answer(rules, state))
        else:
            done = engine.run(rules, SEED, state, demo_orders(rules, state))
        for part in (done.events, done.entries):
            digest.update(json.dumps(codec.encode(part), sort_keys=True, default=str).encode())
        state = done.state
    digest.update(json.dumps(codec.encode(state), sort_keys=True, default=str).encode())
    return digest.hexdigest()[:16]


def fingerprints(rulesets: list[str], sizes: tuple[int, ...]) -> dict[str, str]:
    """``ruleset@units`` to its fingerprint."""
    found = {}
    for ruleset in rulesets:
        rules = registry.get(ruleset).rules
        assert rules is not None
        for size in sizes:
            found[f"{ruleset}@{size}"] = fingerprint(rules, begun(rules, size))
    return found


def main(argv: list[str] | None = None) -> int:
    """Print the fingerprints (``--check FILE`` compares with a saved JSON of them)."""
    parser = argparse.ArgumentParser(prog="python -m bench.fingerprint", description=__doc__)
    parser.add_argument("--ruleset", action="append", help="one ruleset (repeatable)")
    parser.add_argument("--sizes", type=int, nargs="+", default=list(SIZES))
    parser.add_argument("--save", help="write the fingerprints to this JSON file")
    parser.add_argument("--check", help="compare with this saved JSON file")
    args = parser.parse_args(argv)
    rulesets = args.ruleset or sorted(r.id for r in registry.all_rulesets())
    found = fingerprints(rulesets, tuple(args.sizes))
    for key, value in found.items():
        print(f"{key:28} {value}")
    if args.save:
        with open(args.save, "w", encoding="utf-8") as out:
            json.dump(found, out, indent=1, sort_keys=True)
    if args.check:
        with open(args.check, encoding="utf-8") as saved_file:
            saved = json.load(saved_file)
        moved = [k for k in found if k in saved and saved[k] != found[k]]
        print("moved: " + (", ".join(moved) if moved else "nothing"))
        return 1 if moved else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
