"""Fit the pytest plugin's harness to the Home Assistant installed with it.

The newest pytest plugin is built for an older release than the newest Home Assistant,
which the release leg installs over it. Two things differ from 2026.11 on:
- importing ``homeassistant`` makes ``httpx`` an alias of ``httpx2`` and refuses to once
  ``httpx`` is imported, which ``openai`` and a test plugin (respx) do: HA goes first;
- the plugin imports ``_clear_logger_overwrites`` from the logger component, which moved
  to its ``helpers`` module.
On the releases the plugin was built for, this changes nothing. Imported by the package,
so by every benchmark, and first of all test plugins (tests/ha_first.py).
"""

import homeassistant  # noqa: F401
from homeassistant.components import logger

if not hasattr(logger, "_clear_logger_overwrites"):
    from homeassistant.components.logger import helpers as logger_helpers

    logger._clear_logger_overwrites = logger_helpers._clear_logger_overwrites  # type: ignore[attr-defined]
