"""Layer 1 on real registries: every category of the recall rules."""

import pytest

from bench.home import LoadedHome
from custom_components.layered_assist.language.reading import read
from custom_components.layered_assist.selection.catalog import DeviceCatalog
from custom_components.layered_assist.selection.recall import Recall, RecallContext, Recaller

pytestmark = pytest.mark.usefixtures("home")


def recall(catalog: DeviceCatalog, text: str, context: RecallContext | None = None) -> Recall:
    """Read the sentence, then run Layer 1."""
    language = "en" if text.isascii() else "zh-Hans"
    return Recaller(catalog).recall(read(text, language, catalog.names), context or RecallContext())


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # names, aliases, Traditional characters, English inside Chinese
        ("打开客厅主灯", ["light.living_main"]),
        ("把客厅大灯关了", ["light.living_main"]),
        ("打开书桌灯", ["light.study_desk"]),
        ("打開餐廳吊燈", ["light.dining_pendant"]),
        ("把study的台灯打开", ["light.study_desk"]),
        # homophones from speech recognition
        ("打开客厅主等", ["light.living_main"]),
        ("主窝空调调到26度", ["climate.master_ac"]),
        ("主卧加湿起打开", ["humidifier.master_humidifier"]),
        # area and floor words, domain words
        ("主卧空调调到二十六度", ["climate.master_ac"]),
        ("关掉厕所的灯", ["light.bath1_light"]),
        ("楼上的窗帘打开", ["cover.master_curtain"]),
        ("主卧冷气开一下", ["climate.master_ac"]),
        ("电风扇开大点", ["fan.living_fan"]),
        ("把浇花的关了", ["valve.balcony_water"]),
        # groups return every match, not the top K
        ("把客厅的灯全关了", ["light.living_main", "light.living_strip"]),
        (
            "关掉所有灯",
            [
                "light.bath1_light",
                "light.balcony_light",
                "light.dining_pendant",
                "light.kids_light",
                "light.kitchen_ceiling",
                "light.living_main",
                "light.living_strip",
                "light.master_bedside",
                "light.master_ceiling",
                "light.study_desk",
            ],
        ),
        (
            "二楼的灯都关了",
            [
                "light.balcony_light",
                "light.kids_light",
                "light.master_bedside",
                "light.master_ceiling",
                "light.study_desk",
            ],
        ),
        # several devices in one sentence
        ("把客厅主灯关了，空调调到26度", ["light.living_main", "climate.living_ac"]),
        ("打开台灯和阳台灯", ["light.study_desk", "light.balcony_light"]),
        # English
        ("turn on the kitchen light", ["light.kitchen_ceiling"]),
    ],
)
def test_sure_targets(catalog: DeviceCatalog, text: str, expected: list[str]) -> None:
    """Layer 1 names exactly the expected entities, confidently."""
    result = recall(catalog, text)
    assert result.confident, [(s.text, s.reason, s.candidates[:3]) for s in result.segments]
    assert sorted(result.targets) == sorted(expected)
    assert set(expected) <= set(result.candidates)


def test_pronoun_and_ellipsis(catalog: DeviceCatalog) -> None:
    """它 and a missing subject refer to the most recent fitting device."""
    context = RecallContext(recent_devices=("media_player.living_tv", "climate.master_ac"))
    assert recall(catalog, "把它音量调小", context).targets == ["media_player.living_tv"]
    assert recall(catalog, "调到24度", context).targets == ["climate.master_ac"]
    assert recall(catalog, "再低一度", context).targets == ["climate.master_ac"]


def test_room_references(catalog: DeviceCatalog, home: LoadedHome) -> None:
    """这里 is the speaker's room; 那个房间 is the room of the last turn."""
    here = RecallContext(context_area=home.area_ids["kids"])
    assert recall(catalog, "把这里的空调打开", here).targets == ["climate.kids_ac"]
    there = RecallContext(recent_rooms=(home.area_ids["master"],))
    assert recall(catalog, "那个房间的窗帘关上", there).targets == ["cover.master_curtain"]
    # The speaker's room decides when the sentence names none.
    assert recall(catalog, "好热啊", here).targets == ["climate.kids_ac"]


def test_again(catalog: DeviceCatalog) -> None:
    """再来一次 is read as a repetition, not a new target."""
    result = recall(catalog, "再来一次", RecallContext(recent_devices=("light.living_main",)))
    assert result.again
    assert result.candidates[0] == "light.living_main"
    assert not recall(catalog, "再低一度").again


@pytest.mark.parametrize("text", ["开灯", "打开密室灯", "打开保险柜", "把游泳池的灯打开"])
def test_abstains(catalog: DeviceCatalog, text: str) -> None:
    """Ambiguous, non-exposed and nonexistent targets are never sure targets."""
    result = recall(catalog, text)
    assert not result.confident
    assert "light.secret_light" not in result.candidates
    assert "lock.safe" not in result.candidates


def test_low_confidence_widens(catalog: DeviceCatalog) -> None:
    """An uncertain segment offers more candidates instead of guessing."""
    assert len(recall(catalog, "开灯").candidates) > 10


def test_it_with_another_kind_is_not_the_device_before(catalog: DeviceCatalog) -> None:
    """In "打开客厅空调，灯关了它" 它 is the light said, never the air conditioner just named."""
    first, second = recall(catalog, "打开客厅空调，灯关了它").segments
    assert first.targets == ("climate.living_ac",)
    assert "climate.living_ac" not in second.targets
    # With no other kind said, 它 is the device before.
    assert recall(catalog, "打开客厅空调，把它调到26度").segments[1].targets == ("climate.living_ac",)
