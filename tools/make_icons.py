"""Draw the web app's PNG icons (``static/icons/``) from the shapes of ``static/favicon.svg``.

Run once after changing the logo: ``python3 tools/make_icons.py``. It needs nothing beyond the standard
library (a tiny PNG writer and 4 × 4 supersampling for smooth edges), so the committed PNGs can be redrawn
anywhere. The icons are the favicon's four squares on the page's light background:

- ``icon-192.png``, ``icon-512.png``: the squares fill most of the icon (``"purpose": "any"``);
- ``icon-maskable-512.png``: the squares stay inside the central 80 % safe zone, since a launcher may crop a
  maskable icon to a circle or a squircle (``"purpose": "maskable"``).
"""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

ICONS = Path(__file__).resolve().parent.parent / "src" / "foursquare" / "web" / "static" / "icons"
BACKGROUND = (0xF3, 0xEF, 0xE6)  # style.css --bg (light)
GREEN = (0x1F, 0x6F, 0x54)  # favicon.svg / --accent
RED = (0xC0, 0x26, 0x2D)  # favicon.svg / --red
# The favicon's squares in its 32-unit box: (x, y, size, colour); corner radius 2.5 units.
SQUARES = [(3, 3, 12, GREEN), (17, 3, 12, RED), (3, 17, 12, RED), (17, 17, 12, GREEN)]
RADIUS = 2.5
SAMPLES = 4


def inside_rounded(x: float, y: float, left: float, top: float, size: float, radius: float) -> bool:
    if not (left <= x <= left + size and top <= y <= top + size):
        return False
    cx = min(max(x, left + radius), left + size - radius)
    cy = min(max(y, top + radius), top + size - radius)
    return (x - cx) ** 2 + (y - cy) ** 2 <= radius**2


def draw(pixels: int, logo_fraction: float) -> list[list[tuple[int, int, int]]]:
    """An opaque square image: the favicon's 32-unit box scaled to ``logo_fraction`` of it, centred."""
    unit = pixels * logo_fraction / 32
    offset = (pixels - 32 * unit) / 2
    rows = []
    for py in range(pixels):
        row = []
        for px in range(pixels):
            total = [0.0, 0.0, 0.0]
            for sy in range(SAMPLES):
                for sx in range(SAMPLES):
                    x = (px + (sx + 0.5) / SAMPLES - offset) / unit
                    y = (py + (sy + 0.5) / SAMPLES - offset) / unit
                    colour = BACKGROUND
                    for left, top, size, fill in SQUARES:
                        if inside_rounded(x, y, left, top, size, RADIUS):
                            colour = fill
                            break
                    for i in range(3):
                        total[i] += colour[i]
            r, g, b = (round(c / SAMPLES**2) for c in total)
            row.append((r, g, b))
        rows.append(row)
    return rows


def png(rows: list[list[tuple[int, int, int]]]) -> bytes:
    height, width = len(rows), len(rows[0])

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    raw = b"".join(b"\x00" + bytes(c for pixel in row for c in pixel) for row in rows)
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)  # 8-bit RGB
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")


def main() -> None:
    ICONS.mkdir(exist_ok=True)
    for name, pixels, fraction in (
        ("icon-192.png", 192, 0.9),
        ("icon-512.png", 512, 0.9),
        ("icon-maskable-512.png", 512, 0.62),
    ):
        (ICONS / name).write_bytes(png(draw(pixels, fraction)))
        print(ICONS / name)


if __name__ == "__main__":
    main()
