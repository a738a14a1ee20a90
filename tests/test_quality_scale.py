"""quality_scale.yaml: every rule has a status, every exemption and todo says why, and the
claims that can be read from the code hold."""

from pathlib import Path

import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry
import yaml

from custom_components.layered_assist.const import DOMAIN
from custom_components.layered_assist.entity import LayeredAssistEntryEntity
from custom_components.layered_assist.sensor import NextAlarmSensor
from custom_components.layered_assist.todo import MemoListEntity
from homeassistant.core import HomeAssistant
from homeassistant.helpers.entity_platform import async_get_platforms

INTEGRATION = Path(__file__).parent.parent / "custom_components" / "layered_assist"
RULES = yaml.safe_load((INTEGRATION / "quality_scale.yaml").read_text(encoding="utf-8"))["rules"]


def status(rule: str) -> str:
    """Return a rule's status, written short or long."""
    value = RULES[rule]
    return value if isinstance(value, str) else value["status"]


@pytest.mark.parametrize("rule", sorted(RULES))
def test_every_rule_has_a_status_and_a_reason(rule: str) -> None:
    """Done, exempt or todo; an exemption or a todo comes with its reason."""
    assert status(rule) in ("done", "exempt", "todo")
    if status(rule) != "done":
        assert RULES[rule]["comment"].strip()


async def test_nothing_polls(hass: HomeAssistant, init_integration: MockConfigEntry) -> None:
    """Polling is exempt because no entity of ours polls: each is pushed by its store."""
    assert status("appropriate-polling") == "exempt"
    ours = [entity for platform in async_get_platforms(hass, DOMAIN) for entity in platform.entities.values()]
    assert {type(entity) for entity in ours} >= {NextAlarmSensor, MemoListEntity}
    for entity in ours:
        assert entity.should_poll is False, entity.entity_id


def test_claims_read_from_the_code() -> None:
    """What the yaml says of common modules, icons, brands and owners is what the files hold."""
    assert status("common-modules") == "done"
    assert issubclass(NextAlarmSensor, LayeredAssistEntryEntity)
    assert issubclass(MemoListEntity, LayeredAssistEntryEntity)
    assert status("icon-translations") == "done"
    assert (INTEGRATION / "icons.json").is_file()
    assert status("brands") == "done"
    assert (INTEGRATION / "brand" / "icon.png").is_file()
    manifest = yaml.safe_load((INTEGRATION / "manifest.json").read_text(encoding="utf-8"))
    assert status("integration-owner") == "done"
    assert manifest["codeowners"]
