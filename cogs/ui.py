"""Message building for the game: custom ids, component layouts, embeds and texts.

Every component's ``custom_id`` carries the game id and the decision's sequence number, so a
click on an old message is recognised from the id alone, and the handlers
(``cogs.components``: ``discord.ui.DynamicItem`` subclasses) keep working after a restart:

    ada:c:<game>:<seq>:<idx>      a choice button (idx = position in decision.choices)
    ada:s:<game>:<seq>:<offset>   a choice select; its values are choice indexes
    ada:pg:<game>:<seq>:<page>    show another page of choices (more than 100 choices)
    ada:p:<game>:<seq>            "Show my choices": a private decision, answered ephemerally
    ada:u:<game>:<seq>            undo the last choice
    ada:h:<game>                  show my hand (ephemeral)
    ada:l:<action>:<game>         lobby: join, leave, ai, start, cancel

Layout: a decision with at most 20 choices shows buttons (4 rows of 5); more choices show up to
four select menus of 25 (100 per page) and page buttons. The last row holds Undo / My hand.
"""

from __future__ import annotations

from collections.abc import Sequence

import discord

from engine import Decision, GameState
from engine import board as B
from store import GameRecord, SeatRecord

BUTTON_MAX = 20
PER_SELECT = 25
SELECTS_PER_PAGE = 4
PAGE_SIZE = PER_SELECT * SELECTS_PER_PAGE
LOG_LINES = 6

#: Decisions about the player's hand: their choices are shown only to that player.
COLOURS = [0x2E86C1, 0xC0392B, 0x27AE60, 0x8E44AD]


def cid_choice(game: int, seq: int, idx: int) -> str:
    return f"ada:c:{game}:{seq}:{idx}"


def cid_select(game: int, seq: int, offset: int) -> str:
    return f"ada:s:{game}:{seq}:{offset}"


def cid_page(game: int, seq: int, page: int) -> str:
    return f"ada:pg:{game}:{seq}:{page}"


def cid_private(game: int, seq: int) -> str:
    return f"ada:p:{game}:{seq}"


def cid_undo(game: int, seq: int) -> str:
    return f"ada:u:{game}:{seq}"


def cid_hand(game: int) -> str:
    return f"ada:h:{game}"


def cid_lobby(action: str, game: int) -> str:
    return f"ada:l:{action}:{game}"


def truncate(text: str, limit: int) -> str:
    """Cut ``text`` to ``limit`` characters, at a word boundary when one is near, with an ellipsis."""
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    space = cut.rfind(" ")
    if space > limit * 0.6:
        cut = cut[:space]
    return cut.rstrip(" ,;:(") + "…"


def is_private(state: GameState) -> bool:
    """Would showing this decision's choices reveal the deciding player's hand?"""
    dec = state.decision
    if dec is None:
        return False
    if dec.private:  # the engine flags decisions that list hand cards
        return True
    # and, to be safe, any choice that names a card in hand
    hand = set(state.players[dec.player].hand)
    return any(part in hand for c in dec.choices for part in c.id.split(":"))


def hand_text(state: GameState, seat: int) -> str:
    p = state.players[seat]
    if not p.hand:
        return "Your hand is empty."
    lines = []
    for card in p.hand:
        info = B.PARTNER[card]
        lines.append(f"• **{info['name']}**: {truncate(str(info.get('text', '')), 160)}")
    return f"Your hand ({len(p.hand)} Partner cards):\n" + "\n".join(lines)


def seat_label(seat: SeatRecord) -> str:
    if seat.is_ai:
        return f"{seat.name} (AI)"
    return f"{seat.name} (<@{seat.user_id}>)"


def mention_of(seat: SeatRecord | None) -> str:
    if seat is None:
        return "?"
    return seat.name if seat.is_ai or seat.user_id is None else f"<@{seat.user_id}>"


def jump_url(guild_id: int, channel_id: int, message_id: int) -> str:
    return f"https://discord.com/channels/{guild_id}/{channel_id}/{message_id}"


# ------------------------------------------------------------------------------- views


def _stopped(view: discord.ui.View) -> discord.ui.View:
    """Our components are handled by dynamic items; a stopped view is never stored by discord.py."""
    view.stop()
    return view


