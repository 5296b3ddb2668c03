"""Generate docs/content.md from the base pack, so the drawings and tables stay true to the data.

python tools/gen_content_docs.py docs/content.md
"""

from __future__ import annotations

import sys
from collections import Counter

sys.path.insert(0, str(__import__("pathlib").Path(__file__).parent))
import draw

from nctui.games.nightmare_cathedral.content import schema as s
from nctui.games.nightmare_cathedral.content.loader import get_pack

P = get_pack("base")
C = P.cards
SYM = {x.id: x for x in P.board.symbols}
SUIT = {x.id: x for x in C.suits}
DEV = {st: [d for d in C.development if d.stage == st] for st in (1, 2)}
DR = {st: [d for d in C.dreams if d.stage == st] for st in (1, 2)}
CF = {st: [k for k in C.conflicts if k.stage == st] for st in (1, 2)}
NM = {n.number: n for n in C.nightmares}
# Measured, not derived: share of games ending by devouring (%) and their median end turn, for 2 / 3 / 4
# players, 100 games of GreedyBots per pair (seeds 5000-5099). Re-measure when cards or thresholds change.
MEASURED = {
    (1, 5): ((59, 36), (18, 42), (20, 40)),
    (3, 7): ((69, 32), (33, 39), (31, 40)),
    (4, 8): ((63, 34), (16, 42), (12, 44)),
    (3, 6): ((62, 34), (5, 45), (8, 42)),
    (2, 8): ((91, 26), (84, 30), (83, 32)),
    (4, 6): ((54, 38), (1, 45), (0, None)),
    (1, 7): ((88, 28), (64, 36), (60, 36)),
}
PAIR_AIMS = [  # CHOOSING NIGHTMARES, in the rulebook's order
    ((1, 5), "climbing the Ritual track"),
    ((3, 7), "a lot of conflict"),
    ((4, 8), "a more strategic game end, with variable length"),
    ((3, 6), "fierce competition for Devoured units"),
    ((2, 8), "game end triggered quickly after Nightmares enter play"),
    ((4, 6), "card drawing and a lot of cards played"),
    ((1, 7), "very aggressive, a lot of conflict, almost certain end via Devoured units"),
]
OUT: list[str] = []


def w(*lines: str) -> None:
    OUT.extend(lines)


def table(head: list[str], rows: list[list[str]]) -> None:
    w("| " + " | ".join(head) + " |", "|" + "|".join("---" for _ in head) + "|")
    for r in rows:
        w("| " + " | ".join(str(x).replace("|", "\\|") for x in r) + " |")
    w("")


def text(effect: s.Effect | None) -> str:
    """The words of an effect the card has (an Upgrade's Day, Conform and Dissent; a Ploy's effect)."""
    assert effect is not None, "a card without the effect its kind has"
    return effect.text


def combat(cb: s.Combat) -> str:
    return f"{cb.attack}⚔ {cb.defense}⛨"


def players(n: int) -> str:
    return {2: "all", 3: "3+", 4: "4"}[n]


def sym(x: str) -> str:
    return f"{SYM[x].glyph} {SYM[x].name}"


# =============================================================================================
w(
    "# The content pack",
    "",
    "Every component of *Nightmare Cathedral* that the rulebook describes only in pictures (the board,",
    "the Action Matrix, the tracks and every card) is **data** in nctui: a *content pack*, a folder of",
    "TOML files decoded into the typed Structs of `nctui/games/nightmare_cathedral/content/schema.py`.",
    "The engine never hard-codes",
    "a card; it interprets the data.",
    "",
    "> **The data of the base pack was authored for nctui and is original.** The rulebook we follow lost",
    "> its pictures, so none of the publisher's card texts, names or board art is reproduced here: every",
    "> name and every sentence is ours. What we keep from the rulebook are its numbers and mechanisms",
    "> (counts of cards, Unit Limit 3, 4 MP on Maneuver, Fortify's 3 Followers for 2 Fort levels, the",
    "> Ritual track's kinds of spaces, the 13 Reward tile abilities, …).",
    "",
    "## Files",
    "",
    "The base pack lives in `nctui/games/nightmare_cathedral/content/packs/base/`:",
    "",
)
table(
    ["File", "Decodes into", "Holds"],
    [
        ["`pack.toml`", "`schema.PackInfo`", "id, name, version, description"],
        ["`board.toml`", "`schema.Board`", "the 6 area symbols and both board sides (grid + areas)"],
        [
            "`matrix.toml`",
            "`schema.Matrix`",
            "the Action Matrix: 5 Day spaces (with arrows), 6 Night spaces, the King's rondel",
        ],
        ["`tracks.toml`", "`schema.Tracks`", "Turn, Time, Ritual and Cathedral tracks, the Divergent Paths sideboard"],
        [
            "`cards.toml`",
            "`schema.Cards`",
            "Dream suits, Action cards, Basic Combat, Development, Dream and Conflict cards "
            "(Stage 1 and 2), Nightmares, Reward tiles; solo: the King's Action, combat and Nightmare cards, "
            "the Area Selection cards",
        ],
    ],
)
w(
    "### Format",
    "",
    "* Every Struct is frozen and forbids unknown fields: a typo in a key is an error, not a silent default.",
    "* **Effects** (`schema.Effect`) are `{ text, steps }`: `text` is the one sentence a player reads in the",
    "  UI, `steps` is a list of small steps tagged by `do` that the engine runs in order. The vocabulary:",
    "",
)
steps_doc = [
    ["`produce`", "amount, where, mode (`spread` among matching areas / `each` matching area produces)"],
    ["`move`", "mp, shaper_only: gain Movement Points"],
    ["`convert`", "count, where (`shaper` / `adjacent_shaper`): Shaper conversions"],
    ["`shaper_move`", "steps or anywhere"],
    ["`add_fort_levels`", "count, cost (Followers removed for each level in turn; empty = free), where, existing_only"],
    ["`climb`", "steps, paid, free, special, primary, kinds: the Ritual track"],
    ["`draw`", "deck (`development`, `dream`, `development2`, `dream2`), count, keep"],
    ["`play_upgrades` / `play_ploys`", "count (0 = any number)"],
    ["`resolve_conflicts`", "count, where"],
    ["`add_shadows`", "count, where, spread, then_conflict"],
    ["`remove_followers`", "count, where: return your own Followers to your supply"],
    ["`recover_limbo`", "count: Followers from your Limbo back to areas you control"],
    ["`move_dreamer`, `perform_conform`", "Reward tile abilities"],
    ["`choose`", "options: a list of step lists, exactly one is resolved"],
    ["`command_nightmare`", "count: command that many different Nightmares (Stage 2)"],
    [
        "`devour`",
        "count, where (default `nightmare`), whose (`any`, `shadows`, `opponents`: other players' Followers, "
        "`own`): the resolving player picks the units (Stage 2)",
    ],
    [
        "`nightmare_move`",
        "steps, toward (`any`, `most_units`, `fewest_units`, `followers`, `shadows`, `marked`, "
        "`fort`, `empty`, `commander`, `opponents`), anywhere, on_enter: a Nightmare's command only",
    ],
    ["`nightmare_return`", "the commanded Nightmare goes back to the Cathedral space: a Nightmare's command only"],
]
table(["Step (`do`)", "Fields"], steps_doc)
w(
    "* `where` is an area filter seen from the resolving player: `any`, `controlled`, `fort`, `marked`,",
    "  `marked_or_fort`, `presence`, `empty`, `shadows`, `adjacent_cathedral`, `shaper`, `adjacent_shaper`,",
    "  `fortress`, `corner`, `nightmare`.",
    "* **Dream conditions** (`needs`) are tagged by `need`: `control_areas`, `control_symbols`,",
    "  `presence_areas`, `followers_in_area`, `followers_on_board`, `fort_levels`, `forts_with_levels`,",
    "  `ritual_reached`, `limbo_at_least`, `hand_at_least`, `upgrades_played`, `shaper_in`,",
    "  `no_shadows_near_fortress`, `conflicts_won`, `devoured_at_least` (Stage 2). All of a card's needs",
    "  must hold; `when` says when it may be played (`any_time`, `own_turn`, `after_conflict_won`,",
    "  `end_of_own_turn`).",
    "* A **board side** is a grid of one-character cell codes, one code per area; `#` is the Cathedral",
    "  space and `.` is off the board. Two areas are adjacent when two of their cells share an edge; an",
    "  area is next to the Cathedral when one of its cells touches a `#` cell. The loader derives both.",
    "",
    "An example card, as written in `cards.toml`:",
    "",
    "```toml",
    "[[development]]",
    'id = "d1-night-march"',
    'name = "Night March"',
    "stage = 1",
    'kind = "upgrade"',
    'action = "maneuver"',
    "combat = { attack = 2, defense = 0 }",
    'players = 3            # marked "3+"',
    "vp = 0",
    "[development.day]",
    'text = "Gain 4 MP, then resolve 2 conflicts."',
    "steps = [",
    '  { do = "move", mp = 4 },',
    '  { do = "resolve_conflicts", count = 2 },',
    "]",
    "[development.conform]",
    "…",
    "```",
    "",
    "### Loading and errors",
    "",
    '`content.loader.get_pack("base")` reads, decodes and validates the pack once and shares it;',
    "`load_pack(folder)` loads any folder (tests use broken copies). Every problem raises `ContentError`",
    "whose message reads `file: entry: problem`, for example:",
    "",
    "```text",
    "board.toml: $.sides[0].areas[0].corner: Expected `bool`, got `str`",
    "board.toml: sides[small].areas[salt-spire].symbol: unknown symbol 'wing'",
    "cards.toml: $.actions[0].day.steps[0].do: Invalid value 'teleport'",
    "tracks.toml: (syntax): Unclosed array (at line 11, column 1)",
    "cards.toml: conflicts: Stage 1 has 15 cards, the rulebook has 16",
    "cards.toml: (file): missing from pack folder …",
    "```",
    "",
    "Beyond types, `validate.py` checks references (symbols, actions, Night spaces, suits), the rulebook's",
    "counts (52/27/16 Stage 1 and 44/19/16 Stage 2 cards, 8 Nightmares numbered 1-8, 13 Cathedral pieces,",
    "13 Reward tiles), 4 corners per side, 12 areas on the 1-2 player side, fair sides (below, *Fair sides*),",
    "Unit Limit 3 on the starting",
    "Fortify card, VP on every Stage 2 Upgrade and the shape of steps. For Stage 2 it also checks that",
    "only a Nightmare's command moves or returns a Nightmare (and that its first step moves it, its",
    "`on_enter` never moves or commands), that Devoured Units numbers grow with the players and at most",
    "one Nightmare lacks them (so every pair has one), that only Stage 2 Dreams need devoured units or",
    "Nightmares, and that no Dream with the Cathedral icon needs them. For the solo King it checks the",
    "param layout of every King's Action row, the 2/1/0, 3/5/7 and 2/3/4 numbers of the solo rules,",
    "its two returning combat cards, the steps of its Nightmare cards and that the Area Selection cards",
    "are the 12 areas of the 1-2 player side, each once. The pack's",
    "SHA-256 digest is recorded in saves. `tests/test_content.py` checks the rest (symmetry and",
    "connectivity of the board, symbols, deck sizes per player count, combat icons, error messages).",
    "",
)

