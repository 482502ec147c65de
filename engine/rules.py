"""The rules of Ada's Dream as pure functions over a GameState.

How it works
------------
The state keeps a stack of pending *steps* (`state.stack`, top last). Each step is a small dict
`{"op": name, ...}`. For every op there is a `resolve_<op>(st, step, choice)` function and, if the
step may need a player's decision, a `choices_<op>(st, step)` function that returns the legal
choices as `(id, label)` pairs in a stable order (or AUTO to resolve without asking).

`run()` resolves steps until one needs a decision with two or more choices (a step with a single
legal choice is applied at once, one with none is skipped: "if you are unable to gain the benefits
of an effect you do not gain them"). Card, tile and space effects are lists of steps taken from
`engine.content`, so the same interpreter runs all of them, and a pending chain of effects is
plain data that survives serialisation.
"""

from __future__ import annotations

from typing import Any

from engine import board as B
from engine import content as C
from engine import rng
from engine.mill import LINE_NAMES, gear_space_name, line_value
from engine.state import (
    AREA_COLOUR,
    AREAS,
    COLOUR_AREA,
    TRACK_NAMES,
    Choice,
    Decision,
    GameSetup,
    GameState,
    IllegalChoice,
    PlayerState,
    die_name,
)

Step = dict[str, Any]
Choices = list[tuple[str, str]]
AUTO = None  # returned by a choices_ function: resolve this step without asking
SKIP = ("skip", "Skip")
RESOURCES = ("money", "coal", "brass", "books")
RESEARCH_TOP = C.RESEARCH_TRACK["top"]
AREA_TITLE = {
    "workshop": "Workshop",
    "study": "Ada's Study",
    "travel": "Travel",
    "meetings": "Meetings",
    "institutions": "Institutions",
}


# ======================================================================================
# Setup
# ======================================================================================


def new_game(setup: GameSetup) -> GameState:
    """Set up a game as the rulebook's Setup section describes, all chance drawn from the seed."""
    seed = setup.seed & ((1 << 64) - 1)
    n = setup.players
    names = list(setup.names)
    if setup.shuffle_seats:
        seed = rng.shuffle(seed, names)
    players = [
        PlayerState(name=names[i], colour=C.PLAYER_COLOURS[i], store=[None] * C.STORE_SLOTS)
        for i in range(n)
    ]
    st = GameState(setup=setup, players=players, rng=seed)

    # Universities, Objectives, Breakthroughs, Science stacks: printed standard or random.
    std = C.STANDARD_SETUP
    if setup.random_setup:
        for region in ("southern", "central"):
            spaces = [c for c in B.UNIVERSITY_CITIES if B.CITY[c]["region"] == region]
            tiles = [t["id"] for t in C.UNIVERSITY_TILES if t["region"] == region]
            st.rng = rng.shuffle(st.rng, tiles)
            st.universities.update(zip(spaces, tiles, strict=False))
        st.rng, side_pick = rng.below(st.rng, 2)
        side = "AB"[side_pick]
        for area in AREAS:
            options = [o["id"] for o in C.OBJECTIVES if o["area"] == area and o["side"] == side]
            st.rng, k = rng.below(st.rng, len(options))
            st.objectives.append(options[k])
        tokens = [b["id"] for b in C.BREAKTHROUGHS]
        st.rng = rng.shuffle(st.rng, tokens)
        st.breakthroughs = dict(zip(C.COLOURS_MAIN, tokens, strict=False))
        st.room_science = list(C.SCIENCES)
        st.rng = rng.shuffle(st.rng, st.room_science)
        st.workshop_bonus = list(C.STANDARD_WORKSHOP_ORDER)
        st.rng = rng.shuffle(st.rng, st.workshop_bonus)
    else:
        st.universities = dict(std["universities"])
        st.objectives = [std["objectives"][a] for a in AREAS]
        st.breakthroughs = dict(std["breakthroughs"])
        st.room_science = list(std["science_rooms"])
        st.workshop_bonus = list(std["workshop_order"])
    st.university_discs = {c: [] for c in B.UNIVERSITY_CITIES}
    st.assignment_token_stacks = {
        c: list(reversed(C.ASSIGNMENT_TOKEN_STACK)) for c in C.COLOURS_MAIN
    }
    st.rooms = [[None] * room["capacity"] for room in C.MEETING_ROOMS]

    # Dice: 2 of each colour out with 2 players, 1 with 3.
    remove = C.DICE_REMOVED_PER_COLOUR[n]
    st.bag = [c for c in C.DIE_COLOURS for _ in range(C.DICE_PER_COLOUR - remove)]
    st.workshop = [
        [_draw_die(st) for _ in range(C.WORKSHOP_DICE_PER_SPACE)] for _ in range(C.WORKSHOP_SPACES)
    ]

    st.program_deck = [p["id"] for p in C.PROGRAMS]
    st.rng = rng.shuffle(st.rng, st.program_deck)
    st.program_display = [None] * C.PROGRAM_DISPLAY
    st.assignment_deck = [a["id"] for a in C.ASSIGNMENTS]
    st.rng = rng.shuffle(st.rng, st.assignment_deck)
    st.assignment_display = [None] * C.ASSIGNMENT_DISPLAY
    st.multiplier_deck = [m["id"] for m in C.MULTIPLIERS]
    st.rng = rng.shuffle(st.rng, st.multiplier_deck)
    st.multiplier_display = [None] * C.MULTIPLIER_DISPLAY
    for name in ("program", "assignment", "multiplier"):
        _slide_and_refill(st, name)

    # Partners: one tier-1 card each, tier-1 deck cut to 6, tier 2 under it.
    tier1 = [p["id"] for p in C.PARTNERS if p["tier"] == 1]
    tier2 = [p["id"] for p in C.PARTNERS if p["tier"] == 2]
    st.rng = rng.shuffle(st.rng, tier1)
    st.rng = rng.shuffle(st.rng, tier2)
    dealt = [tier1.pop() for _ in range(n)]
    if n < 4:
        tier1 = tier1[: C.TIER1_DECK_AFTER_DEAL]
    st.partner_deck = tier2 + tier1  # the top of a deck is the end of its list
    st.partner_display = [None] * C.PARTNER_DISPLAY
    _slide_and_refill(st, "partner")

    st.addition_supply = C.ADDITION_GEARS - n
    for i, p in enumerate(players):
        p.deck = [c["id"] for c in C.PARTNERS if c["tier"] == "S" and c["deck"] == p.colour]
        if not setup.draft_tier1:
            _join_deck(st, p, dealt[i])
        for res, amount in C.START_RESOURCES.items():
            setattr(p, res, amount + C.SEAT_BONUS[i].get(res, 0))
        p.city = C.START_CITY
        p.innovation = C.INNOVATION_START
        p.steam = C.STEAM_START
        p.gear_supply = list(C.START_GEARS)
    st.log.append(f"Game set up for {n} players; {players[0].name} is the first player.")
    if setup.draft_tier1:
        # Experienced players draft the dealt tier 1 cards in reverse turn order (rulebook, Setup).
        st.ctx = {"draft": dealt}
        steps: list[Step | str] = []
        for seat in reversed(range(n)):
            steps += [{"op": "set_seat", "seat": seat}, "draft"]
        push(st, *steps, {"op": "set_seat", "seat": 0})
    st.undo_floor = 0
    run(st)
    return st


def _join_deck(st: GameState, p: PlayerState, tier1_card: str) -> None:
    """Shuffle the tier 1 card into the starting deck and draw the opening hand of four."""
    p.deck.append(tier1_card)
    st.rng = rng.shuffle(st.rng, p.deck)
    _draw_cards(st, p, C.START_HAND)


def resolve_set_seat(st: GameState, step: Step, choice: None) -> None:
    st.current = step["seat"]