def choice_items(
    game: int, seq: int, dec: Decision, page: int = 0
) -> tuple[list[discord.ui.Item[discord.ui.View]], int]:
    """The components for the choices of ``dec`` (page ``page``) and the number of pages."""
    items: list[discord.ui.Item[discord.ui.View]] = []
    choices = dec.choices
    if len(choices) <= BUTTON_MAX:
        for i, c in enumerate(choices):
            style = (
                discord.ButtonStyle.secondary
                if c.id in ("skip", "done", "pass")
                else discord.ButtonStyle.primary
            )
            items.append(
                discord.ui.Button(
                    label=truncate(f"{i + 1}. {c.label}", 80),
                    style=style,
                    custom_id=cid_choice(game, seq, i),
                    row=i // 5,
                )
            )
        return items, 1
    pages = (len(choices) + PAGE_SIZE - 1) // PAGE_SIZE
    page = max(0, min(page, pages - 1))
    start = page * PAGE_SIZE
    for row, offset in enumerate(range(start, min(start + PAGE_SIZE, len(choices)), PER_SELECT)):
        chunk = choices[offset : offset + PER_SELECT]
        options = []
        for j, c in enumerate(chunk):
            label = f"{offset + j + 1}. {c.label}"
            rest = label[95:] if len(label) > 100 else ""
            options.append(
                discord.SelectOption(
                    label=truncate(label, 100),
                    value=str(offset + j),
                    description=truncate("…" + rest, 100) if rest else None,
                )
            )
        items.append(
            discord.ui.Select(
                custom_id=cid_select(game, seq, offset),
                placeholder=truncate(
                    f"Choices {offset + 1}–{offset + len(chunk)} of {len(choices)}", 150
                ),
                options=options,
                row=row,
            )
        )
    return items, pages


def turn_view(
    game: int,
    seq: int,
    state: GameState,
    *,
    page: int = 0,
    private_ok: bool = False,
) -> discord.ui.View:
    """Components of a turn message (``private_ok``: this is the deciding player's own
    ephemeral message, so hand decisions may show their choices)."""
    view = discord.ui.View(timeout=None)
    dec = state.decision
    if dec is None:
        return _stopped(view)
    controls: list[discord.ui.Item[discord.ui.View]] = []
    if is_private(state) and not private_ok:
        view.add_item(
            discord.ui.Button(
                label="Show my choices (private)",
                style=discord.ButtonStyle.success,
                custom_id=cid_private(game, seq),
                row=0,
            )
        )
    else:
        items, pages = choice_items(game, seq, dec, page)
        for item in items:
            view.add_item(item)
        if pages > 1:
            if page > 0:
                controls.append(
                    discord.ui.Button(label="◀ Previous", custom_id=cid_page(game, seq, page - 1))
                )
            if page < pages - 1:
                controls.append(
                    discord.ui.Button(label="Next ▶", custom_id=cid_page(game, seq, page + 1))
                )
    if state.can_undo():
        controls.append(
            discord.ui.Button(
                label="Undo", style=discord.ButtonStyle.danger, custom_id=cid_undo(game, seq)
            )
        )
    if not private_ok:
        controls.append(discord.ui.Button(label="My hand", custom_id=cid_hand(game)))
    for item in controls:
        item.row = 4
        view.add_item(item)
    return _stopped(view)


def lobby_view(game: int, *, open_: bool = True) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    if open_:
        view.add_item(
            discord.ui.Button(
                label="Join", style=discord.ButtonStyle.success, custom_id=cid_lobby("join", game)
            )
        )
        view.add_item(discord.ui.Button(label="Leave", custom_id=cid_lobby("leave", game)))
        view.add_item(discord.ui.Button(label="Add AI", custom_id=cid_lobby("ai", game)))
        view.add_item(
            discord.ui.Button(
                label="Start", style=discord.ButtonStyle.primary, custom_id=cid_lobby("start", game)
            )
        )
        view.add_item(
            discord.ui.Button(
                label="Cancel",
                style=discord.ButtonStyle.danger,
                custom_id=cid_lobby("cancel", game),
            )
        )
    return _stopped(view)


def empty_view() -> discord.ui.View:
    return _stopped(discord.ui.View(timeout=None))


# ------------------------------------------------------------------------------- texts


