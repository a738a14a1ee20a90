"""The catalog's lookups, and registry and exposure changes the first catalog tests do not make."""

from custom_components.layered_assist.selection.catalog import DeviceCatalog
from homeassistant.components.homeassistant.exposed_entities import async_expose_entity
from homeassistant.core import HomeAssistant
from homeassistant.helpers import entity_registry as er


def sounds(catalog: DeviceCatalog, entity_id: str) -> list[str]:
    """Return the sounds of an entity's first name, in order."""
    entry = catalog.entry(entity_id)
    assert entry is not None
    return [unit.sound for unit in entry.names[0].units]


async def test_sound_lookups(catalog: DeviceCatalog) -> None:
    """Entities are found by the sounds of their names; a sound many names share is not rare."""
    main = sounds(catalog, "light.living_main")
    # Homophones share the sounds: 主等 finds 主灯.
    assert "light.living_main" in catalog.entity_ids_with_sounds(main)
    shared = catalog.entity_ids_with_sounds([main[0]])
    assert len(shared) > 2
    assert catalog.entity_ids_with_sounds([main[0]], rarer_than=2) == set()


async def test_entity_id_renamed(hass: HomeAssistant, catalog: DeviceCatalog) -> None:
    """A new entity id replaces the old one: the old is gone at once, the new comes with its state."""
    registry = er.async_get(hass)
    registry.async_update_entity("light.study_desk", new_entity_id="light.desk")
    await hass.async_block_till_done()
    assert catalog.entry("light.study_desk") is None

    hass.states.async_set("light.desk", "off", {"friendly_name": "台灯"})
    await hass.async_block_till_done()
    entry = catalog.entry("light.desk")
    assert entry is not None
    assert {"台灯", "书桌灯"} <= {name.text for name in entry.names}


async def test_exposure_of_an_entity_not_in_the_registry(hass: HomeAssistant, catalog: DeviceCatalog) -> None:
    """An entity with only a state leaves the catalog when it stops being exposed, and comes back."""
    hass.states.async_set("light.guest_lamp", "off", {"friendly_name": "客房灯"})
    await hass.async_block_till_done()
    assert catalog.entry("light.guest_lamp") is not None

    async_expose_entity(hass, "conversation", "light.guest_lamp", False)
    await hass.async_block_till_done()
    assert catalog.entry("light.guest_lamp") is None

    async_expose_entity(hass, "conversation", "light.guest_lamp", True)
    await hass.async_block_till_done()
    assert catalog.entry("light.guest_lamp") is not None


async def test_an_entity_without_any_name_is_left_out(hass: HomeAssistant, catalog: DeviceCatalog) -> None:
    """An exposed entity with no name at all cannot be said, so it is not in the catalog."""
    hass.states.async_set("light.nameless", "on", {})
    hass.states.async_set("light.blank", "on", {"friendly_name": "  "})
    await hass.async_block_till_done()
    assert catalog.entry("light.nameless") is None
    assert catalog.entry("light.blank") is None
