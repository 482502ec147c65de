"""Effect steps: the primitives of the rulebook's Icon Reference. Cards, tiles and board spaces
are lists of these steps (see engine.edition and engine.vocabulary)."""

from __future__ import annotations

from functools import cache
from typing import Final

from engine import sentences as S
from engine import vocabulary as V
from engine.choices import (
    AdjustOwnDie,
    AdjustWorkshopDie,
    AdvancedAction,
    AssignmentToken,
    Breakthrough,
    BuildGear,
    DiscardCard,
    DisplayCard,
    Draw,
    LectureSpace,
    MeetingRoom,
    MoveDiscFrom,
    MoveDiscTo,
    MultiplierSlot,
    Option,
    PlayCard,
    RelocateFrom,
    RelocateTo,
    ResearchTrack,
    ScienceToken,
    Skip,
    StudyItem,
    TopBonus,
    University,
    UpgradeGear,
    UseDisplayCard,
    WorkshopBonus,
    read,
)
from engine.common import (
    AUTO,
    SKIP,
    Choices,
    Step,
    can_pay,
    city_reward,
    cost_text,
    discard_from_hand,
    draw_cards,
    empty_lectures,
    free_universities,
    gain_innovation,
    loc_name,
    open_gear_spaces,
    open_rooms,
    own_board_discs,
    own_dice,
    partner_name,
    pay,
    play_from_hand,
    push,
    push_effect,
    put_disc,
    say,
    science_ones_left,
    set_own_die,
    shown,
    slide_and_refill,
    take_disc,
    take_display_card,
)
from engine.publish import build_options
from engine.state import GameState
from engine.steps import StepKind
from engine.study import gain_study_item, study_item_choices
from engine.turn import advanced_steps
from engine.versions import rule
from engine.vocabulary import AREAS, RESOURCES, TRACK_NAMES

# ======================================================================================
# Effect steps (the Icon Reference)
# ======================================================================================


def resolve_run_effect(st: GameState, step: Step, choice: None) -> None:
    steps = step["steps"]
    if not steps:
        return
    first, rest = steps[0], steps[1:]
    if first["op"] == "pay" or (first["op"] == "innovation" and first["n"] < 0):
        p = st.players[st.current]
        cost = {k: v for k, v in first.items() if k in RESOURCES}
        if first["op"] == "innovation":
            cost = {"innovation": -first["n"]}
        if not can_pay(p, cost):
            return  # a cost you cannot pay: the rest of the effect is lost
        pay(p, cost)
        push_effect(st, rest)
        return
    push_effect(st, rest)
    push(st, first)


def resolve_gain(st: GameState, step: Step, choice: None) -> None:
    p = st.players[st.current]
    gained = tuple((k, v) for k, v in step.items() if v and k in RESOURCES)
    for res, n in gained:
        setattr(p, res, getattr(p, res) + n)
    if gained:
        say(st, S.GAINS, amount=_amount_text(gained))


@cache
def _amount_text(gained: tuple[tuple[str, int], ...]) -> str:
    """The log's text of an amount gained (made once: gains repeat all game)."""
    return cost_text(dict(gained))


def resolve_pay(st: GameState, step: Step, choice: None) -> None:
    cost = {k: v for k, v in step.items() if k in RESOURCES}
    if can_pay(st.players[st.current], cost):
        pay(st.players[st.current], cost)


def resolve_innovation(st: GameState, step: Step, choice: None) -> None:
    if step["n"] >= 0:
        gain_innovation(st, st.players[st.current], step["n"])
    else:
        st.players[st.current].innovation = max(0, st.players[st.current].innovation + step["n"])


def choices_innovation_top(st: GameState, step: Step) -> Choices:
    if st.players[st.current].innovation < st.edition.innovation_top_spend:
        return []
    return [SKIP] + [TopBonus.encode(b) for b in st.edition.workshop_order if b != "innovation"]


def resolve_innovation_top(st: GameState, step: Step, choice: str) -> None:
    if choice == Skip.ID:
        return
    st.players[st.current].innovation -= st.edition.innovation_top_spend
    (bonus,) = TopBonus.decode(choice)
    say(
        st,
        S.INNOVATION_TOP,
        n=st.edition.innovation_top_spend,
        bonus=st.edition.workshop_bonuses[bonus]["text"],
    )
    push_effect(st, st.edition.workshop_bonuses[bonus]["effect"])


