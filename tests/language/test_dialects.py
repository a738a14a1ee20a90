"""Cantonese and Taiwan words folded onto Mandarin, and Mainland words left alone."""

import pytest

from custom_components.layered_assist.language.text import normalize


@pytest.mark.parametrize(
    ("said", "read"),
    [
        # Verbs and particles.
        ("閂咗軌道燈", "关了轨道灯"),
        ("熄咗衛生間燈", "关了卫生间灯"),
        ("開埋卧室吸頂燈", "打开卧室吸顶灯"),
        ("將落地窗簾拉埋佢", "将落地窗帘关上"),
        ("熄晒主人房啲燈", "全部关掉主卧灯"),
        ("冷氣較細啲", "空调调小一点"),
        ("書房枱燈較到最光", "书房台灯调到最亮"),
        ("閂返佢", "关它"),
        # Numbers as said.
        ("卧室冷氣較到廿三度", "卧室空调调到二十三度"),
        ("卅度", "三十度"),
        # Negations and questions.
        ("唔好閂餐桌燈", "不要关餐桌灯"),
        ("唔使開冷氣", "不用开空调"),
        ("咪開燈", "别开灯"),
        ("卧室冷氣開咗未呀", "卧室空调开了没呀"),
        ("係咪開咗冷氣", "是不是开了空调"),
        ("冷氣開咗咩", "空调开了吗"),
        # Times and places.
        ("聽朝七點", "明早七点"),
        ("半個鐘後", "半小时后"),
        ("頭先邊個開咗燈", "刚才哪个开了灯"),
        ("唔該開廳燈", "请开客厅灯"),
        ("主人房", "主卧"),
        ("廁所燈", "卫生间灯"),
        # Taiwan.
        ("把主臥室的電燈關掉", "把主卧的电灯关掉"),
        ("把抽風機打開", "把换气扇打开"),
        ("客廳燈條", "客厅灯带"),
        # 冷氣 stays the mode when it is the value set.
        ("客廳冷氣調成冷氣", "客厅空调调成冷气"),
    ],
)
def test_folded(said: str, read: str) -> None:
    """Cantonese and Taiwan words read as their Mandarin."""
    assert normalize(said) == read


@pytest.mark.parametrize(
    "mainland",
    [
        "把晒衣架收起来",
        "比较高",
        "学校",
        "门厅灯",
        "餐厅吊灯",
        "大厅",
        "先别开灯",
        "客厅灯开着吗",
        "二十六度",
    ],
)
def test_mainland_left_alone(mainland: str) -> None:
    """Words that only look like the folded ones keep their Mainland meaning."""
    assert normalize(mainland) == mainland
