"""Tool results cost prompt bytes: report them, and keep them short."""

from freezegun.api import FrozenDateTimeFactory

from homeassistant.const import Platform
from homeassistant.core import HomeAssistant
from homeassistant.helpers.json import json_dumps

from ..conftest import async_setup_demo
from ..llm_tools import call_tool

CALLS = {
    "calculate": {"expression": "(2+3)*4"},
    "get_datetime": {},
    "get_moon_phase": {"date": "明天"},
    "get_weather": {},
    "climate_confirm": {"temperature": "22度", "humidity": "60%"},
    "add_memo": {"text": "买牛奶"},
    "list_memos": {},
    "set_alarm": {"time": "明早七点", "message": "起床"},
    "list_alarms": {},
    "change_role": {"role": "英语老师"},
}


async def test_result_sizes(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory, init_integration: object
) -> None:
    """Every tool result stays under 600 bytes; the sizes are printed for the record."""
    freezer.move_to("2026-11-22T04:00:00+00:00")
    await async_setup_demo(hass, Platform.WEATHER)
    sizes = {}
    for name, args in CALLS.items():
        result = await call_tool(hass, name, args)
        sizes[name] = len(json_dumps(result).encode())
    print("tool result bytes:", sizes)
    assert all(size < 600 for size in sizes.values()), sizes
