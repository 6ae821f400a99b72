"""Vanguard: a test ruleset that sets the table up itself and activates commands in turn.

The battle starts with an empty table: each side places a piece of terrain whose kind a roll on
the terrain table decides, then the sides deploy one unit at a time, alternately, by orders.
Each turn the commands activate one after another (a command that fails its activation roll
passes the initiative once: its turn comes again last), and an activated command's units move
up to twice, each move seen before the next is chosen; a unit near an edge may leave the table
and come back within 6" of where it left. It lives in the tests and is found through
``AIDE_RULESETS`` (``tests/conftest.py``'s ``vanguard`` fixture).
"""

from rules_core.rulesets.vanguard.rules import VanguardRules

from rules_core.registry import Ruleset
from rules_core.roster import Field, RosterSchema

SCHEMA = RosterSchema((Field("name", str, required=True), Field("type"), Field("command")))
# Listed (last) while loaded, so `/campaign create` offers it in the e2e tests.
RULESET = Ruleset("vanguard", "Vanguard (test)", "inch", SCHEMA, rules=VanguardRules(), position=99)
