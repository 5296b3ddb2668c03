"""The base content pack: it loads, has the rulebook's counts, a sound board, and bad files are
reported with the file, the entry and the field."""

from __future__ import annotations

import hashlib
import re
import shutil
from collections import Counter, deque
from pathlib import Path

import pytest

from nctui.content import schema as s
from nctui.content.loader import FILES, PACKS_DIR, ContentError, Pack, get_pack, load_pack

BASE = PACKS_DIR / "base"


@pytest.fixture(scope="module")
def pack() -> Pack:
    return get_pack("base")


def _side(pack: Pack, players: int):
    return next(sm for sm in pack.sides if players in sm.side.players)


def _reachable(adjacency: dict[str, set[str]], start: str) -> set[str]:
    seen, todo = {start}, deque([start])
    while todo:
        for b in adjacency[todo.popleft()]:
            if b not in seen:
                seen.add(b)
                todo.append(b)
    return seen


# ------------------------------------------------------------------------------------------------
# The pack loads, with the rulebook's counts


def test_base_pack_loads(pack: Pack) -> None:
    assert pack.info.id == "base"
    assert get_pack("base") is pack  # loaded once, then shared
    assert len(pack.digest) == 64


def test_card_counts(pack: Pack) -> None:
    c = pack.cards
    assert [d.stage for d in c.development] == [1] * 52
    assert [d.stage for d in c.dreams] == [1] * 27
    assert [k.stage for k in c.conflicts] == [1] * 16
    assert len(c.actions) == 5
    assert sorted(a.action for a in c.actions) == sorted(s.ACTION_IDS)
    assert {a.id for a in c.actions} == {f"start-{a}" for a in s.ACTION_IDS}
    assert len(c.reward_tiles) == 13
    assert len(c.suits) == 4
    assert c.basic_combat.id == "basic-combat"
    # left for later issues
    assert c.nightmares == () and c.king_actions == () and c.king_combat == () and c.king_nightmares == ()


