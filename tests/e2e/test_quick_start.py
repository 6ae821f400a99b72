"""README.md's "Quick start", played as a club would: its slash commands, in order, to a
finished skirmish battle.

The commands are read from the README itself. Each numbered item names who runs each
command (**GM**, **Red**, **Blue**, **Anyone**, or **each of them**: the players the bot
waits for); a file option is filled with the item's own code block. The item that goes on
"until the bot announces the battle's end" is repeated step after step: its orders given
"in the first <step> step" when that step first comes, a question's buttons clicked, then
`/order done` by each player the step waits for. The test fails if a command is refused or
errs, or if the quick start stops short of the battle's end (its record posted), so a club
following it reaches a finished battle using only the README's commands.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import MakeHarness
from tests.e2e.test_readme_how_to_play import command_paths, typed, watch_errors
from tools.fake_discord import FakeUser
from tools.fake_discord.interactions import find_command
from tools.harness import Harness, InteractionResult
from tools.skirmish_battle import field

pytestmark = pytest.mark.usefixtures("fixed_seed")
ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
CHANNEL = "hundred-years"
UNTIL_THE_END = "until the bot announces the battle's end"
ROLE = re.compile(r"\*\*(GM|Red|Blue|Anyone|each of them)\*\*[^`]*?`(/[^`]+)`", re.S)
FOLDERS = {"/data"}  # the Docker image's database folder, named in docs/operations.md
WHEN = re.compile(r"in the first (\w+) step[^`]*$")


@dataclass
class Command:
    """One quick-start command: who runs it, its text, and the step it waits for (if any)."""

    who: str
    text: str
    when: str | None = None


@dataclass
class Item:
    """One numbered item of the quick start."""

    text: str
    commands: list[Command]

    @property
    def repeats(self) -> bool:
        """Whether this item is played step after step until the battle ends."""
        return UNTIL_THE_END in re.sub(r"\s+", " ", self.text)


def quick_start() -> str:
    """The README's "Quick start" section."""
    text = README.read_text(encoding="utf-8")
    start = text.index("## Quick start")
    return text[start : text.index("\n## ", start + 1)]


def items() -> list[Item]:
    """The numbered items, each with its commands in order."""
    parts = re.split(r"\n(?=\d+\. )", quick_start())
    out = []
    for part in parts[1:]:
        commands = []
        for match in ROLE.finditer(part):
            before = re.sub(r"\s+", " ", part[: match.start()])
            when = WHEN.search(before[-80:])
            span = re.sub(r"\s+", " ", match[2])
            commands.append(Command(match[1], span, when[1] if when else None))
        out.append(Item(part, commands))
    return out


def options_of(span: str, paths: set[str]) -> tuple[str, dict[str, str]]:
    """A span's longest command path and its ``name:value`` options (values may hold spaces)."""
    words = span[1:].split()
    n = max(k for k in range(1, 4) if " ".join(words[:k]) in paths or k == 1)
    rest = " ".join(words[n:])
    found = re.findall(r"([a-z_0-9]+):(.*?)(?=\s+[a-z_0-9]+:|$)", rest)
    assert " ".join(f"{k}:{v}" for k, v in found) == rest, f"not name:value options: {span}"
    return " ".join(words[:n]), dict(found)


