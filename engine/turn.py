"""The turn: Workshop turn, Actions turn (the four main actions and their advanced actions),
Publish or Build, and the end of a turn."""

from __future__ import annotations

from functools import cache, lru_cache
from typing import TYPE_CHECKING, Final

from engine import sentences as S
from engine import vocabulary as V
from engine.choices import (
    AdvanceSteam,
    AnalyticalSociety,
    AssignmentCard,
    AssignmentColumn,
    AttendRoom,
    BuildGear,
    ChangePip,
    CoalAdjust,
    DiscardCard,
    DisplayCard,
    Done,
    GearSpace,
    GoTo,
    IdleDie,
    LectureSpace,
    LowerSpace,
    MillSlot,
    MoveDiscHere,
    Pass,
    PlayCard,
    ProgramLine,
    ProgramTile,
    Publish,
    PushOut,
    RemoveCard,
    Skip,
    StackDisc,
    StoreAction,
    StudyItem,
    SwapOwnDie,
    WorkshopDie,
    WorkshopMove,
    read,
)
from engine.common import (
    AREA_TITLE,
    AUTO,
    SKIP,
    Choices,
    Step,
    _can_pay,
    _draw_die,
    _empty_lectures,
    _free_universities,
    _may_build,
    _need_text,
    _open_gear_spaces,
    _open_rooms,
    _own_dice,
    _partner_label,
    _pay,
    _put_disc,
    _reveal,
    _say,
    _set_own_die,
    _shown,
    _slide_and_refill,
    _take_disc,
    _where_name,
    city_reward,
    cost_text,
    discard_from_hand,
    discs_at,
    lecture_cost,
    lecture_costs,
    loc_name,
    own_board_discs,
    partner_name,
    play_from_hand,
    push,
    push_effect,
    research_level,
)
from engine.mill import LINE_NAMES, gear_space_name
from engine.state import (
    AREAS,
    COLOUR_AREA,
    DIE_NAMES,
    PIPS,
    TRACK_NAMES,
    GameState,
    die_name,
)
from engine.versions import rule

if TYPE_CHECKING:
    from engine.edition import Edition

# ======================================================================================
# Turn structure
# ======================================================================================


def _area_possible(st: GameState, area: str) -> bool:
    p = st.me
    if area == "study":
        # "Select ONE Program tile AND select ONE Study reward" (a Book is always there).
        if rule(st, "study_needs_a_program"):
            display = st.program_display
            return None in p.programs and display.count(None) < len(display)
        return True
    if area == "travel":
        money = p.money
        for cost, c in _cheapest_first(st.edition, p.city):
            if cost > money:
                return False
            if _may_stop(st, c):
                return True
        return False
    if area == "meetings":
        rooms, money, innovation = st.edition.meeting_rooms, p.money, p.innovation
        for r in range(4):
            if None in st.rooms[r] and (  # an open room (`_open_rooms`)
                money >= rooms[r]["money"] or innovation >= rooms[r]["innovation"]
            ):
                return True
        return False
    costs, innovation, taken = lecture_costs(st, st.current), p.innovation, st.lectures
    for key, _, lvl in st.edition.lecture_spaces:
        if costs[lvl] <= innovation and key not in taken:
            return True
    return False


def _workshop_move(s: int, die: str, moves: int) -> tuple[str, str]:
    """The Workshop turn's choice moving `die` from space `s` one or two spaces."""
    how_far = " two spaces (1 Coal)" if moves == 2 else ""
    label = f"Workshop: move {die_name(die)} from space {s + 1}{how_far}"
    return WorkshopMove.encode(s, die, moves), label


# space -> {die: (pips, its move one space, its move two spaces)}: the Workshop turn's choices,
# asked for every die at every turn
_WORKSHOP_MOVES: Final[list[dict[str, tuple[int, tuple[str, str], tuple[str, str]]]]] = [
    {die: (PIPS[die], _workshop_move(s, die, 1), _workshop_move(s, die, 2)) for die in DIE_NAMES}
    for s in range(6)
]


@lru_cache(maxsize=1 << 14)
def _space_dice(space: tuple[str, ...]) -> tuple[int, list[str]]:
    """A Workshop space's lowest pips and its different dice in order (a space holds the same
    dice at many turns: kept)."""
    return min(PIPS[d] for d in space), sorted(set(space))


@cache
def _store_actions(slot: int, die: str) -> list[tuple[str, tuple[str, str]]]:
    """(area, the Actions turn's choice) for each area a Store die could take, a grey die any
    (made once: asked at every turn)."""
    if die[0] == "K":
        return [
            (
                area,
                (StoreAction.encode(slot, area), f"Actions: grey {die[1]} for {AREA_TITLE[area]}"),
            )
            for area in AREAS
        ]
    area = COLOUR_AREA[die[0]]
    label = f"Actions: {die_name(die)} for {AREA_TITLE[area]}"
    return [(area, (StoreAction.encode(slot, None), label))]


