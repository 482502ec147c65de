"""Effect steps: the primitives of the rulebook's Icon Reference. Cards, tiles and board spaces
are lists of these steps (see engine.content)."""

from __future__ import annotations

from engine import board as B
from engine import content as C
from engine.common import (
    AREA_TITLE,
    AUTO,
    RESEARCH_TOP,
    RESOURCES,
    SKIP,
    Choices,
    Step,
    _can_pay,
    _draw_cards,
    _empty_lectures,
    _free_universities,
    _gain_innovation,
    _open_gear_spaces,
    _open_rooms,
    _own_dice,
    _partner_label,
    _pay,
    _put_disc,
    _say,
    _set_own_die,
    _shown,
    _slide_and_refill,
    _take_disc,
    _where_name,
    city_reward,
    cost_text,
    discard_from_hand,
    loc_name,
    own_board_discs,
    partner_name,
    play_from_hand,
    push,
    push_effect,
    science_ones_left,
)
from engine.mill import gear_space_name
from engine.state import (
    AREAS,
    TRACK_NAMES,
    GameState,
    die_name,
)
from engine.turn import (
    _advanced_steps,
    _build_options,
    _gain_study_item,
    _study_item_choices,
    choices_study_program,
    resolve_study_program,
)
from engine.versions import rule

# ======================================================================================
# Effect steps (the Icon Reference)
# ======================================================================================


def resolve_run_effect(st: GameState, step: Step, choice: None) -> None:
    steps = step["steps"]
    if not steps:
        return
    first, rest = steps[0], steps[1:]
    p = st.me
    if first["op"] == "pay" or (first["op"] == "innovation" and first["n"] < 0):
        cost = {k: v for k, v in first.items() if k in RESOURCES}
        if first["op"] == "innovation":
            cost = {"innovation": -first["n"]}
        if not _can_pay(p, cost):
            return  # a cost you cannot pay: the rest of the effect is lost
        _pay(p, cost)
        push_effect(st, rest)
        return
    push_effect(st, rest)
    push(st, first)


def resolve_gain(st: GameState, step: Step, choice: None) -> None:
    p = st.me
    for res in RESOURCES:
        if step.get(res):
            setattr(p, res, getattr(p, res) + step[res])
    gained = {k: v for k, v in step.items() if k in RESOURCES and v}
    if gained:
        _say(st, f"gains {cost_text(gained)}.")


def resolve_pay(st: GameState, step: Step, choice: None) -> None:
    cost = {k: v for k, v in step.items() if k in RESOURCES}
    if _can_pay(st.me, cost):
        _pay(st.me, cost)


def resolve_innovation(st: GameState, step: Step, choice: None) -> None:
    if step["n"] >= 0:
        _gain_innovation(st, st.me, step["n"])
    else:
        st.me.innovation = max(0, st.me.innovation + step["n"])


def choices_innovation_top(st: GameState, step: Step) -> Choices:
    if st.me.innovation < C.INNOVATION_TOP_SPEND:
        return []
    return [SKIP] + [
        (f"itop:{b}", f"Spend {C.INNOVATION_TOP_SPEND} Innovation: {C.WORKSHOP_BONUSES[b]['text']}")
        for b in C.STANDARD_WORKSHOP_ORDER
        if b != "innovation"
    ]


def resolve_innovation_top(st: GameState, step: Step, choice: str) -> None:
    if choice == "skip":
        return
    st.me.innovation -= C.INNOVATION_TOP_SPEND
    bonus = choice[5:]
    _say(
        st,
        f"spends {C.INNOVATION_TOP_SPEND} Innovation at the top of the track for {C.WORKSHOP_BONUSES[bonus]['text']}.",
    )
    push_effect(st, C.WORKSHOP_BONUSES[bonus]["effect"])


def resolve_draw(st: GameState, step: Step, choice: None) -> None:
    if step["n"] > 0:
        _draw_cards(st, st.me, step["n"])


def choices_may_draw(st: GameState, step: Step) -> Choices:
    """An optional draw (Meetings advanced level II, rules version 2)."""
    p = st.me
    if not p.deck and not p.discard:
        return []
    n = step["n"]
    return [("draw", f"Draw {n} card{'s' if n > 1 else ''} from your deck"), ("skip", "Draw none")]


