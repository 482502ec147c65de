"""Rules versions: the rules audit of issue 20 is rules version 2; version 1 games play as before.

Each class is one departure from the rulebook that version 2 fixes. Its tests quote the source
("rulebook" is ../shared/rules/rulebook.en.txt, "actions-turn" actions-turn.en.txt, "Quick
Reference" the rulebook's last page, "summary-faq" summary-faq.es.txt) and check that a game
begun under version 1 (every game stored before versions existed) still plays the old way, so
its recorded choices keep replaying. Positions are built on the standard setup and arranged by
hand, as in tests/test_engine_rules.py.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine import GameSetup, GameState, IllegalChoice, new_game, replay
from engine.common import put_disc, university_prestige
from engine.edition import FIRST_EDITION, edition
from engine.rules import forget_choices, run
from engine.scoring import science_tokens, travel
from engine.versions import LATEST_RULES, RULE_CHANGES, rule
from tests.engine_helpers import choose, fresh, ids, kind
from tests.test_engine_rules import give_card, in_display, put_in_store

ED = edition(FIRST_EDITION)

GOLDEN = Path(__file__).parent / "golden_games"


def play_on(st: GameState, until: str) -> None:
    """Answer the current player's decisions (skip if possible, else the first) until `until`."""
    seat = st.current
    while kind(st) != until:
        assert st.current == seat and not st.over, f"never reached {until}"
        choose(st, "skip" if "skip" in ids(st) else ids(st)[0])


def finish_turn(st: GameState) -> None:
    seat = st.current
    while st.current == seat and not st.over:
        choose(st, "skip" if "skip" in ids(st) else ids(st)[0])


class TestRulesVersion:
    def test_a_new_setup_takes_the_latest_rules(self) -> None:
        assert GameSetup(players=2).rules_version == LATEST_RULES == 3

    def test_a_stored_setup_without_a_version_is_version_1(self) -> None:
        stored = {"players": 2, "seed": 5, "names": ["A", "B"], "max_rounds": 40}
        assert GameSetup.from_dict(stored).rules_version == 1

    def test_version_1_serialises_as_before_versions_existed(self) -> None:
        # A version 1 setup or state writes no rules_version (nor an empty `played` pile), so
        # a stored game's snapshots and digests stay byte for byte what they were.
        setup = GameSetup(players=2, seed=5, rules_version=1)
        assert "rules_version" not in setup.to_dict()
        assert GameSetup.from_dict(setup.to_dict()) == setup
        state = new_game(setup).to_dict()
        assert "rules_version" not in state["setup"]
        assert all("played" not in p for p in state["players"])
        v2 = GameSetup(players=2, seed=5, rules_version=2)
        assert GameSetup.from_dict(json.loads(json.dumps(v2.to_dict()))).rules_version == 2
        v3 = GameSetup(players=2, seed=5)
        assert GameSetup.from_dict(json.loads(json.dumps(v3.to_dict()))).rules_version == 3

    def test_an_unknown_version_is_refused(self) -> None:
        with pytest.raises(ValueError, match="rules version"):
            GameSetup(players=2, rules_version=4)

    def test_every_rule_change_is_on_from_its_version(self) -> None:
        games = {v: fresh(rules_version=v) for v in (1, 2, 3)}
        for name, (since, _) in RULE_CHANGES.items():
            assert [rule(st, name) for st in games.values()] == [v >= since for v in games]
        with pytest.raises(KeyError):
            rule(games[2], "no_such_rule")

    def test_a_stored_version_1_game_replays_identically(self) -> None:
        golden = json.loads((GOLDEN / "game_4p_seed303.json").read_text())
        assert "rules_version" not in golden["setup"]
        st = replay(GameSetup.from_dict(golden["setup"]), golden["choices"])
        assert st.setup.rules_version == 1
        assert st.digest() == golden["final_digest"]

    def test_the_same_choices_mean_another_game_under_version_2(self) -> None:
        # Why versions exist: the version 1 record does not replay under the version 2 rules.
        golden = json.loads((GOLDEN / "game_4p_seed303.json").read_text())
        setup = GameSetup.from_dict({**golden["setup"], "rules_version": 2})
        try:
            st = replay(setup, golden["choices"])
        except IllegalChoice:
            return  # a recorded choice is not even legal under version 2
        assert st.digest() != golden["final_digest"]