def choices_turn(st: GameState, step: Step) -> Choices:
    p = st.me
    out: Choices = []
    store = p.store
    if None in store:
        # A moving die can push if the lowest die where it lands is at most its value, or one
        # more when a Coal is left for the optional adjust; the second space costs a Coal.
        spaces = [_space_dice(tuple(space)) if space else (9, []) for space in st.workshop]
        coal = p.coal
        for s, (_, dice) in enumerate(spaces):
            one = spaces[(s + 1) % 6][0] - (coal >= 1)
            two = spaces[(s + 2) % 6][0] - (coal >= 2) if coal >= 1 else 9
            moves = _WORKSHOP_MOVES[s]
            for die in dice:
                v, move_one, move_two = moves[die]
                if v >= one:
                    out.append(move_one)
                if v >= two:
                    out.append(move_two)
    if None in p.mill:
        # each area a Store die could take (a grey die any) is checked once, when first asked
        possible: dict[str, bool] = {}
        for i, store_die in enumerate(store):
            if store_die is None or store_die in store[:i]:
                continue
            for area, action in _store_actions(i, store_die):
                ok = possible.get(area)
                if ok is None:
                    ok = possible[area] = _area_possible(st, area)
                if ok:
                    out.append(action)
    if not out:
        # Designed rule for a corner the rulebook leaves open: with no turn possible, a die goes
        # to the Mill without its action, or (no die either) the turn passes.
        mill_full = None not in p.mill
        out = [
            (
                IdleDie.encode(i),
                f"No turn possible: put {die_name(d)} in your Mill without an action",
            )
            for i, d in enumerate(store)
            if d and not mill_full
        ] or [(Pass.ID, "No turn possible: pass")]
    return out


# the steps that end every turn
_END: Final = ("publish_or_build", "objectives", "hand_limit", "end_turn")
# the main action of an action area (Ada's Study's is two steps: see resolve_turn)
_MAIN_ACTION: Final = {"travel": "travel_move", "meetings": "meet_room", "institutions": "lecture"}


def resolve_turn(st: GameState, step: Step, choice: str) -> None:
    p = st.me
    end = _END
    value = read("turn", choice)
    if isinstance(value, WorkshopMove):
        s, die, moves = value.space, value.die, value.moves
        dest = (s + moves) % 6
        p.coal -= moves - 1
        st.workshop[s].remove(die)
        st.workshop[dest].append(die)  # the moving die is always last in its new space
        st.ctx = {"type": "workshop", "area": "workshop", "from": s, "to": dest}
        _say(st, S.WORKSHOP_TURN, die=die_name(die), space=s + 1, to=dest + 1)
        push(st, "ws_push", *end)
    elif isinstance(value, StoreAction):
        i = value.slot
        used = p.store[i]
        assert used is not None
        area = value.area or COLOUR_AREA[used[0]]
        p.store[i] = None
        st.ctx = {"type": "actions", "area": area, "die": used}
        _say(st, S.ACTIONS_TURN, die=die_name(used), area=AREA_TITLE[area])
        if area != "study":
            push(st, "mill_place", _MAIN_ACTION[area], "turn_advanced", *end)
        # actions-turn: "After your Study reward ... do the same with the Assignment display"
        elif rule(st, "study_cleanup_after_main_reward"):
            reward = {"op": "study_reward", "optional": False, "main": True}
            push(st, "mill_place", "study_program", reward, "study_cleanup", "turn_advanced", *end)
        else:
            reward = {"op": "study_reward", "optional": False}
            push(st, "mill_place", "study_program", reward, "turn_advanced", "study_cleanup", *end)
    elif isinstance(value, IdleDie):
        i = value.slot
        st.ctx = {"type": "idle", "area": None, "die": p.store[i]}
        p.store[i] = None
        _say(st, S.NO_TURN_IDLE)
        push(st, "mill_place", *end)
    else:
        st.ctx = {"type": "pass", "area": None}
        _say(st, S.NO_TURN_PASS)
        push(st, *end)


# -- Workshop turn ------------------------------------------------------------------------


def choices_ws_push(st: GameState, step: Step) -> Choices:
    dest = st.workshop[st.ctx["to"]]
    moving, coal = PIPS[dest[-1]], st.me.coal >= 1
    out: Choices = []
    for idx, die in enumerate(dest[:-1]):
        if die not in dest[:idx]:
            out += _push_outs(idx, die, moving, coal)
    return out


@cache
def _push_outs(idx: int, die: str, moving: int, coal: bool) -> Choices:
    """The ways the moving die (its pips `moving`) can push out a die (made once: asked at
    every Workshop turn). coal: whether a Coal is left to adjust."""
    v, name = PIPS[die], die_name(die)
    out: Choices = []
    if v <= moving:
        out.append((PushOut.encode(idx, None), f"Push out {name}"))
    if coal and 2 <= v <= moving + 1:
        out.append(
            (PushOut.encode(idx, "-"), f"Spend 1 Coal: lower {name} to {v - 1} and push it out")
        )
    if coal and v <= moving and v <= 5:
        out.append(
            (
                PushOut.encode(idx, "+"),
                f"Push out {name} and spend 1 Coal to raise it to {v + 1}",
            )
        )
    if coal and v == moving + 1 and moving < 6:
        out.append(
            (
                PushOut.encode(idx, "M"),
                f"Spend 1 Coal: raise the moving die to {v}, push out {name}",
            )
        )
    return out


def resolve_ws_push(st: GameState, step: Step, choice: str) -> None:
    p = st.me
    to = st.ctx["to"]
    dest = st.workshop[to]
    index, adjust = PushOut.decode(choice)
    die = dest.pop(index)
    if adjust is not None:
        p.coal -= 1
        st.ctx["adjusted"] = True
        if adjust == "M":
            dest[-1] = f"{dest[-1][0]}{int(dest[-1][1]) + 1}"
        else:
            die = f"{die[0]}{int(die[1]) + (1 if adjust == '+' else -1)}"
    st.ctx["active"] = die
    bonus = st.workshop_bonus[to]
    _say(st, S.PUSHES_OUT, die=die_name(die), bonus=st.edition.workshop_bonuses[bonus]["text"])
    if rule(st, "workshop_adjust_any_time"):
        push(st, *_AFTER_PUSH, {"op": "ws_adjust", "late": True})
    else:
        push(st, *_AFTER_PUSH)


# the Workshop turn's steps after the push
_AFTER_PUSH: Final = (
    "ws_bonus",
    "ws_refill",
    "ws_adjust",
    "ws_collect",
    "partner_play",
    "assignment_research",
)