# =============================================================================================
w("## The board", "")
w("Symbols (they mark areas for the Turn track and pay for Ritual steps):", "")
table(["Id", "Glyph", "Letter (monochrome)", "Name"], [[x.id, x.glyph, x.letter, x.name] for x in P.board.symbols])

for sm in P.sides:
    side = sm.side
    w(f"### {side.name}", "")
    w(
        "Drawn from `board.toml` by a script: areas are outlined, each shows its name, its symbol and its",
        "flags: **CORNER** (an area a player may take with the Fortress at setup), **4P ONLY** (covered by an",
        "overlay tile with 3 players), **near Cath.** (adjacent to the Cathedral space, the hatched block).",
        "",
        "```text",
        draw.draw_side(P, sm),
        "```",
        "",
    )
    adj = dict(sm.adjacency)
    rows = []
    for a in side.areas:
        flags = []
        if a.corner:
            flags.append("corner")
        if a.four_players_only:
            flags.append("4 players only")
        if a.id in sm.adjacent_cathedral:
            flags.append("next to the Cathedral")
        names = {x.id: x.name for x in side.areas}
        rows.append(
            [f"`{a.cell}`", a.name, sym(a.symbol), ", ".join(flags) or "-", ", ".join(names[b] for b in adj[a.id])]
        )
    table(["Cell", "Area", "Symbol", "Flags", "Adjacent areas"], rows)

# =============================================================================================
m = P.matrix
w(
    "## The Action Matrix",
    "",
    "Day spaces are in brackets, Night spaces in parentheses. A line joins a Night space to each Day space",
    "adjacent to it; an arrowhead marks the Day space's arrow, the Night space its Dreamer moves to at the",
    "end of the turn. An active player moves their Dreamer to a Day space **not** adjacent to their Night",
    "space; a Dreamer on a Night space adjacent to the current Day space may Conform.",
    "",
    "```text",
    draw.draw_matrix(P),
    "```",
    "",
)
day_name = {d.action: d.name for d in m.days}
night_name = {n.id: n.name for n in m.nights}
table(
    ["Day space", "Arrow to", "Adjacent Night spaces", "Reachable from (Night spaces not adjacent)"],
    [
        [
            d.name,
            night_name[d.arrow],
            ", ".join(n.name for n in m.nights if d.action in n.adjacent),
            ", ".join(n.name for n in m.nights if d.action not in n.adjacent),
        ]
        for d in m.days
    ],
)
w("King's rondel (clockwise): " + " → ".join(day_name[a] for a in m.rondel) + ".", "")

