"""Parley: a test card game with private hands, cards played face up and a private question.

It lives in the tests and is found through ``AIDE_RULESETS`` (``tests/rules_core/test_secrets.py``'s
``parley`` fixture), like a ruleset kept outside the repository.
"""

from rules_core.rulesets.parley.rules import ParleyRules

from rules_core.registry import Ruleset
from rules_core.roster import Field, RosterSchema

SCHEMA = RosterSchema((Field("name", str, required=True),))
RULESET = Ruleset("parley", "Parley (test)", "inch", SCHEMA, rules=ParleyRules(), position=99)
