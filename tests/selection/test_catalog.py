"""The catalog follows registry, state and exposure changes without a rebuild."""

from bench.home import LoadedHome
from custom_components.layered_assist.selection.catalog import DeviceCatalog
from homeassistant.components.homeassistant.exposed_entities import async_expose_entity
from homeassistant.core import HomeAssistant
from homeassistant.helpers import area_registry as ar, entity_registry as er


def names(catalog: DeviceCatalog, entity_id: str) -> list[str]:
    """Return an entity's match names."""
    entry = catalog.entry(entity_id)
    assert entry is not None
    return [name.text for name in entry.names]


async def test_only_exposed_entities(catalog: DeviceCatalog) -> None:
    """Non-exposed entities are not in the catalog at all."""
    assert catalog.entry("light.secret_light") is None
    assert catalog.entry("lock.safe") is None
    assert catalog.entry("light.living_main") is not None


async def test_follows_changes(hass: HomeAssistant, home: LoadedHome, catalog: DeviceCatalog) -> None:
    """Aliases, areas, exposure, new and removed entities are picked up as they happen."""
    registry = er.async_get(hass)
    registry.async_update_entity("light.study_desk", aliases={"阅读灯"})
    await hass.async_block_till_done()
    assert "阅读灯" in names(catalog, "light.study_desk")

    registry.async_update_entity("light.study_desk", area_id=home.area_ids["kids"])
    await hass.async_block_till_done()
    entry = catalog.entry("light.study_desk")
    assert entry is not None
    assert entry.area_id == home.area_ids["kids"]

    async_expose_entity(hass, "conversation", "light.study_desk", False)
    await hass.async_block_till_done()
    assert catalog.entry("light.study_desk") is None
    async_expose_entity(hass, "conversation", "light.secret_light", True)
    await hass.async_block_till_done()
    assert catalog.entry("light.secret_light") is not None

    hass.states.async_set("light.new_lamp", "off", {"friendly_name": "新台灯"})
    await hass.async_block_till_done()
    assert catalog.entry("light.new_lamp") is not None
    hass.states.async_remove("light.new_lamp")
    await hass.async_block_till_done()
    assert catalog.entry("light.new_lamp") is None

    ar.async_get(hass).async_update(home.area_ids["study"], aliases={"工作间"})
    await hass.async_block_till_done()
    assert "工作间" in [n.text for n in catalog.areas[home.area_ids["study"]].names]


async def test_state_changes_do_not_rebuild(hass: HomeAssistant, catalog: DeviceCatalog) -> None:
    """A plain state change keeps the same catalog entry object."""
    before = catalog.entry("light.living_main")
    hass.states.async_set(
        "light.living_main", "off", {"friendly_name": "客厅主灯", "supported_color_modes": ["onoff"]}
    )
    await hass.async_block_till_done()
    assert catalog.entry("light.living_main") is before
