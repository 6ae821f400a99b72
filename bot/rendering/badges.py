"""Status badges: a registry from a unit's status key to how the map shows its value.

Four shapes cover the rulesets' unit state: ``Pips`` for small counts (disorder points),
``Tag`` for flags (disordered, shaken), ``Count`` for numbers (casualties, losses) and
``Level`` for named levels (aggression, cohesion). A ruleset adds or overrides keys with
``register_badge(key, badge, ruleset=...)``; a key with no badge is not drawn.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Protocol

from PIL import ImageDraw

from bot.rendering import text as lettering
from bot.rendering.style import BADGE_COLOURS, RGB, WHITE
from rules_core.codec import Json

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

    def draw(self, draw: ImageDraw.ImageDraw, left: float, top: float, value: Json) -> None:
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


def _label(draw: ImageDraw.ImageDraw, left: float, top: float, text: str, colour: RGB) -> None:
    """A filled, rounded tag with white bold text."""
    right = left + _label_width(text)
    draw.rounded_rectangle((left, top, right, top + HEIGHT - 1), 4, fill=colour)
    lettering.write(draw, (left + 4, top + 1), text, WHITE, TEXT_SIZE, bold=True)


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

    def draw(self, draw: ImageDraw.ImageDraw, left: float, top: float, value: Json) -> None:
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
        return _label_width(self.word)

    def draw(self, draw: ImageDraw.ImageDraw, left: float, top: float, value: Json) -> None:
        """The tag."""
        _label(draw, left, top, self.word, self.colour)

    def example(self) -> Json:
        """Set."""
        return True


@dataclass(frozen=True)
class Count:
    """A number in a tag, such as casualties; ``form`` places the number in its words."""

    meaning: str
    form: str
    colour: RGB = B["bad"]

    def text(self, value: Json) -> str | None:
        """The number in its words, or None for zero."""
        count = _count(value)
        return self.form.format(count) if count else None

    def width(self, value: Json) -> float:
        """The tag's width."""
        return _label_width(self.text(value) or "")

    def draw(self, draw: ImageDraw.ImageDraw, left: float, top: float, value: Json) -> None:
        """The tag."""
        _label(draw, left, top, self.text(value) or "", self.colour)

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

    def draw(self, draw: ImageDraw.ImageDraw, left: float, top: float, value: Json) -> None:
        """The tag in the level's colour."""
        entry = self._entry(value)
        if entry is not None:
            _label(draw, left, top, entry[0], entry[1])

    def example(self) -> Json:
        """The first level with words."""
        return next(iter(self.words))


# The keys the rulesets keep (see RULESETS.md); shared keys mean the same in each ruleset.
DEFAULT_BADGES: dict[str, Badge] = {
    "dps": Pips("disorder points (DPs)"),
    "casualties": Count("casualties", "{} cas"),
    "losses": Count("VBU losses", "{} VBU lost"),
    "wounds": Count("wounds", "{} wd"),
    "cohesion": Level(
        "cohesion",
        {
            "disordered": ("DISORD", B["warn"]),
            "disrupted": ("DISRUPT", B["bad"]),
            "routed": ("ROUTED", B["worse"]),
        },
        frozenset({"sound"}),
    ),
    "aggression": Level(
        "aggression level",
        {
            "shaken": ("SHAKEN", B["bad"]),
            "present": ("PRESENT", B["neutral"]),
            "ready for battle": ("READY", B["good"]),
            "blood lust": ("BLOODLUST", B["worse"]),
        },
    ),
    "array": Level(
        "array",
        {
            "disarray": ("DISARRAY", B["bad"]),
            "column": ("COLUMN", B["calm"]),
            "skirmish": ("SKIRMISH", B["calm"]),
            "square": ("SQUARE", B["calm"]),
        },
        frozenset({"good array", "good"}),
    ),
    "formation": Level(
        "formation",
        {
            "column": ("COLUMN", B["calm"]),
            "square": ("SQUARE", B["calm"]),
            "testudo": ("TESTUDO", B["calm"]),
            "wedge": ("WEDGE", B["calm"]),
            "open_order": ("OPEN", B["calm"]),
            "open order": ("OPEN", B["calm"]),
            "march_column": ("MARCH", B["calm"]),
        },
        frozenset({"", "line", "formed", "close order", "good array", "good"}),
    ),
    "freshness": Level(
        "freshness",
        {"no longer fresh": ("TIRED", B["warn"]), "exhausted": ("EXHAUSTED", B["bad"])},
        frozenset({"fresh"}),
    ),
    "disordered": Tag("disordered", "DISORD"),
    "disrupted": Tag("disrupted", "DISRUPT", B["bad"]),
    "shaken": Tag("shaken", "SHAKEN", B["bad"]),
    "exhausted": Tag("exhausted", "EXHAUSTED", B["bad"]),
    "unformed": Tag("unformed", "UNFORMED", B["warn"]),
    "routed": Tag("routed", "ROUTED", B["worse"]),
    "broken": Tag("broken", "BROKEN", B["worse"]),
    "shattered": Tag("shattered", "SHATTERED", B["worse"]),
    "pursuing": Tag("pursuing", "PURSUING", B["calm"]),
    "looting": Tag("looting", "LOOTING", B["calm"]),
    "charged": Tag("charged this turn", "CHARGED", B["calm"]),
    "wounded": Tag("leader wounded", "WOUNDED", B["warn"]),
    "killed": Tag("leader killed", "KILLED", B["worse"]),
}

