"""The rulebook's worked examples and rules text, one test class per concept.

Each test names its source: "rulebook" is ../shared/rules/rulebook.en.txt, "actions-turn" is
actions-turn.en.txt. Positions are built on the standard setup and then arranged by hand.
"""

from __future__ import annotations

from engine import GameState
from engine import vocabulary as V
from engine.common import lecture_cost, put_disc, university_prestige
from engine.edition import FIRST_EDITION, edition
from engine.institutions import choices_lecture
from engine.mill import evaluate, line_value
from engine.rules import forget_choices, run
from engine.scoring import lectures, leftovers, lines, meetings, ranking, science_tokens
from tests.engine_helpers import choose, fresh, ids, kind

ED = edition(FIRST_EDITION)


def put_in_store(st: GameState, *dice: str) -> None:
    for i, die in enumerate(dice):
        st.players[st.current].store[i] = die


def _piles(st: GameState, name: str) -> list[list]:
    piles = [getattr(st, f"{name}_deck"), getattr(st, f"{name}_display")]
    if name == "partner":
        piles += [pile for p in st.players for pile in (p.deck, p.hand, p.discard)]
    return piles


def _swap(st: GameState, name: str, card: str, pile: list, index: int) -> None:
    """Put `card` at pile[index]; whatever was there takes the card's old place."""
    for other in _piles(st, name):
        if card in other:
            other[other.index(card)] = pile[index]
            break
    pile[index] = card


def in_display(st: GameState, name: str, card: str, slot: int = 0) -> None:
    """Put a card into a display slot; the card that was there takes its old place."""
    _swap(st, name, card, getattr(st, f"{name}_display"), slot)


def give_card(st: GameState, seat: int, card: str) -> None:
    """Put a Partner card in a player's hand in place of one of their hand cards."""
    _swap(st, "partner", card, st.players[seat].hand, 0)


class TestCompletedLines:
    def test_sequential_evaluation(self) -> None:
        # rulebook, Key reminders: "2+3x5 = 25, not 17".
        assert evaluate([2, 3, 5], ["+", "x"]) == 25

    def test_anthony_completed_lines_74_with_steam_cap(self) -> None:
        # rulebook, Completed Lines Example: 30 (32 capped) + 8 + 6 + 30 = 74.
        st = fresh()
        p = st.players[0]
        mult = ED.multipliers[0]["id"]
        p.mill = ["B5", "Y3", "G4", "P5", "Y4", "K1", "G5", "B2", "P3"]
        gears: list[str | None] = [None] * 12
        gears[0:6] = ["add", mult, "add", "sub", "sub", "add"]
        gears[6:8] = [mult, "add"]  # left column: 5 x 5 + 5
        p.gears = gears
        p.steam = next(i for i, lvl in enumerate(ED.steam_track) if lvl["cap"] == 30)
        assert [line_value(p.mill, p.gears, k) for k in range(6)] == [32, 8, 6, 30, None, None]
        assert lines(st, 0) == 74


class TestInstitutionCosts:
    def test_first_lecture_costs(self) -> None:
        # rulebook, Institution Cost Example: 1, 2, 4, 6 for levels 2-5; level 6 is out of reach.
        st = fresh()
        assert [lecture_cost(st, 0, lvl) for lvl in range(2, 7)] == [1, 2, 4, 6, 9]
        st.players[0].innovation = 6
        assert not any(i.endswith(":6") for i in choices_lecture(st, {}))

    def test_costs_after_a_level_3_disc(self) -> None:
        # rulebook, Cost Example, later turn: 1, 1, 2, 4 and 7 for level 6.
        st = fresh()
        st.lectures["2:3"] = [0]
        assert [lecture_cost(st, 0, lvl) for lvl in range(2, 7)] == [1, 1, 2, 4, 7]

    def test_ketan_level_6_over_a_level_4_disc_costs_5(self) -> None:
        # rulebook, Ketan Institution example: a disc on level 4, level 6 costs 5 Innovation.
        st = fresh()
        st.lectures["1:4"] = [0]
        assert lecture_cost(st, 0, 6) == 5

    def test_a_disc_in_any_column_counts(self) -> None:
        # rulebook: "When checking a level for a disc, all columns are checked."
        st = fresh()
        st.lectures["3:2"] = [0]
        assert lecture_cost(st, 0, 3) == 1
        st.lectures["0:5"] = [1]  # someone else's disc does not help
        assert lecture_cost(st, 0, 5) == 2 + 2 + 1


