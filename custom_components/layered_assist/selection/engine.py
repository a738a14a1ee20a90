"""Recall and local action of one agent: candidates, sure targets, commands, local answers.

The one rule for acting locally: the sentence asks for something to be done now, every
clause that asks for it was understood whole (every word explained by the language data
or by its targets and their places) and every action maps onto every target's own
capabilities. Anything else is handed on.
"""

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
import re

from homeassistant.components import conversation
from homeassistant.core import HomeAssistant
from homeassistant.helpers import device_registry as dr, entity_registry as er

from ..const import LOGGER
from ..language.actions import IMPLIED, MEDIA_VERBS, MODIFIERS, Action, ActionKind
from ..language.concepts import GENERIC, KINDS
from ..language.lexicon import Category
from ..language.pieces import Piece, Role
from ..language.reading import Clause, Mood, Reading
from ..language.tokens import normalize
from ..localize import async_reply, is_chinese
from ..state import ConversationState
from ..turn import TurnOutcome
from .capabilities import CommandError
from .catalog import AREA, FLOOR, DeviceCatalog
from .describe import async_describe
from .execute import PlannedCommand, plan_command, spoken_names
from .local_commands import command_for_action, settled
from .recall import CONFIDENT_SCORE, Recall, RecallContext, Recaller, Segment, side_said

# Devices a setting does not switch on by itself: "把空调开到26度" switches it on first.
_SWITCHED_BY_ON = frozenset({"climate", "water_heater", "humidifier"})
# Kinds every plug or switch may be named: they make no two plugs alike.
_ANY_PLUG = GENERIC | {"plug"}


# The lists of a device's own options, with the command that picks one.
_OPTION_LISTS: dict[str, tuple[tuple[str, str, str], ...]] = {
    "media_player": (("source_list", "select_source", "source"),),
    "fan": (("preset_modes", "set_preset_mode", "preset_mode"),),
    "climate": (
        ("preset_modes", "set_preset_mode", "preset_mode"),
        ("fan_modes", "set_fan_mode", "fan_mode"),
    ),
    "humidifier": (("available_modes", "set_mode", "mode"),),
    "water_heater": (("operation_list", "set_operation_mode", "operation_mode"),),
}


# "HDMI one", "HDMI 一": the source HDMI1 ("one" stays a word elsewhere: "the lounge one").
_ONE = re.compile(r"\bone\b|一")
# Media verbs about what is played (the rest are about the sound).
_TRACK_VERBS = frozenset({ActionKind.PAUSE, ActionKind.STOP, ActionKind.NEXT, ActionKind.PREVIOUS})
_SOUNDING = frozenset({"playing", "on", "buffering"})


# A step, and the setting that makes it needless when both are said ("调暗一点，三成左右",
# "open the skylight a little, about 20 percent"): the value it comes to is what is meant.
_SETTING_OF_STEP = {
    "volume_up": "volume_set",
    "volume_down": "volume_set",
    "increase_speed": "set_percentage",
    "decrease_speed": "set_percentage",
    "open_cover": "set_cover_position",
    "close_cover": "set_cover_position",
    "open_valve": "set_valve_position",
    "close_valve": "set_valve_position",
}
_STEP_KEYS = {"brightness_step_pct": "brightness_pct"}
_POSITIONS = ("set_cover_position", "set_valve_position")


def _a_bit_of_the_way(action: Action) -> bool:
    """Tell whether an action opens or closes only a bit ("窗帘降下来一点")."""
    return action.kind in (ActionKind.TURN_ON, ActionKind.TURN_OFF) and action.value is not None