def test_card_ids_are_unique_kebab_case(pack: Pack) -> None:
    c = pack.cards
    ids = (
        [a.id for a in c.actions]
        + [c.basic_combat.id]
        + [d.id for d in c.development]
        + [d.id for d in c.dreams]
        + [k.id for k in c.conflicts]
        + [t.id for t in c.reward_tiles]
    )
    assert len(ids) == len(set(ids))
    assert all(re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", i) for i in ids)
    assert all(d.id.startswith("d1-") for d in c.development)
    assert all(d.id.startswith("dr1-") for d in c.dreams)
    assert all(k.id.startswith("c1-") for k in c.conflicts)
    assert all(t.id.startswith("rt-") for t in c.reward_tiles)
    names = [x.name for x in (*c.actions, *c.development, *c.dreams, *c.conflicts, *c.reward_tiles)]
    assert len(names) == len(set(names))


def test_suits_have_one_cell_glyphs_and_distinct_letters(pack: Pack) -> None:
    suits = pack.cards.suits
    assert all(len(x.glyph) == 1 and len(x.letter) == 1 and x.letter.isascii() for x in suits)
    assert len({x.letter for x in suits}) == len({x.glyph for x in suits}) == len({x.id for x in suits}) == 4


# ------------------------------------------------------------------------------------------------
# Board


def test_board_sides(pack: Pack) -> None:
    small, large = _side(pack, 2), _side(pack, 4)
    assert small.side.players == (1, 2) and large.side.players == (3, 4)
    assert len(small.side.areas) == 12
    assert sum(a.corner for a in small.side.areas) == 4
    assert not any(a.four_players_only for a in small.side.areas)
    assert len(large.side.areas) == 18
    assert sum(a.corner for a in large.side.areas) == 4
    assert sum(a.four_players_only for a in large.side.areas) == 4  # the 4 overlay tiles
    for sm in (small, large):
        assert sm.adjacent_cathedral  # some areas touch the Cathedral
        assert not any(a.corner for a in sm.side.areas if a.id in sm.adjacent_cathedral)


@pytest.mark.parametrize("players", [2, 4])
def test_adjacency_symmetric_and_connected(pack: Pack, players: int) -> None:
    sm = _side(pack, players)
    adj = {a: set(bs) for a, bs in sm.adjacency}
    assert set(adj) == {a.id for a in sm.side.areas}
    for a, bs in adj.items():
        assert a not in bs
        for b in bs:
            assert a in adj[b], f"{a} -> {b} is not symmetric"
    for a in adj:
        assert _reachable(adj, a) == set(adj)


def test_three_player_board_stays_connected(pack: Pack) -> None:
    sm = _side(pack, 3)
    covered = {a.id for a in sm.side.areas if a.four_players_only}
    adj = {a: set(bs) - covered for a, bs in sm.adjacency if a not in covered}
    for a in adj:
        assert _reachable(adj, a) == set(adj)


def test_small_side_no_adjacent_areas_share_a_symbol(pack: Pack) -> None:
    sm = _side(pack, 2)
    symbol = {a.id: a.symbol for a in sm.side.areas}
    for a, bs in sm.adjacency:
        for b in bs:
            assert symbol[a] != symbol[b], f"{a} and {b} both show {symbol[a]}"


def test_turn_track_shows_each_symbol_twice(pack: Pack) -> None:
    turn = pack.tracks.turn
    assert len(turn) == 12  # divisible by 2, 3 and 4 players
    assert Counter(turn) == Counter({x.id: 2 for x in pack.board.symbols})
    assert all(turn[i] != turn[(i + 1) % len(turn)] for i in range(len(turn)))


def test_ritual_track_embeds_the_worked_example(pack: Pack) -> None:
    """Rulebook example: special (3 MP) step, 5 open steps (one paid from Limbo), a special step
    with two symbols whose bonus is forfeited, then the free step onto an open space: 2-9.
    Space 1 is open, so that free climbs can always leave the start."""
    r = pack.tracks.ritual
    assert len(r) == 21
    assert r[0].kind == "open"
    assert r[1].kind == "special" and r[1].bonus == "movement3" and len(r[1].cost) == 1
    assert [x.kind for x in r[2:7]] == ["open"] * 5
    assert r[7].kind == "special" and len(r[7].cost) == 2
    assert r[8].kind == "open"


# ------------------------------------------------------------------------------------------------
# Cards


@pytest.mark.parametrize("players,size", [(2, 38), (3, 46), (4, 52)])
def test_development_deck_size_by_player_count(pack: Pack, players: int, size: int) -> None:
    deck = [d for d in pack.cards.development if d.players <= players]
    assert len(deck) == size
    marks = Counter(d.players for d in pack.cards.development)
    assert marks == Counter({2: 38, 3: 8, 4: 6})


def test_two_player_deck_has_upgrades_for_every_action(pack: Pack) -> None:
    deck = [d for d in pack.cards.development if d.players == 2]
    per_action = Counter(d.action for d in deck if d.kind == "upgrade")
    assert set(per_action) == set(s.ACTION_IDS)
    assert min(per_action.values()) >= 3


def test_every_development_card_has_combat_icons(pack: Pack) -> None:
    for d in pack.cards.development:
        assert d.combat.attack + d.combat.defense >= 1, d.id
        assert 0 <= d.combat.attack <= 3 and 0 <= d.combat.defense <= 2, d.id


def test_upgrades_and_ploys(pack: Pack) -> None:
    dev = pack.cards.development
    ups = [d for d in dev if d.kind == "upgrade"]
    ploys = [d for d in dev if d.kind == "ploy"]
    assert len(ups) == 30 and len(ploys) == 22
    assert Counter(d.action for d in ups) == Counter({a: 6 for a in s.ACTION_IDS})
    for d in ups:
        assert d.day and d.conform and d.dissent and d.effect is None, d.id
        assert d.unit_limit == (3 if d.action == "fortify" else 0), d.id
        assert d.vp in (0, 1), d.id
        if d.unit_limit_one_area:
            assert d.action == "fortify", d.id
    raised = Counter(d.unit_limit_one_area for d in ups if d.unit_limit_one_area)
    assert raised == Counter({4: raised[4], 5: 1}) and raised[4] >= 2
    for d in ploys:
        assert d.effect and d.effect.steps and d.action is None and d.day is None, d.id


def test_starting_action_cards(pack: Pack) -> None:
    acts = {a.action: a for a in pack.cards.actions}
    assert acts["fortify"].unit_limit == 3
    assert all(a.unit_limit == 0 for k, a in acts.items() if k != "fortify")
    man = acts["maneuver"].day.steps
    assert isinstance(man[0], s.Move) and man[0].mp == 4
    assert any(isinstance(x, s.ResolveConflicts) for x in man)
    summon = acts["summon"].day.steps
    assert any(isinstance(x, s.Produce) and x.mode == "each" and x.where == "marked_or_fort" for x in summon)
    fort = acts["fortify"].day.steps[0]
    assert isinstance(fort, s.AddFortLevels) and fort.count == 2 and sum(fort.cost) == 3
    paid, free = acts["ritual"].day.steps
    assert isinstance(paid, s.Climb) and paid.paid and paid.steps == 0 and paid.primary and paid.special
    assert isinstance(free, s.Climb) and free.free == 1 and set(free.kinds) == {"open", "special"}
    dev = acts["develop"].day.steps
    assert any(isinstance(x, s.PlayUpgrades) and x.count == 0 for x in dev)
    assert any(isinstance(x, s.PlayPloys) and x.count == 0 for x in dev)
    for a in acts.values():
        for eff in (a.day, a.conform, a.dissent):
            assert eff.text and eff.steps, a.id


def test_dreams(pack: Pack) -> None:
    dreams = pack.cards.dreams
    assert all(2 <= d.vp <= 5 for d in dreams)
    assert 3.0 <= sum(d.vp for d in dreams) / len(dreams) <= 3.6
    assert sum(d.cathedral for d in dreams) == 8
    assert Counter(d.suit for d in dreams if d.cathedral) == Counter({x.id: 2 for x in pack.cards.suits})
    assert all(1 <= len(d.needs) <= 2 and d.text for d in dreams)
    assert set(Counter(d.suit for d in dreams)) == {x.id for x in pack.cards.suits}
    assert not any(isinstance(n, s.DevouredAtLeast) for d in dreams for n in d.needs)  # Stage 2 only


def test_conflicts_grow_with_shadows(pack: Pack) -> None:
    for k in pack.cards.conflicts:
        power = [ln.combat.attack + ln.combat.defense for ln in k.lines]
        attack = [ln.combat.attack for ln in k.lines]
        assert power == sorted(power) and power[0] < power[2], k.id
        assert attack == sorted(attack) and attack[0] >= 1, k.id
        assert k.victory.steps and k.defeat.steps, k.id


def test_reward_tiles_follow_the_rulebook(pack: Pack) -> None:
    tiles = pack.cards.reward_tiles
    assert Counter(t.colour for t in tiles) == Counter({"gray": 5, "yellow": 4, "red": 4})
    kinds = [tuple(type(x).__name__ for x in t.effect.steps) for t in tiles]
    assert kinds == [
        ("Climb",),
        ("Produce",),
        ("Move",),
        ("PlayUpgrades",),
        ("Climb",),
        ("Draw",),
        ("AddShadows",),
        ("Draw",),
        ("AddFortLevels",),
        ("ShaperMove",),
        ("Convert",),
        ("MoveDreamer",),
        ("PerformConform",),
    ]
    steps = [t.effect.steps[0] for t in tiles]
    assert steps[0].free == 1 and steps[0].kinds == ("open",)
    assert steps[4].free == 1 and set(steps[4].kinds) == {"open", "special"}
    assert (steps[5].deck, steps[5].count, steps[5].keep) == ("development2", 5, 2)
    assert steps[6].count == 2 and steps[6].then_conflict
    assert (steps[7].deck, steps[7].count, steps[7].keep) == ("dream2", 4, 1)
    assert steps[8].existing_only and steps[9].anywhere and steps[10].where == "adjacent_shaper"
    gray = [t for t in tiles if t.colour == "gray"]
    assert [tiles.index(t) for t in gray] == [0, 1, 2, 3, 8]


def test_every_effect_has_a_text(pack: Pack) -> None:
    c = pack.cards
    effects = [e for a in c.actions for e in (a.day, a.conform, a.dissent)]
    effects += [e for d in c.development for e in (d.day, d.conform, d.dissent, d.effect) if e]
    effects += [e for k in c.conflicts for e in (k.victory, k.defeat)]
    effects += [t.effect for t in c.reward_tiles]
    effects += [d.effect for d in c.dreams if d.effect != s.NO_EFFECT]
    for e in effects:
        assert e.text.strip() and e.text[0].isupper() and e.text.rstrip()[-1] in ".-", e.text


# ------------------------------------------------------------------------------------------------
# Broken packs


def _digest(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir()) if p.is_file()}