class TestMeetings:
    def test_room_costs_in_money_or_innovation(self) -> None:
        # rulebook/actions-turn: £5 or 3, £4 or 2, £3 or 2, £2 or 1.
        st = fresh()
        p = st.players[0]
        p.money, p.innovation = 5, 3
        put_in_store(st, "Y3")
        choose(st, "act:0")
        choose(st, "mill:0")
        assert kind(st) == "meet_room"
        assert ids(st) == [f"room:{r}:{how}" for r in range(4) for how in ("money", "innovation")]
        p.money, p.innovation = 3, 1
        forget_choices(st)  # arranged by hand since the choices were listed
        assert ids(st) == ["room:2:money", "room:3:money", "room:3:innovation"]

    def test_card_slots_and_draw_counts(self) -> None:
        # actions-turn: room 1 may take any of the 4 cards, room 4 only the one below it;
        # "(then remove a card from your hand or discard pile so you keep eight), draw the
        # number of cards shown below the card slot you took it from (2, 1, 1 and 0)".
        for room, slot, draws in ((0, 0, 2), (0, 1, 1), (1, 2, 1), (3, 3, 0)):
            st = fresh()
            p = st.players[0]
            p.money = 5
            put_in_store(st, "Y3")
            choose(st, "act:0")
            choose(st, "mill:0")
            hand_before = len(p.hand)
            taken = st.partner_display[slot]
            choose(st, f"room:{room}:money")
            if room < 3:
                assert ids(st) == [f"card:{s}" for s in range(room, 4)]
                choose(st, f"card:{slot}")
            # (room 4 may take only the card below it: the engine takes it at once)
            assert kind(st) == "keep_eight"
            assert len(p.hand) == hand_before + 1  # the removal comes before the draw
            assert taken in p.hand
            choose(st, f"rm:{p.hand[0]}")  # the discard pile is empty at the start
            assert len(p.hand) == hand_before + draws
            assert p.money == 5 - ED.meeting_rooms[room]["money"]
            assert st.rooms[room][0] == [0]

    def test_rightmost_card_leaves_and_display_slides(self) -> None:
        # rulebook: remove the rightmost card, slide the rest right, refill from the left.
        st = fresh()
        p = st.players[0]
        p.money = 5
        before = list(st.partner_display)
        put_in_store(st, "Y3")
        for choice in ("act:0", "mill:0", "room:0:money", "card:0"):
            choose(st, choice)
        choose(st, ids(st)[0])  # keep eight
        assert st.partner_display[2:] == [before[1], before[2]]
        assert before[3] not in st.partner_display and before[3] not in st.partner_deck

    def test_isobel_meetings_example(self) -> None:
        # rulebook, Isobel Meetings example: grey 4, £5 for the leftmost room, draw 2 (the deck
        # runs out and the discard pile is shuffled), remove Menabrea, level II: draw 2 and play
        # Caroline Herschel free to build an Addition Gear; then Publish for a Multiplier Gear.
        # The example narrates the draw before the removal; the rule ("you must immediately
        # remove a Partner card") and summary-faq (never more than eight) put the removal first,
        # as rules version 2 does, and the level II draw is optional ("you may draw 2 cards").
        st = fresh()
        p = st.players[0]
        give_card(st, 0, "luigi_menabrea")
        in_display(st, "partner", "caroline_herschel", 0)
        p.deck, p.discard = p.deck[:1], p.deck[1:] + p.discard
        p.money = 5
        p.research["Y"] = ED.research_track["advanced"][1]
        put_in_store(st, "K4")
        for choice in ("act:0:meetings", "mill:4", "room:0:money", "card:0"):
            choose(st, choice)
        assert "caroline_herschel" in p.hand and p.money == 0
        choose(st, "rm:luigi_menabrea")
        assert "luigi_menabrea" not in p.supply()
        assert len(p.supply()) == 8
        choose(st, "draw")  # level II: she draws 2 more
        choose(st, "play:caroline_herschel")
        assert kind(st) == "gear_place"
        choose(st, ids(st)[0])
        assert p.gears.count("add") == 1
        multiplier = st.multiplier_display[0]
        choose(st, "publish")
        if kind(st) == "take_multiplier":
            choose(st, "mul:0")
        assert multiplier in p.gear_supply and p.books == 0


