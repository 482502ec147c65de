"""The rules of Ada's Dream as pure functions over a GameState.

How it works
------------
The state keeps a stack of pending *steps* (`state.stack`, top last). Each step is a small dict
`{"op": name, ...}`. Every op is declared once, in the `STEPS` of the module of its area of the
game (`engine.steps.StepKind`): a `resolve(st, step, choice)` function and, if the step may need a
player's decision, a `choices(st, step)` function that returns the ids of the legal choices in a
stable order (or AUTO to resolve without asking; their labels are built only when a decision is
shown, by `engine.labels`), with its prompt and the other traits
of the decision. This module gathers them into `STEPS` and reads its tables from it.

`run()` resolves steps until one needs a decision with two or more choices (a step with a single
legal choice is applied at once, one with none is skipped: "if you are unable to gain the benefits
of an effect you do not gain them"). Card, tile and space effects are lists of steps taken from
the game's edition (`engine.edition`), so the same interpreter runs all of them, and a pending
chain of effects is plain data that survives serialisation.

Where things are
----------------
- this module: setup (`new_game`, `replay`, the draft), the decision loop (`run`,
  `legal_ids`, `legal_choices`, `decision`, `apply`) and the registry of every step (`STEPS`);
- `engine.turn`: the turn itself (Workshop turn or Actions turn, the advanced actions, the end of
  a turn); `engine.workshop`, `engine.study`, `engine.travel`, `engine.meetings`,
  `engine.institutions`, `engine.discs`, `engine.publish`: the steps of each area;
- `engine.effects`: the effect steps of the rulebook's Icon Reference;
- `engine.objectives`: Objective conditions;
- `engine.common`: helpers shared by all of them (chance, displays, discs on the main board).
"""

from __future__ import annotations

from typing import Any, Final

from engine import (
    discs,
    effects,
    institutions,
    labels,
    meetings,
    publish,
    rng,
    study,
    travel,
    turn,
    workshop,
)
from engine import sentences as S
from engine import vocabulary as V
from engine.choices import Done, DraftCard, Skip
from engine.common import (
    AUTO,
    Choices,
    Step,
    draw_cards,
    draw_die,
    partner_name,
    push,
    say,
    slide_and_refill,
)
from engine.edition import edition
from engine.state import Choice, Decision, GameSetup, GameState, IllegalChoice, PlayerState
from engine.steps import StepKind, registry
from engine.versions import rule
from engine.vocabulary import AREAS

# ======================================================================================
# Setup
# ======================================================================================


def new_game(setup: GameSetup) -> GameState:
    """Set up a game as the rulebook's Setup section describes, all chance drawn from the seed,
    with the content of the edition the setup names (raises UnknownEdition)."""
    ed = edition(setup.edition)
    seed = setup.seed & ((1 << 64) - 1)
    n = setup.players
    names = list(setup.names)
    if setup.shuffle_seats:
        seed = rng.shuffle(seed, names)
    players = [
        PlayerState(name=names[i], colour=ed.player_colours[i], store=[None] * ed.store_slots)
        for i in range(n)
    ]
    st = GameState(setup=setup, players=players, rng=seed, edition=ed)

    # Universities, Objectives, Breakthroughs, Science stacks: printed standard or random.
    std = ed.standard_setup
    if setup.random_setup:
        for region in ("southern", "central"):
            spaces = [c for c in ed.university_cities if ed.city[c]["region"] == region]
            tiles = [t["id"] for t in ed.university_tiles if t["region"] == region]
            st.rng = rng.shuffle(st.rng, tiles)
            st.universities.update(zip(spaces, tiles, strict=False))
        st.rng, side_pick = rng.below(st.rng, 2)
        side = "AB"[side_pick]
        for area in AREAS:
            options = [o["id"] for o in ed.objectives if o["area"] == area and o["side"] == side]
            st.rng, k = rng.below(st.rng, len(options))
            st.objectives.append(options[k])
        tokens = [b["id"] for b in ed.breakthroughs]
        st.rng = rng.shuffle(st.rng, tokens)
        st.breakthroughs = dict(zip(V.COLOURS_MAIN, tokens, strict=False))
        st.room_science = list(V.SCIENCES)
        st.rng = rng.shuffle(st.rng, st.room_science)
        st.workshop_bonus = list(ed.workshop_order)
        st.rng = rng.shuffle(st.rng, st.workshop_bonus)
    else:
        st.universities = dict(std["universities"])
        st.objectives = [std["objectives"][a] for a in AREAS]
        st.breakthroughs = dict(std["breakthroughs"])
        st.room_science = list(std["science_rooms"])
        st.workshop_bonus = list(std["workshop_order"])
    st.university_discs = {c: [] for c in ed.university_cities}
    st.assignment_token_stacks = {
        c: list(reversed(ed.assignment_token_stack)) for c in V.COLOURS_MAIN
    }
    st.rooms = [[None] * room["capacity"] for room in ed.meeting_rooms]

    # Dice: 2 of each colour out with 2 players, 1 with 3.
    remove = ed.dice_removed_per_colour[n]
    st.bag = [c for c in V.DIE_COLOURS for _ in range(ed.dice_per_colour - remove)]
    st.workshop = [
        [draw_die(st) for _ in range(ed.workshop_dice_per_space)] for _ in range(ed.workshop_spaces)
    ]

    st.program_deck = [p["id"] for p in ed.programs]
    st.rng = rng.shuffle(st.rng, st.program_deck)
    st.program_display = [None] * ed.program_display
    st.assignment_deck = [a["id"] for a in ed.assignments]
    st.rng = rng.shuffle(st.rng, st.assignment_deck)
    st.assignment_display = [None] * ed.assignment_display
    st.multiplier_deck = [m["id"] for m in ed.multipliers]
    st.rng = rng.shuffle(st.rng, st.multiplier_deck)
    st.multiplier_display = [None] * ed.multiplier_display
    for name in ("program", "assignment", "multiplier"):
        slide_and_refill(st, name)

    # Partners: one tier-1 card each, tier-1 deck cut to 6, tier 2 under it.
    tier1 = [p["id"] for p in ed.partners if p["tier"] == 1]
    tier2 = [p["id"] for p in ed.partners if p["tier"] == 2]
    st.rng = rng.shuffle(st.rng, tier1)
    st.rng = rng.shuffle(st.rng, tier2)
    dealt = [tier1.pop() for _ in range(n)]
    if n < 4:
        tier1 = tier1[: ed.tier1_deck_after_deal]
    st.partner_deck = tier2 + tier1  # the top of a deck is the end of its list
    st.partner_display = [None] * ed.partner_display
    slide_and_refill(st, "partner")

    st.addition_supply = ed.addition_gears - n
    for i, p in enumerate(players):
        p.deck = [c["id"] for c in ed.partners if c["tier"] == "S" and c["deck"] == p.colour]
        if not setup.draft_tier1:
            _join_deck(st, p, dealt[i])
        for res, amount in ed.start_resources.items():
            setattr(p, res, amount + ed.seat_bonus[i].get(res, 0))
        p.city = ed.start_city
        p.innovation = ed.innovation_start
        p.steam = ed.steam_start
        p.gear_supply = list(ed.start_gears)
    st.log.append(S.SET_UP.say(players=n, name=players[0].name))
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
    draw_cards(st, p, st.edition.start_hand)


