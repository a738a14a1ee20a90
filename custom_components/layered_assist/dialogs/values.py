"""Temperature and humidity values in a sentence as the reading prepared it (numerals as digits)."""

from dataclasses import dataclass
import re

from homeassistant.const import UnitOfTemperature
from homeassistant.util.unit_conversion import TemperatureConverter

_NUM = r"(-?\d+(?:\.\d+)?)"
_FAHRENHEIT = re.compile(
    rf"华氏\s*{_NUM}\s*度?|{_NUM}\s*(?:°\s*f|℉|华氏度|fahrenheit|degrees? fahrenheit|f\b)"
)
# 度 is Celsius as Chinese is spoken; English degrees without a scale ("72 degrees",
# "72°", "temperature 72") are in the home's own unit, as its thermostats show them.
_CELSIUS = re.compile(rf"{_NUM}\s*(?:度|℃|°\s*c|摄氏度|degrees? celsius|celsius)")
_DEGREES = re.compile(rf"{_NUM}\s*(?:°|degrees?)")
_PERCENT = re.compile(rf"{_NUM}\s*(?:%|％|percent)")
# 六成 is sixty percent (as humidity is said in Hong Kong).
_TENTHS = re.compile(r"(?<![\d.])(10|\d)\s*成")
_AFTER_TEMPERATURE = re.compile(rf"temperature\D{{0,6}}?{_NUM}")
_AFTER_WENDU = re.compile(rf"温度\D{{0,6}}?{_NUM}")
_AFTER_HUMIDITY = re.compile(rf"(?:湿度|humidity)\D{{0,6}}?{_NUM}|{_NUM}\s*的?湿度")
_BARE = re.compile(rf"^\D{{0,4}}{_NUM}\D{{0,3}}$")


@dataclass(frozen=True, slots=True)
class Values:
    """What one utterance says about the values (temperature in the HA unit)."""

    temperature: float | None = None
    temperature_raw: str | None = None
    humidity: float | None = None
    humidity_raw: str | None = None


def read_values(prepared: str, unit: str, expecting: str | None = None) -> Values:
    """Read temperature and humidity from a prepared utterance (``Reading.prepared``).

    ``expecting`` ("temperature" or "humidity") says what a bare number means, as when
    the assistant has just asked for one value.
    """
    temperature = temperature_raw = humidity = humidity_raw = None
    rest = prepared

    if match := _TENTHS.search(rest):
        humidity_raw = match.group(0)
        humidity = float(match.group(1)) * 10
        rest = rest.replace(humidity_raw, " ")
    elif match := _PERCENT.search(rest) or _AFTER_HUMIDITY.search(rest):
        humidity_raw = match.group(0)
        number = next(group for group in match.groups() if group is not None)
        humidity = _as_percent(float(number), explicit="%" in humidity_raw or "percent" in humidity_raw)
        rest = rest.replace(humidity_raw, " ")
    if match := _FAHRENHEIT.search(rest):
        value = float(match.group(1) or match.group(2))
        temperature_raw = match.group(0)
        temperature = _convert(value, UnitOfTemperature.FAHRENHEIT, unit)
    elif match := _CELSIUS.search(rest) or _AFTER_WENDU.search(rest):
        temperature_raw = match.group(0)
        temperature = _convert(float(match.group(1)), UnitOfTemperature.CELSIUS, unit)
    elif match := _DEGREES.search(rest) or _AFTER_TEMPERATURE.search(rest):
        temperature_raw = match.group(0)
        temperature = float(match.group(1))
    elif expecting and (match := _BARE.match(rest.strip())):
        value = float(match.group(1))
        if expecting == "temperature" and temperature is None:
            # A bare number is in the home's unit, as a thermostat shows it.
            temperature, temperature_raw = value, match.group(0)
        elif expecting == "humidity" and humidity is None:
            humidity, humidity_raw = _as_percent(value, explicit=False), match.group(0)
    return Values(temperature, temperature_raw, humidity, humidity_raw)


def _as_percent(value: float, *, explicit: bool) -> float:
    """Return a humidity in percent: 0.6 means 60 %."""
    if not explicit and 0 < value <= 1:
        return round(value * 100, 1)
    return value


def _convert(value: float, from_unit: str, to_unit: str) -> float:
    """Return a temperature in the HA unit system, rounded to a tenth."""
    if from_unit == to_unit:
        return value
    return round(TemperatureConverter.convert(value, from_unit, to_unit), 1)
