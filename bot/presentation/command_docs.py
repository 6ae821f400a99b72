"""The slash commands as /help describes them, read from the command tree itself so that
/help cannot name a command or an option the bot does not have."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from discord import app_commands

# A command written in /help: `/path words option:value …` inside code marks.
MENTION = re.compile(r"`(/[a-z][^`]*)`")
OPTION = re.compile(r"(?:^|\s)([a-z_0-9]+):")


@dataclass(frozen=True)
class OptionDoc:
    """One option of a command: what /help command: says about it."""

    name: str
    description: str
    required: bool
    choices: tuple[str, ...] = ()
    offered: bool = False  # its values are offered as you type (autocomplete)


@dataclass(frozen=True)
class CommandDoc:
    """One runnable command (``order give``, ``help``) with its options."""

    path: str
    description: str
    options: tuple[OptionDoc, ...]

    def option(self, name: str) -> OptionDoc | None:
        """The option called ``name``, if the command has it."""
        return next((o for o in self.options if o.name == name), None)


Docs = dict[str, CommandDoc]


def command_docs(commands: Iterable[Any]) -> Docs:
    """Every runnable command of the tree (from ``tree.walk_commands()``) by its path."""
    found: Docs = {}
    for command in commands:
        if not isinstance(command, app_commands.Command):
            continue  # a group runs nothing itself; its commands come by too
        options = tuple(
            OptionDoc(
                p.name,
                p.description,
                p.required,
                tuple(str(c.name) for c in p.choices),
                p.autocomplete,
            )
            for p in command.parameters
        )
        found[command.qualified_name] = CommandDoc(
            command.qualified_name, command.description, options
        )
    return dict(sorted(found.items()))


@dataclass(frozen=True)
class Mention:
    """A command written in a help text: its path and the options it names."""

    written: str
    path: str  # "" when no command of the tree starts the text
    options: tuple[str, ...]


def mentions(text: str, docs: Docs) -> list[Mention]:
    """Every command written in code marks in ``text``, matched to the longest path of the
    tree (a command, or a group such as ``/odds``) it starts with, and the ``name:`` options
    written after it."""
    groups = {p.rsplit(" ", n)[0] for p in docs for n in range(1, p.count(" ") + 1)}
    found = []
    for written in MENTION.findall(text):
        words = written[1:].split()
        prefixes = (" ".join(words[:n]) for n in range(len(words), 0, -1))
        path = next((p for p in prefixes if p in docs or p in groups), "")
        rest = written[1 + len(path) :] if path else ""
        found.append(Mention(written, path, tuple(OPTION.findall(rest))))
    return found


def stale_mentions(text: str, docs: Docs) -> list[str]:
    """The commands written in ``text`` that the tree lacks, or with an option it lacks."""
    return [
        m.written
        for m in mentions(text, docs)
        if not m.path
        or any(m.path not in docs or docs[m.path].option(o) is None for o in m.options)
    ]
