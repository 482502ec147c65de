"""Tests of the designed edition (engine/editions/designed-1.toml): the component counts and
every fact the rules state about the data, checked here by code independent of engine/facts.py
(its own map search, say), and our design goals for this edition (marked "brief" or "design":
a printed edition need not meet them).

Each test names the fact it checks (content-facts.md / rulebook / actions-turn).
"""

from __future__ import annotations

import heapq
from collections import Counter, deque
from copy import deepcopy

import pytest

from engine import vocabulary as V
from engine.edition import EDITIONS_DIR, FIRST_EDITION, Edition, EditionError, edition

ED = edition(FIRST_EDITION)

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
    return by_id(ED.cities)[cid]


def partner_by_name(name):
    matches = [p for p in ED.partners if p["name"] == name]
    assert len(matches) == 1, name
    return matches[0]


def all_effects():
    """Every effect list in the content, with a label."""
    out = [(f"workshop/{k}", v["effect"]) for k, v in ED.workshop_bonuses.items()]
    out += [(f"program space/{s['line']}", s["effect"]) for s in ED.program_spaces]
    out += [(f"city/{c['id']}", c["reward"]) for c in ED.cities if c["reward"] is not None]
    out += [(f"tile/{t['id']}", t["reward"]) for t in ED.university_tiles]
    out += [
        (f"{i['id']}/{lvl}", sp["effect"])
        for i in ED.institutions
        for lvl, sp in i["spaces"].items()
    ]
    out += [("analytical society", ED.analytical_society["effect"])]
    out += [(f"bt/{b['id']}", b["effect"]) for b in ED.breakthroughs]
    out += [(f"asg/{a['id']}", a["effect"]) for a in ED.assignments]
    out += [(f"partner/{p['id']}", p["effect"]) for p in ED.partners]
    return out


def iter_steps(effect):
    for step in effect:
        yield step
        if step["op"] == "choose":
            for option in step["options"]:
                yield from iter_steps(option["effect"])


# --- map helpers (independent of engine/board.py) ---------------------------------------------


def adjacency():
    adj = {c["id"]: [] for c in ED.cities}
    for a, b, kind in ED.routes:
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
            new = cost + ED.route_cost[kind]
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
                walk(there, cost + ED.route_cost[kind], path + [there], kinds + [kind])

    walk(start, 0, [start], [])
    return target, found


def next_small_cities(start):
    """Small Cities one Small City away, skipping over Universities (actions-turn: Moving)."""
    adj = adjacency()
    kinds = {c["id"]: c["kind"] for c in ED.cities}
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


def derived(*edits):
    """designed-1 with edits, checked as any edition is (raises EditionError)."""
    return ED.derive("test-variant", edits)


