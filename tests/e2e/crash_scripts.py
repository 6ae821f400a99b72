"""The crash-anywhere scripts of the sheet rulesets (The Tree of Battles, Hail Caesar, pike and
shot, the heroic age, Impetus): each sets a battle up from the ruleset's sample army files,
then plays its own procedure (a command action and a charge's response; a division's order
test, its re-roll and a break test; wing orders and a melee's questions; a card drawn, hands
dealt and a private question answered; the set-up steps by orders, a battle plan sealed and
command activations), and the GM ends it. Phases follow the battle as stored: the open
step's scripted orders (``Rules.demo_orders``) given through ``/order give``, each question
answered by default."""

from __future__ import annotations

from collections.abc import Callable
from importlib.abc import Traversable
from importlib.resources import files
from typing import Any

from rules_core import engine, registry
from rules_core.plugin import Rules
from rules_core.state import BattleState
from tests.e2e.crash_play import (
    CHANNEL,
    Phase,
    Script,
    Step,
    battle_state,
    click,
    end_battle,
    slash,
    upload,
)
from tests.e2e.process_harness import ProcessBot
from tests.e2e.sheet_battle import typed_options
from tests.e2e.test_hail_caesar_turn import GALLIC_DEPLOYMENT, GAULS, ROMAN_DEPLOYMENT, ROMANS
from tests.e2e.test_heroic_age_turn import DANISH_DEPLOYMENT, SAXON_DEPLOYMENT
from tests.e2e.test_pike_and_shot_turn import KINGS_DEPLOYMENT, PARLIAMENT_DEPLOYMENT
from tests.e2e.test_tree_of_battles_turn import (
    ENGLAND,
    ENGLISH_DEPLOYMENT,
    FRANCE,
    FRENCH_DEPLOYMENT,
)
from tools.fake_discord import World

PLAYERS = {"a": "alice", "b": "bob"}  # side a is Alice's, side b Bob's
# side, file, name, deployment (a list as JSON, or a YAML file's text)
Army = tuple[str, Traversable, str, list[dict[str, Any]] | str | None]


def rules_of(ruleset: str) -> Rules:
    """A ruleset's rules."""
    found = registry.get(ruleset).rules
    assert found is not None
    return found


def set_up(
    ruleset: str, battle: str, armies: tuple[Army, Army], *then: Step, **created: Any
) -> Script:
    """A campaign of the ruleset, Alice and Bob joined, each importing a sample army file,
    the battle created (``created``: more options), the steps ``then`` (terrain laid), and
    each army deployed from a file when it has a deployment; then the GM starts it."""
    users = ("alice", "bob")
    return [
        slash("gm", "campaign create", name="Crash", ruleset=ruleset),
        *[slash(u, "campaign join", side=a[0]) for u, a in zip(users, armies, strict=True)],
        *[
            upload(u, "army import", a[1].name, a[1].read_bytes())
            for u, a in zip(users, armies, strict=True)
        ],
        slash(
            "gm", "battle create", name=battle, army_a=armies[0][2], army_b=armies[1][2], **created
        ),
        *then,
        *[deploy(u, a[3]) for u, a in zip(users, armies, strict=True) if a[3] is not None],
        slash("gm", "battle start"),
    ]


def deploy(who: str, deployment: list[dict[str, Any]] | str) -> Step:
    """``/battle deploy-file`` with a JSON list, or a YAML file's text."""
    if isinstance(deployment, str):
        return upload(who, "battle deploy-file", "deployment.yaml", deployment.encode())
    return upload(who, "battle deploy-file", "deployment.json", deployment)


def both_done(moment: str = "") -> list[Step]:
    """Alice then Bob confirm (the second resolves the step)."""
    return [slash("alice", "order done", moment=moment), slash("bob", "order done", moment=moment)]


def give(who: str, kind: str, unit: str, moment: str = "", **options: Any) -> Step:
    """``/order give`` of a kind, for a unit (or wing, leader, side)."""
    return slash(who, "order give", moment=moment, kind=kind, unit=unit, **options)


Moment = Callable[[BattleState], str]  # the moment of a step's confirmation