# =============================================================================================
t = P.tracks
w("## Tracks", "", "### Turn track", "")
w(
    "12 positions, clockwise; each of the 6 symbols appears twice. The symbol under the Turn marker",
    "makes the areas showing it the Marked Areas of the turn.",
    "",
)
table(["Position"] + [str(i + 1) for i in range(len(t.turn))], [["Symbol"] + [sym(x) for x in t.turn]])
w("### Time track", "")
w(
    " → ".join(t.time) + ": the marker starts on " + t.time[0] + " and moves down once each time the Turn",
    f"marker re-enters its starting position; entering the {t.time[-1]} ends the game. The game lasts",
    f"at most {len(t.time) - 1} laps of the Turn track ({(len(t.time) - 1) * len(t.turn)} turns).",
    "",
)
w("### Ritual track", "")
w(
    "Both Ritual markers start before space 1. *open* spaces may be entered by any climb, *special* spaces",
    "only when an effect allows it (their bonus may be resolved or ignored), *ritual* spaces only by the",
    "Ritual action's primary effect, paid in full. Each listed symbol costs one Follower removed from an",
    "area showing it (or 3 Followers from Limbo for a step). VP: a marker scores the highest VP space it",
    "reached.",
    "",
)
bonus_text = {
    "none": "-",
    "movement3": "gain 3 MP",
    "fort_level": "add 1 Fort level to an area you control",
    "shaper_convert": "move your Shaper to an adjacent area, then 1 conversion",
    "produce2": "produce 2 among areas you control",
    "command_nightmare": "command a Nightmare (Stage 2)",
}
table(
    ["Space", "Kind", "Cost", "Bonus", "VP"],
    [
        [str(i + 1), sp.kind, " + ".join(sym(x) for x in sp.cost), bonus_text[sp.bonus], str(sp.vp or "")]
        for i, sp in enumerate(t.ritual)
    ],
)
w("### Cathedral track", "")
icon_text = {
    "players_2_3": "Variable Length: set up before the first turn with 2 or 3 players",
    "players_2": "Variable Length: set up before the first turn with 2 players",
    "produce": "each player may produce 1 in an area they control",
    "shaper_mp": "each player gets 1 MP for their Shaper",
    "climb": "each player may climb 1 step",
    "shadow": "each player must add 1 Shadow to an area",
    "stage2": "Stage II: Stage 2 decks come into play",
}
w(
    f"Piece **{t.first_piece}** stands in the Cathedral space from setup (Standard Game). "
    "The track, closest to the beginning first:",
    "",
)
table(
    ["Position", "Piece", "Icons on the space it vacates"],
    [[str(i + 1), c.piece, "; ".join(icon_text[x] for x in c.icons) or "-"] for i, c in enumerate(t.cathedral)],
)
w("### Divergent Paths", "")
w(
    "The sideboard of the module: every piece on a space; the colour is the space's Reward tile slot.",
    "A gray piece is always available; another is available when it has a Reward tile and every space",
    "with a path into it has been vacated. Arrows show the paths:",
    "",
)
dp = {p.piece: p for p in t.divergent_paths}
graph = [
    "  gray           yellow         red",
    "  1A ──┐",
    "       ├──────▶ 2B ──┐",
    "  1B ──┘             ├──────▶ 4B ──┐",
    "  1C ─────────▶ 3A ──┘             │",
    "                                   ├──────▶ 6B",
    "  1D ─────────▶ 3B ─────────▶ 5A   │",
    "                                   │",
    "  2A ─────────▶ 4A ─────────▶ 6A ──┘",
]
# check the hand-drawn graph against the data
edges = {(src, p.piece) for p in t.divergent_paths for src in p.incoming}
assert edges == {
    ("1A", "2B"),
    ("1B", "2B"),
    ("1C", "3A"),
    ("1D", "3B"),
    ("2A", "4A"),
    ("2B", "4B"),
    ("3A", "4B"),
    ("3B", "5A"),
    ("4A", "6A"),
    ("4B", "6B"),
    ("6A", "6B"),
}, edges
assert [p.piece for p in t.divergent_paths if p.colour == "gray"] == ["1A", "1B", "1C", "1D", "2A"]
assert [p.piece for p in t.divergent_paths if p.colour == "yellow"] == ["2B", "3A", "3B", "4A"]
w("```text", *graph, "```", "")
table(
    ["Piece", "Colour", "Paths leading in from"],
    [[p.piece, p.colour, ", ".join(p.incoming) or "-"] for p in t.divergent_paths],
)

# =============================================================================================
w("## Cards", "")
w(
    "Combat icons are written `A⚔ D⛨` (Attacks and Defenses). *Players*: `all`, `3+` (removed with 2",
    "players) or `4` (used with 4 players only).",
    "",
)
w("### Dream suits", "")
table(
    ["Id", "Glyph", "Letter", "Name", "Stage 1 Dreams", "Stage 2 Dreams"],
    [[x.id, x.glyph, x.letter, x.name] + [str(sum(d.suit == x.id for d in DR[st])) for st in (1, 2)] for x in C.suits],
)

w("### Starting Action cards", "", "Every player gets an identical set of these five.", "")
table(
    ["Id", "Name", "Action", "Day", "Conform", "Dissent"],
    [
        [
            a.id,
            a.name + (f" (Unit Limit {a.unit_limit})" if a.unit_limit else ""),
            a.action,
            a.day.text,
            a.conform.text,
            a.dissent.text,
        ]
        for a in C.actions
    ],
)
b = C.basic_combat
w("### Basic Combat", "")
table(["Id", "Name", "Combat"], [[b.id, b.name, combat(b.combat)]])

when_text = {
    "any_time": "any time",
    "own_turn": "your turn",
    "after_conflict_won": "after a won conflict",
    "end_of_own_turn": "end of your turn",
}


def need_text(n) -> str:
    import msgspec

    tag = type(n).__struct_config__.tag
    args = ", ".join(
        f"{f.name}={getattr(n, f.name)}"
        for f in msgspec.structs.fields(type(n))
        if f.required or getattr(n, f.name) != f.default
    )
    return f"{tag}({args})"


def development_tables(stage: int) -> None:
    cards = DEV[stage]
    ups = [d for d in cards if d.kind == "upgrade"]
    plo = [d for d in cards if d.kind == "ploy"]
    w(f"### Development cards, Stage {stage} ({len(cards)})", "")
    w(f"#### Upgrades ({len(ups)})", "")
    for action in s.ACTION_IDS:
        w(f"**{action.capitalize()}**", "")
        rows = []
        for d in ups:
            if d.action != action:
                continue
            name = d.name
            if d.unit_limit:
                extra = f"Unit Limit {d.unit_limit}"
                if d.unit_limit_one_area:
                    extra += f", {d.unit_limit_one_area} in one area"
                name += f" ({extra})"
            rows.append(
                [
                    d.id,
                    name,
                    combat(d.combat),
                    players(d.players),
                    str(d.vp),
                    text(d.day),
                    text(d.conform),
                    text(d.dissent),
                ]
            )
        table(["Id", "Name", "Combat", "Players", "VP", "Day", "Conform", "Dissent"], rows)
    w(f"#### Ploys ({len(plo)})", "")
    table(
        ["Id", "Name", "Combat", "Players", "Effect"],
        [[d.id, d.name, combat(d.combat), players(d.players), text(d.effect)] for d in plo],
    )


def dream_table(stage: int) -> None:
    w(f"### Dream cards, Stage {stage} ({len(DR[stage])})", "")
    w("✝ = Cathedral icon (Variable Length Game: playing the card builds a Cathedral piece).", "")
    table(
        ["Id", "Name", "Suit", "VP", "✝", "When", "Needs (data)", "Text"],
        [
            [
                d.id,
                d.name,
                f"{SUIT[d.suit].glyph} {SUIT[d.suit].name}",
                str(d.vp),
                "✝" if d.cathedral else "",
                when_text[d.when],
                "; ".join(need_text(n) for n in d.needs),
                d.text,
            ]
            for d in DR[stage]
        ],
    )


def conflict_table(stage: int) -> None:
    w(f"### Conflict cards, Stage {stage} ({len(CF[stage])})", "")
    w(
        "What the Shadows generate for 1, 2 and 3 Shadows; the Victory effect may always be replaced by drawing 1 "
        "Development card.",
        "",
    )
    table(
        ["Id", "Name", "1 Shadow", "2 Shadows", "3 Shadows", "Victory", "Defeat"],
        [[k.id, k.name] + [combat(ln.combat) for ln in k.lines] + [k.victory.text, k.defeat.text] for k in CF[stage]],
    )


def threshold_text(numbers: tuple) -> str:
    return " / ".join("-" if x is None else str(x) for x in numbers)


def pair_threshold(a: int, b: int, i: int) -> int | None:
    """DEVOURING UNITS: the higher of the two numbers; a card without one defers to the other."""
    found = [x for x in (NM[a].devoured[i], NM[b].devoured[i]) if x is not None]
    return max(found) if found else None


def move_text(step: s.Step) -> str:
    assert isinstance(step, s.NightmareMove), "a Nightmare's command begins with its move"
    mv = step
    if mv.anywhere:
        return "to any area"
    where = "any adjacent area" if mv.toward == "any" else f"adjacent, toward `{mv.toward}`"
    return f"{mv.steps}× {where}" + (" (effects in each area entered)" if mv.on_enter else "")


def devours(cmd: s.Effect) -> int:
    total = 0
    for x in cmd.steps:
        if isinstance(x, s.Devour):
            total += x.count
        if isinstance(x, s.NightmareMove):
            total += x.steps * sum(y.count for y in x.on_enter if isinstance(y, s.Devour))
    return total


def whose(cmd: s.Effect) -> str:
    found = [x for x in cmd.steps if isinstance(x, s.Devour)]
    found += [y for x in cmd.steps if isinstance(x, s.NightmareMove) for y in x.on_enter if isinstance(y, s.Devour)]
    return ", ".join(dict.fromkeys(x.whose for x in found))


