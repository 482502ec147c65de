"""The Workshop turn: the moving die pushes a die out, the Workshop bonus, the refill, the
optional Coal adjust, the die to the Store, and a Partner card played with it."""

from __future__ import annotations

from functools import cache, lru_cache
from typing import Final

from engine import sentences as S
from engine.choices import CoalAdjust, PlayCard, PushOut, Skip, WorkshopMove
from engine.common import (
    Choices,
    Step,
    draw_die,
    play_from_hand,
    push,
    push_effect,
    reveal,
    say,
)
from engine.state import DIE_NAMES, PIPS, GameState, die_name
from engine.steps import StepKind
from engine.versions import rule
from engine.vocabulary import COLOUR_AREA

# space -> {die: (pips, its move one space, its move two spaces)}: the Workshop turn's choices,
# asked for every die at every turn
WORKSHOP_MOVES: Final[list[dict[str, tuple[int, str, str]]]] = [
    {
        die: (PIPS[die], WorkshopMove.encode(s, die, 1), WorkshopMove.encode(s, die, 2))
        for die in DIE_NAMES
    }
    for s in range(6)
]


@lru_cache(maxsize=1 << 14)
def space_dice(space: tuple[str, ...]) -> tuple[int, list[str]]:
    """A Workshop space's lowest pips and its different dice in order (a space holds the same
    dice at many turns: kept)."""
    return min(PIPS[d] for d in space), sorted(set(space))


def choices_ws_push(st: GameState, step: Step) -> Choices:
    dest = st.workshop[st.ctx["to"]]
    moving, coal = PIPS[dest[-1]], st.players[st.current].coal >= 1
    out: Choices = []
    for idx, die in enumerate(dest[:-1]):
        if die not in dest[:idx]:
            out += _push_outs(idx, die, moving, coal)
    return out


@cache
def _push_outs(idx: int, die: str, moving: int, coal: bool) -> Choices:
    """The ways the moving die (its pips `moving`) can push out a die (made once: asked at
    every Workshop turn). coal: whether a Coal is left to adjust."""
    v = PIPS[die]
    out: Choices = []
    if v <= moving:
        out.append(PushOut.encode(idx, None))
    if coal and 2 <= v <= moving + 1:
        out.append(PushOut.encode(idx, "-"))
    if coal and v <= moving and v <= 5:
        out.append(PushOut.encode(idx, "+"))
    if coal and v == moving + 1 and moving < 6:
        out.append(PushOut.encode(idx, "M"))
    return out


def resolve_ws_push(st: GameState, step: Step, choice: str) -> None:
    p = st.players[st.current]
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
    say(st, S.PUSHES_OUT, die=die_name(die), bonus=st.edition.workshop_bonuses[bonus]["text"])
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
            space.extend(draw_die(st) for _ in range(min(3, len(st.bag))))
            reveal(st)
            say(st, S.REFILLS, space=s + 1)
            push_effect(st, st.edition.workshop_bonuses[st.workshop_bonus[s]]["effect"])


# the label of its Skip choice (declared with its step too: i18n translates it from there)
NO_ADJUST: Final = "Don't adjust a Workshop die"


def choices_ws_adjust(st: GameState, step: Step) -> Choices:
    """The optional Coal adjust, if not used to push: any die still in the Workshop.

    Quick Reference: "These actions can be done at any point during the Workshop turn." It is
    offered after the push (and refill) and, in rules version 2, once more at the end of the
    Workshop turn's steps if still unused and the Workshop changed since it was declined (a
    Partner swapped a die in, say) or the Coal to pay for it arrived since. Asking again with
    nothing changed would give the same choice twice.
    """
    if st.ctx.get("adjusted") or st.players[st.current].coal < 1:
        return []
    if step.get("late") and st.ctx.get("ws_declined") == st.workshop:
        return []
    out: Choices = [Skip.ID]
    for s, space in enumerate(st.workshop):
        for idx, die in enumerate(space):
            if die not in space[:idx]:
                out += _coal_adjusts(s, idx, die)
    return out


