"""Scenarios: a position of the game in TOML, for tests and rules practice.

The shorthand names what is on the board and in each player's hands (solo: the King's play
area, ``[king]``), where the markers stand and which decision is due; everything it leaves out
follows from the rules (supplies are what is not on the board, unnamed cards are shuffled into
their decks by the seed). The complete form, ``[state]`` (``nctui.games.nightmare_cathedral.scenario_state``), is the
whole GameState: alone it is the exact position (what ``x`` in a game saves), beside the
shorthand it replaces single fields of the position built. The format is described in
docs/scenarios.md; ``nctui/games/nightmare_cathedral/practice/positions/*.toml`` (the bundled Practice positions) are
examples.

``load_scenario`` returns a GameState the engine can continue from. Every problem is reported
at once in one ``ScenarioError`` naming the file, the entry and the field.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, NamedTuple

import msgspec
from msgspec.structs import replace

from nctui.platform import rng
from nctui.platform.game import PositionError
from nctui.platform.safeio import BadInput, check_depth, read_bounded

from .content.loader import ContentError, Pack, get_pack
from .engine import board, cards as cards_of, flow, king, limbo, setup, solo, turn
from .engine.config import COLOURS, GameConfig, SeatKind, check_config
from .engine.events import Event
from .engine.invariants import violations
from .engine.king_state import KingState
from .engine.state import (
    BASIC_COMBAT,
    DREAM_OFFER,
    FOLLOWERS,
    FORT_LEVELS,
    HAND_LIMIT,
    SHADOWS,
    UNIT_LIMIT,
    AreaState,
    Decks,
    GameState,
    PlayerState,
)
from .engine.work import NextReaction
from .scenario_state import state_from_table

SUPPORTED_DECISIONS = ("choose_day", "react")
Seat = int | str  # a seat number (0 = first listed player) or a colour name
MAX_UNITS = 5  # the highest Unit Limit any card can give (a Fortify Upgrade, in one area)
MAX_BYTES = 1024 * 1024  # a scenario file is a few KB
MAX_TURN_NUMBER = 10_000  # turns begun: far beyond any game (the Time track has a few spaces of a round each)


# ----------------------------------------------------------------------------------------------
# The file format


class _T(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Base of the scenario tables: unknown keys are errors (they are usually typos)."""


class Info(_T):
    name: str = ""
    description: str = ""