def choices_draft(st: GameState, step: Step) -> Choices:
    return [(f"draft:{c}", _partner_label(c)) for c in st.ctx["draft"]]


def resolve_draft(st: GameState, step: Step, choice: str) -> None:
    card = choice[6:]
    st.ctx["draft"].remove(card)
    _join_deck(st, st.me, card)
    _say(st, f"drafts {partner_name(card)}.")


def replay(setup: GameSetup, choices: list[str]) -> GameState:
    """Rebuild a game from its setup and the list of choices made (raises IllegalChoice)."""
    st = new_game(setup)
    for choice in choices:
        apply(st, choice)
    return st


# ======================================================================================
# The decision loop
# ======================================================================================


def push(st: GameState, *steps: Step | str) -> None:
    """Push steps so that the first one given is resolved first."""
    for step in reversed(steps):
        st.stack.append({"op": step} if isinstance(step, str) else dict(step))


def push_effect(st: GameState, effect: list[Step]) -> None:
    if effect:
        st.stack.append({"op": "run_effect", "steps": effect})


def _choices_of(st: GameState, step: Step) -> Choices | None:
    fn = CHOICES.get(step["op"])
    return AUTO if fn is None else fn(st, step)


def run(st: GameState) -> None:
    """Resolve steps until a player must decide something, or the game is over."""
    while not st.over:
        if not st.stack:
            push(st, "turn")
        step = st.stack[-1]
        options = _choices_of(st, step)
        if options is AUTO:
            st.stack.pop()
            RESOLVE[step["op"]](st, step, None)
        elif not options:
            st.stack.pop()
        elif len(options) == 1:
            st.stack.pop()
            RESOLVE[step["op"]](st, step, options[0][0])
        else:
            st.pending_choices = (len(st.history), step, options)
            return


def legal_choices(st: GameState) -> Choices:
    """The legal (id, label) pairs of the pending decision, in a stable order."""
    if st.over or not st.stack:
        return []
    step = st.stack[-1]
    options = _choices_of(st, step) or []
    st.pending_choices = (len(st.history), step, options)
    return options


def decision(st: GameState) -> Decision | None:
    if st.over or not st.stack:
        return None
    step = st.stack[-1]
    options = legal_choices(st)
    prompt = PROMPTS.get(step["op"], step["op"])
    if callable(prompt):
        prompt = prompt(st, step)
    return Decision(
        player=st.current,
        kind=step["op"],
        prompt=prompt,
        choices=[Choice(i, label) for i, label in options],
        optional=any(i in ("skip", "done") for i, _ in options),
        private=step["op"] in PRIVATE_DECISIONS,
    )


def apply(st: GameState, choice_id: str) -> None:
    """Apply a legal choice (mutating the state) and run on to the next decision."""
    cached = st.pending_choices
    st.pending_choices = None
    if cached and cached[0] == len(st.history) and st.stack and cached[1] is st.stack[-1]:
        options = cached[2]  # computed by run() or legal_choices() for this very decision
    else:
        options = []
    if not any(i == choice_id for i, _ in options):
        options = legal_choices(st)
    if not any(i == choice_id for i, _ in options):
        raise IllegalChoice(
            f"{choice_id!r} is not a legal choice now"
            + (f" (legal: {', '.join(i for i, _ in options[:8])}...)" if options else "")
        )
    step = st.stack.pop()
    st.history.append(choice_id)
    RESOLVE[step["op"]](st, step, choice_id)
    run(st)


def _reveal(st: GameState) -> None:
    """Hidden or random information came out: undo may not go back past this choice."""
    st.undo_floor = len(st.history)


def can_undo(st: GameState) -> bool:
    return not st.over and len(st.history) > st.undo_floor


# ======================================================================================
# Small helpers
# ======================================================================================


def _say(st: GameState, text: str) -> None:
    st.log.append(f"{st.me.name}: {text}")


def _draw_die(st: GameState) -> str:
    st.rng, i = rng.below(st.rng, len(st.bag))
    st.bag[i], st.bag[-1] = st.bag[-1], st.bag[i]
    colour = st.bag.pop()
    st.rng, pips = rng.below(st.rng, 6)
    return f"{colour}{pips + 1}"


def _draw_cards(st: GameState, p: PlayerState, n: int) -> int:
    drawn = 0
    for _ in range(n):
        if not p.deck:
            if not p.discard:
                break
            p.deck, p.discard = p.discard, []
            st.rng = rng.shuffle(st.rng, p.deck)
        p.hand.append(p.deck.pop())
        drawn += 1
    _reveal(st)
    return drawn


def _slide_and_refill(st: GameState, name: str, remove_rightmost: bool = False) -> None:
    """Remove the rightmost item (main actions only), slide the rest right, refill from the left."""
    display: list[str | None] = getattr(st, f"{name}_display")
    deck: list[str] = getattr(st, f"{name}_deck")
    if remove_rightmost and display[-1] is not None:
        display[-1] = None
    items = [x for x in display if x is not None]
    empty = len(display) - len(items)
    new: list[str | None] = [None] * empty + items
    for i in range(empty - 1, -1, -1):
        if deck:
            new[i] = deck.pop()
    display[:] = new
    if empty:
        _reveal(st)


def _can_pay(p: PlayerState, cost: dict[str, int]) -> bool:
    return all(getattr(p, k) >= v for k, v in cost.items())


def _pay(p: PlayerState, cost: dict[str, int]) -> None:
    for k, v in cost.items():
        setattr(p, k, getattr(p, k) - v)


def cost_text(cost: dict[str, int]) -> str:
    names = {"coal": " Coal", "brass": " Brass", "books": " Book(s)", "innovation": " Innovation"}
    return ", ".join(
        f"£{v}" if k == "money" else f"{v}{names.get(k, ' ' + k)}" for k, v in cost.items()
    )


def partner_name(card: str) -> str:
    return B.PARTNER[card]["name"]


def _open_gear_spaces(p: PlayerState) -> list[int]:
    built = sum(g is not None for g in p.gears)
    if 12 - built - p.discs <= 0:
        return []
    return [i for i, g in enumerate(p.gears) if g is None]


def _gain_innovation(st: GameState, p: PlayerState, n: int) -> None:
    before = p.innovation
    p.innovation = min(C.INNOVATION_MAX, p.innovation + n)
    if before < C.INNOVATION_MAX and p.innovation == C.INNOVATION_MAX:
        push(st, "innovation_top")


def research_level(p: PlayerState, area: str) -> int:
    """0, 1 or 2: the advanced action level reached on the area's Research track."""
    lvl = p.research[AREA_COLOUR[area]]
    first, second = C.RESEARCH_TRACK["advanced"]
    return 2 if lvl >= second else 1 if lvl >= first else 0


def _own_dice(p: PlayerState) -> list[tuple[str, str]]:
    """(location, die) for every die on the player board: 's<i>' Store, 'm<i>' Mill."""
    out = [(f"s{i}", d) for i, d in enumerate(p.store) if d]
    out += [(f"m{i}", d) for i, d in enumerate(p.mill) if d]
    return out


def _set_own_die(p: PlayerState, where: str, die: str) -> None:
    (p.store if where[0] == "s" else p.mill)[int(where[1:])] = die


def _where_name(where: str) -> str:
    i = int(where[1:])
    return f"Store slot {i + 1}" if where[0] == "s" else f"Mill row {i // 3 + 1} col {i % 3 + 1}"


# -- discs on the main board -----------------------------------------------------------


def loc_name(loc: str) -> str:
    kind, _, rest = loc.partition(":")
    if kind == "uni":
        return B.CITY[rest]["name"]
    if kind == "room":
        return f"Meeting room {int(rest) + 1}"
    if kind == "lec":
        i, level = rest.split(":")
        return f"{C.INSTITUTIONS[int(i)]['name']}, level {level}"
    return f"the {AREA_TITLE[AREAS[int(rest)]]} Objective"