def resolve_may_draw(st: GameState, step: Step, choice: str) -> None:
    if choice == "draw":
        _draw_cards(st, st.me, step["n"])


def choices_discard(st: GameState, step: Step) -> Choices:
    return [(f"dc:{c}", f"Discard {partner_name(c)}") for c in st.me.hand]


def resolve_discard(st: GameState, step: Step, choice: str) -> None:
    discard_from_hand(st.me, choice[3:])
    _shown(st)
    if step["n"] > 1:
        push(st, {"op": "discard", "n": step["n"] - 1})


def choices_research(st: GameState, step: Step) -> Choices | None:
    if step.get("track", "any") != "any":
        return AUTO
    picked = step.get("picked", []) if step.get("different") else []
    out = [
        (f"rs:{t}", f"+1 Research on {TRACK_NAMES[t]} (now {st.me.research[t]})")
        for t in C.COLOURS_MAIN
        if st.me.research[t] < RESEARCH_TOP and t not in picked
    ]
    if _forced_picks(st, step, out):
        return out[:1]
    return out


def _forced_picks(st: GameState, step: Step, out: Choices) -> bool:
    """Rules version 2: different Research picks that must take every track still open (as many
    picks left as tracks) are no choice, so they are not asked, unless a pick reaches a
    Breakthrough, whose reward then comes between the picks and makes their order matter."""
    if not step.get("different") or len(out) < 2 or step.get("n", 1) < len(out):
        return False
    if not rule(st, "no_pointless_decisions"):
        return False
    breakthroughs = C.RESEARCH_TRACK["breakthroughs"]
    return all(st.me.research[cid[3:]] + 1 not in breakthroughs for cid, _ in out)


def resolve_research(st: GameState, step: Step, choice: str | None) -> None:
    n = step.get("n", 1)
    if choice is None:
        for _ in range(n):
            push(st, {"op": "research_step", "track": step["track"]})
        return
    track = choice[3:]
    follow: list[Step] = [{"op": "research_step", "track": track}]
    if n > 1:
        follow.append({**step, "n": n - 1, "picked": step.get("picked", []) + [track]})
    push(st, *follow)


def resolve_research_step(st: GameState, step: Step, choice: None) -> None:
    p = st.me
    track = step["track"]
    if p.research[track] >= RESEARCH_TOP:
        return  # at the top no more Research is gained on this track
    p.research[track] += 1
    level = p.research[track]
    _say(st, f"gains 1 Research on {TRACK_NAMES[track]} (now {level}).")
    if level in C.RESEARCH_TRACK["breakthroughs"]:
        token = B.BREAKTHROUGH[st.breakthroughs[track]]
        _say(st, f"reaches a Breakthrough on {TRACK_NAMES[track]}: {token['text']}.")
        push_effect(st, token["effect"])
    if level == RESEARCH_TOP and track not in p.assignment_tokens:
        stack = st.assignment_token_stacks[track]
        if stack:
            p.assignment_tokens[track] = stack.pop()
            _say(
                st,
                f"reaches the top of {TRACK_NAMES[track]} and takes its Assignment Scoring token.",
            )


def _picked_choices(step: Step, options: Choices) -> Choices:
    picked = step.get("picked", []) if step.get("different") else []
    return [(i, label) for i, label in options if i not in picked]


def _repeat(st: GameState, step: Step, choice: str, follow: list[Step]) -> None:
    """Resolve one of n picks now and push the remaining picks (if any) after it."""
    n = step.get("n", 1)
    if n > 1:
        follow.append({**step, "n": n - 1, "picked": step.get("picked", []) + [choice]})
    push(st, *follow)


def choices_workshop_bonus(st: GameState, step: Step) -> Choices:
    options = [(f"wb:{b}", C.WORKSHOP_BONUSES[b]["text"]) for b in C.STANDARD_WORKSHOP_ORDER]
    return _picked_choices(step, options)


def resolve_workshop_bonus(st: GameState, step: Step, choice: str) -> None:
    _repeat(
        st, step, choice, [{"op": "run_effect", "steps": C.WORKSHOP_BONUSES[choice[3:]]["effect"]}]
    )


def choices_study_item(st: GameState, step: Step) -> Choices:
    return _picked_choices(step, _study_item_choices(st, []))


