"""Validated commands run as HA service calls for the user, and what happened is said plainly."""

import pytest

from bench.home import LoadedHome, async_load_home, read_home
from custom_components.layered_assist.selection.capabilities import CommandError
from custom_components.layered_assist.selection.execute import (
    PlannedCommand,
    async_execute,
    async_phrase,
    plan_command,
)
from homeassistant.auth.models import User
from homeassistant.const import EVENT_CALL_SERVICE, Platform
from homeassistant.core import Context, HomeAssistant, ServiceCall
from homeassistant.exceptions import HomeAssistantError
from homeassistant.setup import async_setup_component
from homeassistant.util.unit_system import METRIC_SYSTEM

from ..conftest import async_setup_demo
from .conftest import EN_HOME


@pytest.fixture
async def en_home(hass: HomeAssistant) -> LoadedHome:
    """Load the English benchmark home, in metric units, without the agent."""
    assert await async_setup_component(hass, "homeassistant", {})
    hass.config.units = METRIC_SYSTEM
    return await async_load_home(hass, read_home(EN_HOME))


async def setup_demo(hass: HomeAssistant, *platforms: Platform) -> None:
    """Set up HA's core and its demo devices of some platforms."""
    assert await async_setup_component(hass, "homeassistant", {})
    await async_setup_demo(hass, *platforms)


async def test_a_device_that_does_not_exist_is_not_planned(hass: HomeAssistant, en_home: LoadedHome) -> None:
    """A command for an entity HA does not have is refused before any call."""
    with pytest.raises(CommandError, match=r"light\.attic does not exist"):
        plan_command(hass, "light.attic", "turn_on", None)
    assert en_home.calls == []


async def test_a_read_only_user_is_refused(hass: HomeAssistant, hass_read_only_user: User) -> None:
    """HA refuses a user who may not control the light: nothing changes, and the reply says so."""
    await setup_demo(hass, Platform.LIGHT)
    assert hass.states.get("light.bed_light").state == "off"
    planned = plan_command(hass, "light.bed_light", "turn_on", {"brightness_pct": 40})
    report = await async_execute(hass, [planned], Context(user_id=hass_read_only_user.id))
    [outcome] = report.outcomes
    assert outcome.refused
    assert outcome.error == "unauthorized"
    assert not report.all_ok
    assert report.acted_on == []
    assert hass.states.get("light.bed_light").state == "off"
    assert await async_phrase(hass, "en", report) == "You are not allowed to control Bed Light."


async def test_an_admin_is_obeyed(hass: HomeAssistant, hass_admin_user: User) -> None:
    """An admin's command runs in the admin's context, and the change is attributed to them."""
    await setup_demo(hass, Platform.LIGHT)
    planned = plan_command(hass, "light.bed_light", "turn_on", {"brightness_pct": 40})
    report = await async_execute(hass, [planned], Context(user_id=hass_admin_user.id))
    assert report.all_ok
    assert report.acted_on == ["light.bed_light"]
    state = hass.states.get("light.bed_light")
    assert state.state == "on"
    assert state.attributes["brightness"] == 102
    assert state.context.user_id == hass_admin_user.id


async def test_a_device_refusing_a_value_is_reported(hass: HomeAssistant) -> None:
    """A value HA's climate refuses fails that command alone; the other device is still switched."""
    await setup_demo(hass, Platform.CLIMATE, Platform.LIGHT)
    before = hass.states.get("climate.hvac").attributes["temperature"]
    # Planned when the thermostat reported a wider range than HA's own check now allows.
    too_hot = PlannedCommand("climate.hvac", "set_temperature", {}, "set_temperature", {"temperature": 60})
    light = plan_command(hass, "light.bed_light", "turn_on", None)
    report = await async_execute(hass, [too_hot, light], Context())
    failed, done = report.outcomes
    assert not failed.ok
    assert not failed.refused
    assert failed.error == "Provided temperature 60.0 is not valid. Accepted range is 7 to 35"
    assert done.ok
    assert report.acted_on == ["light.bed_light"]
    assert not report.all_ok
    assert hass.states.get("climate.hvac").attributes["temperature"] == before
    assert hass.states.get("light.bed_light").state == "on"
    assert await async_phrase(hass, "en", report) == (
        "Could not do that with Hvac: Provided temperature 60.0 is not valid. Accepted range is 7 to 35"
        "; Turned on Bed Light."
    )