def stages(ruleset: str, until: Callable[[BattleState], bool], moment: Moment, left: int) -> Phase:
    """Play the battle's steps as stored until ``until``: each question answered by its
    side's player with its default (a private one in their direct messages), or each waiting
    side's scripted orders given and confirmed; at most ``left`` stages."""

    async def phase(pb: ProcessBot, world: World) -> list[Step | Phase]:
        state = battle_state(pb)
        if until(state):
            return []
        assert left > 0, f"{ruleset}: still at {state.cursor} after the script's stages"
        more = stages(ruleset, until, moment, left - 1)
        if state.pending is not None:
            return [*map(answer, state.pending.open), more]
        rules = rules_of(ruleset)
        steps: list[Step | Phase] = []
        for side in engine.waiting(rules, state).sides:
            orders = rules.demo_orders(state, side)
            for order in orders:
                unit, options = typed_options(rules, state, order)
                steps.append(give(PLAYERS[side], order.kind, unit, **options))
            steps.append(slash(PLAYERS[side], "order done", moment=moment(state)))
        return [*steps, more]

    return phase


def answer(decision: Any) -> Step:
    """A question answered with its default by its side's player."""
    who = PLAYERS[decision.who]
    label = next(o.label for o in decision.options if o.id == decision.default)
    if decision.private:
        return click(who, label, "a private question answered", f"dm:{who}", decision.question)
    return click(who, label, "a question answered", CHANNEL, decision.question)


def tree_of_battles() -> Script:
    """Agincourt (as in test_tree_of_battles_turn.py): York's new orders and the command
    rounds' control tests, France's march, bombards and moves, Vendôme's charge, England's
    response (a counter-charge) and its move after combat."""
    armies = files("rules_core.rulesets.tree_of_battles").joinpath("armies")
    command = "a command action"
    return [
        *set_up(
            "tree_of_battles",
            "Agincourt",
            (
                ("England", armies / "english.json", ENGLAND, ENGLISH_DEPLOYMENT),
                ("France", armies / "french.json", FRANCE, FRENCH_DEPLOYMENT),
            ),
            slash(
                "gm",
                "battle terrain add",
                kind="wood",
                shape="rectangle",
                at="1,9",
                size="2,5",
                name="Azincourt",
            ),
        ),
        give(
            "alice",
            "new_orders",
            "Edward, Duke of York",
            command,
            option="hold the line behind the stakes",
        ),
        *both_done(command),
        *both_done(command),  # the second round: nothing more; the control tests
        give("bob", "march", "Vendôme's Horse", x=4, y=10.5),
        give("bob", "march", "The Constable's Vanguard", x=9, y=11),
        *both_done(),
        give("bob", "shoot", "Bombards", target="Camoys' Rearward"),
        slash("bob", "order done"),
        give("bob", "move", "Vendôme's Horse", x=6, y=5.5, option="extra_d6"),
        give("bob", "manoeuvre", "Brigands", option="about_face"),
        *both_done(),
        give("bob", "charge", "Vendôme's Horse", target="York's Vaward"),
        slash("bob", "order done", moment="a charge declared"),
        click("alice", "counter-charge", "a charge response answered"),
        click("alice", "pursue", "a move after combat chosen"),
        end_battle(),
    ]


def hail_caesar() -> Script:
    """Gergovia (as in test_hail_caesar_turn.py): the legate's division order failed and
    re-rolled, the horse's order test passed, the archers' shooting and the slingers' break
    test."""
    armies = files("rules_core.rulesets.hail_caesar").joinpath("armies")
    orders, test = "a division's orders", "an order test"
    return [
        *set_up(
            "hail_caesar",
            "Gergovia",
            (
                ("Rome", armies / "romans.yaml", ROMANS, ROMAN_DEPLOYMENT),
                ("Gaul", armies / "gauls.yaml", GAULS, GALLIC_DEPLOYMENT),
            ),
        ),
        *both_done(),
        slash("alice", "order done"),  # no General Advance
        give("alice", "move", "First Cohort", orders, x=5, y=12),
        give("alice", "move", "Second Cohort", orders, x=12, y=12),
        give("alice", "command", "Legate Quintus", orders, option="division"),
        slash("alice", "order done", moment=test),
        click("alice", "re-roll the order dice", "a re-roll answered"),
        give("alice", "move", "Gallic Horse", x=33, y=14),
        slash("alice", "order done", moment=test),
        give("alice", "shoot", "Cretan Archers", target="Slingers"),
        slash("alice", "order done", moment="shooting and a break test"),
        end_battle(),
    ]


