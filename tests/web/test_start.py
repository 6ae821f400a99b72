"""The war table starting with the bot: a taken port is one clear error, and the bot plays on."""

from __future__ import annotations

import logging
import socket

import pytest

from bot.client import AideBot
from bot.config import Settings
from bot.db.session import Database
from bot.services.web_links import NOT_SERVED


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