def nightmare_tables() -> None:
    w(f"### Nightmares ({len(C.nightmares)})", "")
    w(
        "Devoured Units numbers for 1-2 / 3 / 4 players (`-`: none). *Moves*: how its command moves it",
        "(each move enters an adjacent area matching the filter; the first move from the Cathedral space",
        "enters an area next to the Cathedral). *Devours*: units one command devours at most, and whose.",
        "",
    )
    table(
        ["#", "Name", "Devoured", "Moves", "Devours", "Command", "Card text"],
        [
            [
                str(n.number),
                n.name,
                threshold_text(n.devoured),
                move_text(n.command.steps[0]),
                f"{devours(n.command)} ({whose(n.command)})",
                n.command.text,
                n.text,
            ]
            for n in C.nightmares
        ],
    )
    w("#### The suggested pairs (CHOOSING NIGHTMARES)", "")
    w("*Ends at*: the number of devoured units that triggers the game end with this pair (the higher of the two).", "")
    table(
        ["Pair", "Rulebook's aim", "Ends at (1-2 / 3 / 4 players)", "Devours per command"],
        [
            [
                f"{a} & {b}",
                aim,
                " / ".join(str(pair_threshold(a, b, i)) for i in range(3)),
                f"{devours(NM[a].command)} / {devours(NM[b].command)}",
            ]
            for (a, b), aim in PAIR_AIMS
        ],
    )


development_tables(1)
dream_table(1)
conflict_table(1)
w(f"### Divergent Paths Reward tiles ({len(C.reward_tiles)})", "")
w("In the order of the rulebook's REWARD TILES list.", "")
table(
    ["#", "Id", "Colour", "Name", "Ability"],
    [[str(i + 1), x.id, x.colour, x.name, x.effect.text] for i, x in enumerate(C.reward_tiles)],
)

w("## Stage 2 cards and the Nightmares", "")
w(
    "Stage 2 Development, Dream and Conflict cards are set aside at setup and come into play at the Stage II",
    "space of the Cathedral track; the Nightmares enter the Cathedral space once the Cathedral is complete.",
    "Effects that command Nightmares or devour do nothing before that. Inside a Nightmare's command,",
    "`nightmare` areas are its current area; on cards, an area holding a Nightmare.",
    "",
)
development_tables(2)
dream_table(2)
conflict_table(2)
nightmare_tables()


def king_section() -> None:
    """The solo King of Horrors: its Action, combat and Nightmare cards, the Area Selection cards."""
    w(
        "## The King of Horrors (solo)",
        "",
        "The automated opponent of the solo rules. Every Dream card (both stages) shows a suit icon",
        "(`suit`, required by the schema and checked against the suits by `validate.py`), which the King",
        "uses for its Dream choice and scoring. The Horror Die's faces are `schema.HORROR_DIE` = "
        + ", ".join(map(str, s.HORROR_DIE))
        + ".",
        "",
        "### The King's Action cards",
        "",
        "One card per action, with one row per Power 1, 3 and 5 (ACTION ACTIVATION: the King resolves",
        "the row equal to its Power). `text` is what a player reads; the engine reads `params`, whose",
        "layout per action is `schema.KING_PARAMS` (`validate.py` checks the lengths and the numbers the",
        "solo rules state):",
        "",
    )
    table(
        ["Action", "params"],
        [
            [
                "ritual",
                "(followers_removed, steps, higher_marker_on_die_at_least): remove that many Followers, then roll "
                "the Horror Die: a roll ≥ the third number climbs the **higher** marker `steps` steps, otherwise "
                "the lower one (the easier game caps 3 and 5 steps at 2 and 4)",
            ],
            [
                "summon",
                "(per_controlled_area, extra_if_fort, marked_areas_produce): each controlled area produces "
                "`per_controlled_area`, plus `extra_if_fort` where the King has a Fort; `marked_areas_produce` "
                "1: every Marked Area also produces 1 for whoever controls it (Shadows where nobody does)",
            ],
            [
                "fortify",
                "12 numbers: for a die roll of 2, 3 and 4 in turn (followers_removed, fort_levels_built, "
                "cards_drawn, units_devoured); devouring happens in areas holding a Nightmare, so it does "
                "nothing in Stage 1",
            ],
            ["maneuver", "(movement_points,)"],
            [
                "develop",
                "(cards_drawn, cultist_on_maneuver, cultist_on_ritual): the two flags (0/1) place a Cultist "
                "on the Maneuver / Perform Ritual Day space",
            ],
        ],
    )
    rows = []
    for k in C.king_actions:
        for r in k.rows:
            rows.append([k.name if r.power == 1 else "", f"[{r.power}]", ", ".join(map(str, r.params)), r.text])
        rows.append(["", "every", "", k.note])
    table(["Card", "Power", "params", "Text"], rows)
    w("### The King's combat cards", "", "Both return to the King's hand after every conflict (`returns`).", "")
    table(
        ["Id", "Name", "Kind", "Combat", "Text"],
        [[k.id, k.name, k.kind, combat(k.combat), k.text] for k in C.king_combat],
    )
    w(
        "### The King's Nightmare cards",
        "",
        "One per Nightmare. The card is resolved `times` times (the (Nx) multiplier; one fewer, at least",
        "once, in the easier game) and each resolution succeeds or fails on its own: the Nightmare moves",
        "into an adjacent area matching `toward` (seen from the King: `commander` = where the King is",
        "present, `opponents` = where you are; `most_units` needs an area holding at least one unit; never",
        "an area it has been to during this command; Area Selection cards pick among several) and `effect`",
        "resolves in its current area. With no such area it moves into a random adjacent area and",
        "`failure` resolves there. `anywhere`: it surfaces in the area of a random Area Selection card it",
        "has not been to, so it never fails (and has no failure). `returns`: it goes back to the Cathedral",
        "space after the last resolution. Steps are limited to `devour`, `add_shadows` and",
        '`resolve_conflicts` in the Nightmare\'s area (`where = "nightmare"`), a free `climb` (the',
        "King's lower marker, as for its other rewards) and a `draw` of Development cards (to its hand).",
        "",
    )
    table(
        ["#", "Nightmare", "Times", "Moves", "Effect", "Failure", "Card text"],
        [
            [
                str(k.number),
                NM[k.number].name,
                f"{k.times}x",
                "anywhere" if k.anywhere else f"toward `{k.toward}`" + (", then returns" if k.returns else ""),
                k.effect.text,
                k.failure.text,
                k.text,
            ]
            for k in C.king_nightmares
        ],
    )
    w(
        "### Area Selection cards",
        "",
        "**Explicit data**: `area_selection` in `cards.toml` lists the 12 cards by area id, and",
        "`validate.py` checks they are exactly the areas of the 1-2 player side, each once. We keep them",
        "as data rather than deriving them from `board.toml` because they are a deck of their own (the",
        "King shuffles and draws them to break ties at random): a pack could print its cards in another",
        "order, and a board edit that forgets them is an error instead of a silent change.",
        "",
    )
    names = {a.id: a.name for sm in P.sides for a in sm.side.areas}
    table(["#", "Area"], [[str(i + 1), f"{names[a]} (`{a}`)"] for i, a in enumerate(C.area_selection)])
    w(
        "### Decisions",
        "",
        "* **Ritual**: 1/3/5 steps, and the higher marker only on a 4 at every Power: more Power climbs",
        "  further, and the lower marker climbs three times in four, away from the front where the VP",
        "  spaces grow fastest (tuned against the planner bot: docs/balance.md, step 3).",
        "* **Summon** adds the two extras the solo rules name in turn: the Marked Areas produce for their",
        "  controllers from Power 3, and its Fort areas produce 1 more at Power 5 (step 3 of the tuning;",
        "  Power 3 produced in its Fort areas too before). A Marked Area nobody controls (a tie) produces",
        "  nothing (core PRODUCE); an empty one is the Shadows' and gets a Shadow.",
        "* **Fortify**: for every die value, Fort levels, cards and devoured units never shrink with Power,",
        "  and the King never removes more Followers than the levels it builds. It",
        "  builds at most 2 levels, draws at most 1 card and devours at most 1 unit per roll, and removes",
        "  a Follower on every roll (tuned with the Ritual rows, docs/balance.md).",
        "* **Develop** places its Cultists as the rules say: on the Maneuver Day space from Power 3, on the",
        "  Perform Ritual one too at Power 5.",
        "* **Combat cards**: the Basic Combat is a bare threat (1⚔ 0⛨); the Shield is the defender",
        "  (1⚔ 1⛨) and carries its return clause (both weaker than at first, docs/balance.md step 3).",
        "* **Nightmares**: each keeps its Nightmare's essence (the Stair hunts Followers, the Glutton",
        "  takes 3 from the crowd, the Drum brings conflict where you are, the Archivist eats only Shadows",
        "  and pays in cards, the Procession walks with the King, climbs and comes home, the Collector takes",
        "  the King's own and pays in cards, the Howls fight and devour, the Sleeper surfaces anywhere).",
        "  Failures are small: a Shadow, a card or a step. The Nightmares that serve the King (the Stair's",
        "  and the Procession's climbs, the Archivist's and the Collector's cards) act once fewer (step 3).",
        "",
    )


