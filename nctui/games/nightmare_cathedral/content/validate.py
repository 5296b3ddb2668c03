"""Cross-checks of a decoded pack: references between files and the rulebook's counts."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import TYPE_CHECKING

from . import geometry, schema as s

if TYPE_CHECKING:
    from .loader import Pack

# Counts the core rulebook gives in COMPONENTS.
STAGE_COUNTS = {
    "development": {1: 52, 2: 44},
    "dreams": {1: 27, 2: 19},
    "conflicts": {1: 16, 2: 16},
}
CATHEDRAL_PIECES = 13
REWARD_TILES = 13
REWARD_COLOURS = {"gray": 5, "yellow": 4, "red": 4}  # our sideboard's slots (docs/content.md)
OVERLAY_TILES = 4  # COMPONENTS: 4 board overlay tiles cover the areas marked 4
NIGHTMARES = 8
NIGHTMARE_ONLY = (s.NightmareMove, s.NightmareReturn)  # they act on "the commanded Nightmare"


def _fail(file: str, entry: str, problem: str) -> None:
    from .loader import ContentError

    raise ContentError(file, entry, problem)


def validate(pack: Pack) -> None:
    _board(pack)
    _matrix(pack)
    _tracks(pack)
    _cards(pack)
    _king(pack)


def _board(pack: Pack) -> None:
    symbols = {x.id for x in pack.board.symbols}
    if len(symbols) != len(pack.board.symbols):
        _fail("board.toml", "symbols", "two symbols share an id")
    for sm in pack.sides:
        side = sm.side
        for area in side.areas:
            if area.symbol not in symbols:
                _fail("board.toml", f"sides[{side.id}].areas[{area.id}].symbol", f"unknown symbol {area.symbol!r}")
        if sum(a.corner for a in side.areas) != 4:
            _fail("board.toml", f"sides[{side.id}]", "a side needs exactly 4 corner areas")
        if any(a.corner and a.four_players_only for a in side.areas):
            _fail("board.toml", f"sides[{side.id}]", "a corner area can't be covered for 3 players")
        if len({a.id for a in side.areas}) != len(side.areas):
            _fail("board.toml", f"sides[{side.id}].areas", "two areas share an id")
        if 4 in side.players and 3 in side.players and sum(a.four_players_only for a in side.areas) != OVERLAY_TILES:
            _fail(
                "board.toml",
                f"sides[{side.id}]",
                f"{OVERLAY_TILES} areas are marked for 4 players (one per overlay tile)",
            )
        if 3 not in side.players and any(a.four_players_only for a in side.areas):
            _fail("board.toml", f"sides[{side.id}]", "only the 3-4 player side has areas marked for 4 players")
        if problem := geometry.unfair(sm):
            _fail("board.toml", f"sides[{side.id}]", problem)
    covered = {p for sm in pack.sides for p in sm.side.players}
    if covered != {1, 2, 3, 4}:
        _fail("board.toml", "sides", "the sides must cover 1, 2, 3 and 4 players exactly")
    small = [sm for sm in pack.sides if 1 in sm.side.players]
    if small and len(small[0].side.areas) != 12:
        _fail(
            "board.toml", f"sides[{small[0].side.id}]", "the 1-2 player side has 12 areas (one per Area Selection card)"
        )


def _matrix(pack: Pack) -> None:
    m = pack.matrix
    if sorted(m.rondel) != sorted(s.ACTION_IDS) or sorted(d.action for d in m.days) != sorted(s.ACTION_IDS):
        _fail("matrix.toml", "days", "there must be exactly one Day space per action")
    nights = {n.id for n in m.nights}
    for d in m.days:
        if d.arrow not in nights:
            _fail("matrix.toml", f"days[{d.action}].arrow", f"unknown Night space {d.arrow!r}")
    for n in m.nights:
        if not 2 <= len(set(n.adjacent)) <= 3:
            _fail("matrix.toml", f"nights[{n.id}].adjacent", "a Night space is adjacent to 2 or 3 Day spaces")


def _tracks(pack: Pack) -> None:
    t = pack.tracks
    symbols = {x.id for x in pack.board.symbols}
    for i, sym in enumerate(t.turn):
        if sym not in symbols:
            _fail("tracks.toml", f"turn[{i}]", f"unknown symbol {sym!r}")
    if len(t.time) < 2:
        _fail("tracks.toml", "time", "the Time track needs a start and the skull")
    for i, sp in enumerate(t.ritual):
        for sym in sp.cost:
            if sym not in symbols:
                _fail("tracks.toml", f"ritual[{i}].cost", f"unknown symbol {sym!r}")
        if (sp.kind == "special") != (sp.bonus != "none"):
            _fail("tracks.toml", f"ritual[{i}]", "special spaces, and only they, have a bonus")
        if not sp.cost:
            _fail("tracks.toml", f"ritual[{i}].cost", "every step is paid with at least one Follower")
    pieces = [t.first_piece] + [c.piece for c in t.cathedral]
    if len(set(pieces)) != CATHEDRAL_PIECES or len(pieces) != CATHEDRAL_PIECES:
        _fail("tracks.toml", "cathedral", f"first_piece and the track hold the {CATHEDRAL_PIECES} pieces once each")
    if sum("stage2" in c.icons for c in t.cathedral) != 1:
        _fail("tracks.toml", "cathedral", "exactly one space is the Stage II space")
    if t.divergent_paths:
        dp = {p.piece for p in t.divergent_paths}
        if dp != set(pieces):
            _fail("tracks.toml", "divergent_paths", "the sideboard holds every Cathedral piece once")
        for p in t.divergent_paths:
            for src in p.incoming:
                if src not in dp:
                    _fail("tracks.toml", f"divergent_paths[{p.piece}].incoming", f"unknown piece {src!r}")


def _effects(file: str, entry: str, effects: Iterable[s.Effect | None], command: bool = False) -> None:
    """``command``: the effects are a Nightmare's command, the only place that moves a Nightmare."""
    for eff in effects:
        if eff is None:
            continue
        for step in eff.steps:
            if not command and _nightmare_only(step):
                _fail(file, entry, "only a Nightmare's command moves or returns the commanded Nightmare")
            _step(file, entry, step)


