"""The benchmarks' judge of a turn (bench/actions.py): what counts as exact and as wrong."""

from bench.actions import MadeCall, judge

AC = "climate.bedroom_ac"
SET_COOL_27 = {
    "service": "climate.set_temperature",
    "entity_id": AC,
    "data": {"temperature": 27, "hvac_mode": "cool"},
}


def test_nothing_asked_and_nothing_done_is_exact() -> None:
    assert judge([], [], asked_model=False, attributes={}) == "exact"


def test_nothing_done_is_handed_or_silent() -> None:
    assert judge([SET_COOL_27], [], asked_model=True, attributes={}) == "handed"
    assert judge([SET_COOL_27], [], asked_model=False, attributes={}) == "silent"


def test_a_temperature_with_a_mode_made_in_one_call_or_its_two_halves() -> None:
    """set_temperature with hvac_mode is the same as set_hvac_mode then set_temperature."""
    one = [MadeCall("climate.set_temperature", AC, {"temperature": 27.0, "hvac_mode": "cool"})]
    halves = [
        MadeCall("climate.turn_on", AC, {}),
        MadeCall("climate.set_hvac_mode", AC, {"hvac_mode": "cool"}),
        MadeCall("climate.set_temperature", AC, {"temperature": 27.0}),
    ]
    assert judge([SET_COOL_27], one, asked_model=False, attributes={}) == "exact"
    assert judge([SET_COOL_27], halves, asked_model=False, attributes={}) == "exact"


def test_half_of_it_or_another_mode_is_wrong() -> None:
    only_temperature = [MadeCall("climate.set_temperature", AC, {"temperature": 27.0})]
    other_mode = [
        MadeCall("climate.set_hvac_mode", AC, {"hvac_mode": "heat"}),
        MadeCall("climate.set_temperature", AC, {"temperature": 27.0}),
    ]
    assert judge([SET_COOL_27], only_temperature, asked_model=False, attributes={}) == "wrong"
    assert judge([SET_COOL_27], other_mode, asked_model=False, attributes={}) == "wrong"


def test_another_entity_acted_on_is_wrong() -> None:
    made = [MadeCall("climate.set_temperature", AC, {"temperature": 27, "hvac_mode": "cool"})]
    made.append(MadeCall("light.turn_on", "light.desk", {}))
    assert judge([SET_COOL_27], made, asked_model=False, attributes={}) == "wrong"
