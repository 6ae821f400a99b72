"""Interaction payloads as Discord sends them: slash commands, autocomplete, components, modals."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from tools.fake_discord.records import BotMessage, file_payload, walk_components
from tools.fake_discord.world import FakeChannel, FakeRole, FakeUser, snowflake

if TYPE_CHECKING:
    from tools.fake_discord.server import FakeDiscord

ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024
STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER, ATTACHMENT = range(3, 12)


@dataclass
class Upload:
    """A file a user attaches to a slash command option."""

    filename: str
    data: bytes
    content_type: str | None = None


def base_interaction(
    fake: FakeDiscord, itype: int, user: FakeUser, channel: FakeChannel, data: dict[str, Any]
) -> dict[str, Any]:
    """The envelope shared by every guild interaction."""
    world = fake.world
    member = world.members[user.id]
    guild_id = channel.guild_id or world.guild_id  # the guild of the channel it is sent in
    return {
        "id": str(snowflake()),
        "application_id": str(world.app_id),
        "type": itype,
        "token": f"itok-{secrets.token_urlsafe(24)}",
        "version": 1,
        "guild_id": str(guild_id),
        "guild": {"id": str(guild_id), "locale": "en-US", "features": []},
        "channel_id": str(channel.id),
        "channel": channel.payload(),
        "member": member.payload(permissions=world.permissions(user)),
        "data": data,
        "app_permissions": str(world.permissions(world.bot)),
        "locale": "en-GB",
        "guild_locale": "en-US",
        "entitlements": [],
        "authorizing_integration_owners": {"0": str(guild_id)},
        "context": 0,
        "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
    }


def find_command(
    fake: FakeDiscord, path: str
) -> tuple[dict[str, Any], list[str], list[dict[str, Any]]]:
    """The synced command for 'top [group] [sub]', its subcommand chain and leaf option schemas."""
    words = path.split()
    synced = [c for cmds in fake.commands.values() for c in cmds if c.get("type", 1) == 1]
    command = next((c for c in synced if c["name"] == words[0]), None)
    if command is None:
        names = sorted(c["name"] for c in synced)
        raise AssertionError(f"/{words[0]} was not synced; synced commands: {names}")
    level = command.get("options") or []
    for word in words[1:]:
        sub = next((o for o in level if o["name"] == word and o["type"] in (1, 2)), None)
        if sub is None:
            raise AssertionError(f"/{path}: no subcommand {word!r} in {[o['name'] for o in level]}")
        level = sub.get("options") or []
    if any(o["type"] in (1, 2) for o in level):
        raise AssertionError(f"/{path} is a group; Discord only lets users run its subcommands")
    return command, words[1:], level


def command_interaction(
    fake: FakeDiscord,
    user: FakeUser,
    channel: FakeChannel,
    path: str,
    values: dict[str, Any],
    *,
    focused: str | None = None,
) -> dict[str, Any]:
    """A slash command (type 2), or an autocomplete request (type 4) when focused is given."""
    command, chain, schema = find_command(fake, path)
    resolved: dict[str, dict[str, Any]] = {}
    options = build_options(fake, schema, values, resolved, path, focused=focused)
    for name in reversed(chain):
        sub_type = 1 if name == chain[-1] else 2
        options = [{"name": name, "type": sub_type, "options": options}]
    data: dict[str, Any] = {
        "id": command["id"],
        "name": command["name"],
        "type": 1,
        "options": options,
    }
    if "guild_id" in command:
        data["guild_id"] = command["guild_id"]
    if resolved:
        data["resolved"] = resolved
    return base_interaction(fake, 4 if focused else 2, user, channel, data)


def build_options(
    fake: FakeDiscord,
    schema: list[dict[str, Any]],
    values: dict[str, Any],
    resolved: dict[str, dict[str, Any]],
    path: str,
    *,
    focused: str | None,
) -> list[dict[str, Any]]:
    """Option values in schema order, checked the way the Discord client checks them."""
    known = {o["name"]: o for o in schema}
    unknown = set(values) - set(known)
    if unknown:
        raise AssertionError(f"/{path} has no options {sorted(unknown)}; it has {sorted(known)}")
    if focused is not None and focused not in known:
        raise AssertionError(f"/{path} has no option {focused!r} to autocomplete")
    options = []
    for opt in schema:
        name = opt["name"]
        if name == focused:
            value = values.get(name, "")
            options.append({"name": name, "type": opt["type"], "value": value, "focused": True})
            continue
        if name not in values:
            if opt.get("required") and focused is None:
                raise AssertionError(f"/{path}: required option {name!r} missing")
            continue
        value = encode_value(fake, opt, values[name], resolved, path)
        options.append({"name": name, "type": opt["type"], "value": value})
    return options


def encode_value(
    fake: FakeDiscord, opt: dict[str, Any], value: Any, resolved: dict[str, Any], path: str
) -> Any:
    """One option's wire value, adding users/roles/channels/attachments to resolved."""
    otype, name = opt["type"], opt["name"]
    if opt.get("choices") and value not in [c["value"] for c in opt["choices"]]:
        allowed = [c["value"] for c in opt["choices"]]
        raise AssertionError(f"/{path} {name}={value!r} is not one of the choices {allowed}")
    if otype in (USER, MENTIONABLE) and isinstance(value, FakeUser):
        member = fake.world.members.get(value.id)
        resolved.setdefault("users", {})[str(value.id)] = value.payload()
        if member is not None:
            member_data = member.payload(with_user=False, permissions=fake.world.permissions(value))
            resolved.setdefault("members", {})[str(value.id)] = member_data
        return str(value.id)
    if otype in (ROLE, MENTIONABLE) and isinstance(value, FakeRole):
        resolved.setdefault("roles", {})[str(value.id)] = value.payload()
        return str(value.id)
    if otype == CHANNEL and isinstance(value, FakeChannel):
        data = {**value.payload(), "permissions": str(fake.world.permissions(fake.world.bot))}
        resolved.setdefault("channels", {})[str(value.id)] = data
        return str(value.id)
    if otype == ATTACHMENT and isinstance(value, Upload):
        f = fake.add_file(value.filename, value.data, value.content_type)
        data = {**file_payload(f, fake.base_url), "ephemeral": True}
        resolved.setdefault("attachments", {})[str(f.id)] = data
        return str(f.id)
    kinds: dict[int, type | tuple[type, ...]] = {
        STRING: str,
        INTEGER: int,
        BOOLEAN: bool,
        NUMBER: (int, float),
    }
    expected = kinds.get(otype)
    if expected is None or not isinstance(value, expected):
        raise AssertionError(f"/{path} {name}: {value!r} is not valid for option type {otype}")
    if otype == INTEGER and isinstance(value, bool):
        raise AssertionError(f"/{path} {name}: a bool is not an integer")
    _check_bounds(opt, value, path)
    return value


