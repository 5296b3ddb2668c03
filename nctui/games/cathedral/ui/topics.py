"""Where Cathedral's rules summary (``rules_summary.toml``) explains the decision due. A refusal
names its rule ("Rule 4: ..."), which the summary's sections name too (``options_game``)."""

from __future__ import annotations

from ..state import CathedralState


def decision_topic(view: CathedralState) -> tuple[str, str | None]:
    """The section of the decision due, and the line shown above it."""
    if view.phase == "over":
        return "game-end", None
    if view.phase == "cathedral":
        return "placing", "The decision due: Light places the Cathedral"
    return "placing", "The decision due: place a building"