def resolve_study_item(st: GameState, step: Step, choice: str) -> None:
    _repeat(st, step, choice, [])
    # gain after pushing the rest so a taken Assignment resolves first
    if choice == "assignment":
        push(st, {"op": "take_assignment", "main": False})
    else:
        _gain_study_item(st, choice)


def resolve_gain_gear(st: GameState, step: Step, choice: None) -> None:
    if step["gear"] == "add":
        if st.addition_supply <= 0:
            return
        st.addition_supply -= 1
    st.me.gear_supply.append(step["gear"])


def choices_take_program(st: GameState, step: Step) -> Choices:
    return choices_study_program(st, step)


def resolve_take_program(st: GameState, step: Step, choice: str) -> None:
    resolve_study_program(st, step, choice)


def choices_take_multiplier(st: GameState, step: Step) -> Choices:
    return [
        (f"mul:{i}", f"Multiplier Gear (build cost {cost_text(B.MULTIPLIER[m]['cost'])})")
        for i, m in enumerate(st.multiplier_display)
        if m is not None
    ]


def resolve_take_multiplier(st: GameState, step: Step, choice: str) -> None:
    i = int(choice[4:])
    gear = st.multiplier_display[i]
    assert gear is not None
    st.multiplier_display[i] = None
    st.me.gear_supply.append(gear)
    _say(st, "takes a Multiplier Gear.")
    _slide_and_refill(st, "multiplier")


def choices_take_partner(st: GameState, step: Step) -> Choices:
    return [(f"card:{s}", _partner_label(c)) for s, c in enumerate(st.partner_display) if c]


def resolve_take_partner(st: GameState, step: Step, choice: str) -> None:
    slot = int(choice[5:])
    card = st.partner_display[slot]
    assert card is not None
    st.partner_display[slot] = None
    st.me.hand.append(card)
    _say(st, f"gains {partner_name(card)}.")
    push(st, "keep_eight", {"op": "refill", "display": "partner"})


def choices_play_free(st: GameState, step: Step) -> Choices:
    return [("skip", "Play no card")] + [
        (f"play:{c}", f"Play {partner_name(c)} free: {B.PARTNER[c]['text']}") for c in st.me.hand
    ]


def resolve_play_free(st: GameState, step: Step, choice: str) -> None:
    if choice == "skip":
        return
    card = choice[5:]
    _say(st, f"plays {partner_name(card)} without its cost: {B.PARTNER[card]['text']}")
    play_from_hand(st, card)


def resolve_discard_played(st: GameState, step: Step, choice: None) -> None:
    """The played card's effect has resolved: it goes to the discard pile (rules version 2)."""
    st.me.played.remove(step["card"])
    st.me.discard.append(step["card"])


def choices_use_display_partner(st: GameState, step: Step) -> Choices:
    return [SKIP] + [
        (f"use:{s}", f"Use {partner_name(c)}: {B.PARTNER[c]['text']}")
        for s, c in enumerate(st.partner_display)
        if c
    ]


def resolve_use_display_partner(st: GameState, step: Step, choice: str) -> None:
    if choice != "skip":
        card = st.partner_display[int(choice[4:])]
        assert card is not None
        _say(st, f"uses the effect of {partner_name(card)} from the display.")
        push_effect(st, B.PARTNER[card]["effect"])


def resolve_per_hand(st: GameState, step: Step, choice: None) -> None:
    times = len(st.me.hand)
    push(st, {"op": "gain", **{k: v * times for k, v in step["gain"].items()}})


def resolve_per_disc(st: GameState, step: Step, choice: None) -> None:
    seat = st.current
    times = sum(s.count(seat) for s in st.university_discs.values())
    times += sum(s.count(seat) for s in st.lectures.values())
    push(st, {"op": "gain", **{k: v * times for k, v in step["gain"].items()}})


def choices_build(st: GameState, step: Step) -> Choices:
    out = _build_options(st)
    return [SKIP] + out if out else []


def resolve_build(st: GameState, step: Step, choice: str) -> None:
    if choice != "skip":
        push(st, {"op": "gear_place", "gear": choice[6:]})


def resolve_build_free(st: GameState, step: Step, choice: None) -> None:
    gear = step.get("gear", "add")
    if gear in st.me.gear_supply and _open_gear_spaces(st.me):
        push(st, {"op": "gear_place", "gear": gear, "free": True})


