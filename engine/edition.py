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
field present and of the right type, nothing unknown), its consistency (ids unique, every reference
known, effects from the engine's vocabulary: engine.vocabulary), and every fact the rules state
about the content (engine.facts). Any problem raises EditionError listing them all, each with
where it is; nothing is half-loaded.

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
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine import vocabulary as V

EDITIONS_DIR = Path(__file__).resolve().parent / "editions"
FIRST_EDITION = "designed-1"
"""The edition every game stored before editions existed was played with: a setup without an
edition reads as this one."""

NAME_PATTERN = re.compile(r"^[a-z0-9][a-z0-9._-]{0,39}$")


# ======================================================================================
# Errors
# ======================================================================================


@dataclass(frozen=True)
class Problem:
    """One thing wrong with an edition, and where: a section, an item in it (id or index), a
    field of that item or section."""

    section: str
    item: str | int | None
    field: str | None
    what: str
    line: int | None = None

    @property
    def where(self) -> str:
        out = self.section
        if isinstance(self.item, int):
            out += f"[{self.item}]"
        elif self.item is not None:
            out += f' "{self.item}"'
        if self.field:
            out += f".{self.field}"
        return out

    def __str__(self) -> str:
        at = f"line {self.line}: " if self.line else ""
        return f"{at}{self.where}: {self.what}"


class EditionError(ValueError):
    """An edition that cannot be used, with every problem found (nothing of it was loaded)."""

    def __init__(self, source: str, problems: list[Problem]) -> None:
        self.source = source
        self.problems = problems
        super().__init__(str(self))

    def __str__(self) -> str:
        n = len(self.problems)
        head = f"{self.source}: {n} problem{'s' if n != 1 else ''}"
        return head + "".join(f"\n  {p}" for p in self.problems)


class UnknownEdition(ValueError):
    """A name no edition of this process answers to (a stored game from a newer bot, a typo)."""

    def __init__(self, name: str, known: Iterable[str]) -> None:
        self.name = name
        self.known = sorted(known)
        super().__init__(
            f"Unknown edition {name!r} (this bot has: {', '.join(self.known) or 'none'})."
        )


# ======================================================================================
# Reading a file: shape and types (every section, field and value)
# ======================================================================================


class _Bad(Exception):
    """A value of the wrong shape (the message says what was expected)."""


def _show(v: Any) -> str:
    text = json.dumps(v, ensure_ascii=False) if not isinstance(v, str) else repr(v)
    return text if len(text) <= 40 else text[:37] + "..."


def _int(v: Any) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise _Bad(f"expected a whole number, got {_show(v)}")
    return v


def _nonneg(v: Any) -> int:
    if _int(v) < 0:
        raise _Bad(f"expected 0 or more, got {v}")
    return v


def _pos(v: Any) -> int:
    if _int(v) < 1:
        raise _Bad(f"expected 1 or more, got {v}")
    return v


def _str(v: Any) -> str:
    if not isinstance(v, str) or not v.strip():
        raise _Bad(f"expected a non-empty text, got {_show(v)}")
    return v


def _bool(v: Any) -> bool:
    if not isinstance(v, bool):
        raise _Bad(f"expected true or false, got {_show(v)}")
    return v


def _number(v: Any) -> float:
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise _Bad(f"expected a number, got {_show(v)}")
    return v


def _list(check: Callable[[Any], Any], size: int | None = None) -> Callable[[Any], list[Any]]:
    def read(v: Any) -> list[Any]:
        if not isinstance(v, list):
            raise _Bad(f"expected a list, got {_show(v)}")
        if size is not None and len(v) != size:
            raise _Bad(f"expected a list of {size}, got {len(v)}")
        out = []
        for i, x in enumerate(v):
            try:
                out.append(check(x))
            except _Bad as exc:
                raise _Bad(f"entry {i}: {exc}") from None
        return out

    return read


def _table(check: Callable[[Any], Any]) -> Callable[[Any], dict[str, Any]]:
    def read(v: Any) -> dict[str, Any]:
        if not isinstance(v, dict):
            raise _Bad(f"expected a table, got {_show(v)}")
        out = {}
        for k, x in v.items():
            try:
                out[k] = check(x)
            except _Bad as exc:
                raise _Bad(f"{k}: {exc}") from None
        return out

    return read


def _by_number(check: Callable[[Any], Any]) -> Callable[[Any], dict[int, Any]]:
    """A table keyed by whole numbers (TOML keys are text: `{ 2 = 1, 3 = 1 }`)."""

    def read(v: Any) -> dict[int, Any]:
        table = _table(check)(v)
        bad = [k for k in table if not k.isdigit()]
        if bad:
            raise _Bad(f"keys must be whole numbers, got {_show(bad[0])}")
        return {int(k): x for k, x in table.items()}

    return read


def _effect(v: Any) -> list[dict[str, Any]]:
    """A list of steps `{ op = ..., ... }` (the ops and their arguments: see _check_effect)."""
    steps = _list(_table(lambda x: x))(v)
    for i, step in enumerate(steps):
        if not isinstance(step.get("op"), str):
            raise _Bad(f"step {i} has no op")
        if step["op"] == "choose":
            options = step.get("options")
            if not isinstance(options, list):
                raise _Bad(f"step {i}: choose needs a list of options")
            for j, option in enumerate(options):
                if not isinstance(option, dict) or set(option) != {"label", "effect"}:
                    raise _Bad(f"step {i}: option {j} needs exactly a label and an effect")
                _str(option["label"])
                _effect(option["effect"])
    return steps


def _xy(v: Any) -> list[float]:
    return _list(_number, 2)(v)


def _route(v: Any) -> list[str]:
    return _list(_str, 3)(v)


def _need(v: Any) -> dict[str, Any]:
    need = _table(lambda x: x)(v)
    if need.get("kind") == "value":
        _list(_int)(need.get("values"))
    return need


def _tier(v: Any) -> str | int:
    if v not in ("S", 1, 2) or isinstance(v, bool):
        raise _Bad(f'expected "S", 1 or 2, got {_show(v)}')
    return v


def _kind_table(v: Any) -> dict[str, Any]:
    table = _table(lambda x: x)(v)
    _str(table.get("kind"))
    return table


# A field of a section or an item: how to read it, and whether it may be left out.
REQUIRED, NULLABLE, OPTIONAL = "required", "nullable", "optional"


@dataclass(frozen=True)
class F:
    read: Callable[[Any], Any]
    presence: str = REQUIRED  # NULLABLE: left out means None; OPTIONAL: left out is left out
    markable: bool = False  # may be written { value = ..., provisional = true, source = "..." }


MARKS = {"provisional": F(_bool), "source": F(_str, OPTIONAL)}

SECTIONS: dict[str, dict[str, F]] = {
    "edition": {"name": F(_str), "title": F(_str, OPTIONAL), "about": F(_str, OPTIONAL)},
    "components": {
        k: F(_nonneg, markable=True)
        for k in (
            "dice",
            "program_tiles",
            "assignment_cards",
            "objective_tiles",
            "breakthrough_tokens",
            "university_tiles",
            "tier1_partners",
            "tier2_partners",
            "starting_partners_per_player",
            "addition_gears",
            "subtraction_gears",
            "multiplier_gears",
            "assignment_scoring_tokens",
            "science_scoring_tokens",
            "books",
            "coal",
            "brass",
            "discs_per_player",
            "research_tokens_per_player",
        )
    },
    "dice": {
        "per_colour": F(_pos, markable=True),
        "removed_per_colour": F(_by_number(_nonneg), markable=True),
    },
    "setup": {
        "player_colours": F(_list(_str), markable=True),
        "start_city": F(_str, markable=True),
        "start_resources": F(_table(_nonneg), markable=True),
        "seat_bonus": F(_list(_table(_nonneg)), markable=True),
        "start_hand": F(_nonneg, markable=True),
        "supply_size": F(_pos, markable=True),
        "hand_limit": F(_pos, markable=True),
        "tier1_deck_after_deal": F(_nonneg, markable=True),
        "start_gears": F(_list(_str), markable=True),
        "innovation_start": F(_nonneg, markable=True),
        "steam_start": F(_nonneg, markable=True),
    },
    "displays": {
        k: F(_pos, markable=True) for k in ("programs", "assignments", "partners", "multipliers")
    },
    "player_board": {"store_slots": F(_pos, markable=True)},
    "innovation": {
        "max": F(_pos, markable=True),
        "prestige": F(_by_number(_int), markable=True),
        "top_spend": F(_pos, markable=True),
    },
    "research": {
        "track": F(_table(lambda x: x), markable=True),
        "assignment_token_stack": F(_list(_pos), markable=True),
        "science_token_stack": F(_list(_pos), markable=True),
    },
    "gears": {
        "costs": F(_table(_table(_pos)), markable=True),
        "addition": F(_nonneg, markable=True),
        "subtraction": F(_nonneg, markable=True),
        "missing_penalty": F(_nonneg, markable=True),
    },
    "workshop": {
        "spaces": F(_pos, markable=True),
        "dice_per_space": F(_pos, markable=True),
        "standard_order": F(_list(_str), markable=True),
        "bonuses": F(_table(lambda x: x)),  # read as items below
    },
    "travel": {
        "route_cost": F(_table(_nonneg), markable=True),
        "routes": F(_list(_route), markable=True),
    },
    "lectures": {
        "levels": F(_list(_int), markable=True),
        "costs": F(_by_number(_nonneg), markable=True),
        "majority": F(_by_number(_nonneg), markable=True),
    },
    "analytical_society": {"text": F(_str), "effect": F(_effect), **MARKS},
    "standard_setup": {
        "science_rooms": F(_list(_str)),
        "workshop_order": F(_list(_str)),
        "breakthroughs": F(_table(_str)),
        "objectives": F(_table(_str)),
        "universities": F(_table(_str)),
        **MARKS,
    },
}

_ID = {"id": F(_str)}
COLLECTIONS: dict[str, dict[str, F]] = {
    "steam_track": {"cap": F(_nonneg), "coal": F(_nonneg), **MARKS},
    "program_spaces": {"line": F(_str), "text": F(_str), "effect": F(_effect), **MARKS},
    "multipliers": {**_ID, "cost": F(_table(_pos)), **MARKS},
    "cities": {
        **_ID,
        "name": F(_str),
        "kind": F(_str),
        "region": F(_str, NULLABLE),
        "xy": F(_xy),
        "reward": F(_effect, NULLABLE),
        "text": F(_str),
        "prestige": F(_int, OPTIONAL),
        **MARKS,
    },
    "university_tiles": {
        **_ID,
        "region": F(_str),
        "prestige": F(_int),
        "reward": F(_effect),
        "text": F(_str),
        **MARKS,
    },
    "meeting_rooms": {
        "money": F(_nonneg),
        "innovation": F(_nonneg),
        "draw": F(_nonneg),
        "capacity": F(_pos),
        **MARKS,
    },
    "institutions": {**_ID, "name": F(_str), "spaces": F(_list(lambda x: x)), **MARKS},
    "breakthroughs": {**_ID, "text": F(_str), "effect": F(_effect), **MARKS},
    "objectives": {
        **_ID,
        "area": F(_str),
        "side": F(_str),
        "high": F(_int),
        "low": F(_int),
        "text": F(_str),
        "condition": F(_kind_table),
        **MARKS,
    },
    "programs": {
        **_ID,
        "text": F(_str),
        "prestige": F(_int),
        "criteria": F(_kind_table),
        **MARKS,
    },
    "assignments": {
        **_ID,
        "name": F(_str),
        "colours": F(_list(_str)),
        "discard": F(_nonneg),
        "text": F(_str),
        "effect": F(_effect),
        **MARKS,
    },
    "partners": {
        **_ID,
        "name": F(_str),
        "tier": F(_tier),
        "deck": F(_str, NULLABLE),
        "science": F(_str, NULLABLE),
        "prestige": F(_int),
        "need": F(_need),
        "text": F(_str),
        "effect": F(_effect),
        **MARKS,
    },
}
WORKSHOP_BONUS = {"text": F(_str), "effect": F(_effect), "provisional": F(_bool, OPTIONAL)}
LECTURE_SPACE = {"level": F(_int), "text": F(_str), "effect": F(_effect), **MARKS}


@dataclass(frozen=True)
class Mark:
    """A designed single value's provenance (items carry theirs as fields)."""

    provisional: bool
    source: str | None


class _Reader:
    """Reads a parsed TOML document into the edition's data, collecting every problem."""

    def __init__(self) -> None:
        self.problems: list[Problem] = []
        self.marks: dict[str, Mark] = {}

    def fail(self, section: str, item: str | int | None, field: str | None, what: str) -> None:
        self.problems.append(Problem(section, item, field, what))

    def fields(
        self,
        raw: Any,
        spec: dict[str, F],
        section: str,
        item: str | int | None = None,
        *,
        mark_prefix: str | None = None,
    ) -> dict[str, Any]:
        """Read a table field by field, in `spec`'s order (unknown fields are problems)."""
        out: dict[str, Any] = {}
        if not isinstance(raw, dict):
            self.fail(section, item, None, f"expected a table, got {_show(raw)}")
            return out
        if isinstance(raw.get("id"), str) and "id" in spec:
            item = raw["id"]  # name an item by its id where it has one
        for name in raw:
            if name not in spec:
                self.fail(section, item, name, "unknown field (a typo?)")
        for name, f in spec.items():
            if name not in raw:
                if f.presence == REQUIRED:
                    self.fail(section, item, name, "missing field")
                elif f.presence == NULLABLE:
                    out[name] = None
                continue
            value = raw[name]
            if f.markable and isinstance(value, dict) and "value" in value:
                value = self.unmark(value, section, name, mark_prefix)
                if value is _MISSING:
                    continue
            try:
                out[name] = f.read(value)
            except _Bad as exc:
                self.fail(section, item, name, str(exc))
        return out

    def unmark(self, value: dict[str, Any], section: str, name: str, prefix: str | None) -> Any:
        extra = set(value) - {"value", "provisional", "source"}
        if extra or not isinstance(value.get("provisional"), bool):
            self.fail(
                section,
                None,
                name,
                'a marked value is { value = ..., provisional = true|false, source = "..." }',
            )
            return _MISSING
        source = value.get("source")
        if source is not None and not isinstance(source, str):
            self.fail(section, None, name, "source must be a text")
        self.marks[f"{prefix or section}.{name}"] = Mark(value["provisional"], source)
        return value["value"]

    def items(self, raw: Any, section: str, spec: dict[str, F]) -> list[dict[str, Any]]:
        if not isinstance(raw, list):
            self.fail(section, None, None, "expected a list of [[" + section + "]] tables")
            return []
        return [self.fields(x, spec, section, i) for i, x in enumerate(raw)]


_MISSING: Any = object()


def read_document(doc: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Mark], list[Problem]]:
    """The edition data of a parsed TOML document, its marks, and the problems found."""
    r = _Reader()
    data: dict[str, Any] = {}
    known = set(SECTIONS) | set(COLLECTIONS)
    for name in doc:
        if name not in known:
            r.fail(name, None, None, "unknown section (a typo?)")
    for name, spec in SECTIONS.items():
        if name not in doc:
            r.fail(name, None, None, "missing section")
            continue
        data[name] = r.fields(doc[name], spec, name)
    for name, spec in COLLECTIONS.items():
        if name not in doc:
            r.fail(name, None, None, "missing section")
            continue
        data[name] = r.items(doc[name], name, spec)

    bonuses = data.get("workshop", {}).get("bonuses")
    if isinstance(bonuses, dict):
        data["workshop"]["bonuses"] = {
            bid: r.fields(b, WORKSHOP_BONUS, "workshop.bonuses", bid) for bid, b in bonuses.items()
        }
    track = data.get("research", {}).get("track")
    if isinstance(track, dict):
        data["research"]["track"] = r.fields(
            track,
            {"top": F(_pos), "advanced": F(_list(_pos, 2)), "breakthroughs": F(_list(_pos))},
            "research",
            None,
        )
    for inst in data.get("institutions", []):
        spaces = inst.get("spaces")
        if isinstance(spaces, list):
            table: dict[int, dict[str, Any]] = {}
            for j, raw in enumerate(spaces):
                space = r.fields(raw, LECTURE_SPACE, "institutions", inst.get("id"))
                level = space.pop("level", None)
                if level in table:
                    r.fail("institutions", inst.get("id"), f"spaces[{j}]", f"level {level} twice")
                table[level] = space  # type: ignore[index]
            inst["spaces"] = table
    for obj in data.get("objectives", []):
        cond = obj.get("condition")
        if isinstance(cond, dict) and cond.get("kind") in V.OBJECTIVE_CONDITION_KINDS:
            for arg in V.OBJECTIVE_CONDITION_KINDS[cond["kind"]][1]:
                cond.setdefault(arg, None)  # left out: any
    return data, r.marks, r.problems


