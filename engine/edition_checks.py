"""An edition's consistency: unique ids, every reference known, effects in the engine's vocabulary.

What engine/content.py's validate() checked before editions, now run on every edition loaded
(engine.edition), after its shape and before the rules' facts (engine.facts).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from engine import vocabulary as V
from engine.edition_file import Problem

Need = Callable[[Any, str | None, str], bool]  # need(ok, field, what is wrong): ok


class Checks:
    """Collects problems; `at(section, item)` gives a `need` that records one when not ok."""

    def __init__(self) -> None:
        self.problems: list[Problem] = []

    def at(self, section: str, item: str | int | None = None) -> Need:
        def need(ok: Any, field: str | None, what: str) -> bool:
            if not ok:
                self.problems.append(Problem(section, item, field, what))
            return bool(ok)

        return need

    def effect(self, effect: list[dict[str, Any]], section: str, item: Any, field: str) -> None:
        need = self.at(section, item)
        if not need(effect, field, "an empty effect"):
            return
        for i, step in enumerate(effect):
            at, op = f"{field}[{i}]", step["op"]
            if not need(op in V.EFFECT_OPS, at, f"unknown op {op!r}"):
                continue
            required, optional = V.EFFECT_OPS[op]
            keys = set(step) - {"op"}
            need(required <= keys, at, f"{op} misses {sorted(required - keys)}")
            need(keys <= required | optional, at, f"{op} does not take {sorted(keys - required)}")
            if op in ("gain", "pay"):
                need(keys, at, f"{op} needs at least one resource")
                for k in keys & set(V.RESOURCES):
                    need(type(step[k]) is int and step[k] > 0, at, f"{op} {k} must be 1 or more")
            for key in ("n", "max"):
                if key in step:
                    need(type(step[key]) is int, at, f"{op} {key} must be a whole number")
            if op in ("per_hand", "per_disc"):
                gain = step.get("gain")
                ok = isinstance(gain, dict) and gain and set(gain) <= set(V.RESOURCES)
                need(ok, at, f"{op} gain must name resources")
            if op == "research":
                ok = step.get("track") in ("any", *V.COLOURS_MAIN)
                need(ok, at, "research track must be any, P, B, Y or G")
            if op in ("research", "workshop_bonus", "study_item", "breakthrough"):
                need(isinstance(step.get("different"), bool), at, f"{op} different: true|false")
            if op == "gain_gear":
                need(step.get("gear") in V.GEAR_KINDS, at, "gain_gear gear must be add or sub")
            if op == "build_free":
                need(step.get("gear") == "add", at, "build_free gear must be add")
            if op == "move_small":
                need(step.get("max") in (1, 2), at, "move_small max must be 1 or 2")
            if op == "science_token":
                ok = step.get("science") in ("any", *V.SCIENCES)
                need(ok, at, "science_token science must be any or a Science")
            if op == "steam":
                need(isinstance(step.get("free"), bool), at, "steam free must be true or false")
            if op == "choose":
                options = step.get("options") or []
                need(len(options) >= 2, at, "choose needs 2 options or more")
                for j, option in enumerate(options):
                    self.effect(option["effect"], section, item, f"{at}.options[{j}]")

    def unique(self, items: list[dict[str, Any]], section: str) -> set[str]:
        """The ids of a section's items; twice the same, or not lower_snake_case, is a problem."""
        seen: set[str] = set()
        for i, it in enumerate(items):
            iid = it.get("id")
            if isinstance(iid, str):
                self.at(section, iid)(iid not in seen, "id", "the same id twice")
                ok = re.fullmatch(r"[a-z0-9_]+", iid)
                self.at(section, i)(ok, "id", "ids are lower_snake_case")
                seen.add(iid)
        return seen

    def arguments(self, kinds: dict[str, Any], table: dict[str, Any], need: Need, field: str):
        """An Objective condition's or Program criteria's kind and arguments."""
        kind: Any = table.get("kind")  # unchecked file content
        if not need(kind in kinds, field, f"unknown kind {kind!r}"):
            return
        spec = kinds[kind]
        required, optional = spec if isinstance(spec, tuple) else (spec, frozenset())
        got = set(table) - {"kind"}
        ok = required <= got <= required | optional
        need(ok, field, f"{kind} takes {sorted(required | optional)}, got {sorted(got)}")


