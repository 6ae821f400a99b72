"""Status badges: how the map shows each status key a ruleset declares.

Four shapes cover the rulesets' unit state: ``Pips`` for small counts (disorder points),
``Tag`` for flags (disordered, shaken), ``Count`` for numbers (casualties, losses) and
``Level`` for named levels (aggression, cohesion). Each ruleset's badges are built from the
``Badge`` of its status declarations (``rulesets/<id>/status.py``), in declaration order; a
key declared without a badge is not drawn.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Protocol

from bot.rendering import text as lettering
from bot.rendering.sketch import Drawn, Sketch
from bot.rendering.style import BADGE_COLOURS, RGB, WHITE
from rules_core import registry
from rules_core.codec import Json
from rules_core.plugin import Rules
from rules_core.shared_status import COMMON
from rules_core.status import Declared, Scope, StatusSheet, sheet
from rules_core.status import Level as StatusLevel

HEIGHT = 18  # px of every badge
GAP = 4  # px between badges in a row
TEXT_SIZE = 14
B = BADGE_COLOURS


class Badge(Protocol):
    """How one status key is drawn."""

    @property
    def meaning(self) -> str:
        """The legend's words for it."""
        ...

    def text(self, value: Json) -> str | None:
        """What the badge says for a value, or None when the value needs no badge."""
        ...

    def width(self, value: Json) -> float:
        """Width in pixels of the badge for a value that shows."""
        ...

    def draw(self, draw: Sketch, left: float, top: float, value: Json) -> None:
        """Draw the badge with its top-left corner at (left, top)."""
        ...

    def example(self) -> Json:
        """A value that shows, for the legend and the tests."""
        ...


def _count(value: Json) -> int:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return 0
    return int(value)


def _label_width(text: str) -> float:
    return lettering.width(text, TEXT_SIZE, bold=True) + 8


def _label(draw: Sketch, left: float, top: float, text: str, colour: RGB) -> None:
    """A filled, rounded tag with white bold text."""
    right = left + _label_width(text)
    draw.rounded_rectangle((left, top, right, top + HEIGHT - 1), 4, fill=colour)
    draw.text((left + 4, top + 1), text, WHITE, TEXT_SIZE, bold=True)


@dataclass(frozen=True)
class Pips:
    """A count drawn as a row of dots, with the number after them past ``most``."""

    meaning: str
    colour: RGB = B["pip"]
    most: int = 6

    def text(self, value: Json) -> str | None:
        """The count as text, or None for zero."""
        count = _count(value)
        return str(count) if count > 0 else None

    def width(self, value: Json) -> float:
        """Dots 10 px apart, plus the number when there are too many to dot."""
        count = _count(value)
        extra = _label_width(str(count)) if count > self.most else 0
        return min(count, self.most) * 10 + 4 + extra

    def draw(self, draw: Sketch, left: float, top: float, value: Json) -> None:
        """White-ringed dots so they read on any ground."""
        count = _count(value)
        middle = top + HEIGHT / 2
        for index in range(min(count, self.most)):
            x = left + 7 + index * 10
            draw.ellipse((x - 5, middle - 5, x + 5, middle + 5), fill=WHITE)
            draw.ellipse((x - 4, middle - 4, x + 4, middle + 4), fill=self.colour)
        if count > self.most:
            _label(draw, left + self.most * 10 + 4, top, str(count), self.colour)

    def example(self) -> Json:
        """Two points."""
        return 2


@dataclass(frozen=True)
class Tag:
    """A flag: a coloured tag with a short word while the value is true."""

    meaning: str
    word: str
    colour: RGB = B["warn"]

    def text(self, value: Json) -> str | None:
        """The word while the flag is set."""
        return self.word if value else None

    def width(self, value: Json) -> float:
        """The tag's width."""
        return _label_width(self.text(value) or "")

    def draw(self, draw: Sketch, left: float, top: float, value: Json) -> None:
        """The tag."""
        _label(draw, left, top, self.text(value) or "", self.colour)

    def example(self) -> Json:
        """Set."""
        return True


@dataclass(frozen=True)
class Count(Tag):
    """A number in a tag, such as casualties; ``word`` places the number ("{} lost")."""

    colour: RGB = B["bad"]

    def text(self, value: Json) -> str | None:
        """The number in its words, or None for zero."""
        count = _count(value)
        return self.word.format(count) if count else None

    def example(self) -> Json:
        """Three."""
        return 3


@dataclass(frozen=True)
class Level:
    """A named level: each value has a short word and a colour; ``quiet`` values show nothing."""

    meaning: str
    words: Mapping[str, tuple[str, RGB]]
    quiet: frozenset[str] = field(default_factory=frozenset)

    def _entry(self, value: Json) -> tuple[str, RGB] | None:
        key = str(value).strip().lower()
        if value is None or value is False or key in self.quiet:
            return None
        # A level this registry does not know still shows, in neutral grey.
        return self.words.get(key, (key.upper()[:8], B["neutral"]))

    def text(self, value: Json) -> str | None:
        """The level's short word, or None for a quiet level."""
        entry = self._entry(value)
        return None if entry is None else entry[0]

    def width(self, value: Json) -> float:
        """The tag's width."""
        return _label_width(self.text(value) or "")

    def draw(self, draw: Sketch, left: float, top: float, value: Json) -> None:
        """The tag in the level's colour."""
        entry = self._entry(value)
        if entry is not None:
            _label(draw, left, top, entry[0], entry[1])

    def example(self) -> Json:
        """The first level with words."""
        return next(iter(self.words))


