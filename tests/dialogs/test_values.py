"""Temperature and humidity values in a sentence as the reading prepares it, in Chinese and English."""

import pytest

from custom_components.layered_assist.dialogs.values import read_values
from custom_components.layered_assist.language.tokens import prepare
from homeassistant.const import UnitOfTemperature

C, F = UnitOfTemperature.CELSIUS, UnitOfTemperature.FAHRENHEIT


@pytest.mark.parametrize(
    ("text", "unit", "expecting", "temperature", "humidity"),
    [
        ("22度", C, None, 22, None),
        ("22℃", C, None, 22, None),
        ("22摄氏度", C, None, 22, None),
        ("二十二度", C, None, 22, None),
        ("二十二点五度", C, None, 22.5, None),
        ("零下五度", C, None, -5, None),
        ("负三度", C, None, -3, None),
        ("72°F", C, None, 22.2, None),
        ("72 Fahrenheit", C, None, 22.2, None),
        ("华氏七十二度", C, None, 22.2, None),
        ("72°F", F, None, 72, None),
        ("22度", F, None, 71.6, None),
        ("72 degrees", F, None, 72, None),
        ("set the temperature to 72", F, None, 72, None),
        ("70", F, "temperature", 70, None),
        ("温度二十二", F, None, 71.6, None),
        ("60%", C, None, None, 60),
        ("60", C, "humidity", None, 60),
        ("22", C, "temperature", 22, None),
        ("百分之六十", C, None, None, 60),
        ("六成", C, None, None, 60),
        ("0.6", C, "humidity", None, 60),
        ("湿度六十", C, None, None, 60),
        ("湿度60", C, None, None, 60),
        ("22度60湿度", C, None, 22, 60),
        ("设置温度22度，湿度60%", C, None, 22, 60),
        ("温度二十二度湿度百分之五十五", C, None, 22, 55),
        ("温度改成25度", C, None, 25, None),
        ("濕度改成百分之五十", C, None, None, 50),
        ("溫度二十六度", C, None, 26, None),
        ("set the temperature to 21 degrees and humidity to 45%", C, None, 21, 45),
        ("twenty two degrees", C, None, 22, None),
        ("humidity 55 percent", C, None, None, 55),
        ("make it 70 fahrenheit", C, None, 21.1, None),
        ("18.5 celsius", C, None, 18.5, None),
        ("你好", C, None, None, None),
        ("确认", C, "temperature", None, None),
    ],
)
def test_read_values(
    text: str, unit: str, expecting: str | None, temperature: float | None, humidity: float | None
) -> None:
    """Each way of saying a value is read, in the HA unit system."""
    values = read_values(prepare(text), unit, expecting)
    assert values.temperature == (pytest.approx(temperature) if temperature is not None else None)
    assert values.humidity == (pytest.approx(humidity) if humidity is not None else None)