def choices_upgrade_subtraction(st: GameState, step: Step) -> Choices:
    if st.addition_supply <= 0:
        return []
    subs = [pos for pos, g in enumerate(st.me.gears) if g == "sub"]
    return (
        [SKIP]
        + [
            (f"up:{pos}", f"Turn the Subtraction Gear at {gear_space_name(pos)} into Addition")
            for pos in subs
        ]
        if subs
        else []
    )


def resolve_upgrade_subtraction(st: GameState, step: Step, choice: str) -> None:
    if choice == "skip":
        return
    st.me.gears[int(choice[3:])] = "add"
    st.addition_supply -= 1
    _say(st, "swaps a built Subtraction Gear for an Addition Gear.")


def choices_meeting_disc(st: GameState, step: Step) -> Choices:
    return [(f"room:{r}", f"Place a disc in Meeting room {r + 1}") for r in _open_rooms(st)]


def resolve_meeting_disc(st: GameState, step: Step, choice: str) -> None:
    push(st, {"op": "place_disc", "to": choice})


def choices_university_disc(st: GameState, step: Step) -> Choices:
    return [
        (f"uni:{c}", f"Place a disc on {B.CITY[c]['name']}")
        for c in _free_universities(st, st.current)
    ]


def resolve_university_disc(st: GameState, step: Step, choice: str) -> None:
    push(st, {"op": "place_disc", "to": choice})


def choices_lecture_disc(st: GameState, step: Step) -> Choices:
    return [
        (f"lec:{i}:{lvl}", f"Place a disc on {loc_name(f'lec:{i}:{lvl}')}")
        for i, lvl in _empty_lectures(st)
    ]


def resolve_lecture_disc(st: GameState, step: Step, choice: str) -> None:
    push(st, {"op": "place_disc", "to": choice})


def _available_spaces(st: GameState) -> list[str]:
    out = [f"uni:{c}" for c in _free_universities(st, st.current)]
    out += [f"room:{r}" for r in _open_rooms(st)]
    out += [f"lec:{i}:{lvl}" for i, lvl in _empty_lectures(st)]
    return out


def choices_move_disc(st: GameState, step: Step) -> Choices:
    locs = own_board_discs(st, st.current)
    if not locs:
        return []
    return [SKIP] + [(f"from:{loc}", f"Move your disc from {loc_name(loc)}") for loc in locs]


def resolve_move_disc(st: GameState, step: Step, choice: str) -> None:
    if choice != "skip":
        push(st, {"op": "move_disc_to", "from": choice[5:]})


def choices_move_disc_to(st: GameState, step: Step) -> Choices:
    return [
        (f"to:{loc}", f"to {loc_name(loc)}") for loc in _available_spaces(st) if loc != step["from"]
    ]


def resolve_move_disc_to(st: GameState, step: Step, choice: str) -> None:
    _take_disc(st, st.current, step["from"])
    _put_disc(st, st.current, choice[3:])
    _say(st, f"moves a disc from {loc_name(step['from'])} to {loc_name(choice[3:])}.")


def resolve_remove_disc(st: GameState, step: Step, choice: None) -> None:
    if st.me.discs > 0:
        st.me.discs -= 1
        st.me.discs_boxed += 1
        _say(st, "removes a disc from the player board.")


def choices_relocate_university_disc(st: GameState, step: Step) -> Choices:
    mine = [c for c in B.UNIVERSITY_CITIES if st.current in st.university_discs[c]]
    if not mine or not _free_universities(st, st.current):
        return []
    return [SKIP] + [(f"from:{c}", f"Move your disc from {B.CITY[c]['name']}") for c in mine]


def resolve_relocate_university_disc(st: GameState, step: Step, choice: str) -> None:
    if choice != "skip":
        push(st, {"op": "relocate_to", "from": choice[5:]})


def choices_relocate_to(st: GameState, step: Step) -> Choices:
    return [
        (f"to:{c}", f"to {B.CITY[c]['name']}: {city_reward(st, c)[1]}")
        for c in _free_universities(st, st.current)
    ]