class TestScienceTokens:
    def test_majority_takes_the_2_token_others_the_1(self) -> None:
        # rulebook, Final Scoring - Meeting.
        st = fresh(players=3)
        st.rooms[0] = [[0], [0], [1], None]
        assert science_tokens(st, 0)[st.room_science[0]] == 2
        assert science_tokens(st, 1)[st.room_science[0]] == 1
        assert st.room_science[0] not in science_tokens(st, 2)

    def test_a_tie_gives_the_tied_a_1_token_and_others_nothing(self) -> None:
        # rulebook: "If there is a tie for most discs, all tied players gain a 1 Science
        # Scoring token and all other players gain nothing from that room."
        st = fresh(players=3)
        st.rooms[1] = [[0], [1], [2], [0]]
        st.rooms[1][2] = [1]
        st.rooms[1] = [[0], [1], [0], [1]]
        st.rooms[2] = [[2], None, None, None]
        science = st.room_science[1]
        assert science_tokens(st, 0)[science] == 1
        assert science_tokens(st, 1)[science] == 1
        assert science not in science_tokens(st, 2)

    def test_tokens_score_per_partner_of_that_science(self) -> None:
        # rulebook: Prestige equal to the token's value for each Partner card of that Science.
        st = fresh()
        st.rooms[0] = [[0], None, None, None]
        science = st.room_science[0]
        p = st.players[0]
        same = sum(1 for c in p.supply() if _science(c) == science)
        assert meetings(st, 0) == 2 * same


def _science(card: str) -> str | None:

    return ED.partner[card]["science"]


class TestLectureMajorities:
    def test_a_tie_halves_the_prestige(self) -> None:
        # rulebook, Final Scoring - Lecture: tied players earn half; Isobel's example: 4 for
        # a tie at level 6 (worth 8).
        st = fresh()
        st.lectures = {"0:6": [0], "1:6": [1], "2:5": [0]}
        assert lectures(st, 0) == 4 + 6
        assert lectures(st, 1) == 4

    def test_stacked_discs_count(self) -> None:
        # rulebook, Serena's Publish example: a stacked disc breaks a tie.
        st = fresh()
        st.lectures = {"2:4": [0, 0], "3:4": [1]}
        assert lectures(st, 0) == 4 and lectures(st, 1) == 0


class TestLeftovers:
    def test_books_and_every_ten_resources(self) -> None:
        # rulebook, Example Scoring: no Books and £7 + 4 Coal + 3 Brass = 14 -> 1 Prestige.
        st = fresh()
        p = st.players[0]
        p.books, p.money, p.coal, p.brass = 0, 7, 4, 3
        assert leftovers(st, 0) == 1
        p.books = 2
        assert leftovers(st, 0) == 3


class TestWorkshopTurn:
    def _ketan(self) -> GameState:
        # The Workshop space with the research bonus is space 0 on the standard board and the
        # Partner-card bonus is space 5: the green 5 moves from 5 to 0.
        st = fresh()
        assert st.workshop_bonus[0] == "research" and st.workshop_bonus[5] == "cards"
        st.bag.extend(d[0] for d in st.workshop[5] + st.workshop[0])
        st.workshop[5] = ["G5"]
        st.workshop[0] = ["B3", "Y6", "P6"]
        st.players[0].coal = 1
        return st

    def test_ketan_workshop_example(self) -> None:
        # rulebook, Ketan Workshop example: move the green 5 one space, spend 1 Coal to reduce
        # the blue 3 to 2 and push it onto the research bonus (purple); the emptied space is
        # refilled with 3 dice and gives 2 Partner cards; the die goes to the Store.
        st = self._ketan()
        p = st.players[0]
        hand, bag = len(p.hand), len(st.bag)
        choose(st, "ws:5:G5:1")
        assert kind(st) == "ws_push"
        choose(st, "push:0:-")
        assert kind(st) == "research"
        choose(st, "rs:P")
        assert p.research["P"] == 1
        assert p.coal == 0
        assert len(st.workshop[5]) == 3 and len(st.bag) == bag - 3
        assert p.store[0] == "B2"
        assert len(p.hand) == hand + 2
        assert st.workshop[0] == ["Y6", "P6", "G5"]

    def test_ketan_advanced_example(self) -> None:
        # rulebook, Ketan advanced example: Augustus de Morgan (needs a 2) gives 1 Innovation
        # and a Study item: Visit Textile Factory (1 blue Research and 1 Coal); the blue die
        # then triggers the blue Assignment for 1 more blue Research, reaching a Breakthrough
        # that gives 1 more Innovation.
        st = self._ketan()
        p = st.players[0]
        give_card(st, 0, "augustus_de_morgan")
        in_display(st, "assignment", "visit_textile_factory", 1)
        breakthrough = ED.research_track["breakthroughs"][0]
        p.research["B"] = breakthrough - 2
        assert st.breakthroughs["B"] == "bt_innovation"
        innovation = p.innovation
        for choice in ("ws:5:G5:1", "push:0:-", "rs:P"):
            choose(st, choice)
        choose(st, "play:augustus_de_morgan")
        choose(st, "assignment")
        choose(st, "as:1")
        assert p.assignments["B"] == ["visit_textile_factory"]
        assert p.research["B"] == breakthrough
        assert p.innovation == innovation + 2
        assert p.coal == 1

    def test_a_die_must_be_able_to_push(self) -> None:
        # rulebook: "You may not choose and move a die such that no die is able to be pushed."
        st = fresh()
        st.bag.extend(d[0] for space in st.workshop for d in space)
        st.workshop = [["Y1"], ["B2", "B2"], ["G6"], ["P6"], ["K6"], ["Y6"]]
        st.players[0].coal = 0
        assert ids(st) == ["ws:2:G6:1", "ws:3:P6:1", "ws:4:K6:1", "ws:5:Y6:1"]
        st.players[0].coal = 1  # with Coal a die may go two spaces, or adjust to push
        forget_choices(st)
        assert "ws:0:Y1:1" in ids(st)  # 1 Coal lowers a 2 to 1 (or raises the 1 to 2)
        assert "ws:1:B2:2" not in ids(st)  # the Coal went on the extra move: no adjust left
        assert "ws:1:B2:1" not in ids(st) and "ws:2:G6:2" in ids(st)

    def test_no_workshop_turn_with_a_full_store(self) -> None:
        # rulebook: "If you do not have an empty space in your Store, you may not take this type."
        st = fresh()
        put_in_store(st, "Y1", "Y1", "Y1", "Y1")
        assert all(not i.startswith("ws:") for i in ids(st))

    def test_grey_dice_trigger_no_assignments(self) -> None:
        # rulebook: "Grey dice do not activate Assignment cards."
        st = self._ketan()
        st.workshop[0] = ["K3", "Y6", "P6"]
        p = st.players[0]
        p.assignments["G"] = ["visit_textile_factory"]
        before = dict(p.research)
        for choice in ("ws:5:G5:1", "push:0", "rs:P"):
            choose(st, choice)
        assert p.research == {**before, "P": before["P"] + 1}


