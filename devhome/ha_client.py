"""A client of a running Home Assistant over its REST and WebSocket APIs, as a browser is."""

import asyncio
import json
from pathlib import Path
import sys
from typing import Any

import aiohttp

PORT = 8123
URL = f"http://127.0.0.1:{PORT}"
USERNAME = "demo"
PASSWORD = "layered-assist"
TOKEN_FILE = ".layered_assist_token"


class HAClient:
    """Logs in as the demo user and sends REST requests and WebSocket commands."""

    def __init__(self, session: aiohttp.ClientSession, config_dir: Path, url: str = URL) -> None:
        """Keep the session and the config directory (where the token is stored)."""
        self.url = url
        self.client_id = f"{url}/"
        self.session = session
        self.config_dir = config_dir
        self.token = ""
        self._ws: aiohttp.ClientWebSocketResponse | None = None
        self._id = 0

    async def wait_until_up(self) -> None:
        """Wait for HA's HTTP server (the first start installs packages and takes a while).

        Onboarding's view answers until onboarding is done; after that HA does not serve it
        at all, and its stored progress says so.
        """
        for _ in range(600):
            try:
                async with self.session.get(f"{self.url}/api/onboarding") as response:
                    if response.status == 200 or (response.status == 404 and self.onboarded_before):
                        return
            except aiohttp.ClientError:
                pass
            await asyncio.sleep(1)
        sys.exit("Home Assistant did not start within 10 minutes")

    @property
    def onboarded_before(self) -> bool:
        """Tell whether this config finished onboarding (HA's stored progress)."""
        try:
            stored = json.loads((self.config_dir / ".storage" / "onboarding").read_text())
        except (OSError, ValueError):
            return False
        return {"user", "core_config", "analytics", "integration"} <= set(
            stored.get("data", {}).get("done", [])
        )

    async def onboard(self, language: str) -> bool:
        """Create the demo user and finish onboarding; return False when it was done before.

        A run stopped after creating the user logs in and finishes the remaining steps.
        """
        async with self.session.get(f"{self.url}/api/onboarding") as response:
            if response.status == 404:
                # Done before: HA no longer serves onboarding.
                return False
            done = {step["step"]: step["done"] for step in await response.json()}
        if all(done.values()):
            return False
        if done.get("user"):
            await self.login()
        else:
            await self._create_user(language)
        for step, payload in (
            ("core_config", {}),
            ("analytics", {}),
            ("integration", {"client_id": self.client_id, "redirect_uri": f"{self.url}/?auth_callback=1"}),
        ):
            if done.get(step):
                continue
            async with self.session.post(
                f"{self.url}/api/onboarding/{step}", json=payload, headers=self._headers
            ) as response:
                response.raise_for_status()
        return True

    async def _create_user(self, language: str) -> None:
        """Create the demo user (onboarding's first step) and take its token."""
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
        await self._take_token(code)

    async def _take_token(self, code: str) -> None:
        """Exchange an authorization code for an access token."""
        form = {"grant_type": "authorization_code", "code": code, "client_id": self.client_id}
        async with self.session.post(f"{self.url}/auth/token", data=form) as response:
            response.raise_for_status()
            self.token = (await response.json())["access_token"]

    async def login(self) -> None:
        """Authenticate on an onboarded HA: the stored token if it still works, else the password."""
        path = self.config_dir / TOKEN_FILE
        if path.exists():
            self.token = path.read_text().strip()
            async with self.session.get(f"{self.url}/api/", headers=self._headers) as response:
                if response.status == 200:
                    return
        flow = await self._post(
            "/auth/login_flow",
            {"client_id": self.client_id, "handler": ["homeassistant", None], "redirect_uri": self.client_id},
        )
        result = await self._post(
            f"/auth/login_flow/{flow['flow_id']}",
            {"client_id": self.client_id, "username": USERNAME, "password": PASSWORD},
        )
        if result.get("type") != "create_entry":
            sys.exit(f"Cannot log in as {USERNAME} to repair the demo: {result.get('errors') or result}")
        await self._take_token(result["result"])

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

    async def _post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        async with self.session.post(f"{self.url}{path}", json=body, headers=self._headers) as response:
            result: dict[str, Any] = await response.json()
            return result