king_section()

# =============================================================================================


def mean(items, f) -> float:
    return sum(f(x) for x in items) / len(items)


dev_atk, dev_def = mean(DEV[1], lambda d: d.combat.attack), mean(DEV[1], lambda d: d.combat.defense)
vps = Counter(d.vp for d in DR[1])
avg_vp = mean(DR[1], lambda d: d.vp)
marks = Counter(d.players for d in DEV[1])
ups = [d for d in DEV[1] if d.kind == "upgrade"]
plo = [d for d in DEV[1] if d.kind == "ploy"]
w(
    "## Content decisions",
    "",
    "Each choice below follows a number or a mechanism of the core rulebook (and the solo rules where",
    "they touch the same components); where the rulebook is silent (it lost its pictures) we chose, and",
    "say why.",
    "",
    "### Board",
    "",
    "* **1-2 player side: 12 areas**, one per Area Selection card of the solo rules. Each of the 6 symbols",
    "  shows on exactly 2 areas, so every turn marks two areas, and no two adjacent areas share a symbol:",
    "  the two Marked Areas of a turn are always apart, so Summon and Marked-Area effects spread out.",
    "* **4 corners per side**: setup step 17 has every player conquer exactly one corner (Fortress, Shaper,",
    "  2 Followers, 1 Fort level); four corners serve 4 players. Corners never touch the Cathedral, so a",
    '  Fortress is never a "next to the Cathedral" area (those start with 1 Follower or 1 Shadow).',
    "* **3-4 player side: 16 areas**, 4 of them marked **4** (one per overlay tile of COMPONENTS, covered",
    "  with 3 players), so a 3-player game has 12 areas (4 per player) and a 4-player game 16 (4 per",
    "  player). With the rulebook's 4 overlay tiles the two counts can't both be multiples of the 6",
    "  symbols; we chose the 3-player count (issue 13: with 14 areas Eye and Tooth marked three areas and",
    "  the others two): with 3 players each symbol marks 2 areas, as on the small side and the Turn track;",
    "  with 4 players Moon, Key, Flame and Spiral mark 3 and Eye and Tooth 2.",
    "* **The Cathedral is a 2x2 block** in the middle: 4 areas touch it on each side.",
    "",
    "### Fair sides",
    "",
    "`content/geometry.unfair` checks these on every side, for every player count it is used with (the",
    "loader refuses a pack that breaks one; `tests/test_content.py` counts them again independently):",
    "",
    "* The **corners hold the four corner cells of the grid** (as far apart as the board allows), never",
    "  touch the Cathedral or another corner, and each has **at least 2 exits** to areas in play (the old",
    "  3-player board left two corners with one). Every corner is **equally far from the other corners**",
    "  (2, 2 and 4 steps on both sides).",
    "* Every area **next to the Cathedral has at least 3 neighbours** in play; the areas in play are connected.",
    "* **Symbols**: no symbol marks two areas more than another; with the side's smallest player count",
    "  (1-2 players on the Sunken Vale, 3 on the Shattered Dominion) every symbol marks equally many.",
    "* **Solo corners are equivalent** (solo SETUP 4: the King takes the next corner clockwise and the area",
    "  clockwise after it, your second area is the one counter-clockwise of your corner): the ring",
    "  neighbours of every corner agree on touching the Cathedral, so neither side starts with a Follower",
    "  more or less whichever corner you choose. On the Sunken Vale none of them touches it (Bone Cloister",
    "  no longer reaches the Cathedral from the outer ring): both sides start with 4 Followers on the board.",
    "* The large side's 4-player-only areas are the four between a corner and the centre, so covering",
    "  them takes one exit from each corner and leaves the Cathedral's neighbours their three.",
    "",
    "### Action Matrix",
    "",
    "* Five Day spaces on a ring (the King's rondel order), a Night space between each pair of neighbours,",
    "  and a sixth, central Night space (*Abyss*) adjacent to three Day spaces. Every Day arrow leads to the",
    "  Night space clockwise after it. From any Night space, 2 or 3 Day spaces are allowed next turn (the",
    "  ones not adjacent to it), so the Dreamer's position constrains but never forces a single action.",
    "",
    "### Tracks",
    "",
    "* **Turn track: 12 positions, each of the 6 symbols twice.** 12 is divisible by 2, 3 and 4, so the",
    "  Player markers (6 each) share the positions evenly: 6 each with 2 players, 4 with 3, 3 with 4.",
    "  The two positions of a symbol are never neighbours, so a symbol isn't Marked twice in a row.",
    f"* **Time track: {' → '.join(t.time)}**: {len(t.time) - 1} laps of the Turn track, "
    f"{(len(t.time) - 1) * len(t.turn)} turns at most (24 per player with 2, 16 with 3, 12 with 4).",
    "* **Ritual track: 21 spaces.** Space 1 is open, so that every climb (the Cathedral's climb icon,",
    "  free climbs on cards) can leave the start: a special space there would block them, since only",
    "  effects that say so enter special spaces. Spaces 2-9 embed the rulebook's worked Ritual example:",
    "  space 2 is a special space with one symbol and the 3 MP bonus (Follower 1 pays for it, 1 MP moves",
    "  Follower 2); spaces 3-5 are open (Followers 3, 4, 5); space 6 is open (paid with 3 Followers from",
    "  Limbo, 6-8); space 7 is open (Follower 9); space 8 is special with **two** symbols (Follower 10 and",
    "  the moved Follower 2) whose bonus is forfeited; space 9 is open and taken with the free step.",
    "  All five special bonuses of the rulebook appear (3 MP, 1 Fort level, Shaper move + conversion,",
    "  produce 2, command a Nightmare twice for Stage 2). Ritual spaces (12, 17, 21) can only be reached",
    "  by the Ritual action's paid primary climb. VP spaces score 1/2/3/5/7/9/12 at 4/6/9/12/15/18/21, so",
    '  the scoring example\'s markers at "7 and 3" are spaces 15 and 9. Costs grow to 2 and 3 symbols late.',
    '* **Cathedral track**: piece 1A starts on the board (the setup text\'s "3A" is a label of its lost',
    "  figure; the assembly instructions start with 1A), the other 12 follow the assembly order of the",
    "  rulebook (1B, 2A, 2B, 1C, 1D, 3A, 3B, 4A, 4B, 5A, 6A, 6B). The Variable Length set-up icons are",
    "  on 1B (2-3 players) and 2A (2 players), matching assembly step 2 (1-3 players) and a second piece",
    "  for 2 players. The Stage II icon is on 4A (8th of 12): Stage 2 decks arrive with a third of the",
    "  Cathedral still to build. Produce, Shaper MP, climb and Shadow icons are spread evenly.",
    "* **Divergent Paths**: 5 gray, 4 yellow and 4 red Reward tile slots, matching the 5 gray, 4 yellow and",
    "  4 red tiles. Every non-gray space depends on one or two earlier spaces, so the red rewards come",
    "  last. 1C sits on a gray space: the Standard Game moves it to the board at setup and discards its",
    "  tile, so it must be a piece that is always available.",
    "",
    "### Cards",
    "",
    "* **Six Dream suits** (Crown, Rampart, Ladder, Dagger, Veil, Omen). The solo rules give every Dream",
    "  card a suit icon and score the King 0/1/3/6/10/15/21 for 1-7 cards of a suit; our 27 Stage 1 Dreams",
    f"  split {'/'.join(str(sum(d.suit == x.id for d in DR[1])) for x in C.suits)} and the 19 Stage 2 Dreams "
    f"{'/'.join(str(sum(d.suit == x.id for d in DR[2])) for x in C.suits)}.",
    "  The seed lost the icons, so how many suits there are is ours: with four, the King (which takes the",
    "  cheapest Dream of the suit it has most of) made sets worth 7-15 VP a game against the planner and",
    "  won 68-80 % of games at easy and normal; six suits bring its sets to about 5 VP (docs/balance.md).",
    "  Suits do not affect players; each is themed on one road to victory (Crown: controlling areas,",
    "  Rampart: Forts, Ladder: the Ritual track, Dagger: Followers and conflicts, Veil: being present",
    "  everywhere and the Shaper, Omen: symbols, Upgrades and cards) so the King's suit preference reads",
    "  as a personality. Glyphs and letters differ from the area symbols' (E, M, K, F, T, S) for",
    "  monochrome terminals.",
    "* **Starting Action cards** follow the rulebook's facts: Maneuver's Day gives 4 MP then 1 conflict;",
    "  Summon's Day makes every Marked Area and every area with your Fort produce 1 (for whoever controls",
    "  it, as PRODUCE says); Fortify prints Unit Limit 3 and pays 1 + 2 Followers for 2 Fort levels (3",
    "  Followers for 2 levels, as in the rulebook's example); Ritual climbs any number of paid steps (the",
    "  only effect that may enter ritual spaces) then 1 free step onto an open or special space; Develop",
    "  plays any number of Upgrades and up to 3 Ploys. Develop's Day also draws 1 card first, so it is never a",
    "  dead action for a player whose hand holds nothing to play. **Up to 3 Ploys**, on every card",
    '  that plays Ploys (issue 38 item 7): with "any number", a Ploy that draws (Sudden Waking draws 2)',
    "  came back from the reshuffled discard pile as soon as it was played, and a player could play it",
    "  for ever in one turn; an Upgrade leaves the hand for good, so any number of them stays finite.",
    "  **Covering a Fortify card** changes your Unit Limit for good to the one printed on the new card",
    "  (an Upgrade's effects replace the covered card's); if the new limit is lower, the Followers",
    '  beyond it go back to your supply at once (UNIT LIMIT: "at any time"; issue 38 item 8).',
    "  Each Conform is a",
    "  smaller version of the Day (1 paid step, 1 produced, 1 level for 2 Followers, 2 MP, 1 card played);",
    "  each Dissent is a different small benefit (produce 1 in a Marked Area, a Follower back from Limbo,",
    "  produce 1 in the Fortress, 1 MP, draw 1), so reacting is always worth something but never as much",
    "  as Conforming.",
    "* **Basic Combat: 1⚔ 1⛨**, a modest card that always returns to hand.",
    f"* **Development: {len(ups)} Upgrades (6 per action) and {len(plo)} Ploys.** {marks[3]} cards are marked 3+"
    f" and {marks[4]} marked 4, so the deck holds {marks[2]} cards with 2 players, {marks[2] + marks[3]} with 3 and",
    f"  {len(DEV[1])} with 4. Each action keeps 4 Upgrades in the 2-player deck, so setup step 11",
    "  always finds Upgrades quickly. Upgrades improve one part of their action (more MP or conflicts,",
    "  cheaper Fort levels, a second free Ritual step, extra production, more cards) and keep the other",
    "  parts close to the starting card; a covered card's effects are simply replaced.",
    "* **Every Development card has combat icons** (Attack 0-3, Defense 0-2, at least one icon): a card is",
    "  either played for its effect or spent in a conflict. Stronger effects carry weaker icons (Quiet",
    "  Step, a free Ritual step, is 0⚔ 1⛨; Ambush in the Mist is 3⚔ 0⛨; Iron Lullaby's tiny effect pays",
    f"  for 2⚔ 2⛨). The deck averages {dev_atk:.2f}⚔ {dev_def:.2f}⛨ per card: with 2 Followers and a",
    "  Fort (3 cards) a player usually beats 2 Shadows and trades evenly with 3.",
    "* **Fortify Upgrades keep Unit Limit 3**; three raise it to 4 in one area and one (Citadel of",
    "  Sleepers, marked 4, with weak icons) to 5, the two values the rulebook names.",
    "* **Upgrade VP**: the scoring example gives 1 VP per Stage 2 Upgrade; Stage 1 Upgrades score 0 except",
    "  four plain ones (no stronger than the starting card in their Day effect) worth 1 VP.",
    f"* **Dreams: {len(DR[1])} cards, VP {min(vps)}-{max(vps)}** "
    f"({', '.join(f'{n}×{v}' for v, n in sorted(vps.items()))};"
    f" average {avg_vp:.2f}). The rulebook's scoring example takes 15 of 34 VP from Dreams and says Dreams",
    "  give the majority: a player who plays 4-6 Dreams scores 16-24 VP from them, plus 4-12 from the",
    "  two Ritual markers, 1-4 from Forts, 0-2 from Upgrades and the Devoured bonus: 30-40 VP is typical. Needs are",
    "  sized to the board and to a player who pursues them (the planner bot, docs/balance.md): 12 areas on",
    "  the small side (6 controlled areas is 4 VP, 7 is 5 VP), 10 Fort levels per player (8 on the board is",
    "  4 VP), 20 Followers (17 on the board is 5 VP), ritual space 14 is 5 VP; the",
    "  easiest goals (a Fort of 3 levels, a Ritual marker on space 8) score 3 VP. Step 3 of the tuning",
    "  (docs/balance.md) asked one step more of every need the boards allow (an area, a presence, 2 Fort",
    "  levels, 2 Followers, 2 Ritual spaces, a card, an Upgrade, a Follower in Limbo; not the Marked,",
    "  corner, Cathedral or Nightmare areas, conflicts won in a turn, nor a full hand; the Dreams of",
    "  devoured Followers ask 1 fewer) and added 1 VP to every Dream: fewer, bigger Dreams, as the",
    "  scoring example's 15 VP of Dreams suggests. Most Dreams need one",
    "  thing; two-condition Dreams pair something easy with something demanding. Three carry a small",
    "  effect when played.",
    f"* **{sum(d.cathedral for d in DR[1])} Dreams carry the Cathedral icon**: in the Variable Length Game 12 pieces "
    "must be built from Dreams (fewer with 2-3",
    "  players). The scoring example's 15 VP of Dreams means about 4-5 Dreams played per player per game,",
    "  so most Dreams must carry the icon for the Cathedral to be finished at all; only five Dreams",
    "  lack it. Games between bots still build few pieces (they play few Dreams): see",
    "  docs/balance.md. The icon sits on every suit and every VP value.",
    "* **Conflicts: 16 cards**; what the Shadows generate grows with their number (1 Shadow: 1⚔ 0⛨ to",
    "  2⚔ 0⛨ or 1⚔ 1⛨; 3 Shadows: up to 3⚔ 2⛨). Victory effects are small gains, most worth about the",
    "  1 card a victor may always draw instead; Defeat effects add Shadows or cost Followers (never a Fort",
    "  level, and never a second Fort in an area). No Victory starts another conflict, so conflicts never",
    "  nest.",
    "* **Reward tiles**: the 13 abilities in the order of the rulebook's list. Gray (5): advance 1 on an",
    "  open space, produce 2, 3 MP, play 1 Upgrade, 1 Fort level on an existing Fort. Yellow (4): advance",
    "  1 on an open or special space, Shaper anywhere, 1 conversion next to the Shaper, Dreamer to any",
    "  Night space at the end of the turn. Red (4): 5 Stage 2 Development cards keep 2, 2 Shadows then a",
    '  conflict there, 4 Stage 2 Dreams keep 1, the Conform part of any Action card. "Advance" is a free',
    "  climb; *produce 2 in an area* is a `produce` in mode `one` (both units in one area you control);",
    "  the Dream kept from *A Deeper Dream* does not count against the limit of 2 Dream cards",
    "  (`beyond_limit`).",
    "* **Names and texts** are ours: dream-and-nightmare themed names, one plain sentence per effect using",
    "  the rulebook's terms (Produce, MP, Marked Area, Fort level, Limbo, Conform) so they read the same",
    "  everywhere in the UI.",
    "",
)