@pytest.fixture
def broken(tmp_path: Path):
    """Copy the base pack to tmp_path; yield an editor; check the original is untouched after."""
    before = _digest(BASE)
    folder = tmp_path / "base"
    shutil.copytree(BASE, folder)

    def edit(file: str, old: str, new: str) -> Path:
        path = folder / file
        text = path.read_text(encoding="utf-8")
        assert old in text, f"test setup: {old!r} not in {file}"
        path.write_text(text.replace(old, new, 1), encoding="utf-8")
        return folder

    edit.folder = folder  # type: ignore[attr-defined]
    yield edit
    assert _digest(BASE) == before, "loading a broken copy modified the original pack"


def _drop_card(text: str, table: str, card_id: str) -> str:
    """Remove the [[table]] block of one card (with its sub-tables) from a cards.toml text."""
    lines = text.splitlines(keepends=True)
    start = next(
        i for i, ln in enumerate(lines) if ln.strip() == f"[[{table}]]" and lines[i + 1].strip() == f'id = "{card_id}"'
    )
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("[[")), len(lines))
    return "".join(lines[:start] + lines[end:])


def _error(folder: Path) -> ContentError:
    with pytest.raises(ContentError) as info:
        load_pack(folder)
    return info.value


def test_wrong_type_in_an_area_field(broken) -> None:
    folder = broken("board.toml", 'symbol = "eye",    corner = true', 'symbol = "eye",    corner = "yes"')
    err = _error(folder)
    assert err.file == "board.toml"
    msg = str(err)
    assert msg.startswith("board.toml: ")
    assert "sides[small].areas[weeping-orchard].corner" in msg and "corner" in msg and "bool" in msg