def _without_steps_to_a_setting(planned: list[PlannedCommand]) -> list[PlannedCommand]:
    """Drop a step of what is also set in the same turn ("Nest 喇叭校细声啲，三成左右": 30 %).

    Of two positions for one cover (a step "a little", then "about 20 percent"), the last said.
    """
    commands = {(c.entity_id, c.command) for c in planned}
    keys = {(c.entity_id, key) for c in planned for key in c.data}
    last = {(c.entity_id, c.command): c for c in planned if c.command in _POSITIONS}
    return [
        c
        for c in planned
        if (c.entity_id, _SETTING_OF_STEP.get(c.command)) not in commands
        and not any((c.entity_id, _STEP_KEYS[key]) in keys for key in c.data if key in _STEP_KEYS)
        and last.get((c.entity_id, c.command), c) is c
    ]


def _without_stand_in_switching(planned: list[PlannedCommand]) -> list[PlannedCommand]:
    """Drop a switching on made as a mode when the same turn sets a mode itself.

    "Turn on the mini split, heat" of a climate that cannot be switched on: heat, not first
    its first mode (cool) and then heat.
    """
    moded = {c.entity_id for c in planned if c.command == "set_hvac_mode"}
    return [
        c
        for c in planned
        if not (c.command == "turn_on" and c.service == "set_hvac_mode" and c.entity_id in moded)
    ]


def _option_key(text: str) -> str:
    """Return an option's name as compared with what was said ("High_Demand" = "high demand")."""
    return re.sub(r"[\s_\-]+", "", normalize(text))


def _before_mode(pieces: Sequence[Piece], index: int) -> bool:
    """Tell whether "mode" follows a word: "in heat pump mode" names a mode, not a device."""
    return index + 1 < len(pieces) and pieces[index + 1].has(Category.ATTRIBUTE, "mode")


def _says_mode_or_set(piece: Piece) -> bool:
    """Tell whether a piece is "mode" or a verb of setting (words an option may come with)."""
    return (
        piece.has(Category.ATTRIBUTE, "mode")
        or piece.has(Category.VERB, "set")
        or piece.has(Category.VERB, "adjust")
    )


# Actions that are a step from the setting as it is: "a bit more" repeats them.
_STEPS = frozenset(
    {
        ActionKind.ADJUST_TEMPERATURE,
        ActionKind.ADJUST_BRIGHTNESS,
        ActionKind.ADJUST_VOLUME,
        ActionKind.ADJUST_VALUE,
        ActionKind.INCREASE,
        ActionKind.DECREASE,
    }
)


def _remark(segment: Segment) -> bool:
    """Tell whether a clause only mentions something beside a request ("我想冲凉", "该睡觉了").

    A false start said again whole by the clause after ("幫我開…開埋露台燈") is one too.
    """
    if segment.clause.restarted:
        return True
    # ("and the back door" shares the verb before: a request; "Declan left it open" is none.)
    return (
        segment.clause.aside
        and (not segment.actions or segment.clause.mood is Mood.PAST)
        and not segment.unknown_places
    )


def _cannot(clause: Clause) -> bool:
    """Tell whether a clause's negation follows its verb: "睇唔清", "看不清" (can't see), not "不用调"."""
    pieces = clause.pieces
    return any(
        piece.has(Category.MOOD, "negation") and index > 0 and pieces[index - 1].has(Category.VERB)
        for index, piece in enumerate(pieces)
    )


def _kept(recall: Recall) -> dict[str, frozenset[ActionKind]]:
    """Return the devices a "don't" or "leave it" is about, with what not to do (empty: anything)."""
    kept: dict[str, frozenset[ActionKind]] = {}
    for segment in recall.commands:
        if segment.reason == "same-as-before" and not segment.actions and _cannot(segment.clause):
            # "書枱燈要白光呀，睇唔清": a "can't see" that asks nothing of a device is the reason,
            # not a "don't" ("冷氣開著就好，不用調" still is one).
            continue
        if segment.mood is Mood.NEGATION or segment.clause.keep:
            spared = frozenset() if segment.clause.keep else frozenset(a.kind for a in segment.actions)
            for target in segment.targets:
                before = kept.get(target)
                kept[target] = spared if before is None or not (before and spared) else before | spared
    return kept


