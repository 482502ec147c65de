"""The engine's texts in a language: prompts, choice labels, log lines, content and game words.

The engine speaks English only, and its log and choice ids are stored forever, so nothing here
changes what it writes. A translation is rebuilt from structured data instead:

- a **choice label** from its template and typed fields, declared once in ``engine/labels.py``
  (read from the choice's typed value, ``engine.choices.parse(kind, id)``, and the state the
  decision is asked in): the catalogs translate the template, ``say_field`` says each field in
  the language, as the engine says them in English;
- a **log line** from its sentence and fields (``engine.sentences.parse``), each field said in the
  language by what it is (a die, an area, resources, a place on the board, a content text);
- a **content text** (card effects, Objectives, Programs, Assignment titles, Institutions) from the
  catalogs by its context and English text (see ``i18n.extract``); people's and cities' names stay.

English gives back the engine's own text untouched (``rebuild=True`` forces the rebuild, for tests).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from engine import choices as C
from engine import labels as L
from engine import sentences
from engine.publish import PUBLISH_TEXT, publish_boxes_disc
from engine.rules import STEPS
from engine.state import Choice, Decision, GameState
from engine.study import STUDY_ITEM_TEXT
from engine.vocabulary import AREA_TITLE, AREAS, COLOUR_AREA, COLOUR_NAMES, LINE_NAMES, TRACK_NAMES
from i18n import N_, NP_, Lang

# -- the game's words --------------------------------------------------------------------------

_COLOUR_OF_NAME = {name: letter for letter, name in COLOUR_NAMES.items()}
_AREA_OF_TITLE = {title: area for area, title in AREA_TITLE.items()}
_TRACK_OF_NAME = {name: colour for colour, name in TRACK_NAMES.items()}
SCIENCES = {
    "mathematics": NP_("science", "Mathematics"),
    "physics": NP_("science", "Physics"),
    "astronomy": NP_("science", "Astronomy"),
    "engineering": NP_("science", "Engineering"),
    "sponsor": NP_("science", "Sponsor"),
}
#: Content contexts of the catalogs: what kind of text of an edition each is.
CONTENT_CONTEXTS = ("effect", "objective", "program", "assignment", "institution")


def die(tr: Lang, code: str) -> str:
    """'Y5' -> 'yellow 5' (colour and pips)."""
    colour = tr.p_("colour", COLOUR_NAMES[code[0]])
    return tr.p_("die", "{colour} {pips}", colour=colour, pips=code[1:])


def colour(tr: Lang, letter: str) -> str:
    return tr.p_("colour", COLOUR_NAMES[letter])


def area(tr: Lang, key: str) -> str:
    """An action area's title: "Ada's Study", "Travel"... ("workshop" too)."""
    return tr.p_("area", AREA_TITLE[key])


def track(tr: Lang, letter: str) -> str:
    """A Research track (or Assignment column) by its colour: named after its area."""
    return area(tr, COLOUR_AREA[letter])


def line(tr: Lang, k: int) -> str:
    return tr.p_("mill line", LINE_NAMES[k])


def science(tr: Lang, name: str | None) -> str:
    return tr.p_("science", SCIENCES.get(name or "sponsor", (name or "").capitalize()))


