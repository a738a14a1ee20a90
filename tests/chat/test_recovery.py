"""Calls written as text are read back in every shape small models write them."""

import json

import pytest

from custom_components.layered_assist.chat.recovery import MarkupFilter, OfferedTools, RecoveredCall, recover

TOOLS = OfferedTools(frozenset({"control_devices", "get_datetime"}), command_tool="control_devices")
COMMAND = {"commands": [{"entity_id": "switch.rice_cooker", "command": "turn_off"}]}
ARGS = '{"commands": [{"entity_id": "switch.rice_cooker", "command": "turn_off"}]}'
ONE = '{"entity_id": "switch.rice_cooker", "command": "turn_off"}'
COMMAND_JSON = '{"name": "control_devices", "arguments": ' + ARGS + "}"


@pytest.mark.parametrize(
    "text",
    [
        COMMAND_JSON,
        f"好的。\n```json\n{COMMAND_JSON}\n```",
        f"<tool_call>\n{COMMAND_JSON}\n</tool_call>",
        f"<tools>{COMMAND_JSON}</tools>",
        "{" + COMMAND_JSON + "}",
        '{{"name": "control_devices", "arguments": ' + ARGS + "}}}",
        '{"name": "control_devices", "arguments": ' + json.dumps(ARGS) + "}",
        '{"type": "function", "function": {"name": "control_devices", "parameters": ' + ARGS + "}}",
        '{"name": "turn_off", "arguments": {"entity_id": "switch.rice_cooker"}}',
        '{"name": "switch.turn_off", "arguments": {"entity_id": "switch.rice_cooker"}}',
        '{"name": "control_devices", "commands": [' + ONE + "]}",
        '{"name": "control_devices", "arguments": ' + ONE + "}",
        '[{"name": "functions.control_devices", "arguments": ' + ARGS + "}]",
    ],
    ids=[
        "bare",
        "fenced",
        "tool_call-tag",
        "tools-tag",
        "doubled-outer-brace",
        "doubled-braces",
        "arguments-as-string",
        "openai-shape-parameters",
        "command-as-tool-name",
        "service-as-tool-name",
        "arguments-beside-the-name",
        "single-command",
        "list-with-namespace",
    ],
)
def test_every_shape_is_one_command_call(text: str) -> None:
    """Each shape gives the same call, and nothing of it is left to be spoken."""
    recovered = recover(text, TOOLS)
    assert recovered.calls == [RecoveredCall("control_devices", COMMAND)]
    assert "{" not in recovered.text
    assert "<" not in recovered.text
    assert "`" not in recovered.text


def test_parameters_given_beside_the_command_go_under_params() -> None:
    """A 0.5B model puts the brightness next to the entity; the tool expects it in params."""
    recovered = recover(
        '{"name": "turn_on", "arguments": {"entity_id": "light.desk", "brightness_pct": 40}}', TOOLS
    )
    assert recovered.calls == [
        RecoveredCall(
            "control_devices",
            {
                "commands": [
                    {"entity_id": "light.desk", "command": "turn_on", "params": {"brightness_pct": 40}}
                ]
            },
        )
    ]


def test_several_entities_in_one_call_are_several_commands() -> None:
    """``entity_id`` as a list is one command per entity."""
    recovered = recover('{"name": "turn_off", "arguments": {"entity_id": ["light.a", "light.b"]}}', TOOLS)
    [call] = recovered.calls
    assert [c["entity_id"] for c in call.arguments["commands"]] == ["light.a", "light.b"]


def test_other_tools_and_unknown_tools() -> None:
    """An offered tool is called by its name; an unknown one is kept for the chat log to refuse."""
    recovered = recover(
        '现在几点？{"name": "get_datetime", "arguments": {}} {"name": "fly", "arguments": {}}', TOOLS
    )
    assert recovered.calls == [RecoveredCall("get_datetime", {}), RecoveredCall("fly", {})]
    assert recovered.text == "现在几点？"


def test_json_that_is_no_call_is_not_spoken() -> None:
    """A state the model printed is no call, and not speech either."""
    recovered = recover('客厅灯的状态：{"name": "客厅灯", "state": "on"}', TOOLS)
    assert recovered.calls == []
    assert recovered.text == "客厅灯的状态："


def test_a_cut_call_is_not_spoken() -> None:
    """A call cut off by the token limit leaves only the words before it."""
    recovered = recover(
        '好的，我来关。{"name": "control_devices", "arguments": {"commands": [{"entity_', TOOLS
    )
    assert recovered.calls == []
    assert recovered.text == "好的，我来关。"


def test_plain_text_is_untouched() -> None:
    """Text with no markup is spoken as written."""
    assert recover("Sure, the kitchen light is on.", TOOLS).text == "Sure, the kitchen light is on."


def test_the_filter_streams_text_and_holds_markup() -> None:
    """Plain text passes as it comes; from the first brace on, everything waits for the end."""
    stream = MarkupFilter()
    assert stream.feed("好的，") == "好的，"
    assert stream.feed('马上关。{"name": "turn_') == "马上关。"
    assert stream.feed('off", "arguments": {"entity_id": "switch.rice_cooker"}}') == ""
    recovered = stream.finish(TOOLS)
    assert recovered.calls == [RecoveredCall("control_devices", COMMAND)]


def test_a_held_filter_streams_nothing() -> None:
    """For device turns all text waits until the turn knows what was done."""
    stream = MarkupFilter(hold_all=True)
    assert stream.feed("我已经关了电饭煲。") == ""
    assert stream.finish(TOOLS).text == "我已经关了电饭煲。"


def test_the_command_tool_is_found_by_its_parameters() -> None:
    """The tool that takes entity commands is recognised from its schema, prefixed or not."""
    specs = [
        {"type": "function", "function": {"name": "get_datetime", "parameters": {"type": "object"}}},
        {
            "type": "function",
            "function": {
                "name": "layered_assist__control_devices",
                "parameters": {
                    "type": "object",
                    "properties": {
                        "commands": {
                            "type": "array",
                            "items": {
                                "type": "object",
                                "properties": {"entity_id": {}, "command": {}, "params": {}},
                            },
                        }
                    },
                },
            },
        },
    ]
    offered = OfferedTools.from_specs(specs)
    assert offered.command_tool == "layered_assist__control_devices"
    assert recover(COMMAND_JSON, offered).calls == [RecoveredCall("layered_assist__control_devices", COMMAND)]
