"""The demo works the first time: fresh starts under load, repairs, loud failures.

Each test starts the real ``hass`` from an empty config directory as ``scripts/develop``
does (``devhome.smoke.demo_hass``) and talks to it over HTTP only.
"""

import asyncio
from collections.abc import Iterator
from pathlib import Path
import subprocess
import sys

import aiohttp
import pytest
import pytest_socket

from devhome.ha_client import TOKEN_FILE
from devhome.provision import Provisioner, _suggested
from devhome.smoke import CHINESE, ENGLISH, DemoHass, demo_hass, run_checks

# Starts real Home Assistant processes: left out of scripts/test --quick.
pytestmark = pytest.mark.slow

STARTS = 6


@pytest.fixture
def busy_machine() -> Iterator[None]:
    """Keep a core busy, as a loaded machine would be while HA starts."""
    burner = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        yield
    finally:
        burner.kill()
        burner.wait()


@pytest.mark.usefixtures("busy_machine")
def test_fresh_starts_under_load(tmp_path: Path) -> None:
    """Six fresh starts, both languages: every time the README's sentences act (states over REST)."""
    pytest_socket.enable_socket()
    for start in range(STARTS):
        english = start % 2 == 1
        with demo_hass(tmp_path / f"start-{start}", english=english) as demo:
            outcomes = run_checks(demo, ENGLISH if english else CHINESE, "en" if english else "zh-Hans")
            assert all(outcomes), f"start {start}: {outcomes}\n{demo.log()[-3000:]}"


async def _break_the_home(demo: DemoHass) -> None:
    """Undo parts of the provisioning, as a run stopped half way would leave them."""
    async with aiohttp.ClientSession() as session:
        provisioner = Provisioner(session, demo.config, english=False, url=demo.url)
        await provisioner.login()
        await provisioner.ws(
            "config/entity_registry/update", entity_id="light.kitchen_lights", name="Kitchen Lights"
        )
        studies = [a for a in await provisioner.ws("config/area_registry/list") if a["name"] == "书房"]
        for area in studies:
            await provisioner.ws("config/area_registry/delete", area_id=area["area_id"])
        await provisioner.ws(
            "homeassistant/expose_entity",
            assistants=["conversation"],
            entity_ids=["climate.heatpump"],
            should_expose=False,
        )
        await provisioner.ws("frontend/set_user_data", key="language", value={"language": "en"})
        assert await provisioner.home_problems(), "the home should now differ from the intended one"


def test_rerun_repairs_a_half_provisioned_demo(tmp_path: Path) -> None:
    """A second provisioning run on the same config puts back names, areas, exposure and language."""
    pytest_socket.enable_socket()
    with demo_hass(tmp_path / "config") as demo:
        asyncio.run(_break_the_home(demo))
        (demo.config / TOKEN_FILE).unlink()
        repaired = demo.provision()
        assert repaired.returncode == 0, repaired.stderr
        assert "ready" in repaired.stderr
        assert demo.state("light.kitchen_lights")["attributes"]["friendly_name"] == "厨房灯"
        assert all(run_checks(demo, CHINESE, "zh-Hans"))
        assert demo.say("关掉厨房灯") == "已关闭厨房灯。"
        assert demo.state("light.kitchen_lights")["state"] == "off"


def test_restart_of_a_provisioned_demo(tmp_path: Path) -> None:
    """HA started again on a provisioned config (onboarding no longer served): checked, ready, working."""
    pytest_socket.enable_socket()
    config = tmp_path / "config"
    with demo_hass(config) as first:
        port = int(first.port)
    with demo_hass(config, port=port) as again:
        assert all(run_checks(again, CHINESE, "zh-Hans"))


def test_provisioning_that_cannot_complete_fails_loudly(tmp_path: Path) -> None:
    """Without HA's demo entities the provisioner exits non-zero and says which are missing."""
    pytest_socket.enable_socket()
    without_demo = lambda text: text.replace("\ndemo:\n", "\n")  # noqa: E731 - a one-line edit
    with (
        pytest.raises(RuntimeError) as err,
        demo_hass(tmp_path / "config", adjust=without_demo, provision_args=("--entity-timeout", "5")),
    ):
        pass
    assert "did not appear within 5 s" in str(err.value)
    assert "light.ceiling_lights" in str(err.value)


async def _agent_timeout(demo: DemoHass, monkeypatch: pytest.MonkeyPatch, wanted: str) -> str | None:
    """Set the agent's model timeout as `scripts/develop --model` does, then read it back."""
    monkeypatch.setenv("LAYERED_ASSIST_AGENT_TIMEOUT", wanted)
    async with aiohttp.ClientSession() as session:
        provisioner = Provisioner(session, demo.config, english=False, url=demo.url)
        await provisioner.login()
        await provisioner.ensure_agent_timeout()
        [entry] = await provisioner.ws("config_entries/get", domain="layered_assist")
        [agent] = await provisioner.ws("config_entries/subentries/list", entry_id=entry["entry_id"])
        for _ in range(50):  # the entry reloads with its changed agent first
            flow = await provisioner._post(
                "/api/config/config_entries/subentries/flow",
                {"handler": [entry["entry_id"], "conversation"], "subentry_id": agent["subentry_id"]},
            )
            if "data_schema" in flow:
                break
            await asyncio.sleep(0.2)
        flow = await provisioner._post(
            f"/api/config/config_entries/subentries/flow/{flow['flow_id']}",
            {**_suggested(flow["data_schema"]), "recommended": False},
        )
        timeout = _suggested(flow["data_schema"]).get("model_settings", {}).get("timeout")
        return None if timeout is None else str(timeout)


def test_the_model_timeout_is_set_through_the_agents_forms(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`scripts/develop --model` gives the agent a long timeout through its two forms, as a user would."""
    pytest_socket.enable_socket()
    with demo_hass(tmp_path / "config") as demo:
        assert asyncio.run(_agent_timeout(demo, monkeypatch, "123")) == "123"
