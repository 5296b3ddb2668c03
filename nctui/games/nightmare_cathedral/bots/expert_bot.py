"""The expert computer player: a search tree over its own decisions of the turn, on guesses at
the hidden cards, carried on through the other seats' replies.

It sees only its seat's view. Each iteration of the search takes a guess at what it cannot see
(``engine.views.resample``: a full state the view agrees with, a determinization, as
information-set Monte Carlo tree search makes them) and walks down a tree of the bot's own
decisions of this turn (the Day action, the Reaction, the steps of its action): at each node the
option with the best upper confidence bound among those legal in this guess (UCT), the options
tried first in the order of a quick estimate, and more of them as the node is visited more
(progressive widening). Below the tree the turn is played out by the planner's quick policy,
then the other seats' Reactions and turns (each seat by the planner's quick policy from its own
point of view) until the bot's next turn; the position reached is valued by the planner's
evaluation. The quick policy's one step cannot see what a Day action or a Reaction is worth
(only the 2 cards of ignoring an action: it ignored 62 % of its Day actions where the planner
ignores 17 %, and passed most Reactions); the settings ``look``, ``react_look`` and
``share_day`` make every seat's Day action and Reaction in an iteration the planner's look ahead
instead, chosen once a guess or once a decision (for each Day action at the root), not by
default: in the matches measured it cost up to 2x the CPU and was not shown stronger. A decision's
iterations share a few guesses, each counted from its own reference plan, so the options
are compared on the same guesses; an option is worth the best plan found below it. A larger
budget therefore buys more of the turn's plans, not only more guesses (docs/balance.md, "The
expert's tree search", "The expert's model of the replies").

Settings for the matches, none of them the default (each screened on 40 games against the planner
and not shown stronger: docs/balance.md, "The expert, 2026-12-03 evening"): ``horizon=1`` values
an iteration at the end of the bot's own turn, the other seat's turn not simulated (the planner's
horizon, its Reactions to the bot's action included; cheaper); ``margin`` keeps the planner's
first option at the root unless the search finds one better by that many hundredths of VP;
``play`` chooses the bot's own decisions below the tree by the planner's look ahead instead of
the quick policy; ``day`` multiplies the Day action's budget and ``cap`` bounds a decision's
iterations. Settings of 2026-12-04 (docs/balance.md, "The expert, 2026-12-04"): ``weights`` (the
evaluation's, at the leaves and in the quick policy; the planner's ``W`` by default) and
``reply_weights`` (those the other seats' replies are chosen by; by default its own); ``depth=1``
plays on through the bot's own next turn (its Day action by the planner's look ahead) and the
reply to it before valuing, about 3x the CPU an iteration.
Settings of 2026-12-05 (docs/balance.md, "The expert, 2026-12-05"), 2 players: ``value=1``
values the leaves by a win chance fitted to planner games (``fitted_value``, times ``vscale``),
``value=2`` by the difference of both seats' ``evaluate``; both predict the outcome better than
the seat's own ``evaluate`` and neither played stronger (51 % and 54 % of 100 games against the
planner where the default won 65 % of the same games).

The budget (``budget``: iterations for a decision of ``REFERENCE_OPTIONS`` options, the rest in
proportion) is counted in iterations and engine steps, never in time, so a game between expert
players depends only on the seeds. ``stop()`` (from another thread) ends the search at once: the
decision goes to the best option so far.
"""

from __future__ import annotations

import math
import threading

from ..engine import actions as A
from ..engine.state import GameState
from ..engine.views import View, fight_of, resample
from .planner_bot import (
    BUDGET as PLANNER_BUDGET,
    FITTED_SCALE,
    MIN_SHARE,
    ROLLOUT_DEPTH,
    Advice,
    PlannerBot,
    W,
    Weights,
    evaluate,
    tables,
)