def resolve_set_seat(st: GameState, step: Step, choice: None) -> None:
    st.current = step["seat"]


def choices_draft(st: GameState, step: Step) -> Choices:
    return [DraftCard.encode(c) for c in st.ctx["draft"]]


def resolve_draft(st: GameState, step: Step, choice: str) -> None:
    (card,) = DraftCard.decode(choice)
    st.ctx["draft"].remove(card)
    _join_deck(st, st.me, card)
    say(st, S.DRAFTS, card=partner_name(st, card))


# The steps of the setup: the experienced players' draft of the dealt tier 1 cards (engine.steps).
SETUP_STEPS: Final[tuple[StepKind, ...]] = (
    StepKind("set_seat", resolve_set_seat),
    StepKind(
        "draft",
        resolve_draft,
        choices_draft,
        prompt="Draft one of the dealt Partner cards: it goes into your deck.",
        place="hand",
    ),
)


def replay(setup: GameSetup, choices: list[str]) -> GameState:
    """Rebuild a game from its setup and the list of choices made (raises IllegalChoice)."""
    st = new_game(setup)
    for choice in choices:
        apply(st, choice)
    return st


# ======================================================================================
# The decision loop
# ======================================================================================


def _choices_of(st: GameState, step: Step) -> Choices | None:
    fn = CHOICES.get(step["op"])
    return AUTO if fn is None else fn(st, step)


def run(st: GameState, step: Step | None = None, choice: str | None = None) -> None:
    """Resolve steps until a player must decide something, or the game is over. `apply` hands
    over the step it took off the stack with the player's choice: resolved first."""
    # The loop of every step of every game, names looked up once.
    stack = st.stack
    choices_of = CHOICES.get
    resolve = RESOLVE
    # Rules version 2 claims Objectives as soon as a step completes one (asked once per rules
    # version, not per step; only steps that can change what an Objective asks are checked after).
    claim_after = _CLAIM_AFTER.get(st.setup.rules_version)
    if claim_after is None:
        claim_after = OBJECTIVE_STEPS if rule(st, "objectives_at_once") else frozenset()
        _CLAIM_AFTER[st.setup.rules_version] = claim_after
    op = None if step is None else step["op"]
    while True:
        if op is not None:  # (None: no step taken yet, or one skipped without a choice)
            resolve[op](st, step, choice)
            if op in claim_after and "type" in st.ctx:
                turn.claim_objectives(st)
        if st.over:
            return
        if not stack:
            push(st, "turn")
        step = stack[-1]
        op = step["op"]
        fn = choices_of(op)
        if fn is None:  # most steps ask nothing
            choice = None
        else:
            options = fn(st, step)
            if options is AUTO:
                choice = None
            elif not options:
                op = None  # no legal choice: the step is skipped
            elif len(options) == 1:
                choice = options[0]
            else:
                st.pending_choices = (len(st.history), step, options)
                return
        stack.pop()


