"""Editions: one set of the game's content (cards, tiles, map, tracks, setup numbers), as data.

    from engine.edition import edition
    ed = edition("designed-1")        # loaded once per process from engine/editions/designed-1.toml
    ed.partner["augustus_de_morgan"]  # every value the rules read, as plain dicts and lists
    ed.fingerprint                    # what the values are (a SHA-256 of them)

An edition is to the content what a rules version (engine.versions) is to the behaviour: a game
records both in its setup (`GameSetup.edition`) and is replayed, verified, undone and drawn under
them forever. A state reads its content from its own edition (`GameState.edition`), never from a
module, so games of several editions live side by side in one process.

Files. An edition is a TOML file (stdlib `tomllib` reads it; a designer can edit it; comments
explain each part). Loading checks it completely before anything uses it: the file's shape (every
field present and of the right type, nothing unknown: engine.edition_file), its consistency (ids
unique, every reference known, effects from the engine's vocabulary: engine.edition_checks,
engine.vocabulary), and every fact the rules state about the content (engine.facts). Any problem
raises EditionError listing them all, each with where it is; nothing is half-loaded.

Fingerprint. SHA-256 over the edition's values, excluding its name and description, the
`provisional` marks and the `source` notes: those describe the values and may be corrected in
place. The order of keys inside an effect step counts (the log names what is gained in that
order). engine/editions/index.toml names the default edition for new games and records the
fingerprint of every released edition: a released edition whose values changed is refused.
"""

from __future__ import annotations

import copy
import hashlib
import heapq
import json
import re
import threading
import tomllib
from collections import deque
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from engine.edition_checks import check_consistency
from engine.edition_file import EditionError, Mark, Problem, locate, read_document

__all__ = [
    "EDITIONS_DIR",
    "FIRST_EDITION",
    "Edition",
    "EditionError",
    "EditionLibrary",
    "Mark",
    "Problem",
    "UnknownEdition",
    "default_edition_name",
    "edition",
    "fingerprint_of",
    "library",
    "use_library",
]

EDITIONS_DIR = Path(__file__).resolve().parent / "editions"
FIRST_EDITION = "designed-1"
"""The edition every game stored before editions existed was played with: a setup without an
edition reads as this one."""

NAME_PATTERN = re.compile(r"^[a-z0-9][a-z0-9._-]{0,39}$")


class UnknownEdition(ValueError):
    """A name no edition of this process answers to (a stored game from a newer bot, a typo)."""

    def __init__(self, name: str, known: Iterable[str]) -> None:
        self.name = name
        self.known = sorted(known)
        super().__init__(
            f"Unknown edition {name!r} (this bot has: {', '.join(self.known) or 'none'})."
        )


# ======================================================================================
# The edition
# ======================================================================================


def _fingerprint_data(data: dict[str, Any]) -> Any:
    """The values only: no name or description, no provisional marks or source notes."""

    def strip(x: Any) -> Any:
        if isinstance(x, dict):
            return {k: strip(v) for k, v in x.items() if k not in ("provisional", "source")}
        if isinstance(x, list):
            return [strip(v) for v in x]
        return x

    return strip({k: v for k, v in data.items() if k != "edition"})


