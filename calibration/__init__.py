"""Incanto's calibration tool: camera, table, wands and cue."""
