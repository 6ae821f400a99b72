"""Pure rules: dice, geometry, sequence of play. No Discord, database or imaging imports."""
