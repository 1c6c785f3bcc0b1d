"""Incanto's calibration tool: camera, table, places, wands and cue, written into the one profile that
vision and the cue read (``vision.profile``).

    python -m calibration camera --images 'board/*.jpg' --board chessboard:9x6:25
    python -m calibration sheet --pdf markers.pdf --png markers.png    the table markers, true to scale
    python -m calibration table --source picamera2                     where the table is
    python -m calibration layout --game incantibus --taps TAPS.json    where each place and seat is
    python -m calibration wands --source picamera2 --empty-table PHOTO each wand's paint and bead
    python -m calibration status                                       what is done, what is next

The tablet's /calibration page does the same steps on the live camera picture, and records the cue.
"""
