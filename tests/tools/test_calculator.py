"""Tests of the calculator's evaluator and its limits."""

import pytest

from custom_components.layered_assist.const import DOMAIN
from custom_components.layered_assist.tools.calculator import CalculationError, calculate_spoken, evaluate
from homeassistant.components import conversation
from homeassistant.core import Context, HomeAssistant
from homeassistant.helpers import llm
from homeassistant.setup import async_setup_component

from ..llm_tools import llm_context, result_data


@pytest.mark.parametrize(
    ("expression", "expected"),
    [
        ("1+2*3", 7),
        ("(1+2)*3", 9),
        ("7/2", 3.5),
        ("7//2", 3),
        ("7 % 3", 1),
        ("2**10", 1024),
        ("2^10", 1024),
        ("-3 + +4", 1),
        ("200 * 15%", 30),
        ("50%", 0.5),
        ("(100 + 50%) * 2", 201),
        ("sqrt(16)", 4),
        ("abs(-2.5)", 2.5),
        ("round(3.14159, 2)", 3.14),
        ("min(3, 1, 2) + max(4, 5)", 6),
        ("3×4÷2", 6),
        ("（1＋2）×3", 9),
        ("1.5e3 + 1", 1501),
    ],
)
def test_evaluates(expression: str, expected: float) -> None:
    """Arithmetic gives the exact answer."""
    assert evaluate(expression) == pytest.approx(expected)


@pytest.mark.parametrize(
    ("expression", "problem"),
    [
        ("__import__('os').system('ls')", "not allowed"),
        ("().__class__", "not allowed"),
        ("x + 1", "not allowed"),
        ("open('f')", "not allowed"),
        ("sqrt(x=4)", "not allowed"),
        ("[1, 2]", "not allowed"),
        ("'a' * 3", "not allowed"),
        ("1/0", "division by zero"),
        ("10**10000", "exponent larger"),
        ("9**999", "too large"),
        ("2.0**5000", "exponent larger"),
        ("10.0**300 * 10.0**300", "too large"),
        ("sqrt(-1)", "math domain"),
        ("1 +", "not an arithmetic expression"),
        ("", "empty"),
        ("1+" * 150 + "1", "longer than"),
        ("True + 1", "not allowed"),
    ],
)
def test_refuses(expression: str, problem: str) -> None:
    """Anything but bounded arithmetic is refused with a reason."""
    with pytest.raises(CalculationError, match=problem):
        evaluate(expression)


@pytest.mark.parametrize(
    ("sentence", "expression", "result"),
    [
        ("三加四等于多少", "3 + 4", 7),
        ("计算十二乘以三", "12 * 3", 36),
        ("一百除以八是多少", "100 / 8", 12.5),
        ("3.5加四点五等于几", "3.5 + 4.5", 8),
        ("what is 6 times 7", "6 * 7", 42),
        ("calculate twenty two minus 5", "22 - 5", 17),
        ("how much is 3 plus 4?", "3 + 4", 7),
    ],
)
def test_spoken(sentence: str, expression: str, result: float) -> None:
    """Spoken numbers and operators in Chinese and English become an expression."""
    assert calculate_spoken(sentence) == (expression, result)


@pytest.mark.parametrize("sentence", ["客厅温度是多少", "what is the weather plus rain", "2的平方"])
def test_spoken_refuses(sentence: str) -> None:
    """What is not arithmetic is refused, so that the turn goes on to the model."""
    with pytest.raises(CalculationError):
        calculate_spoken(sentence)


@pytest.mark.parametrize(
    ("sentence", "language", "expected"),
    [("三加四等于多少", "zh-Hans", "3 + 4 等于 7。"), ("what is 6 times 7", "en", "6 * 7 is 42.")],
)
async def test_intent_through_default_agent(
    hass: HomeAssistant, sentence: str, language: str, expected: str
) -> None:
    """HA's own agent answers spoken calculations with our intent."""
    assert await async_setup_component(hass, "homeassistant", {})
    assert await async_setup_component(hass, DOMAIN, {})
    result = await conversation.async_converse(hass, sentence, None, Context(), language=language)
    assert result.response.speech["plain"]["speech"] == expected


async def test_intent_as_assist_api_tool(hass: HomeAssistant) -> None:
    """HA's Assist API offers the intent to models, which pass the expression as a slot."""
    assert await async_setup_component(hass, "homeassistant", {})
    assert await async_setup_component(hass, DOMAIN, {})
    api = await llm.async_get_api(hass, llm.LLM_API_ASSIST, llm_context("en", platform="ollama"))
    # Since HA 2026.7 tools from integration platforms carry the domain as a prefix.
    (name,) = [tool.name for tool in api.tools if tool.name.endswith("LayeredAssistCalculate")]
    assert name in {"LayeredAssistCalculate", f"{DOMAIN}__LayeredAssistCalculate"}
    result = await api.async_call_tool(llm.ToolInput(tool_name=name, tool_args={"la_expr": "(3+4)*2"}))
    assert result_data(result)["speech"]["plain"]["speech"] == "(3+4)*2 is 14."