def resolve_draw(st: GameState, step: Step, choice: None) -> None:
    if step["n"] > 0:
        draw_cards(st, st.players[st.current], step["n"])


# the label of its Skip choice (declared with its step too: i18n translates it from there)
DRAW_NONE: Final = "Draw none"


def choices_may_draw(st: GameState, step: Step) -> Choices:
    """An optional draw (Meetings advanced level II, rules version 2)."""
    p = st.players[st.current]
    if not p.deck and not p.discard:
        return []
    return [Draw.ID, Skip.ID]


def resolve_may_draw(st: GameState, step: Step, choice: str) -> None:
    if choice == Draw.ID:
        draw_cards(st, st.players[st.current], step["n"])


def choices_discard(st: GameState, step: Step) -> Choices:
    return [DiscardCard.encode(c) for c in st.players[st.current].hand]


def resolve_discard(st: GameState, step: Step, choice: str) -> None:
    (card,) = DiscardCard.decode(choice)
    discard_from_hand(st.players[st.current], card)
    shown(st)
    if step["n"] > 1:
        push(st, {"op": "discard", "n": step["n"] - 1})


def choices_research(st: GameState, step: Step) -> Choices | None:
    if step.get("track", "any") != "any":
        return AUTO
    picked = step.get("picked", []) if step.get("different") else []
    research, top = st.players[st.current].research, st.edition.research_top
    out = [_RESEARCH[t] for t in V.COLOURS_MAIN if research[t] < top and t not in picked]
    if _forced_picks(st, step, out):
        return out[:1]
    return out


_RESEARCH: Final = {t: ResearchTrack.encode(t) for t in V.COLOURS_MAIN}


def _forced_picks(st: GameState, step: Step, out: Choices) -> bool:
    """Rules version 2: different Research picks that must take every track still open (as many
    picks left as tracks) are no choice, so they are not asked, unless a pick reaches a
    Breakthrough, whose reward then comes between the picks and makes their order matter."""
    if not step.get("different") or len(out) < 2 or step.get("n", 1) < len(out):
        return False
    if not rule(st, "no_pointless_decisions"):
        return False
    breakthroughs = st.edition.research_track["breakthroughs"]
    return all(
        st.players[st.current].research[ResearchTrack.decode(cid)[0]] + 1 not in breakthroughs
        for cid in out
    )


def resolve_research(st: GameState, step: Step, choice: str | None) -> None:
    n = step.get("n", 1)
    if choice is None:
        for _ in range(n):
            push(st, {"op": "research_step", "track": step["track"]})
        return
    (track,) = ResearchTrack.decode(choice)
    follow: list[Step] = [{"op": "research_step", "track": track}]
    if n > 1:
        follow.append({**step, "n": n - 1, "picked": step.get("picked", []) + [track]})
    push(st, *follow)


def resolve_research_step(st: GameState, step: Step, choice: None) -> None:
    p = st.players[st.current]
    track = step["track"]
    if p.research[track] >= st.edition.research_top:
        return  # at the top no more Research is gained on this track
    p.research[track] += 1
    level = p.research[track]
    say(st, S.GAINS_RESEARCH, track=TRACK_NAMES[track], level=level)
    if level in st.edition.research_track["breakthroughs"]:
        token = st.edition.breakthrough[st.breakthroughs[track]]
        say(st, S.BREAKTHROUGH, track=TRACK_NAMES[track], effect=token["text"])
        push_effect(st, token["effect"])
    if level == st.edition.research_top and track not in p.assignment_tokens:
        stack = st.assignment_token_stacks[track]
        if stack:
            p.assignment_tokens[track] = stack.pop()
            say(st, S.TRACK_TOP, track=TRACK_NAMES[track])


def _picked_choices(step: Step, options: Choices) -> Choices:
    picked = step.get("picked", []) if step.get("different") else []
    return [i for i in options if i not in picked]


def _repeat(st: GameState, step: Step, choice: str, follow: list[Step]) -> None:
    """Resolve one of n picks now and push the remaining picks (if any) after it."""
    n = step.get("n", 1)
    if n > 1:
        follow.append({**step, "n": n - 1, "picked": step.get("picked", []) + [choice]})
    push(st, *follow)


def choices_workshop_bonus(st: GameState, step: Step) -> Choices:
    options = [WorkshopBonus.encode(b) for b in st.edition.workshop_order]
    return _picked_choices(step, options)