def resolve_ws_bonus(st: GameState, step: Step, choice: None) -> None:
    push_effect(st, st.edition.workshop_bonuses[st.workshop_bonus[st.ctx["to"]]]["effect"])


def resolve_ws_refill(st: GameState, step: Step, choice: None) -> None:
    for s, space in enumerate(st.workshop):
        if not space and st.bag:
            space.extend(_draw_die(st) for _ in range(min(3, len(st.bag))))
            _reveal(st)
            _say(st, S.REFILLS, space=s + 1)
            push_effect(st, st.edition.workshop_bonuses[st.workshop_bonus[s]]["effect"])


def choices_ws_adjust(st: GameState, step: Step) -> Choices:
    """The optional Coal adjust, if not used to push: any die still in the Workshop.

    Quick Reference: "These actions can be done at any point during the Workshop turn." It is
    offered after the push (and refill) and, in rules version 2, once more at the end of the
    Workshop turn's steps if still unused and the Workshop changed since it was declined (a
    Partner swapped a die in, say) or the Coal to pay for it arrived since. Asking again with
    nothing changed would give the same choice twice.
    """
    if st.ctx.get("adjusted") or st.me.coal < 1:
        return []
    if step.get("late") and st.ctx.get("ws_declined") == st.workshop:
        return []
    out: Choices = [(Skip.ID, "Don't adjust a Workshop die")]
    for s, space in enumerate(st.workshop):
        for idx, die in enumerate(space):
            if die not in space[:idx]:
                out += _coal_adjusts(s, idx, die)
    return out


@cache
def _coal_adjusts(s: int, idx: int, die: str) -> Choices:
    """The Coal adjusts of one Workshop die, down then up (made once: asked at most turns)."""
    v = int(die[1])
    return [
        (
            CoalAdjust.encode(s, idx, delta),
            f"Spend 1 Coal: {die_name(die)} in space {s + 1} to {v + delta}",
        )
        for delta in (-1, 1)
        if 1 <= v + delta <= 6
    ]


def resolve_ws_adjust(st: GameState, step: Step, choice: str) -> None:
    if choice == Skip.ID:
        if rule(st, "workshop_adjust_any_time"):
            st.ctx["ws_declined"] = [list(space) for space in st.workshop]
        return
    s, idx, delta = CoalAdjust.decode(choice)
    space = st.workshop[s]
    die = space[idx]
    space[idx] = f"{die[0]}{int(die[1]) + delta}"
    st.me.coal -= 1
    st.ctx["adjusted"] = True
    _say(st, S.COAL_ADJUST, die=die_name(die), pips=space[idx][1])


def resolve_ws_collect(st: GameState, step: Step, choice: None) -> None:
    p = st.me
    slot = p.store.index(None)
    p.store[slot] = st.ctx["active"]
    st.ctx["slot"] = slot


def choices_partner_play(st: GameState, step: Step) -> Choices:
    p = st.me
    die = p.store[st.ctx["slot"]]
    assert die is not None
    v = PIPS[die]
    out: Choices = [(Skip.ID, "Play no Partner card")]
    partner = st.edition.partner
    for card in p.hand:
        need = partner[card]["need"]
        ok = (
            (need["kind"] == "value" and v in need["values"])
            or (need["kind"] == "minus1" and v >= 2)
            or (need["kind"] == "money" and p.money >= v)
        )
        if ok:
            out.append(_play_card(st.edition, card))
    return out


@cache
def _play_card(ed: Edition, card: str) -> tuple[str, str]:
    """The choice to play a Partner card with the active die (made once per edition and card)."""
    info = ed.partner[card]
    return PlayCard.encode(card), f"Play {info['name']} ({_need_text(info)}): {info['text']}"


def resolve_partner_play(st: GameState, step: Step, choice: str) -> None:
    if choice == Skip.ID:
        return
    p = st.me
    (card,) = PlayCard.decode(choice)
    info = st.edition.partner[card]
    slot = st.ctx["slot"]
    die = p.store[slot]
    assert die is not None
    if info["need"]["kind"] == "minus1":
        p.store[slot] = f"{die[0]}{int(die[1]) - 1}"
    elif info["need"]["kind"] == "money":
        p.money -= int(die[1])
    _say(st, S.PLAYS, card=info["name"], effect=info["text"])
    play_from_hand(st, card)


def resolve_assignment_research(st: GameState, step: Step, choice: None) -> None:
    colour = st.ctx["active"][0]
    if colour in COLOUR_AREA:  # an action colour
        for _ in range(len(st.me.assignments[colour])):
            push(st, {"op": "research_step", "track": colour})


# -- Actions turn ------------------------------------------------------------------------


_MILL_SLOTS: Final = [
    (MillSlot.encode(k), f"Mill row {k // 3 + 1}, column {k % 3 + 1}") for k in range(9)
]


def choices_mill_place(st: GameState, step: Step) -> Choices:
    return [_MILL_SLOTS[k] for k, d in enumerate(st.me.mill) if d is None]


def resolve_mill_place(st: GameState, step: Step, choice: str) -> None:
    p = st.me
    (k,) = MillSlot.decode(choice)
    p.mill[k] = st.ctx["die"]
    if None not in p.mill and not st.end_triggered:  # the 9th die
        st.end_triggered = True
        _say(st, S.NINTH_DIE)


def resolve_turn_advanced(st: GameState, step: Step, choice: None) -> None:
    area = st.ctx["area"]
    level = research_level(st, st.me, area)
    if level:
        _say(st, S.ADVANCED, roman="I" * level)
        push(st, *_advanced_steps(st, area, level))


