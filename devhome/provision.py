"""Provision the development Home Assistant once it answers: onboarding, a demo home, the agent.

Runs against a real HA over its public REST and WebSocket APIs, as a user's browser
would, so nothing here depends on HA's internals. Every step makes sure of its result
rather than assuming it: a re-run on an existing config directory repairs what a
stopped or failed run left half done, and the home is read back before "ready".
"""

import argparse
import asyncio
from collections import Counter
import json
import os
from pathlib import Path
import sys
import time
from typing import Any
from urllib.parse import urlparse

import aiohttp

from custom_components.layered_assist.config_flow import LOCAL_ONLY_TITLE

from .demo_home import AREAS, AREAS_EN, ENTITIES, FLOOR_ALIASES, FLOOR_ALIASES_EN, FLOORS, FLOORS_EN
from .ha_client import PASSWORD, PORT, TOKEN_FILE, URL, USERNAME, HAClient

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


class Provisioner(HAClient):
    """Builds the demo home, the agent and its pipeline on the running HA, and checks them."""

    def __init__(
        self,
        session: aiohttp.ClientSession,
        config_dir: Path,
        english: bool,
        url: str = URL,
        entity_timeout: float = ENTITY_TIMEOUT,
    ) -> None:
        """Build the Chinese or the English home; wait this long for HA's demo entities."""
        super().__init__(session, config_dir, url)
        self.english = english
        self.entity_timeout = entity_timeout

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
        existing_floors = {f["name"]: f["floor_id"] for f in await self.ws("config/floor_registry/list")}
        floors = {}
        for floor, level in FLOORS.items():
            aliases = (FLOOR_ALIASES_EN if self.english else FLOOR_ALIASES)[floor]
            if (floor_id := existing_floors.get(floor_name(floor))) is None:
                created = await self.ws(
                    "config/floor_registry/create", name=floor_name(floor), level=level, aliases=aliases
                )
                floor_id = created["floor_id"]
            else:
                await self.ws("config/floor_registry/update", floor_id=floor_id, aliases=aliases)
            floors[floor] = floor_id
        wanted = {area_name(area): area for area in AREAS}
        areas = {}
        for area in await self.ws("config/area_registry/list"):
            if (ours := wanted.get(area["name"])) is None:
                # Onboarding's default rooms, or the other language's.
                await self.ws("config/area_registry/delete", area_id=area["area_id"])
            else:
                areas[ours] = area["area_id"]
        for area, floor in AREAS.items():
            if area not in areas:
                created = await self.ws(
                    "config/area_registry/create", name=area_name(area), floor_id=floors[floor]
                )
                areas[area] = created["area_id"]
            else:
                await self.ws("config/area_registry/update", area_id=areas[area], floor_id=floors[floor])
        entries = await self.wait_for_entities(self.entity_timeout)
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
        await self.verify_home()

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

    async def verify_home(self) -> None:
        """Read the home back as a user sees it; exit with what differs instead of "ready"."""
        for _ in range(int(VERIFY_TIMEOUT / ENTITY_POLL)):
            if not (problems := await self.home_problems()):
                return
            # Names reach the states a moment after the registries.
            await asyncio.sleep(ENTITY_POLL)
        sys.exit("The demo home was not provisioned as intended:\n  " + "\n  ".join(problems))

    async def home_problems(self) -> list[str]:
        """Return how the home differs from the intended one."""
        area_ids = {a["name"]: a["area_id"] for a in await self.ws("config/area_registry/list")}
        areas = {area: area_ids.get(AREAS_EN[area] if self.english else area) for area in AREAS}
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

    async def ensure_agent(self) -> str:
        """Return our agent's entity id once it answers, configuring Layered Assist when missing.

        On a restart the registry already lists the agent while HA is still setting the
        integration up: only an agent with a state can take a sentence.
        """
        added = False
        for _ in range(int(self.entity_timeout / ENTITY_POLL)):
            registered = [
                entry["entity_id"]
                for entry in await self.ws("config/entity_registry/list")
                if entry["platform"] == "layered_assist" and entry["entity_id"].startswith("conversation.")
            ]
            states = {state["entity_id"] for state in await self.ws("get_states")}
            if loaded := sorted(e for e in registered if e in states):
                return loaded[0]
            if (
                not registered
                and not added
                and not await self.ws("config_entries/get", domain="layered_assist")
            ):
                await self.add_agent()
                added = True
            await asyncio.sleep(ENTITY_POLL)
        sys.exit(f"Layered Assist's conversation agent did not come up within {self.entity_timeout:.0f} s")

    async def add_agent(self) -> None:
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

    async def ensure_endpoint(self) -> None:
        """Point an existing Layered Assist at the endpoint the environment names, if it differs.

        An entry's title is its endpoint's host (or "Local only"); a demo started once
        without a model and then with ``--model`` is reconfigured, not set up again, and
        one started with ``--model`` and then without it is local-only again (it would
        otherwise wait for a server that is gone).
        """
        base_url = os.environ.get("LAYERED_ASSIST_BASE_URL", "")
        wanted = (urlparse(base_url).netloc or base_url) if base_url else LOCAL_ONLY_TITLE
        for entry in await self.ws("config_entries/get", domain="layered_assist"):
            if entry["title"] == wanted:
                continue
            start = {"handler": "layered_assist", "entry_id": entry["entry_id"]}
            flow = await self._post("/api/config/config_entries/flow", start)
            data = {"base_url": base_url}
            if api_key := os.environ.get("LAYERED_ASSIST_API_KEY"):
                data["api_key"] = api_key
            result = await self._post(f"/api/config/config_entries/flow/{flow['flow_id']}", data)
            if result.get("reason") != "reconfigure_successful":
                sys.exit(f"Layered Assist could not be pointed at {base_url}: {result}")
            print(f"[develop] Layered Assist now uses {base_url or 'no model'}", file=sys.stderr)

    async def ensure_agent_timeout(self) -> None:
        """Give the agent the per-request timeout the environment asks for (a model on a CPU is slow).

        ``LAYERED_ASSIST_AGENT_TIMEOUT`` (seconds); the agent is reconfigured through its
        own form, as a user would, only when it differs.
        """
        wanted = os.environ.get("LAYERED_ASSIST_AGENT_TIMEOUT")
        if not wanted:
            return
        for entry in await self.ws("config_entries/get", domain="layered_assist"):
            subentries = await self.ws("config_entries/subentries/list", entry_id=entry["entry_id"])
            for subentry in subentries:
                if subentry["subentry_type"] != "conversation":
                    continue
                start = {
                    "handler": [entry["entry_id"], "conversation"],
                    "subentry_id": subentry["subentry_id"],
                }
                flow = await self._post("/api/config/config_entries/subentries/flow", start)
                # The timeout is behind the recommended settings: off, the second form has it.
                first = {**_suggested(flow.get("data_schema", [])), "recommended": False}
                flow = await self._post(
                    f"/api/config/config_entries/subentries/flow/{flow['flow_id']}", first
                )
                if flow.get("step_id") != "advanced":
                    sys.exit(f"The agent's settings could not be opened: {flow}")
                answer = _suggested(flow.get("data_schema", []))
                if str(answer.get("model_settings", {}).get("timeout")) == wanted:
                    continue
                answer.setdefault("model_settings", {})["timeout"] = int(wanted)
                result = await self._post(
                    f"/api/config/config_entries/subentries/flow/{flow['flow_id']}", answer
                )
                if result.get("reason") != "reconfigure_successful":
                    sys.exit(f"The agent's timeout could not be set: {result}")
                print(f"[develop] the agent's model timeout is now {wanted} s", file=sys.stderr)

    async def use_agent_in_pipeline(self, agent_id: str) -> None:
        """Make a pipeline with our agent (in the demo's language) the preferred one."""
        language = "en" if self.english else "zh-Hans"
        listed = await self.ws("assist_pipeline/pipeline/list")
        for pipeline in listed["pipelines"]:
            if pipeline["conversation_engine"] == agent_id and pipeline["language"] == language:
                await self.ws("assist_pipeline/pipeline/set_preferred", pipeline_id=pipeline["id"])
                return
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

    async def set_user_language(self) -> None:
        """Show the demo user HA's UI in the demo's language (what the browser would save)."""
        language = "en" if self.english else "zh-Hans"
        value = {
            "language": language,
            "number_format": "language",
            "time_format": "language",
            "date_format": "language",
            "first_weekday": "language",
            "time_zone": "local",
        }
        await self.ws("frontend/set_user_data", key="language", value=value)

    async def user_language(self) -> str | None:
        """Return the UI language stored for the demo user."""
        data = await self.ws("frontend/get_user_data", key="language")
        value = data.get("value") or {}
        return value.get("language") if isinstance(value, dict) else None

    async def store_token(self) -> None:
        """Keep a long-lived token for scripts/chat (a new one when the stored one is not ours)."""
        path = self.config_dir / TOKEN_FILE
        if path.exists() and path.read_text().strip() == self.token:
            return
        # HA refuses a second token of the same name: a repair names its own.
        client_name = f"scripts/chat {time.strftime('%Y-%m-%d %H:%M:%S')} #{time.time_ns() % 1_000_000}"
        token = await self.ws("auth/long_lived_access_token", client_name=client_name, lifespan=3650)
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