class TestTravel:
    def test_anthony_travel_example(self) -> None:
        # rulebook, Anthony Travel example: Oxford to Manchester costs £6; a disc on the
        # University, gain an Addition Gear and build one free; level I: move free to the next
        # Small City, Liverpool, for 1 Coal and £3.
        st = fresh()
        p = st.players[0]
        p.city, p.money, p.coal = "oxford", 6, 0
        p.research["B"] = ED.research_track["advanced"][0]
        put_in_store(st, "B1")
        choose(st, "act:0")
        choose(st, "mill:0")
        choose(st, "go:manchester")
        assert p.money == 0 and st.university_discs["manchester"] == [0]
        assert kind(st) == "gear_place"
        choose(st, ids(st)[0])
        assert p.gears.count("add") == 1 and p.gear_supply.count("add") == 1
        choose(st, "go:liverpool")
        assert p.city == "liverpool" and p.coal == 1 and p.money == 3

    def test_no_stop_at_a_university_that_holds_your_disc(self) -> None:
        # rulebook: "You may not place a disc on nor gain any rewards from a University tile
        # which already contains one of your discs"; actions-turn: "You may not stop for a
        # reward at a University that already holds one of your discs."
        st = fresh()
        p = st.players[0]
        p.city, p.money = "oxford", 10
        st.university_discs["manchester"] = [0]
        p.discs -= 1
        put_in_store(st, "B1")
        choose(st, "act:0")
        choose(st, "mill:0")
        assert "go:manchester" not in ids(st)
        assert "go:liverpool" in ids(st)  # reached through Manchester or not, it may be a stop

    def test_discs_stack_on_top_and_score_2_per_disc_above(self) -> None:
        # rulebook, Travel: "place your disc on top ... 2 Prestige for each disc on top of it".
        from engine.scoring import travel

        st = fresh(players=3)
        st.university_discs["bristol"] = [0, 1, 2]
        prestige = university_prestige(st, "bristol")
        assert travel(st, 0) == prestige + 4
        assert travel(st, 2) == prestige