def _advanced_steps(st: GameState, area: str, level: int, ref: str | None = None) -> list[Step]:
    """The advanced action of an area. ref: the Lecture space the Institutions one is lower than."""
    if area == "study":
        return [{"op": "study_reward", "optional": True}] * level
    if area == "travel":
        return [{"op": "move_small", "max": level}]
    if area == "meetings":
        draw: list[Step] = []
        if level == 2:  # "you may draw 2 cards from your deck and then play a card"
            optional = rule(st, "meetings_draw_is_optional")
            draw = [{"op": "may_draw", "n": 2} if optional else {"op": "draw", "n": 2}]
        return draw + [{"op": "play_free"}]
    if area == "institutions":
        key = ref or _ref_lecture(st)
        if key is None:
            return [{"op": "lower_space", "inst": None, "below": 2}]
        i, lvl = map(int, key.split(":"))
        return [{"op": "lower_space", "inst": i if level == 1 else None, "below": lvl}]
    return []


def _ref_lecture(st: GameState) -> str | None:
    if "lecture" in st.ctx:
        return st.ctx["lecture"]
    mine = [k for k, seats in st.lectures.items() if st.current in seats]
    return max(mine, key=lambda k: int(k.split(":")[1]), default=None)


# Ada's Study


def choices_study_program(st: GameState, step: Step) -> Choices:
    if None not in st.me.programs:
        return []
    return [
        (
            ProgramTile.encode(i),
            f"{st.edition.program[t]['text']} ({st.edition.program[t]['prestige']} Prestige)",
        )
        for i, t in enumerate(st.program_display)
        if t is not None
    ]


def resolve_study_program(st: GameState, step: Step, choice: str) -> None:
    (i,) = ProgramTile.decode(choice)
    tile = st.program_display[i]
    st.program_display[i] = None
    _slide_and_refill(st, "program", remove_rightmost=step.get("op") == "study_program")
    push(st, {"op": "program_place", "program": tile})


def choices_program_place(st: GameState, step: Step) -> Choices:
    return [
        (ProgramLine.encode(k), f"{LINE_NAMES[k]} (bonus: {st.edition.program_spaces[k]['text']})")
        for k, t in enumerate(st.me.programs)
        if t is None
    ]


def resolve_program_place(st: GameState, step: Step, choice: str) -> None:
    (k,) = ProgramLine.decode(choice)
    st.me.programs[k] = step["program"]
    _say(
        st,
        S.PLACES_PROGRAM,
        program=st.edition.program[step["program"]]["text"],
        line=LINE_NAMES[k],
    )
    push_effect(st, st.edition.program_spaces[k]["effect"])


def _affordable_assignments(st: GameState) -> list[int]:
    hand = len(st.me.hand)
    return [
        i
        for i, a in enumerate(st.assignment_display)
        if a is not None and st.edition.assignment[a]["discard"] <= hand
    ]


_STUDY_ITEMS: Final = [StudyItem.encode(item) for item in ("book", "gear", "assignment")]


def _study_item_choices(st: GameState, exclude: list[str]) -> Choices:
    out: Choices = []
    book, gear, assignment = _STUDY_ITEMS
    if book not in exclude:
        out.append((book, "Gain 1 Book"))
    if gear not in exclude and st.addition_supply > 0:
        out.append((gear, "Gain 1 Addition Gear"))
    if assignment not in exclude and _affordable_assignments(st):
        out.append((assignment, "Gain 1 Assignment card"))
    return out


def _gain_study_item(st: GameState, item: str, main: bool = False) -> None:
    """Gain a Study item. main: the main action's Study reward (rules version 2), whose
    Assignment refills with the Study cleanup; any other Assignment slides and refills at once.
    `item` is a StudyItem choice."""
    p = st.me
    (item,) = StudyItem.decode(item)
    if item == "book":
        p.books += 1
        _say(st, S.GAINS_BOOK)
    elif item == "gear":
        st.addition_supply -= 1
        p.gear_supply.append("add")
        _say(st, S.GAINS_ADDITION)
    else:
        if not rule(st, "study_cleanup_after_main_reward"):
            main = st.ctx.get("area") == "study"  # version 1: every Study-action Assignment
        push(st, {"op": "take_assignment", "main": main})


def choices_study_reward(st: GameState, step: Step) -> Choices:
    out = _study_item_choices(st, st.ctx.get("study_taken", []))
    return out + [SKIP] if step.get("optional") and out else out


def resolve_study_reward(st: GameState, step: Step, choice: str) -> None:
    if choice != Skip.ID:
        st.ctx.setdefault("study_taken", []).append(choice)
        _gain_study_item(st, choice, main=bool(step.get("main")))


def resolve_study_cleanup(st: GameState, step: Step, choice: None) -> None:
    _slide_and_refill(st, "assignment", remove_rightmost=True)


def choices_take_assignment(st: GameState, step: Step) -> Choices:
    out: Choices = []
    for i in _affordable_assignments(st):
        a = st.edition.assignment[st.assignment_display[i]]  # type: ignore[index]
        cost = f" (discard {a['discard']})" if a["discard"] else ""
        out.append((AssignmentCard.encode(i), f"{a['name']}{cost}: {a['text']}"))
    return out


def resolve_take_assignment(st: GameState, step: Step, choice: str) -> None:
    (i,) = AssignmentCard.decode(choice)
    card = st.assignment_display[i]
    assert card is not None
    st.assignment_display[i] = None
    info = st.edition.assignment[card]
    _say(st, S.TAKES_ASSIGNMENT, assignment=info["name"])
    follow: list[Step] = []
    if info["discard"]:
        follow.append({"op": "discard", "n": info["discard"]})
    follow.append({"op": "run_effect", "steps": info["effect"]})
    follow.append({"op": "assign_column", "card": card})
    if not step.get("main"):
        follow.append({"op": "refill", "display": "assignment"})
    push(st, *follow)


