"""Recompute every roll and card draw of an exported battle record:
``python -m rules_core.verify RECORD.json``.

The seed must match its published SHA-256. The battle is then replayed from its first state
through the same engine calls, and each roll and each card drawn in the replay is compared with
the recorded one. Rolls are compared as raw JSON, so a tampered roll is reported even when it no
longer adds up. A record from before cards (no ``draws`` in its entries) has no draws to check.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rules_core import engine, registry
from rules_core.codec import decode
from rules_core.decisions import Answer
from rules_core.engine import Resolution
from rules_core.orders import Order
from rules_core.plugin import Rules
from rules_core.seeding import commitment
from rules_core.state import BattleState


@dataclass(frozen=True)
class Report:
    """The verdict on a record: ok, how much was checked, and the first problem found."""

    ok: bool
    entries: int
    rolls: int
    problem: str = ""
    draws: int = 0

    def text(self) -> str:
        """One line for the terminal."""
        if self.ok:
            cards = f" and {self.draws} card draws" if self.draws else ""
            return f"OK: {self.rolls} rolls{cards} in {self.entries} engine calls recomputed"
        return f"MISMATCH: {self.problem}"


def verify(record: Mapping[str, Any]) -> Report:
    """Check a record (as loaded from JSON) and report the first mismatch, if any."""
    seed_hex = record.get("seed")
    if not isinstance(seed_hex, str):
        return Report(False, 0, 0, "the seed has not been revealed")
    seed = bytes.fromhex(seed_hex)
    if commitment(seed) != record["seed_sha256"]:
        return Report(False, 0, 0, "the seed does not match its published SHA-256")
    ruleset = registry.get(record["ruleset"])
    if ruleset.rules is None:
        return Report(False, 0, 0, f"ruleset {ruleset.id!r} has no rules to replay")
    state = BattleState.from_dict(record["initial_state"])
    return _replay(ruleset.rules, seed, state, record["entries"])


def replayed(record: Mapping[str, Any]) -> Iterator[BattleState]:
    """Every state a record (its seed revealed) passes through: its first, then one after each
    engine call, replayed without comparing rolls (``verify`` does that)."""
    ruleset = registry.get(record["ruleset"])
    if ruleset.rules is None or not isinstance(record.get("seed"), str):
        raise ValueError("a record replays only with its ruleset's rules and its seed")
    seed = bytes.fromhex(record["seed"])
    state = BattleState.from_dict(record["initial_state"])
    yield state
    for entry in record["entries"]:
        state = _call(ruleset.rules, seed, state, entry).state
        yield state


def _replay(rules: Rules, seed: bytes, state: BattleState, entries: Sequence[Any]) -> Report:
    rolls = draws = 0
    for index, entry in enumerate(entries):
        where = f"entry {index} (turn {entry['turn']}, step {entry['step']})"
        cursor = state.cursor
        if (cursor.turn, cursor.step, cursor.attempt) != (
            entry["turn"],
            entry["step"],
            entry["attempt"],
        ):
            return Report(False, index, rolls, f"{where}: the replay is at another step")
        result = _call(rules, seed, state, entry)
        recomputed = [roll.to_dict() for roll in result.entries[0].rolls]
        drawn = [draw.to_dict() for draw in result.entries[0].draws]
        problem = _compare(entry["rolls"], recomputed) or _compare_draws(
            entry.get("draws", []), drawn
        )
        if problem:
            return Report(False, index, rolls, f"{where}: {problem}", draws)
        rolls += len(recomputed)
        draws += len(drawn)
        state = result.state
    return Report(True, len(entries), rolls, draws=draws)


def _call(rules: Rules, seed: bytes, state: BattleState, entry: Mapping[str, Any]) -> Resolution:
    if entry["action"] == "void":
        return engine.void(state)
    if entry["action"] == "edit":
        return engine.edit(state, BattleState.from_dict(entry["state"]), entry.get("reason", ""))
    if entry["action"] == "answer":
        return engine.answer(rules, seed, state, Answer.from_dict(entry["answer"]))
    orders = decode(tuple[Order, ...], entry["orders"])
    return engine.resolve(rules, seed, state, orders)


def _compare(recorded: Sequence[Any], recomputed: Sequence[Mapping[str, Any]]) -> str:
    for number, (old, new) in enumerate(zip(recorded, recomputed, strict=False), start=1):
        if old != _as_recorded(old, new):
            return (
                f"roll {number} ({new['label']}): recorded {_faces(old)}, recomputed {_faces(new)}"
            )
    if len(recorded) != len(recomputed):
        return f"{len(recorded)} rolls recorded, {len(recomputed)} recomputed"
    return ""


def _as_recorded(old: Any, new: Mapping[str, Any]) -> Mapping[str, Any]:
    """The recomputed roll as a record from before roll purposes holds it: the purpose is
    data about the roll, not its dice, so such a record still verifies."""
    if "purpose" in new and isinstance(old, Mapping) and "purpose" not in old:
        return {key: value for key, value in new.items() if key != "purpose"}
    return new


def _compare_draws(recorded: Sequence[Any], recomputed: Sequence[Mapping[str, Any]]) -> str:
    for number, (old, new) in enumerate(zip(recorded, recomputed, strict=False), start=1):
        if old != new:
            who = new["owner"] or "face up"
            return f"draw {number} ({who}): recorded {_card(old)}, recomputed {new['card']}"
    if len(recorded) != len(recomputed):
        return f"{len(recorded)} card draws recorded, {len(recomputed)} recomputed"
    return ""


def _card(draw: Any) -> str:
    try:
        return str(draw["card"])
    except (KeyError, TypeError):
        return json.dumps(draw)


def _faces(roll: Any) -> str:
    try:
        faces = [die["face"] for die in roll["dice"]]
        return f"{roll['expression']} {faces} = {roll['total']}"
    except (KeyError, TypeError):
        return json.dumps(roll)


def main(argv: Sequence[str] | None = None) -> int:
    """Verify the record file named on the command line; exit status 0 if it is untouched."""
    parser = argparse.ArgumentParser(prog="python -m rules_core.verify", description=__doc__)
    parser.add_argument("record", help="a battle record exported as JSON")
    args = parser.parse_args(argv)
    try:
        with open(args.record, encoding="utf-8") as handle:
            report = verify(_record_shaped(json.load(handle)))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        print(f"Cannot read {args.record}: {error}", file=sys.stderr)
        return 2
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        print(f"{args.record} is not a battle record: {_problem(error)}", file=sys.stderr)
        return 2
    print(report.text())
    return 0 if report.ok else 1


RECORD_KEYS = ("ruleset", "seed_sha256", "initial_state", "entries")


def _record_shaped(data: object) -> Mapping[str, Any]:
    """The file's JSON if it is shaped like a record (an object with a record's keys); else
    a KeyError or TypeError naming what is missing, before the seed is looked at (a file
    that is no record at all was reported as a record whose seed is not revealed)."""
    if not isinstance(data, dict):
        raise TypeError(f"a JSON object is expected, not {type(data).__name__}")
    for key in RECORD_KEYS:
        if key not in data:
            raise KeyError(key)
    return data


def _problem(error: Exception) -> str:
    """Why a file that is JSON is still not a record, in a few words."""
    if isinstance(error, KeyError):
        return f"no {error.args[0]!r} in it"
    return str(error) or type(error).__name__


if __name__ == "__main__":
    sys.exit(main())
