"""The language data is read once, before any turn: nothing reads a file later, in the event loop."""

from pathlib import Path

import pytest

from custom_components.layered_assist.language import lexicon


def test_after_loading_nothing_reads_a_data_file(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every loader a turn or the device catalog calls answers from what ``load_all`` read."""
    lexicon.load_all()

    def refuse(path: Path, *args: object, **kwargs: object) -> str:
        raise AssertionError(f"{path} read after loading")

    monkeypatch.setattr(Path, "read_text", refuse)
    for language in ("zh-Hans", "zh-HK", "zh-TW", "zh-Hant", "en"):
        lexicon.lexicon_for(language)
    lexicon.names_lexicon()
    lexicon.place_synonyms()
    assert lexicon.maker_kinds()
    assert lexicon.place_variants("主卧")
