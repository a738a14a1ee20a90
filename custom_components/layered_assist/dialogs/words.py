"""Words that confirm, refuse or cancel, in Chinese and English (normalized text)."""

import re

CONFIRM = re.compile(
    r"^(?:确认|确定|好的?|是的?|对的?|对|没问题|没有问题|可以|行|嗯|执行|就这样|得|系|啱|"
    r"yes|yeah|yep|ok|okay|sure|confirm|correct|do it)[吧啊呀了的。!！.]*$"
)
REFUSE = re.compile(
    r"^(?:不对|不是|不行|错了|不要|唔系|唔对|唔啱|no|nope|wrong|not right)[吧啊呀了的。!！.,，]*"
)
CANCEL = re.compile(
    r"取消|算了|算啦|不用了|不设了|停止设置|\bcancel\b|\bnever ?mind\b|\bforget it\b|\bstop\b"
)


def is_confirm(text: str) -> bool:
    """Tell whether a whole utterance confirms."""
    return bool(CONFIRM.match(text.strip(" ，,。.!！")))


def is_refuse(text: str) -> bool:
    """Tell whether an utterance refuses (and may go on with a correction)."""
    return bool(REFUSE.match(text.strip()))


def is_cancel(text: str) -> bool:
    """Tell whether an utterance cancels."""
    return bool(CANCEL.search(text))
