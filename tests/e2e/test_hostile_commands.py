"""Hypothesis over every slash command the bot syncs and every option it has (attachments
too), through the real bot and the fake Discord, in a running battle.

Values are drawn within what the Discord client lets through (types, choices, lengths,
bounds) and lean on the hostile: NaN and infinity spelled out, huge numbers, names with two
spaces, mentions, markdown, control characters, very long text; files that are YAML alias
bombs, JSON nested thousands deep, 5,000-digit numbers, NaN, binary junk. Whoever sends
them (the GM, a player, an outsider), the bot answers without "Something went wrong" and
without logging an error (the harness fails on either), within Discord's 3 s (the harness
again), and every message fits in 2,000 characters. An outsider changes no row; for the GM
and a player, a refusal (a command that ended in the bot's error handler) changes no row and
shows nothing but a private message. Each example's memory is bounded: the Python heap it
allocates at its peak (tracemalloc) and the growth of the process's peak size (RSS).
"""

from __future__ import annotations

import asyncio
import json
import random
import resource
import tracemalloc
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.client import AideBot
from bot.config import Settings
from tests.databases import TestDatabases
from tests.e2e.fake_clock import FakeClock
from tests.e2e.test_outsider_writes import FOR_OUTSIDERS, leaves, rows
from tools.fake_discord import World
from tools.harness import Harness
from tools.skirmish_battle import RED, set_up_battle

WORDS = [
    "nan", "NaN", "inf", "-inf", "Infinity", "1e309", "-1e309", "1e9", "9" * 400, "0", "-0",
    "Red  Horse", " Red Horse ", "red horse", "Red Horse", "Blue Riders", "<@123456789012345678>",
    "@everyone", "@here", "<#1>", "**bold** __under__ `code` ||spoiler||", "> quote", "\u202e",
    "a\x00b", "\x1b[31m", "\n\n\n", "", " ", "26,11", "26,nan", "1e999,1", "10,10 10,10",
    "../../etc/passwd", "'; DROP TABLE battle; --", "{{}}", "%s%s%s", "👍" * 50,
]  # fmt: skip
BOMBS = [
    ("army.yaml", "a: &a [x, x, x, x, x, x, x, x, x]\n"
     + "".join(f"{k}: &{k} [*{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}]\n"
               for p, k in zip("abcdefgh", "bcdefghi", strict=True))),
    ("deep.json", "[" * 50_000 + "]" * 50_000),
    ("deep.yaml", "- " * 20_000 + "x"),
    ("big.json", '{"name": "X", "units": [{"name": "U", "move": ' + "9" * 5000 + "}]}"),
    ("nan.json", '{"name": "X", "units": [{"name": "U", "type": "infantry", "move": NaN}]}'),
    ("junk.bin", bytes(random.Random(3).randrange(256) for _ in range(3000))),
    ("empty.json", b""),
    ("mention.json", json.dumps({**RED, "name": "<@123456789012345678> **Host**"})),
    ("spaces.json", json.dumps({**RED, "name": "Red  Host"})),
    ("red.json", json.dumps(RED)),
]  # fmt: skip
tried = {"gm": 0, "alice": 0, "outsider": 0, "refused": 0}
HEAP_BOUND = 64 * 2**20  # what one command may allocate at its peak, bombs included
RSS_BOUND = 256 * 2**20  # how much one command may raise the process's peak size
peaks = {"heap": 0, "rss": 0}
refusals: set[int] = set()  # ids of the interactions the bot's error handler answered


def value_of(option: dict, h: Harness) -> st.SearchStrategy[Any]:
    """Hostile but well-formed values for one option."""
    if option.get("choices"):
        return st.sampled_from([c["value"] for c in option["choices"]])
    kind = option["type"]
    if kind == 3:
        lo, hi = option.get("min_length", 0), option.get("max_length", 6000)
        text = st.one_of(st.sampled_from(WORDS), st.text(max_size=60), st.just("x" * hi))
        return text.map(lambda t: t[:hi].ljust(lo, "x"))
    if kind in (4, 10):
        lo, hi = option.get("min_value", -(2**53)), option.get("max_value", 2**53)
        if kind == 4:
            return st.integers(lo, hi)
        return st.floats(lo, hi, allow_nan=False, allow_infinity=False)
    if kind == 5:
        return st.booleans()
    if kind == 6:
        return st.sampled_from([h.gm, h.alice, h.bob])  # the outsider stays one
    if kind == 11:
        return st.sampled_from(BOMBS).map(lambda b: h.upload(b[0], b[1]))
    raise AssertionError(f"no strategy for option type {kind}")


