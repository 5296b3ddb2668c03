"""Whether a position that came from outside the engine (a save's starting position, edited or
damaged) can be played: every id one the content knows, every seat and place in range, the
shape of a game of its configuration, then the rules' invariants, then a dry run of what play
asks of it first (each seat's view, the decision's options; ``NightmareCathedral.check_start``
adds their words).

``invariants.violations`` is checked after every decision of every simulated game and trusts
the ids; this runs once, when a position is read, and trusts nothing: a position it accepts does
not fail later with a KeyError on the first card or area it names.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..content.loader import ContentError, Pack
from . import board, flow, invariants, views
from .config import check_config
from .king_state import KING_COMBAT
from .state import BASIC_COMBAT, GameState

LOWEST, HIGHEST = -(2**63), 2**64 - 1  # what msgpack takes (the state digest; the RNG is a 64-bit word)
NIGHTMARES = 2  # SETUP: two Nightmares in every game


def problems(state: GameState) -> list[str]:
    """Every reason ``state`` cannot be played, in words (empty when it can). Stops at the first
    family of problems that later checks would only repeat."""
    config = state.config
    wrong = [f"its configuration: {p}" for p in check_config(config)]
    if state.pack != config.pack:
        wrong.append(f"its content pack {state.pack!r} is not its configuration's {config.pack!r}")
    if wrong:
        return wrong
    try:
        pack = board.get_pack(state.pack)
        fresh = flow.new_game(config).state
    except (ContentError, ValueError, LookupError) as exc:
        return [f"its configuration cannot start a game: {exc}"]
    wrong = _numbers(state) or _shape(state, fresh, pack)
    if wrong:
        return wrong
    wrong = _ids(state, pack) + _places(state, pack)
    if wrong:
        return wrong
    wrong = invariants.violations(state)
    if wrong:
        return wrong
    return _dry_run(state)


def _numbers(state: GameState) -> list[str]:
    """Every whole number of the state within 64 bits (a digest of the state encodes them)."""
    big = [n for n in _ints(state) if not LOWEST <= n <= HIGHEST]
    return [f"a number is out of range ({big[0]})"] if big else []


def _ints(value: object) -> Iterable[int]:
    if isinstance(value, bool):
        return
    if isinstance(value, int):
        yield value
    elif isinstance(value, (tuple, list, frozenset, set)):
        for v in value:
            yield from _ints(v)
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from _ints(k)
            yield from _ints(v)
    elif hasattr(value, "__struct_fields__"):
        for name in value.__struct_fields__:
            yield from _ints(getattr(value, name))


def _seats(value: object) -> Iterable[int]:
    """The ``seat`` of every struct in ``value`` (the steps being resolved and what follows them)."""
    if isinstance(value, (tuple, list)):
        for v in value:
            yield from _seats(v)
    elif hasattr(value, "__struct_fields__"):
        for name in value.__struct_fields__:
            v = getattr(value, name)
            if name == "seat" and isinstance(v, int):
                yield v
            else:
                yield from _seats(v)


def _shape(state: GameState, fresh: GameState, pack: Pack) -> list[str]:
    """The board side, the areas in play, the seats and their colours of a game of this
    configuration; one stack per Action card once they are dealt; the King in solo games only;
    two different Nightmares once they are revealed (the configuration's, when it names them)."""
    out = []
    if state.board_side != fresh.board_side:
        out.append(f"board side {state.board_side!r}, not {fresh.board_side!r} for its players")
    if tuple(a.id for a in state.areas) != tuple(a.id for a in fresh.areas):
        unknown = [a.id for a in state.areas if a.id not in {f.id for f in fresh.areas}]
        out.append(f"areas that are not those in play: {unknown[:3] or 'some missing or repeated'}")
    n = len(fresh.players)
    if [(p.seat, p.colour) for p in state.players] != [(p.seat, p.colour) for p in fresh.players]:
        out.append(f"players that are not its {n} seats in order")
    if any(len(a.followers) != n for a in state.areas):
        out.append(f"an area that does not count Followers for its {n} seats")
    actions = len(pack.matrix.rondel)
    if any(len(p.display) not in (0, actions) for p in state.players):
        out.append("a player without one stack per Action card")
    k = state.king
    if k is not None and state.config.players != 1:
        out.append("a King of Horrors in a game that is not solo")
    elif k is not None:
        if (len(k.day_cultists), len(k.card_cultists), len(k.tucked)) != (actions,) * 3 or k.seat not in range(n):
            out.append("a King of Horrors without one place per Day space and Action card")
        if len(k.dream_cultists) != len(k.dreams):
            out.append("a King of Horrors without one count of Cultists per Dream")
    chosen = state.config.nightmares
    if state.nightmares and (
        len(state.nightmares) != NIGHTMARES
        or len(set(state.nightmares)) != NIGHTMARES
        or (chosen and state.nightmares != chosen)
    ):
        out.append(
            f"Nightmares {state.nightmares}, not {NIGHTMARES} different ones" + (f" ({chosen})" if chosen else "")
        )
    return out


def _ids(state: GameState, pack: Pack) -> list[str]:
    """Every card, tile, piece and Nightmare named is one of the content's."""
    c = pack.cards
    development = {d.id for d in c.development} | {BASIC_COMBAT}
    dreams = {d.id for d in c.dreams}
    conflicts = {d.id for d in c.conflicts}
    actions = {a.id for a in c.actions}
    tiles = {t.id for t in c.reward_tiles}
    pieces = {s.piece for s in pack.tracks.cathedral} | {pack.tracks.first_piece}
    paths = {s.piece for s in pack.tracks.divergent_paths}
    d = state.decks
    named: list[tuple[str, Iterable[str], set[str]]] = [
        ("Development card", (*d.development, *d.development_discard, *d.development2), development),
        ("Dream card", (*d.dream, *d.dream_offer, *d.dream2), dreams),
        ("Conflict card", (*d.conflict, *d.conflict2), conflicts),
        ("card", d.removed, development | conflicts),
        ("Nightmare", (str(n) for n in state.nightmares), {str(n.number) for n in c.nightmares}),
        ("Cathedral piece", (*state.cathedral_built, *state.cathedral_track), pieces),
        ("Reward tile", (*state.tiles_aside, *(t for _, t in state.path_tiles)), tiles),
        ("Divergent Paths space", (p for p, _ in state.path_tiles), paths),
    ]
    for pl in state.players:
        named += [
            (f"Development card (seat {pl.seat})", (*pl.hand, *(x for s in pl.display for x in s[1:])), development),
            (f"Action card (seat {pl.seat})", (s[0] for s in pl.display if s), actions),
            (f"Dream card (seat {pl.seat})", (*pl.dreams, *pl.dreams_played, *pl.free_dreams), dreams),
            (f"Reward tile (seat {pl.seat})", pl.tiles, tiles),
        ]
    k = state.king
    if k is not None:
        named += [
            ("card (the King's)", (*k.hand, *(x for s in k.tucked for x in s)), development | set(KING_COMBAT)),
            ("Dream card (the King's)", (*k.dreams, *k.completed), dreams),
        ]
    out = []
    for what, ids, known in named:
        unknown = sorted({i for i in ids if i not in known})
        if unknown:
            out.append(f"an unknown {what}: {unknown[0]!r}")
    if any(not s for pl in state.players for s in pl.display):
        out.append("an Action card stack without its Action card")
    return out


def _places(state: GameState, pack: Pack) -> list[str]:
    """Every seat, area, space and track position named is one of the game's."""
    n = len(state.players)
    seats = range(n)
    areas = {a.id for a in state.areas}
    nights = {s.id for s in pack.matrix.nights}
    days = set(pack.matrix.rondel)
    t = pack.tracks
    king_seat = -2 if state.king is None else state.king.seat
    out = []

    def check(ok: bool, what: str) -> None:
        if not ok:
            out.append(what)

    check(state.first_player in seats, f"first player {state.first_player} is no seat")
    check(state.active == -1 or state.active in seats, f"active player {state.active} is no seat")
    check(all(s in seats for s in state.queue), f"a seat to decide that is no seat: {state.queue}")
    check(state.decision is None or state.decision.seat in seats, "the decision is no seat's")
    check(all(seat in seats for seat in _seats((state.work, state.frames))), "a step being resolved is no seat's")
    check(state.phase not in ("turn", "reactions") or state.active in seats, "a turn without an active player")
    if state.phase in ("turn", "reactions") and state.turn_pos >= 0 and state.active in seats:
        owner = board.turn_owner(state, state.turn_pos)
        check(state.active == owner, f"the active player is seat {state.active}, the Turn marker says {owner}")
    check(-1 <= state.turn_start < len(t.turn) and -1 <= state.turn_pos < len(t.turn), "off the Turn track")
    check(0 <= state.time < len(t.time), "off the Time track")
    check(state.stage in (1, 2), f"Stage {state.stage}")
    day_actions = days if state.phase == "reactions" else days | {""}  # the others react to the Day action chosen
    check(state.day in day_actions, f"the Day action {state.day!r} is no action")
    for a in state.areas:
        check(a.fort_owner == -1 or a.fort_owner in seats, f"{a.id}: the Fort's owner is no seat")
        check(a.fortress == -1 or a.fortress in seats, f"{a.id}: the Fortress's owner is no seat")
    for pl in state.players:
        check(pl.shaper in areas | {""}, f"seat {pl.seat}: the Shaper is in no area in play ({pl.shaper!r})")
        if state.phase == "setup" or pl.seat == king_seat:
            dreamer_on = nights | {""}
        elif state.phase in ("turn", "reactions") and pl.seat != state.active:
            dreamer_on = nights  # only the active player's Dreamer stands on a Day space
        else:
            dreamer_on = nights | days
        check(pl.dreamer in dreamer_on, f"seat {pl.seat}: the Dreamer is on no space ({pl.dreamer!r})")
        check(
            all(0 <= r <= len(t.ritual) for r in (*pl.ritual, *pl.ritual_best)),
            f"seat {pl.seat}: a Ritual marker is off the track",
        )
    places = areas | {"", board.CATHEDRAL}
    check(
        len(state.nightmare_at) in (0, len(state.nightmares)) and all(w in places for w in state.nightmare_at),
        f"a Nightmare stands in no area in play: {state.nightmare_at}",
    )
    visited = (*state.visited, *(v for _, vs in state.suspended for v in vs))
    check(all(v in places for v in visited), "a place the commanded Nightmare visited is not in play")
    check(all(s in seats and m in state.nightmares for s, m in state.commanded), "a Nightmare commanded by no seat")
    k = state.king
    if k is not None:
        check(k.dreamer in days, f"the King's Dreamer is on no Day space ({k.dreamer!r})")
        check(0 <= k.nightmare_marker < NIGHTMARES, "the King's Nightmare marker is off its cards")
        every = {a.id for sm in pack.sides for a in sm.side.areas}
        check(all(a in every for a in (*k.area_deck, *k.area_aside)), "an unknown Area Selection card")
    return out


def _dry_run(state: GameState) -> list[str]:
    """What play asks of a position first: every seat's view and the decision's options."""
    try:
        for seat in (*range(len(state.players)), -1):
            views.player_view(state, seat)
        if state.decision is not None:
            flow.legal_actions(state)
    except Exception as exc:  # noqa: BLE001 - whatever is wrong, the position is not playable
        return [f"it cannot be played ({type(exc).__name__}: {exc})"]
    return []
