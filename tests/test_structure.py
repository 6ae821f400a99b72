"""Layers point one way: no import circle among our modules, and no import of our own modules
placed inside a function (an import hidden there to dodge a circle is a circle), except the
few in ``LAZY``, each with its reason. The graph is read from the source: imports at module
level, under ``TYPE_CHECKING`` and inside functions all count."""

from __future__ import annotations

from functools import cache

from tests.import_graph import FUNCTION, ROOT, Import, circles, imports_in, our_modules

# Imports of our modules that stay inside a function, (importer, imported): why each must.
LAZY: dict[tuple[str, str], str] = {
    # The command line loads only what the chosen command needs: a backup or a database check
    # must not import discord and the whole bot first.
    ("bot.__main__", "bot.access"): "python -m bot invite: only then",
    ("bot.__main__", "bot.setup_check"): "python -m bot check: only then",
    ("bot.__main__", "bot.client"): "python -m bot: the bot, only when it is run",
    ("bot.__main__", "bot.db.maintenance"): "python -m bot backup/check: only then",
    ("bot.__main__", "bot.demo"): "python -m bot demo: only then",
    ("bot.__main__", "bot.logs"): "python -m bot: logging set up only when it is run",
    ("bot.__main__", "bot.pace"): "python -m bot pace: only then",
    ("bot.__main__", "bot.ai_bench"): "python -m bot ai-bench: only then",
    ("bot.__main__", "bot.web.secret"): "python -m bot web-secret: only then",
    ("bot.health", "bot.config"): "the heartbeat probe (a container's health check) stays light",
}

# TEMPORARY, to be emptied at merge (#31): circles and hidden imports that other parts of #31
# remove in their own branches at the same time (the bot's outbox and presentation, the heroic
# age, Impetus, the benchmarks moving out). Nothing may be added here.
PENDING_CIRCLES: set[frozenset[str]] = set()
PENDING_LAZY: set[tuple[str, str]] = set()


@cache
def _imports() -> dict[str, list[Import]]:
    """Every module of ours and its imports of our modules, read once for every test here."""
    modules = our_modules()
    return {name: imports_in(name, path, modules) for name, path in modules.items()}


def _graph() -> dict[str, set[str]]:
    """Every module of ours and the modules of ours it imports, wherever the import stands."""
    return {name: {i.target for i in found} for name, found in _imports().items()}


def _hidden() -> dict[tuple[str, str], list[str]]:
    """Every import of our modules inside a function: (importer, imported) to the places."""
    modules = our_modules()
    found: dict[tuple[str, str], list[str]] = {}
    for name, imports in _imports().items():
        for hidden in (i for i in imports if i.where == FUNCTION):
            place = f"{modules[name].relative_to(ROOT)}:{hidden.line}"
            found.setdefault((name, hidden.target), []).append(place)
    return found


def test_the_graph_sees_imports_at_every_level() -> None:
    graph = _graph()
    assert "rules_core.engine" in graph["rules_core.standing_play"]  # module level
    assert "rules_core.context" in graph["rules_core.toolkit"]  # under TYPE_CHECKING
    assert ("bot.__main__", "bot.client") in _hidden()  # inside a function


def test_no_import_circle() -> None:
    found = set(circles(_graph()))
    new = [sorted(circle) for circle in found - PENDING_CIRCLES]
    assert not new, f"import circles (move the shared piece down a floor): {new}"
    gone = [sorted(circle) for circle in PENDING_CIRCLES - found]
    assert not gone, f"circles gone: take them out of PENDING_CIRCLES: {gone}"


def test_no_import_of_our_modules_inside_a_function() -> None:
    hidden = _hidden()
    allowed = set(LAZY) | PENDING_LAZY
    new = {pair: places for pair, places in hidden.items() if pair not in allowed}
    assert not new, f"imports inside functions (import at the top; a circle? move it): {new}"
    gone = sorted(allowed - set(hidden))
    assert not gone, f"no longer inside a function: take them out of LAZY/PENDING_LAZY: {gone}"
