"""The expert computer player: the planner's look ahead, over many guesses at the hidden cards,
carried on through the other seats' replies.

It sees only its seat's view. At each decision with a choice it makes several guesses at what it
cannot see (``engine.views.resample``, each a full state the view agrees with: a determinization,
as information-set Monte Carlo search makes them) and plays each option in each guess: the
planner's look ahead to the end of its own part of the turn (``PlannerBot._look_ahead``), then on
through the other seats' Reactions and turns, and its own replies, each seat by the planner's quick
policy from its own point of view, until the bot's next turn begins; the position reached is
valued by the planner's evaluation. The options are a bandit: successive halving spends the
guesses on the options still in the running (each round doubles the guesses of the better half),
so a larger budget looks further into the close calls.

The budget (``budget``: simulations for a decision of ``REFERENCE_OPTIONS`` options, the rest in
proportion) is counted in simulations and engine steps, never in time, so a game between expert
players depends only on the seeds. ``stop()`` (from another thread) ends the search at once: the
decision goes to the best option so far.
"""

from __future__ import annotations

import math
import threading

from ..engine import actions as A
from ..engine.state import GameState
from ..engine.views import View, fight_of, resample
from .planner_bot import Advice, PlannerBot, evaluate, tables

BUDGET = 48  # simulations for a decision of REFERENCE_OPTIONS options (the default level)
REFERENCE_OPTIONS = 8
MIN_GUESSES = 2  # guesses for each option in the first round of halving
REPLY_STEPS = 900  # engine steps of the other seats' replies in one simulation, at most
LOOK_STEPS = 160  # engine steps of the bot's own look ahead in one simulation, at most
# The decisions searched (the others, and those with one option, are the planner's): the Day action,
# the Reaction, and the steps of the actions. Searching only the first two (budget 48 or 128) won
# 60 % and 50 % of 20 games against the planner; all of these, 75 % (docs/balance.md).
SEARCHED = frozenset(
    {
        "choose_day",
        "react",
        "move",
        "produce",
        "start_conflict",
        "choose",
        "climb",
        "build_fort_level",
        "play_upgrade",
        "play_ploy",
        "develop",
    }
)


class ExpertBot(PlannerBot):
    name = "expert"

    def __init__(self, seed: int = 0, *, budget: int = BUDGET, searched: frozenset[str] = SEARCHED) -> None:
        super().__init__(seed)
        self._sims = budget
        self._searched = searched
        self._stop = threading.Event()

    def stop(self) -> None:
        """End the decision being searched at once (the best option so far is chosen)."""
        self._stop.set()

    def choose(self, view: View) -> A.Action:
        d = view.state.decision
        if d is None or d.seat != view.seat or not d.options:
            raise ValueError("the bot was asked to decide when it has no decision")
        self._stop.clear()
        if len(d.options) == 1 or d.kind not in self._searched:
            return super().choose(view)
        self._kept = None
        return self._search(view)

    def advise(self, view: View, count: int = 3, *, chosen: A.Action | None = None) -> tuple[Advice, ...]:
        """The practice hint: the option the search chooses first, then the planner's next best
        by their look ahead (what each changes for the seat)."""
        d = view.state.decision
        if chosen is None and d is not None and d.seat == view.seat and len(d.options) > 1 and d.kind in self._searched:
            self._stop.clear()
            chosen = self._search(view)
        return super().advise(view, count, chosen=chosen)

    def _search(self, view: View) -> A.Action:
        """Successive halving over the options, each simulation on a guess of its own."""
        d = view.state.decision
        assert d is not None
        options, seat = d.options, view.seat
        total = max(len(options) * MIN_GUESSES, self._sims * len(options) // REFERENCE_OPTIONS)
        alive = list(range(len(options)))
        sums = [0.0] * len(options)
        counts = [0] * len(options)
        rounds = max(1, math.ceil(math.log2(len(options))))
        worlds: list[GameState] = []
        for _ in range(rounds):
            per = max(MIN_GUESSES, total // (len(alive) * rounds))
            while len(worlds) < max(counts[i] for i in alive) + per:
                worlds.append(resample(view, self._random))
                self._quick_memo.clear()
            for i in alive:
                for k in range(counts[i], counts[i] + per):
                    if self._stop.is_set():
                        break
                    sums[i] += self._simulate(worlds[k], seat, options[i])
                    counts[i] += 1
            if self._stop.is_set() or len(alive) == 1:
                break
            alive.sort(key=lambda i: (sums[i] / max(counts[i], 1), -i), reverse=True)
            alive = alive[: max(1, (len(alive) + 1) // 2)]
        ranked = [i for i in range(len(options)) if counts[i]] or [0]
        best = max(ranked, key=lambda i: (counts[i] >= max(counts), sums[i] / max(counts[i], 1), -i))
        return options[best]

    def _simulate(self, world: GameState, seat: int, option: A.Action) -> float:
        """One option in one guess: the planner's look ahead, then the replies, then the value."""
        self._steps = 0
        self._limit = LOOK_STEPS
        value, after = self._look_ahead(world, seat, option)
        if after is world:  # the option failed in this guess: the look ahead's fallback value
            return value
        prior = value - evaluate(after, seat, self._capped)
        try:
            after = self._replies(after, seat, world.turn_number)
        except Exception:  # noqa: BLE001 - a guess at hidden cards may not resolve: value what was reached
            pass
        return evaluate(after, seat, self._capped) + prior

    def _replies(self, state: GameState, seat: int, turn: int) -> GameState:
        """Play on, every seat by the planner's quick policy from its own point of view, until the
        bot's next turn begins (or the steps run out)."""
        n = len(state.players)
        self._steps, self._limit = 0, REPLY_STEPS
        while (d := state.decision) is not None:
            if self._steps + len(d.options) > self._limit or self._stop.is_set():
                break
            if state.turn_number >= turn + n and state.active == seat:
                break  # the bot's own next turn: its value is the position now
            action, after = self._reply(state, d)
            if after is None:
                state = self._advance(state, action)
            else:
                self._steps += 1
                state = after
        return state

    def _reply(self, state: GameState, d) -> tuple[A.Action, GameState | None]:
        """What a seat does in the replies: the planner's quick policy, and the rules of thumb of
        its special decisions that need no look ahead of their own."""
        options, who = d.options, d.seat
        if len(options) == 1:
            return options[0], None
        kind = d.kind
        if kind == "discard_dreams":
            return next((o for o in options if isinstance(o, A.KeepDreams)), options[0]), None
        if kind == "draw_dream":
            return options[0], None
        if kind == "discard_development":
            t = tables(state.pack)
            discards = [o for o in options if isinstance(o, A.DiscardDevelopment)]
            return (min(discards, key=lambda o: t.card_value(o.card, 1.0)) if discards else options[0]), None
        if kind in ("king_tuck", "king_powered"):
            return self._special(state, who, d) or options[0], None
        if kind == "play_combat_card" and fight_of(state.work) is not None:
            return self._card_heuristic(state, who, d), None
        return self._quick(state, who, d)