def resolve_workshop_bonus(st: GameState, step: Step, choice: str) -> None:
    (bonus,) = WorkshopBonus.decode(choice)
    effect = st.edition.workshop_bonuses[bonus]["effect"]
    _repeat(st, step, choice, [{"op": "run_effect", "steps": effect}])


def choices_study_item(st: GameState, step: Step) -> Choices:
    return _picked_choices(step, study_item_choices(st, []))


_ASSIGNMENT: Final = StudyItem.encode("assignment")


def resolve_study_item(st: GameState, step: Step, choice: str) -> None:
    _repeat(st, step, choice, [])
    # gain after pushing the rest so a taken Assignment resolves first
    if choice == _ASSIGNMENT:
        push(st, {"op": "take_assignment", "main": False})
    else:
        gain_study_item(st, choice)


def resolve_gain_gear(st: GameState, step: Step, choice: None) -> None:
    if step["gear"] == "add":
        if st.addition_supply <= 0:
            return
        st.addition_supply -= 1
    st.players[st.current].gear_supply.append(step["gear"])


def choices_take_multiplier(st: GameState, step: Step) -> Choices:
    return [MultiplierSlot.encode(i) for i, m in enumerate(st.multiplier_display) if m is not None]


def resolve_take_multiplier(st: GameState, step: Step, choice: str) -> None:
    (i,) = MultiplierSlot.decode(choice)
    gear = st.multiplier_display[i]
    assert gear is not None
    st.multiplier_display[i] = None
    st.players[st.current].gear_supply.append(gear)
    say(st, S.TAKES_MULTIPLIER)
    slide_and_refill(st, "multiplier")


def choices_take_partner(st: GameState, step: Step) -> Choices:
    return [DisplayCard.encode(s) for s, c in enumerate(st.partner_display) if c]


def resolve_take_partner(st: GameState, step: Step, choice: str) -> None:
    card = take_display_card(st, choice)
    say(st, S.GAINS_CARD, card=partner_name(st, card))
    push(st, "keep_eight", {"op": "refill", "display": "partner"})


# the label of its Skip choice (declared with its step too: i18n translates it from there)
NO_FREE_PLAY: Final = "Play no card"


def choices_play_free(st: GameState, step: Step) -> Choices:
    return [Skip.ID] + [PlayCard.encode(c) for c in st.players[st.current].hand]


def resolve_play_free(st: GameState, step: Step, choice: str) -> None:
    if choice == Skip.ID:
        return
    (card,) = PlayCard.decode(choice)
    say(st, S.PLAYS_FREE, card=partner_name(st, card), effect=st.edition.partner[card]["text"])
    play_from_hand(st, card)


def resolve_discard_played(st: GameState, step: Step, choice: None) -> None:
    """The played card's effect has resolved: it goes to the discard pile (rules version 2)."""
    st.players[st.current].played.remove(step["card"])
    st.players[st.current].discard.append(step["card"])


def choices_use_display_partner(st: GameState, step: Step) -> Choices:
    return [SKIP] + [UseDisplayCard.encode(s) for s, c in enumerate(st.partner_display) if c]


def resolve_use_display_partner(st: GameState, step: Step, choice: str) -> None:
    if choice != Skip.ID:
        card = st.partner_display[UseDisplayCard.decode(choice)[0]]
        assert card is not None
        say(st, S.USES_DISPLAY, card=partner_name(st, card))
        push_effect(st, st.edition.partner[card]["effect"])


def resolve_per_hand(st: GameState, step: Step, choice: None) -> None:
    times = len(st.players[st.current].hand)
    push(st, {"op": "gain", **{k: v * times for k, v in step["gain"].items()}})


def resolve_per_disc(st: GameState, step: Step, choice: None) -> None:
    seat = st.current
    times = sum(s.count(seat) for s in st.university_discs.values())
    times += sum(s.count(seat) for s in st.lectures.values())
    push(st, {"op": "gain", **{k: v * times for k, v in step["gain"].items()}})


def choices_build(st: GameState, step: Step) -> Choices:
    out = build_options(st)
    return [SKIP] + out if out else []


def resolve_build(st: GameState, step: Step, choice: str) -> None:
    if choice != Skip.ID:
        (gear,) = BuildGear.decode(choice)
        push(st, {"op": "gear_place", "gear": gear})


