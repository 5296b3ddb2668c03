"""Computer players for Cathedral: random, greedy and strong. They see the state (Cathedral has
no hidden information and no chance) and choose among the legal placements."""

from __future__ import annotations

import random

from . import pieces, rules
from .pieces import CATHEDRAL, FULL
from .state import Captured, CathedralState, Claimed, Level, Place


class RandomBot:
    """Any legal placement, uniformly."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: CathedralState) -> Place:
        return self.rng.choice(rules.legal_actions(view))


def gain(state: CathedralState, action: Place) -> tuple[CathedralState, float]:
    """What a placement earns at once: its squares, the squares it encloses, and the squares of a
    building it captures (they go back to the opponent's supply)."""
    result = rules.step(state, action)
    value = float(pieces.size_of(action.building)) if action.building != CATHEDRAL else 0.0
    for event in result.events:
        if isinstance(event, Claimed):
            value += event.mask.bit_count()
        elif isinstance(event, Captured) and event.owner is not None:
            value += 2 * pieces.size_of(event.building)
    return result.state, value


def _cathedral(state: CathedralState, rng: random.Random, *, against_wall: bool) -> Place:
    """The Cathedral near the middle of the city, or against a wall (measured: Light's strong
    player wins far more often with it there, docs/cathedral.md)."""
    if against_wall:
        places = [a for a in rules.legal_actions(state) if a.row == 0 or a.col == 0]
    else:
        places = [a for a in rules.legal_actions(state) if 2 <= a.row <= 4 and 2 <= a.col <= 5]
    return rng.choice(places)


class GreedyBot:
    """The placement with the largest immediate gain (ties at random)."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: CathedralState) -> Place:
        if view.phase == "cathedral":
            return _cathedral(view, self.rng, against_wall=False)
        best: list[Place] = []
        top = -1.0
        for action in rules.legal_actions(view):
            value = gain(view, action)[1]
            if value > top:
                top, best = value, [action]
            elif value == top:
                best.append(action)
        return self.rng.choice(best)


RISK = 10  # a building with this many places or more is not at risk


def blocked(state: CathedralState, colour: int, tally: list[int] | None = None) -> float:
    """Squares of ``colour``'s unplaced buildings at risk: fully for one that fits nowhere any
    more, partly for one with only a few places left (the opponent can take them). ``tally``
    (one number) counts the placements looked at: the cost of the evaluation."""
    closed = rules.closed_to(state, colour)
    total = 0.0
    looked = 0
    supply = state.supply[colour]
    for b in dict.fromkeys(supply):
        room = 0
        ways = pieces.placements(b, colour)
        seen = len(ways)
        for i, p in enumerate(ways):
            if not p.mask & closed:
                room += 1
                if room >= RISK:
                    seen = i + 1
                    break
        looked += seen
        total += pieces.size_of(b) * supply.count(b) * (1 - room / RISK)
    if tally is not None:
        tally[0] += looked
    return total


def standing(state: CathedralState, colour: int, tally: list[int] | None = None) -> float:
    """How well ``colour`` stands: unplaced squares count against it, those that fit nowhere
    fully, and free squares of its own property (room only it can use) for it."""
    left = rules.unplaced(state, colour)
    stuck = blocked(state, colour, tally)
    room = (state.territory[colour] & ~rules.occupied(state) & FULL).bit_count()
    return -stuck - W_LEFT * (left - stuck) + W_ROOM * min(room, left - stuck)


# weights of standing(): measured against the greedy player (docs/cathedral.md)
W_LEFT, W_ROOM = 0.35, 0.6
LATE_STEPS = (1, 5)  # one move deeper below late // k placements, for each k
# placements tried in one decision, at most (about 80 microseconds each): the answer within 1 s
BUDGET = 8000
WIDTH, LATE = 6, 300
SAMPLE = 3  # an inner node weighs this many times its width of placements, by immediate gain
# The work of a decision, in units of about 40 microseconds (measured, docs/balance.md), never
# in time, so that a seed replays the same moves on any machine: a placement tried costs one more
# for every TRIED buildings in the city (the enclosures take longer to find), an evaluation two
# and one more for every LOOKED placements it looks at (late in a game, with many buildings that
# fit nowhere, an evaluation costs several placements tried). The budget counts only the
# placements tried; the work, capped at WORK units a placement of the budget, bounds the
# slowest decisions, the deep searches of the last moves.
TRIED, LOOKED, WORK = 8, 300, 1.75


def tried(state: CathedralState) -> int:
    """The work a placement tried in ``state`` costs."""
    return 1 + len(state.buildings) // TRIED


def evaluate(state: CathedralState, colour: int, tally: list[int] | None = None) -> float:
    """How much better ``colour`` stands than its opponent; ``tally`` counts the placements it
    looks at."""
    if state.game != 0 and not state.buildings:
        return 0.0
    return standing(state, colour, tally) - standing(state, 1 - colour, tally)


class StrongBot:
    """A shallow search: at its own turn every placement is evaluated; the best ``width`` are
    searched ``depth`` moves ahead (deeper once few placements remain), each side answering with
    its best few by immediate gain then evaluation; the placement whose line leaves it best.
    ``budget``: placements tried a decision, at most; the number of placements left below which
    it searches a move deeper grows with it (twice the budget: deeper twice as early), so that
    a larger budget searches further, not the same lines cut short (``deepen`` off: the width
    grows instead, which measured no stronger: docs/balance.md). ``cap``: the work of a decision
    (``tried``, evaluations by the placements they look at), at most: ``WORK`` units a placement
    of the budget by default, 0 none (as before 2026-12-03)."""

    def __init__(
        self,
        seed: int,
        *,
        budget: int = BUDGET,
        width: int | None = None,
        depth: int = 2,
        late: int | None = None,
        deepen: bool = True,
        cap: int | None = None,
    ) -> None:
        self.rng = random.Random(seed)
        self.budget = budget
        # a larger budget searches deeper sooner, as wide as the default (``deepen`` off: wider)
        scale = budget / BUDGET
        self.width = width or (WIDTH if deepen else max(1, round(WIDTH * scale)))
        self.depth = depth
        self.late = late or (round(LATE * scale) if deepen else LATE)  # fewer placements than this: deeper
        self.cap = round(WORK * budget) if cap is None else cap  # the work of a decision, at most (0: none)
        self.spent = 0  # placements tried for the decision being made
        self.work = 0  # and its work

    def choose(self, view: CathedralState) -> Place:
        if view.phase == "cathedral":
            return _cathedral(view, self.rng, against_wall=True)
        me = view.to_move
        actions = rules.legal_actions(view)
        depth = self.depth + sum(len(actions) < self.late // k for k in LATE_STEPS)
        self.spent, self.work = len(actions), len(actions) * tried(view)
        scored = []
        for action in actions:
            after, value = gain(view, action)
            scored.append((self._evaluate(after, me) + 0.01 * value + self.rng.random() * 1e-3, action, after))
        scored.sort(key=lambda t: t[0], reverse=True)
        best, best_value = scored[0][1], float("-inf")
        for _, action, after in scored[: self.width]:
            value = self._search(after, me, depth - 1, best_value, float("inf"))
            if value > best_value:
                best, best_value = action, value
        return best

    def _spent(self) -> bool:
        return self.spent > self.budget or 0 < self.cap < self.work

    def _search(self, state: CathedralState, me: int, depth: int, alpha: float, beta: float) -> float:
        """The value for ``me`` of ``state`` searched ``depth`` moves on (alpha-beta)."""
        done = state.phase != "build" or (state.game != 0 and not state.buildings)
        if depth <= 0 or done or self._spent():
            return self._evaluate(state, me)
        mover = state.to_move
        actions = list(rules.legal_actions(state))
        self.spent += len(actions)
        self.work += len(actions) * tried(state)
        self.rng.shuffle(actions)  # among equal gains, any: not the placements listed first
        by_gain = sorted((gain(state, a) for a in actions), key=lambda t: t[1], reverse=True)
        children = sorted(
            (after for after, _ in by_gain[: SAMPLE * self.width]),
            key=lambda after: self._evaluate(after, mover),
            reverse=True,
        )[: self.width]
        if mover == me:
            for after in children:
                alpha = max(alpha, self._search(after, me, depth - 1, alpha, beta))
                if alpha >= beta:
                    break
            return alpha
        for after in children:
            beta = min(beta, self._search(after, me, depth - 1, alpha, beta))
            if alpha >= beta:
                break
        return beta

    def _evaluate(self, state: CathedralState, colour: int) -> float:
        """``evaluate``, its work counted: two units, and one more for every ``LOOKED``
        placements it looks at."""
        tally = [0]
        value = evaluate(state, colour, tally)
        self.work += 2 + tally[0] // LOOKED
        return value


AnyBot = RandomBot | GreedyBot | StrongBot


def make_bot(level: Level, seed: int) -> AnyBot:
    if level == "random":
        return RandomBot(seed)
    return GreedyBot(seed) if level == "greedy" else StrongBot(seed)
