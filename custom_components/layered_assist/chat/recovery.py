"""Tool calls that models write as text, recovered; and markup kept out of what is spoken.

Small models served by llama.cpp or Ollama often write the call they mean into the
reply instead of ``tool_calls``: a bare JSON object, a fenced ```json block, a
``<tool_call>`` or ``<tools>`` tag, doubled braces, or a command name where the tool
name goes with the entity in the arguments. Each is turned back into a call of an
offered tool, which the chat log then validates and runs exactly like a native one;
whatever is left is plain text, and no JSON or tag of a call is ever spoken.
"""

from collections.abc import Collection, Iterator, Mapping
from dataclasses import dataclass, field
import json
import re
from typing import Any

# Where markup may begin: text from here on is held until the message is complete.
_MARKUP_START = re.compile(r"[{\[<`]")
# Tags models wrap calls in; the tag itself is never text.
_TAG = re.compile(r"</?\s*(?:tool_call|tool_calls|tools|function_call|function|functions)\b[^>]*>", re.I)
_FENCE = re.compile(r"```[a-zA-Z]*")
# Keys models use for the tool's name and for its arguments.
_NAME_KEYS = ("name", "tool", "tool_name", "function", "action")
_ARGUMENT_KEYS = ("arguments", "parameters", "args", "input", "params")
_IDENTIFIER = re.compile(r"[A-Za-z_][\w.:-]*")
_OPENING = re.compile(r"[{\[]")
_DECODER = json.JSONDecoder()


@dataclass(frozen=True, slots=True)
class RecoveredCall:
    """A call read from the text: an offered tool's name and its arguments."""

    name: str
    arguments: dict[str, Any]


@dataclass(slots=True)
class Recovered:
    """What a reply's text held: calls, and the text without any markup."""

    calls: list[RecoveredCall] = field(default_factory=list)
    text: str = ""


@dataclass(frozen=True, slots=True)
class OfferedTools:
    """The names of the tools a request offered, and which of them takes device commands."""

    names: frozenset[str]
    # The tool whose arguments are {"commands": [{"entity_id", "command", "params"}]}.
    command_tool: str | None = None

    @classmethod
    def from_specs(cls, specs: Collection[Mapping[str, Any]]) -> "OfferedTools":
        """Read the OpenAI function specs of a request."""
        names: set[str] = set()
        command_tool = None
        for spec in specs:
            function = spec.get("function") or {}
            name = function.get("name")
            if not isinstance(name, str):
                continue
            names.add(name)
            if _takes_commands(function.get("parameters")):
                command_tool = name
        return cls(frozenset(names), command_tool)


def _takes_commands(parameters: Any) -> bool:
    """Tell whether a tool's parameters are a list of entity commands."""
    if not isinstance(parameters, Mapping):
        return False
    commands = (parameters.get("properties") or {}).get("commands")
    if not isinstance(commands, Mapping):
        return False
    item = commands.get("items")
    properties = item.get("properties") if isinstance(item, Mapping) else None
    return isinstance(properties, Mapping) and {"entity_id", "command"} <= set(properties)


class MarkupFilter:
    """Lets plain text through as it streams and holds back anything that may be markup."""

    def __init__(self, *, hold_all: bool = False) -> None:
        """``hold_all`` holds every character until the end (device turns)."""
        self._hold_all = hold_all
        self._held = ""

    def feed(self, text: str) -> str:
        """Return the part of ``text`` that can be spoken now."""
        if self._hold_all or self._held:
            self._held += text
            return ""
        if (start := _MARKUP_START.search(text)) is None:
            return text
        self._held = text[start.start() :]
        return text[: start.start()]

    def finish(self, tools: OfferedTools) -> Recovered:
        """Return the calls in what was held, and the rest of it as text."""
        held, self._held = self._held, ""
        return recover(held, tools)


def recover(text: str, tools: OfferedTools) -> Recovered:
    """Read the calls out of a reply's text and return them with the text that is left."""
    result = Recovered()
    if not text:
        return result
    spoken: list[str] = []
    position = 0
    for start, end, value in _json_values(text):
        spoken.append(text[position:start])
        position = end
        result.calls.extend(_calls(value, tools))
    spoken.append(text[position:])
    result.text = _without_markup("".join(spoken))
    return result


def _json_values(text: str) -> Iterator[tuple[int, int, Any]]:
    """Yield (start, end, value) of every JSON object or array of objects in the text."""
    position = 0
    while (match := _OPENING.search(text, position)) is not None:
        start = match.start()
        decoded = _decode_at(text, start)
        if decoded is None:
            position = start + 1
            continue
        value, end = decoded
        yield start, end, value
        position = end


