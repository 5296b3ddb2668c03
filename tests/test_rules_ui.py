"""The Rules screen: the summaries' data and loader (Nightmare Cathedral's and every other game's),
the topics of decisions and refusals, search, and the screen driven by Pilot at 80x24 and 120x40."""

from __future__ import annotations

import ast
import asyncio
from pathlib import Path

import pytest
from textual.app import App
from textual.widgets import OptionList

import nctui.games.nightmare_cathedral.engine
from nctui.games.nightmare_cathedral.bots import RandomBot
from nctui.games.nightmare_cathedral.engine import GameConfig, new_game, player_view, step
from nctui.games.nightmare_cathedral.engine.actions import Conquer
from nctui.games.nightmare_cathedral.engine.config import DIFFICULTY_OPTIONS, SUGGESTED_PAIRS
from nctui.games.nightmare_cathedral.engine.errors import IllegalAction
from nctui.games.nightmare_cathedral.engine.work import DECISION_KINDS
from nctui.games.nightmare_cathedral.ui.topics import (
    DECISION_TOPICS,
    SOLO_TOPICS,
    refusal_words,
    topic_for_decision,
    topic_for_section,
)
from nctui.platform import registry
from nctui.ui.app import create_app
from nctui.ui.rules import (
    RulesDataError,
    blocks,
    get_summary,
    load_summary,
    matches,
    search_words,
    section_naming,
    summary_path,
)
from nctui.ui.screens.rules import RulesScreen, RulesText, find_matches, pieces
from tests.helpers import app_settled, narrow, nc_screen, present, wait_for

ENGINE = Path(nctui.games.nightmare_cathedral.engine.__file__).parent
ROOT = Path(__file__).resolve().parent.parent
CONFIG = GameConfig(players=2, seats=("human", "human"), seed=42)
NC_RULES = registry.entry("nightmare-cathedral").rules
SUMMARY_FILE = summary_path(NC_RULES)


def nc_summary():
    return get_summary(NC_RULES)


def run(coro):
    return asyncio.run(coro)


# -- the data ------------------------------------------------------------------------------------


def test_the_summary_covers_the_rulebooks_sections():
    core = [
        "SETUP",
        "TURN STRUCTURE",
        "ACTION MATRIX",
        "REACTION",
        "DEVELOP",
        "FORTIFY",
        "UNIT LIMIT",
        "SUMMON",
        "PRODUCE",
        "PERFORM RITUAL",
        "LIMBO",
        "RITUAL TRACK",
        "MANEUVER",
        "CONVERSIONS",
        "CONFLICTS",
        "REWARDS AND CONSEQUENCES",
        "PLAYING DREAM CARDS",
        "CATHEDRAL",
        "THE NIGHTMARE CATHEDRAL",
        "COMMAND NIGHTMARES",
        "DEVOURING",
        "END OF THE GAME",
        "SCORING",
        "CHOOSING NIGHTMARES",
        "DIVERGENT PATHS",
        "REWARD TILES",
        "VARIABLE LENGTH GAME",
    ]
    solo = [
        "SETUP",
        "END OF YOUR TURN",
        "KING'S TURN",
        "COMPLETING THE KING'S DREAMS",
        "REFILL DREAMS",
        "REMOVING FOLLOWERS",
        "RESOLVING CONFLICTS AGAINST THE KING",
        "COMMANDING NIGHTMARES",
        "ENDGAME & SCORING",
        "DIFFICULTY MODIFIERS",
    ]
    missing = [name for name in core if topic_for_section(name) is None]
    missing += [f"SOLO {name}" for name in solo if topic_for_section(f"SOLO {name}") is None]
    assert not missing
    assert topic_for_section("SOLO SETUP") != topic_for_section("SETUP")


def test_the_summary_names_every_solo_modifier_and_suggested_pair():
    summary = nc_summary()
    difficulty = summary.get("solo-difficulty").text
    assert [d for d in DIFFICULTY_OPTIONS if d not in difficulty] == []
    pairs = summary.get("choosing-nightmares").text
    assert [name for name in SUGGESTED_PAIRS if name not in pairs] == []