def resolve_build_free(st: GameState, step: Step, choice: None) -> None:
    gear = step.get("gear", "add")
    if gear in st.players[st.current].gear_supply and open_gear_spaces(st.players[st.current]):
        push(st, {"op": "gear_place", "gear": gear, "free": True})


def choices_upgrade_subtraction(st: GameState, step: Step) -> Choices:
    if st.addition_supply <= 0:
        return []
    subs = [pos for pos, g in enumerate(st.players[st.current].gears) if g == "sub"]
    return [SKIP] + [UpgradeGear.encode(pos) for pos in subs] if subs else []


def resolve_upgrade_subtraction(st: GameState, step: Step, choice: str) -> None:
    if choice == Skip.ID:
        return
    st.players[st.current].gears[UpgradeGear.decode(choice)[0]] = "add"
    st.addition_supply -= 1
    say(st, S.UPGRADES)


def choices_meeting_disc(st: GameState, step: Step) -> Choices:
    return [MeetingRoom.encode(r) for r in open_rooms(st)]


def resolve_meeting_disc(st: GameState, step: Step, choice: str) -> None:
    (room,) = MeetingRoom.decode(choice)
    push(st, {"op": "place_disc", "to": f"room:{room}"})


def choices_university_disc(st: GameState, step: Step) -> Choices:
    return [University.encode(c) for c in free_universities(st, st.current)]


def resolve_university_disc(st: GameState, step: Step, choice: str) -> None:
    (city,) = University.decode(choice)
    push(st, {"op": "place_disc", "to": f"uni:{city}"})


def choices_lecture_disc(st: GameState, step: Step) -> Choices:
    return [LectureSpace.encode(i, lvl) for i, lvl in empty_lectures(st)]


def resolve_lecture_disc(st: GameState, step: Step, choice: str) -> None:
    i, lvl = LectureSpace.decode(choice)
    push(st, {"op": "place_disc", "to": f"lec:{i}:{lvl}"})


def _available_spaces(st: GameState) -> list[str]:
    out = [f"uni:{c}" for c in free_universities(st, st.current)]
    out += [f"room:{r}" for r in open_rooms(st)]
    out += [f"lec:{i}:{lvl}" for i, lvl in empty_lectures(st)]
    return out


def choices_move_disc(st: GameState, step: Step) -> Choices:
    locs = own_board_discs(st, st.current)
    if not locs:
        return []
    return [SKIP] + [MoveDiscFrom.encode(loc) for loc in locs]


def resolve_move_disc(st: GameState, step: Step, choice: str) -> None:
    if choice != Skip.ID:
        (loc,) = MoveDiscFrom.decode(choice)
        push(st, {"op": "move_disc_to", "from": loc})


def choices_move_disc_to(st: GameState, step: Step) -> Choices:
    return [MoveDiscTo.encode(loc) for loc in _available_spaces(st) if loc != step["from"]]


def resolve_move_disc_to(st: GameState, step: Step, choice: str) -> None:
    (loc,) = MoveDiscTo.decode(choice)
    take_disc(st, st.current, step["from"])
    put_disc(st, st.current, loc)
    say(st, S.MOVES_DISC, loc=loc_name(st, step["from"]), loc2=loc_name(st, loc))


def resolve_remove_disc(st: GameState, step: Step, choice: None) -> None:
    if st.players[st.current].discs > 0:
        st.players[st.current].discs -= 1
        st.players[st.current].discs_boxed += 1
        say(st, S.REMOVES_DISC)


def choices_relocate_university_disc(st: GameState, step: Step) -> Choices:
    mine = [c for c in st.edition.university_cities if st.current in st.university_discs[c]]
    if not mine or not free_universities(st, st.current):
        return []
    return [SKIP] + [RelocateFrom.encode(c) for c in mine]


def resolve_relocate_university_disc(st: GameState, step: Step, choice: str) -> None:
    if choice != Skip.ID:
        (city,) = RelocateFrom.decode(choice)
        push(st, {"op": "relocate_to", "from": city})


def choices_relocate_to(st: GameState, step: Step) -> Choices:
    return [RelocateTo.encode(c) for c in free_universities(st, st.current)]


def resolve_relocate_to(st: GameState, step: Step, choice: str) -> None:
    (city,) = RelocateTo.decode(choice)
    take_disc(st, st.current, f"uni:{step['from']}")
    put_disc(st, st.current, f"uni:{city}")
    say(
        st,
        S.MOVES_DISC,
        loc=st.edition.city[step["from"]]["name"],
        loc2=st.edition.city[city]["name"],
    )
    push_effect(st, city_reward(st, city)[0])