def choices_assign_column(st: GameState, step: Step) -> Choices:
    colours = st.edition.assignment[step["card"]]["colours"] or V.COLOURS_MAIN
    return [(AssignmentColumn.encode(c), f"Put it in the {TRACK_NAMES[c]} column") for c in colours]


def resolve_assign_column(st: GameState, step: Step, choice: str) -> None:
    (colour,) = AssignmentColumn.decode(choice)
    st.me.assignments[colour].append(step["card"])


def resolve_refill(st: GameState, step: Step, choice: None) -> None:
    _slide_and_refill(st, step["display"])


# Travel


def _may_stop(st: GameState, city: str) -> bool:
    """Whether Travel may end in `city`. Rules version 2: not at a University that holds your
    disc (actions-turn: "You may not stop for a reward at a University that already holds one
    of your discs"); you may still pass through it."""
    if st.edition.city[city]["kind"] != "university" or not rule(
        st, "travel_stops_only_for_a_reward"
    ):
        return True
    return st.current not in st.university_discs[city]


def choices_travel_move(st: GameState, step: Step) -> Choices:
    p = st.me
    out: Choices = []
    for city, cost in _destinations(st.edition, p.city):
        if city == p.city or cost > p.money or not _may_stop(st, city):
            continue
        name = st.edition.city[city]["name"]
        if (
            st.edition.city[city]["kind"] == "university"
            and st.current in st.university_discs[city]
        ):
            out.append(
                (GoTo.encode(city), f"{name} (£{cost}; your disc is already there: no reward)")
            )
        else:
            out.append((GoTo.encode(city), f"{name} (£{cost}): {city_reward(st, city)[1]}"))
    return out


@cache
def _cheapest_first(ed: Edition, here: str) -> list[tuple[int, str]]:
    """(cost, city) of every other city from `here`, cheapest first (made once per edition)."""
    return sorted((cost, c) for c, cost in ed.travel_cost[here].items() if c != here)


@cache
def _destinations(ed: Edition, here: str) -> list[tuple[str, int]]:
    """(city, cost of the cheapest way there) from `here`, by city id (made once per edition)."""
    return sorted(ed.travel_cost[here].items())


def resolve_travel_move(st: GameState, step: Step, choice: str) -> None:
    p = st.me
    (city,) = GoTo.decode(choice)
    cost = st.edition.travel_cost[p.city][city]
    p.money -= cost
    p.city = city
    _say(st, S.TRAVELS, city=st.edition.city[city]["name"], cost=cost)
    push(st, {"op": "activate", "city": city})


def resolve_activate(st: GameState, step: Step, choice: None) -> None:
    city = step["city"]
    effect = city_reward(st, city)[0]
    if st.edition.city[city]["kind"] == "small":
        push_effect(st, effect)
    elif st.current not in st.university_discs[city]:
        push(st, {"op": "place_disc", "to": f"uni:{city}"}, {"op": "run_effect", "steps": effect})


def choices_move_small(st: GameState, step: Step) -> Choices:
    cities = st.edition.small_cities_within(st.me.city, step["max"])
    return [SKIP] + [
        (
            GoTo.encode(c),
            f"Move free to {st.edition.city[c]['name']}: {st.edition.city[c].get('text', '')}",
        )
        for c in cities
    ]


def resolve_move_small(st: GameState, step: Step, choice: str) -> None:
    if choice == Skip.ID:
        return
    (city,) = GoTo.decode(choice)
    st.me.city = city
    _say(st, S.MOVES_FREE, city=st.edition.city[city]["name"])
    push_effect(st, city_reward(st, city)[0])


def choices_move_university(st: GameState, step: Step) -> Choices:
    steps = st.edition.route_steps[st.me.city]
    free = [c for c in _free_universities(st, st.current) if c != st.me.city]
    if not free:
        return []
    nearest = min(steps[c] for c in free)
    return [
        (GoTo.encode(c), f"Move to {st.edition.city[c]['name']}")
        for c in free
        if steps[c] == nearest
    ]


def resolve_move_university(st: GameState, step: Step, choice: str) -> None:
    (city,) = GoTo.decode(choice)
    st.me.city = city
    _say(st, S.MOVES_TO, city=st.edition.city[city]["name"])
    push(st, {"op": "place_disc", "to": f"uni:{city}"})


# Meetings


def choices_meet_room(st: GameState, step: Step) -> Choices:
    p = st.me
    out: Choices = []
    for r in _open_rooms(st):
        room = st.edition.meeting_rooms[r]
        if p.money >= room["money"]:
            out.append(
                (AttendRoom.encode(r, "money"), f"Meeting room {r + 1}, pay £{room['money']}")
            )
        if p.innovation >= room["innovation"]:
            out.append(
                (
                    AttendRoom.encode(r, "innovation"),
                    f"Meeting room {r + 1}, pay {room['innovation']} Innovation",
                )
            )
    return out


def resolve_meet_room(st: GameState, step: Step, choice: str) -> None:
    r, how = AttendRoom.decode(choice)
    room = st.edition.meeting_rooms[r]
    setattr(st.me, how, getattr(st.me, how) - room[how])
    _say(st, S.ATTENDS, room=r + 1)
    push(st, {"op": "place_disc", "to": f"room:{r}"}, {"op": "meet_card", "room": r})


def choices_meet_card(st: GameState, step: Step) -> Choices:
    return [
        (
            DisplayCard.encode(s),
            f"{_partner_label(st, c)} [draw {st.edition.meeting_rooms[s]['draw']}]",
        )
        for s, c in enumerate(st.partner_display)
        if c is not None and s >= step["room"]
    ]