def test_every_summary_ships_in_its_games_package_and_reads():
    """Each game's entry names a summary in its own package, that reads (that it is installed with
    the package: tests/test_installed.py)."""
    for entry in registry.ENTRIES:
        assert entry.rules, f"{entry.id} has no rules summary"
        package, _, name = entry.rules.partition(":")
        assert package.startswith(entry.package + ".") and name.endswith(".toml")
        assert summary_path(entry.rules).parent == ROOT.joinpath(*package.split("."))
        summary = get_summary(entry.rules)
        assert summary.title.startswith(entry.title) and len(summary.sections) >= 5


@pytest.mark.parametrize(
    ("game", "refusal", "topic"),
    [
        ("cathedral", "Rule 4: the opponent's property is closed to your buildings", "property"),
        ("cathedral", "Rule 2: a building is placed on free squares", "placing"),
        ("nightmarium", "Action C: two cards played in one turn must belong to the same legion", "playing"),
        ("nightmarium", "Herald: the revealed cards are placed (or discarded) first", "creature-abilities"),
        ("dreamers", "Shadow of Envy: the next player selects a dream on the card", "shadows"),
        ("dreamers", "5. Rest or Dream Again", "rest"),
    ],
)
def test_a_companion_games_refusal_names_a_section_of_its_summary(game, refusal, topic):
    summary = get_summary(registry.entry(game).rules)
    assert section_naming(summary, refusal.partition(":")[0]) == topic


@pytest.mark.parametrize("game", ["cathedral", "nightmarium", "dreamers"])
def test_every_refusal_of_a_companion_game_names_a_section_of_its_summary(game):
    """Each refusal's words ("Rule 4: ...") name a rulebook section the summary's sections name,
    but the few that name none (a move that is no option at all)."""
    from importlib import import_module

    summary = get_summary(registry.entry(game).rules)
    refusals = import_module(f"{registry.entry(game).package}.words").REFUSALS
    lost = {reason for reason, words in refusals.items() if section_naming(summary, words.partition(":")[0]) is None}
    assert lost <= {"not_now", "over"}, lost


@pytest.mark.parametrize("game", ["cathedral", "nightmarium", "dreamers"])
def test_every_decision_of_a_companion_game_has_a_section(game):
    from importlib import import_module

    summary = get_summary(registry.entry(game).rules)
    topics = import_module(f"{registry.entry(game).package}.ui.topics")
    source = Path(present(topics.__file__)).read_text()
    named = {s for s in summary.ids if f'"{s}"' in source}
    assert named and all(summary.get(t) is not None for t in named)


def test_blocks_split_paragraphs_items_headings_and_tables():
    section = nc_summary().get("ritual-track")
    kinds = [b.kind for b in blocks(section)]
    assert kinds[0] == "para" and "item" in kinds and kinds.count("pre") == 22
    conflicts = blocks(nc_summary().get("conflicts"))
    steps = [b for b in conflicts if b.kind == "item"]
    assert [b.marker for b in steps[:3]] == ["1. ", "2. ", "3. "] and len(steps) == 12


def _broken(tmp_path: Path, old: str, new: str) -> Path:
    text = SUMMARY_FILE.read_text()
    assert old in text
    path = tmp_path / "summary.toml"
    path.write_text(text.replace(old, new, 1))
    return path


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        (
            'id = "overview"\n',
            'id = "overview"\ncolour = "red"\n',
            "summary.toml: section[overview]: Object contains unknown field `colour`",
        ),
        ('title = "Overview"', "title = 3", "summary.toml: section[overview].title: Expected `str`, got `int`"),
        ('book = "core"', 'book = "extra"', "summary.toml: section[overview].book: unknown book 'extra'"),
        ('title = "Nightmare Cathedral: ', 'titles = "', "summary.toml: (top level): Object contains unknown field"),
        ('id = "components"', 'id = "overview"', "summary.toml: section[overview].id: duplicate id"),
        (
            'see_also = ["turn", "scoring", "game-end"]',
            'see_also = ["turns"]',
            "summary.toml: section[overview].see_also: unknown section 'turns'",
        ),
        (
            'title = "Overview"',
            'title = "An overview of the whole game"',
            "summary.toml: section[overview].title: a title has 1 to 24 characters",
        ),
        ('rulebook = ["INTRODUCTION"]', "rulebook = []", "summary.toml: section[overview].rulebook: name the rulebook"),
        ('[[section]]\nid = "overview"', '[[section]\nid = "overview"', "summary.toml: (syntax): "),
    ],
)
def test_a_broken_summary_names_the_file_and_entry(tmp_path, old, new, message):
    with pytest.raises(RulesDataError) as caught:
        load_summary(_broken(tmp_path, old, new))
    assert str(caught.value).startswith(message)


