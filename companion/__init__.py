"""Incanto's companion: the rules engine, the table's inputs and the tablets' display."""
