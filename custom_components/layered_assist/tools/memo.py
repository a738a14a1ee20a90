"""Memo tools: add, list and delete, on the same list the to-do entity shows."""

import voluptuous as vol

from ..localize import async_reply, is_chinese
from ..memos import MemoStore
from .base import ADDS, LOOKUP, REMOVES, DirectResponse, ModelResult, ToolOutcome, ToolRequest, ToolSpec


def _memos(request: ToolRequest) -> MemoStore:
    return request.owner().runtime.memos


async def _async_add(request: ToolRequest) -> ToolOutcome:
    memo = _memos(request).add(request.args["text"])
    speech = await async_reply(request.hass, request.language, "memo_added", {"text": memo.summary})
    return DirectResponse(speech, {"uid": memo.uid})


async def _async_list(request: ToolRequest) -> ToolOutcome:
    memos = [m.summary for m in _memos(request).memos if not m.done]
    chinese = is_chinese(request.language)
    items = ("；" if chinese else "; ").join(f"{n}. {text}" for n, text in enumerate(memos, 1))
    key = "memo_list" if memos else "memo_none"
    speech = await async_reply(
        request.hass, request.language, key, {"count": str(len(memos)), "items": items}
    )
    return ModelResult({"memos": memos, "speech": speech})


async def _async_delete(request: ToolRequest) -> ToolOutcome:
    store = _memos(request)
    memo = store.find(str(request.args["memo"]))
    if memo is None:
        return ModelResult({"error": "not_found", "error_text": f"no memo matches {request.args['memo']}"})
    store.delete({memo.uid})
    speech = await async_reply(request.hass, request.language, "memo_deleted", {"text": memo.summary})
    return DirectResponse(speech)


ADD_MEMO_TOOL = ToolSpec(
    owned_by="entry",
    name="add_memo",
    traits=ADDS,
    description="Write down a memo for the user.",
    parameters=vol.Schema({vol.Required("text"): vol.All(str, vol.Length(min=1, max=200))}),
    handler=_async_add,
)
LIST_MEMOS_TOOL = ToolSpec(
    owned_by="entry",
    name="list_memos",
    traits=LOOKUP,
    description="List the user's open memos.",
    parameters=vol.Schema({}),
    handler=_async_list,
)
DELETE_MEMO_TOOL = ToolSpec(
    owned_by="entry",
    name="delete_memo",
    traits=REMOVES,
    description="Delete a memo by its number in the list or by words of its text.",
    parameters=vol.Schema({vol.Required("memo"): vol.All(vol.Coerce(str), vol.Length(min=1, max=100))}),
    handler=_async_delete,
)