class Club:
    """A GM, Red (Alice) and Blue (Bob) following the quick start in one channel."""

    def __init__(self, h: Harness) -> None:
        self.h, self.where = h, h.channel(CHANNEL)
        self.paths = command_paths(h)
        self.errors: list[str] = []
        self.ran: list[str] = []
        watch_errors(h, self.errors)

    def users(self, who: str) -> list[FakeUser]:
        """Who runs a command named for ``who``."""
        h = self.h
        return {"GM": [h.gm], "Red": [h.alice], "Blue": [h.bob], "Anyone": [h.outsider]}[who]

    async def run(self, user: FakeUser, item: Item, command: Command) -> InteractionResult:
        """Run one command as ``user``; it must be answered without an error or refusal."""
        h = self.h
        path, options = options_of(command.text, self.paths)
        assert path in self.paths, f"no such command: {command.text}"
        _cmd, _subs, schema = find_command(h.fake, path)
        required = {o["name"] for o in schema if o.get("required")}
        assert required <= set(options), f"{command.text} lacks {required - set(options)}"
        given: dict[str, Any] = dict(options)
        for name, value in options.items():
            if name == "file":  # the item's own code block, under the name the README gives
                block = re.search(r"```\w*\n(.*?)```", item.text, re.S)
                assert block is not None, f"{command.text}: the item shows no file"
                given[name] = h.upload(value, re.sub(r"(?m)^   ", "", block[1]))
        before = len(self.errors)
        answer = await h.slash(user, path, channel=self.where, options=typed(h, schema, given))
        assert self.errors[before:] == [], (command.text, self.errors[before:])
        self.ran.append(command.text)
        return answer

    def ended(self) -> bool:
        """Whether the battle's end (with its record) has been posted."""
        return any(
            f.filename == "record.json" for m in self.h.messages(self.where) for f in m.files
        )

    async def answer_questions(self) -> None:
        """Click the first answer of every open question, as whichever player it asks."""
        h = self.h
        for message in h.messages(self.where):
            for user in (h.alice, h.bob):
                buttons = [c for c in message.interactive
                           if c.get("custom_id", "").startswith("decide:")]  # fmt: skip
                if buttons:
                    await h.click(user, message, custom_id=buttons[0]["custom_id"])

    async def play(self, item: Item) -> None:
        """The repeated item: orders in their step, questions answered, `/order done`."""
        h = self.h
        pending = [c for c in item.commands if c.when]
        for _ in range(100):
            if self.ended():
                break
            await self.answer_questions()
            card = (await h.slash(h.gm, "battle status", channel=self.where)).message
            assert card is not None
            now, waiting = field(card, "Now"), field(card, "Waiting for")
            for command in [c for c in pending if c.when == now]:
                (user,) = self.users(command.who)
                if user.mention not in waiting:  # "the players it waits for give their orders"
                    continue
                answer = await self.run(user, item, command)
                assert answer.ephemeral and "cannot" not in answer.content, answer
                pending.remove(command)
            for command in [c for c in item.commands if c.who == "each of them"]:
                for user in [u for u in (h.alice, h.bob) if u.mention in waiting]:
                    done = await self.run(user, item, command)
                    assert done.content.startswith("Confirmed"), done
        assert pending == [], f"never reached the step of {[c.text for c in pending]}"


async def test_the_quick_start_reaches_a_finished_battle(make_aide: MakeHarness) -> None:
    aide = await make_aide(web_port=0)  # the war table served, as by default: /battle table
    club = Club(aide)
    steps = items()
    assert sum(1 for item in steps if item.repeats) == 1, "one item is played until the end"
    assert len([c for i in steps for c in i.commands]) >= 10, "the quick start's commands"
    ends: list[Any] = []
    for item in steps:
        assert item.commands, f"an item without a command: {item.text}"
        if item.repeats:
            await club.play(item)
            ends = [
                m
                for m in aide.messages(club.where)
                if any(f.filename == "record.json" for f in m.files)
            ]
            continue
        for command in item.commands:
            for user in club.users(command.who):
                await club.run(user, item, command)
    assert len(ends) == 1, "the quick start stops short of the battle's end (announced once)"
    assert "/order done" in club.ran and club.ran[-1] == "/battle report"
    reports = [
        m for m in aide.messages(club.where) if any(f.filename == "report.md" for f in m.files)
    ]
    assert reports, "the after-action report was posted"


async def test_the_slash_commands_the_docs_name_are_real(aide: Harness) -> None:
    """docs/operations.md and docs/performance.md name commands in passing: each is synced,
    with only options it has (the README's own are run by the walks above and beside)."""
    paths, groups = command_paths(aide), command_paths(aide, groups=True)
    named = []
    for doc in ("operations.md", "performance.md"):
        text = re.sub(r"\s*\n\s*", " ", (ROOT / "docs" / doc).read_text(encoding="utf-8"))
        spans = re.findall(r"`(/[^`]+)`", text)
        named += [s for s in spans if re.match(r"/[a-z]", s) and s not in FOLDERS]
    assert "/battle status" in named
    for span in named:
        path, options = options_of(span.replace(" …", ""), groups)
        assert path in groups, f"no such command: {span}"
        if options and path in paths:
            _cmd, _subs, schema = find_command(aide.fake, path)
            assert set(options) <= {o["name"] for o in schema}, span
