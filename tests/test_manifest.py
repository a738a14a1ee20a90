"""What hassfest checks of the manifest and the actions, run here.

hassfest itself needs the core repository: keys, their order, versions, and every action
and field named in every language are checked here instead.
"""

import json
from pathlib import Path

from awesomeversion import AwesomeVersion
import pytest
import yaml

INTEGRATION = Path(__file__).parent.parent / "custom_components" / "layered_assist"
MANIFEST = json.loads((INTEGRATION / "manifest.json").read_text(encoding="utf-8"))
SERVICES = yaml.safe_load((INTEGRATION / "services.yaml").read_text(encoding="utf-8"))
IOT_CLASSES = {"assumed_state", "calculated", "cloud_polling", "cloud_push", "local_polling", "local_push"}
INTEGRATION_TYPES = {"device", "entity", "hardware", "helper", "hub", "service", "system", "virtual"}


def test_manifest_keys_and_order() -> None:
    """Domain and name first, the rest sorted; what a custom integration must have is there."""
    keys = list(MANIFEST)
    assert keys[:2] == ["domain", "name"]
    assert keys[2:] == sorted(keys[2:])
    assert MANIFEST["domain"] == INTEGRATION.name
    assert AwesomeVersion(MANIFEST["version"]).valid
    assert MANIFEST["iot_class"] in IOT_CLASSES
    assert MANIFEST["integration_type"] in INTEGRATION_TYPES
    assert MANIFEST["documentation"].startswith("https://")
    assert MANIFEST["issue_tracker"].startswith("https://")
    assert all(owner.startswith("@") for owner in MANIFEST["codeowners"])
    assert MANIFEST["config_flow"] is True
    for requirement in MANIFEST["requirements"]:
        assert any(op in requirement for op in ("==", ">=")), requirement


def test_hacs_manifest() -> None:
    """hacs.json holds only keys HACS knows, and the oldest release we support."""
    hacs = json.loads((INTEGRATION.parent.parent / "hacs.json").read_text(encoding="utf-8"))
    allowed = {"name", "content_in_root", "country", "filename", "hacs", "hide_default_branch",
               "homeassistant", "persistent_directory", "render_readme", "zip_release"}  # fmt: skip
    assert set(hacs) <= allowed
    assert hacs["name"] == MANIFEST["name"]
    assert (INTEGRATION.parent.parent / "LICENSE").is_file()


@pytest.mark.parametrize("language", ["en", "zh-Hans", "zh-Hant", "zh-HK", "zh-TW"])
def test_every_action_and_field_is_named(language: str) -> None:
    """Each action of services.yaml, and each of its fields, has a name and a description."""
    strings = json.loads((INTEGRATION / "translations" / f"{language}.json").read_text(encoding="utf-8"))
    services = strings["services"]
    assert set(services) == set(SERVICES)
    for name, spec in SERVICES.items():
        assert services[name]["name"], name
        assert services[name]["description"], name
        for field in spec.get("fields") or {}:
            texts = services[name]["fields"][field]
            assert texts["name"], f"{name}.{field}"
            assert texts["description"], f"{name}.{field}"