def choices_assignment_token(st: GameState, step: Step) -> Choices:
    p = st.players[st.current]
    return [
        AssignmentToken.encode(c)
        for c in V.COLOURS_MAIN
        if c not in p.assignment_tokens and 1 in st.assignment_token_stacks[c]
    ]


def resolve_assignment_token(st: GameState, step: Step, choice: str) -> None:
    (colour,) = AssignmentToken.decode(choice)
    st.assignment_token_stacks[colour].remove(1)
    st.players[st.current].assignment_tokens[colour] = 1


def choices_science_token(st: GameState, step: Step) -> Choices:
    sciences = V.SCIENCES if step.get("science", "any") == "any" else [step["science"]]
    limited = rule(st, "science_token_supply")
    return [
        ScienceToken.encode(s)
        for s in sciences
        if s not in st.players[st.current].science_tokens
        and (not limited or science_ones_left(st, s) > 0)
    ]


def resolve_science_token(st: GameState, step: Step, choice: str) -> None:
    (science,) = ScienceToken.decode(choice)
    st.players[st.current].science_tokens[science] = 1


def choices_advanced(st: GameState, step: Step) -> Choices:
    return [AdvancedAction.encode(a) for a in AREAS]


def resolve_advanced(st: GameState, step: Step, choice: str) -> None:
    (area,) = AdvancedAction.decode(choice)
    push(st, *advanced_steps(st, area, 1))


def choices_breakthrough(st: GameState, step: Step) -> Choices:
    options = [Breakthrough.encode(t) for t in st.breakthroughs]
    return _picked_choices(step, options)


def resolve_breakthrough(st: GameState, step: Step, choice: str) -> None:
    (track,) = Breakthrough.decode(choice)
    token = st.edition.breakthrough[st.breakthroughs[track]]
    _repeat(st, step, choice, [{"op": "run_effect", "steps": token["effect"]}])


def choices_adjust_die(st: GameState, step: Step) -> Choices:
    out: Choices = [SKIP]
    for where, die in own_dice(st.players[st.current]):
        v = int(die[1])
        for delta in (-1, 1):
            if 1 <= v + delta <= 6:
                out.append(AdjustOwnDie.encode(where, delta))
    for s, space in enumerate(st.workshop):
        for idx, die in enumerate(space):
            if die in space[:idx]:
                continue
            v = int(die[1])
            for delta in (-1, 1):
                if 1 <= v + delta <= 6:
                    out.append(AdjustWorkshopDie.encode(s, idx, delta))
    return out


def resolve_adjust_die(st: GameState, step: Step, choice: str) -> None:
    value = read("adjust_die", choice)
    if isinstance(value, Skip):
        return
    if isinstance(value, AdjustOwnDie):
        where, delta = value.die, value.delta
        p = st.players[st.current]
        die = (p.store if where[0] == "s" else p.mill)[int(where[1:])]
        assert die is not None
        set_own_die(p, where, f"{die[0]}{int(die[1]) + delta}")
    else:
        assert isinstance(value, AdjustWorkshopDie)
        s, idx, delta = value.space, value.index, value.delta
        space = st.workshop[s]
        die = space[idx]
        space[idx] = f"{die[0]}{int(die[1]) + delta}"
    if step.get("n", 1) > 1:
        push(st, {**step, "n": step["n"] - 1})


def choices_choose(st: GameState, step: Step) -> Choices:
    return [Option.encode(i) for i in range(len(step["options"]))]


def resolve_choose(st: GameState, step: Step, choice: str) -> None:
    (index,) = Option.decode(choice)
    push_effect(st, step["options"][index]["effect"])


