"""Editions (engine/edition.py): content as versioned data. Loading checks everything and
half-loads nothing; a released edition cannot change; games of two editions live side by side;
a setup records its edition and replays under it."""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import pytest

from engine import GameSetup, GameState, new_game, replay
from engine.__main__ import main as engine_main
from engine.edition import (
    EDITIONS_DIR,
    FIRST_EDITION,
    Edition,
    EditionError,
    EditionLibrary,
    UnknownEdition,
    edition,
    fingerprint_of,
    library,
    use_library,
)
from engine.scoring import score
from render.board import draw_board
from tests.engine_helpers import random_game

ED = edition(FIRST_EDITION)
TEXT = (EDITIONS_DIR / f"{FIRST_EDITION}.toml").read_text(encoding="utf-8")


def variant_text(name: str, *replacements: tuple[str, str]) -> str:
    """designed-1's file renamed `name`, with text replaced (each old text must be there once)."""
    text = TEXT.replace(f'name = "{FIRST_EDITION}"', f'name = "{name}"', 1)
    for old, new in replacements:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    return text


def problems_of(text: str) -> list[str]:
    with pytest.raises(EditionError) as caught:
        Edition.from_text(text, "test.toml")
    return [str(p) for p in caught.value.problems]


@pytest.fixture
def lib(tmp_path: Path):
    """A library of its own (designed-1 and its index), used by the engine for the test."""
    shutil.copy(EDITIONS_DIR / f"{FIRST_EDITION}.toml", tmp_path)
    shutil.copy(EDITIONS_DIR / "index.toml", tmp_path)
    before = use_library(EditionLibrary(tmp_path))
    yield tmp_path
    use_library(before)


class TestTheShippedEditions:
    def test_every_released_edition_loads_with_its_recorded_fingerprint(self):
        shipped = library()
        assert shipped.released, "index.toml records the released editions"
        for name, fingerprint in shipped.released.items():
            assert Edition.load(EDITIONS_DIR / f"{name}.toml").fingerprint == fingerprint

    def test_the_default_edition_is_released(self):
        assert library().default in library().released

    def test_a_setup_without_an_edition_reads_as_the_first_edition(self):
        # every game stored before editions existed was played with designed-1
        stored = {"players": 2, "seed": 5, "names": ["A", "B"]}
        assert GameSetup.from_dict(stored).edition == FIRST_EDITION == "designed-1"
        assert "edition" not in GameSetup.from_dict(stored).to_dict()  # digests unchanged

    def test_a_setup_records_any_other_edition(self, lib):
        (lib / "test-b.toml").write_text(variant_text("test-b"), encoding="utf-8")
        setup = GameSetup(players=2, seed=5, edition="test-b")
        assert setup.to_dict()["edition"] == "test-b"
        assert GameSetup.from_dict(setup.to_dict()).edition == "test-b"

    def test_provisional_marks_and_source_notes_are_kept(self):
        # content-facts.md: designed values are marked so real values can replace them
        store = ED.marks["player_board.store_slots"]
        assert store.provisional and "few" in (store.source or "")
        assert ED.marks["travel.routes"].provisional
        liverpool = ED.city["liverpool"]
        assert liverpool["provisional"] is False and "Anthony" in liverpool["source"]
        assert all(isinstance(p["provisional"], bool) for p in ED.partners)

    def test_the_check_command_passes_the_shipped_edition(self):
        out = io.StringIO()
        assert engine_main(["check-edition", str(EDITIONS_DIR / "designed-1.toml")], out) == 0
        assert "OK, agrees with all" in out.getvalue() and "(released)" in out.getvalue()


class TestFingerprint:
    def test_notes_marks_and_names_are_not_values(self):
        renoted = ED.derive(
            "renoted",
            [
                ("cities[liverpool].source", "a new note"),
                ("partners[george_peacock].provisional", False),
                ("edition.title", "Another title"),
            ],
        )
        assert renoted.fingerprint == ED.fingerprint

    def test_a_changed_value_changes_the_fingerprint(self):
        assert ED.derive("x", [("player_board.store_slots", 5)]).fingerprint != ED.fingerprint
        # a marked value keeps its mark
        assert ED.derive("x", [("player_board.store_slots", 5)]).marks == ED.marks

    def test_the_fingerprint_covers_exactly_the_data(self):
        assert fingerprint_of(ED.data) == ED.fingerprint


