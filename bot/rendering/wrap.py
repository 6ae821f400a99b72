"""Words broken into lines that fit a width, the last line cut with "…" if they run over."""

from __future__ import annotations

from bot.rendering.text import drawable, shortened, width


def wrapped(text: str, size: int, room: float, *, bold: bool = False, most: int = 0) -> list[str]:
    """``text`` in lines no wider than ``room`` pixels, broken between words (a word wider
    than the room is cut); with ``most``, at most that many lines, the last ending in "…"
    when the words run over."""
    lines: list[str] = []
    for word in drawable(text).split(" "):
        joined = f"{lines[-1]} {word}" if lines else word
        if lines and width(joined, size, bold) <= room:
            lines[-1] = joined
        else:
            lines.append(shortened(word, size, room, bold))
    if most and len(lines) > most:
        rest = " ".join(lines[most - 1 :])
        lines = [*lines[: most - 1], shortened(rest, size, room, bold)]
    return lines or [""]
