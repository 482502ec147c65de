"""Tests of engine/content.py: the component counts and every fact the rules state about the data.

Each test names the fact it checks (content-facts.md / rulebook / actions-turn).
"""

from __future__ import annotations

import heapq
from collections import Counter, deque
from copy import deepcopy

import pytest

from engine import content as C

ALL_OPS = {
    "gain",
    "pay",
    "innovation",
    "draw",
    "discard",
    "research",
    "workshop_bonus",
    "study_item",
    "gain_gear",
    "take_assignment",
    "take_program",
    "take_multiplier",
    "take_partner",
    "play_free",
    "use_display_partner",
    "per_hand",
    "per_disc",
    "build",
    "build_free",
    "upgrade_subtraction",
    "move_small",
    "move_university",
    "stack_disc",
    "meeting_disc",
    "university_disc",
    "lecture_disc",
    "move_disc",
    "remove_disc",
    "relocate_university_disc",
    "assignment_token",
    "science_token",
    "steam",
    "advanced",
    "breakthrough",
    "swap_die",
    "adjust_die",
    "choose",
}


def by_id(items):
    return {item["id"]: item for item in items}


def city(cid):
    return by_id(C.CITIES)[cid]


def partner_by_name(name):
    matches = [p for p in C.PARTNERS if p["name"] == name]
    assert len(matches) == 1, name
    return matches[0]


def all_effects():
    """Every effect list in the content, with a label."""
    out = [(f"workshop/{k}", v["effect"]) for k, v in C.WORKSHOP_BONUSES.items()]
    out += [(f"program space/{s['line']}", s["effect"]) for s in C.PROGRAM_SPACES]
    out += [(f"city/{c['id']}", c["reward"]) for c in C.CITIES if c["reward"] is not None]
    out += [(f"tile/{t['id']}", t["reward"]) for t in C.UNIVERSITY_TILES]
    out += [
        (f"{i['id']}/{lvl}", sp["effect"])
        for i in C.INSTITUTIONS
        for lvl, sp in i["spaces"].items()
    ]
    out += [("analytical society", C.ANALYTICAL_SOCIETY["effect"])]
    out += [(f"bt/{b['id']}", b["effect"]) for b in C.BREAKTHROUGHS]
    out += [(f"asg/{a['id']}", a["effect"]) for a in C.ASSIGNMENTS]
    out += [(f"partner/{p['id']}", p["effect"]) for p in C.PARTNERS]
    return out


def iter_steps(effect):
    for step in effect:
        yield step
        if step["op"] == "choose":
            for option in step["options"]:
                yield from iter_steps(option["effect"])


# --- map helpers (independent of engine/board.py) ---------------------------------------------


def adjacency():
    adj = {c["id"]: [] for c in C.CITIES}
    for a, b, kind in C.ROUTES:
        adj[a].append((b, kind))
        adj[b].append((a, kind))
    return adj


def dijkstra(start):
    """Cheapest cost to each city and, per city, the route kinds used on one cheapest path."""
    adj = adjacency()
    best = {start: 0}
    kinds = {start: []}
    queue = [(0, start)]
    while queue:
        cost, here = heapq.heappop(queue)
        if cost > best[here]:
            continue
        for there, kind in adj[here]:
            new = cost + C.ROUTE_COST[kind]
            if new < best.get(there, 10**9):
                best[there] = new
                kinds[there] = kinds[here] + [kind]
                heapq.heappush(queue, (new, there))
    return best, kinds


def cheapest_paths(start, goal):
    """All simple paths from start to goal whose cost equals the cheapest cost."""
    best, _ = dijkstra(start)
    target = best[goal]
    adj = adjacency()
    found = []

    def walk(here, cost, path, kinds):
        if cost > target:
            return
        if here == goal:
            found.append((path, kinds))
            return
        for there, kind in adj[here]:
            if there not in path:
                walk(there, cost + C.ROUTE_COST[kind], path + [there], kinds + [kind])

    walk(start, 0, [start], [])
    return target, found


def next_small_cities(start):
    """Small Cities one Small City away, skipping over Universities (actions-turn: Moving)."""
    adj = adjacency()
    kinds = {c["id"]: c["kind"] for c in C.CITIES}
    found, seen, queue = set(), {start}, deque([start])
    while queue:
        here = queue.popleft()
        for there, _ in adj[here]:
            if there in seen:
                continue
            seen.add(there)
            if kinds[there] == "small":
                found.add(there)
            else:
                queue.append(there)
    found.discard(start)
    return found


# ---------------------------------------------------------------------------------------------