class TestBadFiles:
    """content-facts.md and the issue: a bad edition file gets clear errors pointing at the entry,
    and nothing of it is loaded."""

    def test_a_missing_field_is_named_with_its_entry_and_line(self):
        text = variant_text(
            "bad",
            (
                'id = "augustus_de_morgan"\nname = "Augustus De Morgan"\n',
                'id = "augustus_de_morgan"\n',
            ),
        )
        [problem] = problems_of(text)
        line = text.splitlines().index('id = "augustus_de_morgan"') + 1
        assert problem == f'line {line}: partners "augustus_de_morgan".name: missing field'

    def test_a_wrong_count_is_a_contradicted_fact(self):
        start = TEXT.index('id = "charles_wheatstone"')
        card = TEXT[TEXT.rindex("[[partners]]", 0, start) : TEXT.index("[[partners]]", start)]
        [problem] = problems_of(variant_text("bad", (card, "")))
        assert problem.startswith("line ")  # the first Partner's tier: where tiers are written
        assert problem.split(": ", 1)[1] == (
            "partners.tier: 10 tier 1 cards, found 9 (rules: content-facts.md,"
            " Counts: 7 starting Partner cards per player (4 decks), 10 tier 1, 30 tier 2)"
        )

    def test_a_value_contradicting_a_stated_rule_names_the_rule(self):
        problems = problems_of(
            variant_text(
                "bad",
                ("hand_limit = 5", "hand_limit = 6"),
                (
                    'reward = [{ op = "gain", coal = 1, money = 3 }]',
                    'reward = [{ op = "gain", coal = 2, money = 3 }]',
                ),
            )
        )
        assert any("setup.hand_limit: is 6, not 5 (rules: rulebook, Setup" in p for p in problems)
        assert any('cities "liverpool".reward: must be 1 Coal and £3' in p for p in problems)
        assert len(problems) == 2

    def test_a_designed_value_may_change_freely(self):
        # the Store's size is designed (the rules say "a few"): another value is a new edition
        ed = Edition.from_text(
            variant_text("roomy", ("store_slots = { value = 4", "store_slots = { value = 5"))
        )
        assert ed.store_slots == 5 and ed.fingerprint != ED.fingerprint

    @pytest.mark.parametrize(
        ("old", "new", "expected"),
        [
            ("[displays]", "[display]", "display: unknown section (a typo?)"),
            ("supply_size = 8", "supply_sise = 8", "setup.supply_sise: unknown field (a typo?)"),
            ("start_hand = 4", 'start_hand = "four"', "setup.start_hand: expected a whole number"),
            (
                'op = "innovation", n = 1 }]\nprovisional = false',
                'op = "inspire", n = 1 }]\nprovisional = false',
                "unknown op 'inspire'",
            ),
            (
                'bristol = "uni_s_brass"',
                'bristol = "uni_c_steam"',
                "bristol: 'uni_c_steam' is not a southern tile",
            ),
            ("[displays]", "[displays\n", "file: not TOML"),
        ],
    )
    def test_each_kind_of_bad_input_is_reported(self, old, new, expected):
        assert any(expected in p for p in problems_of(variant_text("bad", (old, new))))

    def test_every_problem_is_reported_at_once(self):
        problems = problems_of(
            variant_text(
                "bad", ("hand_limit = 5", "hand_limit = 6"), ("start_hand = 4", "start_hand = 3")
            )
        )
        assert len(problems) == 2

    def test_a_bad_file_in_a_library_is_refused_and_not_kept(self, lib):
        (lib / "bad.toml").write_text(variant_text("bad", ("hand_limit = 5", "hand_limit = 6")))
        for _ in range(2):  # nothing half-loaded: asked again, refused again
            with pytest.raises(EditionError, match="hand_limit"):
                edition("bad")
        assert new_game(GameSetup(players=2, seed=1)).edition.name == FIRST_EDITION

    def test_a_file_must_carry_its_own_name(self, lib):
        (lib / "other.toml").write_text(variant_text("not-other"))
        with pytest.raises(EditionError, match="is 'not-other', the file 'other'"):
            edition("other")

    def test_a_released_edition_whose_values_changed_is_refused(self, lib):
        changed = TEXT.replace("store_slots = { value = 4", "store_slots = { value = 5")
        (lib / f"{FIRST_EDITION}.toml").write_text(changed)
        with pytest.raises(EditionError, match="never change a released edition"):
            edition(FIRST_EDITION)
        out = io.StringIO()
        assert engine_main(["check-edition", str(lib / f"{FIRST_EDITION}.toml")], out) == 1
        assert "is released with other values" in out.getvalue()

    def test_an_unknown_edition_is_named_with_the_known_ones(self, lib):
        with pytest.raises(UnknownEdition, match=r"'designed-9' \(this bot has: designed-1\)"):
            new_game(GameSetup(players=2, seed=1, edition="designed-9"))

    def test_the_check_command_prints_every_problem_and_fails(self, tmp_path):
        bad = tmp_path / "bad.toml"
        bad.write_text(variant_text("bad", ("hand_limit = 5", "hand_limit = 6")))
        out = io.StringIO()
        assert engine_main(["check-edition", str(bad)], out) == 1
        assert f"{bad}: 1 problem" in out.getvalue()
        assert "setup.hand_limit: is 6, not 5" in out.getvalue()


