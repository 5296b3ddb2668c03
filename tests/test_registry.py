"""The registry's entries are true to their games: every reference resolves, and the data an
entry gives (id, title, seat counts, computer player levels, capabilities) is what the game does.
A fifth game is checked with no change here."""

from __future__ import annotations

import pytest

from nctui.platform import registry
from nctui.platform.registry import GameEntry

ENTRIES = registry.ENTRIES
REFS = ("game", "screen", "new_game", "practice", "tutorial", "audit")


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: e.id)
def test_every_reference_of_an_entry_resolves(entry: GameEntry) -> None:
    for field in REFS:
        ref = getattr(entry, field)
        if not ref:
            continue
        if ":" in ref:
            assert callable(registry.load(ref)), f"{entry.id}.{field}: {ref}"
        else:
            __import__(ref)
        module = ref.partition(":")[0]
        assert module.startswith(entry.package + "."), f"{entry.id}.{field} is outside its package: {ref}"
    if entry.rules:
        from importlib.resources import files

        package, _, name = entry.rules.partition(":")
        assert package.startswith(entry.package) and files(package).joinpath(name).is_file(), entry.rules


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: e.id)
def test_an_entry_says_what_its_game_is_and_does(entry: GameEntry) -> None:
    game = registry.game(entry.id)
    assert game.id == entry.id and game.title == entry.title
    sim = registry.simulated(entry.id)
    low, high = entry.players
    for level in entry.levels:
        for count in {low, high}:
            config = sim.computer_game(1, (level,) * count)
            assert registry.game_of(config) is game
            assert game.new(config).state is not None
    for count in (low - 1, high + 1):
        if count >= 1:
            with pytest.raises(ValueError):
                sim.computer_game(1, (entry.levels[0],) * count)
    with pytest.raises(ValueError):
        sim.computer_game(1, ("no-such-level",) * low)
    assert (registry.advisor(entry.id) is not None) == entry.hints
    if entry.hints:
        assert callable(registry.advisor(entry.id).advise)  # type: ignore[union-attr]
    if entry.scenarios:
        assert callable(registry.positions(entry.id).load_position)  # type: ignore[union-attr]


def test_ids_keys_and_packages_are_each_used_once() -> None:
    for field in ("id", "key", "package", "title"):
        values = [getattr(e, field) for e in ENTRIES]
        assert len(set(values)) == len(values), field
