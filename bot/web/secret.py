"""``python -m bot web-secret --rotate``: replace the war table's signing key, ending every link.

For a leaked key (or a routine change): the running bot reads the key on every request, so
links stop at once; members ask for new ones with ``/battle table``.
"""

from __future__ import annotations

import argparse
import asyncio

from bot.clock import SystemClock
from bot.config import Settings
from bot.db.migrate import upgrade_to_head
from bot.db.session import Database
from bot.services.web_links import WebLinkService


async def rotate(database_url: str) -> None:
    """Replace the key stored in this database."""
    await upgrade_to_head(database_url)  # a database the bot never ran on has no table yet
    db = Database.from_url(database_url)
    try:
        await WebLinkService(db, SystemClock()).rotate_secret()
    finally:
        await db.dispose()


def main(arguments: list[str]) -> int:
    """Parse the arguments and rotate the key; the exit status."""
    parser = argparse.ArgumentParser(
        prog="python -m bot web-secret",
        description="The war table's links are signed with a key kept in the database. "
        "--rotate replaces it: every link given so far stops working at once (the running "
        "bot included); members ask for new ones with /battle table.",
    )
    parser.add_argument("--rotate", action="store_true", help="replace the key now")
    if not parser.parse_args(arguments).rotate:
        parser.print_usage()
        print("Nothing done: add --rotate to replace the key.")
        return 2
    asyncio.run(rotate(Settings().database_url))
    print("The war table's key is replaced: every link given so far is ended.")
    return 0
