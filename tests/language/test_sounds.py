"""The sound table the integration reads agrees with pypinyin, which wrote it."""

from pypinyin import Style, lazy_pinyin

from custom_components.layered_assist.language.tokens import SOUND_TABLE, sound_of, sounds
from devhome.sounds import readings, table_text


def test_the_table_is_what_the_generator_writes() -> None:
    """scripts/make-sounds would write the committed table again, byte for byte."""
    assert SOUND_TABLE.read_text(encoding="utf-8") == table_text()


def test_each_character_sounds_as_pypinyin_reads_it() -> None:
    """Every character pypinyin reads has that reading in the table, and no other is there."""
    table = sounds()
    assert table == readings()
    assert len(table) > 20000
    for char in "客厅灯主卧玄关绿女𠮶":
        assert table.get(char, char) == lazy_pinyin(char, style=Style.NORMAL, errors="default")[0]


def test_homophones_and_fuzzy_sounds() -> None:
    """客厅等 sounds like 客厅灯; zh/z, sh/s, ing/in are one sound; a non-Chinese character is itself."""
    assert [sound_of(c) for c in "客厅等"] == [sound_of(c) for c in "客厅灯"]
    assert sound_of("中") == sound_of("宗")
    assert sound_of("是") == sound_of("四")
    assert sound_of("灵") == sound_of("林")
    assert sound_of("%") == "%"
