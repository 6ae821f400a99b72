"""``python -m bot.bench [--smoke] [--json PATH]``: measure, print one table, write JSON.

Engine figures are CPU time of the engine's own calls (the scripted players' choices are not
counted), so other work on a shared machine inflates them less than wall time would.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from bot.bench import maps
from bot.bench.engine import engine_figures
from bot.bench.report import Figure, load, table, write_json
from bot.bench.targets import engine_targets

RULESETS = ("skirmish", "tree_of_battles", "hail_caesar")
SIZES, SMOKE_SIZES = (12, 60, 120, 240), (12,)


def main(argv: list[str] | None = None) -> int:
    """Run every benchmark, print the table and write the JSON; 0 even if targets are missed."""
    parser = argparse.ArgumentParser(description="Aide-de-Camp's benchmark")
    parser.add_argument("--smoke", action="store_true", help="small sizes, a few seconds")
    parser.add_argument("--turns", type=int, default=3, help="full turns timed per battle")
    parser.add_argument("--sizes", type=int, nargs="*", help="units per battle (both sides)")
    parser.add_argument("--json", type=Path, default=Path("bench.json"), help="where to write")
    args = parser.parse_args(argv)
    sizes = tuple(args.sizes or (SMOKE_SIZES if args.smoke else SIZES))
    turns = 1 if args.smoke else args.turns
    figures: list[Figure] = []
    figures += engine_targets(engine_figures(RULESETS, sizes, turns))
    figures += maps.figures(runs=1 if args.smoke else 11)
    machine = load()
    print(f"Aide-de-Camp benchmark ({machine})\n")
    print(table(figures))
    write_json(args.json, figures, machine)
    print(f"\nwritten to {args.json}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
