"""More shapes of calls written as text, the tools a request offers, and text that only looks like JSON."""

import pytest

from custom_components.layered_assist.chat.recovery import OfferedTools, RecoveredCall, recover

TOOLS = OfferedTools(frozenset({"control_devices", "get_datetime"}), command_tool="control_devices")
NO_COMMAND_TOOL = OfferedTools(frozenset({"get_datetime"}))
ONE = '{"entity_id": "switch.rice_cooker", "command": "turn_off"}'
COMMAND = {"commands": [{"entity_id": "switch.rice_cooker", "command": "turn_off"}]}


def test_offered_tools_from_request_specs() -> None:
    """Specs without a name are skipped; only a tool taking entity commands is the command tool."""
    specs = [
        {"type": "function", "function": {"parameters": {"type": "object"}}},
        {"type": "function", "function": {"name": "get_datetime", "parameters": None}},
        {"type": "function", "function": {"name": "search", "parameters": {"properties": {"commands": "x"}}}},
        {
            "type": "function",
            "function": {
                "name": "list_things",
                "parameters": {"properties": {"commands": {"type": "array", "items": {"type": "string"}}}},
            },
        },
        {
            "type": "function",
            "function": {
                "name": "control_devices",
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
    tools = OfferedTools.from_specs(specs)
    assert tools.names == frozenset({"get_datetime", "search", "list_things", "control_devices"})
    assert tools.command_tool == "control_devices"
    assert OfferedTools.from_specs(specs[:4]).command_tool is None


@pytest.mark.parametrize(
    "text",
    [
        '{"commands": [' + ONE + "]}",
        ONE,
        '{"name": "control_devices", "arguments": {"commands": ' + ONE + "}}",
    ],
    ids=["bare-command-list", "bare-command", "commands-as-one-object"],
)
def test_commands_without_a_tool_name_go_to_the_command_tool(text: str) -> None:
    """Commands written with no tool name, or one command not in a list, are a call of the command tool."""
    recovered = recover(text, TOOLS)
    assert recovered.calls == [RecoveredCall("control_devices", COMMAND)]
    assert recovered.text == ""


def test_commands_are_no_call_when_no_tool_takes_them() -> None:
    """Without a command tool a bare command is no call, and its JSON is still not spoken."""
    recovered = recover("好的。" + ONE, NO_COMMAND_TOOL)
    assert recovered.calls == []
    assert recovered.text == "好的。"


def test_the_tool_calls_envelope() -> None:
    """The calls of a whole OpenAI message written as text are read; entries that are no call are not."""
    recovered = recover(
        '{"tool_calls": [{"type": "function", "function": {"name": "get_datetime", "arguments": "{}"}}, '
        '"oops"]}',
        TOOLS,
    )
    assert recovered.calls == [RecoveredCall("get_datetime", {})]
    assert recovered.text == ""


def test_arguments_that_are_no_json_are_read_beside_the_name() -> None:
    """An arguments string that is not JSON is not dropped silently: the call keeps what was written."""
    recovered = recover('{"name": "get_datetime", "arguments": "now please", "timezone": "UTC"}', TOOLS)
    assert recovered.calls == [RecoveredCall("get_datetime", {"arguments": "now please", "timezone": "UTC"})]


@pytest.mark.parametrize(
    "text",
    ["The numbers are [1, 2, 3].", "Write {{name}} where the name goes.", "Sets like {1, 2} are fine."],
    ids=["array-of-numbers", "template-braces", "set-braces"],
)
def test_brackets_that_are_no_call_are_spoken(text: str) -> None:
    """Arrays of plain values and braces that are not JSON are text, said as written."""
    recovered = recover(text, TOOLS)
    assert recovered.calls == []
    assert recovered.text == text
