"""Choice ids as a defined format (engine/choices.py): every legal choice met parses to a typed
value that prints back to the same id, each form is frozen, and bad ids are refused."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator

import pytest
from hypothesis import given
from hypothesis import strategies as hs

from engine import GameSetup, choices, new_game
from engine.choices import DECISION_FORMS, BadChoiceId, ChoiceValue, parse
from engine.edition import FIRST_EDITION, edition
from engine.rules import STEPS, decision, run
from engine.state import Decision, GameState
from engine.vocabulary import AREA_COLOUR, SCIENCES
from tests.engine_helpers import fresh

# Version 1 of the format, form by form. Stored games use these: a change here is a new format
# version, never an edit.
FROZEN_PATTERNS = {
    "Skip": "skip",
    "Done": "done",
    "Pass": "pass",
    "Publish": "publish",
    "AdvanceSteam": "steam",
    "Draw": "draw",
    "WorkshopMove": "ws:{space:int}:{die:die}:{moves:int}",
    "StoreAction": "act:{slot:int}[:{area:area}]",
    "IdleDie": "idle:{slot:int}",
    "PushOut": "push:{index:int}[:{adjust:adjust}]",
    "CoalAdjust": "adj:{space:int}:{index:int}:{delta:sign}",
    "PlayCard": "play:{card:word}",
    "MillSlot": "mill:{slot:int}",
    "ProgramTile": "prog:{slot:int}",
    "ProgramLine": "line:{line:int}",
    "StudyItem": "{item:item}",
    "AssignmentCard": "as:{slot:int}",
    "AssignmentColumn": "col:{colour:colour}",
    "GoTo": "go:{city:word}",
    "AttendRoom": "room:{room:int}:{pay:pay}",
    "DisplayCard": "card:{slot:int}",
    "RemoveCard": "rm:{card:word}",
    "LectureSpace": "lec:{institution:int}:{level:int}",
    "AnalyticalSociety": "low:as",
    "LowerSpace": "low:{institution:int}:{level:int}",
    "MoveDiscHere": "mv:{location:loc}",
    "BuildGear": "build:{gear:word}",
    "GearSpace": "at:{space:int}",
    "StackDisc": "stack:{location:loc}",
    "ChangePip": "pip:{die:own}:{delta:sign}",
    "SwapOwnDie": "own:{die:own}",
    "WorkshopDie": "ws:{space:int}:{index:int}",
    "DiscardCard": "dc:{card:word}",
    "TopBonus": "itop:{bonus:word}",
    "ResearchTrack": "rs:{track:colour}",
    "WorkshopBonus": "wb:{bonus:word}",
    "MultiplierSlot": "mul:{slot:int}",
    "UseDisplayCard": "use:{slot:int}",
    "UpgradeGear": "up:{space:int}",
    "MeetingRoom": "room:{room:int}",
    "University": "uni:{city:word}",
    "MoveDiscFrom": "from:{location:loc}",
    "MoveDiscTo": "to:{location:loc}",
    "RelocateFrom": "from:{city:word}",
    "RelocateTo": "to:{city:word}",
    "AssignmentToken": "at:{colour:colour}",
    "ScienceToken": "sci:{science:science}",
    "AdvancedAction": "adv:{area:area}",
    "Breakthrough": "bt:{track:colour}",
    "AdjustOwnDie": "own:{die:own}:{delta:sign}",
    "AdjustWorkshopDie": "ws:{space:int}:{index:int}:{delta:sign}",
    "Option": "opt:{index:int}",
    "DraftCard": "draft:{card:word}",
}

FORMS = sorted(
    {cls for forms in DECISION_FORMS.values() for cls in forms}, key=lambda c: c.__name__
)


def check_round_trip(kind: str, choice_id: str) -> ChoiceValue:
    value = parse(kind, choice_id)
    assert type(value) in DECISION_FORMS[kind], (kind, choice_id)
    assert value.id == choice_id, (kind, choice_id)  # print(parse(id)) == id
    assert parse(kind, value.id) == value, (kind, choice_id)  # parse(print(x)) == x
    assert type(value).encode(*type(value).decode(choice_id)) == choice_id
    assert choices.read(kind, choice_id) == value  # the engine's fast reader agrees
    return value


Met = list[tuple[str, list[str]]]  # (decision kind, its legal choice ids)


def shown_decisions(versions: tuple[int, ...] = (1, 2)) -> Iterator[tuple[GameState, Decision]]:
    """The decisions of random games (these rules versions, 2-4 players, some with the tier 1
    draft) and of positions built for the kinds random play seldom reaches, each with its state
    (read it before the next: the game plays on)."""
    for version in versions:
        for players in (2, 3, 4):
            for seed in range(6):
                rnd = random.Random(seed)
                setup = GameSetup(
                    players=players, seed=seed, rules_version=version, draft_tier1=seed == 0
                )
                st = new_game(setup)
                while not st.over:
                    dec = decision(st)
                    assert dec is not None
                    yield st, dec
                    st.apply(dec.choices[rnd.randrange(len(dec.choices))].id)
    for st in built_states():
        dec = decision(st)
        assert dec is not None
        yield st, dec


def sampled_decisions() -> Met:
    """The kind and legal choice ids of each of `shown_decisions`."""
    return [(dec.kind, [c.id for c in dec.choices]) for _, dec in shown_decisions()]


def _with_step(step: dict, prepare=lambda st: None) -> GameState:
    st = fresh()
    prepare(st)
    st.stack.append(step)
    run(st)
    return st


def built_states() -> list[GameState]:
    """Decisions random play seldom meets, each set up on a fresh game (standard setup)."""

    def disc_on(city: str, none_left: bool = False):
        def prepare(st: GameState) -> None:
            st.university_discs[city].append(0)
            if none_left:
                st.players[0].discs = 0

        return prepare

    def built_sub(st: GameState) -> None:
        st.players[0].gears[0] = "sub"

    relocate = _with_step({"op": "relocate_university_disc"}, disc_on("bristol"))
    relocate_to = relocate.copy()
    relocate_to.apply(next(c.id for c in relocate.legal_choices() if c.id != "skip"))
    return [
        _with_step({"op": "place_disc", "to": "room:1"}, disc_on("oxford", none_left=True)),
        _with_step({"op": "use_display_partner"}),
        relocate,
        relocate_to,
        _with_step({"op": "advanced"}),
        _with_step({"op": "science_token", "science": "any"}),
        _with_step({"op": "upgrade_subtraction"}, built_sub),
        _with_step({"op": "may_draw", "n": 2}),
    ]


@pytest.fixture(scope="module")
def met() -> Met:
    return sampled_decisions()


class TestRoundTrip:
    def test_every_legal_choice_met_parses_and_prints_back(self, met):
        for kind, ids in met:
            for choice_id in ids:
                check_round_trip(kind, choice_id)
        # every kind of decision was met (the sample is wide enough to mean something)
        assert {kind for kind, _ in met} == set(DECISION_FORMS)

    @pytest.mark.parametrize("cls", FORMS, ids=lambda c: c.__name__)
    def test_every_form_round_trips_on_generated_values(self, cls):
        @given(values_of(cls))
        def prop(value: ChoiceValue) -> None:
            assert type(value).parse(value.id) == value
            for kind, forms in DECISION_FORMS.items():
                if cls in forms:
                    assert check_round_trip(kind, value.id) == value

        prop()

    def test_the_forms_of_a_decision_never_read_one_id_two_ways(self, met):
        for kind, ids in met:
            for choice_id in ids:
                matches = [f for f in DECISION_FORMS[kind] if f._regex.fullmatch(choice_id)]
                assert len(matches) == 1, (kind, choice_id, matches)

    def test_decode_reads_an_id_again_the_same_and_keeps_at_most_10000(self):
        # decode keeps the fields of the ids it read (a dict lookup the next time), up to a bound
        kept = choices.GoTo.decode.__self__  # type: ignore[attr-defined]
        kept.clear()
        for i in range(10_050):
            assert choices.GoTo.decode(f"go:city_{i}") == (f"city_{i}",)
        assert len(kept) == 10_000
        assert choices.GoTo.decode("go:city_10049") == ("city_10049",)  # read anew, not kept
        assert choices.GoTo.decode("go:city_0") is kept["go:city_0"]
        assert choices.WorkshopMove.decode("ws:3:Y5:1") == (3, "Y5", 1)
        assert choices.Skip.decode("skip") == ()
        kept.clear()


_FIELD_VALUES = {
    "int": hs.integers(0, 99),
    "die": hs.sampled_from([f"{c}{v}" for c in "YBGPK" for v in range(1, 7)]),
    "word": hs.from_regex(r"[a-z][a-z0-9_]{0,14}", fullmatch=True),
    "colour": hs.sampled_from("PBYG"),
    "sign": hs.sampled_from([-1, 1]),
    "area": hs.sampled_from(list(AREA_COLOUR)),
    "pay": hs.sampled_from(["money", "innovation"]),
    "science": hs.sampled_from(SCIENCES),
    "item": hs.sampled_from(["book", "gear", "assignment"]),
    "own": hs.sampled_from([f"{w}{i}" for w in "sm" for i in range(9)]),
    "loc": hs.one_of(
        hs.from_regex(r"uni:[a-z][a-z_]{0,10}", fullmatch=True),
        hs.integers(0, 3).map(lambda r: f"room:{r}"),
        hs.tuples(hs.integers(0, 3), hs.integers(2, 6)).map(lambda t: f"lec:{t[0]}:{t[1]}"),
        hs.integers(0, 3).map(lambda a: f"obj:{a}"),
    ),
    "adjust": hs.sampled_from(["-", "+", "M"]),
}


def values_of(cls: type[ChoiceValue]) -> hs.SearchStrategy[ChoiceValue]:
    fields = re.findall(r"\{(\w+):(\w+)\}", cls.PATTERN)
    optional = re.findall(r"\[:\{(\w+):", cls.PATTERN)
    kwargs = {}
    for name, kind in fields:
        values = _FIELD_VALUES[kind]
        kwargs[name] = hs.one_of(hs.none(), values) if name in optional else values
    return hs.builds(cls, **kwargs)


class TestTheFormat:
    def test_version_1_patterns_are_frozen(self):
        assert choices.FORMAT_VERSION == 1
        assert {cls.__name__: cls.PATTERN for cls in FORMS} == FROZEN_PATTERNS

    def test_every_decision_of_the_engine_has_its_forms(self):
        # a decision is a step declared with a choices function (engine.steps, rules.STEPS)
        assert set(DECISION_FORMS) == {op for op, k in STEPS.items() if k.choices is not None}

    def test_the_documented_table_is_the_table(self):
        doc = choices.__doc__ or ""
        table = doc[doc.index("Kinds and their forms") :].split("\n\n", 1)[1]
        documented: dict[str, list[str]] = {}
        for line in table.strip().splitlines():
            kinds, shapes = re.split(r"\s{2,}", line.strip(), maxsplit=1)
            for kind in kinds.split(", "):
                documented[kind] = shapes.split("  ")
        assert set(documented) == set(DECISION_FORMS)
        for kind, forms in DECISION_FORMS.items():
            plain = [re.sub(r":(\w+)\}", "}", f.PATTERN) for f in forms]
            assert [s.strip() for s in documented[kind]] == plain, kind


class TestBadIds:
    @pytest.mark.parametrize(
        ("kind", "text"),
        [
            ("turn", "ws:03:Y5:1"),  # a leading zero would print back differently
            ("turn", "ws:3:X5:1"),  # no colour X
            ("turn", "ws:3:Y7:1"),  # no 7 on a die
            ("turn", "room:2:money"),  # a form of another decision
            ("meet_room", "room:2:gold"),
            ("pips", "pip:s9:+"),  # the Store has no slot 9
            ("assign_column", "col:K"),  # grey is not a column
            ("relocate_to", "to:uni:bristol"),  # relocate names a city, not a location
            ("move_disc_to", "to:bristol"),  # move_disc names a location
            ("ws_push", "push:1:x"),
            ("choose", ""),
            ("science_token", "sci:alchemy"),
        ],
    )
    def test_a_malformed_id_is_refused_with_the_decisions_forms(self, kind, text):
        with pytest.raises(BadChoiceId, match=re.escape(kind)):
            parse(kind, text)

    def test_an_unknown_decision_kind_is_refused(self):
        with pytest.raises(BadChoiceId, match="unknown decision kind 'dance'"):
            parse("dance", "skip")

    def test_a_form_refuses_another_forms_id(self):
        with pytest.raises(BadChoiceId):
            choices.WorkshopDie.parse("ws:1:2:+")
        assert choices.AdjustWorkshopDie.parse("ws:1:2:+").delta == 1


class TestTypedValues:
    def test_the_values_the_discord_layer_groups_by(self):
        # cogs/ui.py groups many choices: by Workshop space, Store die, travel cost, Institution
        assert parse("turn", "ws:3:Y5:1") == choices.WorkshopMove(space=3, die="Y5", moves=1)
        assert parse("turn", "act:0") == choices.StoreAction(slot=0, area=None)
        assert parse("turn", "act:1:study").area == "study"
        assert parse("ws_adjust", "adj:2:0:-") == choices.CoalAdjust(space=2, index=0, delta=-1)
        assert parse("travel_move", "go:bristol").city == "bristol"
        assert parse("lecture", "lec:1:4") == choices.LectureSpace(institution=1, level=4)
        assert parse("lower_space", "low:as") == choices.AnalyticalSociety()
        assert parse("pips", "pip:m4:+") == choices.ChangePip(die="m4", delta=1)

    def test_ids_look_alike_across_kinds_and_parse_by_kind(self):
        assert parse("gear_place", "at:3") == choices.GearSpace(space=3)
        assert parse("assignment_token", "at:P") == choices.AssignmentToken(colour="P")
        assert parse("swap_with", "ws:1:2") == choices.WorkshopDie(space=1, index=2)
        assert parse("adjust_die", "ws:1:2:+") == choices.AdjustWorkshopDie(1, 2, 1)


class TestPlaces:
    """The board places a choice names, for the pictures that mark them (render/focus_areas.py);
    disc locations as engine/state.py describes them."""

    def test_a_disc_location_reads_into_its_parts(self):
        assert choices.Location.parse("uni:leeds") == choices.Location("uni", city="leeds")
        assert choices.Location.parse("room:2") == choices.Location("room", index=2)
        assert choices.Location.parse("lec:1:4") == choices.Location("lec", index=1, level=4)
        assert choices.Location.parse("obj:3") == choices.Location("obj", index=3)

    @pytest.mark.parametrize("text", ["uni:", "room:x", "lec:1", "obj:4", "mv:uni:leeds", ""])
    def test_a_malformed_location_is_refused(self, text):
        with pytest.raises(BadChoiceId):
            choices.Location.parse(text)

    def test_the_places_of_each_kind_of_choice(self):
        def places(kind, choice_id):
            return choices.places(parse(kind, choice_id))

        uni = (choices.Location("uni", city="bath"),)
        assert places("travel_move", "go:bath") == uni
        assert places("university_disc", "uni:bath") == uni
        assert places("relocate_to", "to:bath") == uni
        assert places("place_disc", "mv:uni:bath") == uni
        assert places("meet_room", "room:1:money") == (choices.Location("room", index=1),)
        assert places("move_disc_to", "to:room:1") == (choices.Location("room", index=1),)
        lec = (choices.Location("lec", index=0, level=5),)
        assert places("lecture", "lec:0:5") == lec
        assert places("lower_space", "low:0:5") == lec
        assert places("stack_disc", "stack:lec:0:5") == lec
        assert places("lower_space", "low:as") == ()
        assert places("turn", "ws:3:Y5:1") == ()

    def test_every_place_a_legal_choice_names_is_on_the_board(self, met):
        ed = edition(FIRST_EDITION)
        named = 0
        for kind, ids in met:
            for choice_id in ids:
                for place in choices.places(parse(kind, choice_id)):
                    named += 1
                    if place.kind == "uni":
                        assert place.city in ed.city
                    elif place.kind == "room":
                        assert 0 <= place.index < 4
                    elif place.kind == "lec":
                        assert 0 <= place.index < len(ed.institutions)
                        assert place.level in ed.lecture_levels
        assert named > 50
