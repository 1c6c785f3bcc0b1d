"""Rendered game-table scenes with ground truth, for tests and benchmarks.

Nothing here is imported by the detector: the renderer computes its answers (where each wand's tip is,
where its axis meets the table, which token the player meant) from its own 3D geometry, so the
detector can be tested against an independent calculation.
"""
