"""Verifiable randomness: a secret seed per battle and one keyed random stream per step.

Each step draws from ``random.Random`` seeded with HMAC-SHA256(seed, "battle:turn:step:attempt")
so anyone holding the revealed seed can recompute every roll. The seed's SHA-256 is published
when the battle starts; the seed itself is revealed when it ends.
"""

from __future__ import annotations

import hashlib
import hmac
import random
import secrets


def new_seed() -> bytes:
    """A fresh secret seed for a battle."""
    return secrets.token_bytes(32)


def commitment(seed: bytes) -> str:
    """The SHA-256 of the seed, published when the battle starts."""
    return hashlib.sha256(seed).hexdigest()


def stream_key(battle_id: str, turn: int, step: str, attempt: int) -> str:
    """The HMAC message naming one step's random stream."""
    return f"{battle_id}:{turn}:{step}:{attempt}"


def stream(seed: bytes, key: str) -> random.Random:
    """The random stream for one key: ``random.Random`` seeded by HMAC-SHA256(seed, key)."""
    digest = hmac.new(seed, key.encode(), hashlib.sha256).digest()
    return random.Random(int.from_bytes(digest, "big"))