class TestValidate:
    def test_validate_passes(self):
        C.validate()

    def test_validate_rejects_unknown_op(self, monkeypatch):
        bad = deepcopy(C.BREAKTHROUGHS)
        bad[0]["effect"] = [{"op": "teleport"}]
        monkeypatch.setattr(C, "BREAKTHROUGHS", bad)
        with pytest.raises(AssertionError):
            C.validate()

    def test_validate_rejects_duplicate_ids(self, monkeypatch):
        monkeypatch.setattr(C, "PROGRAMS", C.PROGRAMS + [deepcopy(C.PROGRAMS[0])])
        with pytest.raises(AssertionError):
            C.validate()

    def test_validate_rejects_unknown_condition_kind(self, monkeypatch):
        bad = deepcopy(C.OBJECTIVES)
        bad[0]["condition"] = {"kind": "be_lucky"}
        monkeypatch.setattr(C, "OBJECTIVES", bad)
        with pytest.raises(AssertionError):
            C.validate()

    def test_validate_rejects_dangling_setup_reference(self, monkeypatch):
        bad = deepcopy(C.STANDARD_SETUP)
        bad["universities"]["manchester"] = "no_such_tile"
        monkeypatch.setattr(C, "STANDARD_SETUP", bad)
        with pytest.raises(AssertionError):
            C.validate()

    def test_effect_ops_are_exactly_the_engine_vocabulary(self):
        # brief: use ONLY the ops the engine implements
        assert set(C.EFFECT_OPS) == ALL_OPS
        for where, effect in all_effects():
            for step in iter_steps(effect):
                assert step["op"] in ALL_OPS, where

    def test_every_effect_is_short_and_has_text(self):
        # brief: keep effects 1-3 steps, each with a human text
        for where, effect in all_effects():
            assert 1 <= len(effect) <= 3, where
        texts = (
            [b["text"] for b in C.WORKSHOP_BONUSES.values()]
            + [s["text"] for s in C.PROGRAM_SPACES]
            + [c["text"] for c in C.CITIES]
            + [t["text"] for t in C.UNIVERSITY_TILES]
            + [sp["text"] for i in C.INSTITUTIONS for sp in i["spaces"].values()]
            + [b["text"] for b in C.BREAKTHROUGHS]
            + [a["text"] for a in C.ASSIGNMENTS]
            + [p["text"] for p in C.PARTNERS]
        )
        assert all(isinstance(t, str) and t.strip() for t in texts)

    def test_every_item_is_flagged_provisional_or_sourced(self):
        # content-facts.md: designed items are marked so real values can replace them
        collections = [
            C.MULTIPLIERS,
            C.CITIES,
            C.UNIVERSITY_TILES,
            C.BREAKTHROUGHS,
            C.OBJECTIVES,
            C.PROGRAMS,
            C.ASSIGNMENTS,
            C.PARTNERS,
            C.STEAM_TRACK,
            C.MEETING_ROOMS,
            C.PROGRAM_SPACES,
            C.INSTITUTIONS,
        ]
        for items in collections:
            for item in items:
                assert isinstance(item["provisional"], bool), item
                if item["provisional"] is False:
                    assert item.get("source"), item
        for inst in C.INSTITUTIONS:
            for space in inst["spaces"].values():
                assert isinstance(space["provisional"], bool)

    def test_ids_are_snake_case(self):
        for items in (C.PARTNERS, C.ASSIGNMENTS, C.PROGRAMS, C.OBJECTIVES, C.CITIES):
            for item in items:
                assert item["id"].replace("_", "").isalnum() and item["id"].islower()


class TestDice:
    def test_fifty_dice_ten_per_colour(self):
        # content-facts.md: Dice 50 = 10 each of yellow, blue, green, purple, grey
        assert C.DIE_COLOURS == ["Y", "B", "G", "P", "K"]
        assert C.DICE_PER_COLOUR == 10
        assert C.DICE_PER_COLOUR * len(C.DIE_COLOURS) == C.COMPONENTS["dice"] == 50

    def test_dice_removed_by_player_count(self):
        # content-facts.md: 3 players remove 1 of each colour; 2 players 2 of each
        assert C.DICE_REMOVED_PER_COLOUR == {4: 0, 3: 1, 2: 2}

    def test_action_colours(self):
        # content-facts.md: Study purple, Travel blue, Meetings yellow, Institutions green
        assert C.COLOURS_MAIN == ["P", "B", "Y", "G"]
        assert C.AREA_COLOURS == {
            "study": "P",
            "travel": "B",
            "meetings": "Y",
            "institutions": "G",
        }

    def test_sciences_and_player_colours(self):
        assert C.SCIENCES == ["mathematics", "physics", "astronomy", "engineering"]
        assert C.PLAYER_COLOURS == ["red", "lime", "sky", "purple"]


class TestWorkshop:
    def test_six_spaces_three_dice_each(self):
        # content-facts.md: Workshop 6 spaces in a circle, 3 rolled dice each at setup
        assert C.WORKSHOP_SPACES == 6
        assert C.WORKSHOP_DICE_PER_SPACE == 3

    def test_bonus_rewards(self):
        # content-facts.md: 1 Research, 2 Coal, £3, 1 Innovation, 1 Brass, draw 2 Partner cards
        b = C.WORKSHOP_BONUSES
        assert set(b) == {"research", "coal", "money", "innovation", "brass", "cards"}
        assert b["research"]["effect"] == [
            {"op": "research", "track": "any", "n": 1, "different": False}
        ]
        assert b["coal"]["effect"] == [{"op": "gain", "coal": 2}]
        assert b["money"]["effect"] == [{"op": "gain", "money": 3}]
        assert b["innovation"]["effect"] == [{"op": "innovation", "n": 1}]
        assert b["brass"]["effect"] == [{"op": "gain", "brass": 1}]
        assert b["cards"]["effect"] == [{"op": "draw", "n": 2}]

    def test_standard_order_is_a_permutation(self):
        # content-facts.md: 6 round bonus tiles exist, so their order may be randomised
        assert sorted(C.STANDARD_WORKSHOP_ORDER) == sorted(C.WORKSHOP_BONUSES)
        assert C.STANDARD_SETUP["workshop_order"] == C.STANDARD_WORKSHOP_ORDER