class TestAdasStudy:
    def test_serena_study_example(self) -> None:
        # rulebook, Serena Study example: purple 4; the "dice of values 3 and 4" Program on the
        # 2 Research space; an Addition Gear; level I: also a Book; build the Addition Gear for
        # 2 Brass and 1 Coal.
        st = fresh()
        p = st.players[0]
        in_display(st, "program", "prog_values_3_4", 1)
        rightmost = st.program_display[4]
        p.research["P"] = ED.research_track["advanced"][0]
        p.brass, p.coal, p.books = 2, 1, 0
        p.discs -= 1
        st.university_discs["bristol"].append(0)
        put_in_store(st, "P4")
        for choice in ("act:0", "mill:4", "prog:1"):
            choose(st, choice)
        assert rightmost not in st.program_display  # removed from the game
        line = next(k for k, s in enumerate(ED.program_spaces) if "Research" in s["text"])
        choose(st, f"line:{line}")
        choose(st, "rs:B")
        choose(st, "rs:G")
        assert p.programs[line] == "prog_values_3_4"
        choose(st, "gear")
        choose(st, "book")
        assert p.books == 1 and p.gear_supply.count("add") == 2
        choose(st, "build:add")
        choose(st, ids(st)[0])
        assert p.brass == 0 and p.coal == 0 and p.gears.count("add") == 1

    def test_rightmost_assignment_leaves_once_per_action(self) -> None:
        # actions-turn: "The rightmost Assignment is removed only once per action."
        st = fresh()
        p = st.players[0]
        p.research["P"] = ED.research_track["advanced"][1]
        before = list(st.assignment_display)
        put_in_store(st, "P4")
        for choice in ("act:0", "mill:4", "prog:0", "line:0", "book", "gear", "skip"):
            if choice in ids(st):
                choose(st, choice)
        assert before[3] not in st.assignment_display
        assert st.assignment_display[1:] == before[:3]


class TestObjectives:
    def test_first_round_takes_the_higher_space_later_rounds_the_lower(self) -> None:
        # rulebook, Objectives: players completing in the same number of turns share the higher
        # space; once play reaches the first player again, the lower one.
        st = fresh(players=3)
        st.round = 4
        put_disc(st, 1, "obj:2")
        put_disc(st, 2, "obj:2")
        st.round = 5
        put_disc(st, 0, "obj:2")
        assert st.objective_discs[2] == [[1, "high"], [2, "high"], [0, "low"]]

    def test_isobel_three_rooms_objective(self) -> None:
        # rulebook, Objective example: a 3rd disc in a different room meets it; Isobel takes
        # the 7-Prestige space with another disc from her Mill.
        st = fresh()
        obj = st.objectives[2]
        assert obj == "meetings_three_rooms"
        p = st.players[0]
        st.rooms[0][0] = [0]
        st.rooms[1][0] = [0]
        p.discs -= 2
        p.money = 10
        put_in_store(st, "Y3")
        for choice in ("act:0", "mill:0", "room:2:money", "card:2"):
            choose(st, choice)
        while st.current == 0 and not st.over:
            choose(st, "skip" if "skip" in ids(st) else ids(st)[0])
        assert st.objective_discs[2] == [[0, "high"]]
        from engine.scoring import objectives

        assert objectives(st, 0) == 7 and p.discs == 12 - 2 - 2


class TestPartnerSupply:
    def test_always_eight_cards(self) -> None:
        # rulebook: gaining a Partner removes one from hand or discard pile at once.
        st = fresh()
        p = st.players[0]
        p.money = 5
        put_in_store(st, "Y3")
        for choice in ("act:0", "mill:0", "room:3:money"):
            choose(st, choice)
        assert len(p.supply()) == 9 and kind(st) == "keep_eight"
        assert all(i[3:] in p.hand + p.discard for i in ids(st))
        choose(st, ids(st)[0])
        assert len(p.supply()) == 8

    def test_hand_limit_five_at_the_end_of_the_turn(self) -> None:
        # rulebook: more than five cards at the end of your turn: discard down to five.
        st = fresh()
        p = st.players[0]
        p.hand += [p.deck.pop(), p.deck.pop()]
        p.money = 2
        put_in_store(st, "Y3")
        for choice in ("act:0", "mill:0", "room:3:money"):
            choose(st, choice)
        while kind(st) != "hand_limit":
            choose(st, "skip" if "skip" in ids(st) else ids(st)[0])
        while st.current == 0:
            choose(st, ids(st)[0])
        assert len(p.hand) == 5


class TestInnovation:
    def test_never_above_six_and_top_bonus(self) -> None:
        # rulebook, Resources and Innovation: at most 6; reaching the top you may spend 2 for a
        # Workshop bonus of your choice.
        st = fresh()
        p = st.players[0]
        p.innovation = 5
        st.stack.append({"op": "run_effect", "steps": [{"op": "innovation", "n": 3}]})
        run(st)
        assert p.innovation == 6 and kind(st) == "innovation_top"
        coal = p.coal
        choose(st, "itop:coal")
        assert p.innovation == 4 and p.coal == coal + 2