class TestObjectivesAtOnce:
    """rulebook, Objectives: "When you complete the Objective you must place a disc on the
    Objective"; Ada's Advice: "placing discs on Objectives creates space on your player board
    for more Gear tiles"."""

    def _study_completing_purple_assignments(self, version: int) -> GameState:
        # Standard setup: the Ada's Study Objective is "2 Assignments in the purple column".
        st = fresh(rules_version=version)
        assert st.objectives[0] == "study_purple_assignments"
        p = st.players[0]
        assert p.discs == 12  # every disc on the board: no Gear space open yet
        p.assignments["P"] = ["design_punched_cards"]
        p.books, p.brass, p.coal = 0, 2, 1
        in_display(st, "assignment", "compute_bernoulli_numbers", 0)
        put_in_store(st, "P4")
        for choice in ("act:0", "mill:4", "prog:0", "line:5", "assignment", "as:0"):
            choose(st, choice)
        return st

    def test_the_freed_gear_space_takes_a_build_the_same_turn(self) -> None:
        st = self._study_completing_purple_assignments(2)
        p = st.players[0]
        assert st.objective_discs[0] == [[0, "high"]] and p.discs == 11
        play_on(st, "publish_or_build")
        assert "build:add" in ids(st)
        choose(st, "build:add")
        choose(st, ids(st)[0])
        assert p.gears.count("add") == 1

    def test_version_1_claims_at_the_end_of_the_turn(self) -> None:
        st = self._study_completing_purple_assignments(1)
        p = st.players[0]
        # the turn ended with no Publish-or-Build decision: no Gear space was open before the
        # Objective took its disc, at the very end
        assert st.current == 1 and p.gears.count(None) == 12
        assert st.objective_discs[0] == [[0, "high"]] and p.discs == 11

    def _mill_colours_then_swapped_away(self, version: int) -> GameState:
        # "Have 1 die of each main action colour in your Mill": the green die completes it,
        # then the Institutions Publish swaps the purple die for a Workshop die.
        st = fresh(rules_version=version)
        st.objectives[0] = "study_mill_colours"
        p = st.players[0]
        p.mill[:3] = ["Y1", "B1", "P1"]
        p.books, p.innovation = 1, 2
        st.bag.extend(d[0] for space in st.workshop for d in space)
        st.workshop = [["Y6"], ["B6"], ["G6"], ["K6"], ["Y5"], ["B5"]]
        put_in_store(st, "G3")
        for choice in ("act:0", "mill:3", "lec:3:2"):  # British Government level 2: £3
            choose(st, choice)
        play_on(st, "publish_or_build")
        for choice in ("publish", "own:m2", "ws:0:0"):
            choose(st, choice)
        assert p.mill[2] == "Y6"
        return st

    def test_an_objective_met_mid_turn_is_claimed_even_if_undone_later(self) -> None:
        st = self._mill_colours_then_swapped_away(2)
        finish_turn(st)
        assert st.objective_discs[0] == [[0, "high"]]

    def test_version_1_missed_it(self) -> None:
        st = self._mill_colours_then_swapped_away(1)
        finish_turn(st)
        assert st.objective_discs[0] == []


class TestStudyCleanup:
    """actions-turn: "After your Study reward — whichever you took — do the same with the
    Assignment display" and "The rightmost Assignment is removed only once per action"."""

    def _level_i_study(self, version: int) -> tuple[GameState, list]:
        st = fresh(rules_version=version)
        p = st.players[0]
        p.research["P"] = ED.research_track["advanced"][0]
        before = list(st.assignment_display)
        put_in_store(st, "P4")
        for choice in ("act:0", "mill:4", "prog:0", "line:5", "book"):
            choose(st, choice)
        assert kind(st) == "study_reward"  # the level I reward
        return st, before

    def test_the_rightmost_assignment_leaves_before_the_advanced_reward(self) -> None:
        st, before = self._level_i_study(2)
        shown = list(st.assignment_display)
        assert before[3] not in shown and shown[1:] == before[:3] and shown[0] is not None
        choose(st, "assignment")
        choose(st, "as:3")  # the card that slid into the rightmost space
        assert st.players[0].assignments and before[2] not in st.assignment_display
        # taken by the advanced reward: the rest slide right and refill, no second removal
        assert st.assignment_display[1:] == [shown[0], before[0], before[1]]

    def test_version_1_cleans_up_after_the_advanced_reward(self) -> None:
        st, before = self._level_i_study(1)
        assert st.assignment_display == before


