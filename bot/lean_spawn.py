"""A ``spawn`` start method whose new process does not import the parent's main module.

multiprocessing's ``spawn`` runs the parent's ``__main__`` again in each child (as
``__mp_main__``) unless it is a package's ``__main__`` (``python -m bot``). Started any other
way (the ``aide-de-camp`` script, a benchmark, a test runner's script), the engine's worker
imported the whole bot with it: Discord, the database, Pillow, the web server, 1,349 modules
and 122 MB resident where the rules alone take 520 and 48 MB. The engine's worker needs
nothing from the main module: everything it runs is named by its own module.
"""

from __future__ import annotations

import sys
import types
from multiprocessing import context, popen_spawn_posix
from multiprocessing.process import BaseProcess


class _Popen(popen_spawn_posix.Popen):
    """Starts the child with a main module that names no file and no module to import."""

    def _launch(self, process_obj: BaseProcess) -> None:
        main = sys.modules["__main__"]
        # What the child is told to import is read from sys.modules["__main__"] while the
        # process starts (spawn.get_preparation_data): a bare stand-in for that moment.
        sys.modules["__main__"] = types.ModuleType("__main__")
        try:
            super()._launch(process_obj)  # type: ignore[misc]
        finally:
            sys.modules["__main__"] = main


class _Process(context.SpawnProcess):
    """A spawned process started by ``_Popen``."""

    @staticmethod
    def _Popen(process_obj: BaseProcess) -> _Popen:
        return _Popen(process_obj)


class LeanSpawnContext(context.SpawnContext):
    """``multiprocessing.get_context("spawn")`` but for the main module."""

    Process = _Process