def resolve_relocate_to(st: GameState, step: Step, choice: str) -> None:
    city = choice[3:]
    _take_disc(st, st.current, f"uni:{step['from']}")
    _put_disc(st, st.current, f"uni:{city}")
    _say(st, f"moves a disc from {B.CITY[step['from']]['name']} to {B.CITY[city]['name']}.")
    push_effect(st, city_reward(st, city)[0])


def choices_assignment_token(st: GameState, step: Step) -> Choices:
    p = st.me
    return [
        (f"at:{c}", f"Take a 1-point {TRACK_NAMES[c]} Assignment Scoring token")
        for c in C.COLOURS_MAIN
        if c not in p.assignment_tokens and 1 in st.assignment_token_stacks[c]
    ]


def resolve_assignment_token(st: GameState, step: Step, choice: str) -> None:
    colour = choice[3:]
    st.assignment_token_stacks[colour].remove(1)
    st.me.assignment_tokens[colour] = 1


def choices_science_token(st: GameState, step: Step) -> Choices:
    sciences = C.SCIENCES if step.get("science", "any") == "any" else [step["science"]]
    limited = rule(st, "science_token_supply")
    return [
        (f"sci:{s}", f"Take a 1-point {s.capitalize()} Science Scoring token")
        for s in sciences
        if s not in st.me.science_tokens and (not limited or science_ones_left(st, s) > 0)
    ]


def resolve_science_token(st: GameState, step: Step, choice: str) -> None:
    st.me.science_tokens[choice[4:]] = 1


def choices_advanced(st: GameState, step: Step) -> Choices:
    return [(f"adv:{a}", f"Level I advanced action of {AREA_TITLE[a]}") for a in AREAS]


def resolve_advanced(st: GameState, step: Step, choice: str) -> None:
    push(st, *_advanced_steps(st, choice[4:], 1))


def choices_breakthrough(st: GameState, step: Step) -> Choices:
    options = [
        (f"bt:{t}", f"Breakthrough ({TRACK_NAMES[t]}): {B.BREAKTHROUGH[b]['text']}")
        for t, b in st.breakthroughs.items()
    ]
    return _picked_choices(step, options)


def resolve_breakthrough(st: GameState, step: Step, choice: str) -> None:
    token = B.BREAKTHROUGH[st.breakthroughs[choice[3:]]]
    _repeat(st, step, choice, [{"op": "run_effect", "steps": token["effect"]}])


def choices_adjust_die(st: GameState, step: Step) -> Choices:
    out: Choices = [SKIP]
    for where, die in _own_dice(st.me):
        v = int(die[1])
        for delta, sign in ((-1, "-"), (1, "+")):
            if 1 <= v + delta <= 6:
                out.append(
                    (
                        f"own:{where}:{sign}",
                        f"Your {die_name(die)} ({_where_name(where)}) to {v + delta}",
                    )
                )
    for s, space in enumerate(st.workshop):
        for idx, die in enumerate(space):
            if die in space[:idx]:
                continue
            v = int(die[1])
            for delta, sign in ((-1, "-"), (1, "+")):
                if 1 <= v + delta <= 6:
                    out.append(
                        (
                            f"ws:{s}:{idx}:{sign}",
                            f"{die_name(die)} in Workshop space {s + 1} to {v + delta}",
                        )
                    )
    return out


def resolve_adjust_die(st: GameState, step: Step, choice: str) -> None:
    if choice == "skip":
        return
    parts = choice.split(":")
    delta = 1 if parts[-1] == "+" else -1
    if parts[0] == "own":
        p = st.me
        die = (p.store if parts[1][0] == "s" else p.mill)[int(parts[1][1:])]
        assert die is not None
        _set_own_die(p, parts[1], f"{die[0]}{int(die[1]) + delta}")
    else:
        space = st.workshop[int(parts[1])]
        die = space[int(parts[2])]
        space[int(parts[2])] = f"{die[0]}{int(die[1]) + delta}"
    if step.get("n", 1) > 1:
        push(st, {**step, "n": step["n"] - 1})


def choices_choose(st: GameState, step: Step) -> Choices:
    return [(f"opt:{i}", o["label"]) for i, o in enumerate(step["options"])]


def resolve_choose(st: GameState, step: Step, choice: str) -> None:
    push_effect(st, step["options"][int(choice[4:])]["effect"])