def check_consistency(d: dict[str, Any]) -> list[Problem]:
    """Every consistency problem of an edition's data (as engine.edition_file reads it)."""
    c = Checks()
    setup, ws = d["setup"], d["workshop"]

    need = c.at("workshop")
    order = ws["standard_order"]
    need(set(ws["bonuses"]) == set(order), "standard_order", "must list every bonus")
    need(len(order) == len(set(order)), "standard_order", "lists a bonus twice")
    need(len(order) == ws["spaces"], "standard_order", "needs one bonus per Workshop space")
    for bid, bonus in ws["bonuses"].items():
        c.effect(bonus["effect"], "workshop.bonuses", bid, "effect")

    need = c.at("setup")
    need(0 <= setup["steam_start"] < len(d["steam_track"]), "steam_start", "not a Steam level")
    inn = d["innovation"]
    need(0 <= setup["innovation_start"] <= inn["max"], "innovation_start", "off the track")
    need(setup["player_colours"], "player_colours", "must not be empty")
    need(len(setup["player_colours"]) == 4, "player_colours", "one per player (4)")
    need(setup["start_gears"], "start_gears", "must not be empty")
    need(set(setup["start_gears"]) <= set(V.GEAR_KINDS), "start_gears", "add or sub only")
    resources = f"resources are {', '.join(V.RESOURCES)}"
    need(set(setup["start_resources"]) <= set(V.RESOURCES), "start_resources", resources)
    need(len(setup["seat_bonus"]) == 4, "seat_bonus", "one per seat (4)")
    ok = all(set(b) <= set(V.RESOURCES) for b in setup["seat_bonus"])
    need(ok, "seat_bonus", resources)
    need(setup["start_city"] in {x["id"] for x in d["cities"]}, "start_city", "unknown city")
    ok = set(d["dice"]["removed_per_colour"]) == {2, 3, 4}
    c.at("dice")(ok, "removed_per_colour", "one entry per player count 2, 3, 4")
    ok = set(d["gears"]["costs"]) == set(V.GEAR_KINDS)
    c.at("gears")(ok, "costs", "the costs of add and sub")

    caps = [level["cap"] for level in d["steam_track"]]
    c.at("steam_track")(caps == sorted(set(caps)), "cap", "caps must rise from level to level")
    need = c.at("innovation")
    need(all(0 <= k <= inn["max"] for k in inn["prestige"]), "prestige", "a space off the track")
    track = d["research"]["track"]
    if track:
        need = c.at("research")
        first, second = track["advanced"]
        need(0 < first < second < track["top"], "track", "needs 0 < level I < level II < top")
        ok = all(0 < b < track["top"] for b in track["breakthroughs"])
        need(ok, "track", "Breakthroughs must lie between 0 and the top")

    lines = sorted(s.get("line") for s in d["program_spaces"])
    need = c.at("program_spaces")
    need(lines == sorted(V.MILL_LINES), "line", f"one per Mill line ({', '.join(V.MILL_LINES)})")
    for i, space in enumerate(d["program_spaces"]):
        c.effect(space["effect"], "program_spaces", i, "effect")

    mult_ids = c.unique(d["multipliers"], "multipliers")
    c.at("multipliers")(not mult_ids & set(V.GEAR_KINDS), "id", "add and sub are taken")
    for m in d["multipliers"]:
        ok = set(m["cost"]) <= {*V.RESOURCES, "innovation"}
        c.at("multipliers", m["id"])(ok, "cost", "resources or innovation")

    _check_map(c, d)

    tile_ids = c.unique(d["university_tiles"], "university_tiles")
    for tile in d["university_tiles"]:
        ok = tile["region"] in ("southern", "central")
        c.at("university_tiles", tile["id"])(ok, "region", "southern or central")
        c.effect(tile["reward"], "university_tiles", tile["id"], "reward")

    c.unique(d["institutions"], "institutions")
    levels = sorted(d["lectures"]["levels"])
    for inst in d["institutions"]:
        ok = sorted(inst["spaces"]) == levels
        c.at("institutions", inst["id"])(ok, "spaces", f"one per Lecture level {levels}")
        for level, space in inst["spaces"].items():
            c.effect(space["effect"], "institutions", inst["id"], f"spaces[level {level}].effect")
    for name in ("costs", "majority"):
        ok = sorted(d["lectures"][name]) == levels
        c.at("lectures")(ok, name, "one entry per Lecture level")
    c.effect(d["analytical_society"]["effect"], "analytical_society", None, "effect")

    bt_ids = c.unique(d["breakthroughs"], "breakthroughs")
    for bt in d["breakthroughs"]:
        c.effect(bt["effect"], "breakthroughs", bt["id"], "effect")

    obj_ids = c.unique(d["objectives"], "objectives")
    city_ids = {x["id"] for x in d["cities"]}
    for obj in d["objectives"]:
        need = c.at("objectives", obj["id"])
        need(obj["area"] in V.AREA_COLOUR, "area", "an action area")
        need(obj["side"] in ("A", "B"), "side", "A or B")
        need(obj["high"] > obj["low"] > 0, "high", "high > low > 0")
        cond = obj["condition"]
        c.arguments(V.OBJECTIVE_CONDITION_KINDS, cond, need, "condition")
        kind = cond.get("kind")
        if kind == "universities_visited":
            ok = all(x in city_ids and x != setup["start_city"] for x in cond.get("cities", []))
            need(ok, "condition", "names an unknown city (or the start)")
        if kind == "university_count":
            need(cond.get("region") in (None, *V.REGIONS), "condition", "unknown region")
        if kind == "assignments_in_column":
            need(cond.get("colour") in V.COLOURS_MAIN, "condition", "unknown colour")
        if kind == "science_cards":
            need(cond.get("science") in V.SCIENCES, "condition", "unknown Science")

    c.unique(d["programs"], "programs")
    for prog in d["programs"]:
        need = c.at("programs", prog["id"])
        c.arguments(V.PROGRAM_CRITERIA_KINDS, prog["criteria"], need, "criteria")
        if prog["criteria"].get("kind") == "colour_count":
            need(prog["criteria"].get("colour") in V.DIE_COLOURS, "criteria", "unknown colour")

    c.unique(d["assignments"], "assignments")
    for asg in d["assignments"]:
        need = c.at("assignments", asg["id"])
        ok = len(asg["colours"]) <= 2 and set(asg["colours"]) <= set(V.COLOURS_MAIN)
        need(ok, "colours", "up to 2 of P, B, Y, G")
        need(asg["discard"] in (0, 1, 2), "discard", "0, 1 or 2")
        c.effect(asg["effect"], "assignments", asg["id"], "effect")

    c.unique(d["partners"], "partners")
    for card in d["partners"]:
        need = c.at("partners", card["id"])
        starting = card["tier"] == "S"
        ok = (card["deck"] in setup["player_colours"]) == starting
        need(ok, "deck", "a starting card (tier S) names its deck's colour; no other card has one")
        ok = card["science"] in (None, *V.SCIENCES)
        need(ok, "science", f"one of {', '.join(V.SCIENCES)} (leave it out for a sponsor)")
        want = card["need"]
        if need(want.get("kind") in V.NEED_KINDS, "need", "unknown kind"):
            if want["kind"] == "value":
                ok = want.get("values") and set(want["values"]) <= set(range(1, 7))
                need(ok, "need", "values are die faces 1-6")
            else:
                need(set(want) == {"kind"}, "need", "takes no values")
        c.effect(card["effect"], "partners", card["id"], "effect")

    _check_standard_setup(c, d, tile_ids, obj_ids, bt_ids)
    return c.problems


