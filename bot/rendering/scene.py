"""What a map shows, decided before anything is drawn: which units, where, in which colours."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from bot.rendering.fog import SideView, visible_enemies, visible_leaders
from bot.rendering.overlays import Marks, Reach, contacts, read_events
from bot.rendering.style import SIDE_COLOURS, SIDE_ORDER, SideStyle, side_style
from rules_core import registry
from rules_core.events import Event
from rules_core.plugin import band_zone
from rules_core.state import BattleState, Leader, Point, Unit

MEASURE_MARKS = {"inch": '"', "SF": " SF", "H": " H"}


@dataclass(frozen=True)
class Scene:
    """The units, ghosts, leaders and marks one map shows, and each side's colours.

    ``ghosts`` are enemies out of sight, drawn pale where last seen; ``lost`` are units gone
    from the battle in the step, not drawn but listed (their shots and combats still show).
    """

    state: BattleState
    units: tuple[Unit, ...]
    ghosts: tuple[Unit, ...]
    leaders: tuple[Leader, ...]
    marks: Marks
    styles: dict[str, SideStyle]
    side_view: SideView | None
    reach: Reach | None
    contacts: list[tuple[Unit, Unit]] = field(default_factory=list)  # enemies touching
    zones: dict[str, tuple[Point, ...]] = field(default_factory=dict)  # where each side deploys
    lost: tuple[Unit, ...] = ()

    def marked(self) -> dict[str, Unit]:
        """The units a step's marks may point at, by id: drawn, ghosts and lost."""
        return {unit.id: unit for unit in (*self.lost, *self.ghosts, *self.units)}

    def style(self, side: str) -> SideStyle:
        """The colours of a side (grey for a side the state does not list)."""
        return self.styles.get(side) or side_style((128, 128, 128))


def build_scene(
    state: BattleState,
    events: Iterable[Event],
    side_view: SideView | None,
    reach: Reach | None,
    lost: tuple[Unit, ...] = (),
) -> Scene:
    """Decide what the map shows; with a side view, hide what that side cannot see. Units
    ``lost`` in the step leave the table: kept aside for the panel and the step's marks."""
    marks = read_events(events)
    styles = side_styles(state)
    zones = deployment_zones(state)
    gone = tuple(u for u in lost if all(u.id != kept.id for kept in state.units_on_table))
    if side_view is None:
        units = state.units_on_table
        leaders = _with_their_units(state, state.leaders)
        return Scene(
            state, units, (), leaders, marks, styles, None, reach, contacts(units), zones, gone
        )
    seen = visible_enemies(state, side_view)
    units = tuple(u for u in state.units_on_table if u.side == side_view.side or u.id in seen)
    shown = {unit.id for unit in units}
    departed = {unit.id for unit in state.units if not unit.on_table}  # left it openly
    ghosts = tuple(
        unit
        for key, unit in sorted(side_view.last_known.items())
        if key not in shown and key not in departed and all(key != u.id for u in gone)
    )
    marks = Marks(
        [move for move in marks.moves if move[0] in shown],
        [pair for pair in marks.shots if set(pair) <= shown],
        [pair for pair in marks.combats if set(pair) <= shown],
        marks.laid,  # terrain is seen by everyone
        marks.lifted,
    )
    leaders = _with_their_units(state, visible_leaders(state, side_view, seen))
    if reach is not None and reach.unit not in shown:
        reach = None
    return Scene(
        state,
        units,
        ghosts,
        leaders,
        marks,
        styles,
        side_view,
        reach,
        contacts(units),
        zones,
        gone,
    )


def _with_their_units(state: BattleState, leaders: Iterable[Leader]) -> tuple[Leader, ...]:
    """The leaders to draw: not those with a unit that is off the table (they went with it)."""
    away = {unit.id for unit in state.units if not unit.on_table}
    return tuple(leader for leader in leaders if leader.attached_to not in away)


def deployment_zones(state: BattleState) -> dict[str, tuple[Point, ...]]:
    """Each side's deployment zone as its ruleset gives it (the core's default for a state
    whose ruleset is not registered, as in the rendering tests); sides with none left out."""
    ruleset = _rules(state)
    zone_of = ruleset.rules.deployment_zone if ruleset and ruleset.rules else None
    found = {}
    for side in state.sides:
        zone = zone_of(state, side.id) if zone_of else band_zone(state, side.id)
        if zone is not None:
            found[side.id] = zone
    return found


def side_styles(state: BattleState) -> dict[str, SideStyle]:
    """Each side's colours: its ``colour`` status or a colour word in its id or name, else the
    next of the colour-blind-safe set (blue, orange, ...), never two sides alike."""
    chosen: dict[str, str] = {}
    for side in state.sides:
        words = f"{side.status.get('colour', '')} {side.id} {side.name}".lower().split()
        wanted = next((w for w in words if w in SIDE_COLOURS), None)
        if wanted is not None and wanted not in chosen.values():
            chosen[side.id] = wanted
    for side in state.sides:
        if side.id not in chosen:
            chosen[side.id] = next(
                c for c in (*SIDE_ORDER, *SIDE_COLOURS) if c not in chosen.values()
            )
    return {key: side_style(SIDE_COLOURS[colour]) for key, colour in chosen.items()}


def title_words(state: BattleState, side_view: SideView | None, after: str = "") -> tuple[str, str]:
    """The title bar's two halves: battle, and the step just resolved (``after``) or the
    turn and step play stands at; ruleset and whose view."""
    name = state.status.get("name")
    battle = name if isinstance(name, str) and name else state.battle_id
    right = _ruleset_name(state)
    if side_view is not None:
        right += f" · as seen by {_side_name(state, side_view.side)}"
    if after:
        return f"{battle} · after {after}", right
    cursor = state.cursor
    step = _step_title(state)
    when = f"Setup: {step}" if cursor.segment == "setup" else f"Turn {cursor.turn}: {step}"
    player = cursor.player_side if _player_turns(state) else None
    if player is not None:
        when += f" ({_side_name(state, player)})"
    return f"{battle} · {when}", right


def _rules(state: BattleState) -> registry.Ruleset | None:
    try:
        return registry.get(state.ruleset)
    except KeyError:
        return None


def _step_title(state: BattleState) -> str:
    ruleset = _rules(state)
    try:
        if ruleset is not None and ruleset.rules is not None:
            return ruleset.rules.sequence.step(state.cursor.step).title
    except KeyError:
        pass
    return state.cursor.step.replace("_", " ").capitalize()


def _player_turns(state: BattleState) -> bool:
    ruleset = _rules(state)
    return bool(ruleset and ruleset.rules and ruleset.rules.sequence.player_turns)


def _ruleset_name(state: BattleState) -> str:
    ruleset = _rules(state)
    return ruleset.name if ruleset is not None else state.ruleset


def _side_name(state: BattleState, side: str) -> str:
    return next((s.name for s in state.sides if s.id == side), side)


def measure_mark(measure: str) -> str:
    """How a length in this measure is written: ``6"``, ``3 SF``."""
    return MEASURE_MARKS.get(measure, f" {measure}")
