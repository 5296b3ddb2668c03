"""Computer players for Nightmarium. They see only their view (``secrets.view``): the planner
imagines the cards it cannot see (``secrets.resample``) to look ahead through its ability chains."""

from __future__ import annotations

import random
import threading

from nctui.platform.playouts import sequential_halving

from . import rules
from .cards import PARTS, card
from .secrets import resample
from .state import Action, Done, Draw, Exchange, NightmariumState, Pick, Play, Target


class RandomBot:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: NightmariumState) -> Action:
        return self.rng.choice(rules.legal_actions(view))


def _seat(view: NightmariumState) -> int:
    seat = rules.decider(view)
    assert seat is not None
    return seat


def quick_score(view: NightmariumState, action: Action, seat: int) -> float:
    """How good an action looks on its face: completing and building Creatures, pure ones most,
    hurting the leader, keeping cards that fit."""
    me = view.players[seat]
    if isinstance(action, Play):
        c = card(action.card)
        value = 1.0 + PARTS.index(action.part) * 2.0
        if action.part == "head":
            creature = next(x for x in me.creatures if x.id == action.creature)
            legions = {card(x).legion for x in creature.cards} | {c.legion}
            value += 6.0 + (3.0 if len(legions) == 1 else 0.0)
        elif action.part == "torso":
            creature = next(x for x in me.creatures if x.id == action.creature)
            value += 1.0 if card(creature.cards[0]).legion == c.legion else 0.0
        elif len(me.creatures) >= view.config.creatures - 1:
            value -= 1.0
        return value
    if isinstance(action, Target):
        victim = view.players[action.seat]
        creature = next(x for x in victim.creatures if x.id == action.creature)
        if action.seat == seat:  # Devourer: lose the least
            return -len(creature.cards) - (5.0 if rules.complete(creature) else 0.0)
        return len(creature.cards) * 2.0 + rules.completed(victim) * 1.5
    if isinstance(action, Pick):
        if view.pure is not None or view.exchange is not None:
            return -_keep_value(view, seat, action.card)
        return 0.0
    if isinstance(action, Draw):  # with the deck and the discard pile empty it draws nothing
        return 0.8 if view.deck or view.discard else -2.0
    if isinstance(action, Done):
        return 0.5
    if isinstance(action, Exchange):
        hand = me.hand
        playable = sum(bool(rules.placements(view, seat, c)) for c in hand)
        return 0.9 if len(hand) >= 4 and playable == 0 else -1.0
    return 0.0


def _keep_value(view: NightmariumState, seat: int, card_id: str) -> float:
    """How much a card in hand is worth keeping: it fits now, or soon."""
    fits = bool(rules.placements(view, seat, card_id))
    return (2.0 if fits else 0.0) + (0.5 if card(card_id).ability != "none" else 0.0)


class GreedyBot:
    """The action that looks best on its face (ties at random)."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: NightmariumState) -> Action:
        seat = _seat(view)
        actions = rules.legal_actions(view)
        return max(actions, key=lambda a: (quick_score(view, a, seat), self.rng.random()))


def position_value(state: NightmariumState, seat: int) -> float:
    """A position for ``seat``: complete Creatures (pure ones and near-goal ones most), partial
    ones, cards in hand; the best opponent's the same, against it."""

    def worth(i: int) -> float:
        p = state.players[i]
        value = 0.0
        for c in p.creatures:
            value += (0.0, 1.0, 2.5, 6.0)[len(c.cards)]
        done = rules.completed(p)
        value += 4.0 * done * done / state.config.creatures
        value += 0.4 * min(len(p.hand), 8)
        return value

    if state.winner is not None:
        return 1000.0 if state.winner == seat else -1000.0
    mine = worth(seat)
    others = max(worth(i) for i in range(len(state.players)) if i != seat)
    return mine - 0.8 * others


# playouts a decision (each about 1.5 ms: the next turns by the plan), and the turns each looks
# ahead by the plan (0: greedy to the end of the game); more playouts of the same model found
# nothing more (docs/balance.md), so the turns grow with the budget: from this budget on, this
# many turns. 64 (3 turns) won 56.0 % of 100 games against 32 (2 turns); 32 only 53.0 % against
# 16 (1 turn): the default is 64, the ladder's bottom 32
BUDGET = 64
HORIZON = 3
HORIZONS = ((BUDGET, HORIZON), (32, 2), (0, 1))
PLAYOUT_STEPS = 3000  # a played-out game ends well before this (about 110 decisions a game)


def horizon_for(budget: int) -> int:
    """The turns each playout looks ahead at ``budget`` playouts a decision."""
    return next(turns for least, turns in HORIZONS if budget >= least)