class TestConsistency:
    """What engine/content.py's validate() checked, now part of loading every edition."""

    def test_the_designed_edition_loads(self):
        assert Edition.load(EDITIONS_DIR / "designed-1.toml").fingerprint == ED.fingerprint

    def test_rejects_unknown_op(self):
        with pytest.raises(EditionError, match=r'breakthroughs "bt_innovation".effect.*teleport'):
            derived(("breakthroughs[bt_innovation].effect", [{"op": "teleport"}]))

    def test_rejects_duplicate_ids(self):
        programs = deepcopy(ED.document["programs"])
        with pytest.raises(EditionError, match="the same id twice"):
            derived(("programs", programs + [programs[1]]))

    def test_rejects_unknown_condition_kind(self):
        with pytest.raises(EditionError, match="unknown kind 'be_lucky'"):
            derived(("objectives[0].condition", {"kind": "be_lucky"}))

    def test_rejects_dangling_setup_reference(self):
        with pytest.raises(EditionError, match="manchester: 'no_such_tile'"):
            derived(("standard_setup.universities.manchester", "no_such_tile"))

    def test_effect_ops_are_exactly_the_engine_vocabulary(self):
        # brief: use ONLY the ops the engine implements
        assert set(V.EFFECT_OPS) == ALL_OPS
        for where, effect in all_effects():
            for step in iter_steps(effect):
                assert step["op"] in ALL_OPS, where

    def test_every_effect_is_short_and_has_text(self):
        # brief: keep effects 1-3 steps, each with a human text
        for where, effect in all_effects():
            assert 1 <= len(effect) <= 3, where
        texts = (
            [b["text"] for b in ED.workshop_bonuses.values()]
            + [s["text"] for s in ED.program_spaces]
            + [c["text"] for c in ED.cities]
            + [t["text"] for t in ED.university_tiles]
            + [sp["text"] for i in ED.institutions for sp in i["spaces"].values()]
            + [b["text"] for b in ED.breakthroughs]
            + [a["text"] for a in ED.assignments]
            + [p["text"] for p in ED.partners]
        )
        assert all(isinstance(t, str) and t.strip() for t in texts)

    def test_every_item_is_flagged_provisional_or_sourced(self):
        # content-facts.md: designed items are marked so real values can replace them
        collections = [
            ED.multipliers,
            ED.cities,
            ED.university_tiles,
            ED.breakthroughs,
            ED.objectives,
            ED.programs,
            ED.assignments,
            ED.partners,
            ED.steam_track,
            ED.meeting_rooms,
            ED.program_spaces,
            ED.institutions,
        ]
        for items in collections:
            for item in items:
                assert isinstance(item["provisional"], bool), item
                if item["provisional"] is False:
                    assert item.get("source"), item
        for inst in ED.institutions:
            for space in inst["spaces"].values():
                assert isinstance(space["provisional"], bool)

    def test_ids_are_snake_case(self):
        for items in (ED.partners, ED.assignments, ED.programs, ED.objectives, ED.cities):
            for item in items:
                assert item["id"].replace("_", "").isalnum() and item["id"].islower()


class TestDice:
    def test_fifty_dice_ten_per_colour(self):
        # content-facts.md: Dice 50 = 10 each of yellow, blue, green, purple, grey
        assert V.DIE_COLOURS == ("Y", "B", "G", "P", "K")
        assert ED.dice_per_colour == 10
        assert ED.dice_per_colour * len(V.DIE_COLOURS) == ED.components["dice"] == 50

    def test_dice_removed_by_player_count(self):
        # content-facts.md: 3 players remove 1 of each colour; 2 players 2 of each
        assert ED.dice_removed_per_colour == {4: 0, 3: 1, 2: 2}

    def test_action_colours(self):
        # content-facts.md: Study purple, Travel blue, Meetings yellow, Institutions green
        assert V.COLOURS_MAIN == ("P", "B", "Y", "G")
        assert V.AREA_COLOUR == {
            "study": "P",
            "travel": "B",
            "meetings": "Y",
            "institutions": "G",
        }

    def test_sciences_and_player_colours(self):
        assert V.SCIENCES == ("mathematics", "physics", "astronomy", "engineering")
        assert ED.player_colours == ["red", "lime", "sky", "purple"]


class TestWorkshop:
    def test_six_spaces_three_dice_each(self):
        # content-facts.md: Workshop 6 spaces in a circle, 3 rolled dice each at setup
        assert ED.workshop_spaces == 6
        assert ED.workshop_dice_per_space == 3

    def test_bonus_rewards(self):
        # content-facts.md: 1 Research, 2 Coal, £3, 1 Innovation, 1 Brass, draw 2 Partner cards
        b = ED.workshop_bonuses
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
        assert sorted(ED.workshop_order) == sorted(ED.workshop_bonuses)
        assert ED.standard_setup["workshop_order"] == ED.workshop_order