class TestPlayerBoard:
    def test_store_has_a_few_slots(self):
        # content-facts.md: Store "a few die slots"; size designed
        assert 3 <= C.STORE_SLOTS <= 5
        assert "STORE_SLOTS" in C.PROVISIONAL_CONSTANTS

    def test_mill_is_3x3_with_12_gear_spaces(self):
        # content-facts.md: Mill 3x3 die slots, 12 Gear spaces
        assert C.MILL_SIZE == 3
        assert C.MILL_GEAR_SPACES == 12 == C.COMPONENTS["discs_per_player"]

    def test_program_spaces_bonuses(self):
        # content-facts.md: 6 Program spaces, one per line: 1 Book; 2 Innovation; draw 3 cards;
        # 2 different Workshop bonus rewards; 2 Research; 2 Brass
        spaces = C.PROGRAM_SPACES
        assert sorted(s["line"] for s in spaces) == [
            "col0",
            "col1",
            "col2",
            "row0",
            "row1",
            "row2",
        ]
        effects = [s["effect"] for s in spaces]
        assert [{"op": "gain", "books": 1}] in effects
        assert [{"op": "innovation", "n": 2}] in effects
        assert [{"op": "draw", "n": 3}] in effects
        assert [{"op": "workshop_bonus", "n": 2, "different": True}] in effects
        assert [{"op": "research", "track": "any", "n": 2, "different": False}] in effects
        assert [{"op": "gain", "brass": 2}] in effects

    def test_steam_level_3_caps_at_20(self):
        # content-facts.md: Steam level 3 caps at 20
        assert C.STEAM_TRACK[3]["cap"] == 20

    def test_steam_caps_25_and_30_exist(self):
        # content-facts.md: lines capped at 25 and 30 appear in the examples
        caps = [level["cap"] for level in C.STEAM_TRACK]
        assert 25 in caps and 30 in caps
        assert caps == sorted(caps)

    def test_steam_costs_coal(self):
        # content-facts.md: advancing may cost Coal as printed on the track
        assert all(level["coal"] >= 0 for level in C.STEAM_TRACK)
        assert any(level["coal"] > 0 for level in C.STEAM_TRACK)
        assert 0 <= C.STEAM_START < 3

    def test_anthony_top_row_capped_at_30(self):
        # rulebook: Anthony's 5 + 3 x 4 = 32 "would only score 30 as its limited by the Steam"
        assert any(level["cap"] == 30 for level in C.STEAM_TRACK)
        assert min(32, 30) == 30

    def test_innovation_track(self):
        # content-facts.md: Innovation 0..6, the top 2 spaces score
        assert C.INNOVATION_MAX == 6
        assert 0 <= C.INNOVATION_START < C.INNOVATION_MAX
        assert set(C.INNOVATION_PRESTIGE) == {5, 6}
        assert C.INNOVATION_PRESTIGE[6] >= C.INNOVATION_PRESTIGE[5] > 0
        assert C.INNOVATION_TOP_SPEND == 2

    def test_research_track_shape(self):
        # content-facts.md: Breakthrough (!) spaces, advanced levels I and II, a top space
        track = C.RESEARCH_TRACK
        lvl1, lvl2 = track["advanced"]
        assert 0 < lvl1 < lvl2 < track["top"]
        assert lvl1 <= 3  # designed: level I reachable in a few turns
        assert len(track["breakthroughs"]) >= 1
        assert all(0 < b < track["top"] for b in track["breakthroughs"])

    def test_assignment_scoring_token_stack(self):
        # content-facts.md: 16 tokens, 4 per action colour, a 2 on top of 1s
        assert C.ASSIGNMENT_TOKEN_STACK == [2, 1, 1, 1]
        assert len(C.ASSIGNMENT_TOKEN_STACK) * 4 == C.COMPONENTS["assignment_scoring_tokens"]

    def test_science_scoring_token_stack(self):
        # content-facts.md: 16 tokens, 4 per science, 2 on top of 1s
        assert C.SCIENCE_TOKEN_STACK == [2, 1, 1, 1]
        assert len(C.SCIENCE_TOKEN_STACK) * 4 == C.COMPONENTS["science_scoring_tokens"]