class TestResearch:
    def test_top_of_track_takes_the_assignment_token_once(self) -> None:
        # rulebook, Research: the first token is worth 2, the rest 1; one token per colour;
        # no further Research on a finished track.
        st = fresh()
        top = ED.research_track["top"]
        for seat in (0, 1):
            st.current = seat
            st.players[seat].research["G"] = top - 1
            st.stack.append({"op": "research_step", "track": "G"})
            run(st)
        assert st.players[0].assignment_tokens == {"G": 2}
        assert st.players[1].assignment_tokens == {"G": 1}
        st.stack.append({"op": "research_step", "track": "G"})
        run(st)
        assert st.players[1].research["G"] == top


class TestEndOfGame:
    def test_ninth_mill_die_triggers_the_end_with_equal_turns(self) -> None:
        # rulebook, End Game: play continues until all players have had the same number of turns.
        from tests.engine_helpers import random_game

        for seed in range(4):
            st, _ = random_game(3, seed)
            assert st.end_triggered
            assert len({p.turns for p in st.players}) == 1

    def test_tie_breaks(self) -> None:
        # rulebook: most gears built, then highest Mill dice total, then closest to the first
        # player in clockwise order.
        st = fresh(players=3)
        for p in st.players:
            p.hand, p.deck, p.discard = [], [], []
            p.money = p.coal = p.brass = p.books = 0
            p.innovation = 0
        st.players[1].gears = ["add"] + [None] * 11
        st.players[1].deck = []
        # seat 1 has 1 gear (scoring -22 +... ) so equalise totals through leftovers
        st.players[0].books = st.players[2].books = 2
        st.players[1].books = 0
        assert ranking(st)[0] == 1
        st.players[1].gears = [None] * 12
        st.players[1].books = 2
        st.players[2].mill[0] = "Y1"
        assert ranking(st)[0] == 2
        st.players[2].mill[0] = None
        assert ranking(st) == [0, 1, 2]


class TestExampleScoring:
    def test_isobel_scores_107(self) -> None:
        # rulebook, Example Scoring: Isobel's scorepad column, category by category, 107 in all.
        from itertools import combinations

        from engine.mill import LINE_DICE, program_met
        from engine.scoring import score, total

        st = fresh()
        p = st.players[0]
        # 1 first-place Objective disc: the Meetings Objective's 7-Prestige space.
        st.objective_discs[2] = [[0, "high"]]
        # 2 discs on Bristol (one on top of the other) and 1 on Manchester.
        st.university_discs["bristol"] = [0, 0]
        st.university_discs["manchester"] = [0]
        # Majorities in the Engineering and Astronomy rooms; 2 cards of each Science.
        st.rooms[st.room_science.index("engineering")][0] = [0]
        st.rooms[st.room_science.index("astronomy")][0] = [0]
        # Tied for the level 6 Lecture majority (worth 8).
        st.lectures = {"0:6": [0], "1:6": [1]}
        p.discs = 12 - 1 - 3 - 2 - 1

        def pick(science: str | None, n: int) -> list[list[str]]:
            pool = [c["id"] for c in ED.partners if c["science"] == science]
            return [list(x) for x in combinations(pool, n)]

        others = [c["id"] for c in ED.partners if c["science"] in (None, "physics")]
        supply = next(
            eng + ast + list(rest)
            for eng in pick("engineering", 2)
            for ast in pick("astronomy", 2)
            for rest in combinations(others, 4)
            if sum(ED.partner[c]["prestige"] for c in eng + ast + list(rest)) == 9
        )
        p.deck, p.hand, p.discard = supply[:3], supply[3:6], supply[6:]
        # 3 complete lines: 5 + 1 = 6, 6 x 5 = 30 (capped at 25 by Steam), 4+3+2 = 9, 6+2+2 = 10.
        mult = ED.multipliers[0]["id"]
        p.mill = ["P5", "Y1", "G5", "B4", "K3", "P2", "Y6", "G2", "B2"]
        p.gears = ["add", mult, "add", "add", "add", "add", "add", None, "add", None, None, None]
        p.steam = next(i for i, lvl in enumerate(ED.steam_track) if lvl["cap"] == 25)
        # 4 Programs that this Mill meets, worth 30 together.
        lines = {k: [p.mill[i] for i in LINE_DICE[k]] for k in range(6)}
        met = [
            (k, prog["id"], prog["prestige"])
            for k in range(6)
            for prog in ED.programs
            if program_met(prog["criteria"], lines[k])
        ]
        chosen = next(
            combo
            for combo in combinations(met, 4)
            if len({k for k, _, _ in combo}) == 4
            and len({t for _, t, _ in combo}) == 4
            and sum(v for _, _, v in combo) == 30
        )
        for k, tile, _ in chosen:
            p.programs[k] = tile
        p.innovation = 2
        # The 2-point purple Assignment token and a 1-point green one.
        p.assignment_tokens = {"P": 2, "G": 1}
        p.assignments = {"P": ["a1", "a2"], "G": ["a3", "a4"], "B": [], "Y": []}
        p.books, p.money, p.coal, p.brass = 0, 7, 4, 3

        assert score(st, 0) == {
            "Objectives": 7,
            "Travel": 6,
            "Lectures": 4,
            "Meetings": 8,
            "Partners": 9,
            "Programs": 30,
            "Lines": 44,
            "Gears": -8,
            "Innovation": 0,
            "Assignment tokens": 6,
            "Leftovers": 1,
            "Total": 107,
        }
        assert total(st, 0) == 107  # the AI's quick total agrees with the scorepad

        # The Mill's categories are cached by content: a change in place must still show.
        p.mill[0] = None  # the top row (5 + 1 = 6, x 5 = 30, capped at 25) is incomplete now
        row = score(st, 0)
        assert row["Lines"] == 44 - 25
        assert row["Programs"] < 30  # the top row's Program is not met any more
        assert total(st, 0) == row["Total"]


