"""Travel: moving on the map and the reward of the city reached (a Small City, or a University
and its disc), and the free moves of the advanced actions and effects."""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Final

from engine import sentences as S
from engine.choices import GoTo, Skip
from engine.common import (
    SKIP,
    Choices,
    Step,
    city_reward,
    free_universities,
    push,
    push_effect,
    say,
)
from engine.state import GameState
from engine.steps import StepKind
from engine.versions import rule

if TYPE_CHECKING:
    from engine.edition import Edition


def may_stop(st: GameState, city: str) -> bool:
    """Whether Travel may end in `city`. Rules version 2: not at a University that holds your
    disc (actions-turn: "You may not stop for a reward at a University that already holds one
    of your discs"); you may still pass through it."""
    if st.edition.city[city]["kind"] != "university" or not rule(
        st, "travel_stops_only_for_a_reward"
    ):
        return True
    return st.current not in st.university_discs[city]


def choices_travel_move(st: GameState, step: Step) -> Choices:
    p = st.players[st.current]
    out: Choices = []
    for city, cost in _destinations(st.edition, p.city):
        if city == p.city or cost > p.money or not may_stop(st, city):
            continue
        out.append(GoTo.encode(city))
    return out


@cache
def cheapest_first(ed: Edition, here: str) -> list[tuple[int, str]]:
    """(cost, city) of every other city from `here`, cheapest first (made once per edition)."""
    return sorted((cost, c) for c, cost in ed.travel_cost[here].items() if c != here)


@cache
def _destinations(ed: Edition, here: str) -> list[tuple[str, int]]:
    """(city, cost of the cheapest way there) from `here`, by city id (made once per edition)."""
    return sorted(ed.travel_cost[here].items())


def resolve_travel_move(st: GameState, step: Step, choice: str) -> None:
    p = st.players[st.current]
    (city,) = GoTo.decode(choice)
    cost = st.edition.travel_cost[p.city][city]
    p.money -= cost
    p.city = city
    say(st, S.TRAVELS, city=st.edition.city[city]["name"], cost=cost)
    push(st, {"op": "activate", "city": city})


def resolve_activate(st: GameState, step: Step, choice: None) -> None:
    city = step["city"]
    effect = city_reward(st, city)[0]
    if st.edition.city[city]["kind"] == "small":
        push_effect(st, effect)
    elif st.current not in st.university_discs[city]:
        push(st, {"op": "place_disc", "to": f"uni:{city}"}, {"op": "run_effect", "steps": effect})


def choices_move_small(st: GameState, step: Step) -> Choices:
    cities = st.edition.small_cities_within(st.players[st.current].city, step["max"])
    return [SKIP] + [GoTo.encode(c) for c in cities]


def resolve_move_small(st: GameState, step: Step, choice: str) -> None:
    if choice == Skip.ID:
        return
    (city,) = GoTo.decode(choice)
    st.players[st.current].city = city
    say(st, S.MOVES_FREE, city=st.edition.city[city]["name"])
    push_effect(st, city_reward(st, city)[0])


def choices_move_university(st: GameState, step: Step) -> Choices:
    steps = st.edition.route_steps[st.players[st.current].city]
    free = [c for c in free_universities(st, st.current) if c != st.players[st.current].city]
    if not free:
        return []
    nearest = min(steps[c] for c in free)
    return [GoTo.encode(c) for c in free if steps[c] == nearest]


def resolve_move_university(st: GameState, step: Step, choice: str) -> None:
    (city,) = GoTo.decode(choice)
    st.players[st.current].city = city
    say(st, S.MOVES_TO, city=st.edition.city[city]["name"])
    push(st, {"op": "place_disc", "to": f"uni:{city}"})


# The steps of this module (engine.steps; gathered by engine.rules).
STEPS: Final[tuple[StepKind, ...]] = (
    StepKind(
        "travel_move",
        resolve_travel_move,
        choices_travel_move,
        prompt="Travel: where do you go? (you pay for every route)",
        place="map",
    ),
    StepKind("activate", resolve_activate),
    StepKind(
        "move_small",
        resolve_move_small,
        choices_move_small,
        prompt="You may move free to a nearby Small City.",
        place="map",
    ),
    StepKind(
        "move_university",
        resolve_move_university,
        choices_move_university,
        prompt="Move to the nearest University.",
        place="map",
    ),
)
