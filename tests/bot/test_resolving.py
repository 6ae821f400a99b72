"""Resolutions run in a worker thread, never on the event loop's own thread."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from bot.services import Services
from bot.services.campaigns import Place
from rules_core import engine
from tests.bot.battle_setup import deployed_battle
from tests.conftest import GM


async def test_starting_and_resolving_run_the_engine_off_the_loop(
    services: Services, place: Place, monkeypatch: pytest.MonkeyPatch
) -> None:
    threads: list[int] = []
    settle, run = engine.settle, engine.run

    def watched_settle(*args: Any) -> Any:
        threads.append(threading.get_ident())
        return settle(*args)

    def watched_run(*args: Any) -> Any:
        threads.append(threading.get_ident())
        return run(*args)

    monkeypatch.setattr(engine, "settle", watched_settle)
    monkeypatch.setattr(engine, "run", watched_run)
    await deployed_battle(services, place)
    report = await services.play.start(place, GM)
    assert report.battle.stage == 1
    await services.gm.force(place, GM)
    assert len(threads) >= 2
    assert threading.get_ident() not in threads
