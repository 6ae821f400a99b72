"""The war table starting with the bot: a taken port is one clear error, and the bot plays on."""

from __future__ import annotations

import asyncio
import logging
import socket

import pytest

from bot.client import AideBot
from bot.config import Settings
from bot.db.session import Database
from bot.services import Services
from bot.services.web_links import NOT_SERVED, LinkRefused
from bot.web import secret
from tests.conftest import ALICE
from tests.web.table import PLACE, campaign


async def test_a_taken_port_is_one_error_and_no_link(
    db_url: str, db: Database, caplog: pytest.LogCaptureFixture
) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        bot = AideBot(Settings(discord_token="x", database_url=db_url, web_port=port))
        try:
            with caplog.at_level(logging.ERROR, logger="bot.client"):
                await bot.start_web()
            assert bot.web is None
            assert bot.services.web_links.unavailable == NOT_SERVED
            errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
            assert len(errors) == 1 and f"127.0.0.1:{port}" in errors[0].getMessage()
        finally:
            await bot.db.dispose()


def test_settings_are_checked() -> None:
    assert Settings(web_port=0).web_url == "http://localhost:0"
    assert Settings(public_url="https://t.example.org/").web_url == "https://t.example.org"
    for bad in ({"web_port": 70000}, {"public_url": "ftp://x"}, {"web_host": "a b"}):
        with pytest.raises(ValueError):
            Settings(**bad)


def test_rotating_from_the_command_line_ends_every_link(
    db_url: str, db: Database, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    async def a_link() -> tuple[str, int]:
        database = Database.from_url(db_url)
        services = Services.build(database)
        campaign_id = await campaign(services)
        token = (await services.web_links.issue(PLACE, ALICE)).token
        await database.dispose()
        return token, campaign_id

    async def opens(token: str, campaign_id: int) -> bool:
        database = Database.from_url(db_url)
        try:
            await Services.build(database).web_links.reader(token, campaign_id)
        except LinkRefused:
            return False
        finally:
            await database.dispose()
        return True

    token, campaign_id = asyncio.run(a_link())
    monkeypatch.setenv("DATABASE_URL", db_url)
    assert secret.main([]) == 2 and asyncio.run(opens(token, campaign_id))  # no flag: nothing
    assert secret.main(["--rotate"]) == 0
    assert "every link given so far is ended" in capsys.readouterr().out
    assert not asyncio.run(opens(token, campaign_id))