# rules version -> the steps `run` follows by a claim of the Objectives completed
_CLAIM_AFTER: dict[int, frozenset[str]] = {}

# Tests set this: every reuse of a listing is checked against a fresh one, so a state arranged by
# hand without `forget_choices` fails loudly instead of answering with the old listing.
CHECK_REUSED_CHOICES = False


def forget_choices(st: GameState) -> None:
    """Drop the listing kept for the pending decision. A state changes through `apply`, which
    lists the next decision's choices once for `legal_ids`, `decision` and the next `apply`
    to reuse; a state changed any other way (tests arrange positions by hand) must forget it."""
    st.pending_choices = None


def legal_ids(st: GameState) -> Choices:
    """The ids of the legal choices of the pending decision, in a stable order (what the loop
    and the AI read: no labels are built)."""
    if st.over or not st.stack:
        return []
    step = st.stack[-1]
    cached = st.pending_choices
    if cached and cached[1] is step and cached[0] == len(st.history):
        # the listing computed for this very decision (by `run` or an earlier call)
        if CHECK_REUSED_CHOICES and cached[2] != (_choices_of(st, step) or []):
            raise AssertionError(
                "the state changed since its choices were listed: after arranging a state by "
                "hand, call rules.forget_choices(state)"
            )
        return cached[2]
    options = _choices_of(st, step) or []
    st.pending_choices = (len(st.history), step, options)
    return options


def legal_choices(st: GameState) -> list[tuple[str, str]]:
    """The legal (id, label) pairs of the pending decision, in a stable order: the labels are
    built now (engine.labels), so a loop that needs only ids reads `legal_ids`."""
    ids = legal_ids(st)
    if not ids:
        return []
    listing = st.pending_choices  # (legal_ids has just made it this decision's listing)
    if len(listing) == 4:  # labelled already: a turn message asks several times
        return listing[3]
    op = st.stack[-1]["op"]
    decline = STEPS[op].decline
    pairs = [(i, labels.label(st, op, i, decline)) for i in ids]
    st.pending_choices = (*listing[:3], pairs)
    return pairs


def decision(st: GameState) -> Decision | None:
    if st.over or not st.stack:
        return None
    step = st.stack[-1]
    op = step["op"]
    prompt = PROMPTS[op]  # (every step that asks has one: engine.steps.registry)
    return Decision(
        player=st.current,
        kind=op,
        prompt=prompt,
        choices=[Choice(i, label) for i, label in legal_choices(st)],
        optional=any(i in _OPTIONAL for i in legal_ids(st)),
        private=op in PRIVATE_DECISIONS,
    )


def apply(st: GameState, choice_id: str) -> None:
    """Apply a legal choice (mutating the state) and run on to the next decision."""
    options = legal_ids(st)
    if choice_id not in options:
        raise IllegalChoice(
            f"{choice_id!r} is not a legal choice now"
            + (f" (legal: {', '.join(options[:8])}...)" if options else "")
        )
    st.pending_choices = None
    step = st.stack.pop()
    st.history.append(choice_id)
    run(st, step, choice_id)


def can_undo(st: GameState) -> bool:
    return not st.over and len(st.history) > st.undo_floor


# ======================================================================================
# Registry
# ======================================================================================


# The modules of the steps, each declaring its own in STEPS (a new module of steps joins here).
STEP_MODULES: Final = (
    turn,
    workshop,
    study,
    travel,
    meetings,
    institutions,
    discs,
    publish,
    effects,
)
# Every step of the rules, by op: each module's own declaration (engine.steps), checked at import
# against the stored choice-id forms. The tables below are read from it.
STEPS: Final[dict[str, StepKind]] = registry(
    SETUP_STEPS, *[module.STEPS for module in STEP_MODULES]
)
# the loop's tables (tests wrap them: not Final)
CHOICES: dict[str, Any] = {op: k.choices for op, k in STEPS.items() if k.choices}
RESOLVE: dict[str, Any] = {op: k.resolve for op, k in STEPS.items()}
PROMPTS: Final[dict[str, str]] = {op: k.prompt for op, k in STEPS.items() if k.prompt}
# Decisions whose choices name cards in the player's hand (hidden information).
PRIVATE_DECISIONS: Final = frozenset(op for op, k in STEPS.items() if k.private)
# The steps after which rules version 2 checks the Objectives (turn.claim_objectives).
OBJECTIVE_STEPS: Final = frozenset(op for op, k in STEPS.items() if k.objectives)
# The AI's quick answer of a decision, if it has one (engine.ai).
AI_DEFAULTS: Final[dict[str, str]] = {op: k.ai_default for op, k in STEPS.items() if k.ai_default}

# Choices that decline: a decision offering one is optional.
_OPTIONAL = (Skip.ID, Done.ID)
