"""The command schema the real bot syncs stays within Discord's limits (and the checker works)."""

from __future__ import annotations

import copy

import pytest

from tools.fake_discord.schema import NAME_RE, validate_commands
from tools.harness import Harness

GOOD = {
    "name": "army",
    "description": "Armies",
    "options": [
        {
            "name": "import",
            "type": 1,
            "description": "Import a roster",
            "options": [{"name": "file", "type": 11, "description": "Roster", "required": True}],
        }
    ],
}


def _broken(change) -> list[dict]:
    """A copy of GOOD with one change applied."""
    cmd = copy.deepcopy(GOOD)
    change(cmd)
    return [cmd]


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        (lambda c: c.update(name="Army"), "does not match"),
        (lambda c: c.update(name="a" * 33), "does not match"),
        (lambda c: c.update(description=""), "1-100 characters"),
        (lambda c: c.update(description="x" * 101), "1-100 characters"),
        (lambda c: c["options"][0].update(name="im port"), "does not match"),
        (
            lambda c: c["options"][0].update(
                options=[{"name": f"o{i}", "type": 3, "description": "d"} for i in range(26)]
            ),
            "26 options",
        ),
        (
            lambda c: c["options"][0]["options"].append(
                {
                    "name": "kind",
                    "type": 3,
                    "description": "d",
                    "choices": [{"name": str(i), "value": str(i)} for i in range(26)],
                }
            ),
            "26 choices",
        ),
        (
            lambda c: c["options"][0]["options"].insert(
                0, {"name": "opt", "type": 3, "description": "d"}
            ),
            "required option after an optional one",
        ),
        (
            lambda c: c["options"].append({"name": "x", "type": 3, "description": "d"}),
            "mixed with plain options",
        ),
    ],
)
def test_checker_catches(change, problem: str) -> None:
    """Each limit is enforced by the checker the fake uses on PUT."""
    assert validate_commands([GOOD]) == []
    problems = validate_commands(_broken(change))
    assert any(problem in msg for _, msg in problems), problems


def test_checker_counts_top_level_commands() -> None:
    """At most 100 chat-input commands."""
    many = [{**GOOD, "name": f"c{i}"} for i in range(101)]
    assert any("at most 100" in msg for _, msg in validate_commands(many))


async def test_real_bot_schema_is_valid(aide: Harness) -> None:
    """Everything the real bot synced is within Discord's limits."""
    synced = aide.synced_commands()
    assert synced, "the bot synced no commands"
    assert validate_commands(synced) == []
    assert len([c for c in synced if c.get("type", 1) == 1]) <= 100
    for cmd in synced:
        _walk_names(cmd)


def _walk_names(node: dict) -> None:
    """Every name matches ^[-_a-z0-9]{1,32}$ and every description is 1-100 characters."""
    assert NAME_RE.match(node["name"]), node["name"]
    assert 1 <= len(node["description"]) <= 100, node["name"]
    assert len(node.get("options") or []) <= 25, node["name"]
    assert len(node.get("choices") or []) <= 25, node["name"]
    for child in node.get("options") or []:
        _walk_names(child)


async def test_real_bot_has_the_issue_2_commands(aide: Harness) -> None:
    """The commands of issue #2 are synced, to the dev guild."""
    paths = set()
    for cmd in aide.synced_commands():
        assert cmd.get("guild_id") == str(aide.world.guild_id)
        paths |= _paths(cmd["name"], cmd.get("options") or [])
    expected = {
        "campaign create", "campaign info", "campaign list", "campaign join", "campaign leave",
        "campaign gm add", "campaign gm remove", "campaign close",
        "army import", "army show", "army list", "army remove", "roll",
    }  # fmt: skip
    assert expected <= paths, sorted(expected - paths)


def _paths(prefix: str, options: list[dict]) -> set[str]:
    """Every runnable command path under a command."""
    subs = [o for o in options if o["type"] in (1, 2)]
    if not subs:
        return {prefix}
    return set().union(*(_paths(f"{prefix} {o['name']}", o.get("options") or []) for o in subs))


def _undescribed(prefix: str, node: dict) -> list[str]:
    """Options Discord would show with the placeholder description "…"."""
    found = []
    for child in node.get("options") or []:
        path = f"{prefix} {child['name']}"
        if child.get("description") in ("…", "...", ""):
            found.append(path)
        found += _undescribed(path, child)
    return found


async def test_every_option_is_described(aide: Harness) -> None:
    """No option shows Discord's "…" placeholder (the /gm reasons did)."""
    missing = [p for cmd in aide.synced_commands() for p in _undescribed(cmd["name"], cmd)]
    assert missing == []


async def test_terrain_roll_is_offered_beside_terrain_add(aide: Harness) -> None:
    """/battle terrain roll once refused every time and was withdrawn; it now rolls on a
    ruleset's terrain table (``Rules.terrain_table``; see test_terrain_roll.py) and refuses
    privately, pointing at /battle terrain add, for a ruleset without one."""
    paths = set()
    for cmd in aide.synced_commands():
        paths |= _paths(cmd["name"], cmd.get("options") or [])
    assert "battle terrain add" in paths and "battle terrain roll" in paths