def discs_at(st: GameState, loc: str) -> list[int]:
    kind, _, rest = loc.partition(":")
    if kind == "uni":
        return st.university_discs[rest]
    if kind == "room":
        return [s for space in st.rooms[int(rest)] if space for s in space]
    if kind == "lec":
        return st.lectures.get(rest, [])
    return [entry[0] for entry in st.objective_discs[int(rest)]]


def own_board_discs(st: GameState, seat: int) -> list[str]:
    """Locations (not Objectives) holding at least one of the seat's discs, in a stable order."""
    out = [f"uni:{c}" for c in B.UNIVERSITY_CITIES if seat in st.university_discs[c]]
    out += [f"room:{r}" for r in range(4) if seat in discs_at(st, f"room:{r}")]
    out += [f"lec:{key}" for key in sorted(st.lectures) if seat in st.lectures[key]]
    return out


def _put_disc(st: GameState, seat: int, loc: str, stack: bool = False) -> None:
    """Place a disc; stack=True puts it on top of the seat's own disc there (Ada's Study Publish)."""
    kind, _, rest = loc.partition(":")
    if kind == "uni":
        st.university_discs[rest].append(seat)
    elif kind == "room":
        room = st.rooms[int(rest)]
        own = [space for space in room if space == [seat]] if stack else []
        if own:
            own[0].append(seat)
        else:
            room[room.index(None)] = [seat]
    elif kind == "lec":
        st.lectures.setdefault(rest, []).append(seat)
    else:
        a = int(rest)
        if st.objective_first_round[a] is None:
            st.objective_first_round[a] = st.round
        slot = "high" if st.objective_first_round[a] == st.round else "low"
        st.objective_discs[a].append([seat, slot])


def _take_disc(st: GameState, seat: int, loc: str) -> None:
    kind, _, rest = loc.partition(":")
    if kind == "uni":
        stack = st.university_discs[rest]
        del stack[len(stack) - 1 - stack[::-1].index(seat)]
    elif kind == "room":
        room = st.rooms[int(rest)]
        for i, space in enumerate(room):
            if space and seat in space:
                space.remove(seat)
                if not space:
                    room[i] = None
                return
    elif kind == "lec":
        st.lectures[rest].remove(seat)
        if not st.lectures[rest]:
            del st.lectures[rest]


def lecture_cost(st: GameState, seat: int, level: int) -> int:
    """Level cost plus every lower level down to your highest Lecture disc (rulebook, Institution)."""
    mine = [int(k.split(":")[1]) for k, seats in st.lectures.items() if seat in seats]
    highest = max(mine, default=1)
    if highest >= level:
        return C.LECTURE_COSTS[level]
    return sum(C.LECTURE_COSTS[k] for k in range(max(highest + 1, 2), level + 1))


_LECTURE_SPACES = [
    (f"{i}:{lvl}", i, lvl) for i in range(len(C.INSTITUTIONS)) for lvl in range(2, 7)
]


def _empty_lectures(st: GameState) -> list[tuple[int, int]]:
    taken = st.lectures
    return [(i, lvl) for key, i, lvl in _LECTURE_SPACES if key not in taken]


def _open_rooms(st: GameState) -> list[int]:
    return [r for r in range(4) if None in st.rooms[r]]


def _free_universities(st: GameState, seat: int) -> list[str]:
    return [c for c in B.UNIVERSITY_CITIES if seat not in st.university_discs[c]]


def university_prestige(st: GameState, city: str) -> int:
    if city in st.universities:
        return B.UNIVERSITY_TILE[st.universities[city]]["prestige"]
    return B.CITY[city].get("prestige", 0)


def city_reward(st: GameState, city: str) -> tuple[list[Step], str]:
    if city in st.universities:
        tile = B.UNIVERSITY_TILE[st.universities[city]]
        return tile["effect"] if "effect" in tile else tile["reward"], tile["text"]
    info = B.CITY[city]
    return info.get("reward") or [], info.get("text", "")


# ======================================================================================
# Turn structure
# ======================================================================================


def _area_possible(st: GameState, area: str) -> bool:
    p = st.me
    if area == "study":
        return True  # a Book is always available (the supply is not limited)
    if area == "travel":
        costs = B.TRAVEL_COST[p.city]
        return any(c != p.city and costs[c] <= p.money for c in costs)
    if area == "meetings":
        return any(
            p.money >= C.MEETING_ROOMS[r]["money"]
            or p.innovation >= C.MEETING_ROOMS[r]["innovation"]
            for r in _open_rooms(st)
        )
    levels = {lvl for _, lvl in _empty_lectures(st)}
    return any(lecture_cost(st, st.current, lvl) <= p.innovation for lvl in levels)


def choices_turn(st: GameState, step: Step) -> Choices:
    p = st.me
    out: Choices = []
    if None in p.store:
        # A moving die can push if the lowest die where it lands is at most its value, or one
        # more when a Coal is left for the optional adjust.
        lowest = [min((d[1] for d in space), default="9") for space in st.workshop]
        for s, space in enumerate(st.workshop):
            for die in sorted(set(space)):
                for moves in (1, 2):
                    coal_left = p.coal - (moves - 1)
                    if coal_left < 0:
                        continue
                    reach = int(die[1]) + (coal_left >= 1)
                    if int(lowest[(s + moves) % 6]) <= reach:
                        extra = " two spaces (1 Coal)" if moves == 2 else ""
                        out.append(
                            (
                                f"ws:{s}:{die}:{moves}",
                                f"Workshop: move {die_name(die)} from space {s + 1}{extra}",
                            )
                        )
    mill_full = None not in p.mill
    possible = {area: _area_possible(st, area) for area in AREAS} if not mill_full else {}
    seen: set[str] = set()
    for i, die in enumerate(p.store):
        if die is None or die in seen or mill_full:
            continue
        seen.add(die)
        if die[0] == "K":
            for area in AREAS:
                if possible[area]:
                    out.append(
                        (f"act:{i}:{area}", f"Actions: grey {die[1]} for {AREA_TITLE[area]}")
                    )
        elif possible[COLOUR_AREA[die[0]]]:
            area = COLOUR_AREA[die[0]]
            out.append((f"act:{i}", f"Actions: {die_name(die)} for {AREA_TITLE[area]}"))
    if not out:
        # Designed rule for a corner the rulebook leaves open: with no turn possible, a die goes
        # to the Mill without its action, or (no die either) the turn passes.
        out = [
            (f"idle:{i}", f"No turn possible: put {die_name(d)} in your Mill without an action")
            for i, d in enumerate(p.store)
            if d and not mill_full
        ] or [("pass", "No turn possible: pass")]
    return out


def resolve_turn(st: GameState, step: Step, choice: str) -> None:
    p = st.me
    parts = choice.split(":")
    end = ("publish_or_build", "objectives", "hand_limit", "end_turn")
    if parts[0] == "ws":
        s, die, moves = int(parts[1]), parts[2], int(parts[3])
        dest = (s + moves) % 6
        p.coal -= moves - 1
        st.workshop[s].remove(die)
        st.workshop[dest].append(die)  # the moving die is always last in its new space
        st.ctx = {"type": "workshop", "area": "workshop", "from": s, "to": dest}
        _say(st, f"Workshop turn: moves {die_name(die)} from space {s + 1} to space {dest + 1}.")
        push(st, "ws_push", *end)
    elif parts[0] == "act":
        i = int(parts[1])
        die = p.store[i]
        assert die is not None
        area = parts[2] if len(parts) > 2 else COLOUR_AREA[die[0]]
        p.store[i] = None
        st.ctx = {"type": "actions", "area": area, "die": die}
        _say(st, f"Actions turn: uses {die_name(die)} for {AREA_TITLE[area]}.")
        main = {
            "study": ["study_program", {"op": "study_reward", "optional": False}],
            "travel": ["travel_move"],
            "meetings": ["meet_room"],
            "institutions": ["lecture"],
        }[area]
        after = ["study_cleanup"] if area == "study" else []
        push(st, "mill_place", *main, "turn_advanced", *after, *end)
    elif parts[0] == "idle":
        i = int(parts[1])
        st.ctx = {"type": "idle", "area": None, "die": p.store[i]}
        p.store[i] = None
        _say(st, "can take no turn and puts a die in the Mill without an action.")
        push(st, "mill_place", *end)
    else:
        st.ctx = {"type": "pass", "area": None}
        _say(st, "can take no turn and passes.")
        push(st, *end)