def _nightmare_only(step: s.Step) -> bool:
    if isinstance(step, s.Choose):
        return any(_nightmare_only(sub) for opt in step.options for sub in opt)
    return isinstance(step, NIGHTMARE_ONLY)


def _step(file: str, entry: str, step: s.Step) -> None:
    if isinstance(step, s.NightmareMove):
        for sub in step.on_enter:
            if isinstance(sub, NIGHTMARE_ONLY + (s.CommandNightmare,)):
                _fail(file, entry, "on_enter can't move, return or command a Nightmare")
            _step(file, entry, sub)
    elif isinstance(step, s.Choose):
        if len(step.options) < 2:
            _fail(file, entry, "a choose step needs at least two options")
        for opt in step.options:
            for sub in opt:
                _step(file, entry, sub)
    elif isinstance(step, s.Climb) and not (step.paid or step.free):
        _fail(file, entry, "a climb is paid, free, or both")
    elif isinstance(step, s.AddFortLevels) and step.cost and len(step.cost) != step.count:
        _fail(file, entry, "add_fort_levels.cost lists one price per level")
    elif isinstance(step, s.Draw) and step.keep > step.count:
        _fail(file, entry, "draw.keep can't exceed draw.count")
    elif isinstance(step, s.PlayPloys) and step.count <= 0:  # issue 38 item 7; docs/content.md
        _fail(
            file,
            entry,
            "play_ploys needs a count: a Ploy that draws comes back from the discard pile, so any number never ends",
        )


