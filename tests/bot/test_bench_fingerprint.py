"""The engine's fingerprint (``bench.fingerprint``): what speed work checks itself against."""

from __future__ import annotations

import json
from pathlib import Path

from bench import fingerprint
from rules_core import registry
from rules_core.big_battles import begun


def test_the_same_battle_gives_the_same_fingerprint_and_more_turns_another() -> None:
    rules = registry.get("skirmish").rules
    assert rules is not None
    once = fingerprint.fingerprint(rules, begun(rules, 12), turns=1)
    assert once == fingerprint.fingerprint(rules, begun(rules, 12), turns=1)
    assert once != fingerprint.fingerprint(rules, begun(rules, 12), turns=2)


def test_check_names_what_moved(tmp_path: Path) -> None:
    saved = tmp_path / "before.json"
    argv = ["--ruleset", "skirmish", "--sizes", "12"]
    assert fingerprint.main([*argv, "--save", str(saved)]) == 0
    assert fingerprint.main([*argv, "--check", str(saved)]) == 0
    saved.write_text(json.dumps({"skirmish@12": "0" * 16}), encoding="utf-8")
    assert fingerprint.main([*argv, "--check", str(saved)]) == 1
