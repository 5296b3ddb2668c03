"""The UI runs no rule and no computer player: it draws views, their facts (``engine.facts``)
and words, and asks its ``GameClient`` for the rest. Checked on every import of every module
under nctui/ui, parsed with ``ast`` (imports inside functions and under TYPE_CHECKING too), and
on the local client, which gives the facts and the computer players' decisions."""

from __future__ import annotations

from nctui.games.nightmare_cathedral.bots import PlannerBot, bot_seed
from nctui.games.nightmare_cathedral.engine import GameConfig, player_view
from nctui.games.nightmare_cathedral.engine.facts import facts
from nctui.platform import registry
from nctui.platform.session import Session
from nctui.platform.store import Store
from tests.test_layers import ROOT, imports as imported

UI = ROOT / "ui"

# The engine modules Nightmare Cathedral's screens may import: the data a view holds and its types
# (state, king_state, work), events, actions, errors and the configuration, the views themselves,
# and the facts of a view (the one query module). Every other engine module holds rules.
ALLOWED_ENGINE = {"state", "king_state", "work", "events", "actions", "errors", "config", "views", "facts"}
NC = registry.entry("nightmare-cathedral").package
# Every game's rules, secrets and computer players are off limits to every screen: a screen reads
# its game's facts. A game on a server is reached through its connection (net.client,
# net.protocol's messages): the UI never runs the host's rooms, their sessions or their store, nor
# the server's SSH side.
FORBIDDEN = (
    *(f"{e.package}.{part}" for e in registry.ENTRIES for part in ("bots", "rules", "secrets", "simulate")),
    "nctui.platform.runner",
    "nctui.platform.net.host",
    "nctui.platform.net.rooms",
    "nctui.platform.net.store",
    "nctui.platform.net.store_sqlite",
    "nctui.platform.net.ssh",
    "nctui.platform.net.forkserver",
    "nctui.platform.net.serve",
)


def refused(module: str) -> bool:
    if any(module == f or module.startswith(f + ".") for f in FORBIDDEN):
        return True
    if module == f"{NC}.engine":  # the package re-exports the rules (step, apply, legal_actions …)
        return True
    if module.startswith(f"{NC}.engine."):
        return module.split(".")[4] not in ALLOWED_ENGINE
    return False


def test_the_import_parser_resolves_relative_imports_and_submodules():
    board = ROOT / "games" / "nightmare_cathedral" / "ui" / "widgets" / "board.py"
    found = imported(board)
    assert {f"{NC}.engine.facts", f"{NC}.engine.views", f"{NC}.describe", "nctui.ui.textual_ext.placed"} <= found
    assert refused(f"{NC}.engine.board") and refused(f"{NC}.engine") and refused(f"{NC}.bots.planner_bot")
    assert not refused(f"{NC}.engine.facts") and not refused(f"{NC}.describe")
    assert refused("nctui.platform.net.rooms") and refused("nctui.platform.net.host")
    assert not refused("nctui.platform.net.client")
    lobby = imported(UI / "lobby_app.py")
    assert {"nctui.platform.net.client", "nctui.platform.net.protocol"} <= lobby


def test_no_ui_module_imports_a_bot_the_simulator_or_a_rule_module():
    files = sorted([*UI.rglob("*.py"), *(ROOT / "games").glob("*/ui/**/*.py")])
    assert len(files) > 20
    bad = {str(f.relative_to(ROOT)): sorted(m for m in imported(f) if refused(m)) for f in files}
    assert {f: mods for f, mods in bad.items() if mods} == {}


def test_the_session_gives_each_seat_the_facts_of_its_view_and_its_computer_players_are_the_games():
    config = GameConfig(players=2, seats=("bot", "bot"), seed=5)
    game = Session(Store(config), autosave=False)  # not started: the computer players wait
    planners = {seat: PlannerBot(bot_seed(config.seed, seat)) for seat in range(2)}
    for _ in range(12):
        seat = game.deciding_seat()
        assert seat is not None
        assert game.facts(seat) == facts(player_view(game.store.state, seat))
        action = game.bot_for(seat).choose(game.view(seat))
        assert action == planners[seat].choose(game.view(seat))  # the game's own computer player
        game.send(action, seen_state_id=game.state_id, seat=seat)