def _cards(pack: Pack) -> None:
    c = pack.cards
    f = "cards.toml"
    ids = Counter(
        [x.id for x in c.actions]
        + [c.basic_combat.id]
        + [x.id for x in c.development]
        + [x.id for x in c.dreams]
        + [x.id for x in c.conflicts]
        + [x.id for x in c.reward_tiles]
        + [x.id for x in c.king_combat]
    )
    dup = [k for k, n in ids.items() if n > 1]
    if dup:
        _fail(f, dup[0], "card id used more than once")
    if sorted(a.action for a in c.actions) != sorted(s.ACTION_IDS):
        _fail(f, "actions", "one starting Action card per action")
    for a in c.actions:
        _effects(f, f"actions[{a.id}]", (a.day, a.conform, a.dissent))
    fort = [a for a in c.actions if a.action == "fortify"]
    if fort and fort[0].unit_limit != 3:
        _fail(f, f"actions[{fort[0].id}].unit_limit", "the starting Fortify card prints a Unit Limit of 3")
    for field, items in (("development", c.development), ("dreams", c.dreams), ("conflicts", c.conflicts)):
        per_stage: Counter[int] = Counter(x.stage for x in items)
        for stage, want in STAGE_COUNTS[field].items():
            if per_stage.get(stage, 0) not in (0, want) or (stage == 1 and per_stage.get(1, 0) != want):
                _fail(f, field, f"Stage {stage} has {per_stage.get(stage, 0)} cards, the rulebook has {want}")
    for d in c.development:
        e = f"development[{d.id}]"
        if d.kind == "upgrade":
            if d.action is None or d.day is None or d.conform is None or d.dissent is None:
                _fail(f, e, "an Upgrade names its action and all three effects")
            if d.action == "fortify" and d.unit_limit != 3:
                _fail(f, e + ".unit_limit", "Fortify Upgrades print the normal Unit Limit of 3")
            if d.unit_limit_one_area not in (0, 4, 5):
                _fail(f, e + ".unit_limit_one_area", "Upgrades raise the Unit Limit in one area to 4 or 5")
            if d.stage == 2 and d.vp < 1:
                _fail(f, e + ".vp", "Stage 2 Upgrades score Victory Points (the rulebook's scoring example)")
            _effects(f, e, (d.day, d.conform, d.dissent))
        else:
            if d.effect is None:
                _fail(f, e, "a Ploy has an effect")
            if d.action or d.day or d.conform or d.dissent or d.vp or d.unit_limit or d.unit_limit_one_area:
                _fail(f, e, "a Ploy covers no Action card: no action, day/conform/dissent, vp or unit limit")
            _effects(f, e, (d.effect,))
    suits = {x.id for x in c.suits}
    for dream in c.dreams:
        if dream.suit not in suits:
            _fail(f, f"dreams[{dream.id}].suit", f"unknown suit {dream.suit!r}")
        if not dream.needs:
            _fail(f, f"dreams[{dream.id}].needs", "a Dream card states what it needs")
        _effects(f, f"dreams[{dream.id}]", (dream.effect,))
        if _needs_nightmare(dream) and dream.stage == 1:
            _fail(f, f"dreams[{dream.id}].needs", "only Stage 2 Dreams need devoured units or Nightmares")
        if _needs_nightmare(dream) and dream.cathedral:
            _fail(
                f,
                f"dreams[{dream.id}].cathedral",
                "Nightmares come after the last Cathedral piece: a Dream that builds the Cathedral can't need them",
            )
    for k in c.conflicts:
        if [ln.shadows for ln in k.lines] != [1, 2, 3]:
            _fail(f, f"conflicts[{k.id}].lines", "one line each for 1, 2 and 3 Shadows")
        _effects(f, f"conflicts[{k.id}]", (k.victory, k.defeat))
    if c.nightmares and sorted(n.number for n in c.nightmares) != list(range(1, NIGHTMARES + 1)):
        _fail(f, "nightmares", f"Nightmares are numbered 1 to {NIGHTMARES}")
    _nightmares(c.nightmares)
    if c.reward_tiles and len(c.reward_tiles) != REWARD_TILES:
        _fail(f, "reward_tiles", f"there are {REWARD_TILES} Reward tiles")
    if c.reward_tiles and Counter(t.colour for t in c.reward_tiles) != Counter(REWARD_COLOURS):
        _fail(f, "reward_tiles", f"Reward tile colours must be {REWARD_COLOURS}")


def _needs_nightmare(d: s.DreamCard) -> bool:
    return any(isinstance(n, s.DevouredAtLeast) or getattr(n, "where", "") == "nightmare" for n in d.needs)


def _nightmares(nightmares: tuple[s.NightmareCard, ...]) -> None:
    """COMMAND NIGHTMARES and DEVOURING UNITS: a command first moves the Nightmare out of where it
    stands (its current area is where the rest happens); the Devoured Units numbers grow with the
    players, and since the higher number of the pair counts and a card without one defers to the
    other, at most one Nightmare may lack it, so that every pair has a number."""
    f = "cards.toml"
    for n in nightmares:
        e = f"nightmares[{n.number}]"
        steps = n.command.steps
        if not steps or not isinstance(steps[0], s.NightmareMove):
            _fail(f, e + ".command", "a command starts by moving the Nightmare (nightmare_move)")
        if any(isinstance(x, s.CommandNightmare) for x in steps):
            _fail(f, e + ".command", "a command doesn't command another Nightmare")
        _effects(f, e, (n.command,), command=True)
        numbers = [x for x in n.devoured if x is not None]
        if numbers and (len(numbers) != 3 or min(numbers) < 1 or numbers != sorted(numbers)):
            _fail(f, e + ".devoured", "three numbers (1-2 / 3 / 4 players), at least 1, growing with the players")
    if sum(all(x is None for x in n.devoured) for n in nightmares) > 1:
        _fail(f, "nightmares", "at most one Nightmare has no Devoured Units number, so every pair has one")


# Solo rules: what the King of Horrors' components must be.
KING_RULE_PARAMS = {  # (action, param index): the value per Power 1, 3, 5 the solo rules state
    ("ritual", 0): (2, 1, 0),  # "remove 2/1/0 Followers"
    ("maneuver", 0): (3, 5, 7),  # "3/5/7 Movement Point"
    ("develop", 0): (2, 3, 4),  # "draw 2/3/4 cards"
}
KING_FLAGS = {"summon": (2,), "develop": (1, 2)}  # params that are 0 or 1
# Steps a King's Nightmare card may use: each resolves in the Nightmare's current area (or is the
# King's own climb or draw), none moves or commands a Nightmare.
KING_NIGHTMARE_STEPS = (s.Devour, s.AddShadows, s.ResolveConflicts, s.Climb, s.Draw)
AREA_SELECTION_CARDS = 12