def resolve_meet_card(st: GameState, step: Step, choice: str) -> None:
    (slot,) = DisplayCard.decode(choice)
    card = st.partner_display[slot]
    assert card is not None
    st.partner_display[slot] = None
    st.me.hand.append(card)
    _say(st, S.RECRUITS, card=partner_name(st, card))
    draw = {"op": "draw", "n": st.edition.meeting_rooms[slot]["draw"]}
    if rule(st, "meetings_remove_before_draw"):
        # rulebook: gaining a Partner "you must immediately remove a Partner card"; never more
        # than eight (summary-faq). Then draw.
        push(st, "keep_eight", draw, {"op": "meet_cleanup"})
    else:
        push(st, draw, "keep_eight", {"op": "meet_cleanup"})  # as Isobel's example narrates it


def resolve_meet_cleanup(st: GameState, step: Step, choice: None) -> None:
    _slide_and_refill(st, "partner", remove_rightmost=True)


def choices_keep_eight(st: GameState, step: Step) -> Choices:
    p = st.me
    if len(p.supply()) <= st.edition.supply_size:
        return []
    return [
        (RemoveCard.encode(c), f"Remove {partner_name(st, c)} from the game")
        for c in p.hand + p.discard
    ]


def resolve_keep_eight(st: GameState, step: Step, choice: str) -> None:
    p = st.me
    (card,) = RemoveCard.decode(choice)
    if card in p.hand:
        p.hand.remove(card)
        _shown(st)
    else:
        p.discard.remove(card)
    _say(st, S.REMOVES_CARD, card=partner_name(st, card))
    push(st, "keep_eight")


# Institutions


def choices_lecture(st: GameState, step: Step) -> Choices:
    costs, innovation = lecture_costs(st, st.current), st.me.innovation
    return [
        _lecture(st.edition, i, lvl, costs[lvl])
        for i, lvl in _empty_lectures(st)
        if costs[lvl] <= innovation
    ]


@cache
def _lecture(ed: Edition, i: int, lvl: int, cost: int) -> tuple[str, str]:
    """The choice of a Lecture space at its cost (made once per edition, space and cost)."""
    inst = ed.institutions[i]
    text = inst["spaces"][lvl]["text"]
    return LectureSpace.encode(i, lvl), f"{inst['name']} level {lvl} ({cost} Innovation): {text}"


def resolve_lecture(st: GameState, step: Step, choice: str) -> None:
    i, lvl = LectureSpace.decode(choice)
    cost = lecture_cost(st, st.current, lvl)
    st.me.innovation -= cost
    st.ctx["lecture"] = f"{i}:{lvl}"
    _say(st, S.LECTURES, loc=loc_name(st, f"lec:{i}:{lvl}"), cost=cost)
    effect = st.edition.institutions[i]["spaces"][lvl]["effect"]
    push(st, {"op": "place_disc", "to": f"lec:{i}:{lvl}"}, {"op": "run_effect", "steps": effect})


def choices_lower_space(st: GameState, step: Step) -> Choices:
    out: Choices = [
        SKIP,
        (AnalyticalSociety.ID, f"Analytical Society: {st.edition.analytical_society['text']}"),
    ]
    for i, lvl in _empty_lectures(st):
        if lvl < step["below"] and step["inst"] in (None, i):
            inst = st.edition.institutions[i]
            out.append(
                (
                    LowerSpace.encode(i, lvl),
                    f"{inst['name']} level {lvl}: {inst['spaces'][lvl]['text']}",
                )
            )
    return out


def resolve_lower_space(st: GameState, step: Step, choice: str) -> None:
    if choice == Skip.ID:
        return
    if choice == AnalyticalSociety.ID:
        push_effect(st, st.edition.analytical_society["effect"])
        return
    i, lvl = LowerSpace.decode(choice)
    _say(st, S.GAINS_REWARD, loc=loc_name(st, f"lec:{i}:{lvl}"))
    push_effect(st, st.edition.institutions[i]["spaces"][lvl]["effect"])


# -- Disc placement ----------------------------------------------------------------------


def _movable_discs(st: GameState, step: Step) -> list[str]:
    seat = st.current
    out = [loc for loc in own_board_discs(st, seat) if loc != step["to"]]
    if step["to"].startswith("obj:"):
        met = st.edition.objective_test[st.objectives[int(step["to"][4:])]]
        keep = []
        for loc in out:  # a disc that meets the Objective's requirement may not move
            trial = st.copy()
            _take_disc(trial, seat, loc)
            if met(trial, seat):
                keep.append(loc)
        out = keep
    return out


def choices_place_disc(st: GameState, step: Step) -> Choices | None:
    if st.me.discs > 0:
        return AUTO
    out: Choices = [
        (MoveDiscHere.encode(loc), f"Move your disc from {loc_name(st, loc)}")
        for loc in _movable_discs(st, step)
    ]
    if out and not step["to"].startswith("obj:"):
        out.insert(0, (Skip.ID, "Place no disc"))
    return out


def resolve_place_disc(st: GameState, step: Step, choice: str | None) -> None:
    p = st.me
    if choice == Skip.ID:
        return
    if choice is None:
        p.discs -= 1
    else:
        (here,) = MoveDiscHere.decode(choice)
        _take_disc(st, st.current, here)
    _put_disc(st, st.current, step["to"], stack=bool(step.get("stack")))
    _say(st, S.PLACES_DISC, loc=loc_name(st, step["to"]))


# -- Publish or Build ----------------------------------------------------------------------


def _publish_possible(st: GameState, area: str) -> bool:
    p = st.me
    if p.books < 1:
        return False
    if area == "workshop":
        return (
            p.steam + 1 < len(st.edition.steam_track)
            and p.coal >= st.edition.steam_track[p.steam + 1]["coal"]
        )
    if area == "study":
        return p.discs > 0
    if area == "travel":
        return any(p.store) or any(p.mill)  # a die on the board (`_own_dice`)
    if area == "meetings":
        return any(m is not None for m in st.multiplier_display)
    return (any(p.store) or any(p.mill)) and any(st.workshop)


