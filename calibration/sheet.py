"""The table's marker sheet, printed at true scale: an A4 page (PNG at a stated resolution, and PDF)
with every marker of the layout at its real size, its id, and where on the table it goes.

Pillow writes the PDF: its page is the image at the resolution it is given, so one picture drawn at
a whole number of pixels per millimetre is true to scale in both files.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from calibration.boards import aruco_dictionary
from calibration.model import CalibrationError
from calibration.table import TableLayout

A4_MM = (210.0, 297.0)
MARGIN_MM = 15.0  # printers leave 3-5 mm blank; a wide margin also leaves room to cut
QUIET_MM = 8.0  # white around each marker: the detector needs a quiet zone
DPI = 300
DPI_RANGE = (72, 600)  # a sheet a printer can print; 600 dpi is already a 35 MB picture
MM_PER_INCH = 25.4


@dataclass(frozen=True)
class Sheet:
    """(H, W) uint8 grey picture of the page at ``dpi``, and each marker's top-left corner (mm from the
    page's top-left) and side (mm)."""

    image: np.ndarray
    dpi: int
    markers: dict[int, tuple[float, float]]
    marker_mm: float

    @property
    def px_per_mm(self) -> float:
        return self.dpi / MM_PER_INCH


def cells(layout: TableLayout, page_mm: tuple[float, float] = A4_MM) -> tuple[int, float, float]:
    """How many markers go across the page, and each cell's width and height (mm)."""
    cell = layout.marker_mm + 2 * QUIET_MM
    usable_w, usable_h = page_mm[0] - 2 * MARGIN_MM, page_mm[1] - 2 * MARGIN_MM
    across = max(1, int(usable_w // cell))
    rows = math.ceil(len(layout.markers) / across)
    cell_h = cell + 12.0  # a line of text under each marker
    if cell > usable_w or rows * cell_h > usable_h:
        raise CalibrationError(f"{len(layout.markers)} markers of {layout.marker_mm:g} mm do not fit on one "
                               f"{page_mm[0]:g} x {page_mm[1]:g} mm page: use smaller markers or fewer of them")
    return across, usable_w / across, cell_h


def draw_sheet(layout: TableLayout, dpi: int = DPI) -> Sheet:
    """The printable page: markers in id order, each with its id and where it lies."""
    if isinstance(dpi, bool) or not isinstance(dpi, int) or not DPI_RANGE[0] <= dpi <= DPI_RANGE[1]:
        raise CalibrationError(f"a sheet of {dpi!r} dpi cannot be printed: give --dpi from {DPI_RANGE[0]} to {DPI_RANGE[1]}")
    scale = dpi / MM_PER_INCH
    page = np.full((round(A4_MM[1] * scale), round(A4_MM[0] * scale)), 255, np.uint8)
    across, cell_w, cell_h = cells(layout)
    side = round(layout.marker_mm * scale)
    dictionary = aruco_dictionary(layout.dictionary)
    placed: dict[int, tuple[float, float]] = {}
    for n, marker_id in enumerate(sorted(layout.markers)):
        x = MARGIN_MM + (n % across) * cell_w + (cell_w - layout.marker_mm) / 2
        y = MARGIN_MM + (n // across) * cell_h + QUIET_MM
        u, v = round(x * scale), round(y * scale)
        page[v:v + side, u:u + side] = cv2.aruco.generateImageMarker(dictionary, marker_id, side)
        placed[marker_id] = (u / scale, v / scale)
        _label(page, layout, marker_id, (u, v + side + round(6 * scale)), scale)
    _footer(page, layout, scale)
    return Sheet(page, dpi, placed, side / scale)


def _label(page: np.ndarray, layout: TableLayout, marker_id: int, at: tuple[int, int], scale: float) -> None:
    x, y = layout.markers[marker_id]
    _text(page, f"{marker_id}: x {x:g} y {y:g} mm", at, scale, 0.9)
    if marker_id in layout.where:
        _text(page, layout.where[marker_id], (at[0], at[1] + round(4.5 * scale)), scale, 0.7)


def _footer(page: np.ndarray, layout: TableLayout, scale: float) -> None:
    left, bottom = round(MARGIN_MM * scale), page.shape[0] - round(MARGIN_MM * scale)
    _text(page, f"Incanto table markers, {layout.dictionary}, {layout.marker_mm:g} mm: print at 100 % (no 'fit to page')",
          (left, bottom - round(5 * scale)), scale, 0.8)
    _text(page, f"each black square measures {layout.marker_mm:g} mm; lay it with its top edge to the far side",
          (left, bottom), scale, 0.8)


def _text(page: np.ndarray, text: str, at: tuple[int, int], scale: float, size_mm: float) -> None:
    # Hershey fonts are about 22 units tall at fontScale 1: size_mm is roughly the cap height / 3.
    cv2.putText(page, text, at, cv2.FONT_HERSHEY_SIMPLEX, size_mm * scale / 11.0, (0,), max(1, round(scale / 6)), cv2.LINE_AA)


def sheet_bytes(sheet: Sheet, kind: str) -> bytes:
    """The sheet as ``"png"`` or ``"pdf"`` bytes, for the tablet to download."""
    import io

    from PIL import Image

    out = io.BytesIO()
    if kind == "pdf":
        Image.fromarray(sheet.image).save(out, format="PDF", resolution=float(sheet.dpi))
    else:
        Image.fromarray(sheet.image).save(out, format="PNG", dpi=(sheet.dpi, sheet.dpi))
    return out.getvalue()


def write_sheet(sheet: Sheet, png: Path | None = None, pdf: Path | None = None) -> list[Path]:
    """Write the PNG (with its resolution stored, so viewers print it true to scale) and/or the PDF."""
    from PIL import Image

    picture = Image.fromarray(sheet.image)
    written = []
    if png is not None:
        picture.save(png, format="PNG", dpi=(sheet.dpi, sheet.dpi))
        written.append(Path(png))
    if pdf is not None:
        picture.save(pdf, format="PDF", resolution=float(sheet.dpi))
        written.append(Path(pdf))
    return written