class TestStudyNeedsAProgram:
    """rulebook: "Select ONE Program tile AND select ONE Study reward" and "You must be able to
    perform the main action to be able to choose that action"."""

    def test_no_study_with_every_program_space_full(self) -> None:
        st = fresh()
        p = st.players[0]
        p.programs = list(st.program_display[:5]) + [st.program_deck[0]]
        put_in_store(st, "P4", "K2")
        assert "act:0" not in ids(st) and "act:1:study" not in ids(st)
        assert "act:1:travel" in ids(st)
        st.program_display = [None] * 5  # nor with the display empty
        p.programs[5] = None
        assert "act:0" not in ids(st)

    def test_version_1_allowed_it(self) -> None:
        st = fresh(rules_version=1)
        p = st.players[0]
        p.programs = list(st.program_display[:5]) + [st.program_deck[0]]
        put_in_store(st, "P4")
        choose(st, "act:0")
        choose(st, "mill:0")
        assert kind(st) == "study_reward"


class TestMeetingsRemoveBeforeDraw:
    """rulebook: "whenever you gain a new Partner card you must immediately remove a Partner
    card from the game"; summary-faq: "No puedes superar este límite en ningún momento"."""

    def _take_leftmost(self, version: int) -> GameState:
        st = fresh(rules_version=version)
        p = st.players[0]
        p.money = 5
        p.deck, p.discard = p.deck[:1], p.deck[1:]  # the draw of 2 must reshuffle
        put_in_store(st, "Y3")
        for choice in ("act:0", "mill:0", "room:0:money", "card:0"):
            choose(st, choice)
        return st

    def test_the_removal_comes_first_and_the_removed_card_is_not_reshuffled(self) -> None:
        st = self._take_leftmost(2)
        p = st.players[0]
        assert kind(st) == "keep_eight" and len(p.supply()) == 9 and len(p.hand) == 5
        gone = p.discard[0]
        choose(st, f"rm:{gone}")
        assert len(p.hand) == 7 and gone not in p.supply() and len(p.supply()) == 8

    def test_version_1_drew_first(self) -> None:
        st = self._take_leftmost(1)
        assert kind(st) == "keep_eight" and len(st.players[0].hand) == 7


class TestTravelStops:
    """actions-turn: "You may not stop for a reward at a University that already holds one of
    your discs"; rulebook: "You must be able to perform the main action"."""

    def _at_bristol_with_a_disc_on_southampton(self, version: int) -> GameState:
        # From Bristol £1 reaches only Southampton (one road).
        st = fresh(rules_version=version)
        p = st.players[0]
        p.city, p.money = "bristol", 1
        st.university_discs["southampton"] = [0]
        p.discs -= 1
        put_in_store(st, "B1", "K2")
        return st

    def test_no_travel_when_the_only_stop_in_reach_holds_your_disc(self) -> None:
        st = self._at_bristol_with_a_disc_on_southampton(2)
        assert "act:0" not in ids(st) and "act:1:travel" not in ids(st)
        st.players[0].money = 2  # Oxford (a rail) comes into reach; Southampton stays out
        forget_choices(st)
        choose(st, "act:0")
        choose(st, "mill:0")
        assert "go:southampton" not in ids(st) and "go:oxford" in ids(st)

    def test_version_1_stopped_for_nothing(self) -> None:
        st = self._at_bristol_with_a_disc_on_southampton(1)
        for choice in ("act:0", "mill:0"):
            choose(st, choice)
        p = st.players[0]  # Southampton was the only stop: taken at once, for nothing
        assert st.university_discs["southampton"] == [0] and p.city == "southampton"
        assert p.money == 0


class TestPublishDiscOnOwnDisc:
    """rulebook, Ada's Study Publish: "place it on top of a disc of your colour"."""

    @pytest.mark.parametrize(("version", "stack"), [(2, [0, 0, 1]), (1, [0, 1, 0])])
    def test_the_disc_goes_right_on_your_own(self, version: int, stack: list[int]) -> None:
        st = fresh(rules_version=version)
        st.university_discs["bristol"] = [0, 1]
        put_disc(st, 0, "uni:bristol", stack=True)
        assert st.university_discs["bristol"] == stack
        base = university_prestige(st, "bristol")
        # each disc scores 2 for every disc above it (your own stacked disc included)
        assert travel(st, 1) == base + (0 if version == 2 else 2)
        assert travel(st, 0) == base + (4 + 2 if version == 2 else 4)


