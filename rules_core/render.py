"""The text renderer: events in, the plain lines players read out."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from functools import singledispatch

from rules_core import events as ev
from rules_core import registry
from rules_core.cards import CONCEALED, Card
from rules_core.codec import Json
from rules_core.decisions import GM
from rules_core.secrets import Viewer
from rules_core.standing import STANDING_REASON
from rules_core.state import OFF_TABLE, RESERVE, BattleState, Unit
from rules_core.status import Count, Declared, Flag, Note, StatusSheet, Text
from rules_core.toolkit import g


class Renderer:
    """Turns events into lines, naming units, leaders and sides and writing the measure.

    A ``Private`` event is written in its public form (or not at all) unless ``viewer`` is
    given and in its audience: without a viewer nothing private is ever shown.
    """

    def __init__(
        self,
        names: Mapping[str, str],
        measure: str = '"',
        statuses: StatusSheet | None = None,
        viewer: Viewer | None = None,
    ) -> None:
        self.names = dict(names)
        self.measure = measure
        self.statuses = statuses
        self.viewer = viewer

    @classmethod
    def for_state(
        cls, state: BattleState, *earlier: BattleState, viewer: Viewer | None = None
    ) -> Renderer:
        """A renderer that knows every name in a state (and in earlier states, for units that
        have since left the table), writing its battlefield's measure, for a viewer (None:
        the public)."""
        names: dict[str, str] = {}
        for known in (*earlier, state):
            names.update({side.id: side.name for side in known.sides})
            names.update({group.id: group.name for group in known.groups})
            names.update({leader.id: leader.name for leader in known.leaders})
            names.update({unit.id: unit.name for unit in known.units})
        measure = {"inch": '"', "SF": " SF", "H": " H"}.get(state.battlefield.measure, "")
        return cls(names, measure, _statuses_of(state.ruleset), viewer)

    def declaration(self, key: str) -> Declared | None:
        """The ruleset's declaration of a status key (any scope), if it declares it."""
        if self.statuses is None:
            return None
        return next((item for item in self.statuses if item.key == key), None)

    def name(self, key: str | None) -> str:
        """The display name of an id (the id itself if unknown)."""
        return "" if key is None else self.names.get(key, key)

    def length(self, value: float) -> str:
        """A distance with the measure, to one decimal place without a trailing .0."""
        return f"{value:.1f}".removesuffix(".0") + self.measure

    def lines(self, events: Iterable[ev.Event]) -> list[str]:
        """One line per event a player needs to read (bookkeeping changes are left out)."""
        return [line for line in map(self.line, events) if line]

    def line(self, event: ev.Event) -> str:
        """The line for one event; "" for a change of the rules' own bookkeeping."""
        return _line(event, self)


def _statuses_of(ruleset_id: str) -> StatusSheet | None:
    """The status declarations of a registered ruleset; None for an unknown one."""
    try:
        rules = registry.get(ruleset_id).rules
    except KeyError:
        return None
    return None if rules is None else rules.statuses


@singledispatch
def _line(event: ev.Event, r: Renderer) -> str:
    raise TypeError(f"no renderer for {type(event).__name__}")


@_line.register
def _step(e: ev.StepBegan, r: Renderer) -> str:
    who = f" ({r.name(e.subject or e.side)})" if (e.subject or e.side) else ""
    again = f" #{e.again + 1}" if e.again else ""  # the step opened again: "Move #2"
    return f"— Turn {e.turn}: {e.title}{again}{who} —"


@_line.register
def _rolled(e: ev.DiceRolled, r: Renderer) -> str:
    return e.roll.describe()


@_line.register
def _moved(e: ev.UnitMoved, r: Renderer) -> str:
    end = e.path[-1]
    notes = "".join(f"; {note}" for note in e.notes)
    where = f"({g(end[0])}, {g(end[1])})"
    facing = f"{round(e.facing) % 360}°"
    return f"{r.name(e.unit)} moves {r.length(e.distance)} to {where} facing {facing}{notes}"


@_line.register
def _test(e: ev.TestResolved, r: Renderer) -> str:
    if not e.verdict:  # a table looked up: the row is the result, nothing passed or failed
        return f"{e.test} for {r.name(e.subject)}: {e.score} → {e.row}"
    verdict = "passed" if e.passed else "failed"
    return f"{e.test} for {r.name(e.subject)}: {e.score}, {verdict} ({e.row})"


def _result(e: ev.TestResolved, r: Renderer) -> str:
    return _test(e, r) if e.test else ""  # no line of its own: its events say what happened


for _typed in (ev.ShotResolved, ev.MeleeResolved, ev.ReactionResolved):
    _line.register(_typed)(_result)


