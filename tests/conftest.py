"""Shared test set-up."""

from __future__ import annotations

import os

# Snapshots must not depend on the order tests run in or on the developer's terminal.
os.environ.pop("NO_COLOR", None)
