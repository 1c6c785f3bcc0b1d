"""The tablets' display: a FastAPI app, its push stream, and the pages shipped with it.

``create_app(night, status, settings)`` builds the app; ``serve``, ``demo`` and ``bench`` are the
command-line entry points. Pages and scripts live in ``static/`` and need no build step or network.
"""