class TestSetup:
    def test_starting_resources(self):
        # rulebook Setup: £4, 1 Coal, 1 Brass, 1 Book; seats 2-4 get £1 / Coal / £1 + Coal
        assert C.START_RESOURCES == {"money": 4, "coal": 1, "brass": 1, "books": 1}
        assert C.SEAT_BONUS == [{}, {"money": 1}, {"coal": 1}, {"money": 1, "coal": 1}]

    def test_hand_and_supply(self):
        # rulebook: draw 4; hand limit 5; always 8 Partner cards in your supply
        assert (C.START_HAND, C.HAND_LIMIT, C.SUPPLY_SIZE) == (4, 5, 8)

    def test_displays(self):
        # content-facts.md: Programs display 5, Assignments 4, Partners 4, Multipliers 2
        assert C.PROGRAM_DISPLAY == 5
        assert C.ASSIGNMENT_DISPLAY == 4
        assert C.PARTNER_DISPLAY == 4
        assert C.MULTIPLIER_DISPLAY == 2
        assert C.TIER1_DECK_AFTER_DEAL == 6

    def test_resource_counts(self):
        # content-facts.md: Books 12, Coal 36, Brass 36
        assert (C.COMPONENTS["books"], C.COMPONENTS["coal"], C.COMPONENTS["brass"]) == (12, 36, 36)
        assert C.COMPONENTS["research_tokens_per_player"] == 4

    def test_travel_token_starts_in_london(self):
        # content-facts.md: 1 Travel token (London)
        assert C.START_CITY == "london"


class TestGears:
    def test_gear_costs(self):
        # content-facts.md: an Addition Gear costs 2 Brass and 1 Coal; Subtraction shares the cost
        assert C.GEAR_COSTS["add"] == {"brass": 2, "coal": 1}
        assert C.GEAR_COSTS["sub"] == C.GEAR_COSTS["add"]

    def test_gear_counts(self):
        # content-facts.md: 24 Addition, 8 Subtraction, 12 Multiplier
        assert C.ADDITION_GEARS == 24 == C.COMPONENTS["addition_gears"]
        assert C.SUBTRACTION_GEARS == 8 == C.COMPONENTS["subtraction_gears"]
        assert len(C.MULTIPLIERS) == 12 == C.COMPONENTS["multiplier_gears"]

    def test_start_gears(self):
        # content-facts.md: each player starts with 1 Addition and 2 Subtraction
        assert Counter(C.START_GEARS) == Counter({"add": 1, "sub": 2})

    def test_multipliers_have_their_own_costs(self):
        # content-facts.md: each Multiplier has its own cost (Innovation, £, Coal or Brass)
        costs = [tuple(sorted(m["cost"].items())) for m in C.MULTIPLIERS]
        assert len(set(costs)) == 12
        for m in C.MULTIPLIERS:
            assert set(m["cost"]) <= {"innovation", "money", "coal", "brass"}
            assert m["provisional"] is True
        used = set().union(*(m["cost"] for m in C.MULTIPLIERS))
        assert used == {"innovation", "money", "coal", "brass"}

    def test_multipliers_cost_about_an_addition_gear_plus_a_bit(self):
        # brief: roughly worth one Addition Gear plus a bit more (count £2 ~ 1 resource)
        def weight(cost):
            return (
                cost.get("brass", 0) * 1.5
                + cost.get("coal", 0)
                + cost.get("innovation", 0) * 1.5
                + cost.get("money", 0) / 2
            )

        base = weight(C.GEAR_COSTS["add"])
        for m in C.MULTIPLIERS:
            assert base < weight(m["cost"]) <= base + 3, m["id"]

    def test_multiplier_ids_do_not_clash_with_gear_kinds(self):
        assert not {m["id"] for m in C.MULTIPLIERS} & {"add", "sub"}