class TestTwoEditionsInOneProcess:
    def test_states_read_their_own_edition(self, lib):
        # edition B: innovation starts at 1 and the Program "dice of values 1 and 2" is worth 11
        (lib / "test-b.toml").write_text(
            variant_text(
                "test-b",
                ("innovation_start = { value = 2", "innovation_start = { value = 1"),
                (
                    'text = "Dice of values 1 and 2"\nprestige = 8',
                    'text = "Dice of values 1 and 2"\nprestige = 11',
                ),
            )
        )
        a = new_game(GameSetup(players=2, seed=4))
        b = new_game(GameSetup(players=2, seed=4, edition="test-b"))
        assert [p.innovation for p in a.players] == [2, 2]
        assert [p.innovation for p in b.players] == [1, 1]
        # the same Mill scores each edition's Program value (scoring caches are per edition)
        for st in (a, b, a, b):
            p = st.players[0]
            p.mill[:3] = ["Y1", "B2", "G1"]
            p.programs[0] = "prog_values_1_2"
        assert score(a, 0)["Programs"] == 8
        assert score(b, 0)["Programs"] == 11
        assert GameState.from_json(b.to_json()).edition is edition("test-b")
        assert a.copy().edition is edition(FIRST_EDITION)

    def test_the_board_is_drawn_from_the_states_edition(self, lib):
        (lib / "test-b.toml").write_text(
            variant_text("test-b", ('name = "Liverpool"', 'name = "Liverpool Docks"'))
        )
        b = new_game(GameSetup(players=2, seed=4, edition="test-b"))
        a = new_game(GameSetup(players=2, seed=4))
        assert "Liverpool Docks" in [t.text for t in draw_board(b).texts]
        assert "Liverpool Docks" not in [t.text for t in draw_board(a).texts]

    def test_a_game_replays_under_the_edition_it_began_with(self, lib):
        st, _ = random_game(3, 17, edition=FIRST_EDITION)
        (lib / "test-b.toml").write_text(
            variant_text(
                "test-b", ("innovation_start = { value = 2", "innovation_start = { value = 1")
            )
        )
        text = (
            (lib / "index.toml").read_text().replace('default = "designed-1"', 'default = "test-b"')
        )
        (lib / "index.toml").write_text(text)
        use_library(EditionLibrary(lib))  # a restart: the default for new games is now test-b
        assert new_game(GameSetup(players=3, seed=17)).edition.name == "test-b"
        again = replay(GameSetup.from_dict(st.setup.to_dict()), st.history)
        assert again.digest() == st.digest() and again.edition.name == FIRST_EDITION
