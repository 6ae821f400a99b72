"""The war table's tests start the real bot against the fake Discord as tests/e2e do."""

from tests.e2e.conftest import aide, clock, fixed_seed, make_aide, make_harness

__all__ = ["aide", "clock", "fixed_seed", "make_aide", "make_harness"]
