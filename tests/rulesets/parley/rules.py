"""Parley: each side holds a private hand; every turn both play a card face up, the higher
scores a point, and both draw a replacement. Before playing, each side is asked in private
whether to swap its lowest card for a fresh draw."""

from __future__ import annotations

from rules_core.rulesets.parley.status import POINTS, STATUSES, SWAPS

from rules_core.cards import Card
from rules_core.context import Context
from rules_core.decisions import Decision, Option
from rules_core.dice import Modifier
from rules_core.odds import Odds, OddsQuery, OddsTable, Refused, RollSpec, bands, rolls_of, units_of
from rules_core.orders import Illegal, Order, OrderKind, Param, Preview, Verdict
from rules_core.plugin import Parameter, Rules
from rules_core.state import BattleState, Outcome
from rules_core.status import hidden_of
from rules_core.steps import Actors, SequenceOfPlay, Step
from rules_core.tables import Band, ScoreTable

DECK = "cards"
SEQUENCE = SequenceOfPlay(
    (
        Step("deal", "The deal", Actors.NOBODY, "deal"),
        Step("play", "Play a card", Actors.BOTH, "play", None, ("play",)),
    ),
    first="play",
    setup="deal",
)
ORDER_KINDS = (OrderKind("play", "Play a card", "side", (Param("card", "text"),)),)
NERVE = ScoreTable("Nerve", (Band(None, 3, "wavers"), Band(4, None, "holds")))
SWAP_OPTIONS = (Option("keep", "Keep your lowest card"), Option("swap", "Swap it for a draw"))


def lowest(hand: tuple[str, ...]) -> str:
    """The lowest card of a hand (by value, then code)."""
    return min(hand, key=lambda code: (Card.from_code(code).value, code))


class ParleyRules(Rules):
    """Two sides, one deck without Jokers, a hand each."""

    sequence = SEQUENCE
    order_kinds = ORDER_KINDS
    parameters = (
        Parameter("hand", 3, "cards dealt to each side"),
        Parameter("max_turns", 3, "turns played"),
    )
    statuses = STATUSES

    def preview(self, state: BattleState, order: Order) -> Verdict:
        """A side may play only a card of its own hand."""
        card = order.params.get("card")
        if card not in state.deck(DECK).hand(order.actor):
            return Illegal(order, f"{card} is not in {order.actor}'s hand")
        return Preview(order, f"plays {card}")

    def default_order(self, state: BattleState, actor: str) -> Order | None:
        """A side plays its lowest card."""
        if state.cursor.step != "play" or state.owner("side", actor) is None:
            return None
        hand = state.deck(DECK).hand(actor)
        return Order(actor, "play", {"card": lowest(hand)}) if hand else None

    def resolve_deal(self, ctx: Context) -> None:
        """A new deck; each side is dealt its hand."""
        cards = ctx.cards(DECK)
        cards.create(jokers=False)
        for side in ctx.state.sides:
            cards.deal(side.id, int(ctx.number("hand")))

    def resolve_play(self, ctx: Context) -> None:
        """Private swaps, then both cards face up; the higher scores; both draw again."""
        cards = ctx.cards(DECK)
        sides = [side.id for side in ctx.state.sides]
        turn = ctx.state.cursor.turn
        questions = [
            Decision(f"swap:{side}:{turn}", "Keep or swap your lowest card?", SWAP_OPTIONS,
                     "keep", side, private=True)
            for side in sides
        ]  # fmt: skip
        for side, choice in zip(sides, ctx.ask_all(questions), strict=True):
            if choice == "swap" and cards.hand(side):
                cards.discard(side, lowest(cards.hand(side)))
                self._draw(ctx, side)
                swaps = SWAPS.of(hidden_of(ctx.state, side))
                ctx.set_hidden(side, "swapped a card", swaps=swaps + 1)
        played: dict[str, str] = {}
        for order in ctx.orders:
            hand = cards.hand(order.actor)
            if order.actor in played or not hand:
                continue
            card = str(order.params.get("card"))
            played[order.actor] = card if card in hand else lowest(hand)
            cards.play(order.actor, played[order.actor])
        values = {side: Card.from_code(card).value for side, card in played.items()}
        if len(values) == 2 and len(set(values.values())) == 2:
            winner = max(values, key=lambda side: values[side])
            points = POINTS.of(ctx.state.side(winner)) + 1
            ctx.set_side_status(winner, "won the trick", points=points)
        for card in played.values():
            cards.discard(None, card)
        for side in played:
            self._draw(ctx, side)

    def _draw(self, ctx: Context, side: str) -> None:
        cards = ctx.cards(DECK)
        if not cards.remaining:
            cards.shuffle()
        if cards.remaining:
            cards.draw(side)

    def odds(self, state: BattleState, query: OddsQuery) -> Odds | Refused | None:
        """A herald's nerve (a test for /odds): D6, +1 for each card its side swapped away,
        -1 for each the other side did; 4+ holds. The swaps are each side's secret, so the
        odds a side is shown count only the swaps its view holds."""
        found = units_of(state, query)
        if isinstance(found, Refused) or query.kind != "test":
            return found if isinstance(found, Refused) else None
        unit, _ = found
        mods = []
        for side in state.sides:
            swaps = SWAPS.of(hidden_of(state, side.id))
            if swaps:
                mine = side.id == unit.side
                why = "own swaps" if mine else f"swaps by {side.name}"
                mods.append(Modifier(swaps if mine else -swaps, why))
        spec = RollSpec(f"Nerve: {unit.name}", 1, modifiers=tuple(mods))
        table = OddsTable.of("Result", bands(spec.distribution(), NERVE))
        return Odds(f"Nerve: {unit.name}", (table,), rolls_of((spec,)))

    def army_broken(self, state: BattleState, side: str) -> bool:
        """Nobody breaks in a card game."""
        return False

    def outcome(self, state: BattleState) -> Outcome | None:
        """After ``max_turns`` the side with more points wins."""
        limit = self.parameter_values(state.parameters)["max_turns"]
        assert isinstance(limit, int)
        if state.cursor.turn <= limit:
            return None
        points = {side.id: POINTS.of(side) for side in state.sides}
        best = max(points.values())
        leaders = [side for side, score in points.items() if score == best]
        if len(leaders) == 1:
            return Outcome(leaders[0], f"{best} tricks won")
        return Outcome(None, "the tricks are shared")