class TestMap:
    def test_named_cities(self):
        # content-facts.md: London, Oxford, Bristol (University), Manchester (University),
        # Liverpool (Small City)
        assert city("london")["kind"] == "small"
        assert "oxford" in by_id(C.CITIES)
        assert city("bristol")["kind"] == "university"
        assert city("manchester")["kind"] == "university"
        assert city("liverpool")["kind"] == "small"

    def test_liverpool_reward(self):
        # content-facts.md: Liverpool (Small City: 1 Coal and £3)
        reward = city("liverpool")["reward"]
        gained = Counter()
        for step in reward:
            assert step["op"] == "gain"
            gained.update({k: v for k, v in step.items() if k != "op"})
        assert gained == Counter({"coal": 1, "money": 3})
        assert city("liverpool")["provisional"] is False

    def test_route_costs(self):
        # content-facts.md: road £1, rail £2, ferry £4
        assert C.ROUTE_COST == {"road": 1, "rail": 2, "ferry": 4}

    def test_oxford_to_manchester_costs_6_by_4_roads_and_1_rail(self):
        # content-facts.md: Oxford to Manchester costs £6: roads at £1 each plus one rail at £2
        best, kinds = dijkstra("oxford")
        assert best["manchester"] == 6
        assert Counter(kinds["manchester"]) == Counter({"road": 4, "rail": 1})
        cost, paths = cheapest_paths("oxford", "manchester")
        assert cost == 6 and paths
        for _, path_kinds in paths:  # every cheapest journey matches the example
            assert Counter(path_kinds) == Counter({"road": 4, "rail": 1})

    def test_graph_is_connected(self):
        best, _ = dijkstra(C.START_CITY)
        assert set(best) == {c["id"] for c in C.CITIES}

    def test_liverpool_is_a_next_small_city_from_manchester(self):
        # rulebook: Anthony moves from Manchester to "the nearest small city", Liverpool
        assert "liverpool" in next_small_cities("manchester")

    def test_about_12_to_15_small_cities(self):
        small = [c for c in C.CITIES if c["kind"] == "small"]
        assert 12 <= len(small) <= 15

    def test_university_regions(self):
        # content-facts.md: Southern (orange) and Central (blue) take tiles; Scottish are printed
        regions = Counter(c["region"] for c in C.CITIES if c["kind"] == "university")
        assert set(regions) == {"southern", "central", "scottish"}
        assert regions["southern"] <= 8 and regions["central"] <= 7
        for c in C.CITIES:
            if c["region"] == "scottish":
                assert c["reward"] and isinstance(c["prestige"], int)
            elif c["kind"] == "university":
                assert c["reward"] is None and "prestige" not in c

    def test_there_is_a_ferry(self):
        # content-facts.md: ferries exist (£4)
        assert any(kind == "ferry" for _, _, kind in C.ROUTES)

    def test_routes_are_unique_and_valid(self):
        ids = {c["id"] for c in C.CITIES}
        pairs = [frozenset((a, b)) for a, b, _ in C.ROUTES]
        assert len(pairs) == len(set(pairs))
        for a, b, kind in C.ROUTES:
            assert a in ids and b in ids and a != b and kind in C.ROUTE_COST

    def test_every_small_city_reward_is_modest(self):
        # brief: small-city rewards modest; Coal is "mostly found in Travel"
        coal_cities = 0
        for c in C.CITIES:
            if c["kind"] != "small":
                continue
            assert len(c["reward"]) <= 2
            if any(s["op"] == "gain" and s.get("coal") for s in c["reward"]):
                coal_cities += 1
        assert coal_cities >= 6

    def test_coordinates_are_on_the_map(self):
        for c in C.CITIES:
            x, y = c["xy"]
            assert 0 <= x <= 1 and 0 <= y <= 1
        # portrait map: Scotland north (smaller y) of London
        assert city("edinburgh")["xy"][1] < city("manchester")["xy"][1] < city("london")["xy"][1]


class TestUniversities:
    def test_fifteen_tiles_8_southern_7_central(self):
        # content-facts.md: University tiles 15: 8 Southern, 7 Central
        regions = Counter(t["region"] for t in C.UNIVERSITY_TILES)
        assert regions == Counter({"southern": 8, "central": 7})
        assert len(C.UNIVERSITY_TILES) == C.COMPONENTS["university_tiles"]

    def test_add_gear_tile(self):
        # content-facts.md: Manchester's reward: gain an Addition Gear and build it free
        tile = by_id(C.UNIVERSITY_TILES)["uni_c_add_gear"]
        assert tile["region"] == "central"
        assert tile["reward"] == [
            {"op": "gain_gear", "gear": "add"},
            {"op": "build_free", "gear": "add"},
        ]

    def test_prestige_range(self):
        # designed: tiles 1-4 (2-5 before the balance report showed Travel far above the
        # rulebook's example score); the far Scottish Universities 3-4
        for t in C.UNIVERSITY_TILES:
            assert 1 <= t["prestige"] <= 4
        for c in C.CITIES:
            if c["region"] == "scottish":
                assert 3 <= c["prestige"] <= 4

    def test_isobel_bristol_and_manchester(self):
        # rulebook: Isobel, 2 discs on Bristol (own disc stacked on own) and 1 on Manchester:
        # 6 Prestige = Bristol + Manchester + 2 for the disc on top
        tiles = by_id(C.UNIVERSITY_TILES)
        setup = C.STANDARD_SETUP["universities"]
        bristol = tiles[setup["bristol"]]["prestige"]
        manchester = tiles[setup["manchester"]]["prestige"]
        assert bristol + manchester + 2 == 6


class TestMeetings:
    def test_room_costs_and_draws(self):
        # content-facts.md: £5 or 3, £4 or 2, £3 or 2, £2 or 1; draws 2, 1, 1, 0 by slot
        rooms = C.MEETING_ROOMS
        assert [(r["money"], r["innovation"]) for r in rooms] == [(5, 3), (4, 2), (3, 2), (2, 1)]
        assert [r["draw"] for r in rooms] == [2, 1, 1, 0]

    def test_rooms_have_several_spaces(self):
        # content-facts.md: each room has several disc spaces
        assert all(r["capacity"] >= 2 for r in C.MEETING_ROOMS)

    def test_science_rooms_in_standard_setup(self):
        # content-facts.md: one science stack assigned above each Meeting room
        assert sorted(C.STANDARD_SETUP["science_rooms"]) == sorted(C.SCIENCES)