class TestPlayerBoard:
    def test_store_has_a_few_slots(self):
        # content-facts.md: Store "a few die slots"; size designed
        assert 3 <= ED.store_slots <= 5
        assert ED.marks["player_board.store_slots"].provisional

    def test_mill_is_3x3_with_12_gear_spaces(self):
        # content-facts.md: Mill 3x3 die slots, 12 Gear spaces
        assert V.MILL_SIZE == 3
        assert V.MILL_GEAR_SPACES == 12 == ED.components["discs_per_player"]

    def test_program_spaces_bonuses(self):
        # content-facts.md: 6 Program spaces, one per line: 1 Book; 2 Innovation; draw 3 cards;
        # 2 different Workshop bonus rewards; 2 Research; 2 Brass
        spaces = ED.program_spaces
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
        assert ED.steam_track[3]["cap"] == 20

    def test_steam_caps_25_and_30_exist(self):
        # content-facts.md: lines capped at 25 and 30 appear in the examples
        caps = [level["cap"] for level in ED.steam_track]
        assert 25 in caps and 30 in caps
        assert caps == sorted(caps)

    def test_steam_costs_coal(self):
        # content-facts.md: advancing may cost Coal as printed on the track
        assert all(level["coal"] >= 0 for level in ED.steam_track)
        assert any(level["coal"] > 0 for level in ED.steam_track)
        assert 0 <= ED.steam_start < 3

    def test_anthony_top_row_capped_at_30(self):
        # rulebook: Anthony's 5 + 3 x 4 = 32 "would only score 30 as its limited by the Steam"
        assert any(level["cap"] == 30 for level in ED.steam_track)
        assert min(32, 30) == 30

    def test_innovation_track(self):
        # content-facts.md: Innovation 0..6, the top 2 spaces score
        assert ED.innovation_max == 6
        assert 0 <= ED.innovation_start < ED.innovation_max
        assert set(ED.innovation_prestige) == {5, 6}
        assert ED.innovation_prestige[6] >= ED.innovation_prestige[5] > 0
        assert ED.innovation_top_spend == 2

    def test_research_track_shape(self):
        # content-facts.md: Breakthrough (!) spaces, advanced levels I and II, a top space
        track = ED.research_track
        lvl1, lvl2 = track["advanced"]
        assert 0 < lvl1 < lvl2 < track["top"]
        assert lvl1 <= 3  # designed: level I reachable in a few turns
        assert len(track["breakthroughs"]) >= 1
        assert all(0 < b < track["top"] for b in track["breakthroughs"])

    def test_assignment_scoring_token_stack(self):
        # content-facts.md: 16 tokens, 4 per action colour, a 2 on top of 1s
        assert ED.assignment_token_stack == [2, 1, 1, 1]
        assert len(ED.assignment_token_stack) * 4 == ED.components["assignment_scoring_tokens"]

    def test_science_scoring_token_stack(self):
        # content-facts.md: 16 tokens, 4 per science, 2 on top of 1s
        assert ED.science_token_stack == [2, 1, 1, 1]
        assert len(ED.science_token_stack) * 4 == ED.components["science_scoring_tokens"]


class TestSetup:
    def test_starting_resources(self):
        # rulebook Setup: £4, 1 Coal, 1 Brass, 1 Book; seats 2-4 get £1 / Coal / £1 + Coal
        assert ED.start_resources == {"money": 4, "coal": 1, "brass": 1, "books": 1}
        assert ED.seat_bonus == [{}, {"money": 1}, {"coal": 1}, {"money": 1, "coal": 1}]

    def test_hand_and_supply(self):
        # rulebook: draw 4; hand limit 5; always 8 Partner cards in your supply
        assert (ED.start_hand, ED.hand_limit, ED.supply_size) == (4, 5, 8)

    def test_displays(self):
        # content-facts.md: Programs display 5, Assignments 4, Partners 4, Multipliers 2
        assert ED.program_display == 5
        assert ED.assignment_display == 4
        assert ED.partner_display == 4
        assert ED.multiplier_display == 2
        assert ED.tier1_deck_after_deal == 6

    def test_resource_counts(self):
        # content-facts.md: Books 12, Coal 36, Brass 36
        assert (ED.components["books"], ED.components["coal"], ED.components["brass"]) == (
            12,
            36,
            36,
        )
        assert ED.components["research_tokens_per_player"] == 4

    def test_travel_token_starts_in_london(self):
        # content-facts.md: 1 Travel token (London)
        assert ED.start_city == "london"


