"""Provision the development Home Assistant once it answers: onboarding, a demo home, the agent.

Runs against a real HA over its public REST and WebSocket APIs, as a user's browser
would, so nothing here depends on HA's internals. Everything it does is idempotent:
a finished config directory is left as it is.
"""

import argparse
import asyncio
from collections import Counter
import json
import os
from pathlib import Path
import sys
from typing import Any

import aiohttp

PORT = 8123
URL = f"http://127.0.0.1:{PORT}"
USERNAME = "demo"
PASSWORD = "layered-assist"
TOKEN_FILE = ".layered_assist_token"
CUSTOMIZE_FILE = "customize.yaml"
# How long provisioning waits for HA's demo entities, and how often it looks.
ENTITY_TIMEOUT = 180.0
ENTITY_POLL = 0.5
VERIFY_TIMEOUT = 30.0
CONFIGURATION = """\
homeassistant:
  name: Layered Assist (development)
  unit_system: metric
  time_zone: Asia/Shanghai
  country: CN
  language: zh-Hans
  # Names of demo entities that have no registry entry (written by the provisioner).
  customize: !include customize.yaml

http:
  server_host: 127.0.0.1
  server_port: {port}

# The UI, Assist and HA's demo entities, without default_config's hardware integrations.
frontend:
config:
conversation:
assist_pipeline:
demo:
history:
logbook:
system_health:

logger:
  default: info
  logs:
    custom_components.layered_assist: debug
"""

FLOORS = {"一楼": 0, "二楼": 1}
AREAS = {"客厅": "一楼", "厨房": "一楼", "玄关": "一楼", "车库": "一楼", "主卧": "二楼", "书房": "二楼"}
AREAS_EN = {
    "客厅": "Living room",
    "厨房": "Kitchen",
    "玄关": "Hallway",
    "车库": "Garage",
    "主卧": "Master bedroom",
    "书房": "Study",
}
FLOORS_EN = {"一楼": "Ground floor", "二楼": "First floor"}
# HA's demo entities, renamed and placed: entity id → (Chinese name, English name, area).
ENTITIES: dict[str, tuple[str, str, str | None]] = {
    "light.ceiling_lights": ("客厅吊灯", "Living room ceiling light", "客厅"),
    "light.living_room_rgbww_lights": ("客厅氛围灯", "Living room ambient light", "客厅"),
    "light.bed_light": ("床头灯", "Bedside lamp", "主卧"),
    "light.kitchen_lights": ("厨房灯", "Kitchen light", "厨房"),
    "light.office_rgbw_lights": ("书房灯", "Study light", "书房"),
    "light.entrance_color_white_lights": ("玄关灯", "Hallway light", "玄关"),
    "climate.hvac": ("客厅空调", "Living room AC", "客厅"),
    "climate.heatpump": ("主卧空调", "Bedroom AC", "主卧"),
    "climate.ecobee": ("书房空调", "Study AC", "书房"),
    "humidifier.humidifier": ("主卧加湿器", "Bedroom humidifier", "主卧"),
    "humidifier.dehumidifier": ("客厅除湿机", "Living room dehumidifier", "客厅"),
    "cover.living_room_window": ("客厅窗帘", "Living room curtain", "客厅"),
    "cover.hall_window": ("主卧窗帘", "Bedroom curtain", "主卧"),
    "cover.kitchen_window": ("厨房窗户", "Kitchen window", "厨房"),
    "cover.garage_door": ("车库门", "Garage door", "车库"),
    "fan.living_room_fan": ("客厅风扇", "Living room fan", "客厅"),
    "fan.ceiling_fan": ("主卧吊扇", "Bedroom ceiling fan", "主卧"),
    "media_player.living_room": ("客厅电视", "Living room TV", "客厅"),
    "media_player.bedroom": ("主卧音箱", "Bedroom speaker", "主卧"),
    "lock.front_door": ("大门锁", "Front door lock", "玄关"),
    "lock.kitchen_door": ("厨房门锁", "Kitchen door lock", "厨房"),
    "switch.decorative_lights": ("装饰灯带", "Decorative lights", "客厅"),
    "switch.ac": ("书房插座", "Study socket", "书房"),
    "sensor.outside_temperature": ("室外温度", "Outside temperature", None),
    "sensor.outside_humidity": ("室外湿度", "Outside humidity", None),
    "weather.demo_weather_south": ("天气", "Weather", None),
}


