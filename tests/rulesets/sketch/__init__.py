"""Sketch: a test ruleset with a roster schema and no rules yet, as a ruleset is while its
sheet is being written: campaigns and armies work, battles do not.

It lives in the tests and is found through ``AIDE_RULESETS`` (``tests/conftest.py``'s
``sketch`` fixture), like a ruleset kept outside the repository.
"""

from rules_core.registry import Ruleset
from rules_core.roster import Field, RosterSchema

SCHEMA = RosterSchema((Field("name", str, required=True), Field("type")))
# Listed while loaded, so `/campaign create` offers it (marked as having no battles yet).
RULESET = Ruleset("sketch", "Sketch (test)", "inch", SCHEMA, position=98)
