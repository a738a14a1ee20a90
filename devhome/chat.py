"""Send one sentence to the development Home Assistant's Assist and print the reply.

The conversation id is kept between calls (so 它 and 再来一次 work across invocations)
until ``--new``.
"""

import argparse
import asyncio
import json
import os
from pathlib import Path
import sys

import aiohttp

from .ha_client import TOKEN_FILE, URL

STATE_FILE = ".layered_assist_chat.json"


async def main() -> None:
    """Send the sentence; print the reply and what changed."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("text", nargs="?", help="what to say")
    parser.add_argument("--config", type=Path, required=True)
    parser.add_argument("--new", action="store_true", help="start a new conversation")
    parser.add_argument("--language", default=None, help="zh-Hans (default) or en")
    parser.add_argument("--agent", default="conversation.layered_assist")
    parser.add_argument("--url", default=os.environ.get("LAYERED_ASSIST_URL", URL))
    args = parser.parse_args()
    token_path = args.config / TOKEN_FILE
    if not token_path.exists():
        sys.exit("No token yet: start the demo with scripts/develop first.")
    state_path = args.config / STATE_FILE
    state = {} if args.new or not state_path.exists() else json.loads(state_path.read_text())
    if not args.text:
        state_path.write_text(json.dumps({}))
        return
    body = {"text": args.text, "agent_id": args.agent}
    if conversation_id := state.get("conversation_id"):
        body["conversation_id"] = conversation_id
    body["language"] = args.language or ("en" if args.text.isascii() else "zh-Hans")
    headers = {"Authorization": f"Bearer {token_path.read_text().strip()}"}
    async with aiohttp.ClientSession() as session:
        try:
            async with session.post(
                f"{args.url}/api/conversation/process", json=body, headers=headers
            ) as response:
                if response.status != 200:
                    sys.exit(f"Home Assistant answered {response.status}: {await response.text()}")
                result = await response.json()
        except aiohttp.ClientError as err:
            sys.exit(f"Home Assistant is not reachable at {args.url} ({err}); is scripts/develop running?")
    reply = result["response"]
    print(reply.get("speech", {}).get("plain", {}).get("speech", ""))
    for target in reply.get("data", {}).get("success", []):
        print(f"  ✓ {target.get('name')} ({target.get('id')})", file=sys.stderr)
    state_path.write_text(json.dumps({"conversation_id": result.get("conversation_id")}))


if __name__ == "__main__":
    asyncio.run(main())