def prepare(config_dir: Path, port: int) -> None:
    """Write the configuration (once) and link the integration from the working tree."""
    config_dir.mkdir(parents=True, exist_ok=True)
    configuration = config_dir / "configuration.yaml"
    if not configuration.exists():
        configuration.write_text(CONFIGURATION.format(port=port))
    customize = config_dir / CUSTOMIZE_FILE
    if not customize.exists():
        customize.write_text("{}\n")
    custom = config_dir / "custom_components"
    custom.mkdir(exist_ok=True)
    link = custom / "layered_assist"
    if link.is_symlink() or link.exists():
        link.unlink()
    link.symlink_to(Path(__file__).resolve().parent.parent / "custom_components" / "layered_assist")


class Provisioner:
    """Talks to the running HA."""

    def __init__(
        self, session: aiohttp.ClientSession, config_dir: Path, english: bool, url: str = URL
    ) -> None:
        """Keep the session and where the token is stored."""
        self.url = url
        self.client_id = f"{url}/"
        self.session = session
        self.config_dir = config_dir
        self.english = english
        self.token = ""
        self._ws: aiohttp.ClientWebSocketResponse | None = None
        self._id = 0

    async def wait_until_up(self) -> None:
        """Wait for HA's HTTP server (the first start installs packages and takes a while)."""
        for _ in range(600):
            try:
                async with self.session.get(f"{self.url}/api/onboarding") as response:
                    # 200 once onboarding is loaded (also after it is done).
                    if response.status == 200:
                        return
            except aiohttp.ClientError:
                pass
            await asyncio.sleep(1)
        sys.exit("Home Assistant did not start within 10 minutes")

    async def onboard(self) -> bool:
        """Create the demo user and finish onboarding; return False when done before."""
        async with self.session.get(f"{self.url}/api/onboarding") as response:
            steps = await response.json()
        if all(step["done"] for step in steps):
            return False
        language = "en" if self.english else "zh-Hans"
        body = {
            "client_id": self.client_id,
            "name": "Demo",
            "username": USERNAME,
            "password": PASSWORD,
            "language": language,
        }
        async with self.session.post(f"{self.url}/api/onboarding/users", json=body) as response:
            response.raise_for_status()
            code = (await response.json())["auth_code"]
        form = {"grant_type": "authorization_code", "code": code, "client_id": self.client_id}
        async with self.session.post(f"{self.url}/auth/token", data=form) as response:
            response.raise_for_status()
            self.token = (await response.json())["access_token"]
        for step, payload in (
            ("core_config", {}),
            ("analytics", {}),
            ("integration", {"client_id": self.client_id, "redirect_uri": f"{self.url}/?auth_callback=1"}),
        ):
            async with self.session.post(
                f"{self.url}/api/onboarding/{step}", json=payload, headers=self._headers
            ) as response:
                response.raise_for_status()
        return True

    @property
    def _headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}

    async def ws(self, command: str, **data: Any) -> Any:
        """Send one WebSocket command and return its result."""
        if self._ws is None:
            self._ws = await self.session.ws_connect(f"{self.url}/api/websocket")
            await self._ws.receive_json()
            await self._ws.send_json({"type": "auth", "access_token": self.token})
            if (await self._ws.receive_json())["type"] != "auth_ok":
                sys.exit("WebSocket authentication failed")
        self._id += 1
        await self._ws.send_json({"id": self._id, "type": command, **data})
        while True:
            message = await self._ws.receive_json()
            if message.get("id") == self._id and message["type"] == "result":
                if not message["success"]:
                    raise RuntimeError(f"{command}: {message['error']}")
                return message["result"]

    async def remove_integration(self, domain: str) -> None:
        """Remove an integration onboarding added that the demo does not need."""
        for entry in await self.ws("config_entries/get", domain=domain):
            url = f"{self.url}/api/config/config_entries/entry/{entry['entry_id']}"
            async with self.session.delete(url, headers=self._headers) as response:
                response.raise_for_status()

    async def build_home(self) -> None:
        """Floors, areas, names and exposure of the demo entities."""
        floor_name = (lambda name: FLOORS_EN[name]) if self.english else (lambda name: name)
        area_name = (lambda name: AREAS_EN[name]) if self.english else (lambda name: name)
        floors = {}
        for floor, level in FLOORS.items():
            created = await self.ws("config/floor_registry/create", name=floor_name(floor), level=level)
            floors[floor] = created["floor_id"]
        for area in await self.ws("config/area_registry/list"):
            await self.ws("config/area_registry/delete", area_id=area["area_id"])
        areas = {}
        for area, floor in AREAS.items():
            created = await self.ws(
                "config/area_registry/create", name=area_name(area), floor_id=floors[floor]
            )
            areas[area] = created["area_id"]
        entries = await self.wait_for_entities()
        devices = Counter(entry["device_id"] for entry in entries.values() if entry.get("device_id"))
        for entity_id, (zh, en, area) in ENTITIES.items():
            if (entry := entries.get(entity_id)) is None:
                continue
            name = en if self.english else zh
            area_id = areas[area] if area else None
            if _named_by_device(entry, devices):
                # Named by its own device, as HA names such entities (since 2026.4 an
                # entity's name follows its device's and it takes the device's area).
                await self.ws(
                    "config/device_registry/update",
                    device_id=entry["device_id"],
                    name_by_user=name,
                    area_id=area_id,
                )
                await self.ws("config/entity_registry/update", entity_id=entity_id, name=None, area_id=None)
            else:
                await self.ws(
                    "config/entity_registry/update", entity_id=entity_id, name=name, area_id=area_id
                )
        await self.name_unregistered(set(ENTITIES) - set(entries))
        # Entities without a registry entry can still be exposed.
        existing = {state["entity_id"] for state in await self.ws("get_states")}
        others = sorted(existing - ENTITIES.keys())
        await self.ws(
            "homeassistant/expose_entity", assistants=["conversation"], entity_ids=others, should_expose=False
        )
        ours = [e for e in ENTITIES if e in existing]
        await self.ws(
            "homeassistant/expose_entity", assistants=["conversation"], entity_ids=ours, should_expose=True
        )
        await self.verify_home(areas)

    async def name_unregistered(self, entity_ids: set[str]) -> None:
        """Name demo entities that have no registry entry (no unique id) through customize."""
        lines = [
            f"{entity_id}:\n  friendly_name: {json.dumps(ENTITIES[entity_id][1 if self.english else 0])}"
            for entity_id in sorted(entity_ids)
        ]
        (self.config_dir / CUSTOMIZE_FILE).write_text("\n".join(lines) + "\n" if lines else "{}\n")
        await self.ws("call_service", domain="homeassistant", service="reload_core_config")
        if entity_ids:
            # Entities take the new names when they next write their state.
            await self.ws(
                "call_service",
                domain="homeassistant",
                service="update_entity",
                target={"entity_id": sorted(entity_ids)},
            )

    async def verify_home(self, areas: dict[str, str]) -> None:
        """Read the home back as a user sees it; exit with what differs instead of "ready"."""
        for _ in range(int(VERIFY_TIMEOUT / ENTITY_POLL)):
            if not (problems := await self.home_problems(areas)):
                return
            # Names reach the states a moment after the registries.
            await asyncio.sleep(ENTITY_POLL)
        sys.exit("The demo home was not provisioned as intended:\n  " + "\n  ".join(problems))

    async def home_problems(self, areas: dict[str, str]) -> list[str]:
        """Return how the home differs from the intended one."""
        states = {state["entity_id"]: state for state in await self.ws("get_states")}
        entries = {entry["entity_id"]: entry for entry in await self.ws("config/entity_registry/list")}
        devices = {device["id"]: device for device in await self.ws("config/device_registry/list")}
        exposed = (await self.ws("homeassistant/expose_entity/list"))["exposed_entities"]
        problems = []
        for entity_id, (zh, en, area) in ENTITIES.items():
            name = en if self.english else zh
            shown = states.get(entity_id, {}).get("attributes", {}).get("friendly_name")
            if shown != name:
                problems.append(f"{entity_id}: named {shown!r}, expected {name!r}")
            if (entry := entries.get(entity_id)) is not None:
                device = devices.get(entry.get("device_id") or "", {})
                placed = entry.get("area_id") or device.get("area_id")
                if placed != (areas[area] if area else None):
                    problems.append(f"{entity_id}: in area {placed!r}, expected {area!r}")
            if not exposed.get(entity_id, {}).get("conversation"):
                problems.append(f"{entity_id}: not exposed to Assist")
        return problems

    async def wait_for_entities(self, timeout: float = ENTITY_TIMEOUT) -> dict[str, dict[str, Any]]:
        """Wait until every demo entity we manage has a state; return their registry entries.

        HA's demo integration adds its entities a few seconds after HA answers (later on
        a busy machine); renaming before that would silently skip them.
        """
        missing: set[str] = set(ENTITIES)
        for _ in range(int(timeout / ENTITY_POLL)):
            missing = set(ENTITIES) - {state["entity_id"] for state in await self.ws("get_states")}
            if not missing:
                registered = {entry["entity_id"] for entry in await self.ws("config/entity_registry/list")}
                return {
                    entity_id: await self.ws("config/entity_registry/get", entity_id=entity_id)
                    for entity_id in sorted(registered & set(ENTITIES))
                }
            await asyncio.sleep(ENTITY_POLL)
        sys.exit(f"HA's demo entities did not appear within {timeout:.0f} s: {', '.join(sorted(missing))}")

    async def add_agent(self) -> str:
        """Configure Layered Assist (local-only unless the environment names an endpoint)."""
        base_url = os.environ.get("LAYERED_ASSIST_BASE_URL", "")
        flow = await self._post("/api/config/config_entries/flow", {"handler": "layered_assist"})
        data = {"base_url": base_url}
        if api_key := os.environ.get("LAYERED_ASSIST_API_KEY"):
            data["api_key"] = api_key
        result = await self._post(f"/api/config/config_entries/flow/{flow['flow_id']}", data)
        if result.get("step_id") == "model":
            model = os.environ.get("LAYERED_ASSIST_MODEL", "gpt-4o-mini")
            result = await self._post(f"/api/config/config_entries/flow/{flow['flow_id']}", {"model": model})
        if result.get("type") != "create_entry":
            sys.exit(f"Layered Assist could not be configured: {result}")
        return "conversation.layered_assist"

    async def _post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        async with self.session.post(f"{self.url}{path}", json=body, headers=self._headers) as response:
            result: dict[str, Any] = await response.json()
            return result

    async def use_agent_in_pipeline(self, agent_id: str) -> None:
        """Make a pipeline with our agent the preferred one."""
        language = "en" if self.english else "zh-Hans"
        pipeline = await self.ws(
            "assist_pipeline/pipeline/create",
            conversation_engine=agent_id,
            conversation_language=language,
            language=language,
            name="Layered Assist",
            stt_engine=None,
            stt_language=None,
            tts_engine=None,
            tts_language=None,
            tts_voice=None,
            wake_word_entity=None,
            wake_word_id=None,
        )
        await self.ws("assist_pipeline/pipeline/set_preferred", pipeline_id=pipeline["id"])

    async def store_token(self) -> None:
        """Keep a long-lived token for scripts/chat."""
        token = await self.ws("auth/long_lived_access_token", client_name="scripts/chat", lifespan=3650)
        path = self.config_dir / TOKEN_FILE
        path.write_text(token)
        path.chmod(0o600)


