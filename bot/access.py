"""What the bot asks of Discord, declared once: its OAuth2 scopes, the channel permissions it
uses and its gateway intents; and ``python -m bot invite``, the invite link they make."""

from __future__ import annotations

import argparse
import base64
import binascii
import sys
from urllib.parse import urlencode

import discord
from pydantic import ValidationError

from bot.config import Settings

AUTHORIZE_URL = "https://discord.com/oauth2/authorize"
# `bot` puts the bot in the server; `applications.commands` lets it add its slash commands.
SCOPES = ("bot", "applications.commands")
# Each permission the bot uses, with the code that uses it. Slash command answers are
# interaction replies, which need none of these; only what the bot posts by itself does.
PERMISSIONS: dict[str, str] = {
    "view_channel": "see the campaign channel it posts to (bot/delivery.py)",
    "send_messages": "post calls to arms, questions, reminders and results (channel.send)",
    "embed_links": "results, the end of a battle and calls to arms are embeds",
    "attach_files": "the battle log and record travel as files with a result",
    "read_message_history": "after a restart, find its questions still showing buttons "
    "(channel.history in bot/delivery.py)",
}

INVITE_HELP = (
    "Print the link that adds this bot to a Discord server, with exactly the scopes and "
    "permissions it uses. Offline: the application id is read from DISCORD_TOKEN (environment "
    "or .env) unless --app-id gives it."
)


def permissions() -> discord.Permissions:
    """The permissions the bot needs in a campaign channel, as discord.py's flags."""
    return discord.Permissions(**dict.fromkeys(PERMISSIONS, True))


def permission_label(name: str) -> str:
    """A permission as Discord's settings name it: ``embed_links`` is Embed Links."""
    return name.replace("_", " ").title()


def bot_intents() -> discord.Intents:
    """The gateway intents the bot connects with: the default ones, none privileged."""
    return discord.Intents.default()


def privileged_intents(intents: discord.Intents) -> list[str]:
    """The privileged intents among ``intents``: each must be enabled in the Developer Portal."""
    return [name for name in ("members", "presences", "message_content") if getattr(intents, name)]


class TokenShapeError(ValueError):
    """The token is not shaped like a bot token; the message says what to do."""


def application_id(token: str) -> int:
    """The application id a bot token carries: its first part is the id in base64."""
    parts = token.strip().split(".")
    if len(parts) != 3 or not all(parts):
        raise TokenShapeError(
            "DISCORD_TOKEN is not a bot token (three parts separated by dots): copy it again "
            "from the Developer Portal → your application → Bot → Reset Token."
        )
    first = parts[0] + "=" * (-len(parts[0]) % 4)
    try:
        decoded = base64.urlsafe_b64decode(first).decode("ascii")
    except (binascii.Error, UnicodeDecodeError):
        decoded = ""
    if not decoded.isdigit():
        raise TokenShapeError(
            "DISCORD_TOKEN's first part does not hold an application id: copy the bot token "
            "again (not the client secret or public key), or give --app-id."
        )
    return int(decoded)


def invite_url(app_id: int) -> str:
    """The OAuth2 link that adds the bot to a server with its scopes and permissions."""
    query = {"client_id": app_id, "scope": " ".join(SCOPES), "permissions": permissions().value}
    return f"{AUTHORIZE_URL}?{urlencode(query)}"


def main(arguments: list[str]) -> int:
    """``python -m bot invite [--app-id ID]``: print the invite link; the exit status."""
    parser = argparse.ArgumentParser(prog="python -m bot invite", description=INVITE_HELP)
    parser.add_argument("--app-id", type=int, help="the application id (Developer Portal)")
    app_id = parser.parse_args(arguments).app_id
    if app_id is None:
        try:
            app_id = application_id(_token())
        except TokenShapeError as error:
            print(error, file=sys.stderr)
            return 2
    print(invite_url(app_id))
    labels = ", ".join(map(permission_label, PERMISSIONS))
    print(f"Scopes: {', '.join(SCOPES)}. Permissions: {labels}.")
    return 0


def _token() -> str:
    """DISCORD_TOKEN as the bot reads it (environment or .env); a shape error if unset."""
    try:
        token = Settings().discord_token
    except ValidationError:
        raise TokenShapeError(
            "The settings are invalid: `python -m bot check` says which to fix."
        ) from None
    if not token.strip():
        raise TokenShapeError(
            "DISCORD_TOKEN is not set: put DISCORD_TOKEN=<your bot token> in .env, or give "
            "--app-id (Developer Portal → your application → General Information)."
        )
    return token
