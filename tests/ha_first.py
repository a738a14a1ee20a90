"""A pytest plugin loaded before the others (pyproject's addopts).

It fits the pytest plugin's harness to the Home Assistant installed with it before any
other plugin imports ``httpx`` (see bench/harness.py).
"""

import bench.harness  # noqa: F401
