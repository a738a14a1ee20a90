"""The brand images HA and HACS show: every file, at the sizes HA's brands rules ask for."""

from pathlib import Path
import struct

import pytest

from devhome.brand import BRAND_DIR, images

# Icons square, 256 and 512; logos 128 and 256 high, as wide as they need.
SIZES = {
    "icon.png": (256, 256),
    "icon@2x.png": (512, 512),
    "logo.png": (None, 128),
    "logo@2x.png": (None, 256),
}


def png_size(path: Path) -> tuple[int, int]:
    """Read a PNG's width and height from its header."""
    header = path.read_bytes()[:24]
    assert header[:8] == b"\x89PNG\r\n\x1a\n", path
    width, height = struct.unpack(">II", header[16:24])
    return width, height


@pytest.mark.parametrize("name", [*SIZES, *(f"dark_{name}" for name in SIZES)])
def test_brand_image_sizes(name: str) -> None:
    """Each image is there, a PNG of its size; the @2x one is twice the plain one."""
    width, height = png_size(BRAND_DIR / name)
    want_width, want_height = SIZES[name.removeprefix("dark_")]
    assert height == want_height
    assert width == (want_width or width)
    assert width >= height
    if "@2x" in name:
        plain = png_size(BRAND_DIR / name.replace("@2x", ""))
        assert abs(width - 2 * plain[0]) <= 2


def test_the_drawing_makes_what_is_committed() -> None:
    """scripts/make-brand draws the same set of files at the same sizes (regenerable)."""
    drawn = images()
    assert set(drawn) == {path.name for path in BRAND_DIR.glob("*.png")}
    for name, image in drawn.items():
        assert (image.width, image.height) == png_size(BRAND_DIR / name)
