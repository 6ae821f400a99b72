"""Every module of ours that sits in an import circle imports on its own, first thing in a
fresh interpreter (``import bot.scheduling`` alone used to fail). Only modules in a circle
can depend on what was imported before them, so only they are imported one by one (a module
whose package is on a circle through that package); the circles are found from the
module-level imports in the source."""

from __future__ import annotations

import subprocess
import sys

from tests.import_graph import ROOT, imports_of, in_circles, our_modules, with_parents

# Runs in a child interpreter: imports each named module with none of ours loaded before it
# (third-party modules stay loaded: only our own import order is under test).
ALONE = """
import importlib, sys, traceback
failed = []
for name in sys.argv[1:]:
    for loaded in [m for m in sys.modules if m.split(".")[0] in ("bot", "cogs", "rules_core")]:
        del sys.modules[loaded]
    try:
        importlib.import_module(name)
    except Exception:
        failed.append(name + ": " + traceback.format_exc().strip().splitlines()[-1])
print("\\n".join(failed))
sys.exit(1 if failed else 0)
"""


def test_the_circle_finder_finds_a_circle_and_only_it() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert in_circles(graph) == {"a", "b", "c"}


def test_every_module_in_an_import_circle_imports_on_its_own() -> None:
    modules = our_modules()
    graph = {name: imports_of(name, path, modules) for name, path in modules.items()}
    assert "bot.scheduling" in graph["bot.client"]
    circled = in_circles(graph)
    # Importing a module imports its packages first: a module whose package is on a circle
    # starts where importing that package starts, so the package stands for it.
    entries = {m for m in circled if not any(p in circled for p in with_parents(m)[:-1])}
    assert "bot.services" in entries and "bot.services.play" not in entries
    circled = sorted(entries | {"bot.scheduling"})
    done = subprocess.run(
        [sys.executable, "-c", ALONE, *circled], cwd=ROOT, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stdout + done.stderr