class TestMeetingsDrawIsOptional:
    """rulebook, Meetings advanced level II: "you may draw 2 cards from your deck and then play
    a card from your hand without meeting the normal cost"."""

    def _level_ii_meeting(self, version: int) -> GameState:
        st = fresh(rules_version=version)
        p = st.players[0]
        p.money = 2
        p.research["Y"] = ED.research_track["advanced"][1]
        put_in_store(st, "Y3")
        for choice in ("act:0", "mill:0", "room:3:money"):
            choose(st, choice)
        choose(st, f"rm:{p.hand[0]}")
        return st

    def test_the_draw_may_be_declined(self) -> None:
        st = self._level_ii_meeting(2)
        p = st.players[0]
        assert kind(st) == "may_draw" and ids(st) == ["draw", "skip"]
        hand = len(p.hand)
        choose(st, "skip")
        assert kind(st) == "play_free" and len(p.hand) == hand

    def test_or_taken(self) -> None:
        st = self._level_ii_meeting(2)
        hand = len(st.players[0].hand)
        choose(st, "draw")
        assert len(st.players[0].hand) == hand + 2

    def test_version_1_forced_it(self) -> None:
        st = self._level_ii_meeting(1)
        assert kind(st) == "play_free"


class TestWorkshopAdjustAnyTime:
    """Quick Reference, Workshop action: "Spend 1 Coal to adjust the value of any Workshop die up
    or down by one pip ... These actions can be done at any point during the Workshop turn"."""

    def _brewster_swaps_a_die_in(self, version: int) -> GameState:
        st = fresh(rules_version=version)
        p = st.players[0]
        st.bag.extend(d[0] for d in st.workshop[5] + st.workshop[0])
        st.workshop[5] = ["G5"]
        st.workshop[0] = ["B2", "Y6", "P6"]
        p.coal = 1
        p.mill[0] = "P6"
        give_card(st, 0, "david_brewster")  # needs a 2: swap a die with the Workshop, £2
        for choice in ("ws:5:G5:1", "push:0", "rs:P", "skip", "play:david_brewster"):
            choose(st, choice)
        choose(st, "own:m0")
        choose(st, "ws:0:0")  # the Mill's purple 6 goes into the Workshop for its yellow 6
        assert st.workshop[0][0] == "P6"
        return st

    def test_the_adjust_is_offered_again_after_a_partner_changed_the_workshop(self) -> None:
        st = self._brewster_swaps_a_die_in(2)
        assert kind(st) == "ws_adjust"
        choose(st, "adj:0:0:-")
        assert st.workshop[0][0] == "P5" and st.players[0].coal == 0

    def test_not_again_when_nothing_changed(self) -> None:
        st = fresh()
        st.bag.extend(d[0] for d in st.workshop[5] + st.workshop[0])
        st.workshop[5] = ["G5"]
        st.workshop[0] = ["B3", "Y6", "P6"]
        st.players[0].coal = 1
        for choice in ("ws:5:G5:1", "push:0", "rs:P", "skip"):
            choose(st, choice)
        assert kind(st) != "ws_adjust"

    def test_version_1_offered_it_once(self) -> None:
        st = self._brewster_swaps_a_die_in(1)
        assert kind(st) != "ws_adjust"


class TestScienceTokenSupply:
    """rulebook, Components: "16 Science Scoring tokens (4 in each Science)"; Setup: the
    2-Prestige token on top of the matching 1-Prestige tokens."""

    def test_a_four_way_tie_finds_three_1_point_tokens_in_version_2(self) -> None:
        st = fresh(players=4, rules_version=2)
        st.rooms[0] = [[0], [1], [2], [3]]
        science = st.room_science[0]
        got = [science_tokens(st, seat).get(science) for seat in range(4)]
        # the stack holds three 1-point tokens: turn order from the first player takes them
        assert got == [1, 1, 1, None]
        v1 = fresh(players=4, rules_version=1)
        v1.rooms[0] = [[0], [1], [2], [3]]
        assert [science_tokens(v1, seat).get(science) for seat in range(4)] == [1, 1, 1, 1]

    def test_tokens_taken_by_effects_deplete_the_stack(self) -> None:
        st = fresh(players=4, rules_version=2)
        for seat in (1, 2, 3):
            st.players[seat].science_tokens["astronomy"] = 1  # e.g. Lord Rosse
        st.stack.append({"op": "science_token", "science": "astronomy"})
        run(st)  # seat 0: the stack has no 1-point Astronomy token left
        assert "astronomy" not in st.players[0].science_tokens
        room = st.room_science.index("astronomy")
        st.rooms[room] = [[0], [0], [1], None]
        # the majority still takes the 2-point token; nothing is left for anyone else
        assert science_tokens(st, 0)["astronomy"] == 2
        assert science_tokens(st, 1)["astronomy"] == 1  # the token it already held

    def test_a_majority_returns_the_1_point_token_it_held(self) -> None:
        st = fresh(players=4, rules_version=2)
        st.players[0].science_tokens["physics"] = 1
        st.players[1].science_tokens["physics"] = 1
        room = st.room_science.index("physics")
        st.rooms[room] = [[0], [0], [2], [3]]
        # three 1-point tokens: two held by effects, seat 0's comes back when it takes the 2
        assert [science_tokens(st, s).get("physics") for s in range(4)] == [2, 1, 1, 1]

    def test_version_1_gave_effect_tokens_from_no_stack(self) -> None:
        st = fresh(players=4, rules_version=1)
        for seat in (1, 2, 3):
            st.players[seat].science_tokens["astronomy"] = 1
        st.stack.append({"op": "science_token", "science": "astronomy"})
        run(st)
        assert st.players[0].science_tokens["astronomy"] == 1


