"""What a clause asks to be done, composed from its words: values, choices, directions, verbs.

Nothing here is a list of phrases tried in order. A number takes the unit after it
(26度, 30%, 3档) and the setting said near it (音量, brightness); a direction before it
makes it a change ("调低2度"), a verb of setting an absolute value ("dim to 30%"); a named
choice picks a mode, a level, a colour, a white or a preset; a verb switches, locks,
pauses. Every action remembers which pieces said it, so the words no action used are
known: with any of them, the clause is not understood whole.
"""

from collections.abc import Sequence
from dataclasses import dataclass, field

from .actions import IMPLIED, Action, ActionKind
from .concepts import FAN_MODE_KEYS, RELIEF
from .lexicon import Category
from .pieces import BOUNDARIES, Piece, Role

_SETS = {
    "temperature": ActionKind.SET_TEMPERATURE,
    "humidity": ActionKind.SET_HUMIDITY,
    "brightness": ActionKind.SET_BRIGHTNESS,
    "volume": ActionKind.SET_VOLUME,
    "speed": ActionKind.SET_SPEED,
    "position": ActionKind.SET_POSITION,
    "colour_temp": ActionKind.SET_COLOR_TEMP,
}
# More speeds than a fan has: a bare number above is a percentage ("风速调到60").
_MOST_SPEEDS = 12
_STEPS = {
    "temperature": ActionKind.ADJUST_TEMPERATURE,
    "brightness": ActionKind.ADJUST_BRIGHTNESS,
    "volume": ActionKind.ADJUST_VOLUME,
}
_VERBS = {
    "on": ActionKind.TURN_ON,
    "off": ActionKind.TURN_OFF,
    "lock": ActionKind.LOCK,
    "unlock": ActionKind.UNLOCK,
    "pause": ActionKind.PAUSE,
    "play": ActionKind.PLAY,
    "next": ActionKind.NEXT,
    "previous": ActionKind.PREVIOUS,
    "stop": ActionKind.STOP,
    "mute": ActionKind.MUTE,
    "unmute": ActionKind.UNMUTE,
    "dock": ActionKind.RETURN_HOME,
    "clean": ActionKind.START,
    "water": ActionKind.TURN_ON,
    "boil": ActionKind.TURN_ON,
}
_CHOICES = {
    "hvac": ActionKind.SET_HVAC_MODE,
    "level": ActionKind.SET_FAN_MODE,
    "colour": ActionKind.SET_COLOR,
    "white": ActionKind.SET_COLOR_TEMP,
    "preset": ActionKind.SET_PRESET,
}
# Settings that switch a light on or move a cover by themselves: "open the shade halfway" is
# only the position, "turn the lamp on at 30%" only the brightness.
_SWITCHING_SETTINGS = frozenset({ActionKind.SET_POSITION, ActionKind.SET_BRIGHTNESS})
# Switch on first, then pick a mode, then set values ("打开空调，调到制热26度").
_ORDER = {
    ActionKind.TURN_ON: 0,
    ActionKind.SET_HVAC_MODE: 1,
    ActionKind.SET_PRESET: 1,
    ActionKind.SET_FAN_MODE: 1,
}
# Verbs that only say something is to change ("调", "turn", "set"): the rest says what.
_LIGHT_VERBS = ("set", "adjust", "on_to")


@dataclass(slots=True)
class _Value:
    number: float
    unit: str | None
    index: int


@dataclass(slots=True)
class Composition:
    """The actions of a clause and the indexes of the pieces that said them."""

    pieces: Sequence[Piece]
    actions: list[Action] = field(default_factory=list)
    used: set[int] = field(default_factory=set)

    @property
    def attributes(self) -> list[tuple[int, str]]:
        """Return the settings said (亮度, volume) with their places."""
        return [(i, p.concept) for i, p in enumerate(self.pieces) if p.has(Category.ATTRIBUTE)]

    @property
    def directions(self) -> list[tuple[int, str]]:
        """Return the directions said (调高, dimmer) with their places."""
        return [(i, p.concept) for i, p in enumerate(self.pieces) if p.has(Category.DIRECTION)]

    def attribute_near(self, index: int) -> str | None:
        """Return the setting said nearest before a piece, else the first after it."""
        before = [name for i, name in self.attributes if i < index]
        after = [name for i, name in self.attributes if i > index]
        return before[-1] if before else after[0] if after else None

    def direction_for(self, index: int) -> tuple[int, str] | None:
        """Return the direction said before a piece, else after it."""
        return next(((i, d) for i, d in self.directions if i < index), None) or next(
            ((i, d) for i, d in self.directions if i > index), None
        )

    def use_attribute(self, name: str | None) -> None:
        """Mark the words of a setting as used."""
        self.used.update(i for i, attribute in self.attributes if attribute == name)

    def said(self, category: Category, *concepts: str) -> list[int]:
        """Return the indexes of the pieces read as this category (and concepts)."""
        return [
            i
            for i, p in enumerate(self.pieces)
            if p.has(category) and (not concepts or p.concept in concepts)
        ]


