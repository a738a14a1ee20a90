"""Runtime data of a config entry and of each of its agents."""

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from homeassistant.config_entries import ConfigEntry, ConfigSubentry

from .alarms import AlarmManager
from .chat.client import EndpointClient
from .const import CONF_PERSONAS, DEFAULT_PERSONAS
from .dialogs.hub import DialogHub
from .memos import MemoStore
from .selection.catalog import DeviceCatalog
from .state import ConversationStateStore


def parse_personas(text: str) -> dict[str, str]:
    """Read personas written one per line as ``name=instructions``."""
    personas = {}
    for line in text.splitlines():
        name, sep, prompt = line.partition("=")
        if sep and name.strip() and prompt.strip():
            personas[name.strip()] = prompt.strip()
    return personas


@dataclass(slots=True)
class AgentRuntime:
    """One agent (a conversation subentry): its own settings and dialogs."""

    subentry: ConfigSubentry
    dialogs: DialogHub
    personas: dict[str, str] = field(default_factory=dict)

    @property
    def options(self) -> Mapping[str, Any]:
        """Return the agent's settings."""
        return self.subentry.data

    @classmethod
    def from_subentry(cls, subentry: ConfigSubentry, dialogs: DialogHub) -> "AgentRuntime":
        """Read an agent's settings once, when its entry loads."""
        personas = parse_personas(str(subentry.data.get(CONF_PERSONAS, DEFAULT_PERSONAS)))
        return cls(subentry, dialogs, personas)


@dataclass(slots=True)
class LayeredAssistRuntimeData:
    """What a loaded entry holds: its endpoint's client, catalog, stores and agents."""

    # None in local-only mode: no model endpoint is configured.
    client: EndpointClient | None
    catalog: DeviceCatalog
    states: ConversationStateStore
    memos: MemoStore
    alarms: AlarmManager
    agents: dict[str, AgentRuntime] = field(default_factory=dict)


type LayeredAssistConfigEntry = ConfigEntry[LayeredAssistRuntimeData]