# =============================================================================================


def names_where(cards, pred) -> str:
    return ", ".join(d.name for d in cards if pred(d))


def uses(effects, step_type, **fields) -> bool:
    return any(
        isinstance(x, step_type) and all(getattr(x, k) == v for k, v in fields.items())
        for e in effects
        if e
        for x in e.steps
    )


def _commands(d) -> bool:
    return any(
        isinstance(x, s.CommandNightmare)
        or (isinstance(x, s.Choose) and any(isinstance(y, s.CommandNightmare) for opt in x.options for y in opt))
        for e in (d.day, d.conform, d.dissent)
        for x in e.steps
    )


ups2 = [d for d in DEV[2] if d.kind == "upgrade"]
plo2 = [d for d in DEV[2] if d.kind == "ploy"]
marks2 = Counter(d.players for d in DEV[2])
vp2 = Counter(d.vp for d in ups2)
line_power = [
    [mean(CF[st], lambda k, i=i: k.lines[i].combat.attack + k.lines[i].combat.defense) for i in range(3)]
    for st in (1, 2)
]
track = [sp.piece for sp in P.tracks.cathedral]
stage2_at = next(i for i, sp in enumerate(P.tracks.cathedral) if "stage2" in sp.icons)
after = track[stage2_at + 1 :]
icons2 = [d for d in DR[2] if d.cathedral]
w(
    "### Stage 2 cards",
    "",
    f"* **Development: {len(ups2)} Upgrades (5 per action) and {len(plo2)} Ploys**, Stage 1's share of",
    f"  Upgrades (58%). {marks2[3]} are marked 3+ and {marks2[4]} marked 4 (Stage 1's 73/15/12%), so the Stage 2",
    f"  cards add {marks2[2]} cards with 2 players, {marks2[2] + marks2[3]} with 3 and {len(DEV[2])} with 4; every"
    " action keeps at least 3",
    "  Upgrades in the 2-player deck.",
    f"* **Every Stage 2 Upgrade scores VP**: {vp2[1]} score 1, as in the rulebook's scoring example (\"Each",
    '  Stage 2 Upgrade card scores 1 victory point"). The rare one scoring 2 is'
    f" {names_where(ups2, lambda d: d.vp == 2)},",
    "  marked 4: 3 Fort levels for 4 Followers and a Unit Limit of 5 in one area. A player who covers 2-4",
    "  Action cards in Stage 2 scores 2-4 VP from them (the example's player scores 2).",
    "* **Stronger Upgrades** that keep their action's core (the Ritual Day still climbs paid steps first,",
    "  Summon's still makes every Marked Area and Fort area produce, Maneuver's still gains 4+ MP and",
    "  fights, Develop's still plays any number of cards): 6 MP, 3 conflicts, 2 free Ritual steps, 3 Fort",
    "  levels for 4 Followers, draw 4 keep 2, the Conform part of another card. **Commands**: one",
    "  Nightmare Upgrade per action commands on its Day, its Conform (after a small gain) and its Dissent",
    "  (" + names_where(ups2, lambda d: uses((d.dissent,), s.CommandNightmare)) + "), so whoever covers an",
    "  Action card with one commands whenever anyone takes that action. Two cards marked 3+ / 4 command",
    "  on one part only ("
    + names_where(ups2, lambda d: not uses((d.dissent,), s.CommandNightmare) and _commands(d))
    + "); the",
    "  other Upgrades never command, so a player can stay away from the Nightmares and score otherwise.",
    "* **Ploys** command (" + names_where(plo2, lambda d: uses((d.effect,), s.CommandNightmare)) + "; *Twofold",
    "  Summons* commands both, since no player commands the same Nightmare twice in a turn) or devour in",
    "  an area holding a Nightmare (" + names_where(plo2, lambda d: uses((d.effect,), s.Devour)) + "). *The",
    "  Offering* devours your own Follower for a free climb: a devoured Follower is not lost for scoring,",
    "  it counts for the Devoured Units ranking (8/5/3/2), so feeding the Nightmares is a strategy.",
    f"* **Combat icons**: Stage 2 cards average {mean(DEV[2], lambda d: d.combat.attack):.2f}⚔"
    f" {mean(DEV[2], lambda d: d.combat.defense):.2f}⛨ (Stage 1: {dev_atk:.2f}⚔ {dev_def:.2f}⛨),",
    "  still within 0-3 Attacks and 0-2 Defenses, to face the stronger Stage 2 Shadows. The Ploys that",
    "  only command or devour are good fighting cards, since they are dead until the Cathedral is complete",
    "  (the Stage 2 cards arrive at the Stage II space, four pieces before the Nightmares).",
    f"* **Dreams: {len(DR[2])} cards, VP {min(d.vp for d in DR[2])}-{max(d.vp for d in DR[2])}**"
    f" (average {mean(DR[2], lambda d: d.vp):.2f} against {avg_vp:.2f} in Stage 1), for fuller",
    "  boards: 8 areas, 5 symbols, 9 areas of presence, 3 Forts of 3 levels or all 10 Fort levels,",
    "  Ritual space 17 or both markers on 11, 7 Upgrades, a full hand of 8 cards, 18 Followers on the board,",
    "  2 conflicts won in a turn with 6 areas controlled. Suits split "
    f"{'/'.join(str(sum(d.suit == x.id for d in DR[2])) for x in C.suits)}, so each suit has 11-12 cards over",
    "  both stages for the King's scoring.",
    "  Three Dreams need a Nightmare's area (present in both, control one, your Shaper in one) and two",
    "  need your devoured Followers (3 for 4 VP, 5 for 6 VP; the 1-2 player Devoured numbers are 3-6):",
    "  devouring your own is rewarded beyond the",
    f"  ranking. {sum(d.effect != s.NO_EFFECT for d in DR[2])} carry a small effect (play 1 Ploy, 2 Followers"
    " back from Limbo, or command",
    "  a Nightmare).",
    f"* **{len(icons2)} Stage 2 Dreams carry the Cathedral icon.** The Stage 2 cards come in at the Stage II",
    f"  space ({track[stage2_at]}, the {stage2_at + 1}th of {len(track)} pieces), so {len(after)} pieces"
    f" ({', '.join(after)}) are still to build. In the Variable Length Game only",
    "  Cathedral-icon Dreams build them, so without icons on Stage 2 Dreams the Cathedral could never",
    "  be completed once the Stage 1 Dreams run low, and the game would end by time only. As in Stage 1",
    f"  most carry it ({len(icons2)} of {len(DR[2])}): every Dream that needs no Nightmare. None needs a Nightmare or",
    "  devoured units (`validate.py` refuses it): the Nightmares only come after the last piece, so such",
    "  a Dream could never build one. In the Standard Game the icon is ignored.",
    f"* **Conflicts: {len(CF[2])} cards, stronger Shadows**: on average they generate",
    f"  {' / '.join(f'{x:.2f}' for x in line_power[1])} icons for 1 / 2 / 3 Shadows (Stage 1:"
    f" {' / '.join(f'{x:.2f}' for x in line_power[0])}), up to 4⚔ with 3 Shadows.",
    f"  {sum(uses((k.victory,), s.CommandNightmare) for k in CF[2])} Victories command a Nightmare and"
    f" {sum(uses((k.victory,), s.Devour) for k in CF[2])} devour (mostly Shadows,",
    "  speeding the end without feeding a rival's",
    "  ranking); Defeats often devour the loser's own Followers (a loss on the board, a small consolation",
    "  on the ranking) or add Shadows around the Nightmares and the Cathedral. A Victory that commands the",
    "  War Drum or the Thousand Howls starts their conflicts after the first conflict is over (the",
    "  Conflict card waits in the effect's frame), so conflicts follow each other rather than nest.",
    "",
    "### The Nightmares",
    "",
)