@_line.register
def _status(e: ev.StatusChanged, r: Renderer) -> str:
    item = r.declaration(e.field)
    who = r.name(e.subject)
    if item is None:
        return _undeclared(e, r)
    if not _shown(item, e) or (isinstance(item, Text) and str(e.new) in r.names):
        return ""
    why = _why(e.reason, e.field, item.meaning)
    if isinstance(item, Flag):
        return f"{who}: {'' if e.new else 'no longer '}{item.meaning}{why}"
    old = item.default if e.old is None and isinstance(item, Count) else e.old
    if old is None or isinstance(item, Text):
        return f"{who}: {item.meaning}: {_value(e.new)}{why}"
    return f"{who}: {item.meaning} {_value(old)} → {_value(e.new)}{why}"


def _undeclared(e: ev.StatusChanged, r: Renderer) -> str:
    """A change of a field no declaration words (a leader joining a unit, a group broken)."""
    who, words = r.name(e.subject), e.field.replace("_", " ")
    why = _why(e.reason, e.field, words)
    if isinstance(e.new, bool) or (e.new is None and isinstance(e.old, bool)):
        if bool(e.old) == bool(e.new):
            return ""
        return f"{who}: {'' if e.new else 'no longer '}{words}{why}"
    if isinstance(e.new, int | float) and isinstance(e.old, int | float):
        return f"{who}: {words} {e.old:g} → {e.new:g}{why}"
    if e.new is None and isinstance(e.old, str):
        return f"{who}: no longer {words} {r.name(e.old)}{why}"
    value = r.name(e.new) if isinstance(e.new, str) else _value(e.new)
    return f"{who}: {words} {_value(value)}{why}"


def _shown(item: Declared, e: ev.StatusChanged) -> bool:
    """Whether players read this change: not the rules' bookkeeping (notes, tallies, unbadged
    flags, cleared text) nor the clearing of a passing mark (charged, advanced, winning)."""
    if isinstance(item, Note) or (isinstance(item, Count) and item.private):
        return False
    if isinstance(item, Text):
        return isinstance(e.new, str) and bool(e.new)
    if isinstance(item, Flag):
        if item.badge is None or bool(e.old) == bool(e.new):
            return False
        return bool(e.new) or item.badge.tone in ("warn", "bad", "worse")
    return True


def _why(reason: str, *said: str) -> str:
    """The reason in brackets, unless it only repeats the key or its meaning."""
    plain = reason.strip().casefold()
    if not plain or any(plain == words.casefold() for words in said):
        return ""
    if any(plain in words.casefold() for words in said[1:]):
        return ""
    return f" ({reason})"


def _value(value: Json) -> str:
    """A status value in words: ``charge_a_max`` as "charge a max", None as "none"."""
    if isinstance(value, str):
        return value.replace("_", " ")
    return "none" if value is None else str(value)


@_line.register
def _leader_moved(e: ev.LeaderMoved, r: Renderer) -> str:
    end = e.path[-1]
    notes = "".join(f"; {note}" for note in e.notes)
    return f"{r.name(e.leader)} moves {r.length(e.distance)} to ({g(end[0])}, {g(end[1])}){notes}"


@_line.register
def _arrived_or_left(e: ev.ArrivedOrLeft, r: Renderer) -> str:
    verb = "joins the battle" if e.arrived else "leaves the battle"
    return f"{r.name(e.subject)} {verb}: {e.reason}"


@_line.register
def _placed(e: ev.UnitPlaced, r: Renderer) -> str:
    verb = "comes back onto the table" if isinstance(e, ev.UnitReturned) else "is deployed"
    return f"{r.name(e.unit)} {verb} at ({g(e.at[0])}, {g(e.at[1])}): {e.reason}"


def _terrain_name(name: str, kind: str) -> str:
    """A terrain feature to begin a sentence: its name, or its kind in words."""
    return _cap(name or kind.replace("_", " "))


@_line.register
def _terrain_added(e: ev.TerrainAdded, r: Renderer) -> str:
    what = _terrain_name(e.feature.name, e.feature.kind)
    kind = e.feature.kind.replace("_", " ")
    named = f"{what} ({kind})" if e.feature.name and e.feature.name != kind else what
    return f"{named} is placed on the table: {e.reason}"


@_line.register
def _private(e: ev.Private, r: Renderer) -> str:
    if r.viewer is not None and r.viewer.may_see(e.audience):
        return r.line(e.event)
    return "" if e.public is None else r.line(e.public)


@_line.register
def _drawn(e: ev.CardDrawn, r: Renderer) -> str:
    if e.draw.owner is None:
        return f"{_card(e.draw.card)} is turned face up"
    what = _card(e.draw.card) if e.draw.card else "a card"
    return f"{r.name(e.draw.owner)} draws {what}"