def fingerprint_of(data: dict[str, Any]) -> str:
    text = json.dumps(_fingerprint_data(data), ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


class Edition:
    """One edition of the content (see the module doc). Plain data the rules read, never change.

    Item lists keep their file order (it is the order of the decks before shuffling) and each
    has a lookup by id: `partners` / `partner[id]`, `cities` / `city[id]`, and so on.
    """

    __slots__ = (
        "name",
        "title",
        "fingerprint",
        "data",
        "document",
        "marks",
        # setup and components
        "components",
        "dice_per_colour",
        "dice_removed_per_colour",
        "player_colours",
        "start_city",
        "start_resources",
        "seat_bonus",
        "start_hand",
        "supply_size",
        "hand_limit",
        "tier1_deck_after_deal",
        "start_gears",
        "innovation_start",
        "steam_start",
        "program_display",
        "assignment_display",
        "partner_display",
        "multiplier_display",
        # player board
        "store_slots",
        "innovation_max",
        "innovation_prestige",
        "innovation_top_spend",
        "research_track",
        "research_top",
        "research_milestones",
        "assignment_token_stack",
        "science_token_stack",
        "gear_costs",
        "addition_gears",
        "subtraction_gears",
        "gear_missing_penalty",
        "steam_track",
        "program_spaces",
        "multipliers",
        "multiplier",
        # Workshop
        "workshop_spaces",
        "workshop_dice_per_space",
        "workshop_order",
        "workshop_bonuses",
        # map
        "route_cost",
        "routes",
        "cities",
        "city",
        "small_cities",
        "university_cities",
        "neighbours",
        "travel_cost",
        "route_steps",
        "_one_small",
        "university_tiles",
        "university_tile",
        # Meetings and Institutions
        "meeting_rooms",
        "lecture_levels",
        "lecture_costs",
        "lecture_costs_over",
        "lecture_majority",
        "lecture_spaces",
        "lecture_level",
        "analytical_society",
        "institutions",
        # tiles and cards
        "breakthroughs",
        "breakthrough",
        "objectives",
        "objective",
        "programs",
        "program",
        "assignments",
        "assignment",
        "partners",
        "partner",
        "standard_setup",
        "_ready",
    )

    def __init__(
        self,
        data: dict[str, Any],
        *,
        marks: dict[str, Mark] | None = None,
        document: dict[str, Any] | None = None,
    ) -> None:
        """From checked data (use `load`, `from_document` or `derive`, which check it)."""
        self.name = data["edition"]["name"]
        self.title = data["edition"].get("title") or self.name
        self.fingerprint = fingerprint_of(data)
        self.data = data
        self.document = document
        self.marks = marks or {}

        setup = data["setup"]
        self.components = data["components"]
        self.dice_per_colour = data["dice"]["per_colour"]
        self.dice_removed_per_colour = data["dice"]["removed_per_colour"]
        self.player_colours = setup["player_colours"]
        self.start_city = setup["start_city"]
        self.start_resources = setup["start_resources"]
        self.seat_bonus = setup["seat_bonus"]
        self.start_hand = setup["start_hand"]
        self.supply_size = setup["supply_size"]
        self.hand_limit = setup["hand_limit"]
        self.tier1_deck_after_deal = setup["tier1_deck_after_deal"]
        self.start_gears = setup["start_gears"]
        self.innovation_start = setup["innovation_start"]
        self.steam_start = setup["steam_start"]
        shown = data["displays"]
        self.program_display = shown["programs"]
        self.assignment_display = shown["assignments"]
        self.partner_display = shown["partners"]
        self.multiplier_display = shown["multipliers"]

        self.store_slots = data["player_board"]["store_slots"]
        self.innovation_max = data["innovation"]["max"]
        self.innovation_prestige = data["innovation"]["prestige"]
        self.innovation_top_spend = data["innovation"]["top_spend"]
        research = data["research"]
        self.research_track = research["track"]
        self.research_top = research["track"]["top"]
        self.research_milestones = frozenset(
            research["track"]["advanced"] + research["track"]["breakthroughs"]
        )
        self.assignment_token_stack = research["assignment_token_stack"]
        self.science_token_stack = research["science_token_stack"]
        gears = data["gears"]
        self.gear_costs = gears["costs"]
        self.addition_gears = gears["addition"]
        self.subtraction_gears = gears["subtraction"]
        self.gear_missing_penalty = gears["missing_penalty"]
        self.steam_track = data["steam_track"]
        self.program_spaces = data["program_spaces"]
        self.multipliers = data["multipliers"]
        self.multiplier = _by_id(self.multipliers)

        ws = data["workshop"]
        self.workshop_spaces = ws["spaces"]
        self.workshop_dice_per_space = ws["dice_per_space"]
        self.workshop_order = ws["standard_order"]
        self.workshop_bonuses = ws["bonuses"]

        self.route_cost = data["travel"]["route_cost"]
        self.routes = data["travel"]["routes"]
        self.cities = data["cities"]
        self.city = _by_id(self.cities)
        self.small_cities = [c["id"] for c in self.cities if c["kind"] == "small"]
        self.university_cities = [c["id"] for c in self.cities if c["kind"] == "university"]
        self.neighbours = self._neighbours()
        self.travel_cost = {c: self._cheapest_from(c) for c in self.city}
        self.route_steps = {c: self._steps_from(c) for c in self.city}
        self._one_small = {c: self._next_small(c) for c in self.city}
        self.university_tiles = data["university_tiles"]
        self.university_tile = _by_id(self.university_tiles)

        self.meeting_rooms = data["meeting_rooms"]
        lectures = data["lectures"]
        self.lecture_levels = lectures["levels"]
        self.lecture_costs = lectures["costs"]
        # highest level of a player's Lecture discs (1: none) -> what each level costs them: its
        # cost plus every lower level's down to that disc (rulebook, Institution Cost Example)
        self.lecture_costs_over = {
            highest: {
                level: cost
                if highest >= level
                else sum(self.lecture_costs[k] for k in range(max(highest + 1, 2), level + 1))
                for level, cost in self.lecture_costs.items()
            }
            for highest in (1, *self.lecture_levels)
        }
        self.lecture_majority = lectures["majority"]
        self.analytical_society = data["analytical_society"]
        self.institutions = data["institutions"]
        self.lecture_spaces = [
            (f"{i}:{lvl}", i, lvl)
            for i in range(len(self.institutions))
            for lvl in sorted(self.lecture_levels)
        ]
        self.lecture_level = {key: lvl for key, _, lvl in self.lecture_spaces}  # "i:lvl" -> lvl

        self.breakthroughs = data["breakthroughs"]
        self.breakthrough = _by_id(self.breakthroughs)
        self.objectives = data["objectives"]
        self.objective = _by_id(self.objectives)
        self.programs = data["programs"]
        self.program = _by_id(self.programs)
        self.assignments = data["assignments"]
        self.assignment = _by_id(self.assignments)
        self.partners = data["partners"]
        self.partner = _by_id(self.partners)
        self.standard_setup = data["standard_setup"]
        self._ready = True

    def __setattr__(self, name: str, value: Any) -> None:
        if getattr(self, "_ready", False):
            raise AttributeError("an Edition never changes: derive() a new one")
        object.__setattr__(self, name, value)

    def __repr__(self) -> str:
        return f"<Edition {self.name} {self.fingerprint[:12]}>"

    # -- loading -------------------------------------------------------------------------

    @classmethod
    def from_document(
        cls, doc: dict[str, Any], source: str = "edition", *, rules_facts: bool = True
    ) -> Edition:
        """Check a parsed edition document completely and build the edition (or raise
        EditionError with every problem). rules_facts=False skips the rules' facts (for
        experiments that knowingly break one, e.g. the balance report's seat studies)."""
        from engine import facts

        data, marks, problems = read_document(doc)
        if not problems:
            name = data["edition"]["name"]
            if not NAME_PATTERN.match(name):
                problems.append(
                    Problem("edition", None, "name", "use lower case letters, digits, . _ -")
                )
        if problems:  # the shape is wrong: nothing further can be read
            raise EditionError(source, problems)
        problems = check_consistency(data)
        try:
            edition = cls(data, marks=marks, document=doc)
        except (KeyError, IndexError, TypeError, ValueError):  # a broken reference, reported
            if problems:
                raise EditionError(source, problems) from None
            raise
        if rules_facts:
            problems += facts.check(edition)
        if problems:
            raise EditionError(source, problems)
        return edition

    @classmethod
    def load(cls, path: str | Path, *, rules_facts: bool = True) -> Edition:
        """Read and check an edition file (raises EditionError, with line numbers)."""
        path = Path(path)
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise EditionError(str(path), [Problem("file", None, None, str(exc))]) from None
        return cls.from_text(text, str(path), rules_facts=rules_facts)

    @classmethod
    def from_text(cls, text: str, source: str = "edition", *, rules_facts: bool = True) -> Edition:
        try:
            doc = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise EditionError(source, [Problem("file", None, None, f"not TOML: {exc}")]) from None
        try:
            return cls.from_document(doc, source, rules_facts=rules_facts)
        except EditionError as exc:
            raise EditionError(source, [locate(p, text) for p in exc.problems]) from None

    def derive(
        self, name: str, edits: Iterable[tuple[str, Any]], *, rules_facts: bool = True
    ) -> Edition:
        """A new edition named `name`: this one with `edits` applied, checked like a file.

        Each edit is (path, value) over the file's structure: "setup.hand_limit",
        "setup.seat_bonus[3]", "partners[george_peacock].effect" (an item by id, or by index
        in a list); a field not there yet is added, and None leaves a field out. A marked value
        keeps its mark and takes the new value.
        """
        if self.document is None:
            raise ValueError("this edition has no document to derive from")
        doc = copy.deepcopy(self.document)
        doc["edition"]["name"] = name
        for path, value in edits:
            _set_path(doc, path, copy.deepcopy(value))
        return Edition.from_document(doc, f"edition {name}", rules_facts=rules_facts)

    def value_at(self, path: str) -> Any:
        """The value a derive() path names in this edition's file (a marked value: its value)."""
        if self.document is None:
            raise ValueError("this edition has no document")
        container, key = _slot(self.document, path)
        value: Any = container.get(key) if isinstance(container, dict) else container[key]
        return copy.deepcopy(value["value"] if _is_marked(value) else value)

    # -- lookups the rules use -------------------------------------------------------------

    def gear_cost(self, gear: str) -> dict[str, int]:
        if gear in self.gear_costs:
            return self.gear_costs[gear]
        return self.multiplier[gear]["cost"]

    @staticmethod
    def gear_name(gear: str) -> str:
        return {"add": "Addition Gear", "sub": "Subtraction Gear"}.get(gear, f"Multiplier ({gear})")

    def small_cities_within(self, start: str, n: int) -> list[str]:
        """Small Cities up to n Small Cities away from start (not counting Universities)."""
        reach: set[str] = set()
        frontier = {start}
        for _ in range(n):
            frontier = set().union(*(self._one_small[c] for c in frontier)) - reach
            reach |= frontier
        reach.discard(start)
        return sorted(reach)

    def _neighbours(self) -> dict[str, list[tuple[str, int]]]:
        adj: dict[str, list[tuple[str, int]]] = {c: [] for c in self.city}
        for a, b, kind in self.routes:
            cost = self.route_cost[kind]
            adj[a].append((b, cost))
            adj[b].append((a, cost))
        for links in adj.values():
            links.sort()
        return adj

    def _cheapest_from(self, start: str) -> dict[str, int]:
        """The cheapest £ cost of a journey to every city (you pay for every route used)."""
        best = {start: 0}
        queue = [(0, start)]
        while queue:
            cost, city = heapq.heappop(queue)
            if cost > best[city]:
                continue
            for other, step in self.neighbours[city]:
                if cost + step < best.get(other, 1 << 30):
                    best[other] = cost + step
                    heapq.heappush(queue, (cost + step, other))
        return best

    def _steps_from(self, start: str) -> dict[str, int]:
        """The fewest routes to every city ("the nearest University")."""
        seen = {start: 0}
        queue = deque([start])
        while queue:
            city = queue.popleft()
            for other, _ in self.neighbours[city]:
                if other not in seen:
                    seen[other] = seen[city] + 1
                    queue.append(other)
        return seen

    def _next_small(self, start: str) -> set[str]:
        """Small Cities one Small City away: Universities on the way are skipped over."""
        found: set[str] = set()
        seen = {start}
        queue = deque([start])
        while queue:
            city = queue.popleft()
            for other, _ in self.neighbours[city]:
                if other in seen:
                    continue
                seen.add(other)
                if self.city[other]["kind"] == "small":
                    found.add(other)
                else:
                    queue.append(other)
        found.discard(start)
        return found


def _by_id(items: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {item["id"]: item for item in items}


def _slot(doc: dict[str, Any], path: str) -> tuple[Any, Any]:
    """The container and key a derive() path names (see Edition.derive)."""
    parts = re.findall(r"[^.\[\]]+|\[[^\]]+\]", path)
    if not parts:
        raise ValueError(f"empty edit path {path!r}")
    node: Any = doc
    key_or_index: int | str
    for i, part in enumerate(parts):
        if _is_marked(node) and part != "value":
            node = node["value"]  # a marked value is edited through its mark
        if part.startswith("["):
            key = part[1:-1]
            if not isinstance(node, list):
                raise ValueError(f"{path}: [{key}] indexes something that is not a list")
            if key.isdigit() and int(key) < len(node):
                index = int(key)
            else:
                found = [
                    j for j, x in enumerate(node) if isinstance(x, dict) and x.get("id") == key
                ]
                if not found:
                    raise ValueError(f"{path}: no item {key!r}")
                index = found[0]
            key_or_index = index
        else:
            last = i == len(parts) - 1
            if not isinstance(node, dict) or (part not in node and not last):
                raise ValueError(f"{path}: no {part!r} there")
            key_or_index = part
        if i == len(parts) - 1:
            return node, key_or_index
        node = node[key_or_index]
    raise AssertionError("unreachable")


def _is_marked(value: Any) -> bool:
    return isinstance(value, dict) and "value" in value and "provisional" in value


def _set_path(doc: dict[str, Any], path: str, value: Any) -> None:
    """Set `value` at a derive() path (None: leave the field out, as a file does); a marked
    value keeps its mark."""
    container, key = _slot(doc, path)
    if value is None:
        if isinstance(container, dict):
            container.pop(key, None)
            return
        raise ValueError(f"{path}: None leaves a field out, not an entry of a list")
    if isinstance(container, dict) and _is_marked(container.get(key)):
        container[key]["value"] = value
    else:
        container[key] = value


# ======================================================================================
# The library: the editions this process knows, by name
# ======================================================================================


class EditionLibrary:
    """The edition files of a directory (engine/editions by default), loaded on first use, and
    editions built in memory (`register`, e.g. the balance report's variants).

    index.toml in the directory names the `default` edition for new games and records, under
    [released], the fingerprint of every edition games were played with: loading a released
    edition whose values differ is refused (make a new edition instead of changing one).
    """

    def __init__(self, directory: str | Path = EDITIONS_DIR) -> None:
        self.directory = Path(directory)
        self._lock = threading.Lock()
        self._editions: dict[str, Edition] = {}
        index_path = self.directory / "index.toml"
        try:
            index = tomllib.loads(index_path.read_text(encoding="utf-8"))
        except (OSError, tomllib.TOMLDecodeError) as exc:
            raise EditionError(str(index_path), [Problem("index", None, None, str(exc))]) from None
        self.default: str = index.get("default", FIRST_EDITION)
        self.released: dict[str, str] = dict(index.get("released", {}))

    def names(self) -> list[str]:
        on_disk = {p.stem for p in self.directory.glob("*.toml") if p.stem != "index"}
        return sorted(on_disk | set(self._editions))

    def get(self, name: str) -> Edition:
        """The edition called `name` (raises UnknownEdition, or EditionError if its file is
        not a usable edition)."""
        found = self._editions.get(name)
        if found is not None:
            return found
        with self._lock:
            found = self._editions.get(name)
            if found is not None:
                return found
            path = self.directory / f"{name}.toml"
            if not NAME_PATTERN.match(name) or not path.is_file():
                raise UnknownEdition(name, self.names())
            edition = Edition.load(path)
            if edition.name != name:
                raise EditionError(
                    str(path),
                    [Problem("edition", None, "name", f"is {edition.name!r}, the file {name!r}")],
                )
            self._check_released(edition, str(path))
            self._editions[name] = edition
            return edition

    def register(self, edition: Edition) -> Edition:
        """Make an in-memory edition known by its name (the same name twice must be the same
        values); returns the edition known by that name."""
        with self._lock:
            known = self._editions.get(edition.name)
            if known is None and (self.directory / f"{edition.name}.toml").is_file():
                raise ValueError(f"edition {edition.name!r} is a file of this library")
            if known is not None:
                if known.fingerprint != edition.fingerprint:
                    raise ValueError(f"another edition is already called {edition.name!r}")
                return known
            self._check_released(edition, edition.name)
            self._editions[edition.name] = edition
            return edition

    def _check_released(self, edition: Edition, source: str) -> None:
        recorded = self.released.get(edition.name)
        if recorded is not None and recorded != edition.fingerprint:
            raise EditionError(
                source,
                [
                    Problem(
                        "edition",
                        None,
                        None,
                        f"the values differ from the released edition {edition.name!r} "
                        f"(fingerprint {edition.fingerprint[:16]}..., games were played with "
                        f"{recorded[:16]}...): never change a released edition; copy it to a "
                        "new name instead",
                    )
                ],
            )


_library: EditionLibrary | None = None
_library_lock = threading.Lock()


def library() -> EditionLibrary:
    """This process's editions (engine/editions unless `use_library` chose another)."""
    global _library
    if _library is None:
        with _library_lock:
            if _library is None:
                _library = EditionLibrary()
    return _library


def use_library(lib: EditionLibrary | None) -> EditionLibrary | None:
    """Use another library from now on (None: the default one, loaded afresh); returns the one
    used before. For tests and tools: a process normally keeps the default."""
    global _library
    with _library_lock:
        before, _library = _library, lib
    return before


def edition(name: str) -> Edition:
    """The edition called `name` in this process's library (raises UnknownEdition)."""
    return library().get(name)


def library_problem() -> str | None:
    """Why this process's library of editions can't be read (its index.toml is broken or
    missing), naming the file; None if it can."""
    try:
        library()
    except EditionError as exc:
        return str(exc)
    return None


def edition_problem(name: str | None = None) -> str | None:
    """Why new games can't be set up with the edition `name` (default: the library's default):
    the library's index is broken, or the edition is missing or unusable. The text names files
    (for the operator's log, not for players); None if the edition is usable."""
    try:
        lib = library()
        lib.get(name or lib.default)
    except (EditionError, UnknownEdition) as exc:
        return str(exc)
    return None


def default_edition_name() -> str:
    """The edition new games take unless told otherwise."""
    return library().default