def _decode_at(text: str, start: int) -> tuple[Any, int] | None:
    """Decode the JSON value at ``start``; doubled braces ``{{…}}}`` are read as single."""
    try:
        value, end = _DECODER.raw_decode(text, start)
    except json.JSONDecodeError:
        if not text.startswith("{{", start):
            return None
        inner = _decode_at(text, start + 1)
        if inner is None:
            return None
        value, end = inner
        if text.startswith("}", end):
            end += 1
        return value, end
    if isinstance(value, list) and not all(isinstance(item, Mapping) for item in value):
        return None
    if not isinstance(value, (Mapping, list)):
        return None
    return value, end


def _calls(value: Any, tools: OfferedTools) -> list[RecoveredCall]:
    """Return the calls a decoded JSON value names (none when it is not a call)."""
    if isinstance(value, list):
        return [call for item in value for call in _calls(item, tools)]
    if not isinstance(value, Mapping):
        return []
    if isinstance(value.get("tool_calls"), list):
        return _calls(value["tool_calls"], tools)
    function = value.get("function")
    if isinstance(function, Mapping):  # the OpenAI shape, {"type": "function", "function": {…}}
        return _calls(function, tools)
    name = next((value[key] for key in _NAME_KEYS if isinstance(value.get(key), str)), None)
    if name is None:
        # A bare command list, or a single command, meant for the command tool.
        if tools.command_tool and ("commands" in value or {"entity_id", "command"} <= set(value)):
            return [RecoveredCall(tools.command_tool, _as_commands(value))]
        return []
    arguments = _arguments(value)
    if (offered := _offered_name(name, tools)) is not None:
        if offered == tools.command_tool:
            arguments = _as_commands(arguments)
        return [RecoveredCall(offered, arguments)]
    if tools.command_tool and "entity_id" in arguments:
        # A command or a service ("turn_off", "light.turn_off") given as the tool's name.
        command = name.rsplit(".", 1)[-1]
        return [RecoveredCall(tools.command_tool, _as_commands({**arguments, "command": command}))]
    if _IDENTIFIER.fullmatch(name) is None:
        return []  # a name that is no identifier ("客厅灯"): data the model printed, not a call
    # An unknown tool: kept, so the chat log answers it with an error the model can read.
    return [RecoveredCall(name, arguments)]


def _arguments(value: Mapping[str, Any]) -> dict[str, Any]:
    """Return a call's arguments: under an arguments key (maybe as a JSON string), or beside the name."""
    for key in _ARGUMENT_KEYS:
        arguments = value.get(key)
        if isinstance(arguments, str):
            try:
                arguments = json.loads(arguments)
            except json.JSONDecodeError:
                continue
        if isinstance(arguments, Mapping):
            return dict(arguments)
    return {key: item for key, item in value.items() if key not in _NAME_KEYS and key != "type"}


def _offered_name(name: str, tools: OfferedTools) -> str | None:
    """Return the offered tool a written name means (``functions.x`` and ``api__x`` are ``x``)."""
    if name in tools.names:
        return name
    bare = re.split(r"[.:/]|__", name)[-1]
    matches = [offered for offered in tools.names if re.split(r"__", offered)[-1] == bare]
    return matches[0] if len(matches) == 1 else None


def _as_commands(arguments: Mapping[str, Any]) -> dict[str, Any]:
    """Return command-tool arguments in their one shape, {"commands": [...]}."""
    commands = arguments.get("commands")
    if isinstance(commands, list):
        return {"commands": [_command(item) for item in commands if isinstance(item, Mapping)]}
    if isinstance(commands, Mapping):
        return {"commands": [_command(commands)]}
    entity_ids = arguments.get("entity_id")
    if isinstance(entity_ids, list):
        return {"commands": [_command({**arguments, "entity_id": e}) for e in entity_ids]}
    return {"commands": [_command(arguments)]}


def _command(item: Mapping[str, Any]) -> dict[str, Any]:
    """Return one command with its parameters under ``params``, where the tool expects them."""
    command: dict[str, Any] = {key: item[key] for key in ("entity_id", "command") if key in item}
    params = dict(item["params"]) if isinstance(item.get("params"), Mapping) else {}
    params.update(
        (key, value) for key, value in item.items() if key not in ("entity_id", "command", "params")
    )
    if params:
        command["params"] = params
    return command


def _without_markup(text: str) -> str:
    """Return the text with fences, call tags and what an unclosed tag or fence began removed."""
    text = _FENCE.sub("", text)
    text = _TAG.sub("", text)
    # A call cut off mid-way (a length stop): nothing from its first brace on is speech.
    if (cut := re.search(r"[{\[]\s*\"", text)) is not None:
        text = text[: cut.start()]
    return re.sub(r"[ \t]+\n", "\n", text).strip()