_BY_RULESET: dict[str, dict[str, Badge]] = {}


def register_badge(key: str, badge: Badge, ruleset: str | None = None) -> None:
    """Draw a status key with ``badge``, for every ruleset or for one ruleset only."""
    table = DEFAULT_BADGES if ruleset is None else _BY_RULESET.setdefault(ruleset, {})
    table[key] = badge


def badges_for(ruleset: str) -> dict[str, Badge]:
    """The badges a ruleset's units show, in drawing order: defaults, then its own."""
    return {**DEFAULT_BADGES, **_BY_RULESET.get(ruleset, {})}


def shown(status: Mapping[str, Json], badges: Mapping[str, Badge]) -> list[tuple[Badge, Json]]:
    """The badges a status mapping needs, in registry order."""
    return [
        (badge, status[key])
        for key, badge in badges.items()
        if key in status and badge.text(status[key]) is not None
    ]


def row_width(items: list[tuple[Badge, Json]]) -> float:
    """Width in pixels of a row of badges."""
    return sum(badge.width(value) for badge, value in items) + GAP * max(len(items) - 1, 0)


def draw_row(
    draw: ImageDraw.ImageDraw, left: float, top: float, items: list[tuple[Badge, Json]]
) -> None:
    """Draw a row of badges from (left, top)."""
    for badge, value in items:
        badge.draw(draw, left, top, value)
        left += badge.width(value) + GAP


# Hail Caesar's own status keys (casualties, shaken, disordered and charged are shared above).
HC = "hail_caesar"
register_badge("won", Tag("won the last round of hand-to-hand", "WINNING", B["good"]), HC)
register_badge("advanced", Tag("moved in the General Advance", "ADVANCED", B["calm"]), HC)
register_badge("granted_moves", Count("moves granted by the C-in-C", "{} mv", B["calm"]), HC)
register_badge(
    "rank", Level("the army commander", {"army": ("C-IN-C", B["calm"])}, frozenset({"general"})), HC
)

# The Tree of Battles' own status keys (dps, array, casualties, pursuing, looting and broken
# are shared above): what a control test makes a contingent do, and the marshal's rank.
TOB = "tree_of_battles"
register_badge(
    "control",
    Level(
        "control test result",
        {
            "halt": ("HALT", B["warn"]),
            "retire": ("RETIRE", B["bad"]),
            "advance": ("ADVANCE", B["warn"]),
            "repeat": ("REPEAT", B["warn"]),
            "charge_a": ("CHARGE A", B["worse"]),
            "charge_a_max": ("CHARGE A!", B["worse"]),
            "full_speed": ("FULL SPEED", B["warn"]),
        },
        frozenset({"free", "continue"}),
    ),
    TOB,
)
register_badge("retiring", Tag("retired this turn", "RETIRING", B["warn"]), TOB)
register_badge(
    "rank", Level("leader's rank", {"marshal": ("MARSHAL", B["calm"])}, frozenset({"captain"})), TOB
)
