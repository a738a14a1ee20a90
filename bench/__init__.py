"""Benchmarks of Layered Assist and the tools they share with the tests."""