BUDGET = 48  # iterations for a decision of REFERENCE_OPTIONS options (the default level)
REFERENCE_OPTIONS = 8
REPLY_STEPS = 900  # engine steps of the other seats' replies in one iteration, at most
LOOK_STEPS = 160  # engine steps of the bot's own turn in one iteration (tree and play out), at most
EXPLORE = 0.5  # UCT's exploration, times the spread of the values seen at the node
WIDEN = (2.0, 1.5)  # a node tries at most WIDEN[0] + WIDEN[1] * sqrt(visits) of its options
REPLY_LOOK = 0  # engine steps of look ahead for a Day action of another seat in the iterations (0: one step)
WORLDS = 4  # guesses at the hidden cards a decision's iterations share, in turn
REUSE = 0  # 1: the tree below the option chosen serves the next decision of the turn
BACKUP = 1  # an option's value in the tree: 1 the best plan found below it, 0 the mean of its iterations
REACT_LOOK = 0  # 1: every seat's Reactions in the iterations by the same look ahead as the Day action
SHARE_DAY = 0  # a looked-ahead Day action or Reaction: chosen once a root option and guess (1), or all guesses (2)
HORIZON = (
    0  # where an iteration is valued: 0 the bot's next turn, 1 the end of this turn (the Reactions to it included)
)
MARGIN = 0  # hundredths of VP: the root keeps the planner's first option unless the search finds one better by this
DAY = 1  # the Day action's budget, times the others'
CAP = 0  # iterations of one decision at most (0: no cap beyond the budget's proportion)
DEPTH = 0  # the bot's own later turns played in an iteration before its value (0: valued as its next turn begins)
DEPTH_LOOK = 24  # engine steps an option of the look ahead that chooses those turns' Day actions (without ``look``)
PLAY = 0  # steps an option: the bot's own decisions below the tree by the planner's look ahead (0: quick policy)
REUSED = 0.25  # a decision whose kept tree already has its budget still runs this share anew
# The decisions searched (the others, and those with one option, are the planner's): the Day action,
# the Reaction, and the steps of the actions.
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


class _Node:
    """A decision of the bot's in the tree: the options in the order they are tried, and per
    option tried its visits, summed value and the node below it."""

    __slots__ = ("children", "hi", "lo", "order", "visits")

    def __init__(self) -> None:
        self.visits = 0
        self.order: list[A.Action] | None = None
        self.children: dict[A.Action, _Child] = {}
        self.lo, self.hi = math.inf, -math.inf

    def select(self, options: tuple[A.Action, ...], best: bool) -> tuple[A.Action, bool]:
        """The option to follow among ``options`` (those legal in this guess), and whether it is
        new (not tried before)."""
        legal = set(options)
        tried = [(a, c) for a, c in self.children.items() if a in legal and c.visits]
        room = WIDEN[0] + WIDEN[1] * math.sqrt(self.visits)
        if len(self.children) < room or not tried:
            for a in self.order or options:
                if a in legal and a not in self.children:
                    return a, True
            for a in options:
                if a not in self.children:
                    return a, True
        if not tried:
            return options[0], options[0] not in self.children
        spread = max(0.25, self.hi - self.lo)
        log = math.log(self.visits + 1)
        chosen = max(
            tried,
            key=lambda ac: ac[1].value(best) + EXPLORE * spread * math.sqrt(log / ac[1].visits),
        )
        return chosen[0], False

    def choice(self, best: bool) -> A.Action | None:
        """The option chosen: the most visited, then the best valued."""
        if not self.children:
            return None
        visited = [(c.visits, c.value(best), -k, a) for k, (a, c) in enumerate(self.children.items()) if c.visits]
        return max(visited, key=lambda r: r[:3])[3] if visited else None


class _Child:
    __slots__ = ("node", "total", "visits")

    def __init__(self) -> None:
        self.visits = 0
        self.total = 0.0
        self.node = _Node()

    def value(self, best: bool) -> float:
        """The option's value: its mean, or (``best``) the best of its mean and the values of the
        bot's options after it (the bot will play its best plan, not the average of those tried)."""
        value = self.total / max(self.visits, 1)
        if best:
            for c in self.node.children.values():
                if c.visits:
                    value = max(value, c.value(best))
        return value