_CARD_VERBS = {"play": "plays", "discard": "discards", "retain": "keeps back"}


@_line.register
def _card_moved(e: ev.CardMoved, r: Renderer) -> str:
    if e.what == "shuffle":
        return f"The {e.deck} deck is shuffled"
    what = _card(e.card) if e.card and e.card != CONCEALED else "a card"
    who = r.name(e.owner) if e.owner else "The table"
    return f"{who} {_CARD_VERBS.get(e.what, e.what)} {what}"


def _card(code: str) -> str:
    """A card's code as players read it (7♠), or the code itself if it is not a card."""
    try:
        return str(Card.from_code(code))
    except ValueError:
        return code


def _who(side: str, r: Renderer) -> str:
    return "the GM" if side == GM else r.name(side)


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


@_line.register
def _asked(e: ev.DecisionRequested, r: Renderer) -> str:
    if e.decision.private and e.decision.default == CONCEALED:
        return f"{_cap(_who(e.decision.who, r))} has a private question to answer"
    options = ", ".join(option.label for option in e.decision.options)
    who = "the GM" if e.decision.who == GM else r.name(e.decision.who)
    return f"{who} must decide: {e.decision.question} [{options}; default {e.decision.default}]"


@_line.register
def _answered(e: ev.DecisionAnswered, r: Renderer) -> str:
    who = _who(e.by, r)
    if e.choice == CONCEALED:
        return f"{_cap(who)} answered"
    standing = f", {e.reason}" if e.reason.startswith(STANDING_REASON) else ""
    return f"{who} chose {_value(e.choice)}{standing}"


@_line.register
def _order(e: ev.SideOrderSet, r: Renderer) -> str:
    return f"Order of play: {', '.join(r.name(side) for side in e.order)} ({e.reason})"


@_line.register
def _subjects_changed(e: ev.SubjectsChanged, r: Renderer) -> str:
    shown = ", ".join(r.name(subject) for subject in e.upcoming) or "none"
    return f"Still to come: {shown} ({e.reason})"


@_line.register
def _shortened(e: ev.OrderShortened, r: Renderer) -> str:
    stops = f"at ({g(e.at[0])}, {g(e.at[1])})" if e.at else f"after {r.length(e.distance or 0)}"
    return f"{r.name(e.actor)}: {e.order_kind} as far as possible, it stops {stops}: {e.reason}"


@_line.register
def _shot(e: ev.ShotFired, r: Renderer) -> str:
    at = "" if e.distance is None else f", {r.length(e.distance)} away"
    return f"{r.name(e.shooter)} shoots at {r.name(e.target)}{at}"


@_line.register
def _ended(e: ev.BattleEnded, r: Renderer) -> str:
    if e.winner is None:
        return f"The battle ends in a draw: {e.reason}."
    return f"{r.name(e.winner)} wins the battle: {e.reason}."


# Events said in one sentence: a field that holds an id is written as its name, ``at`` as
# "(x, y)", and ``terrain`` is a terrain piece's name or kind.
SENTENCES: dict[type[ev.Event], str] = {
    ev.OrderRejected: "{actor}: {order_kind} refused, {reason}",
    ev.PlanFellBack: (
        "{actor}: planned {order_kind} could not be carried out, {reason}; default used"
    ),
    ev.PlanAlternativeUsed: (
        "{actor}: planned {order_kind} could not be carried out, {reason}; alternative "
        "{number} ({used_kind}) used"
    ),
    ev.PlanQueried: "{side}: a planned order cannot be carried out; asked for new orders",
    ev.UnitDestroyed: "{unit} is destroyed: {reason}",
    ev.UnitLeftTable: "{unit} leaves the table near {at}: {reason}",
    ev.TerrainMoved: "{terrain} is moved: {reason}",
    ev.TerrainRemoved: "{terrain} is removed from the table: {reason}",
    ev.LeaderHit: "{leader} is hit: {result} ({reason})",
    ev.MeleeFought: "{attacker} and {defender} fight hand to hand",
}
NAMED = frozenset({"actor", "side", "unit", "leader", "attacker", "defender"})


def _sentence(event: ev.Event, r: Renderer) -> str:
    """The event's sentence from ``SENTENCES``, its fields filled in."""
    words: dict[str, object] = {}
    for item in dataclasses.fields(event):
        value = getattr(event, item.name)
        if item.name in NAMED:
            value = r.name(value)
        elif item.name == "at":
            value = f"({g(value[0])}, {g(value[1])})"
        words[item.name] = value
    if isinstance(event, ev.TerrainMoved | ev.TerrainRemoved):
        words["terrain"] = _terrain_name(event.name, event.terrain_kind)
    template = next(SENTENCES[kind] for kind in type(event).__mro__ if kind in SENTENCES)
    return template.format(**words)


