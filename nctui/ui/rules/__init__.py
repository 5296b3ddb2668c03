"""The rules summary of a game, as the Rules screen shows it: data in a file of the game (its
registry entry's ``rules``: "package:file", e.g. Nightmare Cathedral's ``rules_summary.toml``),
loaded and validated here. Nothing here knows a game.

``get_summary(ref)`` reads a game's packaged file once; ``load_summary(path)`` reads any file
(tests use broken copies). Every problem raises ``RulesDataError`` whose message reads
``file: entry: problem``, like the content pack's errors. ``blocks(section)`` splits a section's
text into paragraphs, subheadings, list items and preformatted lines (the format is described at
the top of each summary file); ``matches`` is the search.

A file names its ``title`` (the Rules screen's header), its ``books`` (id -> the rulebook's name,
e.g. core = "Core rulebook") and its sections, each with the ``book`` it summarises.
"""

from __future__ import annotations

import re
from functools import lru_cache
from importlib.resources import files
from pathlib import Path
from typing import Literal

import msgspec

TITLE_MAX = 24  # the contents list is narrow at 80x24
PRE_MAX = 76  # a preformatted line must fit an 80-column terminal
_ID = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
_ITEM = re.compile(r"^(- |\d+\. )")


class RulesDataError(ValueError):
    """The rules summary file is missing, malformed or inconsistent."""

    def __init__(self, file: str, entry: str, problem: str) -> None:
        self.file, self.entry, self.problem = file, entry, problem
        super().__init__(f"{file}: {entry}: {problem}")


