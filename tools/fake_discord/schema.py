"""Discord's documented limits on command schemas, messages, modals and autocomplete answers.

Each validator returns a list of (path, problem) pairs; empty means Discord would accept it.
The fake answers 400 / code 50035 ("Invalid Form Body") when any are found, as Discord does.
"""

from __future__ import annotations

import re
from typing import Any

from tools.fake_discord.records import walk_components

Problems = list[tuple[str, str]]

NAME_RE = re.compile(r"^[-_a-z0-9]{1,32}$")
MAX_CHAT_COMMANDS = 100
MAX_CONTEXT_COMMANDS = 15
MAX_OPTIONS = 25
MAX_CHOICES = 25
MAX_COMMAND_CHARS = 4000
SUBCOMMAND, GROUP, CHANNEL = 1, 2, 7
CHOICE_TYPES = {3, 4, 10}
VALUE_TYPES = set(range(3, 12))
COMPONENTS_V2 = 1 << 15


def _check_len(problems: Problems, path: str, value: Any, lo: int, hi: int) -> None:
    """Record a problem unless value is a str of length lo..hi."""
    if not isinstance(value, str) or not lo <= len(value) <= hi:
        problems.append((path, f"must be a string of {lo}-{hi} characters, got {value!r}"))


def validate_commands(commands: list[dict[str, Any]]) -> Problems:
    """Check a full PUT of application commands against Discord's limits."""
    problems: Problems = []
    by_type: dict[int, list[str]] = {}
    for i, cmd in enumerate(commands):
        by_type.setdefault(cmd.get("type", 1), []).append(cmd.get("name", ""))
        problems += validate_command(cmd, f"{i}")
    for ctype, names in by_type.items():
        limit = MAX_CHAT_COMMANDS if ctype == 1 else MAX_CONTEXT_COMMANDS
        if len(names) > limit:
            problems.append(("_", f"{len(names)} commands of type {ctype}; at most {limit}"))
        dupes = sorted({n for n in names if names.count(n) > 1})
        if dupes:
            problems.append(("_", f"duplicate command names {dupes}"))
    return problems


def validate_command(cmd: dict[str, Any], path: str) -> Problems:
    """Check one top-level command."""
    problems: Problems = []
    name = cmd.get("name")
    if cmd.get("type", 1) == 1:
        if not isinstance(name, str) or not NAME_RE.match(name):
            problems.append((f"{path}.name", f"{name!r} does not match {NAME_RE.pattern}"))
        _check_len(problems, f"{path}.description", cmd.get("description"), 1, 100)
        problems += _validate_level(cmd.get("options") or [], f"{path}.options", depth=0)
    else:
        _check_len(problems, f"{path}.name", name, 1, 32)
        if cmd.get("description"):
            problems.append((f"{path}.description", "context menu commands take no description"))
    chars = _count_chars(cmd)
    if chars > MAX_COMMAND_CHARS:
        problems.append((path, f"{chars} characters in names/descriptions/choices; max 4000"))
    return problems


def _validate_level(options: list[dict[str, Any]], path: str, depth: int) -> Problems:
    """Check the options of one level: a command, a group or a subcommand."""
    problems: Problems = []
    if len(options) > MAX_OPTIONS:
        problems.append((path, f"{len(options)} options; at most {MAX_OPTIONS}"))
    names = [o.get("name") for o in options]
    if len(set(names)) != len(names):
        problems.append((path, f"duplicate option names {names}"))
    kinds = {o.get("type") in (SUBCOMMAND, GROUP) for o in options}
    if len(kinds) > 1:
        problems.append((path, "subcommands/groups mixed with plain options"))
    seen_optional = False
    for i, opt in enumerate(options):
        problems += _validate_option(opt, f"{path}.{i}", depth)
        if opt.get("type") in VALUE_TYPES:
            if opt.get("required") and seen_optional:
                problems.append((f"{path}.{i}", "required option after an optional one"))
            seen_optional = seen_optional or not opt.get("required")
    return problems


def _validate_option(opt: dict[str, Any], path: str, depth: int) -> Problems:
    """Check one option, subcommand or subcommand group."""
    problems: Problems = []
    otype = opt.get("type")
    name = opt.get("name")
    if not isinstance(name, str) or not NAME_RE.match(name):
        problems.append((f"{path}.name", f"{name!r} does not match {NAME_RE.pattern}"))
    _check_len(problems, f"{path}.description", opt.get("description"), 1, 100)
    if otype == GROUP:
        if depth > 0:
            problems.append((path, "subcommand groups cannot be nested"))
        subs = opt.get("options") or []
        if any(o.get("type") != SUBCOMMAND for o in subs):
            problems.append((path, "a subcommand group may only contain subcommands"))
        problems += _validate_level(subs, f"{path}.options", depth + 1)
    elif otype == SUBCOMMAND:
        problems += _validate_level(opt.get("options") or [], f"{path}.options", depth + 2)
    elif otype in VALUE_TYPES:
        problems += _validate_value_option(opt, path)
    else:
        problems.append((f"{path}.type", f"unknown option type {otype!r}"))
    return problems


def _validate_value_option(opt: dict[str, Any], path: str) -> Problems:
    """Check choices, autocomplete, lengths and channel types of a value option."""
    problems: Problems = []
    choices = opt.get("choices") or []
    if choices and opt.get("type") not in CHOICE_TYPES:
        problems.append((path, "choices on an option type that cannot have them"))
    if len(choices) > MAX_CHOICES:
        problems.append((path, f"{len(choices)} choices; at most {MAX_CHOICES}"))
    if choices and opt.get("autocomplete"):
        problems.append((path, "autocomplete and choices are mutually exclusive"))
    for j, choice in enumerate(choices):
        _check_len(problems, f"{path}.choices.{j}.name", choice.get("name"), 1, 100)
        if isinstance(choice.get("value"), str):
            _check_len(problems, f"{path}.choices.{j}.value", choice["value"], 1, 100)
    if opt.get("channel_types") and opt.get("type") != CHANNEL:
        problems.append((path, "channel_types on a non-channel option"))
    if not 0 <= opt.get("min_length", 0) <= 6000 or not 1 <= opt.get("max_length", 1) <= 6000:
        problems.append((path, "min_length/max_length out of range"))
    return problems