def _check_map(c: Checks, d: dict[str, Any]) -> None:
    city_ids = c.unique(d["cities"], "cities")
    for city in d["cities"]:
        need = c.at("cities", city["id"])
        x, y = city["xy"]
        need(0 <= x <= 1 and 0 <= y <= 1, "xy", "must lie in 0..1")
        if not need(city["kind"] in ("small", "university"), "kind", "small or university"):
            continue
        if city["kind"] == "small":
            need(city["region"] is None, "region", "a Small City has none")
            if need(city["reward"] is not None, "reward", "missing"):
                c.effect(city["reward"], "cities", city["id"], "reward")
        elif need(city["region"] in V.REGIONS, "region", f"one of {', '.join(V.REGIONS)}"):
            if city["region"] == "scottish":
                if need(city["reward"] is not None, "reward", "missing"):
                    c.effect(city["reward"], "cities", city["id"], "reward")
                need("prestige" in city, "prestige", "missing")
            else:
                need(city["reward"] is None, "reward", "comes from its tile")
                need("prestige" not in city, "prestige", "comes from its tile")
    travel = d["travel"]
    need = c.at("travel")
    kinds = f"route kinds are {', '.join(V.ROUTE_KINDS)}"
    need(set(travel["route_cost"]) <= set(V.ROUTE_KINDS), "route_cost", kinds)
    pairs: set[frozenset[str]] = set()
    for i, (a, b, kind) in enumerate(travel["routes"]):
        need(a in city_ids and b in city_ids and a != b, f"routes[{i}]", f"{a}-{b}: unknown city")
        need(kind in travel["route_cost"], f"routes[{i}]", f"{a}-{b}: unknown kind {kind!r}")
        need(frozenset((a, b)) not in pairs, f"routes[{i}]", f"{a}-{b} twice")
        pairs.add(frozenset((a, b)))