@cache
def _coal_adjusts(s: int, idx: int, die: str) -> Choices:
    """The Coal adjusts of one Workshop die, down then up (made once: asked at most turns)."""
    v = int(die[1])
    return [CoalAdjust.encode(s, idx, delta) for delta in (-1, 1) if 1 <= v + delta <= 6]


def resolve_ws_adjust(st: GameState, step: Step, choice: str) -> None:
    if choice == Skip.ID:
        if rule(st, "workshop_adjust_any_time"):
            st.ctx["ws_declined"] = [list(space) for space in st.workshop]
        return
    s, idx, delta = CoalAdjust.decode(choice)
    space = st.workshop[s]
    die = space[idx]
    space[idx] = f"{die[0]}{int(die[1]) + delta}"
    st.players[st.current].coal -= 1
    st.ctx["adjusted"] = True
    say(st, S.COAL_ADJUST, die=die_name(die), pips=space[idx][1])


def resolve_ws_collect(st: GameState, step: Step, choice: None) -> None:
    p = st.players[st.current]
    slot = p.store.index(None)
    p.store[slot] = st.ctx["active"]
    st.ctx["slot"] = slot


# the label of its Skip choice (declared with its step too: i18n translates it from there)
NO_PARTNER: Final = "Play no Partner card"


def choices_partner_play(st: GameState, step: Step) -> Choices:
    p = st.players[st.current]
    die = p.store[st.ctx["slot"]]
    assert die is not None
    v = PIPS[die]
    out: Choices = [Skip.ID]
    partner = st.edition.partner
    for card in p.hand:
        need = partner[card]["need"]
        ok = (
            (need["kind"] == "value" and v in need["values"])
            or (need["kind"] == "minus1" and v >= 2)
            or (need["kind"] == "money" and p.money >= v)
        )
        if ok:
            out.append(PlayCard.encode(card))
    return out


def resolve_partner_play(st: GameState, step: Step, choice: str) -> None:
    if choice == Skip.ID:
        return
    p = st.players[st.current]
    (card,) = PlayCard.decode(choice)
    info = st.edition.partner[card]
    slot = st.ctx["slot"]
    die = p.store[slot]
    assert die is not None
    if info["need"]["kind"] == "minus1":
        p.store[slot] = f"{die[0]}{int(die[1]) - 1}"
    elif info["need"]["kind"] == "money":
        p.money -= int(die[1])
    say(st, S.PLAYS, card=info["name"], effect=info["text"])
    play_from_hand(st, card)


def resolve_assignment_research(st: GameState, step: Step, choice: None) -> None:
    colour = st.ctx["active"][0]
    if colour in COLOUR_AREA:  # an action colour
        for _ in range(len(st.players[st.current].assignments[colour])):
            push(st, {"op": "research_step", "track": colour})


# The steps of this module (engine.steps; gathered by engine.rules).
STEPS: Final[tuple[StepKind, ...]] = (
    StepKind(
        "ws_push",
        resolve_ws_push,
        choices_ws_push,
        prompt="Which die does your moving die push out? (it becomes your active die)",
        place="workshop",
    ),
    StepKind("ws_bonus", resolve_ws_bonus),
    StepKind("ws_refill", resolve_ws_refill),
    StepKind(
        "ws_adjust",
        resolve_ws_adjust,
        choices_ws_adjust,
        prompt="You may spend 1 Coal to adjust any Workshop die by 1.",
        place="workshop",
        ai_default=Skip.ID,
        decline=NO_ADJUST,
    ),
    StepKind("ws_collect", resolve_ws_collect),
    StepKind(
        "partner_play",
        resolve_partner_play,
        choices_partner_play,
        prompt="You may play one Partner card with your active die.",
        private=True,
        place="hand",
        decline=NO_PARTNER,
    ),
    StepKind("assignment_research", resolve_assignment_research),
)