class TestMeetingsTieAllGain:
    """rulebook, Science Scoring Tokens (and Scoring, Meeting): "If there is a tie for most
    discs, all tied players gain a 1 Science Scoring token and all other players gain nothing
    from that room" (summary-faq and teach-guide agree). Rules version 3 (issue 31): version 2
    dealt them from the stack of three, so a fourth tied player got nothing."""

    def test_a_four_way_tie_gives_all_four_a_token(self) -> None:
        st = fresh(players=4)
        assert rule(st, "meetings_tie_all_gain")
        st.rooms[0] = [[0], [1], [2], [3]]
        science = st.room_science[0]
        assert [science_tokens(st, seat).get(science) for seat in range(4)] == [1, 1, 1, 1]

    def test_tied_players_gain_even_when_effects_emptied_the_stack(self) -> None:
        st = fresh(players=4)
        for seat in (1, 2, 3):
            st.players[seat].science_tokens["astronomy"] = 1  # the stack's three 1-point tokens
        room = st.room_science.index("astronomy")
        st.rooms[room] = [[0], [1], None, None]
        # seats 0 and 1 tie for most: seat 0 gains one though none is left in the stack
        assert [science_tokens(st, s).get("astronomy") for s in range(4)] == [1, 1, 1, 1]

    def test_the_others_gain_nothing_after_a_tie(self) -> None:
        st = fresh(players=4)
        room = st.room_science.index("physics")
        st.rooms[room] = [[0, 0], [1, 1], [2], None]
        assert [science_tokens(st, s).get("physics") for s in range(4)] == [1, 1, None, None]

    def test_a_sole_majority_still_deals_the_others_from_the_stack(self) -> None:
        st = fresh(players=4)
        for seat in (1, 2):
            st.players[seat].science_tokens["astronomy"] = 1
        room = st.room_science.index("astronomy")
        st.rooms[room] = [[0, 0], [3], None, None]
        # the 2-point token to the majority; seat 3 takes the last 1-point token
        assert [science_tokens(st, s).get("astronomy") for s in range(4)] == [2, 1, 1, 1]
        st.players[3].science_tokens.clear()
        st.players[0].science_tokens["astronomy"] = 1
        # seat 0's token returns when it takes the 2: seat 3 takes that one
        assert science_tokens(st, 3).get("astronomy") == 1


class TestTwoDiscsPerLocation:
    """rulebook, Ada's Study Publish: "You may never have more than two discs in the same
    location"; Serena's example stacks in a Meeting room "to secure the majority". A location is
    a disc space: the Meetings main action itself may put any number of your discs in one room,
    a space at a time."""

    def test_a_room_with_two_single_discs_of_yours_still_takes_a_stacked_one(self) -> None:
        st = fresh()
        st.rooms[1] = [[0], [1], [0], None]
        st.players[0].discs -= 2
        st.players[0].books = 1
        st.stack.append({"op": "stack_disc", "publish": True})
        assert "stack:room:1" in ids(st)
        choose(st, "stack:room:1")
        assert st.rooms[1][0] == [0, 0] and st.rooms[1][2] == [0]

    def test_never_three_on_one_space(self) -> None:
        st = fresh()
        st.rooms[1] = [[0, 0], [1], None, None]
        st.university_discs["bristol"] = [0, 1, 0]
        st.players[0].discs -= 4
        st.lectures["2:4"] = [0]
        st.stack.append({"op": "stack_disc", "publish": True})
        assert ids(st) == ["stack:lec:2:4"]  # Bristol holds two of yours, room 2's space too

    def test_version_1_counted_the_room(self) -> None:
        st = fresh(rules_version=1)
        st.rooms[1] = [[0], [1], [0], None]
        st.university_discs["bristol"] = [0]
        st.players[0].discs -= 3
        st.stack.append({"op": "stack_disc", "publish": True})
        assert ids(st) == ["stack:uni:bristol"]