class TestGears:
    def test_gear_costs(self):
        # content-facts.md: an Addition Gear costs 2 Brass and 1 Coal; Subtraction shares the cost
        assert ED.gear_costs["add"] == {"brass": 2, "coal": 1}
        assert ED.gear_costs["sub"] == ED.gear_costs["add"]

    def test_gear_counts(self):
        # content-facts.md: 24 Addition, 8 Subtraction, 12 Multiplier
        assert ED.addition_gears == 24 == ED.components["addition_gears"]
        assert ED.subtraction_gears == 8 == ED.components["subtraction_gears"]
        assert len(ED.multipliers) == 12 == ED.components["multiplier_gears"]

    def test_start_gears(self):
        # content-facts.md: each player starts with 1 Addition and 2 Subtraction
        assert Counter(ED.start_gears) == Counter({"add": 1, "sub": 2})

    def test_multipliers_have_their_own_costs(self):
        # content-facts.md: each Multiplier has its own cost (Innovation, £, Coal or Brass)
        costs = [tuple(sorted(m["cost"].items())) for m in ED.multipliers]
        assert len(set(costs)) == 12
        for m in ED.multipliers:
            assert set(m["cost"]) <= {"innovation", "money", "coal", "brass"}
            assert m["provisional"] is True
        used = set().union(*(m["cost"] for m in ED.multipliers))
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

        base = weight(ED.gear_costs["add"])
        for m in ED.multipliers:
            assert base < weight(m["cost"]) <= base + 3, m["id"]

    def test_multiplier_ids_do_not_clash_with_gear_kinds(self):
        assert not {m["id"] for m in ED.multipliers} & {"add", "sub"}


class TestMap:
    def test_named_cities(self):
        # content-facts.md: London, Oxford, Bristol (University), Manchester (University),
        # Liverpool (Small City)
        assert city("london")["kind"] == "small"
        assert "oxford" in by_id(ED.cities)
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
        assert ED.route_cost == {"road": 1, "rail": 2, "ferry": 4}

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
        best, _ = dijkstra(ED.start_city)
        assert set(best) == {c["id"] for c in ED.cities}

    def test_liverpool_is_a_next_small_city_from_manchester(self):
        # rulebook: Anthony moves from Manchester to "the nearest small city", Liverpool
        assert "liverpool" in next_small_cities("manchester")

    def test_about_12_to_15_small_cities(self):
        small = [c for c in ED.cities if c["kind"] == "small"]
        assert 12 <= len(small) <= 15

    def test_university_regions(self):
        # content-facts.md: Southern (orange) and Central (blue) take tiles; Scottish are printed
        regions = Counter(c["region"] for c in ED.cities if c["kind"] == "university")
        assert set(regions) == {"southern", "central", "scottish"}
        assert regions["southern"] <= 8 and regions["central"] <= 7
        for c in ED.cities:
            if c["region"] == "scottish":
                assert c["reward"] and isinstance(c["prestige"], int)
            elif c["kind"] == "university":
                assert c["reward"] is None and "prestige" not in c

    def test_there_is_a_ferry(self):
        # content-facts.md: ferries exist (£4)
        assert any(kind == "ferry" for _, _, kind in ED.routes)

    def test_routes_are_unique_and_valid(self):
        ids = {c["id"] for c in ED.cities}
        pairs = [frozenset((a, b)) for a, b, _ in ED.routes]
        assert len(pairs) == len(set(pairs))
        for a, b, kind in ED.routes:
            assert a in ids and b in ids and a != b and kind in ED.route_cost

    def test_every_small_city_reward_is_modest(self):
        # brief: small-city rewards modest; Coal is "mostly found in Travel"
        coal_cities = 0
        for c in ED.cities:
            if c["kind"] != "small":
                continue
            assert len(c["reward"]) <= 2
            if any(s["op"] == "gain" and s.get("coal") for s in c["reward"]):
                coal_cities += 1
        assert coal_cities >= 6

    def test_coordinates_are_on_the_map(self):
        for c in ED.cities:
            x, y = c["xy"]
            assert 0 <= x <= 1 and 0 <= y <= 1
        # portrait map: Scotland north (smaller y) of London
        assert city("edinburgh")["xy"][1] < city("manchester")["xy"][1] < city("london")["xy"][1]


