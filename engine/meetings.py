"""Meetings: attending a Meeting room, recruiting a Partner card from the display, and the
limit of eight Partner cards."""

from __future__ import annotations

from typing import Final

from engine import sentences as S
from engine.choices import AttendRoom, DisplayCard, RemoveCard
from engine.common import (
    Choices,
    Step,
    open_rooms,
    partner_name,
    push,
    say,
    shown,
    slide_and_refill,
    take_display_card,
)
from engine.state import GameState
from engine.steps import StepKind
from engine.versions import rule


def choices_meet_room(st: GameState, step: Step) -> Choices:
    p = st.players[st.current]
    out: Choices = []
    for r in open_rooms(st):
        room = st.edition.meeting_rooms[r]
        if p.money >= room["money"]:
            out.append(AttendRoom.encode(r, "money"))
        if p.innovation >= room["innovation"]:
            out.append(AttendRoom.encode(r, "innovation"))
    return out


def resolve_meet_room(st: GameState, step: Step, choice: str) -> None:
    r, how = AttendRoom.decode(choice)
    room = st.edition.meeting_rooms[r]
    setattr(st.players[st.current], how, getattr(st.players[st.current], how) - room[how])
    say(st, S.ATTENDS, room=r + 1)
    push(st, {"op": "place_disc", "to": f"room:{r}"}, {"op": "meet_card", "room": r})


def choices_meet_card(st: GameState, step: Step) -> Choices:
    return [
        DisplayCard.encode(s)
        for s, c in enumerate(st.partner_display)
        if c is not None and s >= step["room"]
    ]


def resolve_meet_card(st: GameState, step: Step, choice: str) -> None:
    (slot,) = DisplayCard.decode(choice)  # (the room of the same number says how many to draw)
    card = take_display_card(st, choice)
    say(st, S.RECRUITS, card=partner_name(st, card))
    draw = {"op": "draw", "n": st.edition.meeting_rooms[slot]["draw"]}
    if rule(st, "meetings_remove_before_draw"):
        # rulebook: gaining a Partner "you must immediately remove a Partner card"; never more
        # than eight (summary-faq). Then draw.
        push(st, "keep_eight", draw, {"op": "meet_cleanup"})
    else:
        push(st, draw, "keep_eight", {"op": "meet_cleanup"})  # as Isobel's example narrates it


def resolve_meet_cleanup(st: GameState, step: Step, choice: None) -> None:
    slide_and_refill(st, "partner", remove_rightmost=True)


def choices_keep_eight(st: GameState, step: Step) -> Choices:
    p = st.players[st.current]
    if len(p.supply()) <= st.edition.supply_size:
        return []
    return [RemoveCard.encode(c) for c in p.hand + p.discard]


def resolve_keep_eight(st: GameState, step: Step, choice: str) -> None:
    p = st.players[st.current]
    (card,) = RemoveCard.decode(choice)
    if card in p.hand:
        p.hand.remove(card)
        shown(st)
    else:
        p.discard.remove(card)
    say(st, S.REMOVES_CARD, card=partner_name(st, card))
    push(st, "keep_eight")


# The steps of this module (engine.steps; gathered by engine.rules).
STEPS: Final[tuple[StepKind, ...]] = (
    StepKind(
        "meet_room",
        resolve_meet_room,
        choices_meet_room,
        prompt="Meetings: which room do you attend, and how do you pay?",
        place="meetings",
    ),
    StepKind(
        "meet_card",
        resolve_meet_card,
        choices_meet_card,
        prompt="Choose a Partner card from the display.",
        place="meetings",
    ),
    StepKind("meet_cleanup", resolve_meet_cleanup),
    StepKind(
        "keep_eight",
        resolve_keep_eight,
        choices_keep_eight,
        prompt="You have more than eight Partner cards: remove one from your hand or discard pile.",
        private=True,
        objectives=True,
        place="hand",
    ),
)
