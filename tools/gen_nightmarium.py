"""Writes nctui/games/nightmarium/cards.toml: the 108 Night Terror cards we author (the
rulebook's card texts are lost). Run it only to change the deck on purpose; the file is the data.
docs/nightmarium.md explains the distribution."""

from __future__ import annotations

from pathlib import Path
from typing import TypedDict

NAMES = {
    "necronauts": [
        "Drowned Navigator",
        "Pale Oarsman",
        "Hollow Diver",
        "Tide Widow",
        "Barnacle Saint",
        "Salt Lich",
        "Lantern Eel",
        "Fathom Wraith",
        "Bellows Corpse",
        "Brine Abbot",
        "Coral Skull",
        "Sunken Choir",
        "Gill Reaper",
        "Kelp Mourner",
        "Anchor Knight",
        "Silt Matron",
        "Wreck Harrow",
        "Cold Cartographer",
        "Mariner's Husk",
        "Abyss Pilot",
        "Leviathan Rib",
        "Lamp Jaw",
        "Grey Helmsman",
        "Foam Revenant",
        "Still Water",
        "Tidal Bishop",
        "Last Signal",
    ],
    "insektoids": [
        "Chitin Mother",
        "Hive Tongue",
        "Moth Prophet",
        "Carapace Drone",
        "Mandible Knight",
        "Larval Saint",
        "Wasp Crier",
        "Spinneret",
        "Nymph Choir",
        "Dung Cantor",
        "Locust Throne",
        "Silkworm Bride",
        "Tick Baron",
        "Beetle Shell",
        "Cicada Bell",
        "Mantis Widow",
        "Aphid Shepherd",
        "Hornet Veil",
        "Gnat Cloud",
        "Termite Tower",
        "Cocoon Sleeper",
        "Scarab Lamp",
        "Antlion Pit",
        "Weevil Monk",
        "Flea Circus",
        "Firefly Eye",
        "Stick Walker",
    ],
    "chimeridae": [
        "Goat-Headed Lamb",
        "Owl Serpent",
        "Feathered Hound",
        "Antlered Hare",
        "Lion Moth",
        "Boar Swan",
        "Scaled Mare",
        "Twin-Tailed Fox",
        "Bat Heron",
        "Horned Cat",
        "Frog Eagle",
        "Ram Lizard",
        "Winged Ox",
        "Toad Stag",
        "Crow Ferret",
        "Bear Carp",
        "Mole Falcon",
        "Lynx Crane",
        "Stork Jackal",
        "Weasel Ray",
        "Badger Kite",
        "Newt Wolf",
        "Hog Raven",
        "Deer Viper",
        "Otter Hawk",
        "Yak Gull",
        "Elk Salamander",
    ],
    "homunculi": [
        "Jar Child",
        "Clay Tutor",
        "Stitched Doll",
        "Wax Prince",
        "Brass Infant",
        "Mandrake Boy",
        "Tallow Clerk",
        "Vial Sister",
        "Porcelain Smile",
        "Bottled Twin",
        "Alembic Heart",
        "Pewter Nurse",
        "Cork Mouth",
        "Retort Mother",
        "Rag Puppet",
        "Bone China",
        "Hinge Man",
        "Thimble Knight",
        "Resin Saint",
        "Paper Groom",
        "Ash Effigy",
        "Lead Cherub",
        "Tin Whisper",
        "Quill Hand",
        "Candle Sister",
        "Sawdust King",
        "Kiln Son",
    ],
}

# each legion's character: how many of its 27 cards carry each ability (the rest none)
ABILITIES = {
    "necronauts": {"executioner": 6, "scavenger": 6, "devourer": 4, "weeper": 2, "herald": 2, "mocker": 2},
    "insektoids": {"herald": 7, "weeper": 6, "mocker": 3, "scavenger": 2, "executioner": 2, "devourer": 2},
    "chimeridae": {"herald": 4, "weeper": 4, "mocker": 4, "executioner": 4, "scavenger": 3, "devourer": 3},
    "homunculi": {"mocker": 7, "devourer": 6, "weeper": 4, "herald": 2, "executioner": 2, "scavenger": 1},
}

# each legion's 27 cards by the parts they may become: 8 legs, 8 torsos, 8 heads, and three
# cards of several parts
PARTS = (
    [("legs",)] * 8
    + [("torso",)] * 8
    + [("head",)] * 8
    + [("legs", "torso"), ("torso", "head"), ("legs", "torso", "head")]
)


class Card(TypedDict):
    id: str
    name: str
    legion: str
    parts: list[str]
    ability: str


def cards() -> list[Card]:
    out: list[Card] = []
    for legion, names in NAMES.items():
        assert len(names) == 27 == len(set(names))
        abilities = [a for a, n in ABILITIES[legion].items() for _ in range(n)]
        abilities += ["none"] * (27 - len(abilities))
        # deal the abilities across the parts: card i of the legion gets ability (i * 10) mod 27,
        # which spreads each ability over legs, torsos and heads
        for i, (name, parts) in enumerate(zip(names, PARTS, strict=True)):
            out.append(
                {
                    "id": f"{legion[:3]}-{i + 1:02d}",
                    "name": name,
                    "legion": legion,
                    "parts": list(parts),
                    "ability": abilities[(i * 10) % 27],
                }
            )
    return out


def main() -> None:
    lines = [
        "# The 108 Night Terror cards of Nightmarium, authored for nctui (the rulebook's card texts",
        "# are lost). Written by tools/gen_nightmarium.py; docs/nightmarium.md explains the choices.",
        "",
    ]
    for card in cards():
        parts = ", ".join(f'"{p}"' for p in card["parts"])
        lines += [
            "[[card]]",
            f'id = "{card["id"]}"',
            f'name = "{card["name"]}"',
            f'legion = "{card["legion"]}"',
            f"parts = [{parts}]",
            f'ability = "{card["ability"]}"',
            "",
        ]
    path = Path(__file__).resolve().parent.parent / "nctui" / "games" / "nightmarium" / "cards.toml"
    path.write_text("\n".join(lines), encoding="utf-8")
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
