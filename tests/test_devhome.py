"""The demo Home Assistant as a real process: provisioning, then chatting over its REST API."""

import asyncio
from collections.abc import Iterator
import json
import os
from pathlib import Path
import socket
import subprocess
import sys
import urllib.request

import aiohttp
import pytest
import pytest_socket

from devhome.provision import PASSWORD, TOKEN_FILE, USERNAME, Provisioner

from .browser import open_page

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
HASS = str(Path(PYTHON).parent / "hass")


def stored_token(config: Path) -> str:
    """Return the long-lived token the provisioner stored for scripts/chat."""
    return (config / TOKEN_FILE).read_text().strip()


def free_port() -> int:
    """Return a free TCP port on 127.0.0.1."""
    # Only 127.0.0.1 stays reachable (HA's test plugin restricts the hosts).
    pytest_socket.enable_socket()
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def run(*args: str, config: Path) -> subprocess.CompletedProcess[str]:
    """Run one of our modules against the demo config."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("LAYERED_ASSIST_")}
    return subprocess.run(
        [PYTHON, "-m", *args, "--config", str(config)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, str]]:
    """Prepare a config, start hass, provision it; yield the config dir and URL."""
    config = tmp_path_factory.mktemp("demo")
    port = free_port()
    assert run("devhome.provision", "--prepare", "--port", str(port), config=config).returncode == 0
    log = (config / "hass.out").open("w")
    hass = subprocess.Popen([HASS, "-c", str(config), "--skip-pip"], stdout=log, stderr=subprocess.STDOUT)
    try:
        provisioned = run("devhome.provision", "--port", str(port), config=config)
        assert provisioned.returncode == 0, provisioned.stderr[-2000:]
        yield config, f"http://127.0.0.1:{port}"
    finally:
        hass.terminate()
        hass.wait(timeout=60)
        log.close()


def chat(demo: tuple[Path, str], text: str, *flags: str) -> str:
    """Say something through devhome.chat; return the printed reply."""
    config, url = demo
    result = run("devhome.chat", text, "--url", url, *flags, config=config)
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def state(demo: tuple[Path, str], entity_id: str) -> dict:
    """Read an entity's state over the REST API."""
    pytest_socket.enable_socket()
    config, url = demo
    token = stored_token(config)
    request = urllib.request.Request(
        f"{url}/api/states/{entity_id}", headers={"Authorization": f"Bearer {token}"}
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        data: dict = json.load(response)
        return data


def test_chinese_conversation_changes_demo_entities(demo: tuple[Path, str]) -> None:
    """Local-only: Chinese device commands act, 它 carries over invocations, tools answer."""
    before = state(demo, "light.ceiling_lights")["state"]
    assert chat(demo, "把客厅吊灯关掉", "--new") == "已关闭客厅吊灯。"
    assert state(demo, "light.ceiling_lights")["state"] == "off"
    assert chat(demo, "把它打开") == "已打开客厅吊灯。"
    assert state(demo, "light.ceiling_lights")["state"] == "on"
    assert before in {"on", "off"}

    assert chat(demo, "主卧空调调到二十六度").startswith("主卧空调已设为26")
    assert state(demo, "climate.heatpump")["attributes"]["temperature"] == 26

    assert chat(demo, "三加四等于多少") == "3 + 4 等于 7。"
    assert chat(demo, "今天天气怎么样").startswith("现在")
    assert chat(demo, "记一下买牛奶") == "已记下：买牛奶。"
    assert "模型服务" in chat(demo, "给我讲个笑话")


async def ask(demo: tuple[Path, str], *commands: str) -> list:
    """Run WebSocket commands with the stored token."""
    config, url = demo
    async with aiohttp.ClientSession() as session:
        client = Provisioner(session, config, english=False, url=url)
        client.token = stored_token(config)
        return [await client.ws(command) for command in commands]


def test_pipeline_and_exposure(demo: tuple[Path, str]) -> None:
    """Our agent is the preferred pipeline's; the areas are the demo home's."""
    pytest_socket.enable_socket()
    pipelines, areas, floors = asyncio.run(
        ask(demo, "assist_pipeline/pipeline/list", "config/area_registry/list", "config/floor_registry/list")
    )
    preferred = next(p for p in pipelines["pipelines"] if p["id"] == pipelines["preferred_pipeline"])
    assert preferred["conversation_engine"] == "conversation.layered_assist"
    assert preferred["language"] == "zh-Hans"
    assert {a["name"] for a in areas} == {"客厅", "厨房", "玄关", "车库", "主卧", "书房"}
    assert {f["name"] for f in floors} == {"一楼", "二楼"}


async def browse(demo: tuple[Path, str], profile: Path, screenshot: Path) -> None:
    """Log in, open Assist with its shortcut, type a Chinese sentence, wait for the reply."""
    _, url = demo
    async with open_page(profile) as page:
        await page.send("Page.navigate", url=f"{url}/")
        await page.type_into("input[name=username]", USERNAME, enter=False)
        await page.type_into("input[name=password]", PASSWORD)
        await page.wait_for(
            "location.pathname !== '/auth/authorize' && !!document.querySelector('home-assistant')"
        )
        # The shortcut works once the dashboard has loaded; press until the dialog opens.
        for _ in range(30):
            await page.press("a")
            if await page.evaluate(page.deep("ha-voice-command-dialog", ".length")):
                break
            await asyncio.sleep(1)
        await page.type_into("input", "把厨房灯关掉")
        shadow_text = page.deep(
            "*", ".filter(e => e.shadowRoot).map(e => e.shadowRoot.textContent).join(' ')"
        )
        await page.wait_for(f"{shadow_text}.includes('已关闭厨房灯')")
        await asyncio.sleep(0.5)
        await page.screenshot(screenshot)


def test_assist_in_the_browser(demo: tuple[Path, str], tmp_path: Path) -> None:
    """Headless Chromium: log in, open Assist, type Chinese, see the reply and the light go off."""
    pytest_socket.enable_socket()
    asyncio.run(chat_light_on(demo))
    assert state(demo, "light.kitchen_lights")["state"] == "on"
    screenshot = Path(os.environ.get("LAYERED_ASSIST_SCREENSHOT", tmp_path / "assist.png"))
    asyncio.run(browse(demo, tmp_path / "profile", screenshot))
    assert state(demo, "light.kitchen_lights")["state"] == "off"
    assert screenshot.stat().st_size > 10_000


async def chat_light_on(demo: tuple[Path, str]) -> None:
    """Make sure the kitchen light starts on."""
    config, url = demo
    token = stored_token(config)
    async with (
        aiohttp.ClientSession() as session,
        session.post(
            f"{url}/api/services/light/turn_on",
            json={"entity_id": "light.kitchen_lights"},
            headers={"Authorization": f"Bearer {token}"},
        ) as response,
    ):
        response.raise_for_status()
