"""``python -m calibration camera|table|sheet|layout|wands|status``: set up the camera, the table and its places.

Every step refuses bad input with one line in plain words and exit status 2."""
from __future__ import annotations

import argparse
import glob
import sys
from pathlib import Path

import cv2
import numpy as np

from calibration.layout import read_taps
from calibration.profiles import note, rollback
from calibration.sheet import DPI, draw_sheet, write_sheet
from calibration.status import default_path, describe
from calibration.steps import calibrate, find_table, learn_wand_paints, place_taps, places_path
from calibration.table import DEFAULT_LAYOUT, TableLayout
from companion.words.said import Said
from vision.paints import colour_name


def read_images(pattern: str) -> list[np.ndarray]:
    paths = sorted(glob.glob(pattern))
    images = [cv2.imread(p) for p in paths]
    unreadable = [p for p, im in zip(paths, images) if im is None]
    if not paths or unreadable:
        raise ValueError(f"no readable images for {pattern!r}" + (f": cannot read {unreadable!r}" if unreadable else ""))
    return images


def camera(args: argparse.Namespace) -> None:
    images = read_images(args.images)
    result, cleared = calibrate(args.cal, images, args.board, args.fix_aspect)
    c = result.intrinsics
    print(f"board found in {len(result.used)} of {len(images)} images")
    print(f"fx {c.fx:.2f} fy {c.fy:.2f} cx {c.cx:.2f} cy {c.cy:.2f} rms {c.rms_px:.4f} px -> {args.cal}")
    if cleared:
        print("the table pose was cleared: run `python -m calibration table` again")


def read_image(path: str) -> np.ndarray:
    image = cv2.imread(path)
    if image is None:
        raise ValueError(f"cannot read image {path!r}")
    return image


def first_frame(args: argparse.Namespace) -> np.ndarray:
    if args.image:
        return read_image(args.image)
    from vision.sources import open_source

    source = open_source(args.source)
    try:
        frame = source.read()
    finally:
        source.close()
    if frame is None:
        raise ValueError(f"source {args.source!r} gave no picture")
    return frame.image


def table(args: argparse.Namespace) -> None:
    fit = find_table(args.cal, first_frame(args), args.layout)
    print(f"table found from markers {fit.markers_used} (fit {fit.pose.rms_px:.2f} px) -> {args.cal}")
    if fit.markers_missing:
        print(f"not seen: markers {fit.markers_missing}")


def sheet(args: argparse.Namespace) -> None:
    if args.png is None and args.pdf is None:
        raise ValueError("say where to write the sheet: --png FILE and/or --pdf FILE")
    layout = TableLayout.load(args.layout)
    written = write_sheet(draw_sheet(layout, args.dpi), args.png, args.pdf)
    print(f"{len(layout.markers)} markers of {layout.marker_mm:g} mm on one A4 page -> {', '.join(map(str, written))}")
    print("print at 100 % (no 'fit to page') and check one black square measures "
          f"{layout.marker_mm:g} mm before laying them out")


def layout(args: argparse.Namespace) -> None:
    out = args.places_out or places_path(args.cal, args.game)
    image = read_image(args.image) if args.image else None
    done = place_taps(args.cal, args.game, read_taps(args.taps), out, args.from_board, image)
    laid = done.places
    if done.snaps:
        moved = [done.snaps[name].moved_px for name in done.snapped]
        print(f"{len(moved)} taps snapped to their tokens' centres" + (f" (moved up to {max(moved):.1f} px)" if moved else ""))
    for name in done.kept:
        print(f"{name}: no clear token under the tap: kept where it was tapped")
    if image is None:
        print("taps not snapped to their tokens: give --image PHOTO, the picture the taps were made on")
    print(f"{len(laid.places)} places and {len(laid.seats)} seats of {args.game} -> {out}")
    print(f"the table side reads it with `--places {out}`")


def wands(args: argparse.Namespace) -> None:
    empty = read_image(args.empty_table) if args.empty_table else None
    learned = learn_wand_paints(args.cal, frames_for(args.source, args.seconds), empty)
    for k, m in sorted(learned.models.items()):
        print(f"wand {k}: {colour_name(m.hue)} (hue {m.hue:.0f} +- {m.hue_tolerance:.0f}), bead {m.bead_radius_mm:.1f} mm")
    print(f"learned from {learned.frames} pictures -> {args.cal}")
    for warning in learned.warnings:
        print(f"warning: {warning}")
    if empty is None:
        print("not checked for lookalikes: give --empty-table PHOTO, the table as it lies without the wands")