def _drawn(item: Declared) -> Badge | None:
    """The drawing for one declaration: its shape picks the class, its tone the colour."""
    look = item.badge
    if look is None:
        return None
    if isinstance(item, StatusLevel):
        words = {v.value.lower(): (v.word, B[v.tone]) for v in item.values if not v.quiet}
        quiet = frozenset(v.value.lower() for v in item.values if v.quiet)
        return Level(item.meaning, words, quiet)
    if look.shape == "pips":
        return Pips(item.meaning, B[look.tone])
    if look.shape == "count":
        return Count(item.meaning, look.word, B[look.tone])
    return Tag(item.meaning, look.word, B[look.tone])


def badges_from(statuses: StatusSheet) -> dict[str, Badge]:
    """The badges of a sheet's unit and leader keys, in declaration (drawing) order."""
    found: dict[str, Badge] = {}
    for item in statuses.badges(Scope.UNIT, Scope.LEADER):
        badge = _drawn(item)
        if badge is not None:
            found.setdefault(item.key, badge)
    return found


# The shared keys' badges: what a ruleset with no rules of its own yet shows.
DEFAULT_BADGES: Mapping[str, Badge] = badges_from(sheet(COMMON))


def statuses_of(ruleset: str) -> StatusSheet:
    """A ruleset's status declarations; the shared keys for one without rules yet."""
    rules = _rules(ruleset)
    return rules.statuses if rules is not None else sheet(COMMON)


def terrain_words_of(ruleset: str) -> Mapping[str, str]:
    """The ruleset's own words for kinds of ground (none for one without rules)."""
    rules = _rules(ruleset)
    return rules.terrain_words if rules is not None else {}


def badges_for(ruleset: str) -> Mapping[str, Badge]:
    """The badges a ruleset's units and leaders show, in its declaration order."""
    rules = _rules(ruleset)
    return DEFAULT_BADGES if rules is None else badges_from(rules.statuses)


def _rules(ruleset: str) -> Rules | None:
    """The ruleset's rules, or None for an unknown id or a placeholder entry."""
    try:
        return registry.get(ruleset).rules
    except KeyError:
        return None


def shown(status: Mapping[str, Json], badges: Mapping[str, Badge]) -> list[tuple[Badge, Json]]:
    """The badges a status mapping needs, in registry order; a badge saying what one before
    it says already (a ``disordered`` flag beside a ``cohesion`` of disordered, a formation
    and an array both ``column``) is left out, so no word shows twice on a label."""
    row: list[tuple[Badge, Json]] = []
    said: set[str] = set()
    for key, badge in badges.items():
        words = badge.text(status[key]) if key in status else None
        if words is not None and words not in said:
            said.add(words)
            row.append((badge, status[key]))
    return row


def row_width(items: list[tuple[Badge, Json]]) -> float:
    """Width in pixels of a row of badges."""
    return sum(badge.width(value) for badge, value in items) + GAP * max(len(items) - 1, 0)


def row_marks(left: float, top: float, items: list[tuple[Badge, Json]]) -> tuple[Drawn, ...]:
    """A row of badges from (left, top), as marks: each a coloured tag and its words (or dots)."""
    sketch = Sketch()
    for badge, value in items:
        badge.draw(sketch, left, top, value)
        left += badge.width(value) + GAP
    return tuple(sketch.marks)


Line = list[tuple[Badge, Json]]
LINE_GAP = 2  # px between the lines of a wrapped badge row


def wrapped(items: Line, most: float) -> list[Line]:
    """The badges in lines no wider than ``most`` (a badge wider alone takes a line), so a
    long row can stack beside a narrow unit instead of reaching under its neighbours."""
    lines: list[Line] = []
    for item in items:
        if lines and row_width([*lines[-1], item]) <= most:
            lines[-1].append(item)
        else:
            lines.append([item])
    return lines


def block_size(lines: list[Line]) -> tuple[float, float]:
    """Width and height in pixels of badge lines stacked one under the other."""
    widest = max((row_width(line) for line in lines), default=0.0)
    return widest, len(lines) * HEIGHT + LINE_GAP * max(len(lines) - 1, 0)


def block_marks(left: float, top: float, lines: list[Line]) -> tuple[Drawn, ...]:
    """Badge lines stacked from (left, top), as marks."""
    return tuple(
        mark
        for index, line in enumerate(lines)
        for mark in row_marks(left, top + index * (HEIGHT + LINE_GAP), line)
    )
