"""Smoke test of a Home Assistant release as a real process, with no test framework.

Starts ``hass`` the way ``scripts/develop`` does, in a fresh config directory, provisions
the demo home, talks to Assist through HA's REST conversation API in Chinese and in
English, and reads entity states back. Used on the newest HA release, which the pytest
plugin does not support yet. Prints one line per check and a closing count; exits 1 on
any failure.
"""

import argparse
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
import json
import os
from pathlib import Path
import shutil
import socket
import subprocess
import sys
import tempfile
from typing import Any
import urllib.request

from .ha_client import TOKEN_FILE

ROOT = Path(__file__).resolve().parent.parent
# A deprecation that HA reports against our integration ("Detected that custom integration ...").
DEPRECATION_MARK = "custom integration 'layered_assist'"


def free_port() -> int:
    """Return a free TCP port on 127.0.0.1."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@dataclass
class DemoHass:
    """A provisioned demo Home Assistant process."""

    config: Path
    url: str
    python: str = sys.executable

    def run(self, *args: str) -> subprocess.CompletedProcess[str]:
        """Run one of our modules against this demo."""
        env = {k: v for k, v in os.environ.items() if not k.startswith("LAYERED_ASSIST_")}
        return subprocess.run(
            [self.python, "-m", *args, "--config", str(self.config)],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )

    @property
    def port(self) -> str:
        """Return the port HA listens on."""
        return self.url.rsplit(":", 1)[1]

    def provision(self, *args: str) -> subprocess.CompletedProcess[str]:
        """Run the provisioner against this demo (again: it repairs what is missing)."""
        return self.run("devhome.provision", "--port", self.port, *args)

    def say(self, text: str, *flags: str) -> str:
        """Say something through devhome.chat; return the printed reply."""
        result = self.run("devhome.chat", text, "--url", self.url, *flags)
        if result.returncode != 0:
            raise RuntimeError(f"devhome.chat failed: {result.stderr.strip()}")
        return result.stdout.strip()

    @property
    def token(self) -> str:
        """Return the long-lived token the provisioner stored."""
        return (self.config / TOKEN_FILE).read_text().strip()

    def state(self, entity_id: str) -> dict[str, Any]:
        """Read an entity's state over the REST API."""
        request = urllib.request.Request(
            f"{self.url}/api/states/{entity_id}", headers={"Authorization": f"Bearer {self.token}"}
        )
        with urllib.request.urlopen(request, timeout=10) as response:
            data: dict[str, Any] = json.load(response)
            return data

    def log(self) -> str:
        """Return what HA has logged so far."""
        return (self.config / "hass.out").read_text(errors="replace")


@contextmanager
def demo_hass(
    config: Path,
    *,
    english: bool = False,
    python: str = sys.executable,
    adjust: Callable[[str], str] | None = None,
    provision_args: tuple[str, ...] = (),
    port: int | None = None,
) -> Iterator[DemoHass]:
    """Prepare a config, start hass from ``python``'s environment, provision it; stop it after.

    ``adjust`` rewrites the prepared configuration.yaml; ``provision_args`` go to the provisioner;
    ``port`` is the one an existing config was prepared with (a restart).
    """
    port = port or free_port()
    demo = DemoHass(config, f"http://127.0.0.1:{port}", python)
    prepared = demo.run("devhome.provision", "--prepare", "--port", str(port))
    if prepared.returncode != 0:
        raise RuntimeError(f"preparing the config failed: {prepared.stderr.strip()}")
    if adjust is not None:
        configuration = config / "configuration.yaml"
        configuration.write_text(adjust(configuration.read_text()))
    hass = str(Path(python).parent / "hass")
    with (config / "hass.out").open("w") as log:
        process = subprocess.Popen(
            [hass, "-c", str(config), "--skip-pip"], stdout=log, stderr=subprocess.STDOUT
        )
        try:
            provisioned = demo.provision(*(["--en"] if english else []), *provision_args)
            if provisioned.returncode != 0:
                raise RuntimeError(f"provisioning failed: {provisioned.stderr.strip()[-2000:]}")
            yield demo
        finally:
            process.terminate()
            process.wait(timeout=60)


@dataclass
class Check:
    """One sentence, the reply it must give and the state it must leave."""

    sentence: str
    reply: Callable[[str], bool]
    entity_id: str | None = None
    state: Callable[[dict[str, Any]], bool] = lambda _: True


CHINESE = [
    Check(
        "把客厅吊灯关掉",
        lambda r: r == "已关闭客厅吊灯。",
        "light.ceiling_lights",
        lambda s: s["state"] == "off",
    ),
    Check(
        "把它打开", lambda r: r == "已打开客厅吊灯。", "light.ceiling_lights", lambda s: s["state"] == "on"
    ),
    Check(
        "主卧空调调到二十六度",
        lambda r: r.startswith("主卧空调已设为26"),
        "climate.heatpump",
        lambda s: s["attributes"]["temperature"] == 26,
    ),
    Check("三加四等于多少", lambda r: r == "3 + 4 等于 7。"),
]
ENGLISH = [
    Check(
        "turn off the living room ceiling light",
        lambda r: "ceiling light" in r.lower(),
        "light.ceiling_lights",
        lambda s: s["state"] == "off",
    ),
    Check(
        "turn on the kitchen light",
        lambda r: "kitchen light" in r.lower(),
        "light.kitchen_lights",
        lambda s: s["state"] == "on",
    ),
    Check(
        "set the bedroom AC to 24 degrees",
        lambda r: "24" in r,
        "climate.heatpump",
        lambda s: s["attributes"]["temperature"] == 24,
    ),
]


def run_checks(demo: DemoHass, checks: list[Check], language: str) -> list[bool]:
    """Run the checks in one conversation, then look for deprecations; return each outcome."""
    outcomes = []
    for index, check in enumerate(checks):
        reply = demo.say(check.sentence, *(["--new"] if index == 0 else []))
        state = demo.state(check.entity_id) if check.entity_id else {}
        outcomes.append(check.reply(reply) and check.state(state))
        print(
            f"[smoke] {language} {'ok  ' if outcomes[-1] else 'FAIL'} {check.sentence} -> {reply}", flush=True
        )
    deprecations = [line for line in demo.log().splitlines() if DEPRECATION_MARK in line]
    for line in deprecations:
        print(f"[smoke] {language} FAIL {line}", flush=True)
    outcomes.append(not deprecations)
    return outcomes


def main() -> int:
    """Run the smoke test in Chinese and English; print the counts."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--keep", action="store_true", help="keep the config directories")
    args = parser.parse_args()
    from homeassistant.const import __version__  # noqa: PLC0415 - of the environment under test

    print(f"[smoke] Home Assistant {__version__}, Python {sys.version.split()[0]}", flush=True)
    outcomes: list[bool] = []
    for language, english, checks in (("zh-Hans", False, CHINESE), ("en", True, ENGLISH)):
        config = Path(tempfile.mkdtemp(prefix=f"layered-assist-smoke-{language}-"))
        try:
            with demo_hass(config, english=english) as demo:
                outcomes += run_checks(demo, checks, language)
        except RuntimeError as err:
            print(f"[smoke] {language} FAIL {err}", flush=True)
            outcomes.append(False)
        if args.keep:
            print(f"[smoke] {language} config kept in {config}")
        else:
            shutil.rmtree(config, ignore_errors=True)
    print(f"smoke: {outcomes.count(True)} passed, {outcomes.count(False)} failed")
    return 0 if all(outcomes) else 1


if __name__ == "__main__":
    sys.exit(main())