# -- Workshop turn ------------------------------------------------------------------------


def choices_ws_push(st: GameState, step: Step) -> Choices:
    p = st.me
    dest = st.workshop[st.ctx["to"]]
    moving = int(dest[-1][1])
    coal = p.coal >= 1
    out: Choices = []
    seen: set[str] = set()
    for idx, die in enumerate(dest[:-1]):
        if die in seen:
            continue
        seen.add(die)
        v, name = int(die[1]), die_name(die)
        if v <= moving:
            out.append((f"push:{idx}", f"Push out {name}"))
        if coal and 2 <= v <= moving + 1:
            out.append((f"push:{idx}:-", f"Spend 1 Coal: lower {name} to {v - 1} and push it out"))
        if coal and v <= moving and v <= 5:
            out.append(
                (f"push:{idx}:+", f"Push out {name} and spend 1 Coal to raise it to {v + 1}")
            )
        if coal and v == moving + 1 and moving < 6:
            out.append(
                (f"push:{idx}:M", f"Spend 1 Coal: raise the moving die to {v}, push out {name}")
            )
    return out


def resolve_ws_push(st: GameState, step: Step, choice: str) -> None:
    p = st.me
    to = st.ctx["to"]
    dest = st.workshop[to]
    parts = choice.split(":")
    die = dest.pop(int(parts[1]))
    if len(parts) > 2:
        p.coal -= 1
        st.ctx["adjusted"] = True
        if parts[2] == "M":
            dest[-1] = f"{dest[-1][0]}{int(dest[-1][1]) + 1}"
        else:
            die = f"{die[0]}{int(die[1]) + (1 if parts[2] == '+' else -1)}"
    st.ctx["active"] = die
    bonus = st.workshop_bonus[to]
    _say(st, f"pushes out {die_name(die)} onto the {C.WORKSHOP_BONUSES[bonus]['text']} bonus.")
    push(
        st,
        "ws_bonus",
        "ws_refill",
        "ws_adjust",
        "ws_collect",
        "partner_play",
        "assignment_research",
    )


def resolve_ws_bonus(st: GameState, step: Step, choice: None) -> None:
    push_effect(st, C.WORKSHOP_BONUSES[st.workshop_bonus[st.ctx["to"]]]["effect"])


def resolve_ws_refill(st: GameState, step: Step, choice: None) -> None:
    for s, space in enumerate(st.workshop):
        if not space and st.bag:
            space.extend(_draw_die(st) for _ in range(min(3, len(st.bag))))
            _reveal(st)
            _say(st, f"refills Workshop space {s + 1} and gains its bonus.")
            push_effect(st, C.WORKSHOP_BONUSES[st.workshop_bonus[s]]["effect"])


def choices_ws_adjust(st: GameState, step: Step) -> Choices:
    """The optional Coal adjust, if not used to push: any die still in the Workshop."""
    if st.ctx.get("adjusted") or st.me.coal < 1:
        return []
    out: Choices = [("skip", "Don't adjust a Workshop die")]
    for s, space in enumerate(st.workshop):
        for idx, die in enumerate(space):
            if die in space[:idx]:
                continue
            v = int(die[1])
            for delta, sign in ((-1, "-"), (1, "+")):
                if 1 <= v + delta <= 6:
                    label = f"Spend 1 Coal: {die_name(die)} in space {s + 1} to {v + delta}"
                    out.append((f"adj:{s}:{idx}:{sign}", label))
    return out


def resolve_ws_adjust(st: GameState, step: Step, choice: str) -> None:
    if choice == "skip":
        return
    _, s, idx, sign = choice.split(":")
    space = st.workshop[int(s)]
    die = space[int(idx)]
    space[int(idx)] = f"{die[0]}{int(die[1]) + (1 if sign == '+' else -1)}"
    st.me.coal -= 1
    st.ctx["adjusted"] = True
    _say(st, f"spends 1 Coal to turn {die_name(die)} into a {space[int(idx)][1]}.")


def resolve_ws_collect(st: GameState, step: Step, choice: None) -> None:
    p = st.me
    slot = p.store.index(None)
    p.store[slot] = st.ctx["active"]
    st.ctx["slot"] = slot


def _need_text(card: dict[str, Any]) -> str:
    need = card["need"]
    if need["kind"] == "value":
        return "needs a " + " or ".join(str(v) for v in need["values"])
    return "active die -1" if need["kind"] == "minus1" else "£ = active die"


def choices_partner_play(st: GameState, step: Step) -> Choices:
    p = st.me
    die = p.store[st.ctx["slot"]]
    assert die is not None
    v = int(die[1])
    out: Choices = [("skip", "Play no Partner card")]
    for card in p.hand:
        info = B.PARTNER[card]
        need = info["need"]
        ok = (
            (need["kind"] == "value" and v in need["values"])
            or (need["kind"] == "minus1" and v >= 2)
            or (need["kind"] == "money" and p.money >= v)
        )
        if ok:
            out.append(
                (f"play:{card}", f"Play {info['name']} ({_need_text(info)}): {info['text']}")
            )
    return out


def resolve_partner_play(st: GameState, step: Step, choice: str) -> None:
    if choice == "skip":
        return
    p = st.me
    card = choice.split(":", 1)[1]
    info = B.PARTNER[card]
    slot = st.ctx["slot"]
    die = p.store[slot]
    assert die is not None
    if info["need"]["kind"] == "minus1":
        p.store[slot] = f"{die[0]}{int(die[1]) - 1}"
    elif info["need"]["kind"] == "money":
        p.money -= int(die[1])
    p.hand.remove(card)
    p.discard.append(card)
    _say(st, f"plays {info['name']}: {info['text']}")
    push_effect(st, info["effect"])


def resolve_assignment_research(st: GameState, step: Step, choice: None) -> None:
    colour = st.ctx["active"][0]
    if colour in AREA_COLOUR.values():
        for _ in range(len(st.me.assignments[colour])):
            push(st, {"op": "research_step", "track": colour})


# -- Actions turn ------------------------------------------------------------------------


def choices_mill_place(st: GameState, step: Step) -> Choices:
    return [
        (f"mill:{k}", f"Mill row {k // 3 + 1}, column {k % 3 + 1}")
        for k, d in enumerate(st.me.mill)
        if d is None
    ]


def resolve_mill_place(st: GameState, step: Step, choice: str) -> None:
    p = st.me
    k = int(choice.split(":")[1])
    p.mill[k] = st.ctx["die"]
    placed = sum(d is not None for d in p.mill)
    if placed == 9 and not st.end_triggered:
        st.end_triggered = True
        _say(st, "places a 9th die in the Mill: the end of the game is triggered.")


def resolve_turn_advanced(st: GameState, step: Step, choice: None) -> None:
    area = st.ctx["area"]
    level = research_level(st.me, area)
    if level:
        _say(st, f"takes the level {'I' * level} advanced action.")
        push(st, *_advanced_steps(st, area, level))