def _values(pieces: Sequence[Piece], used: set[int]) -> list[_Value]:
    """Return the numbers said with their units ("25度半" is 25.5 degrees; "half a degree" 0.5)."""
    values = []
    for index, piece in enumerate(pieces):
        previous = pieces[index - 1] if index else None
        after_number = previous is not None and (previous.role is Role.NUMBER or previous.has(Category.UNIT))
        if piece.has(Category.UNIT, "half") and not after_number:
            # "half a degree" is 0.5 of the unit after it; "half speed" is half the range.
            following = pieces[index + 1] if index + 1 < len(pieces) else None
            unit_after = following is not None and following.has(Category.UNIT)
            number = 0.5 if unit_after else 50.0
            used.add(index)
        elif piece.role is Role.NUMBER and piece.number is not None:
            number = piece.number
        else:
            continue
        unit: str | None = None if piece.role is Role.NUMBER or number == 0.5 else "percent"
        position = index + 1
        while position < len(pieces) and pieces[position].has(Category.UNIT):
            concept = pieces[position].concept
            if concept == "half":
                number += 0.5
            elif unit is None:
                unit = concept
            used.add(position)
            position += 1
        values.append(_Value(number, unit, index))
    return values


def _value_action(composition: Composition, value: _Value) -> Action | None:
    """Return what one number sets or changes, and mark the words that say so."""
    pieces = composition.pieces
    direction = composition.direction_for(value.index)
    # "dim the lights to 30%": "to" before the value sets it; with no direction, any verb of
    # setting does ("make that 22").
    absolute = any(
        pieces[i].has(Category.VERB, "set") or pieces[i].has(Category.VERB, "on_to")
        for i in range(max(0, value.index - 2), value.index)
    ) or (
        direction is None
        and any(p.has(Category.VERB, "adjust") or p.has(Category.VERB, "set") for p in pieces[: value.index])
    )
    sign = 0.0
    if direction is not None:
        composition.used.update(i for i, _ in composition.directions)
        if not absolute:
            sign = 1.0 if direction[1].startswith("up") else -1.0
    attribute = composition.attribute_near(value.index)
    if direction is not None and "." in direction[1]:
        attribute = direction[1].split(".", 1)[1]
    unit = value.unit
    fahrenheit = unit == "fahrenheit"
    if unit == "kelvin":
        # "色温调到四千K", "2700 kelvin": a white light's colour temperature.
        attribute = "colour_temp"
    if unit in ("degree", "fahrenheit") and not (
        unit == "degree" and attribute in ("humidity", "brightness", "volume", "speed")
    ):
        attribute = "temperature"
    composition.use_attribute(attribute)
    if unit == "level":
        if not sign:
            return Action(ActionKind.SET_SPEED_LEVEL, value.number)
        # "调快一档" is one step; more steps than one are not sure.
        return Action(ActionKind.INCREASE if sign > 0 else ActionKind.DECREASE) if value.number == 1 else None
    if sign:
        kind = (
            ActionKind.ADJUST_TEMPERATURE
            if attribute == "temperature"
            else _STEPS.get(attribute or "", ActionKind.ADJUST_VALUE)
        )
        return Action(kind, sign * value.number, fahrenheit=fahrenheit)
    if attribute == "speed" and unit != "percent" and value.number <= _MOST_SPEEDS:
        # "风速开到5": the fifth speed, not 5 %.
        return Action(ActionKind.SET_SPEED_LEVEL, value.number)
    if attribute in _SETS:
        return Action(_SETS[attribute], value.number, fahrenheit=fahrenheit)
    if unit == "percent":
        return Action(ActionKind.SET_POSITION, value.number)
    if absolute:
        # "调到26", "set it to 68": a bare number after a verb of setting.
        return Action(ActionKind.SET_VALUE, value.number)
    if said_alone(pieces, value.index):
        # "68." said on its own after "AC on": a temperature (never a light's brightness).
        composition.use_attribute("temperature")
        return Action(ActionKind.SET_TEMPERATURE, value.number)
    # A number with nothing that says what it sets ("2+3*4") sets nothing.
    return None


