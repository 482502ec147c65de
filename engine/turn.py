"""The turn itself: a Workshop turn or an Actions turn chosen (rulebook, "On your turn"),
the die to the Mill, the advanced actions of an action area, and the end of a turn (hand
limit, Objectives, the next player). Each area's steps are in their own module.
"""

from __future__ import annotations

from functools import cache
from typing import Final

from engine import sentences as S
from engine.choices import DiscardCard, IdleDie, MillSlot, Pass, StoreAction, WorkshopMove, read
from engine.common import (
    Choices,
    Step,
    discard_from_hand,
    lecture_costs,
    push,
    research_level,
    say,
    shown,
    slide_and_refill,
)
from engine.discs import movable_discs
from engine.objectives import objective_tests
from engine.state import GameState, die_name
from engine.steps import StepKind
from engine.travel import cheapest_first, may_stop
from engine.versions import rule
from engine.vocabulary import AREA_TITLE, AREAS, COLOUR_AREA
from engine.workshop import WORKSHOP_MOVES, space_dice


def area_possible(st: GameState, area: str) -> bool:
    """Whether the player in turn could take the main action of `area` now (an Actions turn's
    die for it is offered only then). Any other name, the Workshop's included, is no action
    area: False."""
    p = st.players[st.current]
    if area == "study":
        # "Select ONE Program tile AND select ONE Study reward" (a Book is always there).
        if rule(st, "study_needs_a_program"):
            display = st.program_display
            return None in p.programs and display.count(None) < len(display)
        return True
    if area == "travel":
        money = p.money
        for cost, c in cheapest_first(st.edition, p.city):
            if cost > money:
                return False
            if may_stop(st, c):
                return True
        return False
    if area == "meetings":
        rooms, money, innovation = st.edition.meeting_rooms, p.money, p.innovation
        for r in range(4):
            if None in st.rooms[r] and (  # an open room (`open_rooms`)
                money >= rooms[r]["money"] or innovation >= rooms[r]["innovation"]
            ):
                return True
        return False
    if area != "institutions":
        return False
    costs, innovation, taken = lecture_costs(st, st.current), p.innovation, st.lectures
    for key, _, lvl in st.edition.lecture_spaces:
        if costs[lvl] <= innovation and key not in taken:
            return True
    return False


@cache
def _store_actions(slot: int, die: str) -> list[tuple[str, str]]:
    """(area, the Actions turn's choice) for each area a Store die could take, a grey die any
    (made once: asked at every turn)."""
    if die[0] == "K":
        return [(area, StoreAction.encode(slot, area)) for area in AREAS]
    return [(COLOUR_AREA[die[0]], StoreAction.encode(slot, None))]


def choices_turn(st: GameState, step: Step) -> Choices:
    p = st.players[st.current]
    out: Choices = []
    store = p.store
    if None in store:
        # A moving die can push if the lowest die where it lands is at most its value, or one
        # more when a Coal is left for the optional adjust; the second space costs a Coal.
        spaces = [space_dice(tuple(space)) if space else (9, []) for space in st.workshop]
        coal = p.coal
        for s, (_, dice) in enumerate(spaces):
            one = spaces[(s + 1) % 6][0] - (coal >= 1)
            two = spaces[(s + 2) % 6][0] - (coal >= 2) if coal >= 1 else 9
            moves = WORKSHOP_MOVES[s]
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
                    ok = possible[area] = area_possible(st, area)
                if ok:
                    out.append(action)
    if not out:
        # Designed rule for a corner the rulebook leaves open: with no turn possible, a die goes
        # to the Mill without its action, or (no die either) the turn passes.
        mill_full = None not in p.mill
        out = [IdleDie.encode(i) for i, d in enumerate(store) if d and not mill_full] or [Pass.ID]
    return out


# the steps that end every turn
_END: Final = ("publish_or_build", "objectives", "hand_limit", "end_turn")


# the main action of an action area (Ada's Study's is two steps: see resolve_turn)
_MAIN_ACTION: Final = {"travel": "travel_move", "meetings": "meet_room", "institutions": "lecture"}