def _advanced_steps(st: GameState, area: str, level: int, ref: str | None = None) -> list[Step]:
    """The advanced action of an area. ref: the Lecture space the Institutions one is lower than."""
    if area == "study":
        return [{"op": "study_reward", "optional": True}] * level
    if area == "travel":
        return [{"op": "move_small", "max": level}]
    if area == "meetings":
        return ([{"op": "draw", "n": 2}] if level == 2 else []) + [{"op": "play_free"}]
    if area == "institutions":
        key = ref or _ref_lecture(st)
        if key is None:
            return [{"op": "lower_space", "inst": None, "below": 2}]
        i, lvl = (int(x) for x in key.split(":"))
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
        (f"prog:{i}", f"{B.PROGRAM[t]['text']} ({B.PROGRAM[t]['prestige']} Prestige)")
        for i, t in enumerate(st.program_display)
        if t is not None
    ]


def resolve_study_program(st: GameState, step: Step, choice: str) -> None:
    i = int(choice.split(":")[1])
    tile = st.program_display[i]
    st.program_display[i] = None
    _slide_and_refill(st, "program", remove_rightmost=step.get("op") == "study_program")
    push(st, {"op": "program_place", "program": tile})


def choices_program_place(st: GameState, step: Step) -> Choices:
    return [
        (f"line:{k}", f"{LINE_NAMES[k]} (bonus: {C.PROGRAM_SPACES[k]['text']})")
        for k, t in enumerate(st.me.programs)
        if t is None
    ]


def resolve_program_place(st: GameState, step: Step, choice: str) -> None:
    k = int(choice.split(":")[1])
    st.me.programs[k] = step["program"]
    _say(st, f"places Program '{B.PROGRAM[step['program']]['text']}' on the {LINE_NAMES[k]}.")
    push_effect(st, C.PROGRAM_SPACES[k]["effect"])


def _affordable_assignments(st: GameState) -> list[int]:
    hand = len(st.me.hand)
    return [
        i
        for i, a in enumerate(st.assignment_display)
        if a is not None and B.ASSIGNMENT[a]["discard"] <= hand
    ]


def _study_item_choices(st: GameState, exclude: list[str]) -> Choices:
    out: Choices = []
    if "book" not in exclude:
        out.append(("book", "Gain 1 Book"))
    if "gear" not in exclude and st.addition_supply > 0:
        out.append(("gear", "Gain 1 Addition Gear"))
    if "assignment" not in exclude and _affordable_assignments(st):
        out.append(("assignment", "Gain 1 Assignment card"))
    return out


def _gain_study_item(st: GameState, item: str) -> None:
    p = st.me
    if item == "book":
        p.books += 1
        _say(st, "gains a Book.")
    elif item == "gear":
        st.addition_supply -= 1
        p.gear_supply.append("add")
        _say(st, "gains an Addition Gear.")
    else:
        push(st, {"op": "take_assignment", "main": st.ctx.get("area") == "study"})


def choices_study_reward(st: GameState, step: Step) -> Choices:
    out = _study_item_choices(st, st.ctx.get("study_taken", []))
    return out + [SKIP] if step.get("optional") and out else out


def resolve_study_reward(st: GameState, step: Step, choice: str) -> None:
    if choice != "skip":
        st.ctx.setdefault("study_taken", []).append(choice)
        _gain_study_item(st, choice)


def resolve_study_cleanup(st: GameState, step: Step, choice: None) -> None:
    _slide_and_refill(st, "assignment", remove_rightmost=True)


def choices_take_assignment(st: GameState, step: Step) -> Choices:
    out: Choices = []
    for i in _affordable_assignments(st):
        a = B.ASSIGNMENT[st.assignment_display[i]]  # type: ignore[index]
        cost = f" (discard {a['discard']})" if a["discard"] else ""
        out.append((f"as:{i}", f"{a['name']}{cost}: {a['text']}"))
    return out


def resolve_take_assignment(st: GameState, step: Step, choice: str) -> None:
    i = int(choice.split(":")[1])
    card = st.assignment_display[i]
    assert card is not None
    st.assignment_display[i] = None
    info = B.ASSIGNMENT[card]
    _say(st, f"takes the Assignment {info['name']}.")
    follow: list[Step] = []
    if info["discard"]:
        follow.append({"op": "discard", "n": info["discard"]})
    follow.append({"op": "run_effect", "steps": info["effect"]})
    follow.append({"op": "assign_column", "card": card})
    if not step.get("main"):
        follow.append({"op": "refill", "display": "assignment"})
    push(st, *follow)


def choices_assign_column(st: GameState, step: Step) -> Choices:
    colours = B.ASSIGNMENT[step["card"]]["colours"] or C.COLOURS_MAIN
    return [(f"col:{c}", f"Put it in the {TRACK_NAMES[c]} column") for c in colours]


def resolve_assign_column(st: GameState, step: Step, choice: str) -> None:
    st.me.assignments[choice.split(":")[1]].append(step["card"])


def resolve_refill(st: GameState, step: Step, choice: None) -> None:
    _slide_and_refill(st, step["display"])


# Travel


def choices_travel_move(st: GameState, step: Step) -> Choices:
    p = st.me
    out: Choices = []
    for city, cost in sorted(B.TRAVEL_COST[p.city].items()):
        if city == p.city or cost > p.money:
            continue
        name = B.CITY[city]["name"]
        if B.CITY[city]["kind"] == "university" and st.current in st.university_discs[city]:
            out.append((f"go:{city}", f"{name} (£{cost}; your disc is already there: no reward)"))
        else:
            out.append((f"go:{city}", f"{name} (£{cost}): {city_reward(st, city)[1]}"))
    return out


def resolve_travel_move(st: GameState, step: Step, choice: str) -> None:
    p = st.me
    city = choice.split(":")[1]
    cost = B.TRAVEL_COST[p.city][city]
    p.money -= cost
    p.city = city
    _say(st, f"travels to {B.CITY[city]['name']} for £{cost}.")
    push(st, {"op": "activate", "city": city})


def resolve_activate(st: GameState, step: Step, choice: None) -> None:
    city = step["city"]
    effect = city_reward(st, city)[0]
    if B.CITY[city]["kind"] == "small":
        push_effect(st, effect)
    elif st.current not in st.university_discs[city]:
        push(st, {"op": "place_disc", "to": f"uni:{city}"}, {"op": "run_effect", "steps": effect})


def choices_move_small(st: GameState, step: Step) -> Choices:
    cities = B.small_cities_within(st.me.city, step["max"])
    return [SKIP] + [
        (f"go:{c}", f"Move free to {B.CITY[c]['name']}: {B.CITY[c].get('text', '')}")
        for c in cities
    ]


def resolve_move_small(st: GameState, step: Step, choice: str) -> None:
    if choice == "skip":
        return
    city = choice.split(":")[1]
    st.me.city = city
    _say(st, f"moves free to {B.CITY[city]['name']}.")
    push_effect(st, city_reward(st, city)[0])


def choices_move_university(st: GameState, step: Step) -> Choices:
    steps = B.ROUTE_STEPS[st.me.city]
    free = [c for c in _free_universities(st, st.current) if c != st.me.city]
    if not free:
        return []
    nearest = min(steps[c] for c in free)
    return [(f"go:{c}", f"Move to {B.CITY[c]['name']}") for c in free if steps[c] == nearest]


def resolve_move_university(st: GameState, step: Step, choice: str) -> None:
    city = choice.split(":")[1]
    st.me.city = city
    _say(st, f"moves to {B.CITY[city]['name']}.")
    push(st, {"op": "place_disc", "to": f"uni:{city}"})


# Meetings