def _to_publish(st: GameState) -> None:
    """Skip optional steps until the Publish-or-Build decision."""
    while kind(st) != "publish_or_build":
        choose(st, "skip" if "skip" in ids(st) else ids(st)[0])


class TestPublish:
    def test_anthony_institution_publish_swaps_with_the_workshop(self) -> None:
        # rulebook, Anthony Publish example: swap the blue 1 in his Mill with a Workshop purple 6.
        st = fresh()
        p = st.players[0]
        p.mill[0] = "B1"
        p.innovation = 1
        st.bag.append(st.workshop[2][0][0])
        st.workshop[2][0] = "P6"
        put_in_store(st, "G3")
        for choice in ("act:0", "mill:8"):
            choose(st, choice)
        _to_publish(st)
        choose(st, "publish")
        choose(st, "own:m0")
        choose(st, "ws:2:0")
        assert p.mill[0] == "P6" and st.workshop[2][0] == "B1" and p.books == 0

    def test_travel_publish_changes_dice_by_up_to_four_pips(self) -> None:
        # rulebook, Travel Publish: 4 pips over 1-4 dice; no 1 down, no 6 up.
        st = fresh()
        p = st.players[0]
        p.money = 10
        put_in_store(st, "B1", "Y6")
        choose(st, "act:0")
        choose(st, "mill:0")
        choose(st, ids(st)[0])
        _to_publish(st)
        choose(st, "publish")
        assert "pip:m0:-" not in ids(st) and "pip:s1:+" not in ids(st)
        for choice in ("pip:m0:+", "pip:m0:+", "pip:s1:-", "pip:m0:+"):
            choose(st, choice)
        assert p.mill[0] == "B4" and p.store[1] == "Y5"
        assert kind(st) != "pips"  # four pips used

    def test_workshop_publish_advances_steam_paying_its_coal(self) -> None:
        # rulebook, Workshop Publish: 1 Book, Steam +1, paying the Coal printed on the track.
        st = fresh()
        p = st.players[0]
        p.steam = 1
        p.coal = 5
        choose(st, ids(st)[0])
        while kind(st) != "publish_or_build":
            choose(st, "skip" if "skip" in ids(st) else ids(st)[0])
        coal = p.coal
        choose(st, "publish")
        assert p.steam == 2 and p.coal == coal - ED.steam_track[2]["coal"]

    def test_serena_study_publish_stacks_and_takes_the_level_i_advanced_action(self) -> None:
        # rulebook, Serena Publish example: a disc on top of her Lecture disc, then the reward of
        # an empty space in that Institution.
        st = fresh()
        p = st.players[0]
        st.lectures = {"2:5": [0], "2:6": [1]}
        st.players[1].discs -= 1
        p.discs -= 1
        put_in_store(st, "P4")
        for choice in ("act:0", "mill:4", "prog:0", "line:0", "book"):
            choose(st, choice)
        _to_publish(st)
        choose(st, "publish")
        assert st.lectures["2:5"] == [0, 0]
        assert kind(st) == "lower_space"
        assert all(i in ("skip", "low:as") or i.startswith("low:2:") for i in ids(st))

    def test_study_publish_without_discs_on_the_board_removes_one(self) -> None:
        # rulebook: "If you choose to take this action when you do not have any other discs
        # placed on the board, simply remove the disc from the game."
        st = fresh()
        p = st.players[0]
        put_in_store(st, "P4")
        for choice in ("act:0", "mill:4", "prog:0", "line:0", "book"):
            choose(st, choice)
        _to_publish(st)
        choose(st, "publish")
        assert p.discs == 11 and p.discs_boxed == 1