def lobby_embed(rec: GameRecord) -> discord.Embed:
    cap = rec.options.get("players", 4)
    seats = "\n".join(f"{i + 1}. {seat_label(s)}" for i, s in enumerate(rec.seats)) or "nobody yet"
    status = {
        "lobby": "Waiting for players: **Join**, then the creator presses **Start**.",
        "cancelled": "This game was cancelled.",
    }.get(rec.status, f"Status: {rec.status}.")
    embed = discord.Embed(
        title=f"Ada's Dream — game #{rec.id}",
        description=f"{status}\nSeats ({len(rec.seats)}/{cap}):\n{seats}",
        colour=0xB9770E,
    )
    hours = rec.options.get("reminder_hours")
    embed.set_footer(
        text=f"Created by user {rec.creator_id}"
        + (f" · reminders after {hours:g} h" if hours else "")
        + " · seat order and first player are drawn at the start"
    )
    return embed


def recent_log(state: GameState, lines: int = LOG_LINES, limit: int = 1000) -> str:
    out: list[str] = []
    size = 0
    for line in reversed(state.log[-lines:]):
        size += len(line) + 3
        if size > limit:
            break
        out.append(f"• {line}")
    return "\n".join(reversed(out)) or "—"


def choices_listing(dec: Decision, limit: int = 2400) -> str:
    """The full labels, numbered (buttons truncate at 80 characters)."""
    out = []
    size = 0
    for i, c in enumerate(dec.choices):
        line = f"`{i + 1}` {c.label}"
        size += len(line) + 1
        if size > limit:
            out.append(f"… and {len(dec.choices) - i} more in the menus")
            break
        out.append(line)
    return "\n".join(out)


def turn_embeds(
    rec: GameRecord,
    state: GameState,
    *,
    board_file: str | None,
    mill_file: str | None,
    note: str | None = None,
) -> list[discord.Embed]:
    dec = state.decision
    assert dec is not None
    seat = rec.seat_at(dec.player)
    name = state.players[dec.player].name
    colour = COLOURS[dec.player % len(COLOURS)]
    desc = [f"**What just happened**\n{recent_log(state)}", ""]
    who = mention_of(seat)
    desc.append(f"**{who} — {dec.prompt}**")
    if is_private(state):
        desc.append("This decision is about their hand: the choices are shown to them privately.")
    elif len(dec.choices) > BUTTON_MAX:
        # Select menus show each full label already: a list here would only repeat them.
        desc.append(f"Pick one of the {len(dec.choices)} choices in the menus below.")
    else:
        desc.append(choices_listing(dec))
    if note:
        desc.append(f"\n_{note}_")
    embed = discord.Embed(
        title=f"Game #{rec.id} · round {state.round} · {name}'s turn",
        description=truncate("\n".join(desc), 4000),
        colour=colour,
    )
    if board_file:
        embed.set_image(url=f"attachment://{board_file}")
    embed.set_footer(text=f"Decision {len(state.history)} · type a move with /ada play · /ada help")
    embeds = [embed]
    if mill_file:
        mill = discord.Embed(title=f"Mill of {name}", colour=colour)
        mill.set_image(url=f"attachment://{mill_file}")
        embeds.append(mill)
    return embeds


def final_embed(rec: GameRecord, state: GameState, scorepad_file: str | None) -> discord.Embed:
    from engine.scoring import CATEGORIES

    scores = state.final_scores()
    win = state.winner()
    names = state.seat_names
    header = "Category".ljust(18) + "".join(n[:8].rjust(9) for n in names)
    rows = [
        cat[:18].ljust(18) + "".join(str(s[cat]).rjust(9) for s in scores)
        for cat in [*CATEGORIES, "Total"]
    ]
    table = "```\n" + "\n".join([header, *rows]) + "\n```"
    winner_seat = rec.seat_at(win)
    embed = discord.Embed(
        title=f"Game #{rec.id} is over — {names[win]} wins!",
        description=f"Congratulations {mention_of(winner_seat)}!\n{table}",
        colour=0xF1C40F,
    )
    if scorepad_file:
        embed.set_image(url=f"attachment://{scorepad_file}")
    return embed


def seat_names(rec: GameRecord) -> Sequence[str]:
    return [s.name for s in rec.seats_in_turn_order]