def choices_meet_room(st: GameState, step: Step) -> Choices:
    p = st.me
    out: Choices = []
    for r in _open_rooms(st):
        room = C.MEETING_ROOMS[r]
        if p.money >= room["money"]:
            out.append((f"room:{r}:money", f"Meeting room {r + 1}, pay £{room['money']}"))
        if p.innovation >= room["innovation"]:
            out.append(
                (
                    f"room:{r}:innovation",
                    f"Meeting room {r + 1}, pay {room['innovation']} Innovation",
                )
            )
    return out


def resolve_meet_room(st: GameState, step: Step, choice: str) -> None:
    _, r, how = choice.split(":")
    room = C.MEETING_ROOMS[int(r)]
    setattr(st.me, how, getattr(st.me, how) - room[how])
    _say(st, f"attends Meeting room {int(r) + 1}.")
    push(st, {"op": "place_disc", "to": f"room:{r}"}, {"op": "meet_card", "room": int(r)})


def _partner_label(card: str) -> str:
    info = B.PARTNER[card]
    science = (info["science"] or "sponsor").capitalize()
    return f"{info['name']} ({science}, {info['prestige']} PP, {_need_text(info)}): {info['text']}"


def choices_meet_card(st: GameState, step: Step) -> Choices:
    return [
        (f"card:{s}", f"{_partner_label(c)} [draw {C.MEETING_ROOMS[s]['draw']}]")
        for s, c in enumerate(st.partner_display)
        if c is not None and s >= step["room"]
    ]


def resolve_meet_card(st: GameState, step: Step, choice: str) -> None:
    slot = int(choice.split(":")[1])
    card = st.partner_display[slot]
    assert card is not None
    st.partner_display[slot] = None
    st.me.hand.append(card)
    _say(st, f"recruits {partner_name(card)}.")
    # Isobel's example: draw first, then remove a card to keep eight.
    push(
        st,
        {"op": "draw", "n": C.MEETING_ROOMS[slot]["draw"]},
        "keep_eight",
        {"op": "meet_cleanup"},
    )


def resolve_meet_cleanup(st: GameState, step: Step, choice: None) -> None:
    _slide_and_refill(st, "partner", remove_rightmost=True)


def choices_keep_eight(st: GameState, step: Step) -> Choices:
    p = st.me
    if len(p.supply()) <= C.SUPPLY_SIZE:
        return []
    seen: list[str] = []
    for card in p.hand + p.discard:
        if card not in seen:
            seen.append(card)
    return [(f"rm:{c}", f"Remove {partner_name(c)} from the game") for c in seen]


def resolve_keep_eight(st: GameState, step: Step, choice: str) -> None:
    p = st.me
    card = choice.split(":", 1)[1]
    (p.hand if card in p.hand else p.discard).remove(card)
    _say(st, f"removes {partner_name(card)} from the game.")
    push(st, "keep_eight")


# Institutions


def choices_lecture(st: GameState, step: Step) -> Choices:
    out: Choices = []
    for i, lvl in _empty_lectures(st):
        cost = lecture_cost(st, st.current, lvl)
        if cost <= st.me.innovation:
            inst = C.INSTITUTIONS[i]
            text = inst["spaces"][lvl]["text"]
            out.append(
                (f"lec:{i}:{lvl}", f"{inst['name']} level {lvl} ({cost} Innovation): {text}")
            )
    return out


def resolve_lecture(st: GameState, step: Step, choice: str) -> None:
    _, i, lvl = choice.split(":")
    cost = lecture_cost(st, st.current, int(lvl))
    st.me.innovation -= cost
    st.ctx["lecture"] = f"{i}:{lvl}"
    _say(st, f"lectures at {loc_name('lec:' + i + ':' + lvl)} for {cost} Innovation.")
    effect = C.INSTITUTIONS[int(i)]["spaces"][int(lvl)]["effect"]
    push(st, {"op": "place_disc", "to": f"lec:{i}:{lvl}"}, {"op": "run_effect", "steps": effect})


def choices_lower_space(st: GameState, step: Step) -> Choices:
    out: Choices = [SKIP, ("low:as", f"Analytical Society: {C.ANALYTICAL_SOCIETY['text']}")]
    for i, lvl in _empty_lectures(st):
        if lvl < step["below"] and step["inst"] in (None, i):
            inst = C.INSTITUTIONS[i]
            out.append(
                (f"low:{i}:{lvl}", f"{inst['name']} level {lvl}: {inst['spaces'][lvl]['text']}")
            )
    return out


def resolve_lower_space(st: GameState, step: Step, choice: str) -> None:
    if choice == "skip":
        return
    if choice == "low:as":
        push_effect(st, C.ANALYTICAL_SOCIETY["effect"])
        return
    _, i, lvl = choice.split(":")
    _say(st, f"gains the reward of {loc_name('lec:' + i + ':' + lvl)}.")
    push_effect(st, C.INSTITUTIONS[int(i)]["spaces"][int(lvl)]["effect"])


# -- Disc placement ----------------------------------------------------------------------


def _movable_discs(st: GameState, step: Step) -> list[str]:
    seat = st.current
    out = [loc for loc in own_board_discs(st, seat) if loc != step["to"]]
    if step["to"].startswith("obj:"):
        cond = B.OBJECTIVE[st.objectives[int(step["to"][4:])]]["condition"]
        keep = []
        for loc in out:  # a disc that meets the Objective's requirement may not move
            trial = st.copy()
            _take_disc(trial, seat, loc)
            if objective_met(trial, seat, cond):
                keep.append(loc)
        out = keep
    return out


def choices_place_disc(st: GameState, step: Step) -> Choices | None:
    if st.me.discs > 0:
        return AUTO
    out: Choices = [
        (f"mv:{loc}", f"Move your disc from {loc_name(loc)}") for loc in _movable_discs(st, step)
    ]
    if out and not step["to"].startswith("obj:"):
        out.insert(0, ("skip", "Place no disc"))
    return out


def resolve_place_disc(st: GameState, step: Step, choice: str | None) -> None:
    p = st.me
    if choice == "skip":
        return
    if choice is None:
        p.discs -= 1
    else:
        _take_disc(st, st.current, choice[3:])
    _put_disc(st, st.current, step["to"], stack=bool(step.get("stack")))
    _say(st, f"places a disc on {loc_name(step['to'])}.")


# -- Publish or Build ----------------------------------------------------------------------


def _publish_possible(st: GameState, area: str | None) -> bool:
    p = st.me
    if area is None or p.books < 1:
        return False
    if area == "workshop":
        return p.steam + 1 < len(C.STEAM_TRACK) and p.coal >= C.STEAM_TRACK[p.steam + 1]["coal"]
    if area == "study":
        return p.discs > 0
    if area == "travel":
        return bool(_own_dice(p))
    if area == "meetings":
        return any(m is not None for m in st.multiplier_display)
    return bool(_own_dice(p)) and any(st.workshop)


PUBLISH_TEXT = {
    "workshop": "advance Steam one space (paying its Coal)",
    "study": "stack a disc on one of your discs and take that area's level I advanced action",
    "travel": "change your dice by up to 4 pips",
    "meetings": "take a Multiplier Gear from the display",
    "institutions": "swap a die on your board with a Workshop die",
}


def _build_options(st: GameState) -> Choices:
    p = st.me
    if not _open_gear_spaces(p):
        return []
    out: Choices = []
    for gear in sorted(set(p.gear_supply)):
        cost = B.gear_cost(gear)
        if _can_pay(p, cost):
            out.append((f"build:{gear}", f"Build {B.gear_name(gear)} ({cost_text(cost)})"))
    return out


def choices_publish_or_build(st: GameState, step: Step) -> Choices:
    area = st.ctx.get("area")
    out: Choices = []
    if _publish_possible(st, area):
        out.append(("publish", f"Publish (1 Book): {PUBLISH_TEXT[area]}"))
    out += _build_options(st)
    return out + [("skip", "Neither Publish nor Build")] if out else []


