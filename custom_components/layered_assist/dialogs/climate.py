"""The climate confirmation dialog: collect temperature and humidity, confirm, then apply.

One implementation serves the conversation (turns answered locally), the model tool,
the HA service and the HA intent. The dialog lives in the conversation's state, so it
survives restarts and expires with it.
"""

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
import time
from typing import Any, Self

from homeassistant.const import ATTR_ENTITY_ID, ATTR_FRIENDLY_NAME, UnitOfTemperature
from homeassistant.core import Context, HomeAssistant, State
from homeassistant.exceptions import HomeAssistantError, ServiceValidationError, Unauthorized

from ..const import DOMAIN
from ..language.actions import ActionKind
from ..language.lexicon import Category
from ..language.reading import Reading, read
from ..language.tokens import prepare
from ..localize import async_reply, is_chinese
from ..selection.capabilities import CLIMATE_TARGET_HUMIDITY
from ..selection.catalog import DeviceCatalog
from ..selection.local_commands import command_for_action
from ..selection.recall import CONFIDENT_SCORE, Recall, RecallContext, Recaller
from .values import Values, read_values

STAGE_INIT, STAGE_COLLECTING, STAGE_CONFIRMING = "init", "collecting", "confirming"
TARGET_DOMAINS = ("climate", "humidifier")


@dataclass(frozen=True, slots=True)
class ClimateOptions:
    """The dialog's settings from the agent options."""

    min_temperature: float = -10.0
    max_temperature: float = 50.0
    min_humidity: float = 0.0
    max_humidity: float = 100.0
    timeout: float = 300.0
    presets: Mapping[str, tuple[float, float]] = field(default_factory=dict)


@dataclass
class ClimateDialog:
    """The stored state of one climate dialog."""

    stage: str = STAGE_INIT
    temperature: float | None = None
    humidity: float | None = None
    temperature_raw: str | None = None
    humidity_raw: str | None = None
    target: str | None = None
    created_at: float = field(default_factory=time.time)
    updated_at: float = field(default_factory=time.time)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        """Read a stored dialog."""
        known = {k: data[k] for k in cls.__dataclass_fields__ if k in data}
        return cls(**known)

    def as_dict(self) -> dict[str, Any]:
        """Return the dialog for storage and the service response."""
        return asdict(self)


@dataclass(slots=True)
class DialogReply:
    """What the dialog says back, and its result once confirmed."""

    speech: str
    dialog: ClimateDialog | None
    result: dict[str, Any] | None = None
    done: bool = False


def starts_climate_dialog(reading: Reading) -> bool:
    """Tell whether an utterance opens the dialog: it names both temperature and humidity.

    (The 度 of 湿度 is part of the word: "湿度调到50" alone is a humidity command.)
    """
    pieces = reading.pieces
    if any(p.could_be(Category.ATTRIBUTE, "temperature_and_humidity") for p in pieces):
        return True
    temperature = any(
        p.could_be(Category.ATTRIBUTE, "temperature") or p.could_be(Category.UNIT, "degree", "fahrenheit")
        for p in pieces
    )
    return temperature and any(p.could_be(Category.ATTRIBUTE, "humidity") for p in pieces)