for _said in SENTENCES:
    _line.register(_said)(_sentence)


def absent_units(state: BattleState, side_id: str, *, reserve: bool = True) -> list[str]:
    """A side's units not on the table, in words for the status card:
    "Off the table: 3rd Horse (left turn 2 near (12, 0))", "In reserve: Archers, Slingers"
    (left out without ``reserve``); nothing when every unit of the side is on the table."""
    return [f"{head}: {', '.join(names)}" for head, names in absent_lists(state, side_id, reserve)]


def absent_lists(
    state: BattleState, side_id: str, reserve: bool = True
) -> list[tuple[str, list[str]]]:
    """A side's units not on the table under their heading, for the map's panel:
    ("Off the table", ["3rd Horse (left turn 2 near (12, 0))"]), ("In reserve", [...])."""
    off = [
        _off_words(unit.name, unit.left_turn, unit.left_at)
        for unit in state.units_at(OFF_TABLE)
        if unit.side == side_id
    ]
    held = [u.name for u in state.units_at(RESERVE) if u.side == side_id] if reserve else []
    return [
        (head, names) for head, names in (("Off the table", off), ("In reserve", held)) if names
    ]


@dataclasses.dataclass(frozen=True)
class Gone:
    """A unit gone from the table, for the map's panel: its side, heading and line."""

    side: str
    heading: str  # "Lost", or "Off the table" if it left unbeaten
    line: str  # "Legio X: destroyed, broken in melee (Turn 2 · Charges and melee)"


def gone_words(unit: Unit, events: Iterable[ev.Event], when: str) -> tuple[str, str]:
    """A unit gone from the battle in a step, for the map's panel: its heading ("Lost", or
    "Off the table" if it left unbeaten) and a line saying why and ``when``."""
    heading, why = gone_reasons(events).get(unit.id, ("Lost", "gone"))
    return heading, f"{unit.name}: {why} ({when})"


UnitNames = Sequence[Sequence[str]]  # a state's units: (id, side, name) each, in its order


def unit_names(state: BattleState) -> list[list[str]]:
    """The state's units, (id, side, name) each: all ``gone_through`` reads of a state."""
    return [[unit.id, unit.side, unit.name] for unit in state.units]


def gone_each(
    steps: Iterable[tuple[BattleState, BattleState, Iterable[ev.Event], str]],
) -> list[tuple[Gone, ...]]:
    """After each step (the state before and after it, its events, its title), every unit the
    battle has lost so far with when and why (``gone_through``)."""
    return gone_through(
        (unit_names(before), unit_names(after), gone_reasons(events), title)
        for before, after, events, title in steps
    )


def gone_through(
    steps: Iterable[tuple[UnitNames, UnitNames, Mapping[str, Sequence[str]], str]],
) -> list[tuple[Gone, ...]]:
    """After each step (the units before and after it, the ``gone_reasons`` of its events, its
    title), every unit the battle has lost so far with when and why. The reason and the step
    that reported it carry over: a step stopped at a question reports a destruction on its
    paused part, and the unit leaves the table when the step resumes. A unit back on the
    table (an undone step) is no longer listed."""
    reasons: dict[str, tuple[str, str, str]] = {}
    gone: dict[str, Gone] = {}
    after_each = []
    for before, after, said, title in steps:
        reasons |= {uid: (heading, why, title) for uid, (heading, why) in said.items()}
        kept = {unit[0] for unit in after}
        for uid, side, name in before:
            if uid not in kept:
                heading, why, when = reasons.get(uid, ("Lost", "gone", title))
                gone[uid] = Gone(side, heading, f"{name}: {why} ({when})")
        gone = {uid: lost for uid, lost in gone.items() if uid not in kept}
        after_each.append(tuple(gone.values()))
    return after_each


def gone_reasons(events: Iterable[ev.Event]) -> dict[str, tuple[str, str]]:
    """By unit id, the heading and why of each unit the events destroy or take off the table."""
    found = {}
    for event in events:
        if isinstance(event, ev.UnitDestroyed):
            found[event.unit] = ("Lost", f"destroyed, {event.reason}")
        elif isinstance(event, ev.ArrivedOrLeft) and not event.arrived:
            found[event.subject] = ("Off the table", f"left the battle, {event.reason}")
    return found


def _off_words(name: str, turn: int | None, at: tuple[float, float] | None) -> str:
    said = [] if turn is None else [f"left turn {turn}"]
    if at is not None:
        said.append(f"near ({g(at[0])}, {g(at[1])})")
    return f"{name} ({' '.join(said)})" if said else name