def _check_standard_setup(
    c: Checks, d: dict[str, Any], tile_ids: set[str], obj_ids: set[str], bt_ids: set[str]
) -> None:
    std = d["standard_setup"]
    need = c.at("standard_setup")
    tile_spaces = {x["id"] for x in d["cities"] if x["region"] in ("southern", "central")}
    unis = std["universities"]
    need(set(unis) == tile_spaces, "universities", "a tile for every southern and central space")
    need(len(set(unis.values())) == len(unis), "universities", "uses a tile twice")
    region_of = {x["id"]: x["region"] for x in d["cities"]}
    tile_region = {t["id"]: t["region"] for t in d["university_tiles"]}
    for cid, tid in unis.items():
        ok = tid in tile_ids and tile_region.get(tid) == region_of.get(cid)
        need(ok, "universities", f"{cid}: {tid!r} is not a {region_of.get(cid)} tile")
    need(set(std["objectives"]) == set(V.AREA_COLOUR), "objectives", "one per action area")
    area_of = {o["id"]: o["area"] for o in d["objectives"]}
    for area, oid in std["objectives"].items():
        ok = oid in obj_ids and area_of.get(oid) == area
        need(ok, "objectives", f"{area}: {oid!r} is not an Objective of that area")
    tokens = std["breakthroughs"]
    ok = set(tokens) == set(V.COLOURS_MAIN) and set(tokens.values()) <= bt_ids
    ok = ok and len(set(tokens.values())) == 4
    need(ok, "breakthroughs", "four different Breakthrough tokens, one per track P, B, Y, G")
    ok = sorted(std["science_rooms"]) == sorted(V.SCIENCES)
    need(ok, "science_rooms", "each Science once")
    ok = sorted(std["workshop_order"]) == sorted(d["workshop"]["bonuses"])
    need(ok, "workshop_order", "each Workshop bonus once")