class Section(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """One topic of the summary: ``rulebook`` names the rulebook sections it summarises."""

    id: str
    title: str
    book: str  # one of the file's ``books``
    rulebook: tuple[str, ...]
    keywords: tuple[str, ...] = ()
    see_also: tuple[str, ...] = ()
    text: str


class _File(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    title: str
    books: dict[str, str]
    section: tuple[Section, ...]


class Block(msgspec.Struct, frozen=True):
    """A piece of a section's text. ``kind``: para, heading, item (``marker`` is "- " or "3. ")
    or pre (shown as written)."""

    kind: Literal["para", "heading", "item", "pre"]
    text: str
    marker: str = ""


class Summary(msgspec.Struct, frozen=True, kw_only=True):
    title: str  # "Nightmare Cathedral: the rules in brief (core game and solo)"
    books: dict[str, str]  # book id -> the rulebook's name
    sections: tuple[Section, ...]

    def get(self, section_id: str) -> Section | None:
        return next((s for s in self.sections if s.id == section_id), None)

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(s.id for s in self.sections)

    def source(self, section: Section) -> str:
        """Where a section comes from: 'Core rulebook: RITUAL, RITUAL TRACK'."""
        return f"{self.books.get(section.book, section.book)}: {', '.join(section.rulebook)}"


def load_summary(path: Path | str) -> Summary:
    """Read and check a summary file; raises ``RulesDataError`` naming the file and entry."""
    path = Path(path)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise RulesDataError(path.name, "(file)", f"cannot read: {exc.strerror or exc}") from exc
    try:
        data = msgspec.toml.decode(raw, type=_File)
    except msgspec.ValidationError as exc:
        problem, _, where = str(exc).partition(" - at `")
        raise RulesDataError(path.name, _entry(raw, where.rstrip("`")) if where else "(top level)", problem) from exc
    except msgspec.DecodeError as exc:
        raise RulesDataError(path.name, "(syntax)", str(exc)) from exc
    summary = Summary(title=data.title, books=data.books, sections=data.section)
    for entry, problem in _problems(summary):
        raise RulesDataError(path.name, entry, problem)
    return summary


def summary_path(ref: str) -> Path:
    """The file a "package:file" reference names (a registry entry's ``rules``)."""
    package, _, name = ref.partition(":")
    return Path(str(files(package).joinpath(name)))


@lru_cache(maxsize=8)
def get_summary(ref: str) -> Summary:
    """The summary a game's registry entry names (``rules``: "package:file"), read once."""
    return load_summary(summary_path(ref))


def _entry(raw: bytes, where: str) -> str:
    """msgspec's ``$.section[3].title`` as ``section[ritual].title`` when the entry has an id."""
    m = re.match(r"\$\.section\[(\d+)\](.*)", where)
    if not m:
        return where
    index, rest = int(m.group(1)), m.group(2)
    try:
        ids = [s.get("id", index) for s in msgspec.toml.decode(raw).get("section", [])]
        name = ids[index]
    except (msgspec.DecodeError, AttributeError, IndexError):
        name = index
    return f"section[{name}]{rest}"


def _problems(summary: Summary):
    """(entry, problem) for every inconsistency, in file order."""
    if not summary.title.strip():
        yield "title", "name the summary (the Rules screen's header)"
    if not summary.books:
        yield "books", "name the rulebooks the sections summarise"
    if not summary.sections:
        yield "section", "no sections"
    seen: set[str] = set()
    ids = set(summary.ids)
    for s in summary.sections:
        where = f"section[{s.id}]"
        if not _ID.match(s.id):
            yield f"{where}.id", "ids are lowercase words joined by '-'"
        if s.id in seen:
            yield f"{where}.id", "duplicate id"
        seen.add(s.id)
        if not s.title.strip() or len(s.title) > TITLE_MAX:
            yield f"{where}.title", f"a title has 1 to {TITLE_MAX} characters, not {len(s.title)}"
        if s.book not in summary.books:
            yield f"{where}.book", f"unknown book {s.book!r} (the file's books: {', '.join(summary.books)})"
        if not s.rulebook or not all(r.strip() for r in s.rulebook):
            yield f"{where}.rulebook", "name the rulebook sections this summarises"
        if not s.text.strip():
            yield f"{where}.text", "empty text"
        for other in s.see_also:
            if other not in ids:
                yield f"{where}.see_also", f"unknown section {other!r}"
        for line in s.text.splitlines():
            if line.startswith("| ") and len(line) - 2 > PRE_MAX:
                yield f"{where}.text", f"a '| ' line is longer than {PRE_MAX} characters: {line[:30]!r}…"


def blocks(section: Section) -> tuple[Block, ...]:
    """The text as blocks: blank lines end paragraphs, continuation lines join their block."""
    out: list[Block] = []
    open_block = False  # whether the next plain line continues the last block
    for line in section.text.strip("\n").splitlines():
        stripped = line.strip()
        if not stripped:
            open_block = False
        elif line.startswith("| "):
            out.append(Block("pre", line[2:].rstrip()))
            open_block = False
        elif line.startswith("## "):
            out.append(Block("heading", stripped[3:]))
            open_block = False
        elif m := _ITEM.match(line):
            out.append(Block("item", line[m.end() :].strip(), m.group(1)))
            open_block = True
        elif open_block and out and (out[-1].kind == "para" or line.startswith("  ")):
            last = out[-1]
            out[-1] = Block(last.kind, f"{last.text} {stripped}", last.marker)
        else:
            out.append(Block("para", stripped))
            open_block = True
    return tuple(out)


def normal_name(name: str) -> str:
    """A rulebook section's name as names are compared: upper case, single spaces, no ':' or ','
    around it."""
    return re.sub(r"\s+", " ", name.upper()).strip(" :,")


def section_naming(summary: Summary, name: str) -> str | None:
    """The section whose ``rulebook`` names ``name`` (as a refusal names its rule: "Rule 4",
    "Action C"), the first one if several do; None if none does."""
    wanted = normal_name(name)
    return next((s.id for s in summary.sections if any(normal_name(r) == wanted for r in s.rulebook)), None)


def search_words(query: str) -> tuple[str, ...]:
    """The lowercase words of a search query."""
    return tuple(dict.fromkeys(w for w in query.lower().split() if w))


def matches(section: Section, words: tuple[str, ...], source: str = "") -> bool:
    """Whether every word occurs in the section's title, keywords, ``source`` (its rulebook's
    names, ``Summary.source``) or text."""
    haystack = " ".join((section.title, " ".join(section.keywords), source, section.text)).lower()
    return all(w in haystack for w in words)