class TestInstitutions:
    def test_lecture_costs(self):
        # content-facts.md: levels 2 and 3 cost 1, 4 and 5 cost 2, 6 costs 3
        assert C.LECTURE_COSTS == {2: 1, 3: 1, 4: 2, 5: 2, 6: 3}

    def test_isobel_first_lecture_costs(self):
        # rulebook: first Lecture: level 5 costs 6, 4 costs 4, 3 costs 2, 2 costs 1, 6 costs 9 (> 6)
        def first_cost(level):
            return sum(C.LECTURE_COSTS[lvl] for lvl in range(2, level + 1))

        assert [first_cost(lvl) for lvl in (2, 3, 4, 5)] == [1, 2, 4, 6]
        assert first_cost(6) > C.INNOVATION_MAX

    def test_majorities(self):
        # content-facts.md: row majority 8/6/4/2/2 for levels 6/5/4/3/2
        assert C.LECTURE_MAJORITY == {6: 8, 5: 6, 4: 4, 3: 2, 2: 2}

    def test_institutions_in_column_order(self):
        # content-facts.md: Royal Society, BAAS, Royal Astronomical Society, British Government
        assert [i["id"] for i in C.INSTITUTIONS] == [
            "royal_society",
            "advancement_of_science",
            "astronomical_society",
            "british_government",
        ]
        assert [i["name"] for i in C.INSTITUTIONS] == [
            "Royal Society",
            "British Association for the Advancement of Science",
            "Royal Astronomical Society",
            "British Government",
        ]

    def test_levels_2_to_6(self):
        # content-facts.md: lecture levels 2 to 6 (one disc each)
        for inst in C.INSTITUTIONS:
            assert sorted(inst["spaces"]) == [2, 3, 4, 5, 6]

    def test_royal_society_level_6(self):
        # content-facts.md: use the effect of a Partner in the display + an Engineering token
        space = C.INSTITUTIONS[0]["spaces"][6]
        assert space["effect"] == [
            {"op": "use_display_partner"},
            {"op": "science_token", "science": "engineering"},
        ]
        assert space["provisional"] is False

    def test_draw_2_and_2_different_breakthroughs_space(self):
        # content-facts.md: some space = draw 2 Partner cards and 2 different Breakthroughs
        # (rulebook: Serena takes it in the Astronomical Society)
        wanted = [{"op": "draw", "n": 2}, {"op": "breakthrough", "n": 2, "different": True}]
        places = [
            (i["id"], lvl)
            for i in C.INSTITUTIONS
            for lvl, sp in i["spaces"].items()
            if sp["effect"] == wanted
        ]
        assert len(places) == 1 and places[0][0] == "astronomical_society"

    def test_money_and_2_different_study_items_below_level_6(self):
        # content-facts.md: some space below level 6 = £1 and 2 different Study items
        wanted = [{"op": "gain", "money": 1}, {"op": "study_item", "n": 2, "different": True}]
        places = [
            lvl for i in C.INSTITUTIONS for lvl, sp in i["spaces"].items() if sp["effect"] == wanted
        ]
        assert len(places) == 1 and places[0] < 6

    def test_analytical_society(self):
        # content-facts.md: level 1, draw 1 card and gain £2
        assert C.ANALYTICAL_SOCIETY["effect"] == [
            {"op": "draw", "n": 1},
            {"op": "gain", "money": 2},
        ]

    def test_each_level_6_gives_a_different_science_token(self):
        # design: every top Lecture carries a Science Scoring token, one per Science
        sciences = []
        for inst in C.INSTITUTIONS:
            steps = [s for s in inst["spaces"][6]["effect"] if s["op"] == "science_token"]
            assert len(steps) == 1
            sciences.append(steps[0]["science"])
        assert sorted(sciences) == sorted(C.SCIENCES)


class TestBreakthroughs:
    def test_nine_tokens(self):
        # content-facts.md: Breakthrough tokens 9
        assert len(C.BREAKTHROUGHS) == 9 == C.COMPONENTS["breakthrough_tokens"]

    def test_gain_1_innovation_token(self):
        # rulebook: Ketan reaches a Breakthrough and gains 1 Innovation
        effects = [b["effect"] for b in C.BREAKTHROUGHS]
        assert [{"op": "innovation", "n": 1}] in effects

    def test_standard_setup_one_per_track(self):
        # content-facts.md: one per Research track, 4 used; Ketan's blue Breakthrough = Innovation
        bts = C.STANDARD_SETUP["breakthroughs"]
        assert set(bts) == {"P", "B", "Y", "G"} and len(set(bts.values())) == 4
        assert by_id(C.BREAKTHROUGHS)[bts["B"]]["effect"] == [{"op": "innovation", "n": 1}]

    def test_breakthroughs_do_not_chain(self):
        # design: a Breakthrough reward never grants another Breakthrough
        for b in C.BREAKTHROUGHS:
            assert all(s["op"] not in ("breakthrough", "research") for s in b["effect"])


