"""Which section of Nightmare Cathedral's rules summary (``rules_summary.toml``, shown by the
shared Rules screen) explains a decision, or a refusal of the engine.

``DECISION_TOPICS`` maps every ``Decision.kind`` the engine produces to a section id of
the summary (``SOLO_TOPICS`` overrides a few in solo games); tests check that every kind
in the engine has one. A refusal (``IllegalAction``) names a rulebook section, such as
"CONFLICTS 2", "MANEUVER, MP" or "SOLO REFILL DREAMS"; ``topic_for_section`` finds the summary
section that lists it among its ``rulebook`` names.
"""

from __future__ import annotations

import re

from nctui.platform import registry
from nctui.ui.rules import Summary, get_summary, normal_name as _norm

from ..engine.errors import ActionError, IllegalAction


def rules_summary() -> Summary:
    """The game's rules summary (its registry entry's ``rules``)."""
    return get_summary(registry.entry("nightmare-cathedral").rules)


DECISION_TOPICS: dict[str, str] = {
    # setup
    "turn_start": "setup",
    "conquer": "setup",
    "place_dreamer": "setup",
    # the turn
    "choose_day": "action-matrix",
    "react": "reaction",
    "discard_dreams": "dreams",
    "draw_dream": "dreams",
    "play_dream": "dreams",
    "discard_development": "turn",
    # effects
    "choose": "actions",
    "choose_action": "actions",
    "keep_card": "develop",
    "play_upgrade": "develop",
    "play_ploy": "develop",
    "develop": "develop",
    "build_fort_level": "fortify",
    "pay_fort_level": "fortify",
    "remove_follower": "actions",
    "produce": "summon",
    "recover": "ritual",  # Limbo is explained with the Ritual
    "add_shadow": "unit-limit",
    "climb": "ritual-track",
    "climb_pay": "ritual",
    "ritual_bonus": "ritual-track",
    "move": "maneuver",
    "shaper_move": "shapers",
    "convert": "shapers",
    # conflicts
    "start_conflict": "conflicts",
    "plays_first": "conflicts",
    "play_combat_card": "conflicts",
    "break_tie": "conflicts",
    "retreat": "conflicts",
    "take_victory": "rewards",
    # the Cathedral and Stage 2
    "cathedral_piece": "divergent-paths",
    "move_dreamer": "reward-tiles",  # Wandering Dreamer
    "command_nightmare": "nightmares",
    "move_nightmare": "nightmares",
    "devour": "devouring",
    # solo: your setup, and your decisions for the King
    "solo_turn_start": "solo-setup",
    "solo_corner": "solo-setup",
    "king_dream": "solo-king-dreams",
    "king_shield_discard": "solo-conflicts",
    "king_maneuver": "solo-king-actions",
    "king_tuck": "solo-king-actions",
    "king_powered": "solo-difficulty",
    "king_cathedral_piece": "solo-king-turn",  # Divergent Paths: you choose the piece the King builds
}

SOLO_TOPICS: dict[str, str] = {
    "place_dreamer": "solo-setup",
}


def topic_for_decision(kind: str, *, solo: bool = False) -> str | None:
    """The section that explains a decision of this kind (None for an unknown kind)."""
    if solo and kind in SOLO_TOPICS:
        return SOLO_TOPICS[kind]
    return DECISION_TOPICS.get(kind)


def _index(summary: Summary) -> dict[tuple[str, str], str]:
    """(book, rulebook name) -> section id; the first section naming it wins."""
    index: dict[tuple[str, str], str] = {}
    for s in summary.sections:
        for name in s.rulebook:
            index.setdefault((s.book, _norm(name)), s.id)
    return index


def topic_for_section(section: str, summary: Summary | None = None) -> str | None:
    """The summary section for a rulebook section as a refusal names it.

    Tries the whole name, then without its step number ("SETUP 17"), then each part between
    ':', ';' or ',' in turn ("MANEUVER, MP"; "SOLO KING'S TURN 8, COMPLETING THE KING'S DREAMS 2").
    Names starting with SOLO are looked up among the solo rulebook's sections first.
    """
    index = _index(summary or rules_summary())
    name = _norm(section)
    books = ("core", "solo")
    if name.startswith("SOLO"):
        books, name = ("solo", "core"), _norm(name[4:]) or "SOLO"
    parts = [_norm(re.sub(r" \d+$", "", p.strip())) for p in re.split(r"[:;,]", name) if p.strip()]
    candidates = (name, re.sub(r" \d+$", "", name), *parts)
    for book in books:
        for candidate in candidates:
            if (book, candidate) in index:
                return index[(book, candidate)]
    return None


def topic_for_error(error: ActionError) -> str | None:
    """The section of the rule an engine refusal names (None when it names no section)."""
    if isinstance(error, IllegalAction) and error.section:
        return topic_for_section(error.section)
    return None


def refusal_words(error: ActionError) -> tuple[str, str]:
    """(title, body) of the message shown when the engine refuses an action: the reason, then
    the rule and the rulebook section it names."""
    text = str(error)
    if not isinstance(error, IllegalAction):
        return "Not allowed", text
    suffix = f" [{error.section}]"
    reason = text[: -len(suffix)] if error.section and text.endswith(suffix) else text
    title = f"Not allowed: {error.rule}" if error.rule else "Not allowed"
    where = f"Rulebook: {error.section}. " if error.section else ""
    return title, f"{reason}\n{where}Press R for the rule."