class TestAdvancedActions:
    def test_study_level_ii_takes_all_three_rewards(self) -> None:
        # rulebook, Ada's Study advanced: level II, all 3 Study rewards.
        st = fresh()
        p = st.players[0]
        p.research["P"] = ED.research_track["advanced"][1]
        books, gears = p.books, p.gear_supply.count("add")
        put_in_store(st, "P4")
        for choice in ("act:0", "mill:4", "prog:0", "line:2", "book", "gear"):
            choose(st, choice)
        assert p.books == books + 1 and p.gear_supply.count("add") == gears + 1
        assert ids(st) == ["assignment", "skip"]  # the third, optional, is the last left
        choose(st, "assignment")
        assert kind(st) == "take_assignment"

    def test_institutions_level_ii_any_lower_space(self) -> None:
        # rulebook, Institution advanced: level I same Institution, level II any Institution.
        for level, expect_other in ((1, False), (2, True)):
            st = fresh()
            p = st.players[0]
            p.research["G"] = ED.research_track["advanced"][level - 1]
            p.innovation = 6
            put_in_store(st, "G6")
            for choice in ("act:0", "mill:0", "lec:0:4"):
                choose(st, choice)
            while kind(st) != "lower_space":
                choose(st, "skip" if "skip" in ids(st) else ids(st)[0])
            others = [i for i in ids(st) if i.startswith("low:") and not i.startswith("low:0:")]
            assert ("low:as" in others) and (len(others) > 1) == expect_other
            assert all(int(i.split(":")[2]) < 4 for i in ids(st) if i.count(":") == 2)

    def test_meetings_level_i_plays_a_card_free(self) -> None:
        # rulebook, Meetings advanced level I: play a card from your hand without its cost.
        st = fresh()
        p = st.players[0]
        p.research["Y"] = ED.research_track["advanced"][0]
        p.money = 5
        put_in_store(st, "Y2")
        for choice in ("act:0", "mill:0", "room:0:money", "card:0"):
            choose(st, choice)
        while kind(st) == "keep_eight":
            choose(st, ids(st)[0])
        assert kind(st) == "play_free"
        assert {f"play:{c}" for c in p.hand} <= set(ids(st))


class TestSetup:
    def test_starting_resources_by_seat(self) -> None:
        # rulebook, Setup: £4, 1 Coal, 1 Brass, 1 Book; 2nd +£1, 3rd +1 Coal, 4th +£1 +1 Coal.
        st = fresh(players=4)
        got = [(p.money, p.coal, p.brass, p.books) for p in st.players]
        assert got == [(4, 1, 1, 1), (5, 1, 1, 1), (4, 2, 1, 1), (5, 2, 1, 1)]
        assert all(len(p.hand) == 4 and len(p.supply()) == 8 for p in st.players)
        assert all(sorted(p.gear_supply) == ["add", "sub", "sub"] for p in st.players)

    def test_dice_removed_by_player_count(self) -> None:
        # rulebook, Setup: 3 players remove 1 die of each colour, 2 players 2 of each.
        for players, per_colour in ((2, 8), (3, 9), (4, 10)):
            st = fresh(players=players)
            dice = st.bag + [d[0] for space in st.workshop for d in space]
            assert all(dice.count(c) == per_colour for c in V.DIE_COLOURS)
            assert all(len(space) == 3 for space in st.workshop)

    def test_tier1_deck_is_six_cards_under_four_players(self) -> None:
        # rulebook, Setup: with fewer than 4 players the tier 1 deck is cut to 6 cards.

        for players in (2, 3, 4):
            st = fresh(players=players)
            tier1 = [
                c for c in st.partner_deck + st.partner_display if c and ED.partner[c]["tier"] == 1
            ]
            assert len(tier1) == 6
            assert st.partner_display == [
                c for c in st.partner_display if ED.partner[c]["tier"] == 1
            ]

    def test_draft_in_reverse_turn_order(self) -> None:
        # rulebook, Setup: experienced players may draft the tier 1 cards in reverse turn order.
        from engine import GameSetup, new_game

        st = new_game(GameSetup(players=3, seed=4, draft_tier1=True))
        assert kind(st) == "draft" and st.current == 2
        choose(st, ids(st)[0])
        assert st.current == 1 and len(ids(st)) == 2
        choose(st, ids(st)[1])
        assert kind(st) == "turn" and st.current == 0  # the last card went to seat 0 at once
        assert all(len(p.supply()) == 8 and len(p.hand) == 4 for p in st.players)