def _check_bounds(opt: dict[str, Any], value: Any, path: str) -> None:
    """The Discord client enforces min/max value and length before sending."""
    name = opt["name"]
    size = len(value) if isinstance(value, str) else value
    lo_key, hi_key = (
        ("min_length", "max_length") if isinstance(value, str) else ("min_value", "max_value")
    )
    if opt.get(lo_key) is not None and size < opt[lo_key]:
        raise AssertionError(f"/{path} {name}={value!r} is below {lo_key} {opt[lo_key]}")
    if opt.get(hi_key) is not None and size > opt[hi_key]:
        raise AssertionError(f"/{path} {name}={value!r} is above {hi_key} {opt[hi_key]}")


def component_interaction(
    fake: FakeDiscord,
    user: FakeUser,
    message: BotMessage,
    component: dict[str, Any],
    values: list[str],
) -> dict[str, Any]:
    """A button click or select choice (type 3) on a bot message."""
    channel = fake.world.any_channel(message.channel_id)
    assert channel is not None
    if component.get("disabled"):
        raise AssertionError(f"component {component.get('custom_id')!r} is disabled")
    data: dict[str, Any] = {
        "custom_id": component["custom_id"],
        "component_type": component["type"],
    }
    if component["type"] != 2:
        allowed = [o["value"] for o in component.get("options", [])]
        if allowed and any(v not in allowed for v in values):
            raise AssertionError(f"select values {values} not among {allowed}")
        data["values"] = values
    if channel.type == 1:
        payload = dm_interaction(fake, 3, user, channel, data)
    else:
        payload = base_interaction(fake, 3, user, channel, data)
    payload["message"] = message.payload(fake.base_url)
    return payload