def _named_by_device(entry: dict[str, Any], devices: Counter[str]) -> bool:
    """Tell whether an entity takes its name from its device, which has no other entity."""
    device_id = entry.get("device_id")
    return bool(
        device_id
        and entry.get("has_entity_name", True)
        and entry.get("original_name") is None
        and devices[device_id] == 1
    )


async def main() -> None:
    """Provision once; print how to log in."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--config", type=Path, required=True)
    parser.add_argument("--en", action="store_true", help="English names and pipeline")
    parser.add_argument("--port", type=int, default=PORT)
    parser.add_argument("--prepare", action="store_true", help="only write the configuration")
    args = parser.parse_args()
    if args.prepare:
        prepare(args.config, args.port)
        return
    async with aiohttp.ClientSession() as session:
        provisioner = Provisioner(session, args.config, args.en, f"http://127.0.0.1:{args.port}")
        await provisioner.wait_until_up()
        if await provisioner.onboard():
            await provisioner.remove_integration("met")
            await provisioner.build_home()
            agent_id = await provisioner.add_agent()
            await provisioner.use_agent_in_pipeline(agent_id)
            await provisioner.store_token()
        mode = os.environ.get("LAYERED_ASSIST_BASE_URL") or "local only"
        print(f"[develop] model endpoint: {mode}", file=sys.stderr)
        example = "turn on the living room ceiling light" if args.en else "把客厅吊灯打开"
        print(
            f"[develop] ready: {provisioner.url}  login {USERNAME} / {PASSWORD}"
            f'  (try: scripts/chat "{example}")',
            file=sys.stderr,
        )


if __name__ == "__main__":
    asyncio.run(main())
