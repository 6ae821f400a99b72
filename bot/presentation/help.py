"""/help that teaches: the game loop, a tour of the features, one command, one topic. Every
command written here is checked against the command tree by a test, so none can go stale."""

from __future__ import annotations

import difflib

from bot.errors import NotFound
from bot.presentation.command_docs import CommandDoc, Docs, OptionDoc
from rules_core.registry import Ruleset

LIMIT = 1990
BY_ORDERS = (
    "then `/battle start`: in {name} the sides place terrain and units **by orders** in its "
    "set-up steps (`/order give kind:place unit:<unit> x:<x> y:<y>`), not by a deploy command"
)
BY_HAND = (
    "the GM lays terrain (`/battle terrain add`, or `/battle terrain roll`), players "
    "`/battle deploy unit:<unit> at:<x,y>` in their zones, then the GM runs `/battle start`"
)
LOOP = """\
**How a battle by post runs**
1. A GM creates the campaign (`/campaign create`); players `/campaign join side:<side>`.
2. Each player brings an army: `/army sample`, or `/army template` filled in and sent with \
`/army import`.
3. The GM sets up the battle (`/battle create`); {set_up}.
4. The bot posts each step: what happens, who must act, the deadline. Give orders with \
`/order give kind:<kind> unit:<unit>` (each answered privately with what it will do), or plan \
ahead for later steps; then `/order done`.
5. When everyone is done, or at the deadline, the step resolves: dice, results and the map \
are posted. Questions come as buttons (or `/answer`).
6. `/battle status`, `/battle map` and `/battle log` show where things stand. A step waits \
48 hours at most unless a GM changes it (`/campaign deadlines`)."""
TOUR = """\
**What else you can do** (`/help topic:<topic>` explains each; `/help command:<name>` shows \
a command's options)
• Orders: `/order give kind:<kind> unit:<unit>`; `/orders mine` lists yours and your plan; \
`/order withdraw unit:<unit>` takes one back.
• Planning ahead: `/order give step:<later step>` plans an order; `/order alternative` says \
what to try if it cannot be done; `/order done turn:true` hands in the whole turn.
• Standing instructions: `/standing recommended` accepts what an experienced player sets; \
`/standing set topic:<topic> choice:<answer>` answers a kind of question in advance.
• Odds: `/odds order number:1` for one of your orders; `/odds charge`, `/odds shoot`, \
`/odds melee`, `/odds test` for what-ifs.
• Replays and reports: `/battle replay`, `/battle report` once it ended, `/battle log turn:<n>`.
• The campaign map: `/campaign map show`, `/campaign map move army:<army> to:<region>`.
• Who sees what: your orders and plans are private until their step resolves; \
`/battle map fog:true` shows only what your side sees; `/orders all` shows every side's \
orders once resolved."""
DEFAULT_SET_UP = f"{BY_HAND} (where the rules set up by orders, such as Impetus, units are "
DEFAULT_SET_UP += "placed by orders after `/battle start` instead)"

TOPIC_TITLES = {
    "orders": "Orders",
    "planning": "Planning ahead",
    "standing": "Standing instructions",
    "odds": "Odds",
    "replays": "Replays and reports",
    "campaign_map": "The campaign map",
    "secrets": "Who sees what",
}
TOPICS = {
    "orders": """\
Each step takes some kinds of order (`/help` lists them for this campaign). \
`/order give kind:<kind> unit:<unit>` gives one; the kinds of the open step and your units \
are offered as you type, and the reply says what the order will do. Shortcuts such as \
`/order move unit:<unit> x:<x> y:<y>` and `/order charge unit:<unit> target:<enemy>` do the \
same. `/orders mine` lists yours, `/order withdraw unit:<unit>` takes one back, and \
`/order done` tells the bot you are finished: when every side is done the step resolves \
without waiting for the deadline.""",
    "planning": """\
You need not wait for each step: `/order give kind:<kind> unit:<unit> step:<later step>` \
plans an order for a later step of this turn (the steps are offered as you type). When its \
step comes the order is given for you. `/order alternative step:<step> kind:<kind> \
unit:<unit>` adds what to try if the planned order cannot be carried out then. \
`/order done turn:true` says your orders for the whole turn are in, so no step waits for you. \
`/orders mine` shows your plan; `/order withdraw unit:<unit> step:<step>` takes a planned \
order back.""",
    "standing": """\
Some questions come again and again (whether to pursue, to evade …). A standing \
instruction answers them for your side, or one unit, at once, so no step waits for you. \
`/standing recommended` shows what an experienced player sets, with a button to accept \
them all. `/standing set topic:<topic> choice:<answer>` sets one (add `unit:<unit>` for one \
unit, `condition:<when>` to answer only then); `/standing list` shows yours; \
`/standing clear topic:<topic>` takes them back.""",
    "odds": """\
`/odds` works out the exact chances, privately, with a table and a chart; it never changes \
the battle. `/odds order number:1` gives the chances of your first order in `/orders mine`. \
What-ifs: `/odds charge unit:<unit> target:<enemy>`, `/odds shoot unit:<unit> \
target:<enemy>`, `/odds melee unit:<unit> target:<enemy>` and `/odds test unit:<unit>` \
(`option:` picks the test where the rules have several; they are offered as you type).""",
    "replays": """\
`/battle replay` posts an animated replay of the battle so far; `/battle log turn:<n>` the \
full log of one turn; `/battle report` the after-action report once the battle has ended; \
`/battle record` the battle record as a file anyone can verify.""",
    "campaign_map": """\
A campaign can be played on a map of regions. A GM imports it with \
`/campaign map import file:<map file>`; `/campaign map show` draws it with your sealed \
moves; `/campaign map move army:<army> to:<region>` marches one of your armies to an \
adjacent region (sealed until the turn resolves); the GM resolves the turn with \
`/campaign map turn`, and armies meeting in a region fight a battle.""",
    "secrets": """\
Your orders, plans and standing instructions are private: only you (and the GMs) see them \
until their step resolves; then `/orders all` shows every side's. Replies to commands are \
private too. `/battle map fog:true` shows the table as your side sees it (hidden units \
stay hidden). In a closed campaign (`/campaign visibility`) only its members see anything; \
`/campaign watch` follows an open one, and `/campaign dm on:true` sends your calls to arms \
by direct message.""",
}
# A worked example for the commands a new player meets first; the rest are built from the
# command's required options.
EXAMPLES = {
    "order give": "`/order give kind:move unit:Blue Riders x:12 y:20`",
    "battle table": "`/battle table` (and `/battle table revoke:true` if your link leaked)",
    "order alternative": "`/order alternative step:shoot kind:hold unit:Blue Riders`",
    "order done": "`/order done turn:true`",
    "standing set": "`/standing set topic:pursuit choice:never unit:Blue Riders`",
    "odds test": "`/odds test unit:Blue Riders`",
    "odds order": "`/odds order number:1`",
    "battle deploy": "`/battle deploy unit:Blue Riders at:10,4 facing:90`",
    "battle log": "`/battle log turn:1`",
    "campaign create": "`/campaign create name:Agincourt ruleset:skirmish`",
    "campaign join": "`/campaign join side:England`",
    "campaign map move": "`/campaign map move army:First Legion to:Gergovia`",
    "help": "`/help topic:planning`",
    "roll": "`/roll expression:2d6+1 label:morale`",
}


