"""Muster: a test ruleset that gives orders by every actor kind, several at a time.

It lives in the tests and is found through ``AIDE_RULESETS`` (``tests/conftest.py``'s
``muster`` fixture), like a ruleset kept outside the repository.
"""

from rules_core.rulesets.muster.rules import MusterRules

from rules_core.registry import Ruleset
from rules_core.roster import Field, RosterSchema

SCHEMA = RosterSchema((Field("name", str, required=True), Field("type"), Field("wing")))
# Listed (last) while loaded, so `/campaign create` offers it in the e2e tests.
RULESET = Ruleset("muster", "Muster (test)", "inch", SCHEMA, rules=MusterRules(), position=99)