def _king(pack: Pack) -> None:
    c = pack.cards
    _king_actions(c.king_actions)
    if c.king_combat and sorted(k.kind for k in c.king_combat) != ["advanced", "basic"]:
        _fail("cards.toml", "king_combat", "the King has 1 Basic Combat and 1 Advanced Combat card")
    for k in c.king_combat:
        if not k.returns:
            _fail("cards.toml", f"king_combat[{k.id}].returns", "both King's combat cards return to its hand")
    _king_nightmares(c.king_nightmares)
    _area_selection(pack)


def _king_actions(cards: tuple[s.KingActionCard, ...]) -> None:
    """ACTION ACTIVATION: one card per action, a row for each Power 1, 3, 5 whose params follow
    schema.KING_PARAMS and the numbers the solo rules state."""
    f = "cards.toml"
    if not cards:
        return
    if sorted(k.action for k in cards) != sorted(s.ACTION_IDS):
        _fail(f, "king_actions", "one King's Action card per action")
    for k in cards:
        e = f"king_actions[{k.action}]"
        if tuple(r.power for r in k.rows) != s.KING_POWERS:
            _fail(f, e + ".rows", "one row each for Power 1, 3 and 5, in that order")
        for r in k.rows:
            want = len(s.KING_PARAMS[k.action])
            if len(r.params) != want or min(r.params) < 0:
                _fail(f, f"{e}.rows[{r.power}].params", f"{want} numbers, none negative: {s.KING_PARAMS[k.action]}")
            if any(r.params[i] > 1 for i in KING_FLAGS.get(k.action, ())):
                _fail(f, f"{e}.rows[{r.power}].params", "flags are 0 or 1")
        for (action, i), values in KING_RULE_PARAMS.items():
            if action == k.action and tuple(r.params[i] for r in k.rows) != values:
                _fail(f, e + ".rows", f"the solo rules give {s.KING_PARAMS[action][i]} {values} for Power 1, 3, 5")
        if k.action == "ritual" and any(r.params[2] not in (2, 3, 4) for r in k.rows):
            _fail(f, e + ".rows", "the higher marker needs a Horror Die value (2, 3 or 4)")


def _king_nightmares(cards: tuple[s.KingNightmareCard, ...]) -> None:
    """COMMANDING NIGHTMARES: one King's card per Nightmare; (Nx) is at least 1; a card that can
    fail has a Failure effect; every step resolves in the Nightmare's area or is the King's own."""
    f = "cards.toml"
    if cards and sorted(k.number for k in cards) != list(range(1, NIGHTMARES + 1)):
        _fail(f, "king_nightmares", f"one King's Nightmare card per Nightmare, numbered 1 to {NIGHTMARES}")
    for k in cards:
        e = f"king_nightmares[{k.number}]"
        if k.times < 1:
            _fail(f, e + ".times", "the (Nx) multiplier is at least 1")
        if not k.effect.steps or bool(k.failure.steps) == k.anywhere:
            _fail(f, e, "an effect, and a failure effect unless it moves anywhere (then it never fails)")
        for step in k.effect.steps + k.failure.steps:
            if not isinstance(step, KING_NIGHTMARE_STEPS):
                tags = ", ".join(str(x.__struct_config__.tag) for x in KING_NIGHTMARE_STEPS)
                _fail(f, e, f"a King's Nightmare uses only {tags}")
            if getattr(step, "where", "nightmare") != "nightmare" or getattr(step, "area", ""):
                _fail(f, e, "its steps resolve in the Nightmare's current area (where = nightmare)")
            if isinstance(step, s.Climb) and (step.paid or step.special or step.primary):
                _fail(f, e, "the King's climbs are free steps onto open spaces")
            if isinstance(step, s.Draw) and (step.deck != "development" or step.keep):
                _fail(f, e, "the King draws Development cards to its hand")


def _area_selection(pack: Pack) -> None:
    """SOLO COMPONENTS: 12 Area Selection cards, one per area of the 1-2 player side."""
    cards = pack.cards.area_selection
    if not cards:
        return
    small = next(sm.side for sm in pack.sides if 1 in sm.side.players)
    if len(cards) != AREA_SELECTION_CARDS or sorted(cards) != sorted(a.id for a in small.areas):
        _fail(
            "cards.toml",
            "area_selection",
            f"one card per area of the {small.id} side ({AREA_SELECTION_CARDS}), each once",
        )
