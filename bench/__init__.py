"""Benchmarks of Layered Assist and the tools they share with the tests."""

from . import harness  # noqa: F401  (Home Assistant before anything that imports httpx)