def gear_space(tr: Lang, pos: int) -> str:
    """A Gear space of the Mill: "row 1, gap 2", "column 3, gap 1"."""
    if pos < 6:
        return tr._("row {row}, gap {gap}", row=pos // 2 + 1, gap=pos % 2 + 1)
    c, g = divmod(pos - 6, 2)
    return tr._("column {column}, gap {gap}", column=c + 1, gap=g + 1)


def where(tr: Lang, place: str) -> str:
    """A die on the player board: "Store slot 2", "Mill row 1 col 3"."""
    i = int(place[1:])
    if place[0] == "s":
        return tr._("Store slot {n}", n=i + 1)
    return tr._("Mill row {row} col {column}", row=i // 3 + 1, column=i % 3 + 1)


def amount(tr: Lang, cost: dict[str, int]) -> str:
    """Resources: "£3, 2 Coal, 1 Book" (engine.common.cost_text writes "1 Book(s)"; said here
    with a real plural)."""
    parts = []
    for kind, n in cost.items():
        if kind == "money":
            parts.append(tr._("£{n}", n=n))
        elif kind == "coal":
            parts.append(tr.n_("{n} Coal", "{n} Coal", n))
        elif kind == "brass":
            parts.append(tr.n_("{n} Brass", "{n} Brass", n))
        elif kind == "books":
            parts.append(tr.n_("{n} Book", "{n} Books", n))
        elif kind == "innovation":
            parts.append(tr.n_("{n} Innovation", "{n} Innovation", n))
        else:
            parts.append(f"{n} {kind}")
    return tr._(", ").join(parts)


def content(tr: Lang, context: str, text: str) -> str:
    """A text of the game's edition (an effect, an Objective...), by its kind and English text."""
    return tr.p_(context, text) if text else text


def institution(tr: Lang, st: GameState, i: int) -> str:
    return content(tr, "institution", str(st.edition.institutions[i]["name"]))


def gear_name(tr: Lang, st: GameState, gear: str) -> str:
    """ "Addition Gear", "Subtraction Gear", or a Multiplier by its build cost."""
    if gear == "add":
        return tr._("Addition Gear")
    if gear == "sub":
        return tr._("Subtraction Gear")
    if tr.code == "en":
        return st.edition.gear_name(gear)
    info = st.edition.multiplier.get(gear)
    cost = amount(tr, info["cost"]) if info else gear
    return tr._("Multiplier Gear ({cost})", cost=cost)


def loc(tr: Lang, st: GameState, place: str) -> str:
    """A disc location of the main board (engine.state): a University, a Meeting room, a
    Lecture space, an Objective."""
    kind, _, rest = place.partition(":")
    if kind == "uni":
        return str(st.edition.city[rest]["name"])
    if kind == "room":
        return tr._("Meeting room {n}", n=int(rest) + 1)
    if kind == "lec":
        i, level = rest.split(":")
        return tr._(
            "{institution}, level {level}", institution=institution(tr, st, int(i)), level=level
        )
    return tr._("the {area} Objective", area=area(tr, AREAS[int(rest)]))


def need(tr: Lang, card: dict[str, Any]) -> str:
    """What playing a Partner card asks of the active die."""
    need = card["need"]
    if need["kind"] == "value":
        values = tr.p_("list", " or ").join(str(v) for v in need["values"])
        return tr._("needs a {values}", values=values)
    return tr._("active die -1") if need["kind"] == "minus1" else tr._("£ = active die")


def partner(tr: Lang, st: GameState, card: str) -> str:
    """A Partner card in full: name, Science, Prestige, requirement and effect (its template:
    engine.labels)."""
    template, fields = L.partner_parts(st, card)
    return tr._(template, **{name: say_field(tr, st, f) for name, f in fields.items()})


def city_reward(tr: Lang, st: GameState, city: str) -> str:
    if city in st.universities:
        text = st.edition.university_tile[st.universities[city]]["text"]
    else:
        text = st.edition.city[city].get("text", "")
    return content(tr, "effect", text)


# -- prompts -----------------------------------------------------------------------------------


#: Prompts the bot says more plainly than the engine (whose words are fixed by its golden games):
#: every prompt says what to choose.
CLEARER_PROMPTS = {
    "choose": NP_("prompt", "Choose the reward you gain."),
}


def prompt(tr: Lang, dec: Decision) -> str:
    """The question of a decision (engine.rules.PROMPTS, or the bot's clearer words)."""
    return tr.p_("prompt", CLEARER_PROMPTS.get(dec.kind, dec.prompt))


# -- choice labels -----------------------------------------------------------------------------

# The engine's fixed label texts, declared once there (a step's Skip label, each area's Publish,
# the Study items) and translated here: i18n.extract takes them from engine_tables.
SKIP = L.SKIP
_SKIPS = {op: kind.decline for op, kind in STEPS.items() if kind.decline}
PUBLISH = PUBLISH_TEXT
#: Ada's Study's Publish with nothing to stack on: said before the click (a player would not
#: expect the disc to leave the game)
PUBLISH_BOXES = N_(
    "no disc of yours on the main board to stack on, so one of your discs leaves the game "
    "instead (no advanced action)"
)
_ITEMS = STUDY_ITEM_TEXT


def label(tr: Lang, st: GameState, dec: Decision, choice: Choice, *, rebuild: bool = False) -> str:
    """A choice of the decision in front of the player, in the language.

    English gives the engine's label (``rebuild=True``: built here, as the other languages are).
    A choice this module cannot say (an id of a newer engine) keeps the engine's label. A few
    choices are said more plainly than the engine says them (``_clearer``)."""
    if tr.code == "en" and not rebuild and dec.kind not in CLEARER_KINDS:
        return choice.label
    try:
        value = dec.parse(choice.id)
        clearer = _clearer(tr, st, value)
        if clearer is not None:
            return clearer
        if tr.code == "en" and not rebuild:
            return choice.label
        return _label(tr, st, dec.kind, value)
    except Exception:
        return choice.label


#: The decisions with a choice said more plainly than the engine says it (``_clearer``).
CLEARER_KINDS = frozenset({"research", "publish_or_build"})


def _clearer(tr: Lang, st: GameState, value: C.ChoiceValue) -> str | None:
    """The label of a choice whose engine label could mislead (issue 28): a Research step says
    the level it goes from and to (the engine's "(now 0)" read as the level after); Ada's Study's
    Publish with no disc to stack on says that a disc leaves the game."""
    match value:
        case C.ResearchTrack(track=t):
            level = st.me.research[t]
            return tr._(
                "+1 Research on {track} (level {level} → {next})",
                track=track(tr, t),
                level=level,
                next=level + 1,
            )
        case C.Publish() if st.ctx.get("area") == "study" and publish_boxes_disc(st):
            return tr._("Publish (1 Book): {text}", text=tr._(PUBLISH_BOXES))
    return None


def labels(tr: Lang, st: GameState, dec: Decision) -> list[str]:
    return [label(tr, st, dec, c) for c in dec.choices]


def say_field(tr: Lang, st: GameState, field: L.Field) -> str:
    """A typed field of a choice label (engine.labels) in the language."""
    match field:
        case L.Die(code):
            return die(tr, code)
        case L.Area(key):
            return area(tr, key)
        case L.Track(letter):
            return track(tr, letter)
        case L.Line(k):
            return line(tr, k)
        case L.Science(name):
            return science(tr, name)
        case L.Place(place):
            return loc(tr, st, place)
        case L.Where(place):
            return where(tr, place)
        case L.GearSpace(pos):
            return gear_space(tr, pos)
        case L.Gear(gear):
            return gear_name(tr, st, gear)
        case L.Amount(cost):
            return amount(tr, cost)
        case L.Content(context, text):
            return content(tr, context, text)
        case L.Partner(card):
            return partner(tr, st, card)
        case L.Need(card):
            return need(tr, st.edition.partner[card])
        case L.Text(text):
            return tr._(text)
    return str(field)  # a number or a name


def _label(tr: Lang, st: GameState, kind: str, value: C.ChoiceValue) -> str:
    """The engine's label of a choice (engine.labels: its template and typed fields), said in
    the language."""
    template, fields = L.parts(st, kind, value, _SKIPS.get(kind))
    said = {name: say_field(tr, st, f) for name, f in fields.items()}
    if template == L.WHOLE:
        return said["text"]
    if isinstance(template, L.Plural):
        n = said.pop("n")
        return tr.n_(template.singular, template.plural, int(n), **said)
    return tr._(template, **said)


# -- log lines ---------------------------------------------------------------------------------

_DIE_TEXT = re.compile(r"(\w+) ([1-6])")
_GEAR_SPACE = re.compile(r"(row|column) (\d+), gap (\d+)")
_AMOUNT = re.compile(r"£(\d+)|(\d+) (Coal|Brass|Book\(s\)|Innovation)")
_AMOUNT_KIND = {"Coal": "coal", "Brass": "brass", "Book(s)": "books", "Innovation": "innovation"}
_ROOM = re.compile(r"Meeting room (\d+)")
_LECTURE = re.compile(r"(.+), level (\d+)")
_OBJECTIVE = re.compile(r"the (.+) Objective")
_MULTIPLIER = re.compile(r"Multiplier \((\w+)\)")


def _die_of(text: str) -> str:
    m = _DIE_TEXT.fullmatch(text)
    assert m is not None, text
    return _COLOUR_OF_NAME[m[1]] + m[2]


def _loc_of(st: GameState, text: str) -> str:
    """The disc location a log line names (engine.common.loc_name, read back)."""
    if m := _ROOM.fullmatch(text):
        return f"room:{int(m[1]) - 1}"
    if m := _OBJECTIVE.fullmatch(text):
        return f"obj:{AREAS.index(_AREA_OF_TITLE[m[1]])}"
    if m := _LECTURE.fullmatch(text):
        names = [str(inst["name"]) for inst in st.edition.institutions]
        if m[1] in names:
            return f"lec:{names.index(m[1])}:{m[2]}"
    cities = {str(info["name"]): c for c, info in st.edition.city.items()}
    if text in cities:
        return f"uni:{cities[text]}"
    raise ValueError(f"not a place: {text!r}")


def _amount_of(text: str) -> dict[str, int]:
    out: dict[str, int] = {}
    for m in _AMOUNT.finditer(text):
        if m[1] is not None:
            out["money"] = int(m[1])
        else:
            out[_AMOUNT_KIND[m[3]]] = int(m[2])
    return out


def _gear_of(text: str) -> str:
    if text == "Addition Gear":
        return "add"
    if text == "Subtraction Gear":
        return "sub"
    m = _MULTIPLIER.fullmatch(text)
    assert m is not None, text
    return m[1]


def _gear_space_of(text: str) -> int:
    m = _GEAR_SPACE.fullmatch(text)
    assert m is not None, text
    a, b = int(m[2]) - 1, int(m[3]) - 1
    return a * 2 + b if m[1] == "row" else 6 + a * 2 + b


def log_fields(tr: Lang, st: GameState, fields: dict[str, str]) -> dict[str, str]:
    """A logged sentence's fields in the language (names and numbers stay as they are)."""
    out: dict[str, str] = {}
    for name, text in fields.items():
        if name in ("die", "die2"):
            out[name] = die(tr, _die_of(text))
        elif name == "area":
            out[name] = area(tr, _AREA_OF_TITLE[text])
        elif name == "track":
            out[name] = track(tr, _TRACK_OF_NAME[text])
        elif name == "line":
            out[name] = line(tr, LINE_NAMES.index(text))
        elif name == "amount":
            out[name] = amount(tr, _amount_of(text))
        elif name == "gear_space":
            out[name] = gear_space(tr, _gear_space_of(text))
        elif name in ("loc", "loc2"):
            out[name] = loc(tr, st, _loc_of(st, text))
        elif name == "gear":
            out[name] = gear_name(tr, st, _gear_of(text))
        elif name in ("bonus", "effect"):
            out[name] = content(tr, "effect", text)
        elif name in ("program", "assignment"):
            out[name] = content(tr, name, text)
        else:  # names (card, city, player) and numbers
            out[name] = text
    return out


@lru_cache(maxsize=8192)
def _parse(text: str) -> tuple[sentences.Sentence, dict[str, str]] | None:
    return sentences.parse(text)


def fake_plural(text: str) -> bool:
    """Whether an engine text says a plural as "(s)" ("1 Book(s)"): its stored words stay (the
    golden digests hold them), what a player reads is rebuilt with the catalog's plurals."""
    return "(s)" in text


def speaker(line_text: str, names: list[str]) -> tuple[int, str] | None:
    """(seat, text) of a log line spoken by a player; longest name first, as one may prefix
    another."""
    for seat in sorted(range(len(names)), key=lambda s: -len(names[s])):
        prefix = f"{names[seat]}: "
        if line_text.startswith(prefix):
            return seat, line_text[len(prefix) :]
    return None


def sentence(
    tr: Lang, st: GameState, text: str, *, template: str | None = None, rebuild: bool = False
) -> str:
    """A logged sentence (without its speaker) in the language; ``template``: another English
    template with the same fields to say it with (a short form). A line no rule writes stays."""
    if tr.code == "en" and not rebuild and template is None and not fake_plural(text):
        return text
    parsed = _parse(text)
    if parsed is None:
        return text
    said, fields = parsed
    try:
        values = log_fields(tr, st, fields)
    except Exception:
        return text
    if template is None:
        return tr.p_("log", said.text, **values)
    return tr._(template, **values)


def log_line(tr: Lang, st: GameState, text: str, *, rebuild: bool = False) -> str:
    """A line of the game's log in the language: "<player>: <sentence>" or a line of no player.
    English gives the engine's line, rebuilt only where it says a plural as "(s)"."""
    if tr.code == "en" and not rebuild and not fake_plural(text):
        return text
    spoken = speaker(text, st.seat_names)
    if spoken is None:
        return sentence(tr, st, text, rebuild=rebuild)
    seat, rest = spoken
    return tr._(
        "{player}: {text}", player=st.seat_names[seat], text=sentence(tr, st, rest, rebuild=rebuild)
    )


# -- the scorepad ------------------------------------------------------------------------------


def category(tr: Lang, name: str) -> str:
    """A scorepad category (engine.scoring.CATEGORIES, and "Total")."""
    return tr.p_("score", name)


def engine_tables() -> dict[str | None, list[Any]]:
    """The engine's texts that the catalogs translate, by context (for i18n.extract; None: the
    choice labels, which have none)."""
    from engine.rules import PROMPTS
    from engine.scoring import CATEGORIES

    return {
        # (a Plural template is a pair: singular and plural)
        None: [SKIP, *_SKIPS.values(), *PUBLISH.values(), *_ITEMS.values(), *L.TEMPLATES],
        "prompt": [p for p in PROMPTS.values() if isinstance(p, str)],
        "log": [s.text for s in sentences.SENTENCES],
        "area": list(AREA_TITLE.values()),
        "colour": list(COLOUR_NAMES.values()),
        "mill line": list(LINE_NAMES),
        "score": [*CATEGORIES, "Total"],
    }