class ConfigSpec(GameConfig, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """[config]: the GameConfig, strictly decoded. ``seats`` defaults to a human in every seat."""

    seats: tuple[SeatKind, ...] = ()


class GameSpec(_T):
    """[game]: markers and tracks. Turn track positions count from 0 (``turn_start``: the
    Starting marker, ``turn_position``: the Turn marker). ``turn_position`` may be left out
    when ``active`` is given: the first position from the Starting marker owned by that seat.
    ``stage = 2``: the Stage II space was reached (THE NIGHTMARE CATHEDRAL): the Stage 2 cards
    are in the decks; ``nightmare_at`` places the Nightmares (in the order of ``[config]
    nightmares``: "cathedral" or an area id; both in the Cathedral space when left out); ``end_triggered``: the devoured
    threshold was reached (GAME END), play goes on to equal turns."""

    first_player: Seat = 0
    turn_start: int = 0
    turn_position: int | None = None
    active: Seat | None = None
    time: int = 0
    stage: int = 1
    turn_number: int | None = None
    cathedral: tuple[str, ...] = ()
    devoured_shadows: int = 0
    nightmare_at: tuple[str, ...] = ()
    end_triggered: bool = False


class AreaSpec(_T):
    """[[areas]]: one area; areas not listed are empty."""

    id: str
    followers: dict[str, int] = {}  # colour -> Followers
    shadows: int = 0
    fort: Seat | None = None  # the owner of the Fort here
    levels: int = 0  # Fort levels (1 when a fort is named without levels)
    fortress: bool = False  # the Fort owner's Fortress marker stands here


class PlayerSpec(_T):
    """[[players]]: one per seat, in seat (clockwise) order. ``supply`` and ``forts`` are
    computed from the board; when given they are checked."""

    colour: str = ""
    shaper: str = ""  # defaults to the player's Fortress area
    dreamer: str = ""  # a Night space
    ritual: tuple[int, int] = (0, 0)
    ritual_best: tuple[int, int] | None = None
    limbo: int = 0
    devoured: int = 0
    supply: int | None = None
    forts: int | None = None
    hand: tuple[str, ...] = ()  # Development cards; the Basic Combat card is added if missing
    deal: int = 0  # more Development cards dealt at random from the deck
    dreams: tuple[str, ...] = ()
    deal_dreams: int = 0
    dreams_played: tuple[str, ...] = ()
    display: dict[str, tuple[str, ...]] = {}  # action -> Upgrades on its Action card, top last
    turns: int | None = None


class DecksSpec(_T):
    """[decks]: cards named here lie on top of their deck, top first; the rest are shuffled
    below them. ``dream_offer`` left out: 3 random Dream cards."""

    development: tuple[str, ...] = ()
    development_discard: tuple[str, ...] = ()
    development_count: int | None = None  # cards left in the deck; the unnamed rest are discarded
    dream: tuple[str, ...] = ()
    dream_offer: tuple[str, ...] | None = None
    conflict: tuple[str, ...] = ()


class DecisionSpec(_T):
    """[decision]: "choose_day" (the active player's turn begins) or "react" (``seat`` reacts
    to the Day action ``day`` the active player chose; ``seat`` defaults to the first to react)."""

    kind: str = "choose_day"
    seat: Seat | None = None
    day: str = ""
    ignored: bool = False


class KingSpec(_T):
    """[king] (solo): the King of Horrors' play area (SOLO-SPECIFIC COMPONENTS, solo SETUP 2-5).
    Left out, as at setup: its Dreamer on Ritual, a Cultist on every Day space, none on its
    Action cards, nothing tucked, its 2 combat cards, 2 Dreams dealt at random."""

    dreamer: str = "ritual"  # the Day space (an action) of its Dreamer
    day_cultists: dict[str, int] | None = None  # action -> Cultists on that Day space (given: the others 0)
    card_cultists: dict[str, int] = {}  # action -> Cultists on its Action card
    tucked: dict[str, tuple[str, ...]] = {}  # action -> Development cards tucked under its Action card
    hand: tuple[str, ...] = ()  # Development cards among its combat cards (its own 2 are always there)
    dreams: tuple[str, ...] | None = None  # incomplete Dreams, the lower one first, the top one last
    dream_cultists: tuple[int, ...] = ()  # Cultists on each incomplete Dream (0 each when left out)
    completed: tuple[str, ...] = ()  # completed Dreams (scored at the end)
    nightmare_marker: int = 1  # 0 or 1: which Nightmare card of [config] nightmares holds its Cultist
    area_aside: tuple[str, ...] = ()  # Area Selection cards drawn and set aside


class Scenario(_T):
    scenario: Info = Info()
    config: ConfigSpec = ConfigSpec()
    game: GameSpec = GameSpec()
    areas: tuple[AreaSpec, ...] = ()
    players: tuple[PlayerSpec, ...] = ()
    decks: DecksSpec = DecksSpec()
    decision: DecisionSpec = DecisionSpec()
    king: KingSpec | None = None
    state: dict[str, Any] = {}  # the complete form (scenario_state): exact, or over the tables above

    def shorthand(self) -> bool:
        """Whether any shorthand table is given (else a ``[state]`` table is the whole position)."""
        return any(getattr(self, f) != getattr(EMPTY, f) for f in SHORTHAND)


SHORTHAND = ("config", "game", "areas", "players", "decks", "decision", "king")
EMPTY = Scenario()


# ----------------------------------------------------------------------------------------------
# Problems


class Problem(NamedTuple):
    entry: str
    field: str
    message: str

    def __str__(self) -> str:
        where = f"{self.entry}.{self.field}" if self.field else self.entry
        return f"{where}: {self.message}"


class ScenarioError(PositionError):
    """A scenario cannot be built. ``problems`` lists every (entry, field, message)."""

    def __init__(self, file: str, problems: list[Problem]) -> None:
        self.file, self.problems = file, problems
        if len(problems) == 1:
            text = f"{file}: {problems[0]}"
        else:
            text = f"{file}: {len(problems)} problems:\n" + "\n".join(f"  - {p}" for p in problems)
        super().__init__(text)

    def one_line(self) -> str:
        """The first problem, and how many more (for a notification or a command line)."""
        more = f" (and {len(self.problems) - 1} more)" if len(self.problems) > 1 else ""
        return f"{self.file}: {self.problems[0]}{more}"


class _Fatal(Exception):
    """Stop building: later steps depend on what is broken."""


class _Report:
    def __init__(self) -> None:
        self.problems: list[Problem] = []

    def add(self, entry: str, field: str, message: str) -> None:
        self.problems.append(Problem(entry, field, message))


# ----------------------------------------------------------------------------------------------
# Loading


def load_scenario(source: Path | str | bytes, *, pack: str | None = None) -> GameState:
    """The position described by a scenario file (a path) or its TOML text.

    ``pack`` overrides the content pack named in the scenario. Raises ScenarioError.
    """
    return load_scenario_result(source, pack=pack)[0]


def load_scenario_result(source: Path | str | bytes, *, pack: str | None = None) -> tuple[GameState, list[Event]]:
    """Like ``load_scenario``, with the events of building the decision (to seed a log)."""
    name, text = _source(source)
    spec = decode_scenario(text, name)
    if spec.state and not spec.shorthand():
        table = spec.state
        if pack is not None:
            config = table.get("config")
            table = {**table, "pack": pack, "config": {**(config if isinstance(config, dict) else {}), "pack": pack}}
        return complete_state(table, None, name)
    if pack is not None:
        spec = replace(spec, config=replace(spec.config, pack=pack))
    return _Builder(spec, name).build()


def complete_state(table: dict[str, Any], base: GameState | None, name: str) -> tuple[GameState, list[Event]]:
    """The ``[state]`` table read (the whole position, or over ``base``), its problems raised as
    one ScenarioError."""
    try:
        return state_from_table(table, base)
    except msgspec.ValidationError as exc:
        problem = _validation_problem(str(exc))
        entry = "state" if problem.entry == "(top level)" else f"state.{problem.entry}"
        raise ScenarioError(name, [problem._replace(entry=entry)]) from exc
    except ValueError as exc:
        what = "the position" if base is None else "the position with [state]"
        raise ScenarioError(name, [Problem("state", "", f"{what} cannot be played: {exc}")]) from exc


def _source(source: Path | str | bytes) -> tuple[str, str | bytes]:
    """(file name, TOML text): a Path or a str naming a ``.toml`` file is read."""
    if isinstance(source, str) and "\n" not in source and source.strip().endswith(".toml"):
        source = Path(source)
    if isinstance(source, Path):
        try:
            return source.name, read_bounded(source, MAX_BYTES)
        except BadInput as exc:
            why = "cannot read: no such file" if str(exc) == "no such file" else str(exc)
            raise ScenarioError(source.name, [Problem("(file)", "", why)]) from exc
    return "<scenario>", source


def decode_scenario(text: str | bytes, name: str = "<scenario>") -> Scenario:
    """The Scenario tables, or ScenarioError naming the entry and field msgspec objected to."""
    try:
        check_depth(text)
        return msgspec.toml.decode(text, type=Scenario)
    except BadInput as exc:
        raise ScenarioError(name, [Problem("(syntax)", "", f"the file {exc}")]) from exc
    except msgspec.ValidationError as exc:
        raise ScenarioError(name, [_validation_problem(str(exc))]) from exc
    except (msgspec.DecodeError, RecursionError) as exc:
        raise ScenarioError(name, [Problem("(syntax)", "", str(exc))]) from exc
    except UnicodeDecodeError as exc:
        raise ScenarioError(name, [Problem("(syntax)", "", f"not UTF-8 text (byte {exc.start})")]) from exc


def _validation_problem(message: str) -> Problem:
    """msgspec says 'Expected `int`, got `str` - at `$.players[0].limbo`': split the path."""
    problem, _, where = message.partition(" - at `")
    path = where.rstrip("`").removeprefix("$").lstrip(".")
    if problem.startswith("Object contains unknown field"):
        field = problem.split("`")[1] if "`" in problem else ""
        return Problem(path or "(top level)", field, "unknown field (see docs/scenarios.md)")
    if "." in path:
        entry, _, field = path.rpartition(".")
    else:
        entry, field = (path, "") if "[" in path else ("(top level)", path)
    return Problem(entry or "(top level)", field, problem)


# ----------------------------------------------------------------------------------------------
# Building


class _Builder:
    """Builds the GameState from a decoded Scenario, collecting every problem."""

    def __init__(self, spec: Scenario, name: str) -> None:
        self.spec, self.name, self.report = spec, name, _Report()
        self.placed: dict[str, str] = {}  # card -> where it was first placed

    def build(self) -> tuple[GameState, list[Event]]:
        try:
            state, events = self._build()
        except _Fatal:
            state, events = None, []
        if self.report.problems:
            raise ScenarioError(self.name, self.report.problems)
        assert state is not None
        for text in violations(state):
            self.report.add("(position)", "", text)
        if self.report.problems:
            raise ScenarioError(self.name, self.report.problems)
        if self.spec.state:
            state, more = complete_state(self.spec.state, state, self.name)
            events += more
        return state, events

    def _fail_if_any(self) -> None:
        if self.report.problems:
            raise _Fatal

    def _build(self) -> tuple[GameState, list[Event]]:
        config = self._config()
        self._fail_if_any()
        self.pack = get_pack(config.pack)
        # the board side, areas in play and players of a real game (solo: you and the King)
        base, _ = (solo.new_game if config.players == 1 else setup.new_game)(config)
        base = replace(base, work=None, frames=())
        self.king_seat = solo.KING if config.players == 1 else -1
        if self.spec.king is not None and self.king_seat < 0:
            self.report.add("king", "", "the King of Horrors plays in solo games only (players = 1)")
        self.base = base
        self.colours = config.seat_colours()
        self._check_seat_list()
        self._fail_if_any()
        game = self._game(base)
        areas = self._areas(base)
        state = replace(
            base,
            areas=areas,
            first_player=game["first_player"],
            turn_start=game["turn_start"],
            turn_pos=game["turn_pos"],
            time=game["time"],
            stage=self.spec.game.stage,
            end_triggered=self.spec.game.end_triggered,
            cathedral_built=game["cathedral"],
            cathedral_track=game["cathedral_track"],
            devoured_shadows=self.spec.game.devoured_shadows,
        )
        shadows = SHADOWS - sum(a.shadows for a in areas) - state.devoured_shadows
        if shadows < 0:
            self.report.add(
                "areas",
                "shadows",
                f"too many Shadows: the game has {SHADOWS}, {SHADOWS - shadows} are on the board or devoured",
            )
        state = replace(state, shadows=shadows)
        active = board.turn_owner(state, state.turn_pos)
        self.decider = self._check_decision(active)
        state = replace(state, players=self._players(state, active))
        state = self._cards(state)
        self._fail_if_any()
        return self._decision(state, active, game["turn_number"])

    # -- config and seats -----------------------------------------------------------------------

    def _config(self) -> GameConfig:
        c = self.spec.config
        n = 2 if c.players == 1 else c.players
        colours = c.colours
        listed = tuple(p.colour for p in self.spec.players)
        if not colours and listed and all(listed) and listed != COLOURS[: len(listed)]:
            colours = listed  # the players' colours define the seat colours
        human: SeatKind = "human"
        king: SeatKind = "king"
        seats = c.seats or ((human, king) if c.players == 1 else (human,) * n)
        config = GameConfig(
            players=c.players,
            seats=seats,
            colours=colours,
            length=c.length,
            divergent_paths=c.divergent_paths,
            nightmares=c.nightmares,
            difficulty=c.difficulty,
            pack=c.pack,
            seed=c.seed,
        )
        for problem in check_config(config):
            self.report.add("config", "", problem)
        try:
            get_pack(c.pack)
        except ContentError as exc:
            self.report.add("config", "pack", f"content pack {c.pack!r} cannot be loaded: {exc}")
        return config

    def _check_seat_list(self) -> None:
        players = self.spec.players
        if len(players) != len(self.colours):
            self.report.add(
                "players",
                "",
                f"{len(self.colours)} seats need {len(self.colours)} [[players]] entries, found {len(players)}",
            )
        for i, p in enumerate(players[: len(self.colours)]):
            if p.colour and p.colour != self.colours[i]:
                self.report.add(
                    f"players[{i}]", "colour", f"{p.colour!r}, but seat {i} is {self.colours[i]!r} in [config] colours"
                )

    def _seat(self, ref: Seat | None, entry: str, field: str) -> int:
        """A seat number from a number or a colour; -1 (and a problem) when it names no seat."""
        n = len(self.colours)
        if isinstance(ref, int) and 0 <= ref < n:
            return ref
        if isinstance(ref, str) and ref in self.colours:
            return self.colours.index(ref)
        self.report.add(entry, field, f"{ref!r} is no seat: use 0-{n - 1} or one of {', '.join(self.colours)}")
        return -1

    def _player_entry(self, seat: int) -> str:
        return f"players[{seat}] ({self.colours[seat]})"

    # -- markers --------------------------------------------------------------------------------

    def _game(self, base: GameState) -> dict:
        g = self.spec.game
        tracks = self.pack.tracks
        n_track = len(tracks.turn)
        out: dict = {"first_player": max(self._seat(g.first_player, "game", "first_player"), 0)}
        if not 0 <= g.turn_start < n_track:
            self.report.add("game", "turn_start", f"{g.turn_start} is off the Turn track (0-{n_track - 1})")
        out["turn_start"] = g.turn_start % n_track
        if not 0 <= g.time < len(tracks.time) - 1:
            self.report.add(
                "game",
                "time",
                f"{g.time}: the Time marker stands on 0-{len(tracks.time) - 2} "
                f"({', '.join(tracks.time[:-1])}); the skull ends the game",
            )
        out["time"] = g.time
        if g.stage not in (1, 2):
            self.report.add("game", "stage", f"{g.stage}: the game is in Stage 1 or 2")
        if g.stage == 1 and (g.nightmare_at or g.end_triggered):
            self.report.add("game", "stage", "Nightmares on the board and the end triggered are Stage 2: add stage = 2")
        probe = replace(base, first_player=out["first_player"], turn_start=out["turn_start"])
        out["turn_pos"] = self._turn_position(probe, n_track)
        offset = (out["turn_pos"] - out["turn_start"]) % n_track
        out["turn_number"] = g.turn_number if g.turn_number is not None else g.time * n_track + offset + 1
        if out["turn_number"] < 1:
            self.report.add("game", "turn_number", "counts turns begun, from 1")
        elif out["turn_number"] > MAX_TURN_NUMBER:
            self.report.add(
                "game", "turn_number", f"{out['turn_number']}: far beyond any game (at most {MAX_TURN_NUMBER})"
            )
            out["turn_number"] = MAX_TURN_NUMBER
        pieces = (tracks.first_piece,) + tuple(c.piece for c in tracks.cathedral)
        built = g.cathedral or base.cathedral_built  # left out: the pieces setup starts with
        if base.config.divergent_paths:
            # The pieces come from the sideboard's slots, each with a Reward tile: the shorthand
            # keeps setup's; anything further is written in the complete form.
            if tuple(built) != base.cathedral_built:
                self.report.add(
                    "game",
                    "cathedral",
                    "with Divergent Paths the pieces built and their Reward tiles "
                    "are written in [state] (cathedral_built, cathedral_track, "
                    "path_tiles, tiles_aside, the players' tiles)",
                )
            built, pieces = base.cathedral_built, base.cathedral_built + base.cathedral_track
        for piece in built:
            if piece not in pieces:
                self.report.add("game", "cathedral", f"unknown Cathedral piece {piece!r} (pieces: {', '.join(pieces)})")
        if len(set(built)) != len(built):
            self.report.add("game", "cathedral", "a Cathedral piece is listed twice")
        elif tuple(built) != pieces[: len(built)]:
            self.report.add(
                "game",
                "cathedral",
                f"pieces are built in track order: list the first {len(built)} of {', '.join(pieces)}",
            )
        out["cathedral"] = tuple(built)
        out["cathedral_track"] = tuple(p for p in pieces if p not in built)
        if g.devoured_shadows < 0:
            self.report.add("game", "devoured_shadows", "cannot be negative")
        return out

    def _turn_position(self, probe: GameState, n_track: int) -> int:
        """The Turn marker: as given, or the first position from the Starting marker owned by
        ``active``; a given position must agree with a given ``active``."""
        g = self.spec.game
        active = self._seat(g.active, "game", "active") if g.active is not None else None
        if g.turn_position is not None:
            if not 0 <= g.turn_position < n_track:
                self.report.add("game", "turn_position", f"{g.turn_position} is off the Turn track (0-{n_track - 1})")
                return 0
            owner = board.turn_owner(probe, g.turn_position)
            if active is not None and active >= 0 and owner != active:
                self.report.add(
                    "game",
                    "active",
                    f"the Turn marker at position {g.turn_position} makes "
                    f"{self.colours[owner]} the active player, not {self.colours[active]}",
                )
            return g.turn_position
        if active is None or active < 0:
            return probe.turn_start
        return next(
            p % n_track
            for p in range(probe.turn_start, probe.turn_start + n_track)
            if board.turn_owner(probe, p % n_track) == active
        )

    # -- the board ------------------------------------------------------------------------------

    def _areas(self, base: GameState) -> tuple[AreaState, ...]:
        in_play = {a.id: a for a in base.areas}
        every = {a.id for sm in self.pack.sides for a in sm.side.areas}
        built = dict(in_play)
        fortresses: dict[int, str] = {}
        for i, spec in enumerate(self.spec.areas):
            entry = f"areas[{i}] ({spec.id})"
            if spec.id not in in_play:
                why = (
                    "is covered in a 3-player game"
                    if spec.id in every and self.base.config.players == 3
                    else "is not an area of this board side"
                )
                self.report.add(entry, "id", f"{spec.id!r} {why} (areas: {', '.join(in_play)})")
                continue
            if built[spec.id] is not in_play[spec.id]:
                self.report.add(entry, "id", f"{spec.id} is listed twice")
                continue
            built[spec.id] = self._area(spec, entry, in_play[spec.id], fortresses)
        return tuple(built[a.id] for a in base.areas)

    def _area(self, spec: AreaSpec, entry: str, area: AreaState, fortresses: dict[int, str]) -> AreaState:
        followers = [0] * len(self.colours)
        for colour, count in spec.followers.items():
            if colour not in self.colours:
                self.report.add(entry, "followers", f"unknown colour {colour!r} (seats: {', '.join(self.colours)})")
                continue
            if not 0 <= count <= MAX_UNITS:
                self.report.add(
                    entry,
                    "followers",
                    f"{count} {colour} Followers: an area holds 0-{MAX_UNITS} "
                    f"of a player's Followers (Unit Limit {UNIT_LIMIT}, up to "
                    f"{MAX_UNITS} with Fortify Upgrades)",
                )
            followers[self.colours.index(colour)] = count
        if not 0 <= spec.shadows <= UNIT_LIMIT:
            self.report.add(entry, "shadows", f"{spec.shadows}: an area holds 0-{UNIT_LIMIT} Shadows")
        owner, levels = -1, 0
        if spec.fort is not None:
            owner = self._seat(spec.fort, entry, "fort")
            levels = spec.levels or 1
            if not 1 <= levels <= 3:
                self.report.add(entry, "levels", f"{levels}: a Fort has 1-3 levels")
        elif spec.levels:
            self.report.add(entry, "levels", 'Fort levels without a Fort owner: add fort = "<colour>"')
        fortress = -1
        if spec.fortress:
            if owner < 0:
                self.report.add(entry, "fortress", 'a Fortress stands on its owner\'s Fort: add fort = "<colour>"')
            elif owner in fortresses:
                self.report.add(
                    entry, "fortress", f"{self.colours[owner]} already has a Fortress in {fortresses[owner]}"
                )
            else:
                fortresses[owner] = area.id
                fortress = owner
        return replace(
            area,
            followers=tuple(followers),
            shadows=spec.shadows,
            fort_owner=owner,
            fort_levels=levels if owner >= 0 else 0,
            fortress=fortress,
        )

    # -- players --------------------------------------------------------------------------------

    def _players(self, state: GameState, active: int) -> tuple[PlayerState, ...]:
        return tuple(self._player(state, seat, spec, active) for seat, spec in enumerate(self.spec.players))

    def _player(self, state: GameState, seat: int, spec: PlayerSpec, active: int) -> PlayerState:
        entry = self._player_entry(seat)
        pl = state.players[seat]
        on_board = sum(a.followers[seat] for a in state.areas)
        for field in ("limbo", "devoured"):
            if getattr(spec, field) < 0:
                self.report.add(entry, field, "cannot be negative")
        supply = FOLLOWERS - on_board - spec.limbo - spec.devoured
        if supply < 0:
            self.report.add(
                entry,
                "supply",
                f"too many Followers: {on_board} on the board + {spec.limbo} in Limbo + "
                f"{spec.devoured} devoured, a player has {FOLLOWERS}",
            )
        elif spec.supply is not None and spec.supply != supply:
            self.report.add(entry, "supply", f"{spec.supply}, but the board and Limbo leave {supply}")
        levels = sum(a.fort_levels for a in state.areas if a.fort_owner == seat)
        forts = FORT_LEVELS - levels
        if forts < 0:
            self.report.add(entry, "forts", f"too many Fort levels: {levels} on the board, a player has {FORT_LEVELS}")
        elif spec.forts is not None and spec.forts != forts:
            self.report.add(entry, "forts", f"{spec.forts}, but the board leaves {forts}")
        return replace(
            pl,
            supply=supply,
            limbo=spec.limbo,
            devoured=spec.devoured,
            forts=forts,
            shaper=self._shaper(state, seat, spec, entry),
            dreamer=self._dreamer(seat, spec, entry, active),
            ritual=spec.ritual,
            ritual_best=self._ritual_best(spec, entry),
            turns=self._turns(state, seat, spec),
        )

    def _shaper(self, state: GameState, seat: int, spec: PlayerSpec, entry: str) -> str:
        if seat == self.king_seat:
            if spec.shaper:
                self.report.add(entry, "shaper", "the King has no Shaper")
            return ""
        if not spec.shaper:
            home = next((a.id for a in state.areas if a.fortress == seat), "")
            if not home:
                self.report.add(entry, "shaper", "required (the player has no Fortress to stand it on)")
            return home
        if spec.shaper not in board.area_index(state):
            self.report.add(entry, "shaper", f"{spec.shaper!r} is not an area in play")
        return spec.shaper

    def _dreamer(self, seat: int, spec: PlayerSpec, entry: str, active: int) -> str:
        """A Night space; in a "react" position the active player's Dreamer is on the Day space."""
        nights = [n.id for n in self.pack.matrix.nights]
        d = self.spec.decision
        if seat == self.king_seat:
            if spec.dreamer:
                self.report.add(entry, "dreamer", "the King's Dreamer is on a Day space: [king] dreamer")
            return ""
        if d.kind == "react" and seat == active:
            if spec.dreamer and spec.dreamer != d.day and d.day:
                self.report.add(
                    entry,
                    "dreamer",
                    f"the active player's Dreamer is on the Day space {d.day!r} "
                    "while the others react: leave dreamer out",
                )
            return d.day
        if spec.dreamer not in nights:
            self.report.add(entry, "dreamer", f"{spec.dreamer!r} is not a Night space ({', '.join(nights)})")
        return spec.dreamer

    def _ritual_best(self, spec: PlayerSpec, entry: str) -> tuple[int, int]:
        top = len(self.pack.tracks.ritual)
        best = spec.ritual_best or spec.ritual
        for field, values in (("ritual", spec.ritual), ("ritual_best", best)):
            if not all(0 <= v <= top for v in values):
                self.report.add(entry, field, f"{list(values)}: Ritual markers stand on 0 (start) to {top}")
        if any(b < r for b, r in zip(best, spec.ritual)):
            self.report.add(entry, "ritual_best", "a marker's best space is behind where it stands")
        return (best[0], best[1])

    def _turns(self, state: GameState, seat: int, spec: PlayerSpec) -> int:
        """Turns taken: as given, or counted from the turns before this one."""
        if spec.turns is not None:
            return spec.turns
        n_track = len(self.pack.tracks.turn)
        number = self.spec.game.turn_number or (
            state.time * n_track + (state.turn_pos - state.turn_start) % n_track + 1
        )
        # the owners repeat around the Turn track: whole rounds, then the start of one (a huge
        # turn number is refused, but counting it one turn at a time hung before it was)
        owns = [board.turn_owner(state, (state.turn_start + k) % n_track) == seat for k in range(n_track)]
        rounds, rest = divmod(max(number - 1, 0), n_track)
        return rounds * sum(owns) + sum(owns[:rest])

    # -- cards ----------------------------------------------------------------------------------

    def _place(self, cards: tuple[str, ...], where: str, field: str, usable: dict[str, str]) -> list[str]:
        """Check the named cards can be used here (``usable``: id -> kind of card) and lie in
        one place only; returns those that can."""
        what = next(iter(usable.values()), "Development")
        ok = []
        for card in cards:
            if card in usable and card in self.placed:
                self.report.add(where, field, f"card {card!r} is also in {self.placed[card]}")
            elif card in usable:
                self.placed[card] = f"{where}.{field}"
                ok.append(card)
            elif card in self.unusable:
                self.report.add(where, field, f"card {card!r} {self.unusable[card]}")
            elif card in self.kind_of:
                self.report.add(where, field, f"{card!r} is a {self.kind_of[card]} card, not a {what} card")
            else:
                self.report.add(where, field, f"unknown {what} card {card!r}")
        return ok

    def _cards(self, state: GameState) -> GameState:
        """Hands, displays, Dreams and decks: named cards first, then the rest by the seed."""
        p, n = self.pack, self.base.config.seat_count
        known_problems = len(self.report.problems)
        keep = {2: (2,), 3: (2, 3), 4: (2, 3, 4)}[max(2, n)]  # as setup step 8
        dev1 = {d.id: "Development" for d in p.cards.development if d.stage == 1 and d.players in keep}
        dev2 = [d.id for d in p.cards.development if d.stage == 2 and d.players in keep]
        removed = tuple(d.id for d in p.cards.development if d.players not in keep)
        dreams1 = {d.id: "Dream" for d in p.cards.dreams if d.stage == 1}
        conflicts1 = {c.id: "Conflict" for c in p.cards.conflicts if c.stage == 1}
        if self.spec.game.stage == 2:
            # The Stage II space was reached: the Stage 2 cards are in the decks, the Stage 2
            # Conflict deck replaced the Stage 1 one (when the pack has one, as cathedral.py).
            dev1 |= {card: "Development" for card in dev2}
            dreams1 = {d.id: "Dream" for d in p.cards.dreams}
            stage2 = {c.id: "Conflict" for c in p.cards.conflicts if c.stage == 2}
            if stage2:
                removed += tuple(conflicts1)
                conflicts1 = stage2
            dev2 = []
        self._explain_unusable(p, dev1, dreams1, conflicts1)
        players = [self._hand_and_display(state, pl, dev1, dreams1) for pl in state.players]
        king_cards = self._king_cards(dev1, dreams1) if self.king_seat >= 0 else None
        dk = self.spec.decks
        dev_top = self._place(dk.development, "decks", "development", dev1)
        dev_discard = self._place(dk.development_discard, "decks", "development_discard", dev1)
        dream_top = self._place(dk.dream, "decks", "dream", dreams1)
        offer = self._place(dk.dream_offer, "decks", "dream_offer", dreams1) if dk.dream_offer is not None else None
        if offer is not None and len(offer) > DREAM_OFFER:
            self.report.add("decks", "dream_offer", f"the offer holds at most {DREAM_OFFER} Dream cards")
        conflict_top = self._place(dk.conflict, "decks", "conflict", conflicts1)
        if len(self.report.problems) > known_problems:
            return state  # dealing would only repeat the same problems
        r = state.rng
        # Development: deal what the players ask for from the shuffled rest, the remainder under the named top.
        rest, r = rng.shuffle(r, [c for c in dev1 if c not in self.placed])
        rest, players = self._deal(rest, players, "deal", "hand")
        if dk.development_count is not None:
            # A worn deck: only so many cards left, the rest already in the discard pile.
            keep_n = dk.development_count - len(dev_top)
            if not 0 <= keep_n <= len(rest):
                self.report.add(
                    "decks",
                    "development_count",
                    f"{dk.development_count}: the deck can hold {len(dev_top)}-{len(dev_top) + len(rest)} cards here",
                )
                return state
            dev_discard += rest[keep_n:]
            rest = rest[:keep_n]
        drest, r = rng.shuffle(r, [c for c in dreams1 if c not in self.placed])
        drest, players = self._deal(drest, players, "deal_dreams", "dreams")
        if king_cards is not None and king_cards["dreams"] is None:
            # SETUP 2: 2 Dreams from the deck, the one worth fewest VP on top (last)
            king_cards["dreams"] = sorted(drest[:2], key=lambda c: -cards_of.dream(state, c).vp)
            drest = drest[2:]
        if offer is None:
            offer, drest = list(drest[:DREAM_OFFER]), drest[DREAM_OFFER:]
        crest, r = rng.shuffle(r, [c for c in conflicts1 if c not in self.placed])
        d2, r = rng.shuffle(r, dev2)  # Stage 2 decks set aside, as setup step 22
        dr2, r = rng.shuffle(r, [d.id for d in p.cards.dreams if d.stage == 2 and d.id not in dreams1])
        c2, r = rng.shuffle(r, [c.id for c in p.cards.conflicts if c.stage == 2 and c.id not in conflicts1])
        decks = Decks(
            development=tuple(dev_top) + tuple(rest),
            development_discard=tuple(dev_discard),
            dream=tuple(dream_top) + tuple(drest),
            dream_offer=tuple(offer),
            conflict=tuple(conflict_top) + tuple(crest),
            development2=d2,
            dream2=dr2,
            conflict2=c2,
            removed=removed,
        )
        state = replace(state, players=tuple(players), decks=decks, rng=r)
        return self._king_state(state, king_cards) if king_cards is not None else state

    def _king_cards(self, dev1: dict, dreams1: dict) -> dict[str, Any]:
        """The King's named cards, placed (so that they are in no deck)."""
        k = self.spec.king or KingSpec()
        rondel = self.pack.matrix.rondel
        for field in ("tucked", "card_cultists", *(("day_cultists",) if k.day_cultists else ())):
            for action in getattr(k, field):
                if action not in rondel:
                    self.report.add("king", field, f"{action!r} is no action ({', '.join(rondel)})")
        tucked = [self._place(k.tucked.get(a, ()), "king", f"tucked.{a}", dev1) for a in rondel]
        hand = self._place(k.hand, "king", "hand", dev1)
        dreams = None if k.dreams is None else self._place(k.dreams, "king", "dreams", dreams1)
        completed = self._place(k.completed, "king", "completed", dreams1)
        return {"tucked": tucked, "hand": hand, "dreams": dreams, "completed": completed}

    def _king_state(self, state: GameState, named: dict[str, Any]) -> GameState:
        """The King's play area (solo SETUP 2-5, then as the [king] table says): its 2 combat
        cards shuffled into its hand, the Area Selection cards shuffled."""
        k = self.spec.king or KingSpec()
        rondel = self.pack.matrix.rondel
        if k.dreamer not in rondel:
            self.report.add(
                "king", "dreamer", f"{k.dreamer!r}: the King's Dreamer is on a Day space ({', '.join(rondel)})"
            )
        counts = {
            "day_cultists": k.day_cultists if k.day_cultists is not None else dict.fromkeys(rondel, 1),
            "card_cultists": k.card_cultists,
        }
        for field, given in counts.items():
            if any(n < 0 for n in given.values()):
                self.report.add("king", field, "cannot be negative")
        dreams = tuple(named["dreams"])
        dream_cultists = k.dream_cultists or (0,) * len(dreams)
        if len(dream_cultists) != len(dreams) or any(n < 0 for n in dream_cultists):
            self.report.add("king", "dream_cultists", f"a count of 0 or more per incomplete Dream ({len(dreams)})")
        if k.nightmare_marker not in (0, 1):
            self.report.add("king", "nightmare_marker", "0 or 1: one of the two Nightmare cards")
        areas = king.area_selection_cards(state)
        for area in k.area_aside:
            if area not in areas or k.area_aside.count(area) > 1:
                self.report.add("king", "area_aside", f"{area!r}: set aside once, one of {', '.join(areas)}")
        hand, r = rng.shuffle(state.rng, (*king.king_combat_cards(state), *named["hand"]))
        deck, r = rng.shuffle(r, [a for a in areas if a not in k.area_aside])
        ks = KingState(
            seat=self.king_seat,
            dreamer=k.dreamer,
            day_cultists=tuple(counts["day_cultists"].get(a, 0) for a in rondel),
            card_cultists=tuple(k.card_cultists.get(a, 0) for a in rondel),
            tucked=tuple(tuple(t) for t in named["tucked"]),
            hand=tuple(hand),
            dreams=dreams,
            dream_cultists=tuple(dream_cultists),
            completed=tuple(named["completed"]),
            nightmare_marker=k.nightmare_marker,
            area_deck=tuple(deck),
            area_aside=k.area_aside,
        )
        return replace(state, king=ks, rng=r)

    def _explain_unusable(self, p: Pack, dev1: dict, dreams1: dict, conflicts1: dict) -> None:
        """Why cards of the pack cannot be placed, so that problems say more than "unknown card"."""
        self.unusable: dict[str, str] = {BASIC_COMBAT: "is the Basic Combat card: it is always in its owner's hand"}
        self.kind_of: dict[str, str] = {a.id: "starting Action" for a in p.cards.actions}
        self.kind_of |= {c.id: "Development" for c in p.cards.development}
        self.kind_of |= {c.id: "Dream" for c in p.cards.dreams}
        self.kind_of |= {c.id: "Conflict" for c in p.cards.conflicts}
        n = self.base.config.seat_count
        stage2 = "is a Stage 2 card (in play from the Stage II space: stage = 2 in [game])"
        for d in p.cards.development:
            if d.id not in dev1:
                self.unusable[d.id] = stage2 if d.stage == 2 else f"is not used with {n} players"
        stages = {x.id: x.stage for x in p.cards.dreams} | {x.id: x.stage for x in p.cards.conflicts}
        for card_id, stage in stages.items():
            if card_id not in dreams1 and card_id not in conflicts1:
                self.unusable[card_id] = stage2 if stage == 2 else "left the game at the Stage II space"

    def _hand_and_display(self, state: GameState, pl: PlayerState, dev1: dict, dreams1: dict) -> PlayerState:
        spec = self.spec.players[pl.seat]
        entry = self._player_entry(pl.seat)
        if pl.seat == self.king_seat:
            for field in ("hand", "deal", "dreams", "deal_dreams", "dreams_played", "display"):
                if getattr(spec, field):
                    self.report.add(entry, field, "the King's cards are in [king]")
            return replace(pl, hand=(), display=tuple(stack[:1] for stack in self._display(spec, entry, dev1)))
        hand_spec = spec.hand
        basics = hand_spec.count(BASIC_COMBAT)
        if basics > 1:
            self.report.add(entry, "hand", f"a player has one {BASIC_COMBAT} card")
        hand = [BASIC_COMBAT] + self._place(tuple(c for c in hand_spec if c != BASIC_COMBAT), entry, "hand", dev1)
        dreams = self._place(spec.dreams, entry, "dreams", dreams1)
        played = self._place(spec.dreams_played, entry, "dreams_played", dreams1)
        display = self._display(spec, entry, dev1)
        for field, n in (("deal", spec.deal), ("deal_dreams", spec.deal_dreams)):
            if n < 0:
                self.report.add(entry, field, "cannot be negative")
        return replace(pl, hand=tuple(hand), dreams=tuple(dreams), dreams_played=tuple(played), display=display)

    def _display(self, spec: PlayerSpec, entry: str, dev1: dict) -> tuple[tuple[str, ...], ...]:
        """The Action cards in rondel order, each with the Upgrades named for it on top."""
        p = self.pack
        start = {a.action: a.id for a in p.cards.actions}
        cards = {d.id: d for d in p.cards.development}
        for action in spec.display:
            if action not in p.matrix.rondel:
                self.report.add(entry, "display", f"{action!r} is no action ({', '.join(p.matrix.rondel)})")
        stacks = []
        for action in p.matrix.rondel:
            ups = self._place(spec.display.get(action, ()), entry, f"display.{action}", dev1)
            for card in ups:
                c = cards[card]
                if c.kind != "upgrade" or c.action != action:
                    what = "a Ploy" if c.kind != "upgrade" else f"an Upgrade for {c.action}"
                    self.report.add(entry, f"display.{action}", f"{card!r} is {what}, not an Upgrade for {action}")
            stacks.append((start[action], *ups))
        return tuple(stacks)

    def _deal(
        self, rest: tuple[str, ...], players: list[PlayerState], field: str, into: str
    ) -> tuple[tuple[str, ...], list[PlayerState]]:
        """Deal ``field`` cards to each player in seat order from the shuffled ``rest``."""
        for seat, pl in enumerate(players):
            k = getattr(self.spec.players[seat], field)
            if k > len(rest):
                self.report.add(self._player_entry(seat), field, f"only {len(rest)} cards are left to deal")
                k = len(rest)
            players[seat] = replace(pl, **{into: getattr(pl, into) + tuple(rest[:k])})
            rest = rest[k:]
        return rest, players

    # -- the decision ---------------------------------------------------------------------------

    def _check_decision(self, active: int) -> int:
        """The decision table on its own; returns the seat that decides (-1 if unclear)."""
        d = self.spec.decision
        if d.kind not in SUPPORTED_DECISIONS:
            self.report.add(
                "decision",
                "kind",
                f"{d.kind!r} has no shorthand: use {' or '.join(SUPPORTED_DECISIONS)}, "
                "or write the step due as [state.work] (docs/scenarios.md)",
            )
            return -1
        seat = self._seat(d.seat, "decision", "seat") if d.seat is not None else -1
        if d.kind == "choose_day":
            if seat not in (active, -1):
                self.report.add(
                    "decision", "seat", f"choose_day is the active player's decision ({self.colours[active]})"
                )
            if d.day or d.ignored:
                self.report.add("decision", "day", "a choose_day position has no Day action chosen yet")
            return active
        rondel = self.pack.matrix.rondel
        if d.day not in rondel:
            self.report.add(
                "decision", "day", f"{d.day!r}: name the Day action the active player chose ({', '.join(rondel)})"
            )
        if seat == active:
            self.report.add("decision", "seat", "the active player does not react to its own action")
        n = len(self.colours)
        return seat if seat >= 0 else (active + 1) % n  # TURN STRUCTURE 6: from the active player's left

    def _nightmares_placed(self, state: GameState) -> GameState:
        """Stage 2: where each Nightmare stands (THE NIGHTMARE CATHEDRAL: on its card until it
        comes to the Cathedral space, then moved into areas)."""
        at = self.spec.game.nightmare_at
        if not at:
            # Both come to the Cathedral space at the Stage II space.
            both = (board.CATHEDRAL,) * len(state.nightmares)
            return replace(state, nightmare_at=both) if state.stage == 2 else state
        if not self.base.config.nightmares:
            self.report.add("game", "nightmare_at", "name the Nightmares in [config] nightmares (in this order)")
        elif len(at) != len(state.nightmares):
            self.report.add(
                "game", "nightmare_at", f"one place per Nightmare of [config] nightmares ({len(state.nightmares)})"
            )
        places = (board.CATHEDRAL, *(a.id for a in state.areas))
        for where in at:
            if where not in places:
                self.report.add(
                    "game",
                    "nightmare_at",
                    f"{where!r}: in Stage 2 a Nightmare stands in the Cathedral "
                    'space ("cathedral") or in an area in play',
                )
        self._fail_if_any()
        return replace(state, nightmare_at=tuple(at))

    def _decision(self, state: GameState, active: int, turn_number: int) -> tuple[GameState, list[Event]]:
        """Reveal the Nightmares as setup does, then let the engine build the decision due."""
        d = self.spec.decision
        events: list[Event] = []
        state = setup.reveal_nightmares(state, events)
        state = self._nightmares_placed(state)
        if d.kind == "choose_day":
            # begin_turn counts the turn and names the active player from the Turn marker.
            state = replace(state, turn_number=turn_number - 1, phase="turn")
            return limbo.offer(flow.resolve(turn.begin_turn(state, events), events)), events
        if len(state.players[active].hand) > HAND_LIMIT:
            self.report.add(
                self._player_entry(active),
                "hand",
                f"the active player has discarded down to {HAND_LIMIT} before the others react",
            )
            raise _Fatal
        n = len(state.players)
        order = [(active + i) % n for i in range(1, n)]
        queue = tuple(order[order.index(self.decider) :])
        state = replace(
            state, active=active, day=d.day, ignored=d.ignored, turn_number=turn_number, phase="reactions", queue=queue
        )
        state = turn.next_reaction(state, NextReaction(), events)
        return limbo.offer(flow.resolve(state, events)), events