class TestObjectives:
    def test_24_tiles_6_per_area_3_per_side(self):
        # content-facts.md: 24 Objective tiles, 6 per action area, marked A or B
        assert len(C.OBJECTIVES) == 24 == C.COMPONENTS["objective_tiles"]
        counts = Counter((o["area"], o["side"]) for o in C.OBJECTIVES)
        for area in ("study", "travel", "meetings", "institutions"):
            assert counts[(area, "A")] == 3 and counts[(area, "B")] == 3

    def test_high_above_low(self):
        # content-facts.md: a higher and a lower Prestige space (7 is a higher value)
        for o in C.OBJECTIVES:
            assert o["high"] > o["low"] >= 2
            assert 5 <= o["high"] <= 8

    def test_rulebook_examples_exist(self):
        # content-facts.md: the Objective examples
        conditions = [o["condition"] for o in C.OBJECTIVES]
        assert {"kind": "universities_visited", "cities": ["bristol", "manchester"]} in conditions
        assert {"kind": "assignments_in_column", "colour": "P", "n": 2} in conditions
        assert {"kind": "mill_main_colours"} in conditions
        assert {"kind": "multipliers_built", "n": 1} in conditions
        assert {"kind": "lecture_majorities", "n": 2} in conditions
        assert {"kind": "sponsors_in_supply", "n": 5} in conditions
        assert {"kind": "programs_placed", "n": 2} in conditions
        assert {"kind": "meeting_rooms", "n": 3} in conditions

    def test_three_meeting_rooms_is_worth_7(self):
        # rulebook: Isobel's 3 different Meeting rooms takes the 7-Prestige space
        obj = next(o for o in C.OBJECTIVES if o["condition"] == {"kind": "meeting_rooms", "n": 3})
        assert obj["high"] == 7

    def test_condition_kinds_are_the_engine_vocabulary(self):
        for o in C.OBJECTIVES:
            assert o["condition"]["kind"] in C.OBJECTIVE_CONDITION_KINDS

    def test_sponsor_objective_is_not_met_at_start(self):
        # design: a starting supply (7 starting cards + 1 tier 1) holds fewer than 5 sponsors
        for colour in C.PLAYER_COLOURS:
            deck = [p for p in C.PARTNERS if p["deck"] == colour]
            sponsors = sum(p["science"] is None for p in deck) + 1
            assert sponsors < 5

    def test_standard_objectives_all_side_a(self):
        # content-facts.md: all 4 placed tiles show the same letter
        objs = by_id(C.OBJECTIVES)
        chosen = C.STANDARD_SETUP["objectives"]
        assert set(chosen) == {"study", "travel", "meetings", "institutions"}
        assert {objs[oid]["side"] for oid in chosen.values()} == {"A"}
        assert all(objs[oid]["area"] == area for area, oid in chosen.items())


class TestPrograms:
    def test_28_tiles(self):
        # content-facts.md: Program tiles 28
        assert len(C.PROGRAMS) == 28 == C.COMPONENTS["program_tiles"]

    def test_values_3_and_4_is_worth_8(self):
        # content-facts.md: "dice of values 3 and 4" (8 Prestige)
        prog = next(
            p for p in C.PROGRAMS if p["criteria"] == {"kind": "values_in", "values": [3, 4]}
        )
        assert prog["prestige"] == 8
        assert prog["provisional"] is False

    def test_prestige_range_and_scale(self):
        # brief: 5-12; rulebook: 4 Programs gave 30 in the example
        prestige = [p["prestige"] for p in C.PROGRAMS]
        assert min(prestige) >= 5 and max(prestige) <= 12
        assert 26 <= 4 * sum(prestige) / len(prestige) <= 34

    def test_criteria_kinds_are_the_engine_vocabulary(self):
        for p in C.PROGRAMS:
            assert p["criteria"]["kind"] in C.PROGRAM_CRITERIA_KINDS

    def test_criteria_are_distinct(self):
        crit = [repr(sorted(p["criteria"].items())) for p in C.PROGRAMS]
        assert len(set(crit)) == len(crit)

    def test_all_same_value_is_the_hardest(self):
        same = next(p for p in C.PROGRAMS if p["criteria"]["kind"] == "all_same_value")
        assert same["prestige"] == max(p["prestige"] for p in C.PROGRAMS)


class TestAssignments:
    def test_30_cards(self):
        # content-facts.md: Assignment cards 30
        assert len(C.ASSIGNMENTS) == 30 == C.COMPONENTS["assignment_cards"]

    def test_visit_textile_factory(self):
        # content-facts.md: Visit Textile Factory (blue; gain 1 blue Research and 1 Coal)
        card = by_id(C.ASSIGNMENTS)["visit_textile_factory"]
        assert card["name"] == "Visit Textile Factory"
        assert card["colours"] == ["B"]
        assert card["effect"] == [
            {"op": "research", "track": "B", "n": 1, "different": False},
            {"op": "gain", "coal": 1},
        ]

    def test_colour_mix(self):
        # content-facts.md: two-colour and colourless Assignments exist; brief: ~5-6 per colour
        sizes = Counter(len(a["colours"]) for a in C.ASSIGNMENTS)
        assert sizes[0] >= 2 and sizes[2] >= 2
        singles = Counter(a["colours"][0] for a in C.ASSIGNMENTS if len(a["colours"]) == 1)
        assert set(singles) == {"P", "B", "Y", "G"}
        assert all(4 <= n <= 6 for n in singles.values())

    def test_discard_costs(self):
        # content-facts.md: some Assignments cost discarding Partner cards from hand
        discards = Counter(a["discard"] for a in C.ASSIGNMENTS)
        assert discards[1] >= 1 and discards[2] >= 1 and discards[0] >= 15