def said_alone(pieces: Sequence[Piece], index: int) -> bool:
    """Tell whether a number is all a clause says, but for hesitations and a "please".

    ("in 20", "for 30", "at 7" are no setting: a time or an amount; "1+" is a sum.)
    """
    return all(
        i == index
        or (p.role is Role.PUNCT and p.text in BOUNDARIES)
        or p.has(Category.FILLER, "hesitation")
        or p.has(Category.FILLER, "wake")
        or p.has(Category.MOOD, "request")
        for i, p in enumerate(pieces)
    )


def _choices(composition: Composition) -> None:
    """Add the named choices: modes, fan levels, colours, whites, presets."""
    speed_said = any(name == "speed" for _, name in composition.attributes)
    for index in composition.said(Category.OPTION):
        family, _, option = composition.pieces[index].concept.partition(".")
        if family in ("hvac", "preset") and option in FAN_MODE_KEYS and speed_said:
            # "风速改成自动", "set the mini split fan to quiet": the fan's speed, not a mode.
            family = "level"
        if family in _CHOICES:
            composition.actions.append(Action(_CHOICES[family], option=option))
            composition.used.add(index)
            for name in ("mode", "colour", "speed"):
                composition.use_attribute(name)


# A part of the way, as a position ("halfway", "a quarter of the way").
_FRACTIONS = {"half": 50.0, "quarter": 25.0, "three_quarters": 75.0}
# The settings a part of the way is a percentage of.
_PART_OF = {
    "brightness": ActionKind.SET_BRIGHTNESS,
    "speed": ActionKind.SET_SPEED,
    "volume": ActionKind.SET_VOLUME,
}


def _extremes(composition: Composition) -> None:
    """Add the far ends ("开到最大", "as bright as possible") and the middle ("一半", "halfway")."""
    for index in composition.said(Category.EXTREME):
        extreme, _, attribute = composition.pieces[index].concept.partition(".")
        attribute = attribute or composition.attribute_near(index) or ""
        highest = extreme == "max"
        if extreme in _FRACTIONS and attribute in _PART_OF:
            # "亮度调到一半": half the brightness, not the least of it.
            action = Action(_PART_OF[attribute], _FRACTIONS[extreme])
        elif attribute == "brightness":
            action = Action(ActionKind.SET_BRIGHTNESS, 100.0 if highest else 1.0)
        elif attribute == "speed":
            action = (
                Action(ActionKind.SET_SPEED, 100.0) if highest else Action(ActionKind.SET_SPEED_LEVEL, 1.0)
            )
        elif attribute == "volume" and highest:
            action = Action(ActionKind.SET_VOLUME, 100.0)
        elif extreme in _FRACTIONS:
            action = Action(ActionKind.SET_POSITION, _FRACTIONS[extreme])
        else:
            action = Action(ActionKind.SET_MAX if highest else ActionKind.SET_MIN)
        composition.actions.append(action)
        composition.used.add(index)
        # "turn it up to full": the direction is the way to the far end.
        composition.used.update(i for i, _ in composition.directions)
        composition.use_attribute(attribute)


