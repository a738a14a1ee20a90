"""Layer 1 on real registries: a wall switch for a room's light, counts said, groups by floor."""

import pytest

from bench.home import LoadedHome
from custom_components.layered_assist.language.reading import read
from custom_components.layered_assist.selection.catalog import DeviceCatalog
from custom_components.layered_assist.selection.recall import Recall, RecallContext, Recaller
from homeassistant.core import HomeAssistant
from homeassistant.helpers import area_registry as ar, entity_registry as er


def recall(catalog: DeviceCatalog, text: str, context: RecallContext | None = None) -> Recall:
    """Read the sentence, then run Layer 1."""
    language = "en" if text.isascii() else "zh-Hans"
    return Recaller(catalog).recall(read(text, language, catalog.names), context or RecallContext())


def add_entity(hass: HomeAssistant, entity_id: str, name: str, area_id: str, **attributes: object) -> None:
    """Register an entity with a state in an area (exposed by default)."""
    domain, object_id = entity_id.split(".", 1)
    registry = er.async_get(hass)
    registry.async_get_or_create(
        domain, "bench", object_id, suggested_object_id=object_id, original_name=name
    )
    registry.async_update_entity(entity_id, area_id=area_id)
    hass.states.async_set(entity_id, "off", {"friendly_name": name, **attributes})


@pytest.mark.parametrize("text", ["打开储物间的灯", "储物间开灯"])
async def test_a_rooms_light_is_its_wall_switch(
    hass: HomeAssistant, home: LoadedHome, catalog: DeviceCatalog, text: str
) -> None:
    """In a room with no light, its one wall switch (no outlet) is the room's light."""
    area = ar.async_get(hass).async_create("储物间")
    add_entity(hass, "switch.storage_switch", "储物间开关", area.id)
    await hass.async_block_till_done()

    result = recall(catalog, text)

    assert result.confident
    assert result.targets == ["switch.storage_switch"]
    assert result.segments[0].reason == "wall-switch"


async def test_an_outlet_is_no_rooms_light(
    hass: HomeAssistant, home: LoadedHome, catalog: DeviceCatalog
) -> None:
    """A room's only plug is not its light: "打开储物间的灯" is then not sure of anything."""
    area = ar.async_get(hass).async_create("储物间")
    add_entity(hass, "switch.storage_plug", "储物间插座", area.id, device_class="outlet")
    await hass.async_block_till_done()

    result = recall(catalog, "打开储物间的灯")

    assert not result.confident
    assert "switch.storage_plug" not in result.targets


@pytest.mark.parametrize("text", ["打开两个空调", "把两个空调都打开"])
def test_a_count_that_does_not_fit(catalog: DeviceCatalog, text: str) -> None:
    """ "Two air conditioners" of three: not sure which two, none is a target."""
    result = recall(catalog, text)
    assert not result.confident
    assert result.targets == []
    assert result.segments[0].reason == "count"
    assert {"climate.kids_ac", "climate.living_ac", "climate.master_ac"} <= set(result.candidates)


def test_a_group_on_a_floor(catalog: DeviceCatalog) -> None:
    """ "二楼的空调都打开" is every air conditioner upstairs, not the living room's."""
    result = recall(catalog, "二楼的空调都打开")
    assert result.confident
    assert sorted(result.targets) == ["climate.kids_ac", "climate.master_ac"]
    assert result.segments[0].reason == "group"


def test_a_kind_after_a_room_said_before(catalog: DeviceCatalog) -> None:
    """ "客厅电视关掉，然后灯带打开": the light strip, by the kind its name says."""
    first, second = recall(catalog, "客厅电视关掉，然后灯带打开").segments
    assert first.targets == ("media_player.living_tv",)
    assert second.targets == ("light.living_strip",)