# The steps of this module (engine.steps; gathered by engine.rules).
STEPS: Final[tuple[StepKind, ...]] = (
    StepKind("run_effect", resolve_run_effect),
    StepKind("gain", resolve_gain),
    StepKind("pay", resolve_pay),
    StepKind("innovation", resolve_innovation),
    StepKind(
        "innovation_top",
        resolve_innovation_top,
        choices_innovation_top,
        prompt="Your Innovation reached the top: spend 2 for a Workshop bonus?",
    ),
    StepKind("draw", resolve_draw),
    StepKind(
        "may_draw",
        resolve_may_draw,
        choices_may_draw,
        prompt="Meetings, advanced level II: draw 2 cards before playing a card free?",
        place="hand",
        decline=DRAW_NONE,
    ),
    StepKind(
        "discard",
        resolve_discard,
        choices_discard,
        prompt="Discard a card from your hand.",
        private=True,
        place="hand",
    ),
    StepKind(
        "research",
        resolve_research,
        choices_research,
        prompt="Gain 1 Research: on which track?",
        place="research",
    ),
    StepKind("research_step", resolve_research_step, objectives=True),
    StepKind(
        "workshop_bonus",
        resolve_workshop_bonus,
        choices_workshop_bonus,
        prompt="Choose a Workshop bonus reward.",
    ),
    StepKind(
        "study_item",
        resolve_study_item,
        choices_study_item,
        prompt="Choose a Study item.",
        place="study",
    ),
    StepKind("gain_gear", resolve_gain_gear),
    StepKind(
        "take_multiplier",
        resolve_take_multiplier,
        choices_take_multiplier,
        prompt="Take a Multiplier Gear from the display.",
        place="meetings",
    ),
    StepKind(
        "take_partner",
        resolve_take_partner,
        choices_take_partner,
        prompt="Take a Partner card from the display.",
        place="meetings",
    ),
    StepKind(
        "play_free",
        resolve_play_free,
        choices_play_free,
        prompt="You may play a card from your hand without its cost.",
        private=True,
        place="hand",
        decline=NO_FREE_PLAY,
    ),
    StepKind("discard_played", resolve_discard_played),
    StepKind(
        "use_display_partner",
        resolve_use_display_partner,
        choices_use_display_partner,
        prompt="You may use the effect of a Partner card in the display.",
        place="meetings",
    ),
    StepKind("per_hand", resolve_per_hand),
    StepKind("per_disc", resolve_per_disc),
    StepKind(
        "build",
        resolve_build,
        choices_build,
        prompt="You may build a Gear, paying its cost.",
        place="mill",
    ),
    StepKind("build_free", resolve_build_free),
    StepKind(
        "upgrade_subtraction",
        resolve_upgrade_subtraction,
        choices_upgrade_subtraction,
        prompt="Swap a built Subtraction Gear for an Addition Gear?",
        place="mill",
    ),
    StepKind(
        "meeting_disc",
        resolve_meeting_disc,
        choices_meeting_disc,
        prompt="Place a disc in a Meeting room.",
        place="meetings",
    ),
    StepKind(
        "university_disc",
        resolve_university_disc,
        choices_university_disc,
        prompt="Place a disc on a University.",
        place="map",
    ),
    StepKind(
        "lecture_disc",
        resolve_lecture_disc,
        choices_lecture_disc,
        prompt="Place a disc on a Lecture space.",
        place="lectures",
    ),
    StepKind(
        "move_disc",
        resolve_move_disc,
        choices_move_disc,
        prompt="You may move one of your discs on the main board.",
        place="discs",
    ),
    StepKind(
        "move_disc_to",
        resolve_move_disc_to,
        choices_move_disc_to,
        prompt="Where does the disc go?",
        objectives=True,
        place="discs",
    ),
    StepKind("remove_disc", resolve_remove_disc),
    StepKind(
        "relocate_university_disc",
        resolve_relocate_university_disc,
        choices_relocate_university_disc,
        prompt="You may move a disc between Universities.",
        place="map",
    ),
    StepKind(
        "relocate_to",
        resolve_relocate_to,
        choices_relocate_to,
        prompt="To which University?",
        objectives=True,
        place="map",
    ),
    StepKind(
        "assignment_token",
        resolve_assignment_token,
        choices_assignment_token,
        prompt="Take a 1-point Assignment Scoring token.",
        place="research",
    ),
    StepKind(
        "science_token",
        resolve_science_token,
        choices_science_token,
        prompt="Take a 1-point Science Scoring token.",
    ),
    StepKind(
        "advanced", resolve_advanced, choices_advanced, prompt="Take any level I advanced action."
    ),
    StepKind(
        "breakthrough",
        resolve_breakthrough,
        choices_breakthrough,
        prompt="Take the reward of a Breakthrough token.",
        place="research",
    ),
    StepKind(
        "adjust_die",
        resolve_adjust_die,
        choices_adjust_die,
        prompt="Adjust a die by 1 pip.",
        place="workshop",
    ),
    StepKind("choose", resolve_choose, choices_choose, prompt="Choose one."),
)