class PlannerBot:
    """Plans its ability chains: each action is tried on imagined full states (the unseen cards
    resampled), the rest of the turn played by the greedy rule (through every ability the chain
    sets off), and the action whose turn ends best on average is chosen. With a ``budget`` the
    actions are then played on in other imagined states, ``horizon`` turns ahead with every seat
    planning the same way (one guess: the imagined state itself), and the position then valued
    (``platform.playouts``: the plan's choice is left only for an action surely better in the
    same imagined states); ``horizon`` 0 plays to the end of the game, every seat greedy. A
    larger budget looks further ahead (``horizon_for``), not only more often."""

    def __init__(
        self,
        seed: int,
        *,
        samples: int = 3,
        limit: int = 40,
        budget: int = BUDGET,
        horizon: int | None = None,
    ) -> None:
        self.rng = random.Random(seed)
        self.samples = samples
        self.limit = limit
        self.budget = budget
        # turns a playout runs, every seat by the plan (0: greedy to the end); by the budget
        self.horizon = horizon_for(budget) if horizon is None else horizon
        self._stop = threading.Event()
        self._model: PlannerBot | None = None

    def stop(self) -> None:
        """End the decision being searched now, with the best action so far."""
        self._stop.set()

    def choose(self, view: NightmariumState) -> Action:
        self._stop.clear()
        seat = _seat(view)
        actions = rules.legal_actions(view)
        if len(actions) == 1:
            return actions[0]
        if view.pure is not None and view.pure.seats[0] == seat:
            return max(actions, key=lambda a: (quick_score(view, a, seat), self.rng.random()))
        planned = self._plan(view, seat, actions)
        if self.budget <= 0:
            return planned
        chosen = sequential_halving(
            len(actions),
            actions.index(planned),
            self.budget,
            lambda i, future: self._play_out(resample(view, seat, random.Random(future)), actions[i], seat, future),
            self.rng,
            self._stop.is_set,
        )
        return actions[chosen]

    def _play_out(self, state: NightmariumState, action: Action, seat: int, future: int) -> float:
        """The game after ``action`` to its end, every seat greedy: 1 for a win, else 0; with a
        ``horizon``, the next ``horizon`` turns, every seat by the plan (on the imagined state,
        its own choices at random from ``future``), then the position's value."""
        turn = state.turns  # the turns ahead count from the turn of the decision, so that an
        # action that ends the turn is not played on a turn further than one that does not
        state = rules.step(state, action).state
        if self.horizon > 0:
            return self._look_ahead(state, seat, future, turn + self.horizon)
        for _ in range(PLAYOUT_STEPS):
            who = rules.decider(state)
            if who is None:
                break
            state = rules.step(state, self._greedy(state, who)).state
        return 1.0 if state.winner == seat else 0.0

    def _look_ahead(self, state: NightmariumState, seat: int, future: int, end: int) -> float:
        if self._model is None:
            self._model = PlannerBot(0, samples=1, limit=self.limit, budget=0)
        model = self._model
        model.rng.seed(future)
        for _ in range(PLAYOUT_STEPS):
            who = rules.decider(state)
            if who is None or state.turns >= end:
                break
            actions = rules.legal_actions(state)
            if len(actions) == 1 or (state.pure is not None and state.pure.seats[0] == who):
                action = model._greedy(state, who)
            else:
                action = model._plan_on([state], who, actions)
            state = rules.step(state, action).state
        return position_value(state, seat) / 1000.0

    def _plan(self, view: NightmariumState, seat: int, actions: tuple[Action, ...]) -> Action:
        return self._plan_on([resample(view, seat, self.rng) for _ in range(self.samples)], seat, actions)

    def _plan_on(self, worlds: list[NightmariumState], seat: int, actions: tuple[Action, ...]) -> Action:
        best, best_value = actions[0], float("-inf")
        for action in actions:
            value = sum(self._rollout(world, action, seat) for world in worlds) / len(worlds)
            value += self.rng.random() * 1e-6
            if value > best_value:
                best, best_value = action, value
        return best

    def _rollout(self, state: NightmariumState, action: Action, seat: int) -> float:
        """The rest of ``seat``'s turn after ``action``, its later choices greedy."""
        turn = state.turns
        state = rules.step(state, action).state
        for _ in range(self.limit):
            who = rules.decider(state)
            if who is None or state.turns != turn:
                break
            state = rules.step(state, self._greedy(state, who)).state
        return position_value(state, seat)

    def _greedy(self, state: NightmariumState, seat: int) -> Action:
        options = rules.legal_actions(state)
        return max(options, key=lambda a: (quick_score(state, a, seat), self.rng.random()))


AnyBot = RandomBot | GreedyBot | PlannerBot


def make_bot(level: str, seed: int, *, budget: int = BUDGET) -> AnyBot:
    if level == "random":
        return RandomBot(seed)
    return GreedyBot(seed) if level == "greedy" else PlannerBot(seed, budget=budget)
