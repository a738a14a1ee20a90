"""Service calls made for a user carry the user's context: HA's permissions apply, changes are attributed."""

from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.layered_assist.const import DOMAIN
from homeassistant.auth.models import User
from homeassistant.components import conversation
from homeassistant.const import Platform
from homeassistant.core import Context, HomeAssistant
from homeassistant.helpers import entity_registry as er

from .conftest import AGENT_ID, async_setup_demo
from .fake_openai import FakeOpenAI, call, text


async def _climate_step(hass: HomeAssistant, user: User, **data: object) -> dict:
    response: dict = await hass.services.async_call(
        DOMAIN,
        "climate_confirm",
        {"conversation_id": "permissions", "language": "zh-Hans", **data},
        blocking=True,
        return_response=True,
        context=Context(user_id=user.id),
    )
    return response


async def test_climate_dialog_applies_as_the_user(
    hass: HomeAssistant, init_integration: MockConfigEntry, hass_admin_user: User
) -> None:
    """The confirmed values are set with the confirming user's context."""
    await async_setup_demo(hass, Platform.CLIMATE)
    await _climate_step(hass, hass_admin_user, temperature=23, humidity=55, target="climate.hvac")
    await _climate_step(hass, hass_admin_user, confirm=True)
    state = hass.states.get("climate.hvac")
    assert state.attributes["temperature"] == 23
    assert state.context.user_id == hass_admin_user.id


async def test_climate_dialog_refused_for_a_read_only_user(
    hass: HomeAssistant, init_integration: MockConfigEntry, hass_read_only_user: User
) -> None:
    """A user who may not control the climate hears so, and nothing changes."""
    await async_setup_demo(hass, Platform.CLIMATE)
    er.async_get(hass).async_update_entity("climate.hvac", name="客厅空调")
    await hass.async_block_till_done()
    before = hass.states.get("climate.hvac").attributes["temperature"]
    await _climate_step(hass, hass_read_only_user, temperature=23, humidity=55, target="climate.hvac")
    result = await _climate_step(hass, hass_read_only_user, confirm=True)
    # Said by its name as HA shows it (from 2026.11 with its device's name before it).
    assert result["speech"] == f"你没有权限控制{hass.states.get('climate.hvac').name}。"
    assert "客厅空调" in result["speech"]
    assert hass.states.get("climate.hvac").attributes["temperature"] == before


async def test_local_action_refused_for_a_read_only_user(
    hass: HomeAssistant, init_integration: MockConfigEntry, hass_read_only_user: User, hass_admin_user: User
) -> None:
    """A local command for a user without control is refused by HA and said plainly; an admin's runs."""
    await async_setup_demo(hass, Platform.LIGHT)
    assert hass.states.get("light.bed_light").state == "off"
    result = await conversation.async_converse(
        hass, "turn on the bed light", None, Context(user_id=hass_read_only_user.id), "en", agent_id=AGENT_ID
    )
    assert result.response.speech["plain"]["speech"] == "You are not allowed to control Bed Light."
    assert hass.states.get("light.bed_light").state == "off"
    await conversation.async_converse(
        hass, "turn on the bed light", None, Context(user_id=hass_admin_user.id), "en", agent_id=AGENT_ID
    )
    state = hass.states.get("light.bed_light")
    assert state.state == "on"
    assert state.context.user_id == hass_admin_user.id


async def test_confirmed_risky_command_refused_for_a_read_only_user(
    hass: HomeAssistant, init_integration: MockConfigEntry, hass_read_only_user: User
) -> None:
    """Asked, confirmed, then refused by HA for a user without control: the door stays locked."""
    await async_setup_demo(hass, Platform.LOCK)
    context = Context(user_id=hass_read_only_user.id)
    first = await conversation.async_converse(
        hass, "unlock the front door", "risky", context, "en", agent_id=AGENT_ID
    )
    assert "?" in first.response.speech["plain"]["speech"]
    second = await conversation.async_converse(hass, "yes", "risky", context, "en", agent_id=AGENT_ID)
    assert second.response.speech["plain"]["speech"] == "You are not allowed to control Front Door."
    assert hass.states.get("lock.front_door").state == "locked"


async def test_model_tool_refused_for_a_read_only_user(
    hass: HomeAssistant, init_integration: MockConfigEntry, fake_openai: FakeOpenAI, hass_read_only_user: User
) -> None:
    """The model's control tool runs with the user's context: HA refuses, the model hears why."""
    await async_setup_demo(hass, Platform.LIGHT)
    fake_openai.add(
        call("control_devices", {"commands": [{"entity_id": "light.bed_light", "command": "turn_on"}]}),
        text("Sorry, you may not do that."),
    )
    result = await conversation.async_converse(
        hass,
        "could you perhaps make the bed light shine",
        None,
        Context(user_id=hass_read_only_user.id),
        "en",
        agent_id=AGENT_ID,
    )
    # The model tried and was refused: what it says next is not trusted, nothing changed is said.
    assert result.response.speech["plain"]["speech"] == "Sorry, I could not do that, so nothing was changed."
    assert "unauthorized" in str(fake_openai.chat_requests[-1]["messages"][-1])
    assert hass.states.get("light.bed_light").state == "off"