def resolve_publish_or_build(st: GameState, step: Step, choice: str) -> None:
    if choice == "skip":
        return
    if choice.startswith("build:"):
        push(st, {"op": "gear_place", "gear": choice[6:]})
        return
    p = st.me
    p.books -= 1
    area = st.ctx["area"]
    _say(st, f"publishes in {AREA_TITLE[area]}.")
    push(
        st,
        {
            "workshop": {"op": "steam", "free": False, "forced": True},
            "study": {"op": "stack_disc", "publish": True},
            "travel": {"op": "pips", "left": 4},
            "meetings": {"op": "take_multiplier"},
            "institutions": {"op": "swap_die"},
        }[area],
    )


def choices_gear_place(st: GameState, step: Step) -> Choices:
    if step["gear"] not in st.me.gear_supply:
        return []
    return [(f"at:{pos}", f"Gear space {gear_space_name(pos)}") for pos in _open_gear_spaces(st.me)]


def resolve_gear_place(st: GameState, step: Step, choice: str) -> None:
    p = st.me
    gear = step["gear"]
    if not step.get("free"):
        _pay(p, B.gear_cost(gear))
    p.gear_supply.remove(gear)
    pos = int(choice.split(":")[1])
    p.gears[pos] = gear
    _say(st, f"builds {B.gear_name(gear)} at {gear_space_name(pos)}.")


def choices_steam(st: GameState, step: Step) -> Choices | None:
    p = st.me
    if p.steam + 1 >= len(C.STEAM_TRACK):
        return []
    coal = C.STEAM_TRACK[p.steam + 1]["coal"]
    if step.get("free") or step.get("forced"):
        return AUTO if step.get("free") or p.coal >= coal else []
    if p.coal < coal:
        return []
    return [("steam", f"Advance Steam (pay {coal} Coal)"), SKIP]


def resolve_steam(st: GameState, step: Step, choice: str | None) -> None:
    p = st.me
    if choice == "skip" or p.steam + 1 >= len(C.STEAM_TRACK):
        return
    if not step.get("free"):
        p.coal -= C.STEAM_TRACK[p.steam + 1]["coal"]
    p.steam += 1
    _say(
        st, f"advances Steam to level {p.steam} (lines capped at {C.STEAM_TRACK[p.steam]['cap']})."
    )


def _stack_targets(st: GameState) -> list[str]:
    seat = st.current
    return [loc for loc in own_board_discs(st, seat) if discs_at(st, loc).count(seat) < 2]


def choices_stack_disc(st: GameState, step: Step) -> Choices | None:
    if st.me.discs < 1:
        return []
    targets = _stack_targets(st)
    if not targets:
        return AUTO if step.get("publish") else []
    return [(f"stack:{loc}", f"Stack a disc on {loc_name(loc)}") for loc in targets]


def resolve_stack_disc(st: GameState, step: Step, choice: str | None) -> None:
    p = st.me
    if choice is None:  # Ada's Study Publish with no disc on the board: the disc leaves the game
        p.discs -= 1
        p.discs_boxed += 1
        _say(st, "has no disc on the main board and removes a disc from the game.")
        return
    loc = choice[6:]
    follow: list[Step] = [{"op": "place_disc", "to": loc, "stack": True}]
    if step.get("publish"):
        kind = loc.split(":")[0]
        area = {"uni": "travel", "room": "meetings", "lec": "institutions"}[kind]
        follow += _advanced_steps(st, area, 1, ref=loc[4:] if kind == "lec" else None)
    push(st, *follow)


def choices_pips(st: GameState, step: Step) -> Choices:
    out: Choices = [("done", "Done changing dice")]
    for where, die in _own_dice(st.me):
        v = int(die[1])
        if v > 1:
            out.append(
                (f"pip:{where}:-", f"{die_name(die)} ({_where_name(where)}) down to {v - 1}")
            )
        if v < 6:
            out.append((f"pip:{where}:+", f"{die_name(die)} ({_where_name(where)}) up to {v + 1}"))
    return out


def resolve_pips(st: GameState, step: Step, choice: str) -> None:
    if choice == "done":
        return
    _, where, sign = choice.split(":")
    p = st.me
    die = (p.store if where[0] == "s" else p.mill)[int(where[1:])]
    assert die is not None
    _set_own_die(p, where, f"{die[0]}{int(die[1]) + (1 if sign == '+' else -1)}")
    if step["left"] > 1:
        push(st, {"op": "pips", "left": step["left"] - 1})


def choices_swap_die(st: GameState, step: Step) -> Choices:
    if not any(st.workshop):
        return []
    return [
        (f"own:{w}", f"Swap your {die_name(d)} ({_where_name(w)})") for w, d in _own_dice(st.me)
    ]


def resolve_swap_die(st: GameState, step: Step, choice: str) -> None:
    push(st, {"op": "swap_with", "own": choice[4:]})


def choices_swap_with(st: GameState, step: Step) -> Choices:
    out: Choices = []
    for s, space in enumerate(st.workshop):
        for idx, die in enumerate(space):
            if die not in space[:idx]:
                out.append((f"ws:{s}:{idx}", f"with {die_name(die)} in Workshop space {s + 1}"))
    return out


def resolve_swap_with(st: GameState, step: Step, choice: str) -> None:
    p = st.me
    _, s, idx = choice.split(":")
    where = step["own"]
    mine = (p.store if where[0] == "s" else p.mill)[int(where[1:])]
    assert mine is not None
    theirs = st.workshop[int(s)][int(idx)]
    st.workshop[int(s)][int(idx)] = mine
    _set_own_die(p, where, theirs)
    _say(st, f"swaps their {die_name(mine)} with {die_name(theirs)} from the Workshop.")


# -- End of turn ---------------------------------------------------------------------------


def choices_hand_limit(st: GameState, step: Step) -> Choices:
    p = st.me
    if len(p.hand) <= C.HAND_LIMIT:
        return []
    seen: list[str] = []
    for c in p.hand:
        if c not in seen:
            seen.append(c)
    return [(f"dc:{c}", f"Discard {partner_name(c)} (hand limit {C.HAND_LIMIT})") for c in seen]


def resolve_hand_limit(st: GameState, step: Step, choice: str) -> None:
    card = choice[3:]
    st.me.hand.remove(card)
    st.me.discard.append(card)
    push(st, "hand_limit")


def resolve_objectives(st: GameState, step: Step, choice: None) -> None:
    seat = st.current
    for a, obj in enumerate(st.objectives):
        if any(entry[0] == seat for entry in st.objective_discs[a]):
            continue
        if objective_met(st, seat, B.OBJECTIVE[obj]["condition"]):
            push(st, {"op": "place_disc", "to": f"obj:{a}"})


def resolve_end_turn(st: GameState, step: Step, choice: None) -> None:
    p = st.me
    p.turns += 1
    st.ctx = {}
    nxt = (st.current + 1) % len(st.players)
    if nxt == 0:
        if st.end_triggered or st.round >= st.setup.max_rounds:
            st.over = True
            st.log.append("The game is over.")
            st.undo_floor = len(st.history)
            return
        st.round += 1
    st.current = nxt
    st.undo_floor = len(st.history)


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
        st, f"spends {C.INNOVATION_TOP_SPEND} Innovation at the top of the track for {C.WORKSHOP_BONUSES[bonus]['text']}."
    )
    push_effect(st, C.WORKSHOP_BONUSES[bonus]["effect"])


def resolve_draw(st: GameState, step: Step, choice: None) -> None:
    if step["n"] > 0:
        _draw_cards(st, st.me, step["n"])


def choices_discard(st: GameState, step: Step) -> Choices:
    seen: list[str] = []
    for c in st.me.hand:
        if c not in seen:
            seen.append(c)
    return [(f"dc:{c}", f"Discard {partner_name(c)}") for c in seen]


