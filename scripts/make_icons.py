#!/usr/bin/env python3
"""Draw the PWA's icons (a red heart on a white card on green felt) as PNGs, standard library only.

Run from the repository root: `python3 scripts/make_icons.py`. The output is committed in
pwa/icons/, so this runs only when the design changes. Shapes are drawn as implicit functions and
supersampled (2x2) for smooth edges; no imaging library is needed.
"""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "pwa" / "icons"

FELT = (21, 94, 56)        # the table's green
CARD = (255, 255, 255)
HEART = (200, 30, 45)      # hearts are red (see shared/UX.md: suits in their colours)
SUPERSAMPLE = 2


def _png(width: int, height: int, rows: list[bytes]) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    raw = b"".join(b"\x00" + row for row in rows)  # filter type 0 on every row
    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)  # 8-bit RGBA
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def _in_rounded_rect(x: float, y: float, half_w: float, half_h: float, r: float) -> bool:
    dx, dy = abs(x) - (half_w - r), abs(y) - (half_h - r)
    if dx <= 0 or dy <= 0:
        return abs(x) <= half_w and abs(y) <= half_h
    return dx * dx + dy * dy <= r * r


def _in_heart(x: float, y: float) -> bool:
    # The classic heart curve (x^2 + y^2 - 1)^3 - x^2 y^3 <= 0, with y pointing up.
    a = x * x + y * y - 1
    return a * a * a - x * x * y * y * y <= 0


def _colour(u: float, v: float, maskable: bool) -> tuple[int, int, int, int]:
    """The colour at (u, v) in [-1, 1]^2 (v pointing down)."""
    scale = 0.78 if maskable else 1.0  # keep a maskable icon's content in its safe zone
    if not maskable and not _in_rounded_rect(u, v, 1.0, 1.0, 0.36):
        return (0, 0, 0, 0)
    cu, cv = u / scale, v / scale
    if _in_rounded_rect(cu, cv, 0.52, 0.72, 0.12):
        if _in_heart(cu / 0.34, -(cv - 0.04) / 0.34):
            return (*HEART, 255)
        return (*CARD, 255)
    return (*FELT, 255)


def draw(size: int, maskable: bool = False) -> bytes:
    rows = []
    n = SUPERSAMPLE
    for py in range(size):
        row = bytearray()
        for px in range(size):
            acc = [0, 0, 0, 0]
            for sy in range(n):
                for sx in range(n):
                    u = ((px + (sx + 0.5) / n) / size) * 2 - 1
                    v = ((py + (sy + 0.5) / n) / size) * 2 - 1
                    r, g, b, a = _colour(u, v, maskable)
                    acc[0] += r * a
                    acc[1] += g * a
                    acc[2] += b * a
                    acc[3] += a
            alpha = acc[3] // (n * n)
            if acc[3]:
                row += bytes((acc[0] // acc[3], acc[1] // acc[3], acc[2] // acc[3], alpha))
            else:
                row += b"\x00\x00\x00\x00"
        rows.append(bytes(row))
    return _png(size, size, rows)


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, size, maskable in [("icon-192.png", 192, False), ("icon-512.png", 512, False),
                                 ("maskable-512.png", 512, True),
                                 ("apple-touch-icon.png", 180, True)]:
        (OUT / name).write_bytes(draw(size, maskable))
        print(f"wrote pwa/icons/{name}")


if __name__ == "__main__":
    main()