def test_unknown_field_in_a_card(broken) -> None:
    folder = broken("cards.toml", 'id = "dr1-sleeping-kingdoms"', 'id = "dr1-sleeping-kingdoms"\nvp_x = 1')
    msg = str(_error(folder))
    assert msg.startswith("cards.toml: ") and "dreams[dr1-sleeping-kingdoms]" in msg and "vp_x" in msg


def test_wrong_type_in_a_card_field(broken) -> None:
    folder = broken("cards.toml", "vp = 3", 'vp = "three"')
    msg = str(_error(folder))
    assert msg.startswith("cards.toml: ") and "dreams[dr1-sleeping-kingdoms].vp" in msg and "int" in msg


def test_unknown_symbol(broken) -> None:
    folder = broken("board.toml", 'cell = "c", name = "Salt Spire",      symbol = "key"', 'cell = "c", name = "Salt Spire",      symbol = "wing"')
    err = _error(folder)
    assert err.file == "board.toml"
    msg = str(err)
    assert "salt-spire" in msg and "symbol" in msg and "'wing'" in msg


def test_unknown_step(broken) -> None:
    folder = broken("cards.toml", 'do = "climb"', 'do = "teleport"')
    msg = str(_error(folder))
    assert msg.startswith("cards.toml: ") and "actions[start-ritual].day.steps[0].do" in msg and "teleport" in msg


def test_unknown_suit(broken) -> None:
    folder = broken("cards.toml", 'suit = "crown"', 'suit = "sceptre"')
    msg = str(_error(folder))
    assert msg.startswith("cards.toml: ") and "dr1-sleeping-kingdoms" in msg and "suit" in msg and "sceptre" in msg


@pytest.mark.parametrize("name", list(FILES))
def test_missing_file(broken, name: str) -> None:
    folder = broken.folder
    (folder / name).unlink()
    err = _error(folder)
    assert err.file == name and err.entry == "(file)"
    assert str(err).startswith(f"{name}: (file): missing")


def test_toml_syntax_error(broken) -> None:
    folder = broken("tracks.toml", "time = [", "time = [[")
    err = _error(folder)
    assert err.file == "tracks.toml" and err.entry == "(syntax)"
    assert re.search(r"line \d+", str(err))


@pytest.mark.parametrize(
    "table,card_id,problem",
    [
        ("conflicts", "c1-grasping-fog", "Stage 1 has 15 cards, the rulebook has 16"),
        ("development", "d1-quiet-step", "Stage 1 has 51 cards, the rulebook has 52"),
        ("dreams", "dr1-first-rung", "Stage 1 has 26 cards, the rulebook has 27"),
        ("reward_tiles", "rt-swift-paths", "there are 13 Reward tiles"),
    ],
)
def test_wrong_card_count(broken, table: str, card_id: str, problem: str) -> None:
    folder = broken.folder
    path = folder / "cards.toml"
    path.write_text(_drop_card(path.read_text(encoding="utf-8"), table, card_id), encoding="utf-8")
    err = _error(folder)
    assert (err.file, err.entry, err.problem) == ("cards.toml", table, problem)


def test_broken_copy_does_not_replace_the_shared_pack(broken, pack: Pack) -> None:
    folder = broken("pack.toml", 'version = 1', 'version = "one"')
    _error(folder)
    assert get_pack("base") is pack
    assert load_pack(BASE).digest == pack.digest