def resolve_turn(st: GameState, step: Step, choice: str) -> None:
    p = st.players[st.current]
    end = _END
    value = read("turn", choice)
    if isinstance(value, WorkshopMove):
        s, die, moves = value.space, value.die, value.moves
        dest = (s + moves) % 6
        p.coal -= moves - 1
        st.workshop[s].remove(die)
        st.workshop[dest].append(die)  # the moving die is always last in its new space
        st.ctx = {"type": "workshop", "area": "workshop", "from": s, "to": dest}
        say(st, S.WORKSHOP_TURN, die=die_name(die), space=s + 1, to=dest + 1)
        push(st, "ws_push", *end)
    elif isinstance(value, StoreAction):
        i = value.slot
        used = p.store[i]
        assert used is not None
        area = value.area or COLOUR_AREA[used[0]]
        p.store[i] = None
        st.ctx = {"type": "actions", "area": area, "die": used}
        say(st, S.ACTIONS_TURN, die=die_name(used), area=AREA_TITLE[area])
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
        say(st, S.NO_TURN_IDLE)
        push(st, "mill_place", *end)
    else:
        st.ctx = {"type": "pass", "area": None}
        say(st, S.NO_TURN_PASS)
        push(st, *end)


_MILL_SLOTS: Final = [MillSlot.encode(k) for k in range(9)]


def choices_mill_place(st: GameState, step: Step) -> Choices:
    return [_MILL_SLOTS[k] for k, d in enumerate(st.players[st.current].mill) if d is None]


def resolve_mill_place(st: GameState, step: Step, choice: str) -> None:
    p = st.players[st.current]
    (k,) = MillSlot.decode(choice)
    p.mill[k] = st.ctx["die"]
    if None not in p.mill and not st.end_triggered:  # the 9th die
        st.end_triggered = True
        say(st, S.NINTH_DIE)


def resolve_turn_advanced(st: GameState, step: Step, choice: None) -> None:
    area = st.ctx["area"]
    level = research_level(st, st.players[st.current], area)
    if level:
        say(st, S.ADVANCED, roman="I" * level)
        push(st, *advanced_steps(st, area, level))


def advanced_steps(st: GameState, area: str, level: int, ref: str | None = None) -> list[Step]:
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


def resolve_refill(st: GameState, step: Step, choice: None) -> None:
    slide_and_refill(st, step["display"])


def choices_hand_limit(st: GameState, step: Step) -> Choices:
    p = st.players[st.current]
    if len(p.hand) <= st.edition.hand_limit:
        return []
    return [DiscardCard.encode(c) for c in p.hand]


def resolve_hand_limit(st: GameState, step: Step, choice: str) -> None:
    (card,) = DiscardCard.decode(choice)
    discard_from_hand(st.players[st.current], card)
    shown(st)
    push(st, "hand_limit")


def resolve_objectives(st: GameState, step: Step, choice: None) -> None:
    """Rules version 1: the Objectives completed this turn are claimed at its end."""
    for a in _met_unclaimed(st, st.current):
        push(st, {"op": "place_disc", "to": f"obj:{a}"})


def _met_unclaimed(st: GameState, seat: int) -> list[int]:
    """The action areas (0-3) whose Objective `seat` meets and has no disc on yet."""
    met = objective_tests(st.edition)
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
    step that can change what an Objective asks (`rules.OBJECTIVE_STEPS`; rules version 2),
    and the end of the turn checks once more. An Objective that cannot take a disc (none on the
    player board and none free to move) waits until one can.
    """
    for a in _met_unclaimed(st, st.current):
        to = f"obj:{a}"
        if any(s["op"] == "place_disc" and s.get("to") == to for s in st.stack):
            continue  # already being claimed
        step = {"op": "place_disc", "to": to}
        if st.players[st.current].discs > 0 or movable_discs(st, step):
            push(st, step)


def resolve_end_turn(st: GameState, step: Step, choice: None) -> None:
    p = st.players[st.current]
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


# The steps of this module (engine.steps; gathered by engine.rules).
STEPS: Final[tuple[StepKind, ...]] = (
    StepKind(
        "turn",
        resolve_turn,
        choices_turn,
        prompt="Your turn: take a die from the Workshop, or use a die from your Store for its action.",
        place="workshop",
    ),
    StepKind(
        "mill_place",
        resolve_mill_place,
        choices_mill_place,
        prompt="Place your active die in your Mill.",
        objectives=True,
        place="mill",
    ),
    StepKind("turn_advanced", resolve_turn_advanced),
    StepKind("refill", resolve_refill),
    StepKind(
        "hand_limit",
        resolve_hand_limit,
        choices_hand_limit,
        prompt="Hand limit: discard down to five cards.",
        private=True,
        place="hand",
    ),
    StepKind("objectives", resolve_objectives),
    StepKind("end_turn", resolve_end_turn),
)
