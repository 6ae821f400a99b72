"""What the bot did, as the fake Discord saw it: messages, files, edits, interaction callbacks."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from tools.fake_discord.world import iso_now

EPHEMERAL = 1 << 6
LOADING = 1 << 7
INTERACTIVE_TYPES = {2, 3, 5, 6, 7, 8}  # button, selects


@dataclass
class SentFile:
    """A file the bot uploaded."""

    id: int
    filename: str
    data: bytes
    content_type: str | None = None
    description: str | None = None

    @property
    def text(self) -> str:
        """The file's bytes decoded as UTF-8."""
        return self.data.decode("utf-8")


@dataclass
class BotMessage:
    """A message the bot created (reply, followup, channel message or DM), with its edits."""

    id: int
    channel_id: int
    guild_id: int | None
    kind: str  # "response", "followup", "channel", "dm"
    author: dict[str, Any]
    interaction_id: int | None = None
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    flags: int = 0
    files: list[SentFile] = field(default_factory=list)
    edits: list[dict[str, Any]] = field(default_factory=list)
    deleted: bool = False
    timestamp: str = field(default_factory=iso_now)
    edited_timestamp: str | None = None

    @property
    def ephemeral(self) -> bool:
        """True when only the invoking user can see it (flag 64)."""
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        """True while this is still a deferred 'thinking…' placeholder."""
        return bool(self.flags & LOADING)

    @property
    def text(self) -> str:
        """Content plus every visible embed text, one block, for easy assertions."""
        parts = [self.content or ""]
        for embed in self.embeds:
            parts += [embed.get("title", ""), embed.get("description", "")]
            parts.append((embed.get("author") or {}).get("name", ""))
            for f in embed.get("fields", []):
                parts += [f.get("name", ""), f.get("value", "")]
            parts.append((embed.get("footer") or {}).get("text", ""))
        parts += [c.get("content", "") for c in walk_components(self.components)]
        return "\n".join(p for p in parts if p)

    @property
    def interactive(self) -> list[dict[str, Any]]:
        """Every button and select on the message."""
        return [c for c in walk_components(self.components) if c.get("type") in INTERACTIVE_TYPES]

    def component(
        self, *, custom_id: str | None = None, label: str | None = None
    ) -> dict[str, Any]:
        """The button or select with this custom_id or label; AssertionError if absent."""
        for comp in self.interactive:
            if custom_id is not None and comp.get("custom_id") == custom_id:
                return comp
            if label is not None and comp.get("label") == label:
                return comp
        found = [(c.get("label"), c.get("custom_id")) for c in self.interactive]
        raise AssertionError(f"no component {custom_id or label!r} on message; found {found}")

    def apply(self, body: dict[str, Any], files: list[SentFile], *, record_edit: bool) -> None:
        """Apply a create/edit body (content, embeds, components, flags, attachments)."""
        if record_edit:
            self.edits.append(body)
            self.edited_timestamp = iso_now()
        if "content" in body:
            self.content = body["content"] or ""
        if "embeds" in body:
            self.embeds = list(body["embeds"] or [])
        if "components" in body:
            self.components = list(body["components"] or [])
        if body.get("flags") is not None:
            flags = body["flags"] & ~LOADING
            self.flags = (self.flags & EPHEMERAL) | (flags & ~EPHEMERAL) if record_edit else flags
        if record_edit:
            self.flags &= ~LOADING
        if "attachments" in body and record_edit:
            keep_ids = {int(a["id"]) for a in body["attachments"] or [] if "id" in a}
            self.files = [f for f in self.files if f.id in keep_ids]
        self.files += files

    def payload(self, base_url: str) -> dict[str, Any]:
        """The message object JSON as Discord would return it."""
        return {
            "id": str(self.id),
            "type": 20 if self.interaction_id else 0,
            "channel_id": str(self.channel_id),
            **({"guild_id": str(self.guild_id)} if self.guild_id else {}),
            **({"webhook_id": self.author["id"]} if self.interaction_id else {}),
            "author": self.author,
            "content": self.content,
            "timestamp": self.timestamp,
            "edited_timestamp": self.edited_timestamp,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [file_payload(f, base_url) for f in self.files],
            "embeds": self.embeds,
            "components": self.components,
            "pinned": False,
            "flags": self.flags,
        }


def file_payload(f: SentFile, base_url: str) -> dict[str, Any]:
    """The attachment object JSON for a file."""
    url = f"{base_url}/attachments/{f.id}/{f.filename}"
    return {
        "id": str(f.id),
        "filename": f.filename,
        "size": len(f.data),
        "url": url,
        "proxy_url": url,
        "content_type": f.content_type,
        "description": f.description,
    }


def walk_components(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every component, depth first, through rows, containers, sections and labels."""
    found: list[dict[str, Any]] = []
    for comp in components:
        found.append(comp)
        found += walk_components(comp.get("components", []))
        for key in ("component", "accessory"):
            if isinstance(comp.get(key), dict):
                found += walk_components([comp[key]])
    return found


@dataclass
class InteractionRecord:
    """One interaction sent to the bot and everything the bot did in answer."""

    id: int
    token: str
    type: int
    user_id: int
    channel_id: int
    payload: dict[str, Any]
    source_message: BotMessage | None = None
    sent_at: float = field(default_factory=time.monotonic)
    # CPU time this process had used when the interaction was sent: what the bot's answer cost
    # is counted in CPU seconds, which another busy process on the machine does not stretch.
    sent_cpu: float = field(default_factory=time.process_time)
    callbacks: list[dict[str, Any]] = field(default_factory=list)
    answered_after: float | None = None  # wall-clock seconds, for the record
    answered_after_cpu: float | None = None  # CPU seconds of this process before the answer
    original: BotMessage | None = None
    followups: list[BotMessage] = field(default_factory=list)

    @property
    def callback_type(self) -> int | None:
        """The type of the first (and only valid) callback, or None if unanswered."""
        return self.callbacks[0]["type"] if self.callbacks else None

    @property
    def callback_data(self) -> dict[str, Any]:
        """The data of the callback, or {}."""
        return (self.callbacks[0].get("data") or {}) if self.callbacks else {}