def set_up_line(ruleset: Ruleset | None) -> str:
    """How a battle of this ruleset is readied: by the GM and deploys, or by orders."""
    if ruleset is None:
        return DEFAULT_SET_UP
    if ruleset.rules is not None and ruleset.rules.setup_in_rules:
        return BY_ORDERS.format(name=ruleset.name)
    return BY_HAND


def loop_text(ruleset: Ruleset | None) -> str:
    """The game loop, with set-up as this ruleset does it."""
    return LOOP.format(set_up=set_up_line(ruleset))


def topic_text(topic: str, ruleset: Ruleset | None) -> str:
    """One /help topic; in a campaign whose rules set up by orders, how deploying goes."""
    if topic not in TOPICS:
        known = ", ".join(f"`{t}`" for t in TOPICS)
        raise NotFound(f"There is no help topic `{topic}`; the topics: {known}.")
    text = f"**{TOPIC_TITLES[topic]}**\n{TOPICS[topic]}"
    if topic == "orders" and ruleset is not None:
        text += f"\nIn this campaign ({ruleset.name}): {set_up_line(ruleset)}."
    return text


def command_text(docs: Docs, name: str) -> str:
    """One command: what it does, each option (required or not, its choices) and an example;
    an unknown name is refused with the nearest ones."""
    doc = docs.get(" ".join(name.strip().lstrip("/").casefold().split()))
    if doc is None:
        near = difflib.get_close_matches(name.strip().lstrip("/"), list(docs), n=3, cutoff=0.5)
        hint = f" Did you mean {', '.join(f'`/{n}`' for n in near)}?" if near else ""
        raise NotFound(f"There is no command `/{name}`.{hint} `/help` lists them by feature.")
    lines = [f"**/{doc.path}**: {doc.description}"]
    for option in doc.options:
        lines.append(_option_line(option))
    lines.append(f"Example: {EXAMPLES.get(doc.path) or example_of(doc)}")
    return "\n".join(lines)[:LIMIT]


def _option_line(option: OptionDoc) -> str:
    """An option as /help command: lists it."""
    need = "required" if option.required else "optional"
    line = f"• `{option.name}` ({need}): {option.description}"
    if option.choices:
        line += f"; one of {', '.join(f'`{c}`' for c in option.choices)}"
    elif option.offered:
        line += " (offered as you type)"
    return line


def example_of(doc: CommandDoc) -> str:
    """An example built from the command's required options: a choice's first value, else
    what to put there in angle brackets."""
    parts = [f"/{doc.path}"]
    for option in (o for o in doc.options if o.required):
        parts.append(f"{option.name}:{option.choices[0] if option.choices else f'<{option.name}>'}")
    return f"`{' '.join(parts)}`"


def pack(parts: list[str]) -> list[str]:
    """Paragraphs joined into as few messages as Discord takes (each at most ``LIMIT``)."""
    messages: list[str] = []
    for part in parts:
        if messages and len(messages[-1]) + 2 + len(part) <= LIMIT:
            messages[-1] += f"\n\n{part}"
        else:
            messages.append(part[:LIMIT])
    return messages