PUBLISH_TEXT: Final = {
    "workshop": "advance Steam one space (paying its Coal)",
    "study": "stack a disc on one of your discs and take that area's level I advanced action",
    "travel": "change your dice by up to 4 pips",
    "meetings": "take a Multiplier Gear from the display",
    "institutions": "swap a die on your board with a Workshop die",
}


_PUBLISH: Final = {
    area: (Publish.ID, f"Publish (1 Book): {text}") for area, text in PUBLISH_TEXT.items()
}


def _build_options(st: GameState) -> Choices:
    p = st.me
    if not _may_build(p):
        return []
    out: Choices = []
    for gear in sorted(set(p.gear_supply)):
        cost, choice = _build_gear(st.edition, gear)
        if _can_pay(p, cost):
            out.append(choice)
    return out


@cache
def _build_gear(ed: Edition, gear: str) -> tuple[dict[str, int], tuple[str, str]]:
    """A Gear's cost and the choice to build it (made once per edition and Gear)."""
    cost = ed.gear_cost(gear)
    return cost, (BuildGear.encode(gear), f"Build {ed.gear_name(gear)} ({cost_text(cost)})")


def choices_publish_or_build(st: GameState, step: Step) -> Choices:
    area = st.ctx.get("area")  # None: a turn without an action area (no turn possible)
    out = _build_options(st)
    if area is not None and _publish_possible(st, area):
        out.insert(0, _PUBLISH[area])
    if out:
        out.append((Skip.ID, "Neither Publish nor Build"))
    return out


def resolve_publish_or_build(st: GameState, step: Step, choice: str) -> None:
    if choice == Skip.ID:
        return
    if choice != Publish.ID:
        (gear,) = BuildGear.decode(choice)
        push(st, {"op": "gear_place", "gear": gear})
        return
    p = st.me
    p.books -= 1
    area = st.ctx["area"]
    _say(st, S.PUBLISHES, area=AREA_TITLE[area])
    push(st, _PUBLISH_STEP[area])


# the step of each area's Publish (see PUBLISH_TEXT)
_PUBLISH_STEP: Final[dict[str, Step]] = {
    "workshop": {"op": "steam", "free": False, "forced": True},
    "study": {"op": "stack_disc", "publish": True},
    "travel": {"op": "pips", "left": 4},
    "meetings": {"op": "take_multiplier"},
    "institutions": {"op": "swap_die"},
}


def choices_gear_place(st: GameState, step: Step) -> Choices:
    if step["gear"] not in st.me.gear_supply:
        return []
    return [_GEAR_SPACES[pos] for pos in _open_gear_spaces(st.me)]


_GEAR_SPACES: Final = [
    (GearSpace.encode(pos), f"Gear space {gear_space_name(pos)}") for pos in range(12)
]


def resolve_gear_place(st: GameState, step: Step, choice: str) -> None:
    p = st.me
    gear = step["gear"]
    if not step.get("free"):
        _pay(p, st.edition.gear_cost(gear))
    p.gear_supply.remove(gear)
    (pos,) = GearSpace.decode(choice)
    p.gears[pos] = gear
    _say(st, S.BUILDS, gear=st.edition.gear_name(gear), gear_space=gear_space_name(pos))


def choices_steam(st: GameState, step: Step) -> Choices | None:
    p = st.me
    if p.steam + 1 >= len(st.edition.steam_track):
        return []
    coal = st.edition.steam_track[p.steam + 1]["coal"]
    if step.get("free") or step.get("forced"):
        return AUTO if step.get("free") or p.coal >= coal else []
    if p.coal < coal:
        return []
    return [(AdvanceSteam.ID, f"Advance Steam (pay {coal} Coal)"), SKIP]


def resolve_steam(st: GameState, step: Step, choice: str | None) -> None:
    p = st.me
    if choice == Skip.ID or p.steam + 1 >= len(st.edition.steam_track):
        return
    if not step.get("free"):
        p.coal -= st.edition.steam_track[p.steam + 1]["coal"]
    p.steam += 1
    _say(st, S.STEAM, level=p.steam, cap=st.edition.steam_track[p.steam]["cap"])


def publish_boxes_disc(st: GameState) -> bool:
    """Would Ada's Study's Publish now put one of the player's discs in the box, having no disc
    of theirs to stack on (resolve_stack_disc)? The bot says so on the choice."""
    return not _stack_targets(st)


def _stack_targets(st: GameState) -> list[str]:
    """Where Ada's Study Publish may stack a disc: "You may never have more than two discs in the
    same location". Rules version 2: a location is one disc space (a University's, a Lecture
    space, one space of a Meeting room), so a room where you hold a space with one disc of yours
    qualifies however many other spaces there are yours; version 1 counted the whole room."""
    seat = st.current
    per_space = rule(st, "two_discs_per_disc_space")
    out = []
    for loc in own_board_discs(st, seat):
        if per_space and loc.startswith("room:"):
            if any(space == [seat] for space in st.rooms[int(loc[5:])]):
                out.append(loc)
        elif discs_at(st, loc).count(seat) < 2:
            out.append(loc)
    return out


def choices_stack_disc(st: GameState, step: Step) -> Choices | None:
    if st.me.discs < 1:
        return []
    targets = _stack_targets(st)
    if not targets:
        return AUTO if step.get("publish") else []
    return [(StackDisc.encode(loc), f"Stack a disc on {loc_name(st, loc)}") for loc in targets]


