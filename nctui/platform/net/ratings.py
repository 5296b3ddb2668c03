"""Ratings of a game server's people (issue 40): an Elo-style rating per person per game, moved
when a rated online game ends, and each person's record of finished games.

A game's result is its people's places (``Placing``: 1 for the seats that won, 2 for the others,
3 for a person who abandoned the game: gave up their seat before the end). Each pair of people
plays one Elo match (the better place wins it, equal places draw); a person's rating moves by
``K / (people - 1)`` times the sum of what they scored over what they were expected to, so a
two-person game moves ratings exactly as chess's Elo does. Computer seats and the King are not
rated and are nobody's opponent (as on Board Game Arena, a game against the computer is not
rated): a game is rated only when at least two people played it. A seat handed to a computer
while its person was away is still that person's. A room closed before its end rates nobody.

Pure: the store calls ``rate`` inside the transaction that writes the new ratings and the rows
of the game's record (``RoomStore.record_result``).
"""

from __future__ import annotations

from collections.abc import Mapping

import msgspec

START = 1500.0  # a person's rating before their first rated game of a game
K = 32.0  # the most one two-person game moves a rating
WON, LOST, ABANDONED = 1, 2, 3  # places


class Placing(msgspec.Struct, frozen=True, kw_only=True):
    """A person's place in a finished game."""

    identity: str
    name: str
    seat: int
    place: int  # WON, LOST or ABANDONED (lower is better; equal places draw)


class GameResult(msgspec.Struct, frozen=True, kw_only=True):
    """A finished online game, as the host records it when it ends."""

    room: str
    game: str  # the registry id
    room_name: str
    ended: float  # wall clock
    rated: bool
    result: str = ""  # the game's words ("Red wins with 34 VP")
    places: tuple[Placing, ...]


class Rating(msgspec.Struct, frozen=True, kw_only=True):
    """A person's rating of one game."""

    game: str
    identity: str
    name: str
    rating: float = START
    games: int = 0  # rated games played
    wins: int = 0


class ResultRow(msgspec.Struct, frozen=True, kw_only=True):
    """One finished game on a person's page: the room, their place and their rating before and
    after it (equal when it was not rated)."""

    room: str
    game: str
    room_name: str
    ended: float
    rated: bool
    result: str
    seat: int
    place: int
    people: int  # how many people were placed
    before: float
    after: float


def places_of(
    winners: tuple[int, ...], people: Mapping[int, tuple[str, str]], abandoned: Mapping[str, str]
) -> tuple[Placing, ...]:
    """The places of a finished game: ``people`` seat → (identity, name) of the people seated at
    the end; ``abandoned`` identity → name of those who gave their seat up before it (they rank
    last, and are placed only if not seated again at the end)."""
    out = [
        Placing(identity=identity, name=name, seat=seat, place=WON if seat in winners else LOST)
        for seat, (identity, name) in sorted(people.items())
    ]
    seated = {p.identity for p in out}
    out += [
        Placing(identity=identity, name=name, seat=-1, place=ABANDONED)
        for identity, name in abandoned.items()
        if identity not in seated
    ]
    return tuple(out)


def is_rated(places: tuple[Placing, ...]) -> bool:
    """Whether a game of these places moves ratings: two people or more."""
    return len({p.identity for p in places}) >= 2


def expected(rating: float, other: float) -> float:
    """The score ``rating`` is expected to take from one match against ``other``."""
    return 1.0 / (1.0 + 10.0 ** ((other - rating) / 400.0))


def rate(places: tuple[Placing, ...], before: Mapping[str, float]) -> dict[str, float]:
    """Each placed person's rating after the game (``before``: theirs before it; a person not in
    it starts at ``START``)."""
    now = {p.identity: before.get(p.identity, START) for p in places}
    if len(now) < 2:
        return now
    k = K / (len(places) - 1)
    after = {}
    for p in places:
        delta = 0.0
        for q in places:
            if q.identity == p.identity:
                continue
            score = 1.0 if p.place < q.place else 0.5 if p.place == q.place else 0.0
            delta += score - expected(now[p.identity], now[q.identity])
        after[p.identity] = now[p.identity] + k * delta
    return after


def apply(result: GameResult, current: Mapping[str, Rating]) -> tuple[list[Rating], list[tuple[str, ResultRow]]]:
    """What a store writes for a finished game, given the ratings of its people in its game now
    (``current``, by identity; a person with none starts at ``START``): the ratings after it (none
    changes for a game not rated) and (identity, row) for each person's record."""
    before = {i: r.rating for i, r in current.items()}
    rated = result.rated and is_rated(result.places)
    after = rate(result.places, before) if rated else {}
    ratings = []
    if rated:
        for p in result.places:
            old = current.get(p.identity) or Rating(game=result.game, identity=p.identity, name=p.name)
            ratings.append(
                Rating(
                    game=result.game,
                    identity=p.identity,
                    name=p.name,
                    rating=after[p.identity],
                    games=old.games + 1,
                    wins=old.wins + (p.place == WON),
                )
            )
    return ratings, _rows(msgspec.structs.replace(result, rated=rated), before, after)


def _rows(result: GameResult, before: Mapping[str, float], after: Mapping[str, float]) -> list[tuple[str, ResultRow]]:
    """(identity, its row) for each person placed in ``result``."""
    return [
        (
            p.identity,
            ResultRow(
                room=result.room,
                game=result.game,
                room_name=result.room_name,
                ended=result.ended,
                rated=result.rated,
                result=result.result,
                seat=p.seat,
                place=p.place,
                people=len(result.places),
                before=before.get(p.identity, START),
                after=after.get(p.identity, before.get(p.identity, START)),
            ),
        )
        for p in result.places
    ]
