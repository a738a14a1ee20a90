"""Which entry and agent a turn, tool call, service call or intent belongs to.

Settings and storage follow who is talking: our agent passes itself, services name
an agent or entry, intents carry the agent that heard them. Only when nothing says
which, and there is exactly one, is that one used; otherwise the caller gets a clear
error instead of another agent's settings.
"""

from dataclasses import dataclass

from homeassistant.core import HomeAssistant
from homeassistant.exceptions import ServiceValidationError
from homeassistant.helpers import entity_registry as er

from .const import DOMAIN
from .models import AgentRuntime, LayeredAssistConfigEntry, LayeredAssistRuntimeData


@dataclass(frozen=True, slots=True)
class OwnerHint:
    """What a caller knows of the agent or entry it belongs to."""

    # Our agent's own subentry: set by the agent itself.
    subentry_id: str | None = None
    # A conversation entity: named in a service call, or the agent an intent came through.
    agent_id: str | None = None
    # A config entry named in a service call.
    entry_id: str | None = None
    # Named by the user: an unknown name is an error, not a reason to fall back.
    explicit: bool = False


@dataclass(frozen=True, slots=True)
class Owner:
    """The entry a call belongs to and, when known, its agent."""

    entry: LayeredAssistConfigEntry
    agent: AgentRuntime | None

    @property
    def runtime(self) -> LayeredAssistRuntimeData:
        """Return the entry's runtime data."""
        return self.entry.runtime_data

    def hint(self) -> OwnerHint:
        """Return a hint that resolves to this very owner."""
        agent = self.agent.subentry.subentry_id if self.agent is not None else None
        return OwnerHint(subentry_id=agent, entry_id=self.entry.entry_id)

    @property
    def required_agent(self) -> AgentRuntime:
        """Return the agent; only owners resolved with ``need_agent`` are asked."""
        assert self.agent is not None
        return self.agent


def _error(key: str, **placeholders: str) -> ServiceValidationError:
    return ServiceValidationError(
        translation_domain=DOMAIN, translation_key=key, translation_placeholders=placeholders or None
    )


def _agent_subentry(hass: HomeAssistant, agent_id: str) -> str | None:
    """Return the subentry of one of our conversation entities, else None."""
    entry = er.async_get(hass).async_get(agent_id)
    if entry is None or entry.platform != DOMAIN:
        return None
    return entry.config_subentry_id


def resolve_owner(hass: HomeAssistant, hint: OwnerHint, *, need_agent: bool = False) -> Owner:
    """Return the owner of a call, or raise a translated error saying why there is none."""
    loaded: list[LayeredAssistConfigEntry] = hass.config_entries.async_loaded_entries(DOMAIN)
    if not loaded:
        raise _error("not_loaded")
    subentry_id = hint.subentry_id
    if subentry_id is None and hint.agent_id:
        subentry_id = _agent_subentry(hass, hint.agent_id)
        if subentry_id is None and hint.explicit:
            raise _error("unknown_agent", agent=hint.agent_id)
    if subentry_id is not None:
        for entry in loaded:
            if (agent := entry.runtime_data.agents.get(subentry_id)) is not None:
                return Owner(entry, agent)
        raise _error("unknown_agent", agent=hint.agent_id or subentry_id)
    entries = loaded
    if hint.entry_id:
        entries = [e for e in loaded if e.entry_id == hint.entry_id]
        if not entries:
            raise _error("unknown_entry", entry=hint.entry_id)
    agents = [(e, a) for e in entries for a in e.runtime_data.agents.values()]
    if need_agent:
        if len(agents) != 1:
            raise _error("ambiguous_agent" if agents else "no_agent")
        return Owner(*agents[0])
    if len(entries) != 1:
        raise _error("ambiguous_entry")
    entry = entries[0]
    only = list(entry.runtime_data.agents.values())
    return Owner(entry, only[0] if len(only) == 1 else None)