def pike_and_shot() -> Script:
    """Edgehill: wing orders, the horse's move into contact, the melee's questions, a
    commander's move."""
    armies = files("rules_core.rulesets.pike_and_shot").joinpath("armies")
    return [
        *set_up(
            "pike_and_shot",
            "Edgehill",
            (
                ("King", armies / "royalists.json", "The King's Army", KINGS_DEPLOYMENT),
                (
                    "Parliament",
                    armies / "parliament.json",
                    "The Army of Parliament",
                    PARLIAMENT_DEPLOYMENT,
                ),
            ),
        ),
        slash("gm", "gm move", unit="Holles's Redcoats", at="8,20", reason="forlorn hope"),
        *both_done(),
        give("alice", "wing_order", "Royal foot", "a wing order", option="hold"),
        give("bob", "wing_order", "Parliament foot", "a wing order", option="attack"),
        *both_done("the wing orders' resolution"),
        give("alice", "move", "Wilmot's Horse", path="8,22"),
        *both_done("a move into melee (and its resolution)"),
        stages("pike_and_shot", lambda s: s.pending is None, lambda s: "", 4),
        give(
            "bob",
            "command_move",
            "Sir John Meldrum",
            "a commander's move",
            x=34,
            y=43,
            target="Essex's Foot",
        ),
        *both_done(),
        end_battle(),
    ]


def heroic_age() -> Script:
    """Ethandun: the initiative answered (the god pack's card drawn), a challenge accepted
    (the leaders' hands dealt), the private questions of the personal combat answered."""
    armies = files("rules_core.rulesets.heroic_age").joinpath("armies")
    return [
        *set_up(
            "heroic_age",
            "Ethandun",
            (
                ("Wessex", armies / "saxons.json", "The Saxon fyrd of Wessex", SAXON_DEPLOYMENT),
                ("Danes", armies / "danes.json", "The Great Heathen Army", DANISH_DEPLOYMENT),
            ),
        ),
        *both_done(),
        click("bob", "go second", "a card drawn (the god pack)"),
        give("bob", "challenge", "Guthrum", leader="King Alfred"),
        *both_done(),
        click("alice", "accept the challenge (3 LP)", "hands dealt (cards drawn)"),
        stages("heroic_age", discards_made, lambda s: "", 8),
        end_battle(),
    ]


def discards_made(state: BattleState) -> bool:
    """The personal combat's private questions of discards are answered: it asks which card
    to play (a strike or a parry), or asks nothing."""
    pending = state.pending
    return pending is None or any(
        "(strike" in o.label or "(parry" in o.label for d in pending.open for o in d.options
    )


def impetus_moment(state: BattleState) -> str:
    """What an Impetus confirmation does: seal the battle plans, end a set-up step, or pass
    a step of a command's activation (its orders carried out, the activation moving on)."""
    if state.cursor.step == "battle_plan":
        return "a plan sealed"
    if state.cursor.segment == "setup":
        return "a set-up step by orders"
    return "an activation passed"


def activations_played(state: BattleState) -> bool:
    """In the first turn, two commands are marked activated and no question is open (the
    first activation has played its steps; the next initiative is settled)."""
    activated = sum(1 for g in state.groups if g.status.get("activated"))
    return state.cursor.turn >= 1 and activated >= 2 and state.pending is None


def impetus() -> Script:
    """Gergovia: the pre-battle procedure by orders (terrain, baggage, the plans sealed,
    the deployment), then command activations until two commands have activated."""
    armies = files("rules_core.rulesets.impetus").joinpath("armies")
    return [
        *set_up(
            "impetus",
            "Gergovia",
            (
                ("Rome", armies / "romans.json", "Caesar's Legions", None),
                ("Gaul", armies / "gauls.json", "The Arverni and their allies", None),
            ),
            scale=40,
        ),
        stages("impetus", activations_played, impetus_moment, 80),
        end_battle(),
    ]


SCRIPTS = {
    "tree_of_battles": tree_of_battles,
    "hail_caesar": hail_caesar,
    "pike_and_shot": pike_and_shot,
    "heroic_age": heroic_age,
    "impetus": impetus,
}