def frames_for(spec: str, seconds: float) -> list[np.ndarray]:
    """The source's pictures over ``seconds`` of its own time (or until it ends)."""
    from vision.sources import open_source

    source, images, start = open_source(spec), [], None
    try:
        while (frame := source.read()) is not None:
            start = frame.t if start is None else start
            if frame.t - start > seconds:
                break
            images.append(frame.image)
    finally:
        source.close()
    return images


def status(args: argparse.Namespace) -> None:
    print("\n".join(describe(args.cal)))


def roll_back(args: argparse.Namespace) -> None:
    rollback(args.cal, args.to, BY)
    print(f"calibration {args.to} is in use again -> {args.cal}")


BY = "the command line"
# Said with their catalogue words: the calibration page's "last change" is then in the tablet's language.
CHANGES = {"camera": Said("calibration.change.camera", "camera measured"),
           "table": Said("calibration.change.table", "table found"),
           "layout": Said("calibration.change.places", "places laid out"),
           "wands": Said("calibration.change.wands", "wands learned")}


def parser() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--profile", "--cal", dest="cal", type=Path, default=default_path(),
                        help="the calibration profile (default: %(default)s)")
    top = argparse.ArgumentParser(prog="python -m calibration", description="Set up Incanto's camera, table, places and wands.")
    sub = top.add_subparsers(dest="command", required=True)
    cam = sub.add_parser("camera", parents=[common], help="camera intrinsics from board photos")
    cam.add_argument("--images", required=True, help="glob of board photos, e.g. 'board/*.jpg'")
    cam.add_argument("--board", required=True, help="chessboard:9x6:25 or charuco:5x7:40:20:DICT_6X6_250")
    cam.add_argument("--fix-aspect", action="store_true", help="keep fx = fy (square pixels)")
    tab = sub.add_parser("table", parents=[common], help="the table's pose from its ArUco markers")
    where = tab.add_mutually_exclusive_group(required=True)
    where.add_argument("--image", help="a photo from the mounted camera")
    where.add_argument("--source", help="a camera source, e.g. picamera2 or camera:0")
    tab.add_argument("--layout", type=Path, default=DEFAULT_LAYOUT, help="marker layout JSON (default: %(default)s)")
    sht = sub.add_parser("sheet", help="the table's marker sheet at true scale (PNG and PDF)")
    sht.add_argument("--layout", type=Path, default=DEFAULT_LAYOUT, help="marker layout JSON (default: %(default)s)")
    sht.add_argument("--png", type=Path, help="write the sheet as a PNG (its resolution stored)")
    sht.add_argument("--pdf", type=Path, help="write the sheet as a one-page A4 PDF")
    sht.add_argument("--dpi", type=int, default=DPI, help="pixels per inch of the picture (default: %(default)s)")
    lay = sub.add_parser("layout", parents=[common], help="where each place and seat lies, from taps on the camera image")
    lay.add_argument("--game", required=True, help="the game whose places these are, e.g. incantibus")
    lay.add_argument("--taps", type=Path, required=True, help="JSON: place name -> pixel [x, y] of the camera image")
    lay.add_argument("--image", help="the camera picture the taps were made on: each tap snaps to the token it lands on")
    lay.add_argument("--from-board", action="store_true",
                     help="place what was not tapped from the board's layout, fitted to the (at least 3) tapped places")
    lay.add_argument("--places-out", type=Path, help="the places file to write (default: places-GAME.json beside the profile)")
    wnd = sub.add_parser("wands", parents=[common], help="learn each wand's paint and bead size under this light")
    wnd.add_argument("--source", required=True, help="a camera source showing the wands held with their tips on the table")
    wnd.add_argument("--seconds", type=float, default=3.0, help="how long to watch the wands (default: %(default)s)")
    wnd.add_argument("--empty-table", help="a photo of the table without the wands, to look for lookalikes")
    sub.add_parser("bench", help="the table and layout steps and the check during play, on rendered tables")
    sub.add_parser("status", parents=[common], help="what is calibrated and what to run next")
    back = sub.add_parser("rollback", parents=[common], help="make an earlier calibration the one in use again")
    back.add_argument("--to", type=int, required=True, help="the calibration's number (see status, or the history folder)")
    return top


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["bench"]:  # a benchmark, not a step: its own options
        from calibration.bench import main as bench

        return bench(argv[1:])
    args = parser().parse_args(argv)
    try:
        {"camera": camera, "table": table, "sheet": sheet, "layout": layout, "wands": wands,
         "status": status, "rollback": roll_back}[args.command](args)
        if args.command in CHANGES:
            note(args.cal, CHANGES[args.command], BY)
    except (ValueError, OSError) as e:  # CalibrationError is a ValueError
        print(f"error: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