class TestUniversities:
    def test_fifteen_tiles_8_southern_7_central(self):
        # content-facts.md: University tiles 15: 8 Southern, 7 Central
        regions = Counter(t["region"] for t in ED.university_tiles)
        assert regions == Counter({"southern": 8, "central": 7})
        assert len(ED.university_tiles) == ED.components["university_tiles"]

    def test_add_gear_tile(self):
        # content-facts.md: Manchester's reward: gain an Addition Gear and build it free
        tile = by_id(ED.university_tiles)["uni_c_add_gear"]
        assert tile["region"] == "central"
        assert tile["reward"] == [
            {"op": "gain_gear", "gear": "add"},
            {"op": "build_free", "gear": "add"},
        ]

    def test_prestige_range(self):
        # designed: tiles 1-4 (2-5 before the balance report showed Travel far above the
        # rulebook's example score); the far Scottish Universities 3-4
        for t in ED.university_tiles:
            assert 1 <= t["prestige"] <= 4
        for c in ED.cities:
            if c["region"] == "scottish":
                assert 3 <= c["prestige"] <= 4

    def test_isobel_bristol_and_manchester(self):
        # rulebook: Isobel, 2 discs on Bristol (own disc stacked on own) and 1 on Manchester:
        # 6 Prestige = Bristol + Manchester + 2 for the disc on top
        tiles = by_id(ED.university_tiles)
        setup = ED.standard_setup["universities"]
        bristol = tiles[setup["bristol"]]["prestige"]
        manchester = tiles[setup["manchester"]]["prestige"]
        assert bristol + manchester + 2 == 6


class TestMeetings:
    def test_room_costs_and_draws(self):
        # content-facts.md: £5 or 3, £4 or 2, £3 or 2, £2 or 1; draws 2, 1, 1, 0 by slot
        rooms = ED.meeting_rooms
        assert [(r["money"], r["innovation"]) for r in rooms] == [(5, 3), (4, 2), (3, 2), (2, 1)]
        assert [r["draw"] for r in rooms] == [2, 1, 1, 0]

    def test_rooms_have_several_spaces(self):
        # content-facts.md: each room has several disc spaces
        assert all(r["capacity"] >= 2 for r in ED.meeting_rooms)

    def test_science_rooms_in_standard_setup(self):
        # content-facts.md: one science stack assigned above each Meeting room
        assert sorted(ED.standard_setup["science_rooms"]) == sorted(V.SCIENCES)


