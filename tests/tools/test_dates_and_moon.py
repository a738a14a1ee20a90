"""Dates, and the moon phase as a tool (for any agent), a service and an intent."""

from datetime import date

from freezegun.api import FrozenDateTimeFactory
import pytest

from custom_components.layered_assist.const import DOMAIN
from custom_components.layered_assist.tools.dates import DateError, parse_date
from custom_components.layered_assist.tools.moon import illumination, phase_key
from homeassistant.components import conversation
from homeassistant.core import Context, HomeAssistant
from homeassistant.setup import async_setup_component

from ..llm_tools import call_tool

TODAY = date(2026, 11, 22)  # a Sunday


@pytest.mark.parametrize(
    ("phrase", "expected"),
    [
        (None, "2026-11-22"),
        ("今天", "2026-11-22"),
        ("明天", "2026-11-23"),
        ("後天", "2026-11-24"),
        ("昨天", "2026-11-21"),
        ("tomorrow", "2026-11-23"),
        ("2026-12-01", "2026-12-01"),
        ("2026年12月24日", "2026-12-24"),
        ("十二月一日", "2026-12-01"),
        ("12月1号", "2026-12-01"),
        ("next Friday", "2026-11-27"),
        ("下周五", "2026-11-27"),
        ("星期三", "2026-11-25"),
        ("this saturday", "2026-11-28"),
    ],
)
def test_parse_date(phrase: str | None, expected: str) -> None:
    """Relative, absolute and weekday phrases."""
    assert parse_date(phrase, TODAY).isoformat() == expected


def test_parse_date_rejects() -> None:
    """Nonsense is an error, not today."""
    with pytest.raises(DateError):
        parse_date("some day", TODAY)


@pytest.mark.parametrize(
    ("day", "phase"),
    [(date(2026, 11, 24), "full_moon"), (date(2026, 12, 9), "new_moon"), (date(2026, 12, 1), "last_quarter")],
)
def test_known_phases(day: date, phase: str) -> None:
    """Published full and new moons of late 2026 come out right."""
    from astral import moon  # noqa: PLC0415

    age = moon.phase(day)
    assert phase_key(age) == phase
    assert 0 <= illumination(age) <= 1


@pytest.fixture(autouse=True)
async def setup_integration(hass: HomeAssistant, freezer: FrozenDateTimeFactory) -> None:
    """Set up the integration (no entry needed) on 2026-11-22 in Shanghai."""
    await hass.config.async_set_time_zone("Asia/Shanghai")
    freezer.move_to("2026-11-22T04:00:00+00:00")
    assert await async_setup_component(hass, "homeassistant", {})
    assert await async_setup_component(hass, "conversation", {})
    assert await async_setup_component(hass, DOMAIN, {})


async def test_tool_for_another_agent(hass: HomeAssistant) -> None:
    """Any agent reaches the tool through our LLM API and an LLM context."""
    result = await call_tool(hass, "get_moon_phase", {"date": "后天"})
    assert result["phase"] == "满月"
    assert result["date"] == "2026-11-24"


async def test_service(hass: HomeAssistant) -> None:
    """The service returns the same result."""
    result = await hass.services.async_call(
        DOMAIN,
        "get_moon_phase",
        {"date": "2026-12-09", "language": "en"},
        blocking=True,
        return_response=True,
    )
    assert result["phase"] == "New moon"
    assert result["speech"].startswith("On 2026-12-09 the moon is a New moon")


@pytest.mark.parametrize(
    ("sentence", "language", "expected"),
    [("后天的月相是什么", "zh-Hans", "满月"), ("what's the moon phase tomorrow", "en", "2026-11-23")],
)
async def test_intent_through_default_agent(
    hass: HomeAssistant, sentence: str, language: str, expected: str
) -> None:
    """HA's own agent answers with our intent."""
    result = await conversation.async_converse(hass, sentence, None, Context(), language=language)
    assert expected in result.response.speech["plain"]["speech"]