# ======================================================================================
# Consistency: ids, references and the engine's vocabulary
# ======================================================================================


class _Checks:
    def __init__(self) -> None:
        self.problems: list[Problem] = []

    def need(self, ok: Any, section: str, item: str | int | None, field: str | None, what: str):
        if not ok:
            self.problems.append(Problem(section, item, field, what))
        return bool(ok)

    def effect(self, effect: Any, section: str, item: Any, field: str) -> None:
        if not self.need(
            isinstance(effect, list) and effect, section, item, field, "an empty effect"
        ):
            return
        for i, step in enumerate(effect):
            where = f"{field}[{i}]"
            op = step["op"]
            if not self.need(op in V.EFFECT_OPS, section, item, where, f"unknown op {op!r}"):
                continue
            required, optional = V.EFFECT_OPS[op]
            keys = set(step) - {"op"}
            self.need(
                required <= keys, section, item, where, f"{op} misses {sorted(required - keys)}"
            )
            self.need(
                keys <= required | optional,
                section,
                item,
                where,
                f"{op} does not take {sorted(keys - required - optional)}",
            )
            if op in ("gain", "pay"):
                self.need(keys, section, item, where, f"{op} needs at least one resource")
                for k in keys & set(V.RESOURCES):
                    v = step[k]
                    self.need(
                        type(v) is int and v > 0,
                        section,
                        item,
                        where,
                        f"{op} {k} must be 1 or more",
                    )
            for key in ("n", "max"):
                if key in step:
                    self.need(
                        type(step[key]) is int,
                        section,
                        item,
                        where,
                        f"{op} {key} must be a whole number",
                    )
            if op in ("per_hand", "per_disc"):
                gain = step.get("gain")
                self.need(
                    isinstance(gain, dict) and gain and set(gain) <= set(V.RESOURCES),
                    section,
                    item,
                    where,
                    f"{op} gain must name resources",
                )
            if op == "research":
                self.need(
                    step.get("track") == "any" or step.get("track") in V.COLOURS_MAIN,
                    section,
                    item,
                    where,
                    "research track must be any, P, B, Y or G",
                )
            if op in ("research", "workshop_bonus", "study_item", "breakthrough"):
                self.need(
                    isinstance(step.get("different"), bool),
                    section,
                    item,
                    where,
                    f"{op} different must be true or false",
                )
            if op == "gain_gear":
                self.need(step.get("gear") in V.GEAR_KINDS, section, item, where, "gear add|sub")
            if op == "build_free":
                self.need(step.get("gear") == "add", section, item, where, "build_free gear add")
            if op == "move_small":
                self.need(step.get("max") in (1, 2), section, item, where, "move_small max 1|2")
            if op == "science_token":
                self.need(
                    step.get("science") == "any" or step.get("science") in V.SCIENCES,
                    section,
                    item,
                    where,
                    "science_token science must be any or a Science",
                )
            if op == "steam":
                self.need(isinstance(step.get("free"), bool), section, item, where, "steam free")
            if op == "choose":
                options = step.get("options") or []
                self.need(len(options) >= 2, section, item, where, "choose needs 2 options")
                for j, option in enumerate(options):
                    self.effect(option["effect"], section, item, f"{where}.options[{j}]")

    def unique(self, items: list[dict[str, Any]], section: str) -> set[str]:
        seen: set[str] = set()
        for i, it in enumerate(items):
            iid = it.get("id")
            if not isinstance(iid, str):
                continue
            self.need(iid not in seen, section, iid, "id", "the same id twice")
            self.need(
                re.fullmatch(r"[a-z0-9_]+", iid), section, i, "id", "ids are lower_snake_case"
            )
            seen.add(iid)
        return seen

    def args(
        self, kinds: dict[str, Any], cond: dict[str, Any], section: str, item: Any, field: str
    ):
        kind = cond.get("kind")
        if not self.need(kind in kinds, section, item, field, f"unknown kind {kind!r}"):
            return
        spec = kinds[kind]
        required, optional = spec if isinstance(spec, tuple) else (spec, frozenset())
        got = set(cond) - {"kind"}
        self.need(
            required <= got and got <= required | optional,
            section,
            item,
            field,
            f"{kind} takes {sorted(required | optional)}, got {sorted(got)}",
        )