class TestInstitutions:
    def test_lecture_costs(self):
        # content-facts.md: levels 2 and 3 cost 1, 4 and 5 cost 2, 6 costs 3
        assert ED.lecture_costs == {2: 1, 3: 1, 4: 2, 5: 2, 6: 3}

    def test_isobel_first_lecture_costs(self):
        # rulebook: first Lecture: level 5 costs 6, 4 costs 4, 3 costs 2, 2 costs 1, 6 costs 9 (> 6)
        def first_cost(level):
            return sum(ED.lecture_costs[lvl] for lvl in range(2, level + 1))

        assert [first_cost(lvl) for lvl in (2, 3, 4, 5)] == [1, 2, 4, 6]
        assert first_cost(6) > ED.innovation_max

    def test_majorities(self):
        # content-facts.md: row majority 8/6/4/2/2 for levels 6/5/4/3/2
        assert ED.lecture_majority == {6: 8, 5: 6, 4: 4, 3: 2, 2: 2}

    def test_institutions_in_column_order(self):
        # content-facts.md: Royal Society, BAAS, Royal Astronomical Society, British Government
        assert [i["id"] for i in ED.institutions] == [
            "royal_society",
            "advancement_of_science",
            "astronomical_society",
            "british_government",
        ]
        assert [i["name"] for i in ED.institutions] == [
            "Royal Society",
            "British Association for the Advancement of Science",
            "Royal Astronomical Society",
            "British Government",
        ]

    def test_levels_2_to_6(self):
        # content-facts.md: lecture levels 2 to 6 (one disc each)
        for inst in ED.institutions:
            assert sorted(inst["spaces"]) == [2, 3, 4, 5, 6]

    def test_royal_society_level_6(self):
        # content-facts.md: use the effect of a Partner in the display + an Engineering token
        space = ED.institutions[0]["spaces"][6]
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
            for i in ED.institutions
            for lvl, sp in i["spaces"].items()
            if sp["effect"] == wanted
        ]
        assert len(places) == 1 and places[0][0] == "astronomical_society"

    def test_money_and_2_different_study_items_below_level_6(self):
        # content-facts.md: some space below level 6 = £1 and 2 different Study items
        wanted = [{"op": "gain", "money": 1}, {"op": "study_item", "n": 2, "different": True}]
        places = [
            lvl
            for i in ED.institutions
            for lvl, sp in i["spaces"].items()
            if sp["effect"] == wanted
        ]
        assert len(places) == 1 and places[0] < 6

    def test_analytical_society(self):
        # content-facts.md: level 1, draw 1 card and gain £2
        assert ED.analytical_society["effect"] == [
            {"op": "draw", "n": 1},
            {"op": "gain", "money": 2},
        ]

    def test_each_level_6_gives_a_different_science_token(self):
        # design: every top Lecture carries a Science Scoring token, one per Science
        sciences = []
        for inst in ED.institutions:
            steps = [s for s in inst["spaces"][6]["effect"] if s["op"] == "science_token"]
            assert len(steps) == 1
            sciences.append(steps[0]["science"])
        assert sorted(sciences) == sorted(V.SCIENCES)


class TestBreakthroughs:
    def test_nine_tokens(self):
        # content-facts.md: Breakthrough tokens 9
        assert len(ED.breakthroughs) == 9 == ED.components["breakthrough_tokens"]

    def test_gain_1_innovation_token(self):
        # rulebook: Ketan reaches a Breakthrough and gains 1 Innovation
        effects = [b["effect"] for b in ED.breakthroughs]
        assert [{"op": "innovation", "n": 1}] in effects

    def test_standard_setup_one_per_track(self):
        # content-facts.md: one per Research track, 4 used; Ketan's blue Breakthrough = Innovation
        bts = ED.standard_setup["breakthroughs"]
        assert set(bts) == {"P", "B", "Y", "G"} and len(set(bts.values())) == 4
        assert by_id(ED.breakthroughs)[bts["B"]]["effect"] == [{"op": "innovation", "n": 1}]

    def test_breakthroughs_do_not_chain(self):
        # design: a Breakthrough reward never grants another Breakthrough
        for b in ED.breakthroughs:
            assert all(s["op"] not in ("breakthrough", "research") for s in b["effect"])


