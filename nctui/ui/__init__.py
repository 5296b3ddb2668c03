"""The Textual user interface."""

from .app import create_app

__all__ = ["create_app"]