def _directions(composition: Composition) -> None:
    """Add the changes said without a number ("亮一点", "调高一点", "风速调低").

    Not against the complaint beside it ("it's a bit stuffy up in the loft": hot, and "up"
    says where): that direction is left unexplained.
    """
    relief = {
        RELIEF[p.concept]
        for i in composition.said(Category.FEELING)
        if (p := composition.pieces[i]).concept in RELIEF
    }
    for index, concept in composition.directions:
        if index in composition.used or (relief and concept.partition(".")[0] not in relief):
            continue
        direction, _, attribute = concept.partition(".")
        attribute = attribute or composition.attribute_near(index) or ""
        up = direction == "up"
        if attribute in _STEPS:
            action = Action(_STEPS[attribute], 1.0 if up else -1.0)
        elif attribute in ("speed", ""):
            # "风速调低" is the fan's speed, never the temperature. "A bit" is kept as a step of
            # one: "lower the blind" closes it, "lower the blind a bit" moves it a step.
            step = 1.0 if composition.said(Category.AMOUNT, "bit") else None
            action = Action(
                ActionKind.INCREASE if up else ActionKind.DECREASE, step, option=attribute or None
            )
        else:
            continue
        composition.actions.append(action)
        composition.used.add(index)
        composition.use_attribute(attribute)


def _before_a_place(pieces: Sequence[Piece], index: int) -> bool:
    """Tell whether a word is followed by a place's name, with only small words between."""
    for piece in pieces[index + 1 :]:
        if piece.role is Role.NAME:
            return any(m.full and ":" in m.owner for m in piece.names)
        if not piece.has(Category.FILLER):
            return False
    return False


def _verb(composition: Composition, index: int, concept: str, setting: bool) -> None:
    """Add what one verb asks, where the rest of the clause leaves it something to do."""
    pieces, actions, used = composition.pieces, composition.actions, composition.used
    kind = _VERBS.get(concept)
    if concept == "on_to":
        # "把空调开到26度": switched on where that helps, then set.
        actions.append(Action(ActionKind.TURN_ON, option=IMPLIED if setting else None))
        used.add(index)
    elif concept in ("again", "more", "keep"):
        used.add(index)
    elif concept == "send":
        home = next(iter(composition.said(Category.GROUP, "home")), None)
        if home is not None:
            # "send it home": the vacuum's home.
            actions.append(Action(ActionKind.RETURN_HOME))
            used.update((index, home))
        elif composition.said(Category.VERB, "dock"):
            # "send the Deebot back to its dock".
            used.add(index)
    elif concept in ("oscillate", "still"):
        actions.append(Action(ActionKind.OSCILLATE, 1.0 if concept == "oscillate" else 0.0))
        used.add(index)
    elif kind is ActionKind.TURN_ON and (
        any(a.kind in _SWITCHING_SETTINGS for a in actions)
        or (index + 1 < len(pieces) and pieces[index + 1].has(Category.OPTION))
    ):
        # "open the shade halfway" is the position; "开制冷", "开乾衣" the mode.
        used.add(index)
    elif kind is ActionKind.TURN_OFF and setting and any(a.kind is ActionKind.INCREASE for a in actions):
        # "Turn off the desk lamp up in Marek's room": off and up together are not sure; the up is
        # left unexplained (it may say where).
        actions[:] = [a for a in actions if a.kind is not ActionKind.INCREASE]
        used.difference_update(i for i, concept in composition.directions if concept.startswith("up"))
        # It says where when a place follows it ("up in Marek's room"); then the off is sure.
        used.update(
            i for i, concept in composition.directions if concept == "up" and _before_a_place(pieces, i)
        )
        actions.append(Action(kind))
        used.add(index)
    elif kind is ActionKind.TURN_OFF and setting:
        # "关小一点", "close the curtains halfway": the setting says it all.
        used.add(index)
    elif kind in (ActionKind.TURN_ON, ActionKind.TURN_OFF) and any(
        i > index for i in composition.said(Category.AMOUNT, "bit")
    ):
        # "把窗帘降下来一点": a bit of the way (a step of one), not all of it; a 啲 before the verb
        # is no amount ("囡囡房啲窗簾打開佢": the room's curtains).
        actions.append(Action(kind, 1.0))
        used.add(index)
    elif kind is not None:
        actions.append(Action(kind))
        used.add(index)


# What may stand between a swing word and its on or off ("擺頭也開"): "also", "a bit", fillers.
_SMALL_WORDS = frozenset({Category.FILLER, Category.REFERENCE, Category.AMOUNT})