class TestObjectives:
    def test_24_tiles_6_per_area_3_per_side(self):
        # content-facts.md: 24 Objective tiles, 6 per action area, marked A or B
        assert len(ED.objectives) == 24 == ED.components["objective_tiles"]
        counts = Counter((o["area"], o["side"]) for o in ED.objectives)
        for area in ("study", "travel", "meetings", "institutions"):
            assert counts[(area, "A")] == 3 and counts[(area, "B")] == 3

    def test_high_above_low(self):
        # content-facts.md: a higher and a lower Prestige space (7 is a higher value)
        for o in ED.objectives:
            assert o["high"] > o["low"] >= 2
            assert 5 <= o["high"] <= 8

    def test_rulebook_examples_exist(self):
        # content-facts.md: the Objective examples
        conditions = [o["condition"] for o in ED.objectives]
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
        obj = next(o for o in ED.objectives if o["condition"] == {"kind": "meeting_rooms", "n": 3})
        assert obj["high"] == 7

    def test_condition_kinds_are_the_engine_vocabulary(self):
        for o in ED.objectives:
            assert o["condition"]["kind"] in V.OBJECTIVE_CONDITION_KINDS

    def test_sponsor_objective_is_not_met_at_start(self):
        # design: a starting supply (7 starting cards + 1 tier 1) holds fewer than 5 sponsors
        for colour in ED.player_colours:
            deck = [p for p in ED.partners if p["deck"] == colour]
            sponsors = sum(p["science"] is None for p in deck) + 1
            assert sponsors < 5

    def test_standard_objectives_all_side_a(self):
        # content-facts.md: all 4 placed tiles show the same letter
        objs = by_id(ED.objectives)
        chosen = ED.standard_setup["objectives"]
        assert set(chosen) == {"study", "travel", "meetings", "institutions"}
        assert {objs[oid]["side"] for oid in chosen.values()} == {"A"}
        assert all(objs[oid]["area"] == area for area, oid in chosen.items())


class TestPrograms:
    def test_28_tiles(self):
        # content-facts.md: Program tiles 28
        assert len(ED.programs) == 28 == ED.components["program_tiles"]

    def test_values_3_and_4_is_worth_8(self):
        # content-facts.md: "dice of values 3 and 4" (8 Prestige)
        prog = next(
            p for p in ED.programs if p["criteria"] == {"kind": "values_in", "values": [3, 4]}
        )
        assert prog["prestige"] == 8
        assert prog["provisional"] is False

    def test_prestige_range_and_scale(self):
        # brief: 5-12; rulebook: 4 Programs gave 30 in the example
        prestige = [p["prestige"] for p in ED.programs]
        assert min(prestige) >= 5 and max(prestige) <= 12
        assert 26 <= 4 * sum(prestige) / len(prestige) <= 34

    def test_criteria_kinds_are_the_engine_vocabulary(self):
        for p in ED.programs:
            assert p["criteria"]["kind"] in V.PROGRAM_CRITERIA_KINDS

    def test_criteria_are_distinct(self):
        crit = [repr(sorted(p["criteria"].items())) for p in ED.programs]
        assert len(set(crit)) == len(crit)

    def test_all_same_value_is_the_hardest(self):
        same = next(p for p in ED.programs if p["criteria"]["kind"] == "all_same_value")
        assert same["prestige"] == max(p["prestige"] for p in ED.programs)


class TestAssignments:
    def test_30_cards(self):
        # content-facts.md: Assignment cards 30
        assert len(ED.assignments) == 30 == ED.components["assignment_cards"]

    def test_visit_textile_factory(self):
        # content-facts.md: Visit Textile Factory (blue; gain 1 blue Research and 1 Coal)
        card = by_id(ED.assignments)["visit_textile_factory"]
        assert card["name"] == "Visit Textile Factory"
        assert card["colours"] == ["B"]
        assert card["effect"] == [
            {"op": "research", "track": "B", "n": 1, "different": False},
            {"op": "gain", "coal": 1},
        ]

    def test_colour_mix(self):
        # content-facts.md: two-colour and colourless Assignments exist; brief: ~5-6 per colour
        sizes = Counter(len(a["colours"]) for a in ED.assignments)
        assert sizes[0] >= 2 and sizes[2] >= 2
        singles = Counter(a["colours"][0] for a in ED.assignments if len(a["colours"]) == 1)
        assert set(singles) == {"P", "B", "Y", "G"}
        assert all(4 <= n <= 6 for n in singles.values())

    def test_discard_costs(self):
        # content-facts.md: some Assignments cost discarding Partner cards from hand
        discards = Counter(a["discard"] for a in ED.assignments)
        assert discards[1] >= 1 and discards[2] >= 1 and discards[0] >= 15