def _count_chars(cmd: dict[str, Any]) -> int:
    """Characters counted towards the 4000 limit: names, descriptions, choice names/values."""
    total = len(cmd.get("name", "")) + len(cmd.get("description", ""))
    for opt in cmd.get("options") or []:
        total += _count_chars(opt)
        for choice in opt.get("choices") or []:
            total += len(str(choice.get("name", ""))) + len(str(choice.get("value", "")))
    return total


def validate_message(body: dict[str, Any], n_files: int, *, creating: bool) -> Problems:
    """Check a message create/edit body against Discord's limits."""
    problems: Problems = []
    content = body.get("content")
    if content is not None and len(content) > 2000:
        problems.append(("content", f"{len(content)} characters; max 2000"))
    embeds = body.get("embeds") or []
    if len(embeds) > 10:
        problems.append(("embeds", f"{len(embeds)} embeds; max 10"))
    total = 0
    for i, embed in enumerate(embeds):
        total += _validate_embed(problems, embed, f"embeds.{i}")
    if total > 6000:
        problems.append(("embeds", f"{total} characters in embeds; max 6000"))
    if n_files > 10:
        problems.append(("files", f"{n_files} files; max 10"))
    problems += _validate_components(body.get("components") or [], body.get("flags") or 0)
    empty = not (content or embeds or n_files or body.get("components") or body.get("poll"))
    if creating and empty:
        problems.append(("_", "Cannot send an empty message"))
    return problems


def _validate_embed(problems: Problems, embed: dict[str, Any], path: str) -> int:
    """Check one embed; return its character count."""
    limits = {"title": 256, "description": 4096}
    count = 0
    for key, hi in limits.items():
        if key in embed:
            count += len(embed[key])
            if len(embed[key]) > hi:
                problems.append((f"{path}.{key}", f"longer than {hi}"))
    fields = embed.get("fields") or []
    if len(fields) > 25:
        problems.append((f"{path}.fields", f"{len(fields)} fields; max 25"))
    for j, f in enumerate(fields):
        _check_len(problems, f"{path}.fields.{j}.name", f.get("name"), 1, 256)
        _check_len(problems, f"{path}.fields.{j}.value", f.get("value"), 1, 1024)
        count += len(str(f.get("name", ""))) + len(str(f.get("value", "")))
    for key, sub, hi in (("footer", "text", 2048), ("author", "name", 256)):
        if key in embed:
            _check_len(problems, f"{path}.{key}.{sub}", embed[key].get(sub), 1, hi)
            count += len(str(embed[key].get(sub, "")))
    return count


def _validate_components(components: list[dict[str, Any]], flags: int) -> Problems:
    """Check rows, buttons and selects (classic layout unless the components-v2 flag is set)."""
    problems: Problems = []
    if not flags & COMPONENTS_V2:
        if len(components) > 5:
            problems.append(("components", f"{len(components)} rows; max 5"))
        for i, row in enumerate(components):
            inner = row.get("components") or []
            if row.get("type") != 1 or not 1 <= len(inner) <= 5:
                problems.append((f"components.{i}", "top level must be action rows of 1-5 items"))
            if any(c.get("type") != 2 for c in inner) and len(inner) > 1:
                problems.append((f"components.{i}", "a select must be alone in its row"))
    ids = []
    for comp in walk_components(components):
        if "custom_id" in comp:
            ids.append(comp["custom_id"])
            _check_len(problems, "components.custom_id", comp["custom_id"], 1, 100)
        if comp.get("type") == 2 and "label" in comp:
            _check_len(problems, "components.label", comp["label"], 0, 80)
        if comp.get("type") == 3 and not 1 <= len(comp.get("options") or []) <= 25:
            problems.append(("components.options", "a string select needs 1-25 options"))
    if len(ids) != len(set(ids)):
        problems.append(("components", f"duplicate custom_ids {ids}"))
    return problems


def validate_modal(data: dict[str, Any]) -> Problems:
    """Check a modal callback's data."""
    problems: Problems = []
    _check_len(problems, "title", data.get("title"), 1, 45)
    _check_len(problems, "custom_id", data.get("custom_id"), 1, 100)
    if not 1 <= len(data.get("components") or []) <= 5:
        problems.append(("components", "a modal needs 1-5 components"))
    return problems


def validate_choices(choices: list[dict[str, Any]]) -> Problems:
    """Check an autocomplete answer."""
    problems: Problems = []
    if len(choices) > MAX_CHOICES:
        problems.append(("choices", f"{len(choices)} choices; max {MAX_CHOICES}"))
    for i, choice in enumerate(choices):
        _check_len(problems, f"choices.{i}.name", choice.get("name"), 1, 100)
        if isinstance(choice.get("value"), str):
            _check_len(problems, f"choices.{i}.value", choice["value"], 0, 100)
    return problems


def error_body(problems: Problems) -> dict[str, Any]:
    """The 400 JSON Discord sends for an invalid form body."""
    errors: dict[str, dict[str, Any]] = {}
    for path, msg in problems:
        errors.setdefault(path, {"_errors": []})["_errors"].append(
            {"code": "INVALID", "message": msg}
        )
    return {"code": 50035, "message": "Invalid Form Body", "errors": errors}