def _swing_switched(composition: Composition, verbs: list[tuple[int, str]]) -> None:
    """Read "擺頭關掉", "摇头也打开" as the swing switched, not the fan.

    The on or off verb must stand next to the swing word, with nothing but small words between:
    "打开风扇，再摇头" switches the fan on and sets it swinging.
    """
    pieces = composition.pieces
    swings = [i for i, concept in verbs if concept == "oscillate"]
    for index, concept in verbs:
        if concept not in ("on", "off") or not any(
            all(p.category in _SMALL_WORDS for p in pieces[min(i, index) + 1 : max(i, index)]) for i in swings
        ):
            continue
        switch = ActionKind.TURN_ON if concept == "on" else ActionKind.TURN_OFF
        composition.actions[:] = [
            (Action(ActionKind.OSCILLATE, 0.0) if a.kind is ActionKind.OSCILLATE and concept == "off" else a)
            for a in composition.actions
            if a.kind is not switch
        ]


def _verbs(composition: Composition) -> None:
    """Add the verbs: switch, lock, pause, mute, start, dock, swing."""
    setting = bool(composition.actions)
    volume = any(name == "volume" for _, name in composition.attributes) and not any(
        a.kind is ActionKind.SET_VOLUME for a in composition.actions
    )
    verbs = [(i, composition.pieces[i].concept) for i in composition.said(Category.VERB)]
    for index, concept in verbs:
        if concept in ("set", "adjust"):
            continue
        if volume and concept in ("on", "off") and not setting:
            # "把音箱的声音关掉" is muting it; "声音打开" unmuting.
            composition.actions.append(Action(ActionKind.MUTE if concept == "off" else ActionKind.UNMUTE))
            composition.used.add(index)
            composition.use_attribute("volume")
            continue
        _verb(composition, index, concept, setting)
    _swing_switched(composition, verbs)
    concepts = {concept for _, concept in verbs}
    if {"on", "off"} <= concepts:
        # "开关" said as two verbs: neither is sure.
        composition.actions[:] = [
            a for a in composition.actions if a.kind not in (ActionKind.TURN_ON, ActionKind.TURN_OFF)
        ]
    kinds = {a.kind for a in composition.actions}
    if ActionKind.PLAY in kinds and kinds & {ActionKind.NEXT, ActionKind.PREVIOUS}:
        # "播下一首", "play the next song": the next track is what is played.
        composition.actions[:] = [a for a in composition.actions if a.kind is not ActionKind.PLAY]
    if ActionKind.PLAY in kinds and ActionKind.START in kinds:
        # "让它继续扫", "carry on hoovering": what carries on is the cleaning.
        composition.actions[:] = [a for a in composition.actions if a.kind is not ActionKind.PLAY]
    if composition.actions:
        composition.used.update(i for i, concept in verbs if concept in _LIGHT_VERBS)


# Words that name the device by what it does: switched on, it is to do that ("turn on the heat",
# "开冷气": heating, cooling), whatever mode it was left in.
_MODES_AS_KINDS = ("hvac.heat", "hvac.cool")


def _mode_said_as_a_kind(composition: Composition) -> None:
    """Add the mode a device switched on is named by ("turn on the heat": heat mode)."""
    kinds = {a.kind for a in composition.actions}
    if ActionKind.TURN_ON not in kinds or ActionKind.SET_HVAC_MODE in kinds:
        return
    for piece in composition.pieces:
        if piece.has(Category.KIND) and piece.could_be(Category.OPTION, *_MODES_AS_KINDS):
            option = next(s.concept for s in piece.senses if s.concept in _MODES_AS_KINDS)
            composition.actions.append(Action(ActionKind.SET_HVAC_MODE, option=option.partition(".")[2]))
            return


def compose(pieces: Sequence[Piece]) -> Composition:
    """Return what a clause asks to be done, in the order to do it."""
    composition = Composition(pieces)
    for value in _values(pieces, composition.used):
        if (action := _value_action(composition, value)) is not None:
            composition.actions.append(action)
            composition.used.add(value.index)
    _choices(composition)
    _extremes(composition)
    _directions(composition)
    _verbs(composition)
    _mode_said_as_a_kind(composition)
    composition.used.update(composition.said(Category.AMOUNT))
    composition.actions[:] = sorted(dict.fromkeys(composition.actions), key=lambda a: _ORDER.get(a.kind, 2))
    return composition


def action_of_verb(concept: str) -> ActionKind | None:
    """Return the action a verb's concept asks for ("water": switched on), if it asks for one."""
    return _VERBS.get(concept)
