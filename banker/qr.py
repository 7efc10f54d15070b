"""QR codes: SVG for pages, text blocks for the terminal (the qrcode library does the work)."""

import io

import qrcode
import qrcode.image.svg
from markupsafe import Markup


def svg(data: str) -> Markup:
    """An inline SVG QR code that scales with its box."""
    image = qrcode.make(data, image_factory=qrcode.image.svg.SvgPathImage, border=2)
    return Markup(image.to_string(encoding="unicode"))


def terminal(data: str) -> str:
    """The QR code drawn with block characters, for printing in a terminal."""
    code = qrcode.QRCode(border=2)
    code.add_data(data)
    out = io.StringIO()
    code.print_ascii(out=out, invert=True)
    return out.getvalue()