class ClimateDialogEngine:
    """Advances a climate dialog by one utterance or by structured arguments."""

    def __init__(self, hass: HomeAssistant, catalog: DeviceCatalog | None, options: ClimateOptions) -> None:
        """Bind to HA and the device catalog (for targets)."""
        self.hass = hass
        self.catalog = catalog
        self.options = options

    @property
    def unit(self) -> str:
        """Return HA's temperature unit."""
        return self.hass.config.units.temperature_unit

    def recall_of(self, text: str) -> Recall:
        """Return the reading and recall of a sentence said outside a conversation turn."""
        reading = read(text, self.hass.config.language, self.catalog.names if self.catalog else None)
        if self.catalog is None:
            return Recall(reading, (), ())
        return Recaller(self.catalog).recall(reading, RecallContext())

    def find_target(self, text: str) -> str | None:
        """Return the climate or humidifier a sentence names, when Layer 1 is sure."""
        return self._target_of(self.recall_of(text))

    @staticmethod
    def _target_of(recall: Recall | None) -> str | None:
        """Return the one climate or humidifier a reading names."""
        if recall is None:
            return None
        # Only a device the user named, or named by its kind and place ("主人房冷气"): 湿度 alone
        # must not pick the only humidifier.
        targets = {
            t
            for s in recall.segments
            if s.confident and (s.clause.entity_names or (s.clause.kinds and (s.areas or s.floors)))
            for t in s.targets
            if t.split(".", 1)[0] in TARGET_DOMAINS
        }
        return targets.pop() if len(targets) == 1 else None

    def _for_a_device_itself(self, recall: Recall | None) -> bool:
        """Tell whether a preset word is some device's own: another kind, or the named one's mode."""
        if recall is None:
            return False
        named = [t for s in recall.segments if s.confident for t in s.targets]
        # "set the Meaco to sleep mode" of a Meaco fan and a Meaco dehumidifier: a device named,
        # though which one is not sure.
        named += [
            c.entity_id
            for s in recall.segments
            if not s.confident
            for c in s.candidates
            if c.name_score >= CONFIDENT_SCORE
        ]
        domains = {t.split(".", 1)[0] for t in named}
        # 模式 alone reads as a scene; only a named scene is another device.
        domains |= {d for s in recall.segments for d in s.primary_domains if d != "scene"}
        if domains - set(TARGET_DOMAINS):
            return True
        # "主卧加湿器调到睡眠模式": the humidifier's own sleep mode, not the dialog's preset.
        presets = [a for s in recall.segments for a in s.actions if a.kind is ActionKind.SET_PRESET]
        return any(
            (state := self.hass.states.get(t)) is not None and command_for_action(self.hass, state, action)
            for action in presets
            for t in named
        )

    def resolve_target(self, target: str | None) -> str | None:
        """Return an exposed climate/humidifier from an entity id or a name, or raise."""
        if not target:
            return None
        entry = self.catalog.entry(target) if self.catalog is not None else None
        if entry is not None and entry.domain in TARGET_DOMAINS:
            return target
        if (found := self.find_target(target)) is not None:
            return found
        raise ServiceValidationError(
            translation_domain=DOMAIN,
            translation_key="climate_target_unknown",
            translation_placeholders={"target": target},
        )

    async def async_utterance(
        self,
        dialog: ClimateDialog | None,
        recall: Recall,
        language: str,
        context: Context,
    ) -> DialogReply | None:
        """Advance by what the user said (the turn's reading and recall); None when not for the dialog."""
        reading = recall.reading
        prepared, answers = reading.prepared, reading.answers
        if dialog is None:
            if "cancel" in answers:
                # "取消温湿度设置" with no dialog open: there is nothing to cancel or start.
                return None
            preset = self._preset(prepared)
            starts = starts_climate_dialog(reading)
            if not starts and preset is None:
                return None
            if not starts and self._for_a_device_itself(recall):
                # "把净化器调到睡眠模式" is the purifier's preset, not this dialog's.
                return None
            dialog = ClimateDialog(stage=STAGE_COLLECTING, target=self._target_of(recall))
            values = (
                read_values(prepared, self.unit)
                if preset is None
                else Values(preset[0], prepared, preset[1], prepared)
            )
            return await self._async_take(dialog, values, language)
        if "cancel" in answers:
            return DialogReply(await self._say(language, "dialog_cancelled"), None)
        if dialog.stage == STAGE_CONFIRMING and "confirm" in answers:
            return await self.async_confirm(dialog, language, context)
        expecting = (
            "temperature" if dialog.temperature is None else "humidity" if dialog.humidity is None else None
        )
        values = read_values(prepared, self.unit, expecting)
        preset = self._preset(prepared)
        if preset is not None:
            values = Values(preset[0], prepared, preset[1], prepared)
        if values.temperature is None and values.humidity is None:
            if dialog.stage == STAGE_CONFIRMING and "refuse" in answers:
                dialog.stage = STAGE_COLLECTING
                dialog.updated_at = time.time()
                return DialogReply(await self._say(language, "dialog_what_to_change"), dialog)
            if "confirm" in answers:
                return await self._async_take(dialog, values, language)
            return None
        return await self._async_take(dialog, values, language)

    async def async_arguments(
        self,
        dialog: ClimateDialog | None,
        language: str,
        *,
        temperature: Any = None,
        humidity: Any = None,
        confirm: bool = False,
        cancel: bool = False,
        target: str | None = None,
        context: Context,
    ) -> DialogReply:
        """Advance by structured arguments (model tool, service, intent)."""
        if cancel:
            return DialogReply(await self._say(language, "dialog_cancelled"), None)
        dialog = dialog or ClimateDialog(stage=STAGE_COLLECTING)
        if target:
            dialog.target = self.resolve_target(target)
        values = Values()
        if temperature is not None:
            # A number alone is in the home's unit, as HA's climate actions take it.
            values = read_values(prepare(_with_unit(temperature, "°")), self.unit)
            if values.temperature is None:
                raise ServiceValidationError(
                    translation_domain=DOMAIN,
                    translation_key="not_a_temperature",
                    translation_placeholders={"value": str(temperature)},
                )
        if humidity is not None:
            humid = read_values(prepare(_with_unit(humidity, "%")), self.unit, "humidity")
            if humid.humidity is None:
                raise ServiceValidationError(
                    translation_domain=DOMAIN,
                    translation_key="not_a_humidity",
                    translation_placeholders={"value": str(humidity)},
                )
            values = Values(values.temperature, values.temperature_raw, humid.humidity, humid.humidity_raw)
        if values.temperature is not None or values.humidity is not None or dialog.stage != STAGE_CONFIRMING:
            reply = await self._async_take(dialog, values, language)
            if not (confirm and reply.dialog is not None and reply.dialog.stage == STAGE_CONFIRMING):
                return reply
            dialog = reply.dialog
        if confirm and dialog.stage == STAGE_CONFIRMING:
            return await self.async_confirm(dialog, language, context)
        return await self._async_take(dialog, Values(), language)

    async def _async_take(self, dialog: ClimateDialog, values: Values, language: str) -> DialogReply:
        """Record valid values, then ask for what is missing or for confirmation."""
        dialog.updated_at = time.time()
        low_t, high_t, low_h, high_h = self._ranges(dialog.target)
        problems = []
        if values.temperature is not None:
            if low_t <= values.temperature <= high_t:
                dialog.temperature, dialog.temperature_raw = values.temperature, values.temperature_raw
            else:
                problems.append(
                    await self._say(
                        language,
                        "dialog_temperature_range",
                        low=self._temperature_text(low_t),
                        high=self._temperature_text(high_t),
                    )
                )
        if values.humidity is not None:
            if low_h <= values.humidity <= high_h:
                dialog.humidity, dialog.humidity_raw = values.humidity, values.humidity_raw
            else:
                problems.append(
                    await self._say(language, "dialog_humidity_range", low=f"{low_h:g}%", high=f"{high_h:g}%")
                )
        if dialog.temperature is None:
            dialog.stage = STAGE_COLLECTING
            question = await self._say(language, "dialog_ask_temperature")
        elif dialog.humidity is None:
            dialog.stage = STAGE_COLLECTING
            question = await self._say(language, "dialog_ask_humidity")
        else:
            dialog.stage = STAGE_CONFIRMING
            question = await self._summary(dialog, language)
        return DialogReply(_join(language, [*problems, question]), dialog)

    async def async_confirm(self, dialog: ClimateDialog, language: str, context: Context) -> DialogReply:
        """Apply the confirmed values (to the target, if any) as the confirming user; end the dialog."""
        values = self._values(dialog)
        result: dict[str, Any] = {**values, "confirm": True}
        if dialog.target is None:
            return DialogReply(await self._say(language, "dialog_done", **values), None, result, done=True)
        try:
            missing = await self._async_apply(dialog, context)
        except Unauthorized:
            name = _name(self.hass.states.get(dialog.target), dialog.target)
            refused = await self._say(language, "not_permitted", names=name)
            return DialogReply(refused + ("。" if is_chinese(language) else "."), None)
        name = _name(self.hass.states.get(dialog.target), dialog.target)
        speech = await self._say(language, "dialog_done_target", target=name, **values)
        if missing:
            speech = _join(language, [speech, await self._say(language, f"dialog_no_{missing}", target=name)])
        return DialogReply(speech, None, result, done=True)

    async def _async_apply(self, dialog: ClimateDialog, context: Context) -> str | None:
        """Set the target (and a partner in its area); return the value that could not be set."""
        assert dialog.target is not None
        target = self.hass.states.get(dialog.target)
        if target is None:
            raise HomeAssistantError(
                translation_domain=DOMAIN,
                translation_key="climate_target_unavailable",
                translation_placeholders={"target": dialog.target},
            )
        missing = None
        climate = target if target.domain == "climate" else self._partner(dialog.target, "climate")
        humidifier = None
        if (
            climate is not None
            and int(climate.attributes.get("supported_features") or 0) & CLIMATE_TARGET_HUMIDITY
        ):
            humidity_target: State | None = climate
        else:
            humidifier = (
                target if target.domain == "humidifier" else self._partner(dialog.target, "humidifier")
            )
            humidity_target = humidifier
        if climate is not None:
            await self.hass.services.async_call(
                "climate",
                "set_temperature",
                {ATTR_ENTITY_ID: climate.entity_id, "temperature": dialog.temperature},
                blocking=True,
                context=context,
            )
        else:
            missing = "temperature"
        if humidity_target is not None:
            await self.hass.services.async_call(
                humidity_target.domain,
                "set_humidity",
                {ATTR_ENTITY_ID: humidity_target.entity_id, "humidity": round(dialog.humidity or 0)},
                blocking=True,
                context=context,
            )
        else:
            missing = "humidity"
        return missing

    def _partner(self, entity_id: str, domain: str) -> State | None:
        """Return an exposed entity of a domain in the same area as the target."""
        if self.catalog is None or (entry := self.catalog.entry(entity_id)) is None or entry.area_id is None:
            return None
        for other in self.catalog.entries.values():
            if other.domain == domain and other.area_id == entry.area_id:
                return self.hass.states.get(other.entity_id)
        return None

    def _ranges(self, target: str | None) -> tuple[float, float, float, float]:
        """Return the allowed ranges, narrowed to the target's own limits."""
        options = self.options
        low_t, high_t = options.min_temperature, options.max_temperature
        if self.unit == UnitOfTemperature.FAHRENHEIT:
            low_t, high_t = (round(v * 9 / 5 + 32) for v in (low_t, high_t))
        low_h, high_h = options.min_humidity, options.max_humidity
        state = self.hass.states.get(target) if target else None
        if state is not None:
            attributes = state.attributes
            low_t = max(low_t, float(attributes.get("min_temp", low_t)))
            high_t = min(high_t, float(attributes.get("max_temp", high_t)))
            low_h = max(low_h, float(attributes.get("min_humidity", low_h)))
            high_h = min(high_h, float(attributes.get("max_humidity", high_h)))
        return low_t, high_t, low_h, high_h

    def _preset(self, prepared: str) -> tuple[float, float] | None:
        for name, values in self.options.presets.items():
            if prepare(name) in prepared:
                return values
        return None

    def _temperature_text(self, value: float) -> str:
        symbol = "℃" if self.unit == UnitOfTemperature.CELSIUS else "℉"
        return f"{value:g}{symbol}"

    def _values(self, dialog: ClimateDialog) -> dict[str, str]:
        """Return the dialog's values as spoken (22℃, 60%)."""
        assert dialog.temperature is not None
        assert dialog.humidity is not None
        return {
            "temperature": self._temperature_text(dialog.temperature),
            "humidity": f"{dialog.humidity:g}%",
        }

    async def _summary(self, dialog: ClimateDialog, language: str) -> str:
        values = self._values(dialog)
        if dialog.target:
            name = _name(self.hass.states.get(dialog.target), dialog.target)
            return await self._say(language, "dialog_confirm_target", target=name, **values)
        return await self._say(language, "dialog_confirm", **values)

    async def _say(self, language: str, key: str, **placeholders: str) -> str:
        return await async_reply(self.hass, language, key, placeholders)


def _with_unit(value: Any, unit: str) -> str:
    """Return a structured value as text the parser reads ("22" → "22°")."""
    text = str(value).strip()
    return f"{text}{unit}" if text.replace(".", "", 1).lstrip("-").isdigit() else text


def _name(state: State | None, fallback: str) -> str:
    return str(state.attributes.get(ATTR_FRIENDLY_NAME, fallback)) if state else fallback


def _join(language: str, parts: list[str]) -> str:
    return ("" if is_chinese(language) else " ").join(p for p in parts if p)
