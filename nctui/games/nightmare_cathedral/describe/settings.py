"""One line of help for each setting of the New game screen, by the setting's id and, where the
choice changes what it means, its value (CORE RULES: GAME STAGES, DIVERGENT PATHS, CHOOSING
NIGHTMARES; SOLO RULES: DIFFICULTY MODIFIERS)."""

from __future__ import annotations

# The designers' suggested pairs (CHOOSING NIGHTMARES), by the names the settings use.
PAIR_PURPOSE = {
    "ritual-climbing": "a race up the Ritual track",
    "lots-of-conflict": "a lot of conflict",
    "strategic-end": "a more strategic game end, with a variable length",
    "devoured-competition": "fierce competition for devoured units",
    "quick-end": "the end comes quickly once the Nightmares are in play",
    "card-play": "many cards drawn and played",
    "very-aggressive": "very aggressive play, and most likely an end by devoured units",
}

_SETTING: dict[str, str | dict[str, str]] = {
    "mode": {
        "hotseat": "People (and computer players) take turns at this keyboard; a hand-off hides each hand.",
        "solo": "You alone against the King of Horrors, an automated opponent with its own rules.",
    },
    "players": "2 to 4 seats; each one a person or a computer player.",
    "length": {
        "standard": "A Cathedral piece is built at the end of every turn after the first round: a known length.",
        "variable": "A piece is built only when a Dream with the Cathedral icon is played: longer, for "
        "players who know the game.",
    },
    "divergent": "Building a Cathedral piece offers a choice of effects (Reward tiles); for players with a few games.",
    "nightmares": "The 2 Nightmares that enter in Stage 2 (once the Cathedral is complete) set the game's character.",
    "undo": {
        "rules": "Undo only what no one else has seen: never past a hidden card, a die or another person's turn.",
        "practice": "Undo anything, as far back as you like (practice and learning).",
    },
    "difficulty": "Presets of the modifiers below; Custom: switch each one on or off yourself.",
    "seed": "The same seed and the same settings deal the same game.",
    "start": "s starts the game (b goes back).",
}


def setting_help(setting: str, value: str = "") -> str:
    """The line of help for ``setting`` (a Choice's id) showing ``value``; '' for none."""
    if setting.startswith("seat-"):
        return "Human: a person decides for this seat; Computer: a computer player does."
    if setting.startswith("mod-"):
        return "A solo difficulty modifier: Enter or space switches it on or off."
    if setting == "numbers":
        return "Two different Nightmare numbers from 1 to 8, e.g. 3,7."
    if setting == "nightmares" and value in PAIR_PURPOSE:
        return f"The designers' pair for {PAIR_PURPOSE[value]}; the Nightmares enter in Stage 2."
    words = _SETTING.get(setting, "")
    if isinstance(words, dict):
        return words.get(value, "")
    return words