async def test_devices_given_the_same_setting_are_one_call(hass: HomeAssistant) -> None:
    """Every light switched off is one HA call, as HA's own group commands are; each has its outcome."""
    await setup_demo(hass, Platform.LIGHT)
    lights = ["light.bed_light", "light.ceiling_lights", "light.kitchen_lights"]
    for entity_id in lights:
        await hass.services.async_call("light", "turn_on", {"entity_id": entity_id}, blocking=True)
    made: list[dict[str, object]] = []
    hass.bus.async_listen(EVENT_CALL_SERVICE, lambda event: made.append(dict(event.data)))
    report = await async_execute(hass, [plan_command(hass, e, "turn_off", None) for e in lights], Context())
    await hass.async_block_till_done()
    assert report.all_ok
    assert report.acted_on == lights
    assert [(m["domain"], m["service"], m["service_data"]["entity_id"]) for m in made] == [
        ("light", "turn_off", lights)
    ]
    assert [hass.states.get(e).state for e in lights] == ["off", "off", "off"]


async def test_a_device_failing_in_a_joined_call_fails_alone(
    hass: HomeAssistant, en_home: LoadedHome
) -> None:
    """When HA refuses the joined call, each device is called alone: only the failing one fails."""
    plugs = ["switch.coffee_machine", "switch.kettle", "switch.dishwasher"]

    def turn_on(call: ServiceCall) -> None:
        if "switch.kettle" in call.data["entity_id"]:
            raise HomeAssistantError("Kettle is not responding")
        en_home.calls.append(call)

    hass.services.async_register("switch", "turn_on", turn_on)
    report = await async_execute(hass, [plan_command(hass, e, "turn_on", None) for e in plugs], Context())
    assert [(o.command.entity_id, o.error) for o in report.outcomes] == [
        ("switch.coffee_machine", None),
        ("switch.kettle", "Kettle is not responding"),
        ("switch.dishwasher", None),
    ]
    called = sorted(call.data["entity_id"] for call in en_home.calls)
    assert called == ["switch.coffee_machine", "switch.dishwasher"]


async def test_steps_are_never_joined(hass: HomeAssistant) -> None:
    """A step ("a bit brighter") is its own call for each light: a joined one is never given twice."""
    await setup_demo(hass, Platform.LIGHT)
    lights = ["light.bed_light", "light.ceiling_lights"]
    made: list[str] = []
    hass.bus.async_listen(
        EVENT_CALL_SERVICE, lambda event: made.append(event.data["service_data"]["entity_id"])
    )
    steps = [plan_command(hass, e, "turn_on", {"brightness_step_pct": 10}) for e in lights]
    report = await async_execute(hass, steps, Context())
    await hass.async_block_till_done()
    assert report.all_ok
    assert sorted(made) == lights


@pytest.mark.parametrize(
    ("error", "said"),
    [
        (HomeAssistantError("Kettle is not responding"), "Kettle is not responding"),
        # An error with no message is said by its kind.
        (HomeAssistantError(), "HomeAssistantError"),
        (ValueError("bad payload"), "bad payload"),
    ],
)
async def test_a_failing_integration_is_reported(
    hass: HomeAssistant, en_home: LoadedHome, error: Exception, said: str
) -> None:
    """A device's integration failing is one failed outcome, said with its reason in the user's language."""

    def fail(call: ServiceCall) -> None:
        raise error

    # The kettle's integration fails every switch-on.
    hass.services.async_register("switch", "turn_on", fail)
    planned = plan_command(hass, "switch.kettle", "turn_on", None)
    report = await async_execute(hass, [planned], Context())
    [outcome] = report.outcomes
    assert (outcome.ok, outcome.refused, outcome.error) == (False, False, said)
    assert hass.states.get("switch.kettle").state == "off"
    assert await async_phrase(hass, "en", report) == f"Could not do that with Kettle: {said}."
    assert await async_phrase(hass, "zh-Hans", report) == f"Kettle操作失败：{said}。"