class TestPlayingACard:
    """rulebook, Workshop turn: "Resolve the effect shown on any played Partner card and discard
    it"; a played card is shown to everyone, so undo may not take it back."""

    def _play_draw_two_with_an_empty_deck(self, version: int) -> GameState:
        st = fresh(rules_version=version)
        p = st.players[0]
        give_card(st, 0, "duncan_gregory")  # Draw 2 cards
        p.hand += p.deck[1:]
        p.discard, p.deck = p.deck[:1], []  # drawing 2 must reshuffle a one-card pile
        st.stack.append({"op": "play_free"})
        run(st)
        choose(st, "play:duncan_gregory")
        return st

    def test_the_effect_resolves_before_the_discard(self) -> None:
        st = self._play_draw_two_with_an_empty_deck(2)
        p = st.players[0]
        assert p.discard == ["duncan_gregory"] and "duncan_gregory" not in p.hand
        assert len(p.supply()) == 8 and not p.deck and not p.played

    def test_version_1_could_draw_the_played_card_back(self) -> None:
        st = self._play_draw_two_with_an_empty_deck(1)
        assert "duncan_gregory" in st.players[0].hand

    @pytest.mark.parametrize("version", [1, 2])
    def test_playing_a_card_ends_the_undo_window(self, version: int) -> None:
        st = fresh(rules_version=version)
        p = st.players[0]
        give_card(st, 0, "william_sturgeon")  # needs a 3 or 4: £2 and 1 Coal, no draw
        st.bag.extend(d[0] for d in st.workshop[5] + st.workshop[0])
        st.workshop[5] = ["G5"]
        st.workshop[0] = ["B3", "Y6", "P6"]
        p.coal = 0
        for choice in ("ws:5:G5:1", "rs:P"):  # without Coal the push of the 3 is automatic
            choose(st, choice)
        assert kind(st) == "partner_play"
        played_at = len(st.history)
        choose(st, "play:william_sturgeon")
        assert st.can_undo() == (version == 1)
        assert (st.undo_floor > played_at) == (version == 2)


class TestNoPointlessDecisions:
    """A decision whose every answer ends in the same position is not asked (version 2;
    bench/bench_decisions.py found these among greedy 4-player games)."""

    def _three_different_research(self, version: int, research: dict[str, int]) -> GameState:
        # e.g. a Lecture reward "Gain 3 Research on different tracks", after the first pick
        st = fresh(rules_version=version)
        st.players[0].research.update(research)
        st.stack.append({"op": "research", "track": "any", "n": 2, "different": True})
        st.stack[-1]["picked"] = ["B"]
        run(st)
        return st

    def test_picks_that_must_take_every_open_track_are_not_asked(self) -> None:
        top = ED.research_track["top"]
        st = self._three_different_research(2, {"P": top, "B": 1, "Y": 0, "G": 0})
        assert st.stack[-1]["op"] != "research"
        assert st.players[0].research == {"P": top, "B": 1, "Y": 1, "G": 1}
        v1 = self._three_different_research(1, {"P": top, "B": 1, "Y": 0, "G": 0})
        assert kind(v1) == "research" and ids(v1) == ["rs:Y", "rs:G"]

    def test_but_asked_when_a_pick_reaches_a_breakthrough(self) -> None:
        # the Breakthrough's reward comes between the two picks: their order may matter
        top, first = ED.research_track["top"], ED.research_track["breakthroughs"][0]
        st = self._three_different_research(2, {"P": top, "B": 1, "Y": first - 1, "G": 0})
        assert kind(st) == "research" and ids(st) == ["rs:Y", "rs:G"]

    def test_and_asked_when_the_picks_leave_a_track_out(self) -> None:
        st = self._three_different_research(2, {"P": 0, "B": 1, "Y": 0, "G": 0})
        assert kind(st) == "research" and ids(st) == ["rs:P", "rs:Y", "rs:G"]
