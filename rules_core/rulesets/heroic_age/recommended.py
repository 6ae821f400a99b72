"""The standing instructions an experienced heroic-age player would set (``/standing
recommended``): for each question topic, the choices in order of preference."""

from __future__ import annotations

from rules_core.standing import AUTO, Recommended

RECOMMENDED = (
    Recommended("initiative", ("first", "second"), "go first: strike before the enemy moves"),
    Recommended(
        "follow_up",
        ("halt", "follow_up"),
        "a tired unit (unformed, or 2+ DPs) halts rather than chase into trouble",
        "tired",
    ),
    Recommended("follow_up", ("follow_up", "halt"), "otherwise follow up a foe that fell back"),
    Recommended("god_choice", (AUTO,), "let the rules pick the unit or leader a card asks for"),
    Recommended(
        "holy",
        ("cancel", "cancel_draw", "pass"),
        "call on a holy person against a card that harms you or helps the enemy",
        "bad_for_us",
    ),
    Recommended(
        "holy", ("pass", "cancel", "cancel_draw"), "otherwise keep the holy person's favour"
    ),
    Recommended(
        "seven",
        ("use", "keep"),
        "play the Seven to re-roll dice that scored below their average",
        "below_average",
    ),
    Recommended("seven", ("keep", "use"), "otherwise keep the Seven for a worse roll"),
    Recommended("duel_card", (AUTO,), "let the rules play the cards of a personal combat"),
    Recommended(
        "challenge",
        ("accept", "refuse"),
        "accept a challenge when your leader holds at least as many cards",
        "as_good_a_hand",
    ),
    Recommended("challenge", ("refuse", "accept"), "otherwise refuse: a lost duel costs a leader"),
)