@pytest.mark.parametrize(
    ("entity_id", "command", "language", "said"),
    [
        ("scene.movie_night", "turn_on", "en", "Activated Movie Night."),
        ("scene.movie_night", "turn_on", "zh-Hans", "已启动Movie Night。"),
        ("vacuum.roomba", "pause", "en", "Paused Roomba."),
        ("vacuum.roomba", "stop", "zh-Hans", "已停止Roomba。"),
    ],
)
async def test_scenes_and_vacuums_are_said_as_such(
    hass: HomeAssistant, en_home: LoadedHome, entity_id: str, command: str, language: str, said: str
) -> None:
    """A scene is "activated", not "turned on"; a vacuum is paused or stopped, by its own words."""
    report = await async_execute(hass, [plan_command(hass, entity_id, command, None)], Context())
    assert report.all_ok
    [call] = en_home.calls
    assert (call.domain, call.service, call.data["entity_id"]) == (
        entity_id.split(".")[0],
        command,
        entity_id,
    )
    assert await async_phrase(hass, language, report) == said


async def test_one_lights_settings_are_one_call(hass: HomeAssistant, en_home: LoadedHome) -> None:
    """ "40 percent and warm white" is one turn_on of the light; another light's command is its own call."""
    commands = [
        plan_command(hass, "light.desk_lamp", "turn_on", {"brightness_pct": 40}),
        plan_command(hass, "light.desk_lamp", "turn_on", {"color_temp_kelvin": 2700}),
        plan_command(hass, "light.office", "turn_off", None),
    ]
    report = await async_execute(hass, commands, Context())
    assert report.all_ok
    assert report.acted_on == ["light.desk_lamp", "light.office"]
    calls = sorted((c.data["entity_id"], c.service, dict(c.data)) for c in en_home.calls)
    assert calls == [
        (
            "light.desk_lamp",
            "turn_on",
            {"entity_id": "light.desk_lamp", "brightness_pct": 40, "color_temp_kelvin": 2700},
        ),
        ("light.office", "turn_off", {"entity_id": "light.office"}),
    ]
    assert hass.states.get("light.office").state == "off"


async def test_equal_commands_are_said_once(hass: HomeAssistant, en_home: LoadedHome) -> None:
    """Two lights switched off are named together in one sentence."""
    commands = [plan_command(hass, e, "turn_off", None) for e in ("light.office", "light.porch")]
    report = await async_execute(hass, commands, Context())
    assert {hass.states.get(e).state for e in ("light.office", "light.porch")} == {"off"}
    assert await async_phrase(hass, "en", report) == "Turned off Office Light and Porch Light."


async def test_a_command_with_no_phrasing_is_said_plainly(hass: HomeAssistant, en_home: LoadedHome) -> None:
    """A command the replies have no sentence for is still said as done, naming the command and device."""
    reverse = PlannedCommand(
        "fan.main_bedroom_ceiling_fan", "set_direction", {}, "set_direction", {"direction": "reverse"}
    )
    report = await async_execute(hass, [reverse], Context())
    assert report.all_ok
    [call] = en_home.calls
    assert (call.service, call.data["direction"]) == ("set_direction", "reverse")
    assert await async_phrase(hass, "en", report) == "Done: set_direction on Ceiling Fan."
    assert await async_phrase(hass, "zh-Hans", report) == "已对Ceiling Fan执行set_direction。"