class TestPartners:
    def test_counts(self):
        # content-facts.md: 7 starting cards per player (4 decks), 10 tier 1, 30 tier 2
        tiers = Counter(p["tier"] for p in C.PARTNERS)
        assert tiers == Counter({"S": 28, 1: 10, 2: 30})
        assert len(C.PARTNERS) == 68
        decks = Counter(p["deck"] for p in C.PARTNERS if p["tier"] == "S")
        assert decks == Counter({c: 7 for c in C.PLAYER_COLOURS})
        assert all(p["deck"] is None for p in C.PARTNERS if p["tier"] != "S")

    def test_starting_decks_are_functionally_identical(self):
        # brief: seats are fair
        def signature(card):
            return (
                str(card["science"]),
                card["prestige"],
                repr(card["need"]),
                repr(card["effect"]),
            )

        decks = {
            colour: sorted(signature(p) for p in C.PARTNERS if p["deck"] == colour)
            for colour in C.PLAYER_COLOURS
        }
        assert all(d == decks["red"] for d in decks.values())

    def test_starting_cards_are_weak(self):
        for p in C.PARTNERS:
            if p["tier"] == "S":
                assert p["prestige"] in (0, -1)

    def test_people_are_distinct(self):
        names = [p["name"] for p in C.PARTNERS]
        assert len(names) == len(set(names))

    def test_augustus_de_morgan(self):
        # content-facts.md: needs a die of 2; gain 1 Innovation and a Study item
        card = partner_by_name("Augustus De Morgan")
        assert card["need"] == {"kind": "value", "values": [2]}
        assert card["effect"] == [
            {"op": "innovation", "n": 1},
            {"op": "study_item", "n": 1, "different": False},
        ]

    def test_caroline_herschel(self):
        # content-facts.md: build an Addition Gear free
        card = partner_by_name("Caroline Herschel")
        assert {"op": "build_free", "gear": "add"} in card["effect"]

    def test_bryan_donkin(self):
        # content-facts.md: gain £3 and swap a built Subtraction Gear for an Addition Gear
        card = partner_by_name("Bryan Donkin")
        assert card["effect"] == [{"op": "gain", "money": 3}, {"op": "upgrade_subtraction"}]

    def test_named_partners_exist(self):
        # content-facts.md: Menabrea; press: Charles Babbage, Charles Dickens, Queen Victoria
        for name in ("Luigi Menabrea", "Charles Babbage", "Charles Dickens", "Queen Victoria"):
            partner_by_name(name)

    def test_isobel_removes_menabrea_from_the_display_deck(self):
        # rulebook: Isobel gains a display card and removes Menabrea (not a starting card)
        assert partner_by_name("Luigi Menabrea")["deck"] is None

    def test_need_kinds(self):
        # content-facts.md: a required die value; "N-1"; "N x £"
        kinds = Counter(p["need"]["kind"] for p in C.PARTNERS)
        assert set(kinds) == {"value", "minus1", "money"}

    def test_sponsors_and_negative_prestige_exist(self):
        # content-facts.md: Sciences or none (sponsors); Prestige may be negative
        assert any(p["science"] is None for p in C.PARTNERS if p["tier"] == 2)
        assert any(p["prestige"] < 0 for p in C.PARTNERS)
        assert {p["science"] for p in C.PARTNERS} == set(C.SCIENCES) | {None}

    def test_enough_sponsors_for_the_sponsor_objective(self):
        # rulebook: "Have 5 Partner cards that don't belong to a Science" must be reachable
        assert sum(p["science"] is None and p["tier"] != "S" for p in C.PARTNERS) >= 6

    def test_tier_2_prestige_scale(self):
        # brief: tier 2 prestige 0-4; a good final supply of 8 sums to about 9
        tier2 = sorted((p["prestige"] for p in C.PARTNERS if p["tier"] == 2), reverse=True)
        assert all(0 <= v <= 4 for v in tier2)
        start = [p["prestige"] for p in C.PARTNERS if p["deck"] == "red"]
        # keep 3 starting cards (best), gain a tier 1 and 4 median tier 2 cards
        median = tier2[len(tier2) // 2]
        typical = sum(sorted(start, reverse=True)[:3]) + 1 + 4 * median
        assert 6 <= typical <= 12

    def test_tiers_get_stronger(self):
        def mean(tier):
            values = [p["prestige"] for p in C.PARTNERS if p["tier"] == tier]
            return sum(values) / len(values)

        assert mean("S") < mean(1) < mean(2)


class TestStandardSetup:
    def test_every_tile_space_filled(self):
        # content-facts.md: a standard setup is printed on the board
        setup = C.STANDARD_SETUP["universities"]
        spaces = {c["id"] for c in C.CITIES if c["region"] in ("southern", "central")}
        assert set(setup) == spaces
        tiles = by_id(C.UNIVERSITY_TILES)
        for cid, tid in setup.items():
            assert tiles[tid]["region"] == city(cid)["region"]

    def test_manchester_gets_the_add_gear_tile(self):
        # rulebook: Anthony gains an Addition Gear and builds it free at Manchester
        assert C.STANDARD_SETUP["universities"]["manchester"] == "uni_c_add_gear"
