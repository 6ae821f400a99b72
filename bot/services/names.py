"""Names users type and import: one tidying, used where names are stored and looked up."""

from __future__ import annotations


def tidy(name: str) -> str:
    """A name as stored: runs of whitespace made one space, the ends stripped."""
    return " ".join(name.split())


def name_key(name: str) -> str:
    """What names are compared by, on both sides of a lookup: tidied and case-folded (a name
    stored before imports tidied names, with two spaces, is still found)."""
    return tidy(name).casefold()