def test_a_missing_summary_file_says_so(tmp_path):
    with pytest.raises(RulesDataError, match=r"^nothing\.toml: \(file\): cannot read"):
        load_summary(tmp_path / "nothing.toml")


# -- topics --------------------------------------------------------------------------------------


def _name(func: ast.expr) -> str | None:
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None


def _calls(tree: ast.AST, names: set[str]):
    return (n for n in ast.walk(tree) if isinstance(n, ast.Call) and _name(n.func) in names)


def engine_kinds_in_play() -> set[str]:
    """The decision kinds met in random games of every mode (2-4 players, both lengths,
    Divergent Paths, solo with difficulty modifiers)."""
    configs = [GameConfig(players=2, seats=("bot",) * 2, seed=s) for s in range(3)]
    configs += [GameConfig(players=3, seats=("bot",) * 3, seed=s, length="variable") for s in range(2)]
    configs += [GameConfig(players=4, seats=("bot",) * 4, seed=s, divergent_paths=True) for s in range(2)]
    configs += [GameConfig(players=2, seats=("bot",) * 2, seed=9, divergent_paths=True, length="variable")]
    configs += [
        GameConfig(
            players=1,
            seats=("human", "king"),
            seed=s,
            difficulty=("harder_powered_2", "harder_climb") if s % 2 else ("easier_nightmare",),
        )
        for s in range(6)
    ]
    kinds = set()
    for config in configs:
        state = new_game(config).state
        bot = RandomBot(config.seed)
        while state.decision is not None:
            kinds.add(state.decision.kind)
            state = step(state, bot.choose(player_view(state, state.decision.seat))).state
    return kinds


def test_every_decision_kind_in_the_engine_has_a_topic():
    played = engine_kinds_in_play()
    assert {"play_upgrade", "play_ploy", "retreat", "king_dream"} <= played
    assert not played - set(DECISION_KINDS), "a kind met in play is not the tag of a Work type (work.DECISION_KINDS)"
    assert len(set(DECISION_KINDS)) == len(DECISION_KINDS)  # one Work type per kind
    no_topic = sorted(k for k in set(DECISION_KINDS) | played if topic_for_decision(k) is None)
    assert no_topic == [], f"decision kinds without a rules topic: {no_topic} (add them to DECISION_TOPICS)"
    summary = nc_summary()
    assert [t for t in {**DECISION_TOPICS, **SOLO_TOPICS}.values() if summary.get(t) is None] == []
    # solo: your corner and the Turn track have kinds of their own; placing your Dreamer is overridden
    assert topic_for_decision("solo_corner") == topic_for_decision("solo_turn_start") == "solo-setup"
    assert topic_for_decision("place_dreamer", solo=True) == "solo-setup"
    assert topic_for_decision("place_dreamer") == topic_for_decision("conquer", solo=True) == "setup"


def _assignments(tree: ast.AST) -> dict[str, list[ast.expr]]:
    """name -> every expression assigned to it anywhere in a module (``a, b = x, y`` included)."""
    out: dict[str, list[ast.expr]] = {}
    for node in (n for n in ast.walk(tree) if isinstance(n, ast.Assign)):
        for target in node.targets:
            pairs = [(target, node.value)]
            if isinstance(target, ast.Tuple) and isinstance(node.value, ast.Tuple):
                pairs = list(zip(target.elts, node.value.elts))
            for name, value in pairs:
                if isinstance(name, ast.Name):
                    out.setdefault(name.id, []).append(value)
    return out