def resolve_discard(st: GameState, step: Step, choice: str) -> None:
    card = choice[3:]
    st.me.hand.remove(card)
    st.me.discard.append(card)
    if step["n"] > 1:
        push(st, {"op": "discard", "n": step["n"] - 1})


def choices_research(st: GameState, step: Step) -> Choices | None:
    if step.get("track", "any") != "any":
        return AUTO
    picked = step.get("picked", []) if step.get("different") else []
    return [
        (f"rs:{t}", f"+1 Research on {TRACK_NAMES[t]} (now {st.me.research[t]})")
        for t in C.COLOURS_MAIN
        if st.me.research[t] < RESEARCH_TOP and t not in picked
    ]


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
    st.me.hand.remove(card)
    st.me.discard.append(card)
    _say(st, f"plays {partner_name(card)} without its cost: {B.PARTNER[card]['text']}")
    push_effect(st, B.PARTNER[card]["effect"])


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
    return [
        (f"sci:{s}", f"Take a 1-point {s.capitalize()} Science Scoring token")
        for s in sciences
        if s not in st.me.science_tokens
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


# ======================================================================================
# Objectives
# ======================================================================================


def objective_met(st: GameState, seat: int, cond: dict[str, Any]) -> bool:
    p = st.players[seat]
    kind = cond["kind"]
    n = cond.get("n", 0)
    if kind == "universities_visited":
        return all(seat in st.university_discs[c] for c in cond["cities"])
    if kind == "university_count":
        region = cond.get("region")
        return (
            sum(
                1
                for c in B.UNIVERSITY_CITIES
                if seat in st.university_discs[c] and region in (None, B.CITY[c]["region"])
            )
            >= n
        )
    if kind == "assignments_in_column":
        return len(p.assignments[cond["colour"]]) >= n
    if kind == "assignment_count":
        return sum(len(v) for v in p.assignments.values()) >= n
    if kind == "mill_main_colours":
        return set(C.COLOURS_MAIN) <= {d[0] for d in p.mill if d}
    if kind == "multipliers_built":
        return sum(1 for g in p.gears if g and g not in ("add", "sub")) >= n
    if kind == "gears_built":
        return sum(1 for g in p.gears if g) >= n
    if kind == "lecture_majorities":
        return sum(1 for i in range(len(C.INSTITUTIONS)) if _lecture_leader(st, i) == seat) >= n
    if kind == "lecture_levels":
        return len({k.split(":")[1] for k, s in st.lectures.items() if seat in s}) >= n
    if kind == "sponsors_in_supply":
        return sum(1 for c in p.supply() if B.PARTNER[c]["science"] is None) >= n
    if kind == "science_cards":
        return sum(1 for c in p.supply() if B.PARTNER[c]["science"] == cond["science"]) >= n
    if kind == "programs_placed":
        return sum(1 for t in p.programs if t) >= n
    if kind == "meeting_rooms":
        return sum(1 for r in range(4) if seat in discs_at(st, f"room:{r}")) >= n
    if kind == "meeting_discs":
        return sum(discs_at(st, f"room:{r}").count(seat) for r in range(4)) >= n
    if kind == "research_level":
        return sum(1 for v in p.research.values() if v >= n) >= cond.get("tracks", 1)
    if kind == "steam_level":
        return p.steam >= n
    if kind == "complete_lines":
        return sum(1 for line in range(6) if line_value(p.mill, p.gears, line) is not None) >= n
    raise ValueError(f"unknown Objective condition {kind!r}")


def _lecture_leader(st: GameState, inst: int) -> int | None:
    """The seat with strictly the most Lectures in an Institution, if any."""
    counts: dict[int, int] = {}
    for key, seats in st.lectures.items():
        if key.startswith(f"{inst}:"):
            for s in seats:
                counts[s] = counts.get(s, 0) + 1
    if not counts:
        return None
    best = max(counts.values())
    leaders = [s for s, c in counts.items() if c == best]
    return leaders[0] if len(leaders) == 1 else None


# ======================================================================================
# Registry
# ======================================================================================

CHOICES: dict[str, Any] = {
    name[len("choices_") :]: fn
    for name, fn in list(globals().items())
    if name.startswith("choices_")
}
RESOLVE: dict[str, Any] = {
    name[len("resolve_") :]: fn
    for name, fn in list(globals().items())
    if name.startswith("resolve_")
}

# Decisions whose choices name cards in the player's hand (hidden information).
PRIVATE_DECISIONS = frozenset({"partner_play", "play_free", "keep_eight", "hand_limit", "discard"})

PROMPTS: dict[str, Any] = {
    "turn": "Your turn: take a die from the Workshop, or use a die from your Store for its action.",
    "ws_push": "Which die does your moving die push out? (it becomes your active die)",
    "ws_adjust": "You may spend 1 Coal to adjust any Workshop die by 1.",
    "partner_play": "You may play one Partner card with your active die.",
    "mill_place": "Place your active die in your Mill.",
    "study_program": "Ada's Study: choose a Program tile.",
    "take_program": "Choose a Program tile.",
    "program_place": "Place the Program on a line of your Mill (you gain that space's bonus).",
    "study_reward": "Ada's Study: choose a Study reward.",
    "take_assignment": "Choose an Assignment card.",
    "assign_column": "Which Assignment column does the card go in?",
    "travel_move": "Travel: where do you go? (you pay for every route)",
    "move_small": "You may move free to a nearby Small City.",
    "move_university": "Move to the nearest University.",
    "meet_room": "Meetings: which room do you attend, and how do you pay?",
    "meet_card": "Choose a Partner card from the display.",
    "keep_eight": "You have more than eight Partner cards: remove one from your hand or discard pile.",
    "lecture": "Institutions: where do you give a Lecture?",
    "lower_space": "Advanced: you may gain the reward of an unoccupied lower space.",
    "place_disc": "You have no discs left on your board: move one from the main board?",
    "publish_or_build": "End of turn: Publish (spend a Book), Build a Gear, or neither.",
    "gear_place": "Where do you build the Gear?",
    "steam": "Advance your Steam marker?",
    "stack_disc": "Stack a disc on one of your discs.",
    "pips": "Change your dice (up to 4 pips in all).",
    "swap_die": "Which of your dice do you swap with a Workshop die?",
    "swap_with": "Which Workshop die do you swap it with?",
    "hand_limit": "Hand limit: discard down to five cards.",
    "innovation_top": "Your Innovation reached the top: spend 2 for a Workshop bonus?",
    "discard": "Discard a card from your hand.",
    "research": "Gain 1 Research: on which track?",
    "workshop_bonus": "Choose a Workshop bonus reward.",
    "study_item": "Choose a Study item.",
    "take_multiplier": "Take a Multiplier Gear from the display.",
    "take_partner": "Take a Partner card from the display.",
    "play_free": "You may play a card from your hand without its cost.",
    "use_display_partner": "You may use the effect of a Partner card in the display.",
    "build": "You may build a Gear, paying its cost.",
    "upgrade_subtraction": "Swap a built Subtraction Gear for an Addition Gear?",
    "meeting_disc": "Place a disc in a Meeting room.",
    "university_disc": "Place a disc on a University.",
    "lecture_disc": "Place a disc on a Lecture space.",
    "move_disc": "You may move one of your discs on the main board.",
    "move_disc_to": "Where does the disc go?",
    "relocate_university_disc": "You may move a disc between Universities.",
    "relocate_to": "To which University?",
    "assignment_token": "Take a 1-point Assignment Scoring token.",
    "science_token": "Take a 1-point Science Scoring token.",
    "advanced": "Take any level I advanced action.",
    "breakthrough": "Take the reward of a Breakthrough token.",
    "adjust_die": "Adjust a die by 1 pip.",
    "choose": "Choose one.",
}