def dm_interaction(
    fake: FakeDiscord, itype: int, user: FakeUser, channel: FakeChannel, data: dict[str, Any]
) -> dict[str, Any]:
    """The envelope of an interaction in a direct message with the bot: no guild, no member,
    the ``user`` who acted (only its recipient can act there)."""
    assert channel.recipient is user, f"{user.username} cannot act in {channel.name}"
    world = fake.world
    return {
        "id": str(snowflake()),
        "application_id": str(world.app_id),
        "type": itype,
        "token": f"itok-{secrets.token_urlsafe(24)}",
        "version": 1,
        "channel_id": str(channel.id),
        "channel": channel.payload(),
        "user": user.payload(),
        "data": data,
        "app_permissions": str(world.permissions(world.bot)),
        "locale": "en-GB",
        "entitlements": [],
        "authorizing_integration_owners": {"1": str(user.id)},
        "context": 1,
        "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
    }


def modal_submit_interaction(
    fake: FakeDiscord,
    user: FakeUser,
    channel: FakeChannel,
    modal: dict[str, Any],
    values: dict[str, str],
    message: BotMessage | None,
) -> dict[str, Any]:
    """A modal submit (type 5) for the modal the bot showed; values by custom_id or label."""
    remaining = dict(values)
    rows = [_submitted(comp, remaining) for comp in modal.get("components", [])]
    if remaining:
        raise AssertionError(f"modal has no fields {sorted(remaining)}")
    data = {"custom_id": modal["custom_id"], "components": [r for r in rows if r]}
    payload = base_interaction(fake, 5, user, channel, data)
    if message is not None:
        payload["message"] = message.payload(fake.base_url)
    return payload


def _submitted(comp: dict[str, Any], values: dict[str, str]) -> dict[str, Any] | None:
    """The submitted form of one modal component (action row, label or text input)."""
    if comp["type"] == 1:
        inner = [_submitted(c, values) for c in comp.get("components", [])]
        return {"type": 1, "components": [c for c in inner if c]}
    if comp["type"] == 18:
        inner_comp = dict(comp["component"])
        inner_comp.setdefault("label", comp.get("label"))
        sub = _submitted(inner_comp, values)
        return {"type": 18, "id": comp.get("id"), "component": sub} if sub else None
    if comp["type"] != 4:
        return None
    key = comp["custom_id"] if comp["custom_id"] in values else comp.get("label")
    value = values.pop(key) if key in values else comp.get("value") or ""
    if comp.get("required", True) and not value:
        raise AssertionError(f"modal field {comp.get('label') or comp['custom_id']!r} is required")
    if len(value) > comp.get("max_length", 4000) or len(value) < comp.get("min_length", 0):
        raise AssertionError(f"modal field {comp['custom_id']!r}: length out of bounds")
    return {"type": 4, "custom_id": comp["custom_id"], "value": value}


def modal_fields(modal: dict[str, Any]) -> list[dict[str, Any]]:
    """Every text input of a modal."""
    return [c for c in walk_components(modal.get("components", [])) if c.get("type") == 4]