def _suggested(fields: list[dict[str, Any]]) -> dict[str, Any]:
    """Return the values a serialized form suggests, a section's as a dict of its own."""
    values: dict[str, Any] = {}
    for field in fields:
        if field.get("type") == "expandable":
            values[field["name"]] = _suggested(field.get("schema", []))
        elif (value := field.get("description", {}).get("suggested_value")) is not None:
            values[field["name"]] = value
    return values


async def main() -> None:
    """Provision once; print how to log in."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--config", type=Path, required=True)
    parser.add_argument("--en", action="store_true", help="English names and pipeline")
    parser.add_argument("--port", type=int, default=PORT)
    parser.add_argument("--prepare", action="store_true", help="only write the configuration")
    parser.add_argument(
        "--entity-timeout",
        type=float,
        default=float(os.environ.get("LAYERED_ASSIST_ENTITY_TIMEOUT", ENTITY_TIMEOUT)),
        help="seconds to wait for HA's demo entities (or LAYERED_ASSIST_ENTITY_TIMEOUT)",
    )
    args = parser.parse_args()
    if args.prepare:
        prepare(args.config, args.port)
        return
    async with aiohttp.ClientSession() as session:
        provisioner = Provisioner(
            session, args.config, args.en, f"http://127.0.0.1:{args.port}", args.entity_timeout
        )
        await provisioner.wait_until_up()
        if await provisioner.onboard("en" if args.en else "zh-Hans"):
            await provisioner.remove_integration("met")
        else:
            # An existing config: make sure of every step, repairing what is missing.
            await provisioner.login()
        await provisioner.build_home()
        await provisioner.ensure_endpoint()
        agent_id = await provisioner.ensure_agent()
        await provisioner.ensure_agent_timeout()
        agent_id = await provisioner.ensure_agent()
        await provisioner.use_agent_in_pipeline(agent_id)
        await provisioner.set_user_language()
        if (shown := await provisioner.user_language()) != ("en" if args.en else "zh-Hans"):
            sys.exit(f"The demo user's UI language is {shown!r} after setting it")
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
