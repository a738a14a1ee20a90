"""A small Chrome DevTools Protocol driver for headless Chromium (Debian's package)."""

import asyncio
import base64
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
import itertools
import json
from pathlib import Path
import shutil
import subprocess
from typing import Any

import aiohttp

# Finds elements through every open shadow root, as HA's frontend nests them deeply.
DEEP_QUERY = """
(selector) => {
  const found = [];
  const walk = (root) => {
    root.querySelectorAll(selector).forEach((el) => found.push(el));
    root.querySelectorAll('*').forEach((el) => { if (el.shadowRoot) walk(el.shadowRoot); });
  };
  walk(document);
  return found;
}
"""


class Page:
    """One tab, driven over its DevTools WebSocket."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        """Keep the socket."""
        self._ws = ws
        self._ids = itertools.count(1)

    async def send(self, method: str, **params: Any) -> dict[str, Any]:
        """Send one command and return its result."""
        message_id = next(self._ids)
        await self._ws.send_json({"id": message_id, "method": method, "params": params})
        while True:
            message = json.loads((await self._ws.receive()).data)
            if message.get("id") == message_id:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                result: dict[str, Any] = message.get("result", {})
                return result

    async def evaluate(self, expression: str) -> Any:
        """Evaluate JavaScript in the page and return its value."""
        result = await self.send(
            "Runtime.evaluate", expression=expression, awaitPromise=True, returnByValue=True
        )
        return result.get("result", {}).get("value")

    async def wait_for(self, expression: str, timeout: float = 30) -> Any:
        """Wait until a JavaScript expression is truthy; return its value."""
        deadline = asyncio.get_running_loop().time() + timeout
        while asyncio.get_running_loop().time() < deadline:
            try:
                if value := await self.evaluate(expression):
                    return value
            except RuntimeError as err:
                # The page is navigating (the login redirect): ask the next page.
                if "navigated or closed" not in str(err) and "context" not in str(err):
                    raise
            await asyncio.sleep(0.25)
        raise TimeoutError(f"timed out waiting for {expression}")

    def deep(self, selector: str, then: str = "") -> str:
        """Return JavaScript that finds elements by selector through shadow roots."""
        return f"(({DEEP_QUERY})({json.dumps(selector)})){then}"

    async def type_into(self, selector: str, text: str, *, enter: bool = True, timeout: float = 30) -> None:
        """Focus the first visible matching input, replace its text, then press Enter."""
        # Rendered boxes, not offsetParent: dialogs sit in fixed containers.
        visible = ".filter(e => e.getClientRects().length > 0 && !e.disabled)"
        await self.wait_for(self.deep(selector, f"{visible}.length"), timeout)
        await self.evaluate(self.deep(selector, f"{visible}[0].focus()"))
        # Replace what is there (the shortcut that opened a dialog may have typed into it).
        await self.evaluate(self.deep(selector, f"{visible}[0].select()"))
        await self.send("Input.insertText", text=text)
        if enter:
            await self.press("Enter")

    async def press(self, key: str) -> None:
        """Press and release Enter or a letter key."""
        code = 13 if key == "Enter" else ord(key.upper())
        dom_code = key if key == "Enter" else f"Key{key.upper()}"
        text = "\r" if key == "Enter" else key
        await self.send(
            "Input.dispatchKeyEvent",
            type="keyDown",
            key=key,
            code=dom_code,
            windowsVirtualKeyCode=code,
            text=text,
        )
        await self.send(
            "Input.dispatchKeyEvent", type="keyUp", key=key, code=dom_code, windowsVirtualKeyCode=code
        )

    async def screenshot(self, path: Path) -> None:
        """Save a PNG of the page."""
        result = await self.send("Page.captureScreenshot", format="png")
        path.write_bytes(base64.b64decode(result["data"]))


def chromium_binary() -> str | None:
    """Return Debian's chromium, if installed."""
    return shutil.which("chromium") or shutil.which("chromium-browser")


@asynccontextmanager
async def open_page(profile: Path, width: int = 1280, height: int = 860) -> AsyncIterator[Page]:
    """Start headless Chromium and yield its first tab."""
    binary = chromium_binary()
    assert binary, "chromium is missing: scripts/setup installs Debian's package"
    process = subprocess.Popen(  # noqa: ASYNC220  (started once; it runs beside the loop)
        [
            binary,
            "--headless=new",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--remote-debugging-port=0",
            f"--user-data-dir={profile}",
            f"--window-size={width},{height}",
            # An English browser: a Chinese UI comes from the demo user's own setting.
            "--lang=en-US",
            "about:blank",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        port_file = profile / "DevToolsActivePort"
        for _ in range(200):
            if port_file.exists() and port_file.read_text().strip():
                break
            await asyncio.sleep(0.1)
        port = port_file.read_text().splitlines()[0]
        async with aiohttp.ClientSession() as session:
            async with session.get(f"http://127.0.0.1:{port}/json/list") as response:
                targets = await response.json()
            page_target = next(t for t in targets if t["type"] == "page")
            async with session.ws_connect(page_target["webSocketDebuggerUrl"], max_msg_size=0) as ws:
                page = Page(ws)
                await page.send("Page.enable")
                await page.send("Runtime.enable")
                yield page
    finally:
        process.terminate()
        process.wait(timeout=30)