@pytest.fixture(scope="module")
def battle(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Any, Harness, str]]:
    """One bot and battle for every example, on a loop of its own (Hypothesis runs the
    examples synchronously; the loop runs each interaction to its end)."""
    import bot.services.battles

    loop = asyncio.new_event_loop()
    databases = TestDatabases(tmp_path_factory.mktemp("hostile"))
    db = databases.url("aide.db", migrated=True)
    world, clock = World(), FakeClock()
    settings_ = Settings(
        discord_token="fake-token",
        database_url=db,
        dev_guild_id=world.guild_id,
        log_level="INFO",
        web_enabled=False,
        gc_refresh_minutes=0,  # the test run's heap is not frozen (bot/gc_policy)
    )
    seed = bot.services.battles.new_seed
    bot.services.battles.new_seed = lambda: bytes(range(32))

    def build() -> AideBot:
        return AideBot(settings_, clock=clock, rng=random.Random(1), guild_ready_timeout=0.05)

    h = Harness(build, world, clock=clock)

    async def start() -> None:
        await h.start()
        await set_up_battle(h, h.channel("hundred-years"))
        await h.slash(h.gm, "battle start", channel=h.channel("hundred-years"))

    try:
        loop.run_until_complete(start())
        assert h.bot is not None
        handler = h.bot.tree.on_error

        async def noting(interaction: Any, error: Any) -> None:
            refusals.add(interaction.id)
            await handler(interaction, error)

        h.bot.tree.on_error = noting  # type: ignore[method-assign]
        tracemalloc.start()
        yield loop, h, db
    finally:
        tracemalloc.stop()
        loop.run_until_complete(h.close())
        for task in asyncio.all_tasks(loop):  # views' timeouts and the like
            task.cancel()
        loop.run_until_complete(asyncio.sleep(0))
        loop.close()
        databases.drop()
        bot.services.battles.new_seed = seed
        sent = tried["gm"] + tried["alice"] + tried["outsider"]
        print(
            f"\n{sent} hostile commands sent (GM {tried['gm']}, player {tried['alice']}, "
            f"outsider {tried['outsider']}); {tried['refused']} refused by the GM or player "
            f"with no row changed; peak per command: heap {peaks['heap'] / 2**20:.1f} MiB, "
            f"RSS growth {peaks['rss'] / 2**20:.1f} MiB"
        )


@settings(
    max_examples=300,  # about a minute
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    database=None,
)
@given(data=st.data())
def test_every_command_survives_hostile_values(
    battle: tuple[Any, Harness, str], data: st.DataObject
) -> None:
    loop, h, db = battle
    commands = leaves(h.synced_commands())
    who = data.draw(st.sampled_from(["gm", "alice", "outsider"]), label="who")
    allowed = sorted(p for p in commands if who != "outsider" or p not in FOR_OUTSIDERS)
    path = data.draw(st.sampled_from(allowed), label="command")
    values = {}
    for option in commands[path]:
        if option.get("required") or data.draw(st.booleans(), label=f"give {option['name']}"):
            values[option["name"]] = data.draw(value_of(option, h), label=option["name"])
    user = getattr(h, who)
    before = rows(db)
    heap_before, _ = tracemalloc.get_traced_memory()
    tracemalloc.reset_peak()
    rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    answer = loop.run_until_complete(h.slash(user, path, channel=h.channel("hundred-years"),
                                             **values))  # fmt: skip
    heap = tracemalloc.get_traced_memory()[1] - heap_before
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 - rss_before
    peaks["heap"], peaks["rss"] = max(peaks["heap"], heap), max(peaks["rss"], rss)
    tried[who] += 1
    assert "Something went wrong" not in answer.text, answer
    assert all(len(m.content) <= 2000 for m in answer.messages), answer
    assert heap <= HEAP_BOUND, (path, values, f"{heap / 2**20:.1f} MiB allocated")
    assert rss <= RSS_BOUND, (path, values, f"peak size grew {rss / 2**20:.1f} MiB")
    if who == "outsider":  # never joined, never made a GM: every write refused
        assert rows(db) == before, (path, values, answer)
    elif answer.record.id in refusals:  # the GM or a player, refused: nothing changed
        tried["refused"] += 1
        assert rows(db) == before, (path, values, answer)
        shown = [m for m in answer.messages if not m.deleted]
        assert shown and all(m.ephemeral for m in shown), (path, values, answer)