class ExpertBot(PlannerBot):
    name = "expert"

    def __init__(
        self,
        seed: int = 0,
        *,
        budget: int = BUDGET,
        searched: frozenset[str] = SEARCHED,
        look: int = REPLY_LOOK,
        worlds: int = WORLDS,
        backup: int = BACKUP,
        reuse: int = REUSE,
        share_day: int = SHARE_DAY,
        react_look: int = REACT_LOOK,
        horizon: int = HORIZON,
        margin: int = MARGIN,
        day: int = DAY,
        cap: int = CAP,
        play: int = PLAY,
        depth: int = DEPTH,
        weights: Weights = W,
        reply_weights: Weights | None = None,
        value: int = 0,
        vscale: int = FITTED_SCALE,
    ) -> None:
        super().__init__(seed, weights=weights, value=value, vscale=vscale)
        self._reply_weights = reply_weights  # the other seats' options in the iterations (None: its own)
        self._sims = budget
        self._searched = searched
        self._look = look
        self._worlds = worlds
        self._best = bool(backup)
        self._reuse = bool(reuse)
        self._share_day = share_day
        self._react_look = bool(react_look)
        self._horizon = horizon
        self._margin = margin / 100
        self._day, self._cap, self._play, self._depth = day, cap, play, depth
        self._looked: dict = {}  # the looked-ahead choices of the decision (share_day 2)
        self._first: A.Action | None = None  # the root option of the iteration under way
        self._by_root = False  # the root is the Day action: another seat's reply depends on it
        self._stop = threading.Event()
        self._seat = -1
        self._tree: tuple[int, _Node] | None = None  # (turn, node): the subtree of the option chosen

    def _weights_of(self, seat: int) -> Weights:
        """``reply_weights``: the other seats' quick policy and look ahead in the iterations value
        their options by these (a model of an opponent that weighs the position otherwise)."""
        if seat == self._seat or self._reply_weights is None:
            return self._weights
        return self._reply_weights

    def _value(self, state: GameState, seat: int) -> float:
        """``value=1``: the fitted chance for the bot's own seat only; the other seats' look ahead
        (their replies) keeps the planner's ``evaluate``, a model of the planner."""
        if seat != self._seat:
            return evaluate(state, seat, self._capped, self._weights_of(seat))
        return super()._value(state, seat)

    def stop(self) -> None:
        """End the decision being searched at once (the best option so far is chosen)."""
        self._stop.set()

    def choose(self, view: View) -> A.Action:
        d = view.state.decision
        if d is None or d.seat != view.seat or not d.options:
            raise ValueError("the bot was asked to decide when it has no decision")
        self._stop.clear()
        self._seat = view.seat
        if len(d.options) == 1 or d.kind not in self._searched:
            return super().choose(view)
        self._kept = None
        return self._search(view)

    def advise(self, view: View, count: int = 3, *, chosen: A.Action | None = None) -> tuple[Advice, ...]:
        """The practice hint: the option the search chooses first, then the planner's next best
        by their look ahead (what each changes for the seat)."""
        d = view.state.decision
        self._seat = view.seat
        if chosen is None and d is not None and d.seat == view.seat and len(d.options) > 1 and d.kind in self._searched:
            self._stop.clear()
            chosen = self._search(view)
        return super().advise(view, count, chosen=chosen)

    def _search(self, view: View) -> A.Action:
        """Iterations of the tree search from this decision, on a few guesses shared in turn."""
        d = view.state.decision
        assert d is not None
        options, seat, turn = d.options, view.seat, view.state.turn_number
        self._seat = seat
        self._by_root = d.kind == "choose_day"
        self._looked = {}  # share_day 2: the looked-ahead choices of this decision, on every guess
        kept, self._tree = self._tree, None
        root = kept[1] if self._reuse and kept is not None and kept[0] == turn else _Node()
        target = max(1, self._sims * len(options) // REFERENCE_OPTIONS) * (self._day if self._by_root else 1)
        if self._cap:
            target = min(target, self._cap)
        todo = max(target - root.visits, math.ceil(target * REUSED))
        # The iterations take the guesses in turn; each guess's first iteration plays the root's
        # first option with the quick policy after it (the reference plan), and every value is
        # counted from that guess's reference: the options are compared on the same guesses
        # (common random numbers), and what the guess changes for every option alike cancels out.
        pool = max(1, min(self._worlds, todo))
        worlds: list[tuple[GameState, dict, float]] = []
        for k in range(todo):
            if self._stop.is_set():
                break
            if len(worlds) < pool:
                world = resample(view, self._random)
                self._quick_memo = {}
                if root.order is None:
                    root.order = self._ranked(world, seat, options)
                base = self._iterate(root, world, seat, turn, None)
                worlds.append((world, self._quick_memo, base))
                continue
            world, self._quick_memo, base = worlds[k % pool]
            self._iterate(root, world, seat, turn, base)
        choice = root.choice(self._best)
        if self._margin and root.order:
            choice = self._kept_first(root, choice, options)
        if choice not in options:
            choice = next((a for a in root.order or () if a in options), options[0])
        child = root.children.get(choice)
        if child is not None:
            self._tree = (turn, child.node)
        return choice

    def _kept_first(self, root: _Node, choice: A.Action | None, options: tuple[A.Action, ...]) -> A.Action | None:
        """``margin``: the planner's first option (the root's first, on its look ahead) unless the
        search's choice is worth more by the margin (both counted on the same guesses)."""
        first = next((a for a in root.order or () if a in options), None)
        mine, theirs = root.children.get(choice) if choice else None, root.children.get(first) if first else None
        if first is None or mine is None or theirs is None or not theirs.visits or choice == first:
            return choice
        return choice if mine.value(self._best) - theirs.value(self._best) >= self._margin else first

    def _ranked(self, state: GameState, seat: int, options: tuple[A.Action, ...]) -> list[A.Action]:
        """The root's options in the order the planner's look ahead ranks them (on one guess)."""
        share = max(MIN_SHARE, PLANNER_BUDGET // len(options))
        scored = []
        for i, option in enumerate(options):
            self._steps, self._limit = 0, share
            scored.append((self._look_ahead(state, seat, option)[0], -i, option))
        return [o for _, _, o in sorted(scored, key=lambda r: r[:2], reverse=True)]

    def _ordered(self, state: GameState, seat: int, options: tuple[A.Action, ...]) -> list[A.Action]:
        """A node's options below the root in the order of the quick policy's one-step values."""
        scored = []
        for i, option in enumerate(options):
            prior = self._prior(state, seat, option)
            try:
                value = evaluate(self._advance(state, option), seat, self._capped, self._weights) + prior
            except Exception:  # noqa: BLE001 - a guess at hidden cards may not resolve
                value = prior - 1.0
            scored.append((value, -i, option))
        return [o for _, _, o in sorted(scored, key=lambda r: r[:2], reverse=True)]

    def _iterate(self, root: _Node, world: GameState, seat: int, turn: int, base: float | None) -> float:
        """One iteration: down the tree, the turn played out, the replies, the value (counted
        from ``base``) backed up; ``base`` None: the reference plan, the root's first option and
        the quick policy after it. Returns the value reached."""
        self._steps, self._limit = 0, LOOK_STEPS
        state, bonus = world, 0.0
        node: _Node | None = root
        path: list[tuple[_Node, _Child]] = []
        self._first = None
        try:
            while node is not None:
                d = state.decision
                if d is None or state.turn_number != turn or self._steps + len(d.options) > self._limit:
                    break
                if d.seat != seat or len(d.options) == 1 or d.kind not in self._searched:
                    action, after = self._reply(state, d)
                    state = self._advance(state, action) if after is None else after
                    continue
                if node.order is None:
                    node.order = self._ordered(state, seat, d.options)
                if base is None:  # the reference plan
                    action = next((a for a in node.order if a in d.options), d.options[0])
                    new = True
                else:
                    action, new = node.select(d.options, self._best)
                child = node.children.get(action)
                if child is None:
                    child = node.children[action] = _Child()
                path.append((node, child))
                if self._first is None and self._by_root:
                    self._first = action
                bonus += self._prior(state, seat, action)
                state = self._advance(state, action)
                node = None if new else child.node
            state = self._playout(state, seat, turn) if self._play else self._rollout(state, seat, turn)
        except Exception:  # noqa: BLE001 - a guess at hidden cards may not resolve: value what was reached
            bonus -= 1.0
        try:
            state = self._replies(state, seat, turn)
        except Exception:  # noqa: BLE001
            pass
        value = self._value(state, seat) + bonus
        counted = 0.0 if base is None else value - base
        for parent, child in path:
            parent.visits += 1
            child.visits += 1
            child.total += counted
            parent.lo, parent.hi = min(parent.lo, counted), max(parent.hi, counted)
        return value

    def _playout(self, state: GameState, seat: int, turn: int) -> GameState:
        """``play``: the rest of the bot's turn below the tree, its own searched decisions each by
        the planner's look ahead (``play`` engine steps an option, remembered on the guess), the
        rest as the planner's rollout plays them."""
        for _ in range(ROLLOUT_DEPTH):
            d = state.decision
            if d is None or state.turn_number != turn or self._steps + len(d.options) > self._limit:
                break
            if d.seat != seat or len(d.options) == 1 or d.kind not in self._searched:
                if d.seat != seat and fight_of(state.work) is None:
                    break
                if d.seat == seat and d.kind in ("discard_dreams", "draw_dream", "discard_development"):
                    break
                action, after = (
                    (self._other_in_conflict(state, d), None) if d.seat != seat else self._quick(state, seat, d)
                )
                state = self._advance(state, action) if after is None else after
                continue
            state = self._advance(
                state, self._looked_choice(state, seat, d, self._play, ("play", state), self._quick_memo)
            )
        return state

    def _looked_choice(self, state: GameState, who: int, d, look: int, key: object, memo: dict) -> A.Action:
        """The option the planner's look ahead (``look`` engine steps an option, not counted in
        the iteration's steps) values best for ``who``, remembered under ``key`` in ``memo``."""
        known = memo.get(key)
        if known is not None and known[0] in d.options:
            self._steps += 1
            return known[0]
        steps, limit = self._steps, self._limit
        best, best_value = d.options[0], -math.inf
        for option in d.options:
            self._steps, self._limit = 0, look
            value = self._look_ahead(state, who, option)[0]
            if value > best_value:
                best, best_value = option, value
        self._steps, self._limit = steps + 1, limit
        memo[key] = (best, 1, None)
        return best

    def _replies(self, state: GameState, seat: int, turn: int) -> GameState:
        """Play on, every seat by the planner's quick policy from its own point of view, until the
        bot's next turn begins (``depth``: until ``depth`` more of its turns are over, each Day action
        of its own by the planner's look ahead), or the steps run out."""
        n = len(state.players)
        self._steps, self._limit = 0, REPLY_STEPS * (1 + self._depth)
        end = turn + n * (1 + self._depth)
        while (d := state.decision) is not None:
            if self._steps + len(d.options) > self._limit or self._stop.is_set():
                break
            if state.turn_number >= end and state.active == seat:
                break  # the bot's own next turn (after ``depth`` more): its value is the position now
            if self._horizon and state.turn_number != turn:
                break  # horizon 1: the turn is over, its Reactions included
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
        if kind == "choose_day" and ((self._look and who != self._seat) or (self._depth and who == self._seat)):
            return self._day_reply(state, who, d), None
        if kind == "react" and self._look and self._react_look:
            return self._day_reply(state, who, d), None
        return self._quick(state, who, d)

    def _day_reply(self, state: GameState, who: int, d) -> A.Action:
        """Another seat's Day action, or any seat's Reaction, in an iteration: the planner's look
        ahead, ``look`` engine steps an option (not counted in the replies' steps), remembered as
        ``share_day`` says."""
        kind = d.kind
        key = (kind, who, state.turn_number, state.day, self._first) if self._share_day else (state, kind)
        memo = self._looked if self._share_day > 1 else self._quick_memo
        return self._looked_choice(state, who, d, self._look or DEPTH_LOOK, key, memo)
