"""Reading an edition file: the TOML document's shape and types, into the edition's data.

Every section, field and value is checked here (present, of its type, nothing unknown: a typo is
a problem), designed single values are unwrapped from their marks, and what TOML cannot say is
filled in (a field left out means none; keys of numbered tables become numbers). Problems carry
where they are, with the file's line when it can be found. engine.edition_checks and
engine.facts check the data read; engine.edition builds the Edition from it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine import vocabulary as V

# ======================================================================================
# Problems
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


def locate(problem: Problem, text: str) -> Problem:
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
