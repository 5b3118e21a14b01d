"""QR codes, drawn on the server as SVG so the PWA needs no QR library."""

from __future__ import annotations

import io

import segno


def qr_svg(text: str, *, scale: int = 8, title: str = "QR code") -> bytes:
    """An SVG QR code for `text`, black on white with a quiet zone, scalable by CSS."""
    code = segno.make(text, error="m")
    out = io.BytesIO()
    code.save(out, kind="svg", scale=scale, border=2, xmldecl=False, title=title,
              dark="#000", light="#fff")
    return out.getvalue()
