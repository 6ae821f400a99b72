"""``python -m bench [--smoke] [--json PATH]``: measure, print one table, write JSON.

Engine figures are CPU time of the engine's own calls (the scripted players' choices are not
counted), so other work on a shared machine inflates them less than wall time would.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from bench import loop_lag, maps, orders_mine, replay, web, web_judge
from bench.engine import engine_figures
from bench.report import Figure, load, table, write_json
from bench.targets import ISSUE_TARGETS, engine_targets, with_slots
from rules_core.registry import all_rulesets

SIZES, SMOKE_SIZES = (12, 60, 120, 240), (12,)
LIVE_MAIN = "from bench.live import main; raise SystemExit(main())"
LAG_UNITS, LAG_CALLS = 120, 30  # loop lag: engine calls of a 2 x 60-unit battle, off the loop


def playable() -> tuple[str, ...]:
    """The rulesets the engine can play a sample battle of, tutorial ones included."""
    found = all_rulesets(include_unlisted=True)
    return tuple(r.id for r in found if r.rules is not None and r.rules.sample_battle() is not None)


def live_figures(smoke: bool, postgres: str | None = None) -> list[Figure]:
    """The bot measured through the fake Discord (``bench.live``), in a process of its own
    so that its resident memory is its own (with ``postgres``, its bursts on that server)."""
    with tempfile.TemporaryDirectory(prefix="aide-bench-") as folder:
        out = Path(folder) / "live.json"
        # Not ``-m bench.live``: a spawned engine worker imports its parent's main module (the
        # bot's ``-m bot`` is skipped as a ``__main__``), and bench.live's imports (discord,
        # the fake Discord) doubled the worker's memory; ``-c`` gives it nothing to import.
        command = [sys.executable, "-c", LIVE_MAIN, "--json", str(out)]
        command += ["--smoke"] if smoke else []
        command += ["--postgres", postgres] if postgres else []
        done = subprocess.run(command, check=False)
        if done.returncode != 0 or not out.exists():  # the other figures still get printed
            failed = f"the bot through the fake Discord: failed (exit {done.returncode})"
            return [Figure(failed, 0.0, "", "runs to the end", False)]
        return [Figure(**f) for f in json.loads(out.read_text(encoding="utf-8"))]


def skipped(args: argparse.Namespace) -> dict[str, str]:
    """Why a #37 target is not measured by this run (by the target's key)."""
    why = {}
    if not os.environ.get("TEST_POSTGRES_URL"):
        why["burst of 100 (PostgreSQL): p99"] = "TEST_POSTGRES_URL is not set"
    if args.smoke:  # a smoke run's bursts and deadlines are a few, not the issue's sizes
        why |= {key: "--smoke" for key in ("burst of 100 (SQLite): p99",)}
        why |= {key: "--smoke" for key in ("burst of 100 (PostgreSQL): p99",) if key not in why}
        why |= {t.key: "--smoke" for t in ISSUE_TARGETS if t.key.startswith("war table first")}
    if args.no_live:
        why |= {t.key: "--no-live" for t in ISSUE_TARGETS if t.measured_by == "bench.live"}
    if args.only_live:
        why["largest single loop callback"] = "--only-live"
        why |= {t.key: "--only-live" for t in ISSUE_TARGETS if t.measured_by == "bench.web"}
    return why


def main(argv: list[str] | None = None) -> int:
    """Run every benchmark, print the table and write the JSON; 0 even if targets are missed."""
    parser = argparse.ArgumentParser(
        prog="python -m bench",
        description="Measure the engine, the maps and the bot; print one table and write the "
        "figures as JSON. " + __doc__.split("\n\n")[1].replace("\n", " "),
    )
    parser.add_argument("--smoke", action="store_true", help="small sizes, a few seconds")
    parser.add_argument("--turns", type=int, default=3, help="full turns timed per battle")
    parser.add_argument("--sizes", type=int, nargs="*", help="units per battle (both sides)")
    parser.add_argument("--json", type=Path, default=Path("bench.json"), help="where to write")
    parser.add_argument(
        "--no-live", action="store_true", help="skip the bot through the fake Discord"
    )
    parser.add_argument("--only-live", action="store_true", help="only the bot, no engine or map")
    args = parser.parse_args(argv)
    sizes = tuple(args.sizes or (SMOKE_SIZES if args.smoke else SIZES))
    turns = 1 if args.smoke else args.turns
    figures: list[Figure] = []
    if not args.only_live:
        figures += engine_targets(engine_figures(playable(), sizes, turns))
        lag_units = min(sizes) if args.smoke else LAG_UNITS
        figures += loop_lag.figures(playable(), lag_units, calls=4 if args.smoke else LAG_CALLS)
        figures += maps.figures(runs=1 if args.smoke else 11)
        figures += replay.figures(args.smoke) + orders_mine.figures(args.smoke)
        figures += web.figures(args.smoke) + web_judge.figures(args.smoke)
    if not args.no_live:
        figures += live_figures(args.smoke)
        if os.environ.get("TEST_POSTGRES_URL"):  # the bursts again, on PostgreSQL
            figures += live_figures(args.smoke, os.environ["TEST_POSTGRES_URL"])
    figures = with_slots(figures, skipped(args))
    machine = load()
    print(f"Aide-de-Camp benchmark ({machine})\n")
    print(table(figures))
    write_json(args.json, figures, machine)
    print(f"\nwritten to {args.json}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