def resolve_stack_disc(st: GameState, step: Step, choice: str | None) -> None:
    p = st.me
    if choice is None:  # Ada's Study Publish with no disc on the board: the disc leaves the game
        p.discs -= 1
        p.discs_boxed += 1
        _say(st, S.NO_DISC_BOXED)
        return
    (loc,) = StackDisc.decode(choice)
    follow: list[Step] = [{"op": "place_disc", "to": loc, "stack": True}]
    if step.get("publish"):
        kind, _, rest = loc.partition(":")  # a disc location (engine.state)
        area = {"uni": "travel", "room": "meetings", "lec": "institutions"}[kind]
        follow += _advanced_steps(st, area, 1, ref=rest if kind == "lec" else None)
    push(st, *follow)


def choices_pips(st: GameState, step: Step) -> Choices:
    out: Choices = [(Done.ID, "Done changing dice")]
    for where, die in _own_dice(st.me):
        v = int(die[1])
        if v > 1:
            out.append(
                (
                    ChangePip.encode(where, -1),
                    f"{die_name(die)} ({_where_name(where)}) down to {v - 1}",
                )
            )
        if v < 6:
            out.append(
                (
                    ChangePip.encode(where, 1),
                    f"{die_name(die)} ({_where_name(where)}) up to {v + 1}",
                )
            )
    return out


def resolve_pips(st: GameState, step: Step, choice: str) -> None:
    if choice == Done.ID:
        return
    where, delta = ChangePip.decode(choice)
    p = st.me
    die = (p.store if where[0] == "s" else p.mill)[int(where[1:])]
    assert die is not None
    _set_own_die(p, where, f"{die[0]}{int(die[1]) + delta}")
    if step["left"] > 1:
        push(st, {"op": "pips", "left": step["left"] - 1})


def choices_swap_die(st: GameState, step: Step) -> Choices:
    if not any(st.workshop):
        return []
    return [
        (SwapOwnDie.encode(w), f"Swap your {die_name(d)} ({_where_name(w)})")
        for w, d in _own_dice(st.me)
    ]


def resolve_swap_die(st: GameState, step: Step, choice: str) -> None:
    (own,) = SwapOwnDie.decode(choice)
    push(st, {"op": "swap_with", "own": own})


def choices_swap_with(st: GameState, step: Step) -> Choices:
    out: Choices = []
    for s, space in enumerate(st.workshop):
        for idx, die in enumerate(space):
            if die not in space[:idx]:
                out.append(
                    (WorkshopDie.encode(s, idx), f"with {die_name(die)} in Workshop space {s + 1}")
                )
    return out


def resolve_swap_with(st: GameState, step: Step, choice: str) -> None:
    p = st.me
    s, idx = WorkshopDie.decode(choice)
    where = step["own"]
    mine = (p.store if where[0] == "s" else p.mill)[int(where[1:])]
    assert mine is not None
    theirs = st.workshop[s][idx]
    st.workshop[s][idx] = mine
    _set_own_die(p, where, theirs)
    _say(st, S.SWAPS_DIE, die=die_name(mine), die2=die_name(theirs))


# -- End of turn ---------------------------------------------------------------------------


def choices_hand_limit(st: GameState, step: Step) -> Choices:
    p = st.me
    if len(p.hand) <= st.edition.hand_limit:
        return []
    return [
        (
            DiscardCard.encode(c),
            f"Discard {partner_name(st, c)} (hand limit {st.edition.hand_limit})",
        )
        for c in p.hand
    ]


def resolve_hand_limit(st: GameState, step: Step, choice: str) -> None:
    (card,) = DiscardCard.decode(choice)
    discard_from_hand(st.me, card)
    _shown(st)
    push(st, "hand_limit")


def resolve_objectives(st: GameState, step: Step, choice: None) -> None:
    """Rules version 1: the Objectives completed this turn are claimed at its end."""
    for a in _met_unclaimed(st, st.current):
        push(st, {"op": "place_disc", "to": f"obj:{a}"})


def _met_unclaimed(st: GameState, seat: int) -> list[int]:
    """The action areas (0-3) whose Objective `seat` meets and has no disc on yet."""
    met = st.edition.objective_test
    out = []
    for a, entries in enumerate(st.objective_discs):
        for entry in entries:  # [seat, slot]
            if entry[0] == seat:
                break
        else:
            if met[st.objectives[a]](st, seat):
                out.append(a)
    return out


def claim_objectives(st: GameState) -> None:
    """Claim every Objective the player in turn now meets: a disc goes on it next.

    Rulebook, Objectives: "When you complete the Objective you must place a disc on the
    Objective"; the freed Gear space is there for a Build the same turn, and an Objective met
    for a moment (a die later swapped away) has been completed. `rules.run` calls this after
    step that can change what an Objective asks (`objectives.OBJECTIVE_STEPS`; rules version 2),
    and the end of the turn checks once more. An Objective that cannot take a disc (none on the
    player board and none free to move) waits until one can.
    """
    for a in _met_unclaimed(st, st.current):
        to = f"obj:{a}"
        if any(s["op"] == "place_disc" and s.get("to") == to for s in st.stack):
            continue  # already being claimed
        step = {"op": "place_disc", "to": to}
        if st.me.discs > 0 or _movable_discs(st, step):
            push(st, step)


def resolve_end_turn(st: GameState, step: Step, choice: None) -> None:
    p = st.me
    p.turns += 1
    st.ctx = {}
    nxt = (st.current + 1) % len(st.players)
    if nxt == 0:
        if st.end_triggered or st.round >= st.setup.max_rounds:
            st.over = True
            st.log.append(S.GAME_OVER.say())
            st.undo_floor = len(st.history)
            return
        st.round += 1
    st.current = nxt
    st.undo_floor = len(st.history)