def _measured(a: int, b: int, i: int) -> str:
    share, turn = MEASURED[(a, b)][i]
    return f"{share}%" if turn is None else f"{share}% (turn {turn})"


def th(n: int) -> str:
    return threshold_text(NM[n].devoured)


def pt(a: int, b: int) -> str:
    return " / ".join(str(pair_threshold(a, b, i)) for i in range(3))


w(
    "* **Pace of Stage 2, measured.** In the Standard Game a piece is built every turn from the end of each",
    "  player's first turn, so the Cathedral is complete at turn 13 (2 players) to 15 (4 players), leaving",
    "  33-35 of the Time track's 48 turns. Commands come only from cards (the Nightmare Upgrades, 4",
    "  Ploys, 5 Conflict Victories, 3 Dreams) and the Ritual track's two command spaces, so they are",
    "  rarer than one a turn: games between greedy bots (`bots.GreedyBot` on every seat, with the",
    "  thresholds switched off) command 4-7 times and devour 5-15 units in all of Stage 2. A table of",
    "  20-30 units on the board could swallow far larger numbers, but numbers of 20+ would never be",
    "  reached; the Devoured Units numbers are sized to that measured pace instead, and grow by 1 a step",
    "  from 3 to 4 players (more reactions, more commands). The 1-2 player numbers are lower (3-6): two",
    "  planning bots ran to the Time track and scored 55-60 VP, and the solo King pulled ahead in long",
    "  games (docs/balance.md, step 3). Players who seek the Nightmares command more than the bots do,",
    "  so these games end sooner than the bots' do.",
    "* **Every command first moves its Nightmare** (it starts in the Cathedral space, where nothing can be",
    "  devoured); each move enters an area matching the card's filter, never one entered in the same",
    "  activation nor the start, and a Nightmare with no allowed area stops where it is. Commands resolve",
    "  as completely as possible: a devour with units there must take them, and the commander chooses",
    "  whose (within the card's `whose`), so a player can feed their own Followers to the ranking.",
    f"* **1, The Stair of Mouths** ({th(1)}): hunts Followers (2 moves into areas with Followers),",
    "  devours 2 and gives its commander a free climb onto an open or special space. A low number and a",
    "  hunger for player units make it aggressive; the climb makes it a Ritual Nightmare.",
    f"* **2, The Glutton Below** ({th(2)}): one of the lowest numbers, and the biggest single meal: one move",
    "  into the most crowded adjacent area, then 3 units devoured. Whatever it is paired with, the game",
    "  ends soon after it enters.",
    f"* **3, The War Drum** ({th(3)}): goes where your rivals are, adds a Shadow there, resolves a",
    "  conflict there (any two sides: you may set a rival against the Shadows) and devours 1 unit of the",
    "  commander's choice: a conflict every command and a fight over whose units feed the ranking.",
    f"* **4, The Pale Archivist** ({th(4)}): the highest numbers and the gentlest hunger, 1 Shadow per",
    "  command (never a player's Follower), paid back with 2 cards drawn and 1 Upgrade and 1 Ploy played.",
    "  On its own it rarely ends the game before the Time track does.",
    f"* **5, The Candle Procession** ({th(5)}): always starts from and returns to the Cathedral, so it",
    "  only ever visits the areas next to it; it devours 1 there and its commander climbs a paid step (it",
    "  may be a special space) and a free one. A fairly high number gives climbers time.",
    f"* **6, The Hollow Collector** ({th(6)}): walks up to 3 areas where you are present, devouring 1",
    "  of **your own** Followers and drawing you 1 card in each: the fastest way to climb the Devoured",
    "  ranking and to fill your hand, paid for with your board.",
    f"* **7, The Thousand Howls** ({th(7)}): 2 moves, a conflict in each area entered, then 2 units",
    "  devoured where it stops: the most conflict per command and a low number.",
    "* **8, The Sleeper Beneath** (no number): appears in any area and devours 2 units there. Having no",
    "  number (DEVOURING UNITS allows it), its partner alone sets the end, while it is the fastest tool to",
    "  reach it, anywhere on the board: how soon the game ends is up to the players who command it.",
    "",
    "The rulebook's suggested pairs (table above), and why they play as described:",
    "",
    "* **1 & 5, climbing the Ritual track**: both commands climb (a free step onto a special space, a paid",
    "  step that may be special plus a free one); the special spaces 16 and 19 command again. The end",
    f"  comes at the Procession's {pt(1, 5)}, late enough to climb.",
    "* **3 & 7, a lot of conflict**: every command resolves one (War Drum) or two (Thousand Howls)",
    f"  conflicts, and the Drum adds a Shadow first so there is always a fight; the end at {pt(3, 7)}.",
    "* **4 & 8, a more strategic game end, with variable length**: the Sleeper has no number, so the",
    f"  Archivist's {pt(4, 8)}, the highest of any pair, is the goal. The Archivist eats 1 Shadow a",
    "  command and the Sleeper 2 units anywhere: the game ends by devouring only if players choose to",
    "  command the Sleeper (a leader hurries the end, the others stall), otherwise by time.",
    "* **3 & 6, fierce competition for Devoured units**: the Drum lets its commander pick whose unit it",
    "  devours and the Collector devours the commander's own Followers, up to 3 at a time: the 8/5/3/2",
    "  ranking (and the Dreams *Fed to the Dark* and *Beloved of the Maw*) becomes a race.",
    "* **2 & 8, game end triggered quickly after Nightmares enter play**: the Sleeper defers to the",
    f"  Glutton's {pt(2, 8)}, among the lowest of any pair, and the two devour 3 and 2 units a command,",
    "  the fastest pair: two or three commands can end the game.",
    "* **4 & 6, card drawing and a lot of cards played**: the Archivist draws 2 and plays 2 cards, the",
    "  Collector draws up to 3; the Archivist's high number keeps the game long enough to play them.",
    "* **1 & 7, very aggressive, a lot of conflict and almost certain end via Devoured units**: both",
    "  devour any units (2 a command), the Howls fight in every area they enter, and the end at",
    f"  {pt(1, 7)} is the second lowest of the suggested pairs.",
    "",
    "Measured with greedy bots (100 games per pair and player count, seeds 5000-5099): the share of",
    "games that end by devouring, and the median turn they end on (Stage 2 begins at turn 13-15). With",
    "1-2 players the lower numbers (step 3 of the tuning) end most games by devouring whatever the pair;",
    "the pairs keep their order (2 & 8 and 1 & 7 first, 4 & 6 last), and their character shows most",
    "with 3-4 players. Measured again after step 3 (the Dreams changed the greedy bots' games too).",
    "",
)
table(
    ["Pair", "Rulebook's aim", "2 players", "3 players", "4 players"],
    [[f"{a} & {b}", aim] + [_measured(a, b, i) for i in range(3)] for (a, b), aim in PAIR_AIMS],
)

with open(sys.argv[1], "w", encoding="utf-8") as f:
    f.write("\n".join(OUT).rstrip() + "\n")
