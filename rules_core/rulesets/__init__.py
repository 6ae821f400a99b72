"""The rulesets, one package each, found by the registry."""