def _strings(node: ast.expr, names: dict[str, list[ast.expr]], where: str, depth: int = 0) -> list[str]:
    """The strings an expression of the engine's source can be (names assigned in the module resolved)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if depth < 5 and isinstance(node, ast.Name) and node.id in names:
        return [s for value in names[node.id] for s in _strings(value, names, where, depth + 1)]
    if isinstance(node, ast.Dict):
        return [s for value in node.values for s in _strings(value, names, where, depth + 1)]
    if isinstance(node, ast.Subscript):
        return _strings(node.value, names, where, depth + 1)  # every value of a constant dict
    if isinstance(node, ast.IfExp):
        return _strings(node.body, names, where, depth) + _strings(node.orelse, names, where, depth)
    if isinstance(node, ast.JoinedStr):
        out = [""]
        for part in node.values:
            inner = part.value if isinstance(part, ast.FormattedValue) else part
            out = [a + b for a in out for b in _strings(inner, names, where, depth + 1)]
        return out
    raise AssertionError(f"{where}: a refusal's section this test cannot read")


def engine_refusal_sections() -> set[str]:
    """Every rulebook section an IllegalAction of the engine names."""
    sections = set()
    for path in sorted(ENGINE.glob("*.py")):
        tree = ast.parse(path.read_text())
        names = _assignments(tree)
        for call in _calls(tree, {"IllegalAction", "NoDecision"}):
            for kw in (k for k in call.keywords if k.arg == "section"):
                sections.update(_strings(kw.value, names, f"{path.name}:{call.lineno}"))
    return sections - {""}


def test_every_section_a_refusal_names_has_a_topic():
    sections = engine_refusal_sections()
    assert {"CONFLICTS 2", "SETUP 17", "MANEUVER, MP", "SPACES (special)", "SOLO REFILL DREAMS"} <= sections
    assert sorted(s for s in sections if topic_for_section(s) is None) == []
    assert topic_for_section("CONFLICTS 8") == "conflicts"
    assert topic_for_section("FORT LEVELS") == "fortify"
    assert topic_for_section("SOLO: RESOLVING CONFLICTS AGAINST THE KING") == "solo-conflicts"
    assert topic_for_section("NOT A SECTION") is None


def test_refusal_words_name_the_rule_the_section_and_the_key():
    title, body = refusal_words(
        IllegalAction("ash-nave is already conquered", rule="conquer an unconquered area", section="SETUP 17")
    )
    assert title == "Not allowed: conquer an unconquered area"
    assert body == "ash-nave is already conquered\nRulebook: SETUP 17. Press R for the rule."


# -- search --------------------------------------------------------------------------------------


def test_search_finds_a_word_in_the_sections_that_hold_it():
    summary = nc_summary()
    words = search_words("  Limbo ")
    assert words == ("limbo",)
    found = [s.id for s in summary.sections if matches(s, words, summary.source(s))]
    assert {"ritual", "conflicts", "summon"} <= set(found) and "overview" not in found
    assert next(s.id for s in summary.sections if matches(s, search_words("horror die"))) == "solo-overview"
    assert "Solo rulebook" in summary.source(summary.get("solo-overview"))
    assert [s.id for s in summary.sections if matches(s, search_words("solo rulebook"), summary.source(s))]
    parts = pieces(summary.get("ritual"), summary)
    hits = find_matches(parts, words)
    assert hits and all(parts[i].text.plain[a:b].lower() == "limbo" for i, a, b in hits)


# -- the screen ----------------------------------------------------------------------------------


def _text(app) -> str:
    widget = app.screen.query_one(RulesText)
    return "\n".join(line.plain for line in widget.layout_for(widget.size.width).lines)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_the_rules_are_styled_once_as_they_come_up(tmp_path, size, monkeypatch):
    """The size classes (-narrow/-wide, -short/-tall) are set as the screen is composed: the
    resize Textual sends after the first layout changes no class, so no widget is styled again
    (it restyled the whole screen and laid it out once more, ~35 ms at 120x40)."""
    from textual.css.stylesheet import Stylesheet

    restyled: list[str] = []
    update_nodes = Stylesheet.update_nodes

    def counted(self, nodes, animate=False):
        nodes = list(nodes)
        restyled.extend(type(n).__name__ for n in nodes)
        return update_nodes(self, nodes, animate)

    async def go():
        app = create_app(CONFIG, save_dir=tmp_path, bot_delay=0)
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            monkeypatch.setattr(Stylesheet, "update_nodes", counted)
            await pilot.press("R")
            await wait_for(pilot, lambda: isinstance(app.screen, RulesScreen), "the rules")
            await app_settled(app)
            rules = app.screen
            assert isinstance(rules, RulesScreen)
            shown, other = ("-wide", "-narrow") if size[0] >= 100 else ("-narrow", "-wide")
            assert rules.has_class(shown) and not rules.has_class(other)
            # the focus given to the contents restyles what it touches; nothing else is restyled
            assert not {"RulesText", "VerticalScroll", "Static"} & set(restyled), restyled

    run(go())


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_rules_open_from_the_game_at_the_decision_search_and_close(tmp_path, size):
    async def go():
        app = create_app(CONFIG, save_dir=tmp_path, bot_delay=0)
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            game = app.screen
            kind = app.store.state.decision.kind
            await pilot.press("R")
            await pilot.pause()
            rules = app.screen
            assert isinstance(rules, RulesScreen)
            assert rules.shown == topic_for_decision(kind) == "setup"
            assert "The decision due: Choose the starting position" in _text(app)
            assert rules.query_one("#rules-text").region.height >= 10  # room to read
            await pilot.press("slash", *"limbo", "enter")
            await pilot.pause()
            listed = [o.id for o in rules.query_one("#rules-contents", OptionList).options]
            assert "ritual" in listed and "setup" not in listed
            first = (rules.shown, rules.current)
            assert rules.current == 0 and "limbo" in _text(app).lower()
            await pilot.press("n")
            await pilot.pause()
            assert (rules.shown, rules.current) != first
            await pilot.press("N")
            await pilot.pause()
            assert (rules.shown, rules.current) == first
            await pilot.press("q")
            await pilot.pause()
            assert app.screen is game
            await pilot.press("R")
            await pilot.pause()
            await pilot.press("escape")
            await pilot.pause()
            assert app.screen is game

    run(go())


def test_the_rules_screen_browses_with_keys(tmp_path):
    async def go():
        app = _RulesApp(None)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            rules = narrow(app.screen, RulesScreen)
            assert rules.shown == "overview"
            await pilot.press("j", "j", "down")
            await pilot.pause()
            assert rules.shown == nc_summary().ids[3]
            await pilot.press("k")
            await pilot.pause()
            assert rules.shown == nc_summary().ids[2]
            await pilot.press("enter")
            await pilot.pause()
            assert present(app.focused).id == "rules-body"
            await pilot.press("slash", *"zzqx")
            await pilot.pause()
            assert "No section has 'zzqx'" in str(
                rules.query_one("#rules-contents", OptionList).get_option_at_index(0).prompt
            )
            await pilot.press("escape")  # leaves the search box; a second one closes
            await pilot.pause()
            assert isinstance(app.screen, RulesScreen) and present(app.focused).id == "rules-contents"

    run(go())


def test_a_refusal_names_the_rule_and_R_opens_it(tmp_path):
    async def go():
        app = create_app(CONFIG, save_dir=tmp_path, bot_delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press("1", "1")  # the Turn track's start, then a first conquest
            await pilot.pause()
            game = app.game_screen()
            while app.screen is not game:  # hot seat: the next player takes the keyboard
                await pilot.press("enter")
                await pilot.pause()
            store = app.store
            taken = narrow(store.entry(2).action, Conquer).area
            seat = present(store.state.decision).seat
            nc_screen(app)._dispatch(Conquer(area=taken), store.state_id, seat)
            await pilot.pause()
            note = list(app._notifications)[-1]
            assert note.title == "Not allowed: conquer an unconquered area"
            assert "Rulebook: SETUP 17" in note.message and "Press R for the rule" in note.message
            assert store.state_id == 2  # nothing lost
            await pilot.press("R")
            await pilot.pause()
            assert narrow(app.screen, RulesScreen).shown == "setup"
            assert f"Not allowed: {taken} is already conquered" in _text(app)

    run(go())


class _RulesApp(App[None]):
    """Only the Rules screen, so its snapshot does not change with the game screen's layout."""

    ENABLE_COMMAND_PALETTE = False

    def __init__(self, topic: str | None, note: str | None = None) -> None:
        super().__init__()
        self.topic, self.note = topic, note

    def on_mount(self) -> None:
        self.push_screen(RulesScreen(NC_RULES, self.topic, note=self.note))


def test_rules_screen_snapshot(snap_compare):
    async def search(pilot):
        await pilot.press("slash", *"shadows", "enter", "n")
        await pilot.pause()

    app = _RulesApp("conflicts", note="The decision due: Retreat a losing unit from Ash Nave (1 left)")
    assert snap_compare(app, terminal_size=(80, 24), run_before=search)