def check_consistency(d: dict[str, Any]) -> list[Problem]:
    """Ids, references and vocabulary (what engine/content.py's validate() checked)."""
    c = _Checks()
    ws = d["workshop"]
    c.need(
        set(ws["bonuses"]) == set(ws["standard_order"]),
        "workshop",
        None,
        "standard_order",
        "must list every bonus once",
    )
    c.need(
        len(ws["standard_order"]) == len(set(ws["standard_order"])),
        "workshop",
        None,
        "standard_order",
        "lists a bonus twice",
    )
    c.need(
        len(ws["standard_order"]) == ws["spaces"],
        "workshop",
        None,
        "standard_order",
        "needs one bonus per Workshop space",
    )
    for bid, bonus in ws["bonuses"].items():
        c.effect(bonus["effect"], "workshop.bonuses", bid, "effect")

    setup = d["setup"]
    c.need(
        0 <= setup["steam_start"] < len(d["steam_track"]),
        "setup",
        None,
        "steam_start",
        "is not a level of steam_track",
    )
    caps = [level["cap"] for level in d["steam_track"]]
    c.need(
        caps == sorted(set(caps)),
        "steam_track",
        None,
        "cap",
        "caps must rise from level to level",
    )
    inn = d["innovation"]
    c.need(
        0 <= setup["innovation_start"] <= inn["max"],
        "setup",
        None,
        "innovation_start",
        "is off the Innovation track",
    )
    c.need(
        all(0 <= k <= inn["max"] for k in inn["prestige"]),
        "innovation",
        None,
        "prestige",
        "names a space off the track",
    )
    track = d["research"]["track"]
    if track:
        top = track["top"]
        first, second = track["advanced"]
        c.need(0 < first < second < top, "research", None, "track", "0 < level I < level II < top")
        c.need(
            all(0 < b < top for b in track["breakthroughs"]),
            "research",
            None,
            "track",
            "Breakthroughs must lie between 0 and the top",
        )
    for name in ("player_colours", "start_gears"):
        c.need(setup[name], "setup", None, name, "must not be empty")
    c.need(
        set(setup["start_gears"]) <= set(V.GEAR_KINDS),
        "setup",
        None,
        "start_gears",
        "add or sub only",
    )
    c.need(
        set(setup["start_resources"]) <= set(V.RESOURCES),
        "setup",
        None,
        "start_resources",
        f"resources are {', '.join(V.RESOURCES)}",
    )
    c.need(len(setup["seat_bonus"]) == 4, "setup", None, "seat_bonus", "one per seat (4)")
    c.need(
        all(set(b) <= set(V.RESOURCES) for b in setup["seat_bonus"]),
        "setup",
        None,
        "seat_bonus",
        f"resources are {', '.join(V.RESOURCES)}",
    )
    c.need(len(setup["player_colours"]) == 4, "setup", None, "player_colours", "4 colours")
    c.need(
        set(d["dice"]["removed_per_colour"]) == {2, 3, 4},
        "dice",
        None,
        "removed_per_colour",
        "one entry per player count 2, 3, 4",
    )
    c.need(
        set(d["gears"]["costs"]) == set(V.GEAR_KINDS),
        "gears",
        None,
        "costs",
        "the costs of add and sub",
    )

    lines = [s.get("line") for s in d["program_spaces"]]
    c.need(
        sorted(lines) == sorted(V.MILL_LINES),
        "program_spaces",
        None,
        "line",
        f"one space per Mill line ({', '.join(V.MILL_LINES)})",
    )
    for i, space in enumerate(d["program_spaces"]):
        c.effect(space["effect"], "program_spaces", i, "effect")

    mult_ids = c.unique(d["multipliers"], "multipliers")
    c.need(not mult_ids & set(V.GEAR_KINDS), "multipliers", None, "id", "add and sub are taken")
    for m in d["multipliers"]:
        c.need(
            m["cost"] and set(m["cost"]) <= set(V.RESOURCES) | {"innovation"},
            "multipliers",
            m["id"],
            "cost",
            "resources or innovation",
        )

    city_ids = c.unique(d["cities"], "cities")
    for city in d["cities"]:
        cid = city["id"]
        kind_ok = c.need(
            city["kind"] in ("small", "university"), "cities", cid, "kind", "small or university"
        )
        x, y = city["xy"]
        c.need(0 <= x <= 1 and 0 <= y <= 1, "cities", cid, "xy", "must lie in 0..1")
        if not kind_ok:
            continue
        if city["kind"] == "small":
            c.need(city["region"] is None, "cities", cid, "region", "a Small City has none")
            if c.need(city["reward"] is not None, "cities", cid, "reward", "missing"):
                c.effect(city["reward"], "cities", cid, "reward")
        elif c.need(city["region"] in V.REGIONS, "cities", cid, "region", f"one of {V.REGIONS}"):
            if city["region"] == "scottish":
                if c.need(city["reward"] is not None, "cities", cid, "reward", "missing"):
                    c.effect(city["reward"], "cities", cid, "reward")
                c.need("prestige" in city, "cities", cid, "prestige", "missing")
            else:
                c.need(city["reward"] is None, "cities", cid, "reward", "comes from its tile")
                c.need("prestige" not in city, "cities", cid, "prestige", "comes from its tile")
    pairs = set()
    for i, route in enumerate(d["travel"]["routes"]):
        a, b, kind = route
        c.need(
            a in city_ids and b in city_ids and a != b,
            "travel",
            None,
            f"routes[{i}]",
            f"{a}-{b}: unknown city",
        )
        c.need(
            kind in d["travel"]["route_cost"],
            "travel",
            None,
            f"routes[{i}]",
            f"{a}-{b}: unknown route kind {kind!r}",
        )
        c.need(frozenset((a, b)) not in pairs, "travel", None, f"routes[{i}]", f"{a}-{b} twice")
        pairs.add(frozenset((a, b)))
    c.need(setup["start_city"] in city_ids, "setup", None, "start_city", "unknown city")
    c.need(
        set(d["travel"]["route_cost"]) <= set(V.ROUTE_KINDS),
        "travel",
        None,
        "route_cost",
        f"route kinds are {', '.join(V.ROUTE_KINDS)}",
    )

    tile_ids = c.unique(d["university_tiles"], "university_tiles")
    for tile in d["university_tiles"]:
        c.need(
            tile["region"] in ("southern", "central"),
            "university_tiles",
            tile["id"],
            "region",
            "southern or central",
        )
        c.effect(tile["reward"], "university_tiles", tile["id"], "reward")

    c.unique(d["institutions"], "institutions")
    levels = d["lectures"]["levels"]
    for inst in d["institutions"]:
        c.need(
            sorted(inst["spaces"]) == sorted(levels),
            "institutions",
            inst["id"],
            "spaces",
            f"one space per Lecture level {levels}",
        )
        for level, space in inst["spaces"].items():
            c.effect(space["effect"], "institutions", inst["id"], f"spaces[level {level}].effect")
    for name in ("costs", "majority"):
        c.need(
            set(d["lectures"][name]) == set(levels),
            "lectures",
            None,
            name,
            "one entry per Lecture level",
        )
    c.effect(d["analytical_society"]["effect"], "analytical_society", None, "effect")

    for i, room in enumerate(d["meeting_rooms"]):
        c.need(room["draw"] >= 0, "meeting_rooms", i, "draw", "0 or more")

    bt_ids = c.unique(d["breakthroughs"], "breakthroughs")
    for bt in d["breakthroughs"]:
        c.effect(bt["effect"], "breakthroughs", bt["id"], "effect")

    obj_ids = c.unique(d["objectives"], "objectives")
    for obj in d["objectives"]:
        oid = obj["id"]
        c.need(obj["area"] in V.AREA_COLOURS, "objectives", oid, "area", "an action area")
        c.need(obj["side"] in ("A", "B"), "objectives", oid, "side", "A or B")
        c.need(obj["high"] > obj["low"] > 0, "objectives", oid, "high", "high > low > 0")
        cond = obj["condition"]
        c.args(V.OBJECTIVE_CONDITION_KINDS, cond, "objectives", oid, "condition")
        kind = cond.get("kind")
        if kind == "universities_visited":
            c.need(
                all(x in city_ids and x != setup["start_city"] for x in cond.get("cities", [])),
                "objectives",
                oid,
                "condition",
                "names an unknown city (or the start)",
            )
        if kind == "university_count":
            c.need(
                cond.get("region") in (None, *V.REGIONS),
                "objectives",
                oid,
                "condition",
                "unknown region",
            )
        if kind == "assignments_in_column":
            c.need(
                cond.get("colour") in V.COLOURS_MAIN,
                "objectives",
                oid,
                "condition",
                "unknown colour",
            )
        if kind == "science_cards":
            c.need(
                cond.get("science") in V.SCIENCES,
                "objectives",
                oid,
                "condition",
                "unknown Science",
            )

    c.unique(d["programs"], "programs")
    for prog in d["programs"]:
        crit = prog["criteria"]
        c.args(V.PROGRAM_CRITERIA_KINDS, crit, "programs", prog["id"], "criteria")
        if crit.get("kind") == "colour_count":
            c.need(
                crit.get("colour") in V.DIE_COLOURS,
                "programs",
                prog["id"],
                "criteria",
                "unknown die colour",
            )

    c.unique(d["assignments"], "assignments")
    for asg in d["assignments"]:
        aid = asg["id"]
        c.need(
            len(asg["colours"]) <= 2 and set(asg["colours"]) <= set(V.COLOURS_MAIN),
            "assignments",
            aid,
            "colours",
            "up to 2 of P, B, Y, G",
        )
        c.need(asg["discard"] in (0, 1, 2), "assignments", aid, "discard", "0, 1 or 2")
        c.effect(asg["effect"], "assignments", aid, "effect")

    c.unique(d["partners"], "partners")
    for card in d["partners"]:
        pid = card["id"]
        starting = card["tier"] == "S"
        c.need(
            (card["deck"] in setup["player_colours"]) == starting,
            "partners",
            pid,
            "deck",
            "starting cards (tier S) name their deck's player colour; no other card has one",
        )
        c.need(
            card["science"] is None or card["science"] in V.SCIENCES,
            "partners",
            pid,
            "science",
            f"one of {', '.join(V.SCIENCES)} (leave it out for a sponsor)",
        )
        need = card["need"]
        if c.need(need.get("kind") in V.NEED_KINDS, "partners", pid, "need", "unknown kind"):
            if need["kind"] == "value":
                c.need(
                    need.get("values") and set(need["values"]) <= set(range(1, 7)),
                    "partners",
                    pid,
                    "need",
                    "values are die faces 1-6",
                )
            else:
                c.need(set(need) == {"kind"}, "partners", pid, "need", "takes no values")
        c.effect(card["effect"], "partners", pid, "effect")

    std = d["standard_setup"]
    tile_spaces = {x["id"] for x in d["cities"] if x["region"] in ("southern", "central")}
    c.need(
        set(std["universities"]) == tile_spaces,
        "standard_setup",
        None,
        "universities",
        "must give every southern and central University a tile",
    )
    c.need(
        len(set(std["universities"].values())) == len(std["universities"]),
        "standard_setup",
        None,
        "universities",
        "uses a tile twice",
    )
    region_of = {x["id"]: x["region"] for x in d["cities"]}
    tile_region = {t["id"]: t["region"] for t in d["university_tiles"]}
    for cid, tid in std["universities"].items():
        c.need(
            tid in tile_ids and tile_region.get(tid) == region_of.get(cid),
            "standard_setup",
            None,
            "universities",
            f"{cid}: {tid!r} is not a {region_of.get(cid)} tile",
        )
    c.need(
        set(std["objectives"]) == set(V.AREA_COLOURS),
        "standard_setup",
        None,
        "objectives",
        "one per action area",
    )
    area_of = {o["id"]: o["area"] for o in d["objectives"]}
    for area, oid in std["objectives"].items():
        c.need(
            oid in obj_ids and area_of.get(oid) == area,
            "standard_setup",
            None,
            "objectives",
            f"{area}: {oid!r} is not an Objective of that area",
        )
    c.need(
        set(std["breakthroughs"]) == set(V.COLOURS_MAIN)
        and set(std["breakthroughs"].values()) <= bt_ids
        and len(set(std["breakthroughs"].values())) == 4,
        "standard_setup",
        None,
        "breakthroughs",
        "four different Breakthrough tokens, one per track P, B, Y, G",
    )
    c.need(
        sorted(std["science_rooms"]) == sorted(V.SCIENCES),
        "standard_setup",
        None,
        "science_rooms",
        "each Science once",
    )
    c.need(
        sorted(std["workshop_order"]) == sorted(ws["bonuses"]),
        "standard_setup",
        None,
        "workshop_order",
        "each Workshop bonus once",
    )
    return c.problems


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
        "lecture_majority",
        "lecture_spaces",
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
        self.lecture_majority = lectures["majority"]
        self.analytical_society = data["analytical_society"]
        self.institutions = data["institutions"]
        self.lecture_spaces = [
            (f"{i}:{lvl}", i, lvl)
            for i in range(len(self.institutions))
            for lvl in sorted(self.lecture_levels)
        ]

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
            raise EditionError(source, [_locate(p, text) for p in exc.problems]) from None

    def derive(
        self, name: str, edits: Iterable[tuple[str, Any]], *, rules_facts: bool = True
    ) -> Edition:
        """A new edition named `name`: this one with `edits` applied, checked like a file.

        Each edit is (path, value) over the file's structure: "setup.hand_limit",
        "setup.seat_bonus[3]", "partners[george_peacock].effect" (an item by id, or by index
        in a list). A marked value keeps its mark and takes the new value.
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
        value = container[key]
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
    for i, part in enumerate(parts):
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
            container, key_or_index = node, index
        else:
            if not isinstance(node, dict) or part not in node:
                raise ValueError(f"{path}: no {part!r} there")
            container, key_or_index = node, part
        if i == len(parts) - 1:
            return container, key_or_index
        node = container[key_or_index]
    raise AssertionError("unreachable")


def _is_marked(value: Any) -> bool:
    return isinstance(value, dict) and "value" in value and "provisional" in value


def _set_path(doc: dict[str, Any], path: str, value: Any) -> None:
    """Set `value` at a derive() path; a marked value keeps its mark."""
    container, key = _slot(doc, path)
    if _is_marked(container[key]):
        container[key]["value"] = value
    else:
        container[key] = value


def _locate(problem: Problem, text: str) -> Problem:
    """The problem with the line of the file it is about, when that can be found."""
    lines = text.splitlines()
    header = None
    section_line = None
    count = -1
    found = None
    want_item = problem.item
    for n, raw in enumerate(lines, 1):
        line = raw.strip()
        if line.startswith("["):
            name = line.strip("[]").strip()
            header = name
            if line == f"[[{problem.section}]]":
                count += 1
                section_line = section_line or n
                if isinstance(want_item, int) and count == want_item:
                    found = n
            elif name == problem.section and section_line is None:
                section_line = n
            continue
        base = problem.section.split(".")[0]
        if isinstance(want_item, str) and header is not None and header.startswith(base):
            if re.fullmatch(rf'id\s*=\s*"{re.escape(want_item)}"', line):
                found = n
        if want_item is None and header == problem.section and problem.field:
            field = problem.field.split("[")[0].split(".")[0]
            if re.match(rf"{re.escape(field)}\s*=", line):
                found = n
        if found:
            break
    line_no = found or section_line
    if line_no is None:
        return problem
    return Problem(problem.section, problem.item, problem.field, problem.what, line_no)


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


def default_edition_name() -> str:
    """The edition new games take unless told otherwise."""
    return library().default
