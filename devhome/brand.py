"""Draw the integration's brand images (icon, logo, dark and @2x variants) from one drawing.

HA (2026.3 and later) serves a custom integration's own ``brand/`` images through its
brands API; HACS shows them too. Run ``scripts/make-brand`` after changing the drawing.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

BRAND_DIR = Path(__file__).resolve().parent.parent / "custom_components" / "layered_assist" / "brand"
# Drawn this many times larger, then scaled down: smooth edges without an antialiasing pass.
OVERSAMPLE = 4
NAME = "Layered Assist"


@dataclass(frozen=True)
class Palette:
    """Colours of one theme: the three layers from bottom to top, the bubble and the text."""

    layers: tuple[str, str, str]
    bubble: str
    bubble_dot: str
    text: str


LIGHT = Palette(("#0D47A1", "#1976D2", "#03A9F4"), "#FFFFFF", "#0D47A1", "#1F2933")
DARK = Palette(("#1E88E5", "#42A5F5", "#81D4FA"), "#263238", "#E1F5FE", "#ECEFF1")


def _layer(draw: ImageDraw.ImageDraw, unit: float, top: float, colour: str) -> None:
    """Draw one flat diamond (a layer seen from above at an angle), its top corner at ``top``."""
    left, right, middle = 0.14 * unit, 0.86 * unit, 0.5 * unit
    depth = 0.2 * unit
    draw.polygon(
        [(middle, top), (right, top + depth), (middle, top + 2 * depth), (left, top + depth)], fill=colour
    )


def _icon(size: int, palette: Palette) -> Image.Image:
    """Draw three stacked layers and a speech bubble on a transparent square."""
    unit = size * OVERSAMPLE
    image = Image.new("RGBA", (unit, unit), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    for step, colour in enumerate(palette.layers):
        _layer(draw, unit, (0.5 - 0.16 * step) * unit, colour)
    # The bubble: what is said, read layer by layer.
    box = (0.52 * unit, 0.08 * unit, 0.94 * unit, 0.38 * unit)
    draw.rounded_rectangle(
        box, radius=0.09 * unit, fill=palette.bubble, outline=palette.layers[0], width=unit // 60
    )
    draw.polygon(
        [(0.6 * unit, 0.36 * unit), (0.58 * unit, 0.46 * unit), (0.7 * unit, 0.37 * unit)],
        fill=palette.bubble,
    )
    for step in range(3):
        x = (0.62 + 0.11 * step) * unit
        radius = 0.035 * unit
        draw.ellipse(
            (x - radius, 0.23 * unit - radius, x + radius, 0.23 * unit + radius), fill=palette.bubble_dot
        )
    return image.resize((size, size), Image.Resampling.LANCZOS)


def _logo(height: int, palette: Palette) -> Image.Image:
    """Draw the icon followed by the name, as wide as they need."""
    icon = _icon(height, palette)
    font = ImageFont.load_default(size=int(height * 0.42))
    left, top, right, bottom = font.getbbox(NAME)
    width = height + int(height * 0.12) + (right - left) + int(height * 0.08)
    logo = Image.new("RGBA", (width, height), (0, 0, 0, 0))
    logo.alpha_composite(icon, (0, 0))
    draw = ImageDraw.Draw(logo)
    text_y = (height - (bottom - top)) // 2 - top
    draw.text((height + int(height * 0.12) - left, text_y), NAME, font=font, fill=palette.text)
    return logo


def images() -> dict[str, Image.Image]:
    """Return every brand image by its file name."""
    drawn: dict[str, Image.Image] = {}
    for prefix, palette in (("", LIGHT), ("dark_", DARK)):
        for name, large in (("icon", _icon(512, palette)), ("logo", _logo(256, palette))):
            # The plain image is the @2x one at half size: the two always match.
            half = (large.width // 2, large.height // 2)
            drawn[f"{prefix}{name}@2x.png"] = large
            drawn[f"{prefix}{name}.png"] = large.resize(half, Image.Resampling.LANCZOS)
    return drawn


def main() -> None:
    """Write the images into the integration's brand folder (or another)."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", type=Path, default=BRAND_DIR)
    out: Path = parser.parse_args().out
    out.mkdir(parents=True, exist_ok=True)
    for name, image in images().items():
        image.save(out / name, optimize=True)
        print(f"{out / name}: {image.width}x{image.height}")


if __name__ == "__main__":
    main()