class TestPartners:
    def test_counts(self):
        # content-facts.md: 7 starting cards per player (4 decks), 10 tier 1, 30 tier 2
        tiers = Counter(p["tier"] for p in ED.partners)
        assert tiers == Counter({"S": 28, 1: 10, 2: 30})
        assert len(ED.partners) == 68
        decks = Counter(p["deck"] for p in ED.partners if p["tier"] == "S")
        assert decks == Counter({c: 7 for c in ED.player_colours})
        assert all(p["deck"] is None for p in ED.partners if p["tier"] != "S")

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
            colour: sorted(signature(p) for p in ED.partners if p["deck"] == colour)
            for colour in ED.player_colours
        }
        assert all(d == decks["red"] for d in decks.values())

    def test_starting_cards_are_weak(self):
        for p in ED.partners:
            if p["tier"] == "S":
                assert p["prestige"] in (0, -1)

    def test_people_are_distinct(self):
        names = [p["name"] for p in ED.partners]
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
        kinds = Counter(p["need"]["kind"] for p in ED.partners)
        assert set(kinds) == {"value", "minus1", "money"}

    def test_sponsors_and_negative_prestige_exist(self):
        # content-facts.md: Sciences or none (sponsors); Prestige may be negative
        assert any(p["science"] is None for p in ED.partners if p["tier"] == 2)
        assert any(p["prestige"] < 0 for p in ED.partners)
        assert {p["science"] for p in ED.partners} == set(V.SCIENCES) | {None}

    def test_enough_sponsors_for_the_sponsor_objective(self):
        # rulebook: "Have 5 Partner cards that don't belong to a Science" must be reachable
        assert sum(p["science"] is None and p["tier"] != "S" for p in ED.partners) >= 6

    def test_tier_2_prestige_scale(self):
        # brief: tier 2 prestige 0-4; a good final supply of 8 sums to about 9
        tier2 = sorted((p["prestige"] for p in ED.partners if p["tier"] == 2), reverse=True)
        assert all(0 <= v <= 4 for v in tier2)
        start = [p["prestige"] for p in ED.partners if p["deck"] == "red"]
        # keep 3 starting cards (best), gain a tier 1 and 4 median tier 2 cards
        median = tier2[len(tier2) // 2]
        typical = sum(sorted(start, reverse=True)[:3]) + 1 + 4 * median
        assert 6 <= typical <= 12

    def test_tiers_get_stronger(self):
        def mean(tier):
            values = [p["prestige"] for p in ED.partners if p["tier"] == tier]
            return sum(values) / len(values)

        assert mean("S") < mean(1) < mean(2)


class TestStandardSetup:
    def test_every_tile_space_filled(self):
        # content-facts.md: a standard setup is printed on the board
        setup = ED.standard_setup["universities"]
        spaces = {c["id"] for c in ED.cities if c["region"] in ("southern", "central")}
        assert set(setup) == spaces
        tiles = by_id(ED.university_tiles)
        for cid, tid in setup.items():
            assert tiles[tid]["region"] == city(cid)["region"]

    def test_manchester_gets_the_add_gear_tile(self):
        # rulebook: Anthony gains an Addition Gear and builds it free at Manchester
        assert ED.standard_setup["universities"]["manchester"] == "uni_c_add_gear"
