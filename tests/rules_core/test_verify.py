"""Verifiable randomness: keyed streams, the published hash, and replaying a battle record."""

from __future__ import annotations

import copy
import hashlib
import hmac
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from rules_core import registry
from rules_core.record import BattleRecord
from rules_core.seeding import commitment, new_seed, stream, stream_key
from rules_core.verify import main, verify
from tests.rules_core.rulesets.skirmish.script import SEED, play

ROOT = Path(__file__).parents[2]


def test_each_step_draws_from_hmac_of_the_seed_and_its_key() -> None:
    key = stream_key("b1", 3, "shoot@red", 0)
    assert key == "b1:3:shoot@red:0"
    digest = hmac.new(b"seed", key.encode(), hashlib.sha256).digest()
    expected = random.Random(int.from_bytes(digest, "big")).randint(1, 6)
    assert stream(b"seed", key).randint(1, 6) == expected
    assert (
        stream(b"seed", key).random()
        != stream(b"seed", stream_key("b1", 3, "shoot@red", 1)).random()
    )


def test_the_commitment_is_the_seeds_sha256() -> None:
    seed = new_seed()
    assert len(seed) == 32 and commitment(seed) == hashlib.sha256(seed).hexdigest()


@pytest.fixture(scope="module")
def record() -> dict[str, Any]:
    rules = registry.get("skirmish").rules
    assert rules is not None
    played = play(rules)
    kept = BattleRecord.start(played.first, SEED).extended(played.result.entries)
    assert kept.seed is None
    return json.loads(json.dumps(kept.revealed(SEED).to_dict()))


def test_an_untouched_record_verifies(record: dict[str, Any]) -> None:
    report = verify(record)
    assert report.ok, report.problem
    assert report.rolls == sum(len(entry["rolls"]) for entry in record["entries"]) > 20


def test_a_record_from_before_cards_and_secrets_verifies(record: dict[str, Any]) -> None:
    old = copy.deepcopy(record)
    del old["initial_state"]["hidden"], old["initial_state"]["decks"]
    for entry in old["entries"]:
        del entry["draws"], entry["audience"]
    report = verify(old)
    assert report.ok, report.problem
    assert report.draws == 0 and "draws" not in report.text()


def test_a_record_from_before_roll_purposes_verifies(record: dict[str, Any]) -> None:
    rolls = [roll for entry in record["entries"] for roll in entry["rolls"]]
    assert rolls and all("purpose" in roll for roll in rolls)
    old = copy.deepcopy(record)
    for entry in old["entries"]:
        for roll in entry["rolls"]:
            del roll["purpose"]
    report = verify(old)
    assert report.ok, report.problem
    assert report.rolls == len(rolls)


def test_an_altered_purpose_is_reported(record: dict[str, Any]) -> None:
    tampered = copy.deepcopy(record)
    roll = next(roll for entry in tampered["entries"] for roll in entry["rolls"])
    roll["purpose"]["roller"] = "someone else"
    assert not verify(tampered).ok


def test_the_first_altered_roll_is_reported(record: dict[str, Any]) -> None:
    tampered = copy.deepcopy(record)
    rolled = [i for i, entry in enumerate(tampered["entries"]) if entry["rolls"]]
    for index in (rolled[3], rolled[-1]):  # alter two rolls; the earlier one is reported
        die = tampered["entries"][index]["rolls"][0]["dice"][0]
        die["face"] = 6 if die["face"] != 6 else 1
    report = verify(tampered)
    assert not report.ok
    entry = tampered["entries"][rolled[3]]
    label = entry["rolls"][0]["label"]
    assert report.problem.startswith(
        f"entry {rolled[3]} (turn {entry['turn']}, step {entry['step']})"
    )
    assert f"roll 1 ({label}): recorded" in report.problem


def test_a_record_without_the_true_seed_fails(record: dict[str, Any]) -> None:
    assert verify({**record, "seed": None}).problem == "the seed has not been revealed"
    forged = {**record, "seed": (b"x" * 32).hex()}
    assert verify(forged).problem == "the seed does not match its published SHA-256"


def test_revealing_a_wrong_seed_is_refused() -> None:
    rules = registry.get("skirmish").rules
    assert rules is not None
    with pytest.raises(ValueError, match="does not match"):
        BattleRecord.start(play(rules).first, SEED).revealed(b"not the seed")


def test_the_command_line(record: dict[str, Any], tmp_path: Path) -> None:
    good = tmp_path / "record.json"
    good.write_text(json.dumps(record))
    assert main([str(good)]) == 0
    bad = copy.deepcopy(record)
    bad["entries"][-1]["rolls"][-1]["total"] += 1
    (tmp_path / "bad.json").write_text(json.dumps(bad))
    done = subprocess.run(
        [sys.executable, "-m", "rules_core.verify", str(tmp_path / "bad.json")],
        capture_output=True, text=True, cwd=ROOT, check=False,
    )  # fmt: skip
    assert done.returncode == 1
    assert done.stdout.startswith("MISMATCH: entry ")


@pytest.mark.parametrize(
    ("content", "words"),
    [
        ("{", "Cannot read"),
        ("[1]", "is not a battle record"),
        ('{"seed": "00"}', "is not a battle record"),
        ('{"x": 1}', "is not a battle record: no 'ruleset' in it"),  # was "seed not revealed"
        ('"text"', "is not a battle record: a JSON object is expected, not str"),
    ],
)
def test_a_bad_file_is_one_line_and_status_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str, words: str
) -> None:
    path = tmp_path / "record.json"
    path.write_text(content)
    assert main([str(path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and words in err[0]
    assert main([str(tmp_path / "missing.json")]) == 2