def _is_on(state: str) -> bool:
    return state not in ("off", "unavailable", "unknown")


# What a state said of a group keeps ("开着的", "the ones that are on").
_IN_STATE: dict[str, Callable[[str], bool]] = {
    "on": _is_on,
    "off": lambda state: state == "off",
    "open": lambda state: state in ("open", "opening"),
    "closed": lambda state: state in ("closed", "closing"),
    "playing": lambda state: state == "playing",
}


@dataclass(frozen=True, slots=True)
class SelectionOptions:
    """Switches of the local layers."""

    fast_path: bool = True
    local_action: bool = True
    top_k: int = 10


def speaking_area(hass: HomeAssistant, user_input: conversation.ConversationInput) -> str | None:
    """Return the area of the device the user speaks through."""
    device_id = user_input.device_id
    satellite_id = getattr(user_input, "satellite_id", None)
    if device_id is None and satellite_id:
        registry_entry = er.async_get(hass).async_get(satellite_id)
        if registry_entry is not None:
            if registry_entry.area_id:
                return registry_entry.area_id
            device_id = registry_entry.device_id
    if device_id and (device := dr.async_get(hass).async_get(device_id)):
        return device.area_id
    return None


class SelectionEngine:
    """Layer 1 and local action for one agent: recall, plans and answers, no I/O but speech."""

    def __init__(self, hass: HomeAssistant, catalog: DeviceCatalog, options: SelectionOptions) -> None:
        """Bind to a catalog."""
        self.hass = hass
        self.catalog = catalog
        self.options = options
        self.recaller = Recaller(catalog, options.top_k)

    def rooms_of(self, entity_ids: list[str]) -> list[str]:
        """Return the areas of the given entities, in order."""
        rooms = [entry.area_id for e in entity_ids if (entry := self.catalog.entry(e)) and entry.area_id]
        return list(dict.fromkeys(rooms))

    def recall(self, reading: Reading, state: ConversationState, context_area: str | None) -> Recall:
        """Layer 1: candidates and, when sure, targets."""
        last_targets = tuple(dict.fromkeys(str(c.get("entity_id")) for c in state.last_commands))
        return self.recaller.recall(
            reading,
            RecallContext(
                context_area,
                tuple(state.recent_devices),
                tuple(state.recent_rooms),
                last_targets,
                just_acted=state.just_acted,
            ),
        )

    async def async_answer(self, recall: Recall, language: str) -> TurnOutcome | None:
        """Answer a question about sure devices from their states, or acknowledge a "don't"."""
        mood = recall.mood
        if not recall.confident:
            return None
        subjects = recall.targets
        if mood is Mood.COMMAND:
            return await self._async_unsupported(recall, language)
        if mood is Mood.NEGATION:
            if any(s.mood is Mood.COMMAND and s.targets and not _remark(s) for s in recall.commands):
                # "Not the ceiling light, just Tom's lamp": what is asked of the other is not said.
                return None
            names = spoken_names(self.hass, subjects, is_chinese(language))
            speech = await async_reply(self.hass, language, "negation_ack", {"names": names})
        elif (
            mood is Mood.QUESTION
            and all(self._asks_state(segment) for segment in recall.commands)
            and (described := await async_describe(self.hass, language, subjects))
        ):
            speech = described
        else:
            return None
        return TurnOutcome("local_answer", speech, subjects=subjects)

    async def _async_unsupported(self, recall: Recall, language: str) -> TurnOutcome | None:
        """Say which named device cannot take the mode, colour or extreme asked for."""
        if not self.options.local_action or len(recall.commands) != 1:
            return None
        segment = recall.commands[0]
        modifiers = [a for a in segment.actions if a.kind in MODIFIERS]
        if not modifiers or self.unexplained(segment):
            return None
        action = modifiers[0]
        unable = []
        for entity_id in segment.targets:
            try:
                if self._command(entity_id, action) is None:
                    unable.append(entity_id)
            except CommandError:
                unable.append(entity_id)
        if not unable:
            return None
        capability = await async_reply(self.hass, language, f"capability_{action.kind.value}")
        names = spoken_names(self.hass, unable, is_chinese(language))
        speech = await async_reply(
            self.hass, language, "unsupported", {"names": names, "capability": capability}
        )
        return TurnOutcome("local_answer", speech, subjects=list(segment.targets))

    def plan(
        self, recall: Recall, state: ConversationState, area: str | None = None, *, later: bool = False
    ) -> list[PlannedCommand] | None:
        """Return the commands the local rules are sure of, or None (the model decides).

        ``later``: plan a request for later ("十分钟后关灯") as if it were for now.
        """
        mood = Mood.LATER if later else Mood.COMMAND
        if not self.options.local_action or recall.mood is not mood:
            return None
        try:
            if recall.again:
                return self._replay(state, recall)
            time_alone = any(c.mood is Mood.LATER and not c.about_devices for c in recall.reading.clauses)
            if (
                later
                and not time_alone
                and any(s.mood is Mood.COMMAND and s.clause.actions for s in recall.commands)
            ):
                # "开灯，十分钟后再关": part now, part later is the model's.
                return None
            commands = [
                self._only_able(s)
                for s in recall.commands
                if s.mood in (Mood.COMMAND, mood) and not s.clause.keep and not _remark(s)
            ]
            kept = _kept(recall)
            # "这里好冷，把空调开到26度": a complaint beside a request is only its reason.
            allowed = (Mood.COMMAND, Mood.NEGATION, Mood.FEELING, mood)
            if not commands or any(s.mood not in allowed and not _remark(s) for s in recall.commands):
                return None
            if not all(
                s.confident and s.targets and (self._actions(s, state) or self._own_options(s))
                for s in commands
            ):
                if (player := self._playing_player(recall, area)) is None:
                    return None
                segment = recall.segments[0]
                return [c for a in segment.actions if (c := self._command(player, a))] or None
            planned: list[PlannedCommand] = []
            partly: set[str] = set()
            for segment in commands:
                if any(
                    target in kept and (not kept[target] or kept[target] & {a.kind for a in segment.actions})
                    for target in segment.targets
                ):
                    # "走廊灯别关，把它关了": told both; but "电视不用关，把声音关掉" only mutes it.
                    return None
                own = self._own_options(segment)
                actions = self._actions(segment, state)
                if own is not None:
                    # "switch the water heater to high demand", "开电视看Netflix": the device's own words.
                    planned.extend(own)
                    actions = tuple(a for a in actions if a.kind is ActionKind.TURN_ON)
                elif (fan := self._thermostat_fan(segment, actions)) is not None:
                    actions = fan
                elif self.unexplained(segment):
                    return None
                for entity_id in self._in_state_said(segment):
                    for action in actions:
                        if action.option == IMPLIED and not self._needs_switching_on(entity_id):
                            continue
                        if (command := self._command(entity_id, action)) is None:
                            if _a_bit_of_the_way(action):
                                partly.add(entity_id)
                                continue
                            return None
                        planned.append(command)
        except CommandError as err:
            LOGGER.debug("Local plan rejected: %s", err)
            return None
        # "Open the skylight a little, about 20 percent": a bit of the way, then how far; a bit
        # of the way alone is no sure position.
        if partly - {c.entity_id for c in planned if c.command in _SETTING_OF_STEP.values()}:
            return None
        # A device said twice ("扫地机器人，让它扫一下地") gets its command once.
        unique = {(c.entity_id, c.service, repr(sorted(c.data.items()))): c for c in planned}
        return _without_steps_to_a_setting(_without_stand_in_switching(list(unique.values()))) or None

    def _only_able(self, segment: Segment) -> Segment:
        """Take, of devices of different kinds a name fits equally, the only one with the option asked for.

        "Set the Meaco to laundry mode": the dehumidifier has a laundry mode, the Meaco fan none.
        """
        top = segment.candidates[0] if segment.candidates else None
        if (
            segment.confident
            or top is None
            or top.score < CONFIDENT_SCORE
            or top.name_score < 0.6
            or not segment.actions
            or not all(a.option for a in segment.actions)
        ):
            return segment
        leaders = [c for c in segment.candidates if c.score == top.score and c.name_score == top.name_score]
        able = []
        for candidate in leaders:
            try:
                if all(self._command(candidate.entity_id, a) is not None for a in segment.actions):
                    able.append(candidate.entity_id)
            except CommandError:
                continue
        # Only devices of different domains (a brand's fan and its dehumidifier): of two air
        # conditioners named alike, which one is meant is for the user to say.
        domains = [c.entity_id.split(".", 1)[0] for c in leaders]
        if len(leaders) < 2 or len(set(domains)) != len(domains) or len(able) != 1:
            return segment
        return replace(segment, targets=(able[0],), confident=True, reason="only-able")

    def _thermostat_fan(self, segment: Segment, actions: tuple[Action, ...]) -> tuple[Action, ...] | None:
        """Return the fan mode a thermostat's fan is switched to ("run the fan on the ecobee": on).

        Only when the one word left over is the fan and every target has "on" among its fan modes
        (ecobee, Nest): switched off, the fan goes back to "auto".
        """
        rest = set(self.unexplained(segment))
        fan_words = {
            p.text
            for p in segment.clause.pieces
            if p.could_be(Category.KIND, "fan") or p.could_be(Category.ATTRIBUTE, "speed")
        }
        kinds = {a.kind for a in actions}
        if not rest or not rest <= fan_words or kinds not in ({ActionKind.TURN_ON}, {ActionKind.TURN_OFF}):
            return None
        mode = "on" if kinds == {ActionKind.TURN_ON} else "auto"
        for entity_id in segment.targets:
            state = self.hass.states.get(entity_id)
            if (
                state is None
                or state.domain != "climate"
                or mode not in (state.attributes.get("fan_modes") or ())
            ):
                return None
        return (Action(ActionKind.SET_FAN_MODE, option=mode),)

    def _in_state_said(self, segment: Segment) -> tuple[str, ...]:
        """Return a group's targets in the state its clause says ("开着的空调全关了": those on)."""
        said = {p.concept for p in segment.clause.pieces if p.has(Category.STATE)} & _IN_STATE.keys()
        if len(segment.targets) < 2 or len(said) != 1:
            return segment.targets
        wanted = _IN_STATE[said.pop()]
        return tuple(
            entity_id
            for entity_id in segment.targets
            if (current := self.hass.states.get(entity_id)) is not None and wanted(current.state)
        )

    def _actions(self, segment: Segment, state: ConversationState) -> tuple[Action, ...]:
        """Return what a clause asks of its targets, when its words say it only by their kind.

        "执行回家场景", "幫我掃廚房" (a script's name): a scene or script said is run; so is one
        said alone whose name is a command (全屋熄燈, 睡觉模式); "Jack's room too", "儿童房的也关了":
        what was done last, to these devices as well.
        """
        if segment.reason == "routine":
            # "叫掃地機掃客廳": the room's cleaning script is run.
            return (Action(ActionKind.TURN_ON),)
        if segment.actions:
            return segment.actions
        clause = segment.clause
        domains = {t.split(".", 1)[0] for t in segment.targets}
        light_verb = any(p.has(Category.VERB, "set") or p.has(Category.VERB, "adjust") for p in clause.pieces)
        if (
            segment.targets
            and domains <= {"scene", "script", "button"}
            and (light_verb or clause.name_commands)
        ):
            # "set the living room to Relax", "客厅转 Relax": a scene said with a verb is run (a scene
            # named 拜拜 is not run by a goodbye).
            return (Action(ActionKind.TURN_ON),)
        if clause.also and state.last_commands:
            recorded = Action.from_record(state.last_commands[-1].get("action"))
            if recorded is not None:
                return (recorded,)
        return ()

    def _own_options(self, segment: Segment) -> list[PlannedCommand] | None:
        """Return the commands that pick an option a clause names in its targets' own words, or None.

        The option is what is said after the last verb of setting ("to high demand", "睇 Netflix"),
        one of the lists of the device's own options (sources, presets, modes, fan modes).
        """
        clause = segment.clause
        pieces = clause.pieces
        if not segment.targets or not any(
            p.role is Role.UNKNOWN or (p.has(Category.KIND) and _before_mode(pieces, i))
            for i, p in enumerate(pieces)
        ):
            return None
        verbs = [
            i for i, p in enumerate(pieces) if p.has(Category.VERB) and p.concept in ("set", "adjust", "on")
        ]
        after = pieces[(verbs[-1] + 1 if verbs else 0) :]
        said = [
            p
            for index, p in enumerate(after)
            if p.role in (Role.UNKNOWN, Role.WORD, Role.NUMBER)
            and not (
                p.has(Category.FILLER)
                or p.has(Category.MOOD)
                or (p.has(Category.KIND) and not _before_mode(after, index))
                or _says_mode_or_set(p)
            )
        ]
        before = {p.text for p in pieces[: verbs[-1] if verbs else 0] if p.role is Role.UNKNOWN}
        if not said or before:
            return None
        text = " ".join(p.text for p in said)
        words = {_option_key(text), _option_key(_ONE.sub("1", text))}
        planned = []
        for entity_id in segment.targets:
            state = self.hass.states.get(entity_id)
            if state is None:
                return None
            options = [
                (command, {field: option}, _option_key(str(option)))
                for attribute, command, field in _OPTION_LISTS.get(state.domain, ())
                for option in state.attributes.get(attribute) or ()
            ]
            found = next(((command, data) for command, data, key in options if key in words), None)
            if found is None:
                # "切到防黴" of 防黴抑菌: the start of one option's name, and of no other's.
                starting = [
                    (command, data)
                    for command, data, key in options
                    if any(len(word) >= 2 and key.startswith(word) for word in words)
                ]
                if not starting:
                    # "Put iPlayer on the telly" of "BBC iPlayer": every word said is one of its words.
                    said_words = set(normalize(text).split())
                    starting = [
                        (command, data)
                        for command, data, _ in options
                        if said_words <= set(normalize(str(next(iter(data.values())))).split())
                    ]
                if len(starting) != 1:
                    return None
                found = starting[0]
            planned.append(plan_command(self.hass, entity_id, found[0], found[1]))
        return planned

    def _needs_switching_on(self, entity_id: str) -> bool:
        """Tell whether "开到…" should switch the device on first: it is off and is switched, not moved."""
        state = self.hass.states.get(entity_id)
        domain = entity_id.split(".", 1)[0]
        # Switching on what is on already does no harm (the state may be stale).
        return state is not None and domain in _SWITCHED_BY_ON

    def unexplained(self, segment: Segment) -> list[str]:
        """Return the words of a clause its targets and the language data do not explain."""
        clause = segment.clause
        targets = [entry for t in segment.targets if (entry := self.catalog.entry(t))]
        rest = list(clause.unexplained)
        if targets and all(e.domain in ("scene", "script") for e in targets):
            # "开启看电影模式": a scene is a mode; "set the living room to Relax" runs it.
            rest = [w for w in rest if not any(p.text == w and _says_mode_or_set(p) for p in clause.pieces)]
        # "Fan on high" of an air conditioner: the kind word says its fan.
        its_fan = segment.reason == "fan-of-the-last"
        if segment.reason == "side":
            # "右边床头灯": the side said is the one the target's name has.
            _, saying = side_said(clause)
            rest = [w for w in rest if w not in saying]
        target_ids = {e.entity_id for e in targets}
        places = {
            f"{AREA}{p.id}" if p.id in self.catalog.areas else f"{FLOOR}{p.id}"
            for e in targets
            for p in self.catalog.places_of(e)
        }
        places |= {f"{AREA}{a}" for a in segment.areas} | {f"{FLOOR}{f}" for f in segment.floors}
        domains = {e.domain for e in targets}
        if segment.reason == "routine":
            # The vacuum told to do it is what the routine works.
            target_ids |= {e.entity_id for e in self.catalog.entries.values() if e.domain == "vacuum"}
        if segment.reason == "part-of-device":
            # "晾衫架盏灯": the airer's own light; the airer's name and kind say whose.
            devices = {e.device_id for e in targets if e.device_id}
            siblings = [e for e in self.catalog.entries.values() if e.device_id in devices]
            domains |= {e.domain for e in siblings}
            target_ids |= {e.entity_id for e in siblings}
        for piece in clause.pieces:
            kind = KINDS.get(piece.concept) if piece.has(Category.KIND) else None
            if piece.role is Role.NAME:
                owners = {m.owner for m in piece.names}
                # A kind word read as the kind (电扇 among fans) is used by a target of the kind.
                as_kind = (
                    piece.text == segment.read_as_kind and kind is not None and domains & set(kind.domains)
                )
                if not owners & (target_ids | places) and not as_kind:
                    rest.append(piece.text)
            elif kind is not None and not domains & set(kind.domains) and not its_fan:
                rest.append(piece.text)
        if rest:
            LOGGER.debug("Not acting locally on %r: %r is not understood", clause.text, rest)
        return rest

    def _asks_state(self, segment: Segment) -> bool:
        """Tell whether a question is only about its devices' state ("what time is it" is not)."""
        return not [w for w in self.unexplained(segment) if w != segment.clause.text]

    async def async_why_not(self, recall: Recall, language: str) -> str | None:
        """Say why a sentence the local layers did not carry out needs the model (local-only mode)."""
        mood = recall.mood
        if mood is Mood.CONDITION or mood is Mood.PAST:
            return await async_reply(self.hass, language, f"local_only_{mood.value}")
        if not recall.is_device_command:
            return None
        if not recall.confident:
            return await async_reply(self.hass, language, "local_only_which")
        for segment in recall.commands:
            light_verbs = {
                p.text
                for p in segment.clause.pieces
                if p.has(Category.VERB, "set") or p.has(Category.VERB, "adjust")
            }
            if rest := [
                w for w in self.unexplained(segment) if w != segment.clause.text and w not in light_verbs
            ]:
                words = {"words": "".join(rest) if is_chinese(language) else " ".join(rest)}
                return await async_reply(self.hass, language, "local_only_unclear", words)
        return None

    def _playing_player(self, recall: Recall, area: str | None) -> str | None:
        """Return the media player a bare media verb is for (暂停, 下一首, louder).

        Only when the sentence names nothing and is only that verb: the one player that
        is playing (paused, to resume), preferring the speaker's room.
        """
        if len(recall.commands) != 1:
            return None
        segment = recall.commands[0]
        clause = segment.clause
        if not segment.actions or any(a.kind not in MEDIA_VERBS for a in segment.actions):
            return None
        if segment.areas or segment.floors or segment.targets or clause.references or clause.group:
            # "把它音量调小", "所有音箱都暂停": the sentence says which.
            return None
        if clause.unexplained or clause.entity_names or segment.domains - {"media_player"}:
            return None
        kind = segment.actions[0].kind
        # Louder or quieter is for whatever is sounding: a TV that is on as much as a speaker
        # that plays ("声音调大点" with the TV on and 小度 playing says neither).
        wanted = {"paused"} if kind is ActionKind.PLAY else {"playing"} if kind in _TRACK_VERBS else _SOUNDING
        players = [
            entry
            for entry in self.catalog.entries.values()
            if entry.domain == "media_player"
            and (state := self.hass.states.get(entry.entity_id)) is not None
            and state.state in wanted
        ]
        in_room = [entry for entry in players if entry.area_id == area]
        chosen = in_room if area is not None and in_room else players
        return chosen[0].entity_id if len(chosen) == 1 else None

    def _command(self, entity_id: str, action: Action) -> PlannedCommand | None:
        """Plan one entity's command for an action."""
        state = self.hass.states.get(entity_id)
        if state is None or self.catalog.entry(entity_id) is None:
            return None
        mapped = command_for_action(self.hass, state, action)
        if mapped is None:
            return None
        action = settled(action, state.domain)
        record = {
            "kind": action.kind.value,
            "value": action.value,
            "fahrenheit": action.fahrenheit,
            "option": action.option,
        }
        return plan_command(self.hass, entity_id, mapped[0], mapped[1], record)

    def _like_all_before(self, others: Sequence[str], done_to: set[str]) -> bool:
        """Tell whether the devices said now are of every domain done to before, and alike.

        (Plugs alike by what their names say they work: a kettle's and a water dispenser's are
        no electric blanket's.)
        """
        if {t.split(".", 1)[0] for t in others} != {t.split(".", 1)[0] for t in done_to}:
            return False
        before = [e for t in done_to if (e := self.catalog.entry(t)) is not None and e.domain == "switch"]
        return all(
            (entry := self.catalog.entry(target)) is not None
            and (
                entry.domain != "switch"
                or any((entry.named_kinds & b.named_kinds) - _ANY_PLUG for b in before)
            )
            for target in others
        )

    def _replay(self, state: ConversationState, recall: Recall) -> list[PlannedCommand] | None:
        """Plan the last commands again ("再来一次"), re-reading relative actions.

        Said of other devices ("书房的也一样" after the living room's air conditioner), the
        last commands are those devices' own: each takes what was done to its domain.
        """
        if any(s.clause.more for s in recall.segments) and any(
            (action := Action.from_record(r.get("action"))) is None or action.kind not in _STEPS
            for r in state.last_commands
        ):
            return None  # "a bit more" after "set it to 22": more of what is not said
        others = [t for s in recall.segments for t in s.targets]
        if any(
            not s.confident and (s.targets or s.areas or s.floors or s.clause.entity_names or s.clause.kinds)
            for s in recall.segments
        ):
            # "书房的也一样" with no device there that is like the last: not the last ones again.
            return None
        last = [(str(r.get("entity_id")), r) for r in state.last_commands]
        done_to = {entity_id for entity_id, _ in last}
        if others and set(others) <= done_to:
            # "主卧的再来一次" after two rooms: only the devices said, again.
            last = [(entity_id, record) for entity_id, record in last if entity_id in others]
        elif others:
            if len({repr(record.get("action") or record.get("command")) for _, record in last}) != 1:
                # Which of the last devices each new one is like is not said. (One thing done to
                # every light of a room is, "餐厅的也一样": the same to the lights there.)
                return None
            domains_before = {entity_id.split(".", 1)[0] for entity_id in done_to}
            if any(target.split(".", 1)[0] not in domains_before for target in others):
                return None  # a device said that nothing done before fits
            if len(done_to) > 1 and not self._like_all_before(others, done_to):
                # "关掉客厅灯和客厅空调" … "卧室的也一样" finding only the bedroom's lights: half.
                return None
            record = last[0][1]
            last = [(target, record) for target in others]
        planned = []
        for entity_id, record in last:
            if (action := Action.from_record(record.get("action"))) is not None:
                command = self._command(entity_id, action)
            elif self.catalog.entry(entity_id) is not None:
                command = plan_command(self.hass, entity_id, str(record.get("command")), record.get("params"))
            else:
                command = None
            if command is None:
                return None
            planned.append(command)
        return planned or None
